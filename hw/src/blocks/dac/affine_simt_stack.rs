//! (spec written below)

use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use super::{HwStorage, PaperStorage, WARP_SIZE};
use crate::clog2;

/// Parameters of the two-level affine SIMT stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineSimtStackParams {
    /// Non-affine warps whose threads the affine warp runs (Table 1: 48).
    pub warps: u32,
    /// Stack depth (paper §4.8: 8).
    pub depth: u32,
    /// Width of the PC and RPC fields (64 reproduces the paper's 224 bytes).
    pub pc_bits: u32,
}

impl Default for AffineSimtStackParams {
    fn default() -> Self {
        AffineSimtStackParams { warps: 48, depth: 8, pc_bits: 64 }
    }
}

impl BlockParams for AffineSimtStackParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warps per SM (Table 1: 48)" },
        ParamSpec { name: "depth", default: 8, min: 2, max: 32, doc: "stack entries (paper: 8)" },
        ParamSpec {
            name: "pc_bits",
            default: 64,
            min: 8,
            max: 64,
            doc: "PC/RPC width; 64 matches the paper's 224-byte warp-level stack",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(AffineSimtStackParams {
            warps: p.get_u32("warps"),
            depth: p.get_u32("depth"),
            pc_bits: p.get_u32("pc_bits"),
        })
    }
}

impl AffineSimtStackParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    /// Width of `depth` (0..=depth entries).
    pub fn depth_bits(&self) -> u32 {
        clog2(self.depth as u64 + 1)
    }
    /// Width of one warp-level stack entry: PC, RPC and 2 bits per warp.
    pub fn wls_entry_bits(&self) -> u32 {
        2 * self.pc_bits + 2 * self.warps
    }
}

/// §4.8: warp-level stack 224 bytes (8 entries x (2 x 64-bit PC/RPC + 2 x 48
/// code bits) = 1792 bits) plus per-warp stacks 1536 bytes (48 x 8 x 32 bits).
/// Scaled: `depth x (128 + 2 x warps) + warps x depth x 32`.
pub fn paper_storage(p: &AffineSimtStackParams) -> Option<PaperStorage> {
    let d = p.depth as u64;
    let w = p.warps as u64;
    Some(PaperStorage {
        bits: d * (128 + 2 * w) + w * d * WARP_SIZE as u64,
        source: "§4.8: warp-level stack 224 bytes + per-warp stacks 1536 bytes",
    })
}

/// Warp-level stack and per-warp stacks are register arrays (two entries are
/// written per cycle on a divergent branch), plus depth, overflow and the two
/// 32-bit write counters.
pub fn hw_storage(p: &AffineSimtStackParams) -> HwStorage {
    let d = p.depth as u64;
    let w = p.warps as u64;
    HwStorage {
        flop_bits: d * p.wls_entry_bits() as u64 + w * d * WARP_SIZE as u64 + p.depth_bits() as u64 + 1 + 2 * 32,
        mem_bits: 0,
    }
}
