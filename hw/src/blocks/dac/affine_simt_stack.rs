//! Two-level affine SIMT stack — Wang and Lin, ISCA 2017, §4.5, Figure 13.
//!
//! The affine warp "executes" the threads of all non-affine warps in
//! lock-step, so its reconvergence stack tracks a mask over every thread of
//! the SM. The two-level form keeps, per entry, the shared PC and RPC and a
//! 2-bit code per warp in the *warp-level stack* (WLS): `11` all 32 threads
//! active, `00` none, `10` mixed. Only a mixed warp's mask is stored, in that
//! warp's *per-warp stack* (PWS) at the same level; "11"/"00" warps never
//! touch theirs (§4.5: "only warp 2 must update its PWS"). The divergent
//! condition register file (§4.7) has the same structure and is not part of
//! this block.
//!
//! # Parameters
//! `warps` (48), `depth` (8, §4.8), `pc_bits` (64). `WB = clog2(warps)`,
//! `DB = clog2(depth+1)`, `P = pc_bits`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset: empty stack, counters 0 |
//! | `op` | in | 2 | 0 nop, 1 init, 2 adv, 3 branch |
//! | `pc` | in | P | init: start PC; adv: the next PC; branch: taken target |
//! | `pc_fall` | in | P | branch: fall-through PC |
//! | `rpc` | in | P | branch: reconvergence PC (immediate post-dominator) |
//! | `cond` | in | 32·warps | init: initial masks (absent warps 0, a partial last warp mixed); branch: per-thread taken bits (warp w at bits 32w..) |
//! | `rd_warp` | in | WB | warp whose top mask `rd_mask` shows |
//! | `depth` | out | DB | entries on the stack (0 before init) |
//! | `top_pc`, `top_rpc` | out | P, P | top entry (0 when empty) |
//! | `codes` | out | 2·warps | top entry's codes, warp w at bits 2w+1..2w (0 when empty) |
//! | `rd_mask` | out | 32 | top mask of `rd_warp`: all ones / zero / its PWS entry (0 when empty or `rd_warp ≥ warps`) |
//! | `overflow` | out | 1 | sticky: a branch needed more entries than `depth` |
//! | `entry_writes` | out | 32 | entries written (init and pushes) |
//! | `pws_writes` | out | 32 | per-warp stack writes (mixed warps of written entries) |
//!
//! Outputs are combinational from the registers and `rd_warp`. A flat stack
//! writes `warps` masks per entry; the two-level form writes `pws_writes`:
//! the saving is `warps × entry_writes − pws_writes`.
//!
//! # Cycle semantics (GPGPU-sim's post-dominator stack, per thread)
//! Let `t` be the top level, `act(w)` warp w's mask there.
//! * init: level 0 ← (`pc`, RPC all ones = "none", codes of `cond`), `PWS[w][0]`
//!   ← `cond(w)` for mixed warps; depth ← 1; overflow ← 0. Allowed at any time.
//! * adv (depth ≥ 1): top PC ← `pc`; if depth ≥ 2 and `pc` = top RPC, pop
//!   (reconvergence: the entry below already holds PC = that RPC). One pop
//!   per cycle.
//! * branch (depth ≥ 1): `taken(w) = act(w) & cond(w)`, `fall(w) = act(w) & ~cond(w)`.
//!   No warp has a taken thread: top PC ← `pc_fall`. No warp has a fall-through
//!   thread: top PC ← `pc`. Otherwise divergence: `replace` = depth ≥ 2 and
//!   `rpc` = top RPC (the top already reconverges there and is overwritten
//!   instead of kept); new entries, bottom first: (`pc_fall`, `rpc`, fall) if
//!   `pc_fall ≠ rpc`, then (`pc`, `rpc`, taken) if `pc ≠ rpc` — the taken path
//!   runs first. If they do not fit in `depth` levels, nothing changes and
//!   `overflow` is set (the compiler bounds nesting; §4.7 does not decouple
//!   deeper code). Else, unless `replace`, top PC ← `rpc`; the entries are
//!   written at levels `t+1`, `t+2` (`t`, `t+1` with `replace`): PC, RPC and
//!   codes into the WLS, masks of mixed warps into their PWSs (two writes per
//!   warp at most: each PWS is a register array with two write ports).
//! * op with depth 0 (other than init), nop: nothing. Codes `01` never occur.
//!
//! # Storage (default parameters)
//! WLS 8 × (64 + 64 + 2 × 48) = 1792 bits and PWS 48 × 8 × 32 = 12288 bits,
//! as register arrays, plus depth (4), overflow (1) and the two 32-bit
//! counters: 14149 flip-flops. The paper: WLS 224 bytes = 1792 bits and PWS
//! 1536 bytes = 12288 bits — equal; 224 bytes for 8 entries with 96 code bits
//! each implies 64-bit PC and RPC fields, hence `pc_bits` = 64 by default
//! (32 suffices for a real instruction space: 1280 + 12288 bits). The paper
//! does not count the depth register; the counters are observability only.

use super::{HwStorage, PaperStorage, WARP_SIZE};
use crate::clog2;
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

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
