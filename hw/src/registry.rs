//! The block registry: every synthesizable block by name, with its parameters,
//! its generator and the paper's storage figures to compare against.

use crate::ir::{HwError, Module};
use crate::params::{ParamError, ParamSpec, Params};
use std::sync::Arc;

/// One line of a paper's storage accounting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperFigure {
    pub what: String,
    pub bits: u64,
}

impl PaperFigure {
    pub fn new(what: impl Into<String>, bits: u64) -> Self {
        PaperFigure { what: what.into(), bits }
    }
}

/// Error building a block from user-given parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlockError {
    #[error("{0}")]
    Param(#[from] ParamError),
    #[error("{0}")]
    Hw(#[from] HwError),
    #[error("unknown block `{name}` (blocks: {known})")]
    Unknown { name: String, known: String },
}

/// A registered block.
pub struct BlockInfo {
    pub name: &'static str,
    /// One line: what the block is.
    pub summary: &'static str,
    /// The paper section it implements.
    pub source: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params) -> Result<Arc<Module>, BlockError>,
    /// The paper's storage accounting for this parameter set (may be empty).
    pub paper_storage: fn(&Params) -> Vec<PaperFigure>,
    /// A composition of other blocks (a unit): `make bench` reports its
    /// yosys synthesis figures.
    pub composed: bool,
}

impl BlockInfo {
    /// Resolve `name=value` overrides against this block's parameters.
    pub fn params(&self, overrides: &[(String, String)]) -> Result<Params, ParamError> {
        Params::resolve(self.name, self.params, overrides)
    }

    pub fn default_params(&self) -> Params {
        Params::resolve(self.name, self.params, &[]).expect("defaults are in range")
    }

    pub fn elaborate(&self, p: &Params) -> Result<Arc<Module>, BlockError> {
        (self.build)(p)
    }
}

/// Module name for a parameter set: the block name for the paper's defaults,
/// otherwise with the non-default parameters appended (`scoreboard_warps16`),
/// so each parameter set is its own Verilog module.
pub fn module_name(base: &str, p: &Params, specs: &[ParamSpec]) -> String {
    let mut name = base.to_string();
    for (spec, (_, v)) in specs.iter().zip(p.iter()) {
        if v != spec.default {
            name.push_str(&format!("_{}{}", spec.name, v));
        }
    }
    name
}

/// Every block, in a stable order.
pub fn blocks() -> Vec<&'static BlockInfo> {
    let mut all: Vec<&'static BlockInfo> = Vec::new();
    all.extend(crate::blocks::pmode::BLOCKS.iter().copied());
    all.extend(crate::blocks::dac::BLOCKS.iter().copied());
    all.extend(crate::blocks::replay::BLOCKS.iter().copied());
    all
}

pub fn find(name: &str) -> Result<&'static BlockInfo, BlockError> {
    let all = blocks();
    all.iter().copied().find(|b| b.name == name).ok_or_else(|| BlockError::Unknown {
        name: name.to_string(),
        known: all.iter().map(|b| b.name).collect::<Vec<_>>().join(", "),
    })
}
