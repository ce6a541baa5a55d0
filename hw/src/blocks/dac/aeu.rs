//! Address expansion unit (AEU) — Wang and Lin, ISCA 2017, §4.2, Figure 11.
//!
//! Takes one `enq.addr` / `enq.data` affine tuple at a time and turns it,
//! for every warp with active threads of each CTA it is for, into *warp address records*
//! (`super::record`: 128-byte line address + sub-line part, per-unit mask,
//! granularity, `last`) pushed into the per-warp address queue (PWAQ). It
//! never produces per-thread addresses: one step covers as many threads as
//! land in one record.
//!
//! # Parameters
//! `warps` (48, Table 1), `ctas` (8, Fermi). Let `W = warps`, `C = ctas`,
//! `WB = clog2(W)`, `CB = clog2(C)`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `in_valid` | in | 1 | a tuple is offered (ATQ head of kind addr/data) |
//! | `in_tuple` | in | 278 | packed tuple (`super::tuple`); uses base, six offsets, KIND (data bit), `OP[1:0]` (granularity), CTAS |
//! | `cta_valid` | in | C | CTA slot holds a CTA; sampled when a tuple is accepted |
//! | `cta_bidx` | in | 48·C | per slot ctaid.x, .y, .z (16 bits each); read by the start steps |
//! | `cta_warp0` | in | WB·C | per slot: warp slot of the CTA's first warp; its warps are consecutive |
//! | `blk_dim_x_m1`, `blk_dim_y_m1`, `blk_dim_z_m1` | in | 10, 10, 6 | block dimensions minus one; latched at accept |
//! | `cta_hold` | in | C | per slot: its context takes no step (§4.2: the CTA's warps have not yet passed the barrier the tuple was enqueued after; the AEU works on the tuple's other CTAs) |
//! | `pwaq_full` | in | W | per-warp PWAQ partition is full (PWAQ `full_vec`) |
//! | `lane_mask` | in | 32·W | per warp slot, its active threads for the tuple in the unit (bit i: the warp's thread i); held while the unit works on it |
//! | `in_ready` | out | 1 | unit idle: a tuple offered now is accepted at this edge |
//! | `push` | out | 1 | push `push_rec` into warp `push_warp`'s PWAQ partition this cycle |
//! | `push_warp` | out | WB | target warp (0 when `push` = 0) |
//! | `push_rec` | out | 62 | the record (0 when `push` = 0) |
//! | `push_data` | out | 1 | `push` of a non-empty record of an `enq.data` tuple: the record is also an L1 request |
//!
//! All outputs are combinational from the registers and this cycle's
//! `pwaq_full`, `lane_mask`, `cta_hold`, `cta_bidx`, `cta_warp0` (no path from `in_valid`/`in_tuple`
//! to any output). The handshake is `in_valid && in_ready` at the edge.
//!
//! # The ALU
//! One integer ALU (§4.2 "equipped with a single integer ALU"), used at most
//! once per cycle: `r = a ± b·c (mod 2^32)` with `b` 32 bits and `c` at most
//! 16 bits (a block index, a block dimension, or a thread count <= 32). The
//! brief's "one adder" is this ALU's adder; the small multiplier in front of
//! it is what computes `block_offset × block_index` in one step (§4.2 ①).
//! The generator (`walk.rs`, shared with the PEU) builds it 38 bits wide for
//! the PEU's last-value check; the AEU uses the low 32 bits. Its operands
//! are multiplexed by the unit state and the picked context's state.
//!
//! # Registers
//! Unit state `top` ∈ {IDLE, SETUP_Y, SETUP_Z, SETUP_T1, SETUP_T2, WORK};
//! latched tuple (base, `otx oty otz obx oby obz`, `gl` = log2 unit size,
//! `data`); latched dims `dx dy dz` (stored minus one); `adj_y`, `adj_z`
//! (32 each); `total` (11: threads per CTA, saturated at 1024); one *walk
//! context* per CTA slot: `cst` ∈ {DONE, START0, START1, START2, RUN, ADJY,
//! ADJZ}, `acc` (32, §4.2 ⑥ "one accumulated address register for each
//! concurrent CTA": the address of the CTA's next thread), `lin` (11: linear
//! index of that thread), `tx ty` (10, 10: its column and row; its plane
//! is never needed: a plane ends where the row wraps to 0 and the CTA where
//! `lin = total`); serial lock (valid + CB) and serial builder mask (32).
//!
//! # Cycle behaviour
//! * IDLE: `in_ready` = 1. On `in_valid`: latch the tuple and dims; context
//!   `c` ← START0 if `cta_valid[c]` and the tuple's `CTAS[c]`, else DONE,
//!   `lin = tx = ty = 0`; `adj_y = adj_z = 0`; lock cleared; `total_valid`
//!   ← it was set and the dims are the latched ones. → the first setup step
//!   the tuple needs, in the order below, else WORK.
//! * SETUP_Y (unless `dy = dz = 1`): `adj_y ← oty − dx·otx` (from virtual
//!   thread (dx, ty) to (0, ty+1): §4.2 ⑦ "an adjustment is added ...
//!   computed only once"). SETUP_Z (only if `dz > 1`): `adj_z ← otz − dy·oty`.
//!   SETUP_T1, SETUP_T2 (unless `total_valid`): `total ← min(dx·dy, 1024)`,
//!   then `total ← min(total·dz, 1024)`, `total_valid ← 1`. → WORK. A step
//!   left out computes a value nothing reads: a one-row block is linear
//!   whatever `adj_y`, and a 2-D block's plane ends with the CTA.
//! * The tuple is *linear* when `dy = dz = 1`, or `adj_y = 0` and (`dz = 1`
//!   or `adj_z = 0`): values then continue across rows, `value = start + lin·otx`,
//!   and a warp of a 16×16 block is one progression. Otherwise a step never
//!   crosses a row.
//! * WORK, each cycle, one context is *picked*: the locked one if the lock
//!   is set (no step at all while its CTA is held), else the lowest-numbered
//!   context not held (`cta_hold[c]` = 0)
//!   that is in START*/ADJ*, or in RUN with its warp's queue not full
//!   (`pwaq_full[warp0[c] + lin/32]`; a warp number ≥ W has no queue and is
//!   never full, nor is a warp with no active thread, which pushes
//!   nothing). This is the CTA switching of §4.2: a full queue of one CTA's
//!   warp, or a CTA held at a barrier, lets the next CTA go.
//!   The picked context does one step:
//!   - START0: `acc ← base + obx·ctaid.x` (§4.2 ①), then START1 if `oby ≠ 0`,
//!     else START2 if `obz ≠ 0`, else RUN. START1: `acc += oby·ctaid.y`, then
//!     START2 if `obz ≠ 0` else RUN. START2: `acc += obz·ctaid.z` → RUN.
//!   - ADJY: `acc += adj_y`; → ADJZ if `ty = 0 && adj_z ≠ 0`, else RUN.
//!     ADJZ: `acc += adj_z` → RUN.
//!   - RUN: a record step (below).
//!
//!   When every context is DONE after the edge, `top` → IDLE.
//! * Record step. `g = 2^gl` bytes per unit (gran 0 byte, 1 half, 2 and 3
//!   word), region = `32·g` bytes, `u0 = acc[gl+4:gl]` (unit of the next thread
//!   in its region), `m` = threads the step may cover = min(to the end of the
//!   warp, to the end of the CTA, and for a non-linear tuple to the end of
//!   the row `dx − tx`). By `s = otx`:
//!   - `s = 0`: `k = m` threads, mask = bit `u0`.
//!   - `s = +g·2^p` (p = 0..5): `k = min(m, ((31 − u0) >> p) + 1)`, mask bits
//!     `u0, u0+2^p, ...` (k of them): §4.2 "an offset of 4 ... 1111...; an
//!     offset of 8 ... 1010...".
//!   - `s = −g·2^p`: `k = min(m, (u0 >> p) + 1)`, bits `u0, u0−2^p, ...`.
//!
//!     These three push one record per cycle and do `acc ← acc + k·s`.
//!   - any other `s` (odd multiples, non-multiples of `g`, `|s| > 32g`):
//!     *serial*, one thread per cycle: the ALU computes `next = acc + s`; the
//!     thread's bit is ORed into the builder; if `m = 1` or `next` is in
//!     another region the record (builder | bit, region of `acc`) is pushed and
//!     the lock released, else the context is locked (the unit stays with it
//!     until the record is pushed) and the builder keeps the mask. `acc ← next`.
//!
//!   *Active threads*: thread `j` of the step is the warp's thread
//!   `lin % 32 + j`; only the active ones set their bit (zero stride: bit
//!   `u0` if any of the `k` is active; serial: the thread's bit if it is
//!   active). The record of a warp with no active thread is not pushed; in
//!   a warp with some, a record of inactive threads only is pushed empty.
//!
//!   Record fields: `line = acc[31:7]`, `sect = acc[6:5]` (byte) / `acc[6]`
//!   (half) / 0 (word), `gran = gl`, `last` = the step covers the warp's last
//!   thread (`(lin + k) % 32 = 0` or `lin + k = total`). Then `lin += k`; for a
//!   non-linear tuple `tx += k`, and at `tx = dx` (row end) `tx ← 0`, `ty += 1`,
//!   and at `ty = dy` `ty ← 0` (a plane end). Next `cst`: DONE if `lin = total`;
//!   else at a row end ADJY if `adj_y ≠ 0`, else ADJZ if `ty = 0 && adj_z ≠ 0`;
//!   else RUN.
//!
//!   A step that would push while its warp's `pwaq_full` bit is set is not
//!   taken (no register changes; a stall). Only a locked serial context can
//!   meet this, and only if something other than this unit fills the queue.
//!   A record for a warp number ≥ W is computed and dropped (`push` = 0).
//! * `rst`: `top` ← IDLE, all contexts DONE, lock cleared (next edge).
//!   Outputs in a reset cycle follow the current state as in any cycle.
//!
//! Exactness: every thread's address is `acc` at the step that covers it
//! (all arithmetic mod 2^32), so the union of a warp's records is exactly the
//! set `{addr(t) & !(g−1)}` of its active threads: unaligned starts, zero,
//! negative and huge offsets, and wrap-around past 2^32 included (a region
//! never straddles 2^32). With every thread active no record is empty.
//! Records are maximal runs of consecutive threads, so a region may recur
//! for non-monotone tuples.
//! A misaligned access (address not a multiple of `g`) is recorded at its
//! unit, as the memory system would treat it.
//!
//! # Hardware
//! Every walk context is its own set of registers (`ctx{c}_st`, `_acc`,
//! `_lin`, `_tx`, `_ty`): the pick needs every context's state and
//! warp in parallel (8 comparators and 8 `pwaq_full` bit selects), then one
//! set of multiplexers (`p_*`) brings the picked context to the one shared
//! datapath, whose result is written back to that context only. The stride
//! class comes from comparing `otx >> gl` (and `-otx >> gl`) with 1, 2, ...
//! 32; a record's mask is the step's lanes (`run_lanes`) spread to every
//! `2^p`-th bit (wiring), mirrored for a negative stride, shifted to `u0` and
//! cut to `k` bits (`rec_mask`). The warp's lanes come from one 32-bit
//! selection of `lane_mask` by the picked warp (`p_lanes`); a W-bit OR per
//! warp (`warp_live`) keeps warps with no active thread from blocking. No
//! memory.
//!
//! # Not modelled here (outside this block)
//! The L1 request and lock counters of `enq.data` (the records leave on
//! `push` with `push_data`; `dac_unit` exposes them as `l1_req`), barrier
//! handling (§4.2: expansion waits for a CTA's barrier), divergent tuples
//! (§4.6: more than one tuple per operand), and mod-type tuples (expanded on
//! the SIMT lanes, §3).
//!
//! # Cycles (`cargo test -p verif --test blocks aeu::cycles_per_warp -- --nocapture`, on both engines)
//! Per tuple: 1 accept + 0–4 setup + per CTA 1–3 start steps (from reset: 2
//! setup steps for a 1-D block, the thread count; none for the next tuple of
//! the same shape). Per warp, 8 CTAs ×
//! 192 threads, word accesses: offset 4 line-aligned 1 cycle (59 cycles for
//! 48 warps = 1.27/warp with overhead); offset 4 unaligned or offset 8: 2
//! cycles; offset 0: 1; byte offset 1: 1; offset 12 (serial): 32. A 2-D block
//! 32×8 with `tid.y*32 + tid.x` is linear (1/warp); with a row stride that is
//! not `32·otx`, +1 ADJY cycle per row.
//!
//! # Storage (default parameters)
//! 896 flip-flops, no memory: 3 state, 227 latched tuple, 26 dims, 64 adjust,
//! 11 total + 1 valid, 8 × 66 walk contexts (3 + 32 + 11 + 10 + 10), 4 lock, 32
//! builder. The paper gives no AEU storage figure (§4.8 counts "2 ALUs").

