//! The block registry: every synthesizable block by name, with its
//! parameters, its generator and its storage against the paper's figures.
//! A block implements [`Block`] on its parameter struct; its registry entry
//! is derived from that ([`BlockInfo::of`]).

use crate::ir::{HwError, Module};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
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

/// One reason the emitted storage differs from the paper's figures:
/// `bits` more flip-flop / memory bits (negative: fewer) than the paper
/// counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageDiff {
    pub bits: i64,
    pub reason: String,
}

impl StorageDiff {
    pub fn new(bits: i64, reason: impl Into<String>) -> Self {
        StorageDiff { bits, reason: reason.into() }
    }
}

/// A block's storage against its paper, for one parameter set: the paper's
/// figures (scaled by the paper's own formulas) and every difference of the
/// emitted hardware with its reason. Emitted bits (counted from the IR,
/// [`crate::stats::Storage`]) = paper bits + the differences; a test checks
/// it for every block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageAccount {
    pub paper: Vec<PaperFigure>,
    pub differences: Vec<StorageDiff>,
}

impl StorageAccount {
    pub fn paper_bits(&self) -> u64 {
        self.paper.iter().map(|f| f.bits).sum()
    }
    /// The bits the emitted hardware holds by this account.
    pub fn expected_bits(&self) -> i64 {
        self.paper_bits() as i64 + self.differences.iter().map(|d| d.bits).sum::<i64>()
    }
    /// Add a difference (nothing when `bits` is 0).
    pub fn differs(mut self, bits: i64, reason: impl Into<String>) -> Self {
        if bits != 0 {
            self.differences.push(StorageDiff::new(bits, reason));
        }
        self
    }
}

/// A block: its parameter struct is the key to its generator, its storage
/// account and (through [`crate::iface::Interface`]) its ports.
pub trait Block: BlockParams + 'static {
    /// Registry and default module name.
    const NAME: &'static str;
    /// One line: what the block is.
    const SUMMARY: &'static str;
    /// The paper section it implements.
    const SOURCE: &'static str;
    /// A composition of other blocks (a unit): `make bench` reports its yosys
    /// synthesis figures.
    const COMPOSED: bool = false;

    /// Generate the module named `name` for these parameters.
    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError>;

    /// Storage against the paper.
    fn storage(&self) -> StorageAccount;

    /// This parameter set's module name (the one naming rule,
    /// [`BlockParams::module_name`]).
    fn name(&self) -> String {
        self.module_name(Self::NAME)
    }

    /// Generate the module under its parameter set's name.
    fn elaborate(&self) -> Result<Arc<Module>, HwError> {
        self.generate(&self.name())
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

/// A registered block, for lookup by name (the command line, the
/// verification registry).
pub struct BlockInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub source: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params) -> Result<Arc<Module>, BlockError>,
    pub storage: fn(&Params) -> Result<StorageAccount, BlockError>,
    pub composed: bool,
}

fn build_of<B: Block>(p: &Params) -> Result<Arc<Module>, BlockError> {
    Ok(B::from_params(p)?.elaborate()?)
}

fn storage_of<B: Block>(p: &Params) -> Result<StorageAccount, BlockError> {
    Ok(B::from_params(p)?.storage())
}

impl BlockInfo {
    /// The registry entry of a block.
    pub const fn of<B: Block>() -> BlockInfo {
        BlockInfo {
            name: B::NAME,
            summary: B::SUMMARY,
            source: B::SOURCE,
            params: B::SPECS,
            build: build_of::<B>,
            storage: storage_of::<B>,
            composed: B::COMPOSED,
        }
    }

    /// Resolve `name=value` overrides against this block's parameters.
    pub fn params(&self, overrides: &[(String, String)]) -> Result<Params, ParamError> {
        Params::resolve(self.name, self.params, overrides)
    }

    pub fn default_params(&self) -> Params {
        Params::defaults(self.name, self.params)
    }

    pub fn elaborate(&self, p: &Params) -> Result<Arc<Module>, BlockError> {
        (self.build)(p)
    }
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
