//! Predicate expansion unit (PEU) — Wang and Lin, ISCA 2017, §4.3.
//!
//! Takes one `enq.pred` tuple at a time — an affine operand `A` (base + six
//! offsets), a scalar operand `rhs` and a comparison — and produces, for every
//! warp with active threads of each CTA it is for, the 32-bit mask
//! `A(thread) OP rhs` at those threads (0 at the others), pushed into the
//! per-warp predicate queue (PWPQ). Three paths (§4.3):
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
//! `cta_warp0`, `blk_dim_{x,y,z}_m1`, `lane_mask`) with `pwpq_full` (W) in
//! place of `pwaq_full`. The tuple's `rhs` is the scalar operand and `OP[2:0]` the
//! comparison (`lt le gt ge eq ne`, 6 = never, 7 = always), `OP[3]` signed.
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `in_ready` | out | 1 | unit idle |
//! | `push`, `push_warp`, `push_mask` | out | 1, WB, 32 | push a mask (bit i = thread 32w+i; bits past the CTA's last thread 0) |
//! | `cnt_scalar` | out | 32 | masks pushed by the scalar path (wraps) |
//! | `cnt_uniform` | out | 32 | masks pushed by the two-compare path |
//! | `cnt_serial` | out | 32 | masks pushed by the serial path |
//! | `cnt_cmp` | out | 32 | comparisons made (1 per CTA scalar, 2 per two-compare attempt, 1 per serial thread) |
//!
//! Outputs are combinational from registers and this cycle's `pwpq_full`,
//! `cta_warp0`; the counters are registers. `rst` clears the counters.
//!
//! # Walk
//! The same unit states, setup cycles (`adj_y`, `adj_z`, `total`), walk
//! contexts (START0..2, ADJY, ADJZ, RUN, DONE with `acc`, `lin`, `tx ty`),
//! linearity rule, picking rule (lowest ready context, a RUN context only if
//! its warp's `pwpq_full` bit is clear), stall rule and reset as the AEU — see
//! `aeu.rs`. Here `acc` is the value of `A` for the context's next thread.
//! Per context, one more pair of bits: `scal_v` (the CTA's scalar comparison
//! is done), `scal_r` (its result), cleared at accept.
//!
//! Let `n` = threads left in the warp (32 at its start, fewer for a CTA's
//! last warp), `seg` = threads to the end of the warp or, for a non-linear
//! tuple, of the row (the walk's run limit): a *segment*, whose values are
//! one arithmetic progression. A warp of a linear tuple, or one that lies in
//! one row, is one segment; a warp of a 16×16 block is two. `lane = lin %
//! 32`, `s = otx`, `cmp(x)` = `x OP rhs` in the domain of `OP[3]`, `lt(x)` =
//! `x < rhs` in that domain, `carried` = the mask register while locked,
//! else 0.
//!
//! RUN step:
//! * unlocked, scalar tuple (`otx = oty = otz = 0`): `r = scal_v ? scal_r : cmp(acc)`
//!   (first warp: a comparison, `scal_v ← 1, scal_r ← r`); push `r ? ones(n) : 0`;
//!   `lin += n`. 1 cycle per warp. `cnt_scalar += 1`.
//! * unlocked, or locked in NEXT (LAST): ALU `last ← acc + (seg−1)·s` computed
//!   38 bits wide in the comparison's domain (`acc` zero- or sign-extended,
//!   `s` sign-extended); `wrap` ← the exact result is outside the domain (the
//!   values wrap around inside the segment). Lock the context in DECIDE.
//!
//! DECIDE (locked, 1 cycle): two comparators on `acc` (the segment's first
//! thread) and `last`, each giving `cmp` and `lt`. The segment is uniform
//! when `!wrap` and
//! - `lt le gt ge never always`: `cmp(acc) = cmp(last)`. Sound: without wrap
//!   the values are a monotone progression and the true set and the false set
//!   of these predicates are intervals, so every value between two ends on
//!   one side is on that side.
//! - `eq ne`: `s = 0` or `seg = 1` (one value), or both ends strictly on the
//!   same side of `rhs` (`lt(acc) = lt(last)`, `acc ≠ rhs`, `last ≠ rhs`).
//!   `cmp(acc) = cmp(last)` alone is *not* sufficient: both ends can differ
//!   from `rhs` while a thread in between equals it (100 + 4t vs 136: thread
//!   9); with `rhs` between the ends the hit depends on divisibility, which
//!   two comparisons cannot decide.
//! - With `wrap` no rule is sound (0xffffff00 + 16t > 0x10 holds at both ends,
//!   fails at t = 16).
//!
//! Uniform: mask = `carried | (cmp(acc) ? ones(seg) << lane : 0)`; ALU `acc ←
//! acc + seg·s`; `lin += seg` (and `tx += seg` with the row-end rule);
//! `cnt_cmp += 2`. If the segment ends the warp (`seg = n`) push the mask,
//! unlock, `cnt_uniform += 1`: 2 cycles per one-segment warp. Otherwise keep
//! the mask, lock in NEXT: the row adjustment, then the next segment's LAST
//! (a 16×16 block's warp: 2 + 1 + 2 cycles, and 1 more for the adjustment
//! to the next warp's row). Otherwise (not uniform) the cycle is the
//! serial step of the segment's first thread (mask ← `carried | cmp(acc) <<
//! lane`, `acc += s`, `cnt_cmp += 2`) and the context stays locked in
//! SERIAL for the rest of the warp.
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
//! Active threads: the paths run as for a fully active warp; the pushed
//! mask is ANDed with the warp's `lane_mask`, and a warp with no active
//! thread is walked without a push (nor a path count), never blocked by its
//! queue.
//!
//! The paper's numbers for these paths over its 29 benchmarks: scalar 64% of
//! decoupled predicates, scalar + two-compare 93%, serial 7% (§4.3).
//!
//! # Hardware
//! The walk (contexts, pick, shared 38-bit ALU) is the AEU's generator
//! (`walk.rs`). Two comparators, each giving `x OP rhs` and `x < rhs` in the
//! operation's domain: one on the picked context's `acc` (every path), one
//! on the `last` register (DECIDE). The path of a RUN step is one of the
//! named wires `case_scalar`, `case_last` (compute a segment's last value and lock),
//! `case_uniform` / `case_fallback` (DECIDE), `case_serial`.
//!
//! # Storage (default parameters)
//! 1108 flip-flops, no memory: 3 state, 260 latched tuple (base, six offsets,
//! rhs, op), 26 dims, 64 adjust, 11 total + 1 valid, 8 × 68 contexts (66 + `scal_v`,
//! `scal_r`), 71 lock (valid, CB, two mode bits, `last` 32, `wrap`, mask 32), 128
//! counters. The paper gives no PEU figure.

