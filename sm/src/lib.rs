//! warpforge's timing SM: one streaming multiprocessor, clocked and
//! cycle-accurate, with the hardware blocks (scoreboard, MSHR table, and per
//! mode the P-mode unit) in the loop on a chosen engine, running kernels
//! whose values come from the functional model.
//!
//! Why its own crate: it sits above the blocks (hw), the engines (sim), the
//! reference models and the kernel front end, and below verification and
//! the command line; keeping it separate keeps that dependency direction one
//! way.

pub mod blocks;
pub mod config;
pub mod core;
pub mod func;
pub mod gpu;
pub mod mem;
pub mod pipeview;
pub mod plot;
pub mod report;
pub mod run;
pub mod stats;
pub mod sweep;
pub mod trace;

pub use blocks::Engine;
pub use config::{Config, Mode, Policy};
pub use stats::{Stall, Stats};
