//! Reference model of the predicate expansion unit (PEU), written from the
//! specification in `hw/src/blocks/dac/peu.rs` (paper §4.3).

use super::affine::compare;
use super::stim::{self, Expansion, ExpansionDriver};
use super::walk::{mac, set_config, Cst, CtaPorts, Ctx, Top, WalkRegs, MAX_CTAS};
use super::{CtaConfig, TupleCmd};
use crate::stimulus::{Frame, Stimulus};
use hw::blocks::dac::peu::PeuParams;
use hw::blocks::dac::{tuple, WARP_SIZE};
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};

/// Ports of the PEU, inputs then outputs.
pub fn ports(p: &PeuParams) -> Vec<PortSpec> {
    let mut v =
        vec![PortSpec::input("rst", 1), PortSpec::input("in_valid", 1), PortSpec::input("in_tuple", tuple::BITS)];
    v.extend(CtaPorts::specs(p.ctas, p.warp_bits()));
    v.extend([
        PortSpec::input("pwpq_full", p.warps),
        PortSpec::output("in_ready", 1),
        PortSpec::output("push", 1),
        PortSpec::output("push_warp", p.warp_bits()),
        PortSpec::output("push_mask", WARP_SIZE),
        PortSpec::output("cnt_scalar", 32),
        PortSpec::output("cnt_uniform", 32),
        PortSpec::output("cnt_serial", 32),
        PortSpec::output("cnt_cmp", 32),
    ]);
    v
}

/// What the locked context is doing with its warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The last thread's value is in `last`: compare both ends.
    Decide,
    /// Comparing one thread per cycle into `mask`.
    Serial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    top: Top,
    w: WalkRegs,
    rhs: u32,
    op: u64,
    ctx: [Ctx; MAX_CTAS],
    /// Per context: the CTA's scalar comparison is done, and its result.
    scal_v: [bool; MAX_CTAS],
    scal_r: [bool; MAX_CTAS],
    lock: Option<(usize, Mode)>,
    last: u32,
    wrap: bool,
    mask: u32,
    cnt_scalar: u32,
    cnt_uniform: u32,
    cnt_serial: u32,
    cnt_cmp: u32,
}

impl State {
    fn reset() -> Self {
        State {
            top: Top::Idle,
            w: WalkRegs::default(),
            rhs: 0,
            op: 0,
            ctx: [Ctx::IDLE; MAX_CTAS],
            scal_v: [false; MAX_CTAS],
            scal_r: [false; MAX_CTAS],
            lock: None,
            last: 0,
            wrap: false,
            mask: 0,
            cnt_scalar: 0,
            cnt_uniform: 0,
            cnt_serial: 0,
            cnt_cmp: 0,
        }
    }
}

/// `a < b` in the comparison's domain (signed or unsigned).
fn less(op: u64, a: u32, b: u32) -> bool {
    if op & tuple::CMP_SIGNED != 0 {
        (a as i32) < (b as i32)
    } else {
        a < b
    }
}

/// The value of thread `n-1` of an arithmetic progression starting at `acc`
/// with step `s`, and whether the progression leaves the comparison's domain
/// (wraps around) on the way: the ALU result is 38 bits wide.
fn last_of(op: u64, acc: u32, s: u32, n: u32) -> (u32, bool) {
    let signed = op & tuple::CMP_SIGNED != 0;
    let x0 = if signed { acc as i32 as i64 } else { acc as i64 };
    let xl = x0 + (n as i64 - 1) * (s as i32 as i64);
    let wrap = if signed { xl < i32::MIN as i64 || xl > i32::MAX as i64 } else { xl < 0 || xl > u32::MAX as i64 };
    (xl as u32, wrap)
}

/// The two-comparison shortcut: given both ends of a non-wrapping arithmetic
/// progression, `Some(result)` when every thread in between must agree.
/// Sound for the ordered comparisons (their true and false sets are both
/// intervals); for `eq`/`ne` only when the step is zero or both ends lie
/// strictly on the same side of `rhs` (otherwise `rhs` may be hit in between),
/// or when the warp has a single value (step zero or one thread).
fn shortcut(op: u64, first: u32, last: u32, s: u32, n: u32, rhs: u32) -> Option<bool> {
    let (c0, c1) = (compare(op, first, rhs), compare(op, last, rhs));
    match op & 7 {
        tuple::CMP_EQ | tuple::CMP_NE => {
            let same_side = less(op, first, rhs) == less(op, last, rhs) && first != rhs && last != rhs;
            (s == 0 || n == 1 || same_side).then_some(c0)
        }
        _ => (c0 == c1).then_some(c0),
    }
}