use super::walk::{CtaInputs, RunCommit, Walk, ALU_BITS, K_BITS, TOP_IDLE};
use super::{tuple, CtaConfigIo, ExpansionParams, WARP_SIZE};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, onehot, pick, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, StorageAccount};
use crate::util::low_mask;
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the PEU: the walk shape (the family's specs, shared
    /// with the AEU).
    pub struct PeuParams {
        warps: u32 = shared(super::WARPS),
        ctas: u32 = shared(super::CTAS),
    }
}

impl PeuParams {
    pub fn expansion(&self) -> ExpansionParams {
        ExpansionParams { warps: self.warps, ctas: self.ctas }
    }
    pub fn warp_bits(&self) -> u32 {
        self.expansion().warp_bits()
    }
    pub fn cta_bits(&self) -> u32 {
        self.expansion().cta_bits()
    }
}

/// The PEU's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeuIo<H> {
    pub rst: H,
    pub in_valid: H,
    pub in_tuple: H,
    pub cta: CtaConfigIo<H>,
    pub pwpq_full: H,
    pub lane_mask: H,
    pub in_ready: H,
    pub push: H,
    pub push_warp: H,
    pub push_mask: H,
    pub cnt_scalar: H,
    pub cnt_uniform: H,
    pub cnt_serial: H,
    pub cnt_cmp: H,
}

