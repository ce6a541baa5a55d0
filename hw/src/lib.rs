//! warpforge hardware: the construction IR, the Verilog emitter and the
//! synthesizable blocks of the SM pipeline.

pub mod blocks;
pub mod iface;
pub mod ir;
pub mod params;
pub mod registry;
pub mod stats;
pub mod util;
pub mod verilog;

pub use params::{clog2, BlockParams, ParamError, ParamSpec, Params};
pub use registry::{Block, BlockError, BlockInfo, PaperFigure, StorageAccount, StorageDiff};