fn uniform(r: bool, n: u32) -> u32 {
    if !r {
        0
    } else if n >= 32 {
        !0
    } else {
        (1 << n) - 1
    }
}

pub struct Peu {
    p: PeuParams,
    io: PortFrame,
    rst: PortId,
    in_valid: PortId,
    in_tuple: PortId,
    cta: CtaPorts,
    pwpq_full: PortId,
    in_ready: PortId,
    push: PortId,
    push_warp: PortId,
    push_mask: PortId,
    cnt: [PortId; 4],
    s: State,
    n: State,
}

impl Peu {
    pub fn new(p: &PeuParams) -> Self {
        let io = PortFrame::new(ports(p));
        Peu {
            p: p.clone(),
            rst: io.id("rst"),
            in_valid: io.id("in_valid"),
            in_tuple: io.id("in_tuple"),
            cta: CtaPorts::resolve(&io, p.warp_bits()),
            pwpq_full: io.id("pwpq_full"),
            in_ready: io.id("in_ready"),
            push: io.id("push"),
            push_warp: io.id("push_warp"),
            push_mask: io.id("push_mask"),
            cnt: ["cnt_scalar", "cnt_uniform", "cnt_serial", "cnt_cmp"].map(|n| io.id(n)),
            io,
            s: State::reset(),
            n: State::reset(),
        }
    }

    fn warp_of(&self, c: usize) -> u32 {
        self.cta.warp0(&self.io, c) + self.s.ctx[c].lin / WARP_SIZE
    }

    fn blocked(&self, c: usize) -> bool {
        let w = self.warp_of(c);
        w < self.p.warps && self.io.get_u64(self.pwpq_full) >> w & 1 != 0
    }

    /// One step of context `c` in RUN; returns the mask to push. A step that
    /// would push into a full queue changes nothing (a stall).
    fn run_step(&mut self, c: usize) -> Option<u32> {
        let s = &self.s;
        let w = s.w;
        let ctx = s.ctx[c];
        let (op, rhs, step) = (s.op, s.rhs, w.otx());
        let n = w.warp_left(&ctx);
        let cta_uniform = w.t.is_cta_uniform();
        match s.lock {
            None if cta_uniform => {
                // Scalar vs scalar: one comparison per CTA, reused by its warps.
                if self.blocked(c) {
                    return None;
                }
                let r = if s.scal_v[c] { s.scal_r[c] } else { compare(op, ctx.acc, rhs) };
                if !s.scal_v[c] {
                    self.n.cnt_cmp = self.n.cnt_cmp.wrapping_add(1);
                    self.n.scal_v[c] = true;
                    self.n.scal_r[c] = r;
                }
                self.n.cnt_scalar = self.n.cnt_scalar.wrapping_add(1);
                w.advance(&mut self.n.ctx[c], n);
                Some(uniform(r, n))
            }
            None if w.linear() || w.dx - ctx.tx >= n => {
                // The warp is one arithmetic progression: compute its last value.
                let (last, wrap) = last_of(op, ctx.acc, step, n);
                self.n.last = last;
                self.n.wrap = wrap;
                self.n.lock = Some((c, Mode::Decide));
                None
            }
            Some((_, Mode::Decide)) => {
                let sc = if s.wrap { None } else { shortcut(op, ctx.acc, s.last, step, n, rhs) };
                match sc {
                    Some(r) => {
                        if self.blocked(c) {
                            return None;
                        }
                        self.n.cnt_cmp = self.n.cnt_cmp.wrapping_add(2);
                        self.n.cnt_uniform = self.n.cnt_uniform.wrapping_add(1);
                        self.n.ctx[c].acc = mac(ctx.acc, step, n, false);
                        w.advance(&mut self.n.ctx[c], n);
                        self.n.lock = None;
                        Some(uniform(r, n))
                    }
                    None => {
                        // Fall back; this cycle's first comparison is thread 0.
                        self.n.cnt_cmp = self.n.cnt_cmp.wrapping_add(2);
                        self.n.mask = compare(op, ctx.acc, rhs) as u32;
                        self.n.ctx[c].acc = ctx.acc.wrapping_add(step);
                        w.advance(&mut self.n.ctx[c], 1);
                        self.n.lock = Some((c, Mode::Serial));
                        None
                    }
                }
            }
            // Serial: a warp that spans rows of a non-linear tuple starts here.
            None | Some((_, Mode::Serial)) => {
                let lane = ctx.lin % WARP_SIZE;
                let mask = if s.lock.is_some() { s.mask } else { 0 } | (compare(op, ctx.acc, rhs) as u32) << lane;
                let ends = n == 1;
                if ends && self.blocked(c) {
                    return None;
                }
                self.n.cnt_cmp = self.n.cnt_cmp.wrapping_add(1);
                self.n.ctx[c].acc = ctx.acc.wrapping_add(step);
                w.advance(&mut self.n.ctx[c], 1);
                if ends {
                    self.n.cnt_serial = self.n.cnt_serial.wrapping_add(1);
                    self.n.lock = None;
                    self.n.mask = 0;
                    Some(mask)
                } else {
                    self.n.lock = Some((c, Mode::Serial));
                    self.n.mask = mask;
                    None
                }
            }
        }
    }