impl Interface for PeuParams {
    type Io<H> = PeuIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> PeuIo<B::H> {
        let wb = self.warp_bits();
        PeuIo {
            rst: b.reset(),
            in_valid: b.input("in_valid", 1),
            in_tuple: b.input("in_tuple", tuple::BITS),
            cta: CtaConfigIo::describe(b, self.ctas, wb),
            pwpq_full: b.input("pwpq_full", self.warps),
            lane_mask: b.input("lane_mask", WARP_SIZE * self.warps),
            in_ready: b.output("in_ready", 1),
            push: b.output("push", 1),
            push_warp: b.output("push_warp", wb),
            push_mask: b.output("push_mask", WARP_SIZE),
            cnt_scalar: b.output("cnt_scalar", 32),
            cnt_uniform: b.output("cnt_uniform", 32),
            cnt_serial: b.output("cnt_serial", 32),
            cnt_cmp: b.output("cnt_cmp", 32),
        }
    }
}

impl Block for PeuParams {
    const NAME: &'static str = "peu";
    const SUMMARY: &'static str =
        "predicate expansion unit: affine comparisons to per-warp predicate masks (scalar, two-compare, serial)";
    const SOURCE: &'static str = "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, section 4.3";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        peu(self, name)
    }

    /// The paper gives no storage figure for the expansion units (§4.8
    /// counts them as "2 ALUs per SM"): every register is a difference.
    fn storage(&self) -> StorageAccount {
        let why = "(the paper gives no PEU storage)";
        StorageAccount::default()
            .differs(3, format!("unit state {why}"))
            .differs(7 * 32 + 32 + 4, "latched tuple: base, six offsets, scalar operand, comparison")
            .differs(26 + 2 * 32 + 11 + 1, "latched block dimensions, the y and z adjustments, threads per CTA (and whether it is the latched shape's)")
            .differs(
                self.ctas as i64 * (3 + 32 + 11 + 10 + 10 + 2),
                "one walk context per CTA: state, value, position, scalar result",
            )
            .differs(1 + self.cta_bits() as i64 + 2 + 32 + 1 + 32, "lock: valid, context, two mode bits, last value, wrap, mask")
            .differs(4 * 32, "four 32-bit path counters (statistics outputs)")
    }
}

/// `x OP rhs` (`OP[2:0]`: lt le gt ge eq ne never always; `OP[3]` signed)
/// and `x < rhs` in the comparison's domain: one comparator.
fn comparator(x: Sig, rhs: Sig, op: Sig) -> (Sig, Sig) {
    let lt = mux(op.bit(3), x.lt_s(rhs), x.lt(rhs));
    let eq = x.eq(rhs);
    let le = lt | eq;
    let r = pick(op.slice(0, 3), &[lt, le, !le, !lt, eq, !eq, lit(0, 1), lit(1, 1)]);
    (r, lt)
}

