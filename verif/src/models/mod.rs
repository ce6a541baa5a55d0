//! Plain-Rust reference models, one file per block, each cycle-accurate at the
//! block's ports, with a constrained-random stimulus driver beside it.

pub mod dac;
pub mod pmode;
pub mod replay;