    fn compute(&mut self) {
        self.n = self.s;
        let mut push: Option<(u32, u32)> = None;
        match self.s.top {
            Top::Idle => {
                if self.io.get_bool(self.in_valid) {
                    let t = TupleCmd::unpack(self.io.get(self.in_tuple));
                    let [dx, dy, dz] = self.cta.dims(&self.io);
                    self.n.w = WalkRegs { t: t.aff, dx, dy, dz, adj_y: 0, adj_z: 0, total: 0 };
                    self.n.rhs = t.rhs;
                    self.n.op = t.op;
                    for c in 0..self.p.ctas as usize {
                        self.n.ctx[c] =
                            Ctx { st: if self.cta.valid(&self.io, c) { Cst::Start0 } else { Cst::Done }, ..Ctx::IDLE };
                        self.n.scal_v[c] = false;
                        self.n.scal_r[c] = false;
                    }
                    self.n.lock = None;
                    self.n.mask = 0;
                    self.n.top = Top::SetupY;
                }
            }
            Top::SetupY | Top::SetupZ | Top::SetupT1 | Top::SetupT2 => {
                self.n.top = self.n.w.setup(self.s.top);
            }
            Top::Work => {
                let pick = match self.s.lock {
                    Some((c, _)) => Some(c),
                    None => (0..self.p.ctas as usize).find(|&c| match self.s.ctx[c].st {
                        Cst::Done => false,
                        Cst::Run => !self.blocked(c),
                        _ => true,
                    }),
                };
                if let Some(c) = pick {
                    if self.s.ctx[c].st == Cst::Run {
                        if let Some(mask) = self.run_step(c) {
                            push = Some((self.warp_of(c), mask));
                        }
                    } else {
                        // start, or a row adjustment (also inside a serial warp)
                        let bid = self.cta.bid(&self.io, c);
                        self.s.w.start_or_adjust(&mut self.n.ctx[c], bid);
                    }
                }
                if self.n.ctx.iter().all(|c| c.st == Cst::Done) {
                    self.n.top = Top::Idle;
                }
            }
        }
        if self.io.get_bool(self.rst) {
            self.n = State::reset();
        }
        self.io.set_bool(self.in_ready, self.s.top == Top::Idle);
        let push = push.filter(|(w, _)| *w < self.p.warps);
        self.io.set_bool(self.push, push.is_some());
        self.io.set_u64(self.push_warp, push.map_or(0, |p| p.0 as u64));
        self.io.set_u64(self.push_mask, push.map_or(0, |p| p.1 as u64));
        let s = &self.s;
        for (id, v) in self.cnt.iter().zip([s.cnt_scalar, s.cnt_uniform, s.cnt_serial, s.cnt_cmp]) {
            self.io.set_u64(*id, v as u64);
        }
    }
}