use super::walk::{CtaInputs, RunCommit, Walk, K_BITS, TOP_IDLE};
use super::{record, tuple, CtaConfigIo, ExpansionParams, WARP_SIZE};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, mux, onehot, pick, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, StorageAccount};
use crate::util::low_mask;
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the AEU: the walk shape (the family's specs, shared
    /// with the PEU).
    pub struct AeuParams {
        warps: u32 = shared(super::WARPS),
        ctas: u32 = shared(super::CTAS),
    }
}

impl AeuParams {
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

/// The AEU's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AeuIo<H> {
    pub rst: H,
    pub in_valid: H,
    pub in_tuple: H,
    pub cta: CtaConfigIo<H>,
    pub cta_hold: H,
    pub pwaq_full: H,
    pub lane_mask: H,
    pub in_ready: H,
    pub push: H,
    pub push_warp: H,
    pub push_rec: H,
    pub push_data: H,
}

impl Interface for AeuParams {
    type Io<H> = AeuIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> AeuIo<B::H> {
        let wb = self.warp_bits();
        AeuIo {
            rst: b.reset(),
            in_valid: b.input("in_valid", 1),
            in_tuple: b.input("in_tuple", tuple::BITS),
            cta: CtaConfigIo::describe(b, self.ctas, wb),
            cta_hold: b.input("cta_hold", self.ctas),
            pwaq_full: b.input("pwaq_full", self.warps),
            lane_mask: b.input("lane_mask", WARP_SIZE * self.warps),
            in_ready: b.output("in_ready", 1),
            push: b.output("push", 1),
            push_warp: b.output("push_warp", wb),
            push_rec: b.output("push_rec", record::BITS),
            push_data: b.output("push_data", 1),
        }
    }
}

