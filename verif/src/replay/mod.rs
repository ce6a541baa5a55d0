//! Verification of the replay blocks (Turner, MASc thesis, UBC 2012, seed
//! 004): per block, its constrained-random driver and its property checks,
//! and the tracker traffic harness of the composed unit. The tests that run
//! them are in `verif/tests/blocks/<block>.rs`.

pub mod credit_tracker;
pub mod mshr_predictor;
pub mod mshr_table;
pub mod naive_tracker;
pub mod replay_unit;
pub mod traffic;
pub mod warp_buffer;

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] = &[
    &warp_buffer::VERIF,
    &mshr_table::VERIF,
    &credit_tracker::VERIF,
    &naive_tracker::VERIF,
    &mshr_predictor::VERIF,
    &replay_unit::VERIF,
];