/// Generate the PEU (see the module documentation for the cycle behaviour).
pub fn peu(p: &PeuParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Predicate expansion unit (DAC, Wang and Lin, ISCA 2017, section 4.3): expands one affine comparison \
         at a time into 32-bit predicate masks for {} warps of up to {} CTAs: one comparison per CTA for a \
         scalar operand, two per warp when they decide it, else one per thread.",
        p.warps, p.ctas
    ));
    let (wb, cb) = (p.warp_bits(), p.cta_bits());
    let io = p.decls();
    let in_valid = m.port(&io.in_valid);
    let in_tuple = m.port(&io.in_tuple);
    let cta = CtaInputs::declare(&m, &io.cta);
    let pwpq_full = m.port(&io.pwpq_full);
    let lane_mask = m.port(&io.lane_mask);
    let in_ready = m.port(&io.in_ready);
    let push_o = m.port(&io.push);
    let push_warp = m.port(&io.push_warp);
    let push_mask = m.port(&io.push_mask);
    let cnt_o = [&io.cnt_scalar, &io.cnt_uniform, &io.cnt_serial, &io.cnt_cmp].map(|d| m.port(d));

    let rhs = m.reg("rhs", 32, 0);
    let op = m.reg("op", 4, 0);
    let lock_v = m.reg("lock_v", 1, 0);
    let lock_c = m.reg("lock_c", cb, 0);
    let mode_serial = m.reg("lock_serial", 1, 0);
    let lock_next = m.reg("lock_next", 1, 0);
    let last = m.reg("last", 32, 0);
    let wrap = m.reg("wrap", 1, 0);
    let mask = m.reg("mask", 32, 0);
    let cnt = ["scalar_q", "uniform_q", "serial_q", "cmp_q"].map(|n| m.reg(&format!("cnt_{n}"), 32, 0));
    let w = Walk::new(&m, p.ctas, p.warps, in_valid, in_tuple, &cta, pwpq_full, lane_mask, lock_v, lock_c, None);
    let scal_v: Vec<Sig> = (0..p.ctas).map(|k| m.reg(&format!("ctx{k}_scal_v"), 1, 0)).collect();
    let scal_r: Vec<Sig> = (0..p.ctas).map(|k| m.reg(&format!("ctx{k}_scal_r"), 1, 0)).collect();

    rhs.set_if(w.accept, in_tuple.slice(tuple::RHS, 32));
    op.set_if(w.accept, in_tuple.slice(tuple::OP, 4));
    lock_v.set_if(w.accept, lit(0, 1));
    lock_next.set_if(w.accept, lit(0, 1));
    mask.set_if(w.accept, lit(0, 32));

    // The picked context's RUN step: which path, its comparisons.
    let pk = &w.p;
    let acc = pk.acc;
    let n = pk.warp_left;
    // A row segment: to the end of the warp or, for a non-linear tuple, of
    // the row (the whole warp when it is one progression).
    let seg = pk.run_limit;
    let seg_ends = seg.eq(n).named("seg_ends_warp");
    let lane = pk.lin.slice(0, 5);
    let s = w.off[0];
    let scalar_tuple = (w.off[0].eq(0u64) & w.off[1].eq(0u64) & w.off[2].eq(0u64)).named("scalar_tuple");
    let (cmp0, lt0) = comparator(acc, rhs, op);
    let (cmp1, lt1) = comparator(last, rhs, op);
    let (cmp0, cmp1) = (cmp0.named("cmp_first"), cmp1.named("cmp_last"));
    let sv = pick(w.pick_idx, &scal_v);
    let sr = pick(w.pick_idx, &scal_r);
    let case_scalar = (!lock_v & scalar_tuple).named("case_scalar");
    let case_last = ((!lock_v & !scalar_tuple) | (lock_v & lock_next)).named("case_last");
    let case_decide = (lock_v & !mode_serial & !lock_next).named("case_decide");
    let case_serial = (lock_v & mode_serial).named("case_serial");
    let op3 = op.slice(0, 3);
    let ordered = !(op3.eq(tuple::CMP_EQ) | op3.eq(tuple::CMP_NE));
    let same_side = lt0.eq(lt1) & acc.ne(rhs) & last.ne(rhs);
    let decided = !wrap & mux(ordered, cmp0.eq(cmp1), s.eq(0u64) | seg.eq(1u64) | same_side);
    let uniform = (case_decide & decided).named("case_uniform");
    let fallback = (case_decide & !decided).named("case_fallback");

    // The ALU: a segment's last value (seg-1 steps, 38 bits), a whole
    // scalar warp, a decided segment, or one thread.
    let one = lit(1, K_BITS);
    let k = mux(case_scalar, n, mux(uniform, seg, one));
    let run_c = mux(case_last, seg - 1u64, k);
    let alu = w.alu(acc, case_last & op.bit(3), s, run_c);
    let alu_hi = alu.slice(31, ALU_BITS - 31);
    let wraps = mux(op.bit(3), !(alu_hi.eq(0u64) | alu_hi.all()), alu.slice(32, ALU_BITS - 32).ne(0u64));

    let r_scalar = mux(sv, sr, cmp0);
    // The masks decided so far in this warp (earlier segments, serial threads).
    let carried = mux(lock_v, mask, lit(0, 32));
    let mask_serial = carried | mux(cmp0, onehot(lane, 32), lit(0, 32));
    let ends = n.eq(1u64);
    let mask_uniform = carried | mux(cmp0, low_mask(seg, 32).shl(lane), lit(0, 32));
    let value = mux(case_scalar, mux(r_scalar, low_mask(n, 32), lit(0, 32)), mux(uniform, mask_uniform, mask_serial));
    let emit = (case_scalar | (uniform & seg_ends) | (case_serial & ends)).named("emit");
    let step_ok = !(emit & pk.blocked);
    let take = (w.run & step_ok).named("take");
    let adv = w.advance(k);
    w.commit(alu, RunCommit { write: step_ok & !case_last, acc: alu.trunc(32), adv });

    // Lock: DECIDE after a segment's last value is known, NEXT between the
    // segments of a warp, SERIAL while comparing one thread per cycle;
    // released when the warp's mask is pushed.
    let t_last = take & case_last;
    let t_uniform = take & uniform;
    let t_fallback = take & fallback;
    let t_serial = take & case_serial;
    lock_v.set_if(t_last, lit(1, 1));
    lock_v.set_if(t_uniform & seg_ends, lit(0, 1));
    lock_v.set_if(t_serial & ends, lit(0, 1));
    lock_c.set_if(t_last & !lock_v, w.pick_idx);
    mode_serial.set_if(t_last, lit(0, 1));
    mode_serial.set_if(t_fallback, lit(1, 1));
    lock_next.set_if(t_last, lit(0, 1));
    lock_next.set_if(t_uniform, !seg_ends);
    last.set_if(t_last, alu.trunc(32));
    wrap.set_if(t_last, wraps);
    mask.set_if(t_uniform, mux(seg_ends, lit(0, 32), mask_uniform));
    mask.set_if(t_fallback | t_serial, mux(t_serial & ends, lit(0, 32), mask_serial));
    for (k, (v, r)) in scal_v.iter().zip(&scal_r).enumerate() {
        let here = take & case_scalar & w.pick_idx.eq(k as u64);
        v.set_if(w.accept, lit(0, 1));
        r.set_if(w.accept, lit(0, 1));
        v.set_if(here, lit(1, 1));
        r.set_if(here, r_scalar);
    }

    // Path counters (one increment per pushed mask: none for a warp with
    // no active thread) and comparisons made.
    let cmp_inc = mux(case_scalar, (!sv).zext(2), mux(case_decide, lit(2, 2), mux(case_serial, lit(1, 2), lit(0, 2))));
    let counted = take & pk.live;
    cnt[0].set_if(counted & case_scalar, cnt[0] + 1u64);
    cnt[1].set_if(counted & uniform & seg_ends, cnt[1] + 1u64);
    cnt[2].set_if(counted & case_serial & ends, cnt[2] + 1u64);
    cnt[3].set_if(take, cnt[3] + cmp_inc.zext(32));

    let push = (take & emit & pk.in_range & pk.live).named("do_push");
    in_ready.set(w.top.eq(TOP_IDLE));
    push_o.set(push);
    push_warp.set(mux(push, pk.warp.trunc(wb), lit(0, wb)));
    push_mask.set(mux(push, value & pk.lanes, lit(0, 32)));
    for (o, c) in cnt_o.iter().zip(cnt) {
        o.set(c);
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<PeuParams>();
