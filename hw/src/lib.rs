//! warpforge hardware: the construction IR, the Verilog emitter and the
//! synthesizable blocks of the SM pipeline.

pub mod ir;
pub mod params;
pub mod verilog;
pub mod blocks;

pub use params::{clog2, BlockParams, ParamError, ParamSpec, Params};