impl Component for Peu {
    fn name(&self) -> &str {
        "peu"
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        self.compute();
    }
    fn tick(&mut self) {
        self.compute();
        std::mem::swap(&mut self.s, &mut self.n);
    }
}

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Constrained-random PEU traffic: predicate tuples (see [`ExpansionDriver`]).
pub fn driver(p: &PeuParams, seed: u64) -> ExpansionDriver {
    ExpansionDriver::new(Expansion::Pred, &ports(p), &p.expansion(), seed)
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// What a run of [`check_masks`] saw: warps per path and per operator.
#[derive(Clone, Debug, Default)]
pub struct PeuReport {
    pub tuples: u64,
    pub warps: u64,
    /// Increments of cnt_scalar, cnt_uniform, cnt_serial, cnt_cmp.
    pub paths: [u64; 4],
    /// Warps checked per operator code (0..16).
    pub per_op: [u64; 16],
    pub busy_cycles: u64,
}

/// Run `stim` through `dut` (any engine with the PEU's ports) and check, for
/// every tuple the unit accepted and finished, that each warp of each valid
/// CTA got exactly one mask, equal to the per-thread reference
/// ([`super::affine::warp_pred_mask`]); that nothing is pushed into a full
/// queue or to a warp outside the valid CTAs; and that the path counters
/// advance by exactly one per pushed mask. CTA configuration inputs must
/// change only in reset cycles.
pub fn check_masks(dut: &mut dyn Component, p: &PeuParams, stim: &Stimulus) -> Result<PeuReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let o = |n: &str| dut.output(n).unwrap();
    let (in_ready, push, push_warp, push_mask) = (o("in_ready"), o("push"), o("push_warp"), o("push_mask"));
    let cnt = ["cnt_scalar", "cnt_uniform", "cnt_serial", "cnt_cmp"].map(o);
    let sl = |n: &str| layout.expect(n);
    let (s_rst, s_valid, s_tuple, s_full) = (sl("rst"), sl("in_valid"), sl("in_tuple"), sl("pwpq_full"));
    let mut frame = Frame::new(layout.clone());
    let mut rep = PeuReport::default();
    struct Cur {
        t: TupleCmd,
        cfg: CtaConfig,
        /// Per warp slot: owned by a valid CTA, mask received.
        got: Vec<(bool, Option<u32>)>,
        start: usize,
    }
    let mut cur: Option<Cur> = None;
    // Counters of the previous cycle (None after a reset) and its push.
    let mut prev: Option<([u32; 4], bool)> = None;
    let mut after_rst = false;
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let counts = cnt.map(|id| dut.get_u64(id) as u32);
        let pushed = dut.get_bool(push);
        if after_rst && counts != [0; 4] {
            return err(format!("counters {counts:?} not cleared by reset"));
        }
        if let Some((pc, pushed_before)) = prev {
            let d: Vec<u32> = (0..4).map(|i| counts[i].wrapping_sub(pc[i])).collect();
            if d[0] + d[1] + d[2] != pushed_before as u32 {
                return err(format!("path counters advanced by {d:?} for {} pushed masks", pushed_before as u32));
            }
            for i in 0..4 {
                rep.paths[i] += d[i] as u64;
            }
        }
        let rst = frame.get(s_rst)[0] & 1 != 0;
        if rst {
            cur = None;
        } else {
            if pushed {
                let w = dut.get_u64(push_warp) as u32;
                let m = dut.get_u64(push_mask) as u32;
                let Some(k) = cur.as_mut() else { return err(format!("push for warp {w} with no tuple")) };
                if frame.get(s_full)[0] >> w & 1 != 0 {
                    return err(format!("push into the full queue of warp {w}"));
                }
                if w >= p.warps || !k.got[w as usize].0 {
                    return err(format!("push for warp {w}, which no valid CTA owns"));
                }
                if k.got[w as usize].1.replace(m).is_some() {
                    return err(format!("second mask for warp {w}"));
                }
            }
            if dut.get_bool(in_ready) {
                if let Some(k) = cur.take() {
                    for (ci, _) in k.cfg.valid.iter().enumerate().filter(|(_, v)| **v) {
                        let g = k.cfg.geom(ci);
                        for wi in 0..g.warps() {
                            let slot = (k.cfg.warp0[ci] + wi) as usize;
                            let want = super::affine::warp_pred_mask(&k.t.aff, k.t.rhs, k.t.op, &g, wi);
                            if k.got[slot].1 != Some(want) {
                                return err(format!(
                                    "tuple {:?} {} op {} dims {:?} cta {ci} bid {:?} warp {wi} (slot {slot}): mask {:x?}, reference {want:08x}",
                                    k.t.aff, k.t.rhs, k.t.op, k.cfg.dims, g.bid, k.got[slot].1
                                ));
                            }
                            rep.warps += 1;
                            rep.per_op[k.t.op as usize] += 1;
                        }
                    }
                    rep.tuples += 1;
                    rep.busy_cycles += (c - k.start) as u64;
                }
                if frame.get(s_valid)[0] & 1 != 0 {
                    let t = TupleCmd::unpack(frame.get(s_tuple));
                    let cfg = stim::config_from_frame(&frame, p.ctas, p.warp_bits());
                    let mut got = vec![(false, None); p.warps as usize];
                    for (ci, _) in cfg.valid.iter().enumerate().filter(|(_, v)| **v) {
                        for wi in 0..cfg.geom(ci).warps() {
                            got[(cfg.warp0[ci] + wi) as usize].0 = true;
                        }
                    }
                    cur = Some(Cur { t, cfg, got, start: c });
                }
            }
        }
        let rst_now = frame.get(s_rst)[0] & 1 != 0;
        prev = if rst_now { None } else { Some((counts, pushed)) };
        after_rst = rst_now;
        dut.tick();
    }
    Ok(rep)
}

