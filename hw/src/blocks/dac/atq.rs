//! (spec written below)

use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use super::{tuple, HwStorage, PaperStorage};
use crate::clog2;

/// Parameters of the affine tuple queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtqParams {
    /// Queue entries (paper: 24 per SM).
    pub entries: u32,
}

impl Default for AtqParams {
    fn default() -> Self {
        AtqParams { entries: 24 }
    }
}

impl BlockParams for AtqParams {
    const SPECS: &'static [ParamSpec] = &[ParamSpec {
        name: "entries",
        default: 24,
        min: 1,
        max: 1024,
        doc: "affine tuples the queue holds (paper: 24 per SM)",
    }];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(AtqParams { entries: p.get_u32("entries") })
    }
}

impl AtqParams {
    /// Width of `count`: 0..=entries.
    pub fn count_bits(&self) -> u32 {
        clog2(self.entries as u64 + 1)
    }
    /// Width of the head and tail pointers.
    pub fn ptr_bits(&self) -> u32 {
        clog2(self.entries as u64)
    }
}

/// Paper §4.8: "24 entries, with a total size of 393 bytes" (Table 1 says
/// 392): 131 bits per entry, scaled by `entries`.
pub fn paper_storage(p: &AtqParams) -> Option<PaperStorage> {
    Some(PaperStorage { bits: 131 * p.entries as u64, source: "§4.8: 24 entries, 393 bytes" })
}

/// Memory `entries x 262` plus head, tail and count registers.
pub fn hw_storage(p: &AtqParams) -> HwStorage {
    HwStorage {
        flop_bits: 2 * p.ptr_bits() as u64 + p.count_bits() as u64,
        mem_bits: p.entries as u64 * tuple::BITS as u64,
    }
}
