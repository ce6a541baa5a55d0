//! warpforge waves: VCD writing (streamed through the `vcd` crate), GTKWave
//! save files, and comparison of two VCD files.
//!
//! Time convention shared by every engine (the Rust simulator, Verilator and
//! iverilog harnesses): wave slot `k` starts at `k * PERIOD` with the clock
//! low and that cycle's inputs applied; the rising edge, where registers take
//! their new values, is at `k * PERIOD + PERIOD / 2`. Slot 0 is the reset
//! cycle every run starts with; stimulus cycle `c` is slot `c + 1`. The
//! timescale is 1 ns.

mod diff;
mod file;
mod gtkw;
mod writer;

pub use file::PathWriter;
pub use diff::{diff_files, signal_paths, DiffError, Difference};
pub use gtkw::{Gtkw, GtkwGroup};
pub use writer::{VarId, VcdWriter};

/// Clock period in VCD time units (ns).
pub const PERIOD: u64 = 10;

/// Errors of the waves crate name the file involved.
#[derive(Debug, thiserror::Error)]
pub enum WavesError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}
