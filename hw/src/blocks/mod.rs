//! Synthesizable blocks, one file per block, grouped by the mechanism (paper)
//! they come from.

pub mod dac;
pub mod pmode;
pub mod replay;
