//! Decoupled affine computation (DAC) blocks: Wang and Lin, ISCA 2017
//! (seed 003), sections 3 and 4.

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[];
