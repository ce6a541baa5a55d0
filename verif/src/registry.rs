//! Verification side of the block registry: for each block name, its
//! reference model and its constrained-random stimulus driver.

use crate::stimulus::Driver;
use hw::params::{ParamError, Params};
use sim::Component;

/// Builds a block's reference model for a parameter set.
pub type ModelFn = fn(&Params) -> Result<Box<dyn Component>, ParamError>;
/// Builds a block's stimulus driver for a parameter set and seed.
pub type DriverFn = fn(&Params, u64) -> Result<Box<dyn Driver>, ParamError>;

pub struct VerifBlock {
    pub name: &'static str,
    pub model: ModelFn,
    pub driver: DriverFn,
}

/// Every block's verification entry.
pub fn verif_blocks() -> Vec<&'static VerifBlock> {
    let mut all: Vec<&'static VerifBlock> = Vec::new();
    all.extend(crate::models::pmode::VERIF.iter().copied());
    all.extend(crate::models::dac::VERIF.iter().copied());
    all.extend(crate::models::replay::VERIF.iter().copied());
    all
}

pub fn find(name: &str) -> Option<&'static VerifBlock> {
    verif_blocks().into_iter().find(|b| b.name == name)
}