/// Run one tuple through `dut` (a PEU of parameters `p`, any engine) from
/// reset with no backpressure; the mask pushed per warp slot, the cycles
/// from accepting the tuple to being ready again, and the counters
/// (`cnt_scalar`, `cnt_uniform`, `cnt_serial`, `cnt_cmp`) at the end.
pub fn expand_one(dut: &mut dyn Component, p: &PeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Option<u32>>, u64, [u64; 4]) {
    crate::poke::clear_inputs(dut);
    set_config(dut, cfg, p.warp_bits());
    let i = |n: &str| dut.input(n).unwrap();
    let (rst, iv, it) = (i("rst"), i("in_valid"), i("in_tuple"));
    dut.set_bool(rst, true);
    dut.step();
    dut.set_bool(rst, false);
    dut.set_bool(iv, true);
    dut.set(it, &t.pack());
    dut.step();
    dut.set_bool(iv, false);
    let o = |n: &str| dut.output(n).unwrap();
    let (ready, push, pw, pm) = (o("in_ready"), o("push"), o("push_warp"), o("push_mask"));
    let cnt = ["cnt_scalar", "cnt_uniform", "cnt_serial", "cnt_cmp"].map(o);
    let mut out = vec![None; p.warps as usize];
    let mut cycles = 1;
    loop {
        dut.eval();
        if dut.get_bool(ready) {
            break;
        }
        if dut.get_bool(push) {
            assert!(out[dut.get_u64(pw) as usize].replace(dut.get_u64(pm) as u32).is_none(), "two masks for one warp");
        }
        dut.tick();
        cycles += 1;
        assert!(cycles < 100_000, "the PEU does not finish");
    }
    (out, cycles, cnt.map(|id| dut.get_u64(id)))
}