impl Block for AeuParams {
    const NAME: &'static str = "aeu";
    const SUMMARY: &'static str =
        "address expansion unit: affine tuples to per-warp address records (line, mask), one per cycle";
    const SOURCE: &'static str =
        "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, section 4.2, Figure 11";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        aeu(self, name)
    }

    /// The paper gives no storage figure for the expansion units (§4.8
    /// counts them as "2 ALUs per SM"): every register is a difference.
    fn storage(&self) -> StorageAccount {
        let why = "(the paper gives no AEU storage)";
        StorageAccount::default()
            .differs(3, format!("unit state {why}"))
            .differs(7 * 32 + 2 + 1, "latched tuple: base, six offsets, granularity, data")
            .differs(26 + 2 * 32 + 11 + 1, "latched block dimensions, the y and z adjustments, threads per CTA (and whether it is the latched shape's)")
            .differs(self.ctas as i64 * (3 + 32 + 11 + 10 + 10), "one walk context per CTA: state, address, position")
            .differs(1 + self.cta_bits() as i64 + 32, "serial lock and the record builder's mask")
    }
}

/// Generate the AEU (see the module documentation for the cycle behaviour).
pub fn aeu(p: &AeuParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Address expansion unit (DAC, Wang and Lin, ISCA 2017, section 4.2): expands one affine address tuple \
         at a time into warp address records for {} warps of up to {} CTAs, one record or one thread per cycle, \
         with one multiply-add ALU.",
        p.warps, p.ctas
    ));
    let (wb, cb) = (p.warp_bits(), p.cta_bits());
    let io = p.decls();
    let in_valid = m.port(&io.in_valid);
    let in_tuple = m.port(&io.in_tuple);
    let cta = CtaInputs::declare(&m, &io.cta);
    let cta_hold = m.port(&io.cta_hold);
    let pwaq_full = m.port(&io.pwaq_full);
    let lane_mask = m.port(&io.lane_mask);
    let in_ready = m.port(&io.in_ready);
    let push_o = m.port(&io.push);
    let push_warp = m.port(&io.push_warp);
    let push_rec = m.port(&io.push_rec);
    let push_data = m.port(&io.push_data);

    let gl = m.reg("gl", 2, 0);
    let data = m.reg("data", 1, 0);
    let lock_v = m.reg("lock_v", 1, 0);
    let lock_c = m.reg("lock_c", cb, 0);
    let bld = m.reg("bld_mask", 32, 0);
    let w = Walk::new(&m, p.ctas, p.warps, in_valid, in_tuple, &cta, pwaq_full, lane_mask, lock_v, lock_c, Some(cta_hold));

    // Accept: granularity (3 decodes as word), data flag; no lock.
    let g = in_tuple.slice(tuple::OP, 2);
    gl.set_if(w.accept, cat(&[g.bit(1), g.bit(0) & !g.bit(1)]));
    data.set_if(w.accept, in_tuple.slice(tuple::KIND, 2).eq(tuple::KIND_DATA));
    lock_v.set_if(w.accept, lit(0, 1));
    bld.set_if(w.accept, lit(0, 32));

    // RUN step of the picked context.
    let pk = &w.p;
    let acc = pk.acc;
    let u0 = acc.shr(gl).trunc(5).named("u0");
    let lim = pk.run_limit;
    let s = w.off[0];
    let is_zero = s.eq(0u64);
    // Offset +-g * 2^p: after dropping the low gl (zero) bits, a power of
    // two up to 32.
    let pow_hits = |v: Sig| {
        let sh = v.shr(gl);
        let exact = sh.shl(gl).eq(v);
        let hits: Vec<Sig> = (0..6u32).rev().map(|e| exact & sh.eq(1u64 << e)).collect();
        cat(&hits)
    };
    let up_hits = pow_hits(s).named("up_hits");
    let down_hits = pow_hits(lit(0, 32) - s).named("down_hits");
    let up = up_hits.any();
    let down = down_hits.any();
    let serial = (!is_zero & !up & !down).named("serial");
    let pexp = mux(up, up_hits.ffs(), down_hits.ffs()).named("stride_exp");
    let avail_up = (lit(31, 5) - u0).shr(pexp).zext(K_BITS) + 1u64;
    let avail_down = u0.shr(pexp).zext(K_BITS) + 1u64;
    let avail = mux(up, avail_up, avail_down);
    let k_stride = mux(avail.lt(lim), avail, lim);
    let k = mux(is_zero, lim, mux(serial, lit(1, K_BITS), k_stride)).named("k");
    let span = (k - 1u64).shl(pexp);
    let u0w = u0.zext(K_BITS);
    let ones = lit(u32::MAX as u64, 32);
    let bit = onehot(u0, 32);
    // The step's threads from bit 0 (thread j of the step is lane
    // `lin % 32 + j`): only active ones name a unit. Spread to every
    // `2^p`-th bit, as the stride pattern, and mirrored for a downward one.
    let run_lanes = pk.lanes.shr(pk.lin.slice(0, 5)).named("run_lanes");
    let spread = |q: u32| cat(&(0..32u32).rev().map(|i| if i % (1 << q) == 0 { run_lanes.bit(i >> q) } else { lit(0, 1) }).collect::<Vec<_>>());
    let lanes_up = pick(pexp, &(0..6).map(spread).collect::<Vec<_>>());
    let lanes_down = cat(&(0..32).map(|i| lanes_up.bit(i)).collect::<Vec<_>>());
    let mask_up = lanes_up.shl(u0) & low_mask(u0w + span + 1u64, 32);
    let mask_down = lanes_down.shr(lit(31, 5) - u0) & ones.shl(u0w - span);
    let mask_zero = mux((run_lanes & low_mask(k, 32)).any(), bit, lit(0, 32));
    let mask_serial = mux(run_lanes.bit(0), bit, lit(0, 32)) | mux(lock_v, bld, lit(0, 32));
    let mask = mux(is_zero, mask_zero, mux(up, mask_up, mux(down, mask_down, mask_serial))).named("rec_mask");

    let alu = w.alu(acc, lit(0, 1), s, k);
    let next = alu.trunc(32).named("next_acc");
    let region_shift = gl.zext(3) + 5u64;
    let same_region = (next ^ acc).shr(region_shift).eq(0u64);
    let emit = (!serial | lim.eq(1u64) | !same_region).named("emit");
    let step_ok = !(emit & pk.blocked);
    let take = (w.run & step_ok).named("take");
    let adv = w.advance(k);
    let warp_end = adv.warp_end;
    w.commit(alu, RunCommit { write: step_ok, acc: next, adv });

    // Serial records are built over several cycles under the lock.
    lock_v.set_if(take, !emit);
    lock_c.set_if(take & !emit, w.pick_idx);
    bld.set_if(take, mux(emit, lit(0, 32), mask));

    let sect = mux(gl.eq(0u64), acc.slice(5, 2), mux(gl.eq(1u64), cat(&[lit(0, 1), acc.bit(6)]), lit(0, 2)));
    let rec = cat(&[warp_end, gl, sect, acc.slice(7, record::LINE_BITS), mask]);
    let push = (take & emit & pk.in_range & pk.live).named("do_push");
    in_ready.set(w.top.eq(TOP_IDLE));
    push_o.set(push);
    push_warp.set(mux(push, pk.warp.trunc(wb), lit(0, wb)));
    push_rec.set(mux(push, rec, lit(0, record::BITS)));
    push_data.set(push & data & mask.any());
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<AeuParams>();
