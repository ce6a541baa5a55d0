//! The CTA walk shared by the AEU and the PEU generators (specified in
//! `aeu.rs`, "Registers" and "Cycle behaviour"): the unit state machine, the
//! latched tuple and block dimensions, the setup values, one walk context per
//! CTA slot, the pick of one context per cycle, and the one multiply-add ALU
//! every step shares.
//!
//! A unit builds it in four steps: [`Walk::new`] (registers, latching at
//! accept, the pick), then the unit's RUN step on the picked context's
//! values ([`Walk::p`]) with its ALU operands, [`Walk::alu`] (the one ALU
//! result of this cycle), [`Walk::advance`] (the thread position after a RUN
//! step), and [`Walk::commit`] (the next state of every context and of the
//! unit).

use super::{cta, tuple, CtaConfigIo, MAX_CTA_THREADS};
use crate::iface::PortSpec;
use crate::clog2;
use crate::ir::{cat, lit, mux, pick, ModuleBuilder, Sig};

/// Unit states.
pub const TOP_IDLE: u64 = 0;
pub const TOP_SETUP_Y: u64 = 1;
pub const TOP_SETUP_Z: u64 = 2;
pub const TOP_SETUP_T1: u64 = 3;
pub const TOP_SETUP_T2: u64 = 4;
pub const TOP_WORK: u64 = 5;

/// Walk context states.
pub const CST_DONE: u64 = 0;
pub const CST_START0: u64 = 1;
pub const CST_START1: u64 = 2;
pub const CST_START2: u64 = 3;
pub const CST_RUN: u64 = 4;
pub const CST_ADJY: u64 = 5;
pub const CST_ADJZ: u64 = 6;

/// Widths of a context's fields.
pub const LIN_BITS: u32 = 11;
pub const TX_BITS: u32 = 10;
pub const TY_BITS: u32 = 10;
/// Width of a thread count within a warp (1..=32).
pub const K_BITS: u32 = 6;
/// The ALU computes 38 bits wide (the PEU's last-value check needs it).
pub const ALU_BITS: u32 = 38;

/// The CTA configuration inputs of an expansion unit.
pub struct CtaInputs {
    pub valid: Sig,
    pub bidx: Sig,
    pub warp0: Sig,
    pub dx_m1: Sig,
    pub dy_m1: Sig,
    pub dz_m1: Sig,
}

impl CtaInputs {
    /// Declare the ports of the unit's description.
    pub fn declare(m: &ModuleBuilder, io: &CtaConfigIo<PortSpec>) -> Self {
        CtaInputs {
            valid: m.port(&io.valid),
            bidx: m.port(&io.bidx),
            warp0: m.port(&io.warp0),
            dx_m1: m.port(&io.dim_x_m1),
            dy_m1: m.port(&io.dim_y_m1),
            dz_m1: m.port(&io.dim_z_m1),
        }
    }
}

/// One walk context's registers.
pub struct Ctx {
    pub st: Sig,
    pub acc: Sig,
    pub lin: Sig,
    pub tx: Sig,
    pub ty: Sig,
}

/// The picked context's values (and its CTA's inputs).
pub struct Picked {
    pub acc: Sig,
    pub lin: Sig,
    pub tx: Sig,
    pub ty: Sig,
    /// Warp slot of the next thread (may be out of range).
    pub warp: Sig,
    /// That warp's queue is full and the warp has active threads (a warp
    /// with none pushes nothing, so nothing blocks it).
    pub blocked: Sig,
    /// That warp's active threads (`lane_mask`; 0 out of range).
    pub lanes: Sig,
    /// It has at least one: its steps push.
    pub live: Sig,
    /// `warp < warps`: a push for it reaches a queue.
    pub in_range: Sig,
    pub bid: [Sig; 3],
    /// Threads to the end of the warp (1..=32).
    pub warp_left: Sig,
    /// Threads the next step may cover: `warp_left`, and for a non-linear
    /// tuple at most to the end of the row.
    pub run_limit: Sig,
}

/// A context's position and state after a RUN step of `k` threads.
pub struct Adv {
    pub lin: Sig,
    pub tx: Sig,
    pub ty: Sig,
    pub st: Sig,
    /// `(lin + k) % 32 == 0 || lin + k == total`: the warp's last thread.
    pub warp_end: Sig,
}

