//! Predicate expansion unit (PEU) — Wang and Lin, ISCA 2017, §4.3.
//!
//! Takes one `enq.pred` tuple at a time — an affine operand `A` (base + six
//! offsets), a scalar operand `rhs` and a comparison — and produces, for every
//! warp of every concurrent CTA, the 32-bit mask `A(thread) OP rhs`, pushed
//! into the per-warp predicate queue (PWPQ). Three paths (§4.3):
//! *scalar* — `A` has no thread offsets, so one comparison per CTA decides
//! every warp of it; *two-compare* — compare the warp's first and last
//! thread and, when that provably decides every thread in between, push a
//! uniform mask; *serial* — otherwise compare all threads, one per cycle.
//!
//! # Parameters
//! `warps` (48), `ctas` (8), as for the AEU. `WB = clog2(W)`, `CB = clog2(C)`.
//!
//! # Ports
//! Inputs as the AEU (`rst`, `in_valid`, `in_tuple`, `cta_valid`, `cta_bidx`,
//! `cta_warp0`, `blk_dim_{x,y,z}_m1`) with `pwpq_full` (W) in place of
//! `pwaq_full`. The tuple's `rhs` is the scalar operand and `OP[2:0]` the
//! comparison (`lt le gt ge eq ne`, 6 = never, 7 = always), `OP[3]` signed.
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `in_ready` | out | 1 | unit idle |
//! | `push`, `push_warp`, `push_mask` | out | 1, WB, 32 | push a mask (bit i = thread 32w+i; bits past the CTA's last thread 0) |
//! | `cnt_scalar` | out | 32 | masks produced by the scalar path (wraps) |
//! | `cnt_uniform` | out | 32 | masks produced by the two-compare path |
//! | `cnt_serial` | out | 32 | masks produced by the serial path |
//! | `cnt_cmp` | out | 32 | comparisons made (1 per CTA scalar, 2 per two-compare attempt, 1 per serial thread) |
//!
//! Outputs are combinational from registers and this cycle's `pwpq_full`,
//! `cta_warp0`; the counters are registers. `rst` clears the counters.
//!
//! # Walk
//! The same unit states, setup cycles (`adj_y`, `adj_z`, `total`), walk
//! contexts (START0..2, ADJY, ADJZ, RUN, DONE with `acc`, `lin`, `tx ty tz`),
//! linearity rule, picking rule (lowest ready context, a RUN context only if
//! its warp's `pwpq_full` bit is clear), stall rule and reset as the AEU — see
//! `aeu.rs`. Here `acc` is the value of `A` for the context's next thread,
//! which at the start of RUN steps is always the first thread of a warp.
//! Per context, one more pair of bits: `scal_v` (the CTA's scalar comparison
//! is done), `scal_r` (its result), cleared at accept.
//!
//! Let `n` = threads of the warp (32, fewer for a CTA's last warp), `s = otx`,
//! `cmp(x)` = `x OP rhs` in the domain of `OP[3]`, `lt(x)` = `x < rhs` in that
//! domain. A warp is *one progression* when the tuple is linear or the warp
//! lies in one row (`dx − tx ≥ n`).
//!
//! RUN step of an unlocked context:
//! * scalar tuple (`otx = oty = otz = 0`): `r = scal_v ? scal_r : cmp(acc)`
//!   (first warp: a comparison, `scal_v ← 1, scal_r ← r`); push `r ? ones(n) : 0`;
//!   `lin += n`. 1 cycle per warp. `cnt_scalar += 1`.
//! * one progression: ALU `last ← acc + (n−1)·s` computed 38 bits wide in the
//!   comparison's domain (`acc` zero- or sign-extended, `s` sign-extended);
//!   `wrap` ← the exact result is outside the domain (the values wrap around
//!   inside the warp). Lock the context in DECIDE.
//! * else (a warp spanning rows of a non-linear tuple): the first serial step.
//!
//! DECIDE (locked, 1 cycle): two comparators on `acc` (thread 0) and `last`,
//! each giving `cmp` and `lt`. The warp is uniform when `!wrap` and
//! - `lt le gt ge never always`: `cmp(acc) = cmp(last)`. Sound: without wrap
//!   the values are a monotone progression and the true set and the false set
//!   of these predicates are intervals, so every value between two ends on
//!   one side is on that side.
//! - `eq ne`: `s = 0` or `n = 1` (one value), or both ends strictly on the
//!   same side of `rhs` (`lt(acc) = lt(last)`, `acc ≠ rhs`, `last ≠ rhs`).
//!   `cmp(acc) = cmp(last)` alone is *not* sufficient: both ends can differ
//!   from `rhs` while a thread in between equals it (100 + 4t vs 136: thread
//!   9); with `rhs` between the ends the hit depends on divisibility, which
//!   two comparisons cannot decide.
//! - With `wrap` no rule is sound (0xffffff00 + 16t > 0x10 holds at both ends,
//!   fails at t = 16).
//!
//! Uniform: push `cmp(acc) ? ones(n) : 0`; ALU `acc ← acc + n·s`; `lin += n`
//! (and `tx += n` with the row-end rule); unlock; `cnt_uniform += 1`,
//! `cnt_cmp += 2`. 2 cycles per warp. Otherwise the cycle is the serial step
//! of thread 0 (mask ← `cmp(acc)`, `acc += s`, `cnt_cmp += 2`) and the
//! context stays locked in SERIAL.
//!
//! SERIAL (locked): if the context is in ADJY/ADJZ (the warp crossed a row
//! end), that adjustment step; else thread `lane = lin % 32`: mask bit `lane`
//! ← `cmp(acc)`, ALU `acc += s`, advance one thread (row-end rule as the
//! AEU), `cnt_cmp += 1`; on the warp's last thread push the mask, unlock,
//! `cnt_serial += 1`. `n` cycles (+1 for the DECIDE attempt, + adjustments).
//!
//! Stall: a step that pushes while its warp's `pwpq_full` bit is set is not
//! taken (no register or counter changes).
//!
//! The paper's numbers for these paths over its 29 benchmarks: scalar 64% of
//! decoupled predicates, scalar + two-compare 93%, serial 7% (§4.3).
//!
//! # Storage (default parameters)
//! 1154 flip-flops, no memory: 3 state, 260 latched tuple (base, six offsets,
//! rhs, op), 26 dims, 64 adjust, 11 total, 8 × 74 contexts (72 + `scal_v`,
//! `scal_r`), 70 lock (valid, CB, mode, `last` 32, `wrap`, mask 32), 128
//! counters. The paper gives no PEU figure.

