//! Verification side of the block registry: for each block name, its
//! reference model and its constrained-random stimulus driver.

use crate::stimulus::Driver;
use hw::params::{ParamError, Params};
use sim::Component;

pub struct VerifBlock {
    pub name: &'static str,
    pub model: fn(&Params) -> Result<Box<dyn Component>, ParamError>,
    pub driver: fn(&Params, u64) -> Result<Box<dyn Driver>, ParamError>,
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