/// What the unit's RUN step does to the picked context this cycle.
pub struct RunCommit {
    /// The context is written (a step was taken and moved it).
    pub write: Sig,
    pub acc: Sig,
    pub adv: Adv,
}

pub struct Walk {
    pub top: Sig,
    /// `total` holds the latched shape's thread count.
    total_valid: Sig,
    /// The unit's state after accepting the offered tuple.
    first_setup: Sig,
    pub base: Sig,
    /// Offsets tid.x, tid.y, tid.z, ctaid.x, ctaid.y, ctaid.z.
    pub off: [Sig; 6],
    /// Block dimensions (actual values, 11 bits).
    pub dx: Sig,
    pub dy: Sig,
    pub dz: Sig,
    pub adj_y: Sig,
    pub adj_z: Sig,
    pub total: Sig,
    /// The tuple continues across rows without adjustment.
    pub linear: Sig,
    /// A tuple is taken this cycle (IDLE and `in_valid`).
    pub accept: Sig,
    /// The CTA slots a tuple offered now is expanded for: valid and named
    /// by its CTA set.
    targets: Sig,
    pub ctx: Vec<Ctx>,
    pub pick_idx: Sig,
    pub p: Picked,
    /// The picked context is in RUN (and `active`).
    pub run: Sig,
    sel: Selectors,
}

/// Decoded unit and picked-context states.
struct Selectors {
    setup_y: Sig,
    setup_z: Sig,
    setup_t1: Sig,
    setup_t2: Sig,
    start0: Sig,
    start1: Sig,
    start2: Sig,
    adjy: Sig,
    adjz: Sig,
}


