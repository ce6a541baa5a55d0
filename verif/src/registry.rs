//! Verification side of the block registry: for each block name, its
//! constrained-random stimulus driver (its reference model is in the
//! `models` registry).

use crate::stimulus::Driver;
use hw::params::{ParamError, Params};

/// Builds a block's stimulus driver for a parameter set and seed.
pub type DriverFn = fn(&Params, u64) -> Result<Box<dyn Driver>, ParamError>;

pub struct VerifBlock {
    pub name: &'static str,
    pub driver: DriverFn,
}

/// Every block's verification entry.
pub fn verif_blocks() -> Vec<&'static VerifBlock> {
    let mut all: Vec<&'static VerifBlock> = Vec::new();
    all.extend(crate::pmode::VERIF.iter().copied());
    all.extend(crate::dac::VERIF.iter().copied());
    all.extend(crate::replay::VERIF.iter().copied());
    all
}

pub fn find(name: &str) -> Option<&'static VerifBlock> {
    verif_blocks().into_iter().find(|b| b.name == name)
}
