//! Reference models of the pmode blocks.

pub mod scoreboard;

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] = &[&scoreboard::VERIF];