/// Registry entry: the reference model and the driver of `peu`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "peu",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(Peu::new(&PeuParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(driver(&PeuParams::from_params(p)?, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::dac::affine::{Aff, CtaGeom};
    use hw::blocks::dac::tuple::*;

    fn expand(p: &PeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Option<u32>>, u64, [u64; 4]) {
        expand_one(&mut Peu::new(p), p, cfg, t)
    }

    fn one_cta(dims: [u32; 3]) -> CtaConfig {
        CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
    }

    fn pred(base: u32, otx: u32, rhs: u32, op: u64) -> TupleCmd {
        TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs, kind: KIND_PRED, op }
    }

    /// Figure 7 line 15: `setp.ne p0, dim, i` compares two scalars: one
    /// comparison for the CTA, a uniform mask for every warp.
    #[test]
    fn scalar_vs_scalar_is_one_comparison_per_cta() {
        let p = PeuParams { warps: 8, ctas: 1 };
        let (m, _, cnt) = expand(&p, &one_cta([256, 1, 1]), pred(7, 0, 10, CMP_NE));
        assert_eq!(m, vec![Some(!0); 8]);
        assert_eq!(cnt, [8, 0, 0, 1]);
    }

    /// `tid < bound` with the bound inside warp 2: warps 0, 1 all-true and
    /// 3.. all-false via the two-compare shortcut, warp 2 mixed via the full
    /// comparison.
    #[test]
    fn bound_check_takes_the_shortcut_except_at_the_boundary() {
        let p = PeuParams { warps: 8, ctas: 1 };
        let (m, cycles, cnt) = expand(&p, &one_cta([256, 1, 1]), pred(0, 1, 70, CMP_LT));
        let want: Vec<Option<u32>> = (0..8)
            .map(|w| {
                Some(if w < 2 {
                    !0
                } else if w == 2 {
                    0x3f
                } else {
                    0
                })
            })
            .collect();
        assert_eq!(m, want);
        assert_eq!(cnt, [0, 7, 1, 7 * 2 + 2 + 31]);
        // accept, 4 setup, 1 start, 7 x 2 shortcut, 1 + 32 fallback
        assert_eq!(cycles, 1 + 4 + 1 + 7 * 2 + 1 + 32);
    }

    /// eq with a nonzero offset: both ends differ from rhs but a thread in
    /// between equals it; the two-compare shortcut must not be taken.
    #[test]
    fn eq_with_a_hit_between_the_ends_is_not_uniform() {
        let p = PeuParams { warps: 1, ctas: 1 };
        for (op, want) in [(CMP_EQ, 1u32 << 9), (CMP_NE, !(1u32 << 9))] {
            let (m, _, cnt) = expand(&p, &one_cta([32, 1, 1]), pred(100, 4, 136, op));
            assert_eq!(m[0], Some(want));
            assert_eq!(cnt[2], 1, "must take the serial path");
        }
        // ... while an rhs outside the range is uniform with two compares.
        let (m, _, cnt) = expand(&p, &one_cta([32, 1, 1]), pred(100, 4, 99, CMP_EQ));
        assert_eq!((m[0], cnt[1]), (Some(0), 1));
        // ... and an rhs between the ends but not on the progression (odd) is
        // not provable with two compares: serial, and the mask is all false.
        let (m, _, cnt) = expand(&p, &one_cta([32, 1, 1]), pred(100, 4, 137, CMP_EQ));
        assert_eq!((m[0], cnt[2]), (Some(0), 1));
    }

    /// Wrap-around: unsigned values 0xffff_fff0 + 4*t wrap past zero inside
    /// the warp; first and last are both >= 0x8000_0000 is false for the
    /// last and true for the first... pick one where both ends agree but the
    /// middle does not.
    #[test]
    fn wrap_inside_the_warp_is_not_uniform() {
        let p = PeuParams { warps: 1, ctas: 1 };
        // unsigned: values 0xffffff00 + 16*t, t = 0..31: thread 16 wraps to 0.
        // Ends: 0xffffff00 and 0x000000f0; `>= 0x100`: end values true/false...
        // choose `< 0xffffff80`: first false (0xffffff00 < 0xffffff80 is true!)
        // so use gt 0x10: first true, last (0xf0) true, thread 16 (0) false.
        let t = pred(0xffff_ff00, 16, 0x10, CMP_GT);
        let g = CtaGeom { dims: [32, 1, 1], bid: [0; 3] };
        let want = crate::models::dac::affine::warp_pred_mask(&t.aff, t.rhs, t.op, &g, 0);
        assert_ne!(want, !0);
        let (m, _, cnt) = expand(&p, &one_cta([32, 1, 1]), t);
        assert_eq!(m[0], Some(want));
        assert_eq!(cnt[2], 1);
        // The same values compared signed do not wrap (-256 .. 240): uniform
        // is then decided by the ends, here mixed, so serial as well; with
        // rhs = -1000 both ends are greater: uniform true.
        let (m, _, cnt) = expand(&p, &one_cta([32, 1, 1]), pred(0xffff_ff00, 16, -1000i32 as u32, CMP_GT | CMP_SIGNED));
        assert_eq!((m[0], cnt[1]), (Some(!0), 1));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// The two-comparison rule in isolation: whenever it answers for a
        /// non-wrapping progression, every thread agrees with it; the 38-bit
        /// last value is the 32-bit progression's last value.
        #[test]
        fn shortcut_is_sound(
            acc in proptest::prop_oneof![proptest::prelude::any::<u32>(), 0x7fff_ff00u32..0x8000_0100, 0u32..256, 0xffff_ff00u32..=u32::MAX],
            s in proptest::prop_oneof![-8i32..8, -300i32..300, proptest::prelude::any::<i32>()],
            n in 1u32..=32,
            j in 0u32..40,
            d in -2i32..=2,
            far in proptest::prelude::any::<bool>(),
            r in proptest::prelude::any::<u32>(),
            op in 0u64..16,
        ) {
            let s = s as u32;
            let rhs = if far { r } else { acc.wrapping_add(s.wrapping_mul(j)).wrapping_add(d as u32) };
            let (last, wrap) = last_of(op, acc, s, n);
            proptest::prop_assert_eq!(last, acc.wrapping_add(s.wrapping_mul(n - 1)));
            if !wrap {
                if let Some(res) = shortcut(op, acc, last, s, n, rhs) {
                    for t in 0..n {
                        proptest::prop_assert_eq!(compare(op, acc.wrapping_add(s.wrapping_mul(t)), rhs), res, "thread {}", t);
                    }
                }
            }
        }
    }

    /// Without the care taken above, the rule is wrong: `c0 == c1` alone for
    /// eq/ne, or ignoring wrap-around, gives masks that differ from the
    /// per-thread reference (examples the unit must, and does, handle).
    #[test]
    fn naive_two_compare_rule_would_be_wrong() {
        // eq, offset 4: ends 100 and 224 differ from 136, thread 9 equals it.
        let (acc, s, n, rhs) = (100u32, 4u32, 32u32, 136u32);
        let last = acc + s * (n - 1);
        assert_eq!(compare(CMP_EQ, acc, rhs), compare(CMP_EQ, last, rhs));
        assert!(compare(CMP_EQ, acc + 9 * s, rhs));
        assert_eq!(shortcut(CMP_EQ, acc, last, s, n, rhs), None);
        // unsigned wrap: ends 0xffffff00 and 0xf0 both > 0x10, thread 16 is 0.
        let (acc, s) = (0xffff_ff00u32, 16u32);
        let (last, wrap) = last_of(CMP_GT, acc, s, 32);
        assert!(wrap && compare(CMP_GT, acc, 0x10) && compare(CMP_GT, last, 0x10));
        assert!(!compare(CMP_GT, acc.wrapping_add(16 * s), 0x10));
    }

    /// Every operator, signed and unsigned, on random tuples: masks equal the
    /// per-thread reference; every path is exercised.
    #[test]
    fn random_traffic_masks_match_the_reference() {
        let mut total = PeuReport::default();
        for (p, seed, cycles) in [
            (PeuParams::default(), 11, 80_000),
            (PeuParams { warps: 12, ctas: 3 }, 12, 40_000),
            (PeuParams { warps: 1, ctas: 1 }, 13, 20_000),
        ] {
            let mut d = driver(&p, seed);
            let stim = Stimulus::record(&mut d, cycles);
            let mut dut = Peu::new(&p);
            let rep = check_masks(&mut dut, &p, &stim).unwrap();
            println!("PEU {p:?}: {rep:?}");
            for i in 0..4 {
                total.paths[i] += rep.paths[i];
            }
            for i in 0..16 {
                total.per_op[i] += rep.per_op[i];
            }
            total.warps += rep.warps;
        }
        let [sc, un, se, cmp] = total.paths;
        let masks = (sc + un + se) as f64;
        println!(
            "PEU paths over {} masks: scalar {sc} ({:.0}%), two-compare {un} ({:.0}%), full {se} ({:.0}%), comparisons {cmp} ({:.2} per mask)",
            sc + un + se,
            100.0 * sc as f64 / masks,
            100.0 * un as f64 / masks,
            100.0 * se as f64 / masks,
            cmp as f64 / masks
        );
        assert!(total.per_op.iter().all(|&n| n > 200), "{:?}", total.per_op);
        assert!(sc > 1000 && un > 1000 && se > 1000);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
        /// Random parameters and seeds: masks equal the per-thread reference.
        #[test]
        fn prop_masks_match(warps in 1u32..=64, ctas in 1u32..=16, seed in proptest::prelude::any::<u64>()) {
            let p = PeuParams { warps, ctas };
            let stim = Stimulus::record(&mut driver(&p, seed), 8_000);
            let r = check_masks(&mut Peu::new(&p), &p, &stim);
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
