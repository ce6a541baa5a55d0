//! (spec written below)

use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use super::{HwStorage, PaperStorage};
use crate::clog2;

/// Parameters of the expansion unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AeuParams {
    /// Non-affine warp slots of the SM (Table 1: 48); one PWAQ partition each.
    pub warps: u32,
    /// Concurrent CTAs per SM (Fermi: 8); one walk context each.
    pub ctas: u32,
}

impl Default for AeuParams {
    fn default() -> Self {
        AeuParams { warps: 48, ctas: 8 }
    }
}

impl BlockParams for AeuParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warp slots per SM (Table 1: 48)" },
        ParamSpec {
            name: "ctas",
            default: 8,
            min: 1,
            max: 16,
            doc: "concurrent CTAs per SM (Fermi: 8), one accumulated-address context each",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(AeuParams { warps: p.get_u32("warps"), ctas: p.get_u32("ctas") })
    }
}

impl AeuParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    pub fn cta_bits(&self) -> u32 {
        clog2(self.ctas as u64)
    }
}

/// The paper gives no storage figure for the expansion units (§4.8 counts
/// them as "2 ALUs per SM").
pub fn paper_storage(_p: &AeuParams) -> Option<PaperStorage> {
    None
}

/// Registers of the AEU (no memories): see the storage table in the module
/// documentation.
pub fn hw_storage(p: &AeuParams) -> HwStorage {
    let per_ctx = 3 + 32 + 11 + 10 + 10 + 6;
    let flops = 3 // unit state
        + 7 * 32 + 2 + 1 // latched tuple: base, six offsets, granularity, data
        + 26 // latched block dimensions
        + 2 * 32 // adj_y, adj_z
        + 11 // total threads per CTA
        + p.ctas as u64 * per_ctx
        + 1 + p.cta_bits() as u64 // serial lock
        + 27 + 32; // serial record builder: region, mask
    HwStorage { flop_bits: flops, mem_bits: 0 }
}
