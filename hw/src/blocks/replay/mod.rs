//! Replay and memory-hazard avoidance blocks: Turner, MASc thesis, UBC 2012
//! (seed 004), chapters 5 and 6.

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[];
