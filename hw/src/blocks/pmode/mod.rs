//! Warp pre-execution (P-mode) blocks: Kim et al., HPCA 2016 (seed 000),
//! sections 4 and 5.

pub mod scoreboard;

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[&scoreboard::BLOCK];