impl Walk {
    /// Registers, latching at accept and the pick. `full`: the per-warp
    /// queue flags; `lanes`: the per-warp active threads (32 bits each);
    /// `lock_v`/`lock_c`: the unit's lock (a locked context is picked
    /// whatever its queue); `hold`: per CTA slot, its context takes no step
    /// (the AEU's barrier hold, §4.2; the PEU has none).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        m: &ModuleBuilder,
        ctas: u32,
        warps: u32,
        in_valid: Sig,
        in_tuple: Sig,
        c: &CtaInputs,
        full: Sig,
        lanes: Sig,
        lock_v: Sig,
        lock_c: Sig,
        hold: Option<Sig>,
    ) -> Walk {
        let wb = clog2(warps as u64);
        let top = m.reg("top", 3, TOP_IDLE);
        let base = m.reg("t_base", 32, 0);
        let names = ["t_otx", "t_oty", "t_otz", "t_obx", "t_oby", "t_obz"];
        let off = names.map(|n| m.reg(n, 32, 0));
        let dx_m1 = m.reg("dim_x_m1", cta::DIM_X_M1_BITS, 0);
        let dy_m1 = m.reg("dim_y_m1", cta::DIM_Y_M1_BITS, 0);
        let dz_m1 = m.reg("dim_z_m1", cta::DIM_Z_M1_BITS, 0);
        let adj_y = m.reg("adj_y", 32, 0);
        let adj_z = m.reg("adj_z", 32, 0);
        let total = m.reg("total", LIN_BITS, 0);
        let dx = (dx_m1.zext(11) + 1u64).named("dx");
        let dy = (dy_m1.zext(11) + 1u64).named("dy");
        let dz = (dz_m1.zext(11) + 1u64).named("dz");

        let accept = (top.eq(TOP_IDLE) & in_valid).named("accept");
        // `total` is kept for a tuple of the block shape it was computed for.
        let total_valid = m.reg("total_valid", 1, 0);
        let same_shape = (total_valid & c.dx_m1.eq(dx_m1) & c.dy_m1.eq(dy_m1) & c.dz_m1.eq(dz_m1)).named("same_shape");
        total_valid.set_if(accept, same_shape);
        adj_y.set_if(accept, lit(0, 32));
        adj_z.set_if(accept, lit(0, 32));
        base.set_if(accept, in_tuple.slice(tuple::BASE, 32));
        for (i, r) in off.iter().enumerate() {
            r.set_if(accept, in_tuple.slice(tuple::off(i as u32), 32));
        }
        dx_m1.set_if(accept, c.dx_m1);
        dy_m1.set_if(accept, c.dy_m1);
        dz_m1.set_if(accept, c.dz_m1);

        let linear = ((dy.eq(1u64) & dz.eq(1u64)) | (adj_y.eq(0u64) & (dz.eq(1u64) | adj_z.eq(0u64)))).named("linear");

        let targets = (c.valid & in_tuple.slice(tuple::CTAS, ctas)).named("targets");
        // Per warp slot: its threads, and whether it has any.
        let lane_words: Vec<Sig> = (0..warps).map(|w| lanes.slice(32 * w, 32)).collect();
        let live_vec = cat(&lane_words.iter().rev().map(|l| l.any()).collect::<Vec<_>>()).named("warp_live");
        let stops = (full & live_vec).named("warp_stops");

        // Contexts and their readiness.
        let ww = wb.max(6) + 1;
        let mut ctx = Vec::new();
        let (mut ready, mut warp_v, mut blocked_v) = (vec![], vec![], vec![]);
        for k in 0..ctas {
            let x = Ctx {
                st: m.reg(&format!("ctx{k}_st"), 3, CST_DONE),
                acc: m.reg(&format!("ctx{k}_acc"), 32, 0),
                lin: m.reg(&format!("ctx{k}_lin"), LIN_BITS, 0),
                tx: m.reg(&format!("ctx{k}_tx"), TX_BITS, 0),
                ty: m.reg(&format!("ctx{k}_ty"), TY_BITS, 0),
            };
            let w0 = c.warp0.slice(wb * k, wb);
            let warp = w0.zext(ww) + x.lin.slice(5, LIN_BITS - 5).zext(ww);
            let blocked = stops.bit_at(warp);
            let steps = x.st.ne(CST_DONE) & (x.st.ne(CST_RUN) | !blocked);
            let steps = match hold {
                Some(h) => steps & !h.bit(k),
                None => steps,
            };
            ready.push(steps.named(&format!("ctx{k}_ready")));
            warp_v.push(warp);
            blocked_v.push(blocked);
            ctx.push(x);
        }
        let ready_vec = cat(&ready.iter().rev().copied().collect::<Vec<_>>());
        let pick_idx = mux(lock_v, lock_c, ready_vec.ffs()).named("pick_idx");
        let work = top.eq(TOP_WORK);
        // A held CTA's context takes no step, even one holding the lock.
        let lock_go = match hold {
            Some(h) => lock_v & !h.bit_at(lock_c),
            None => lock_v,
        };
        let active = (work & (lock_go | (!lock_v & ready_vec.any()))).named("active");

        let field = |f: &dyn Fn(&Ctx) -> Sig| pick(pick_idx, &ctx.iter().map(f).collect::<Vec<_>>());
        let st = field(&|x| x.st).named("p_st");
        let acc = field(&|x| x.acc).named("p_acc");
        let lin = field(&|x| x.lin).named("p_lin");
        let tx = field(&|x| x.tx).named("p_tx");
        let ty = field(&|x| x.ty).named("p_ty");
        let warp = pick(pick_idx, &warp_v).named("p_warp");
        let blocked = pick(pick_idx, &blocked_v).named("p_blocked");
        let bids: Vec<Sig> = (0..ctas).map(|k| c.bidx.slice(cta::BIDX_BITS * k, cta::BIDX_BITS)).collect();
        let bid48 = pick(pick_idx, &bids);
        let bid = [bid48.slice(0, 16), bid48.slice(16, 16), bid48.slice(32, 16)];
        let in_range = crate::util::below(warp, warps);
        let p_lanes = pick(warp, &lane_words).named("p_lanes");
        let live = p_lanes.any().named("p_live");
        // Threads left in the warp: min(32 - lin % 32, total - lin).
        let to_warp_end = lit(32, LIN_BITS) - lin.slice(0, 5).zext(LIN_BITS);
        let to_cta_end = total - lin;
        let warp_left = mux(to_warp_end.lt(to_cta_end), to_warp_end, to_cta_end).trunc(K_BITS).named("p_warp_left");
        let to_row_end = dx - tx.zext(11);
        let fits_row = to_row_end.ge(warp_left.zext(11)).named("p_fits_row");
        let run_limit = mux(linear | fits_row, warp_left, to_row_end.trunc(K_BITS)).named("p_run_limit");
        let p = Picked { acc, lin, tx, ty, warp, blocked, lanes: p_lanes, live, in_range, bid, warp_left, run_limit };

        let run = (active & st.eq(CST_RUN)).named("p_run");
        let sel = Selectors {
            setup_y: top.eq(TOP_SETUP_Y),
            setup_z: top.eq(TOP_SETUP_Z),
            setup_t1: top.eq(TOP_SETUP_T1),
            setup_t2: top.eq(TOP_SETUP_T2),
            start0: active & st.eq(CST_START0),
            start1: active & st.eq(CST_START1),
            start2: active & st.eq(CST_START2),
            adjy: active & st.eq(CST_ADJY),
            adjz: active & st.eq(CST_ADJZ),
        };
        // The setup steps a tuple needs: the row adjustment unless the block
        // is one row, the plane adjustment for a 3-D block, the thread count
        // for a new block shape.
        let first_setup = mux(
            !(c.dy_m1.eq(0u64) & c.dz_m1.eq(0u64)),
            lit(TOP_SETUP_Y, 3),
            mux(c.dz_m1.ne(0u64), lit(TOP_SETUP_Z, 3), mux(same_shape, lit(TOP_WORK, 3), lit(TOP_SETUP_T1, 3))),
        )
        .named("first_setup");
        Walk {
            top,
            total_valid,
            first_setup,
            base,
            off,
            dx,
            dy,
            dz,
            adj_y,
            adj_z,
            total,
            linear,
            accept,
            targets,
            ctx,
            pick_idx,
            p,
            run,
            sel,
        }
    }

    /// This cycle's ALU result, `a ± b*c` (38 bits; the low 32 are the value
    /// modulo 2^32). Setup and start/adjust steps choose their operands here;
    /// a RUN step gives `run_a` (sign- or zero-extended by `run_signed`),
    /// `run_b` (sign-extended) and `run_c` (up to 32).
    pub fn alu(&self, run_a: Sig, run_signed: Sig, run_b: Sig, run_c: Sig) -> Sig {
        let s = &self.sel;
        let o = &self.off;
        let p = &self.p;
        let z32 = lit(0, 32);
        let one16 = lit(1, 16);
        // (select, a, b, c), the first matching wins; RUN is the default.
        let cases: [(Sig, Sig, Sig, Sig); 9] = [
            (s.setup_y, o[1], o[0], self.dx.zext(16)),
            (s.setup_z, o[2], o[1], self.dy.zext(16)),
            (s.setup_t1, z32, self.dx.zext(32), self.dy.zext(16)),
            (s.setup_t2, z32, self.total.zext(32), self.dz.zext(16)),
            (s.start0, self.base, o[3], p.bid[0]),
            (s.start1, p.acc, o[4], p.bid[1]),
            (s.start2, p.acc, o[5], p.bid[2]),
            (s.adjy, p.acc, self.adj_y, one16),
            (s.adjz, p.acc, self.adj_z, one16),
        ];
        let (mut a, mut b, mut c) = (run_a, run_b, run_c.zext(16));
        for &(sel, ca, cb, cc) in cases.iter().rev() {
            a = mux(sel, ca, a);
            b = mux(sel, cb, b);
            c = mux(sel, cc, c);
        }
        let a = a.named("alu_a");
        let b = b.named("alu_b");
        let c = c.named("alu_c");
        let signed = (self.run & run_signed).named("alu_signed");
        let neg = (s.setup_y | s.setup_z).named("alu_neg");
        let a38 = mux(signed, a.sext(ALU_BITS), a.zext(ALU_BITS));
        let prod = (b.sext(ALU_BITS) * c).trunc(ALU_BITS);
        mux(neg, a38 - prod, a38 + prod).named("alu_r")
    }

    /// Position and state of the picked context after a RUN step of `k`
    /// threads (row and plane ends for a non-linear tuple).
    pub fn advance(&self, k: Sig) -> Adv {
        let p = &self.p;
        let lin = p.lin + k.zext(LIN_BITS);
        let tx_sum = p.tx.zext(11) + k.zext(11);
        let row_end = !self.linear & tx_sum.eq(self.dx);
        let ty_inc = p.ty.zext(11) + 1u64;
        let plane_end = row_end & ty_inc.eq(self.dy);
        let tx = mux(self.linear, p.tx, mux(row_end, lit(0, TX_BITS), tx_sum.trunc(TX_BITS)));
        let ty = mux(row_end, mux(plane_end, lit(0, TY_BITS), ty_inc.trunc(TY_BITS)), p.ty);
        let adj_y = self.adj_y.ne(0u64);
        let adj_z = self.adj_z.ne(0u64);
        let st = mux(
            lin.ge(self.total),
            lit(CST_DONE, 3),
            mux(
                row_end & adj_y,
                lit(CST_ADJY, 3),
                mux(row_end & ty.eq(0u64) & adj_z, lit(CST_ADJZ, 3), lit(CST_RUN, 3)),
            ),
        );
        let warp_end = lin.slice(0, 5).eq(0u64) | lin.eq(self.total);
        Adv { lin, tx, ty, st, warp_end }
    }

    /// Next state of every context and of the unit: accept initialises the
    /// contexts (a context for each target CTA); setup cycles store the ALU
    /// result; a start/adjust step of the picked context stores it as
    /// `acc`; a RUN step stores `run`.
    pub fn commit(&self, alu: Sig, run: RunCommit) {
        let s = &self.sel;
        let o = &self.off;
        let p = &self.p;
        let r32 = alu.trunc(32);
        self.adj_y.set_if(s.setup_y, r32);
        self.adj_z.set_if(s.setup_z, r32);
        let cap = MAX_CTA_THREADS as u64;
        let sat = mux(r32.gt(cap), lit(cap, LIN_BITS), r32.trunc(LIN_BITS));
        self.total.set_if(s.setup_t1 | s.setup_t2, sat);

        // Start / adjust: the next state.
        let oby = o[4].ne(0u64);
        let obz = o[5].ne(0u64);
        let run3 = lit(CST_RUN, 3);
        let start2_or_run = mux(obz, lit(CST_START2, 3), run3);
        let st_sa = mux(
            s.start0,
            mux(oby, lit(CST_START1, 3), start2_or_run),
            mux(
                s.start1,
                start2_or_run,
                mux(s.adjy & p.ty.eq(0u64) & self.adj_z.ne(0u64), lit(CST_ADJZ, 3), run3),
            ),
        );
        let start_adj = s.start0 | s.start1 | s.start2 | s.adjy | s.adjz;
        let st_next = mux(start_adj, st_sa, run.adv.st).named("p_st_next");
        let acc_next = mux(start_adj, r32, run.acc).named("p_acc_next");
        let write = (start_adj | (self.run & run.write)).named("p_write");

        let mut all_done = lit(1, 1);
        for (k, x) in self.ctx.iter().enumerate() {
            let here = write & self.pick_idx.eq(k as u64);
            let valid = self.targets.bit(k as u32);
            x.st.set_if(self.accept, mux(valid, lit(CST_START0, 3), lit(CST_DONE, 3)));
            for r in [x.acc, x.lin, x.tx, x.ty] {
                r.set_if(self.accept, lit(0, r.width()));
            }
            x.st.set_if(here, st_next);
            x.acc.set_if(here, acc_next);
            x.lin.set_if(here & self.run, run.adv.lin);
            x.tx.set_if(here & self.run, run.adv.tx);
            x.ty.set_if(here & self.run, run.adv.ty);
            all_done = all_done & mux(here, st_next, x.st).eq(CST_DONE);
        }
        let top = self.top;
        self.total_valid.set_if(s.setup_t2, lit(1, 1));
        let after_z = mux(self.total_valid, lit(TOP_WORK, 3), lit(TOP_SETUP_T1, 3));
        let after_y = mux(self.dz.ne(1u64), lit(TOP_SETUP_Z, 3), after_z);
        let next_top = mux(
            top.eq(TOP_IDLE),
            mux(self.accept, self.first_setup, top),
            mux(
                top.eq(TOP_WORK),
                mux(all_done, lit(TOP_IDLE, 3), top),
                mux(s.setup_y, after_y, mux(s.setup_z, after_z, top + 1u64)),
            ),
        );
        top.set(next_top);
    }
}