use super::{HwStorage, PaperStorage};
use crate::clog2;
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of the expansion unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeuParams {
    /// Non-affine warp slots of the SM (Table 1: 48); one PWPQ partition each.
    pub warps: u32,
    /// Concurrent CTAs per SM (Fermi: 8); one walk context each.
    pub ctas: u32,
}

impl Default for PeuParams {
    fn default() -> Self {
        PeuParams { warps: 48, ctas: 8 }
    }
}

impl BlockParams for PeuParams {
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
        Ok(PeuParams { warps: p.get_u32("warps"), ctas: p.get_u32("ctas") })
    }
}

impl PeuParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    pub fn cta_bits(&self) -> u32 {
        clog2(self.ctas as u64)
    }
}

/// The paper gives no storage figure for the expansion units (§4.8 counts
/// them as "2 ALUs per SM").
pub fn paper_storage(_p: &PeuParams) -> Option<PaperStorage> {
    None
}

/// Registers of the PEU (no memories): see the storage table in the module
/// documentation.
pub fn hw_storage(p: &PeuParams) -> HwStorage {
    let per_ctx = 3 + 32 + 11 + 10 + 10 + 6 + 2;
    let flops = 3 // unit state
        + 7 * 32 + 32 + 4 // latched tuple: base, six offsets, rhs, op
        + 26 // latched block dimensions
        + 2 * 32 // adj_y, adj_z
        + 11 // total threads per CTA
        + p.ctas as u64 * per_ctx
        + 1 + p.cta_bits() as u64 + 1 + 32 + 1 + 32 // lock: valid, ctx, mode, last, wrap, mask
        + 4 * 32; // path counters
    HwStorage { flop_bits: flops, mem_bits: 0 }
}
