//! Reference models of the replay blocks.

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] = &[];
