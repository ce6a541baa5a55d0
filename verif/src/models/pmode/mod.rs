//! Reference models of the pmode blocks (specifications: `hw::blocks::pmode`),
//! each with its constrained-random driver and property checks.

pub mod common;
pub mod pqueue;
pub mod rename;
pub mod simt_stack;
pub mod mode_ctrl;
pub mod pmode_unit;

pub mod scoreboard;

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] =
    &[&scoreboard::VERIF, &pqueue::VERIF, &rename::VERIF, &simt_stack::VERIF, &mode_ctrl::VERIF, &pmode_unit::VERIF];
