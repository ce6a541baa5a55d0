//! Verification of the decoupled affine computation (DAC) blocks (Wang and
//! Lin, ISCA 2017, seed 003): per block, its constrained-random driver and its
//! property checks against the per-thread reference expansions of
//! `models::dac::affine`. The tests that run them are in
//! `verif/tests/blocks/<block>.rs`.

// Checks index parallel per-warp / per-offset arrays; explicit indices read
// closer to the hardware than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod aeu;
pub mod affine_simt_stack;
pub mod atq;
pub mod dac_unit;
pub mod peu;
pub mod pwaq;
pub mod stim;

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] =
    &[&atq::VERIF, &aeu::VERIF, &peu::VERIF, &pwaq::VERIF, &pwaq::VERIF_PWPQ, &affine_simt_stack::VERIF, &dac_unit::VERIF];
