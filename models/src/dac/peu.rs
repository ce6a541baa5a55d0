//! Reference model of the predicate expansion unit (PEU), written from the
//! specification in `hw/src/blocks/dac/peu.rs` (paper §4.3).

use super::affine::compare;
use super::walk::{self, mac, Regs, Cst, CtaPorts, Ctx, Top, WalkRegs, MAX_CTAS};
use super::TupleCmd;
use crate::Reference;
use hw::blocks::dac::peu::{PeuIo, PeuParams};
use hw::blocks::dac::{tuple, WARP_SIZE};
use sim::{Bind, Component, PortFrame, PortId};

/// What the locked context is doing with its warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The segment's last thread's value is in `last`: compare both ends.
    Decide,
    /// The warp's earlier row segments are decided into `mask`: the next
    /// RUN step computes the next segment's last value.
    Next,
    /// Comparing one thread per cycle into `mask`.
    Serial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
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
pub fn last_of(op: u64, acc: u32, s: u32, n: u32) -> (u32, bool) {
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
pub fn shortcut(op: u64, first: u32, last: u32, s: u32, n: u32, rhs: u32) -> Option<bool> {
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
    pub(crate) frame: PortFrame,
    io: PeuIo<PortId>,
    cta: CtaPorts,
    pub(crate) r: Regs<State>,
}

impl Peu {
    pub fn new(p: &PeuParams) -> Self {
        let io = p.ids();
        Peu {
            p: p.clone(),
            frame: p.frame(),
            cta: CtaPorts { io: io.cta.clone(), warp_bits: p.warp_bits() },
            io,
            r: Regs::new(State::reset()),
        }
    }

    fn warp_of(&self, c: usize) -> u32 {
        self.cta.warp0(&self.frame, c) + self.r.s.ctx[c].lin / WARP_SIZE
    }

    /// The active threads of context `c`'s warp.
    fn lanes(&self, c: usize) -> u32 {
        walk::lanes(&self.frame, self.io.lane_mask, self.warp_of(c), self.p.warps)
    }

    /// The queue of the context's warp is full and the warp has active
    /// threads (one with none pushes nothing).
    fn blocked(&self, c: usize) -> bool {
        let w = self.warp_of(c);
        w < self.p.warps && self.frame.get_u64(self.io.pwpq_full) >> w & 1 != 0 && self.lanes(c) != 0
    }

    /// The warp's mask so far: pushed, and the context unlocked, when the
    /// step ends the warp; else kept, the context locked in `then`.
    fn push_or_hold(&mut self, c: usize, ends: bool, mask: u32, then: Mode) -> Option<u32> {
        if ends {
            self.r.n.lock = None;
            self.r.n.mask = 0;
            Some(mask)
        } else {
            self.r.n.lock = Some((c, then));
            self.r.n.mask = mask;
            None
        }
    }

    /// One step of context `c` in RUN; returns the mask to push. A step that
    /// would push into a full queue changes nothing (a stall).
    fn run_step(&mut self, c: usize) -> Option<u32> {
        let s = &self.r.s;
        let w = s.w;
        let ctx = s.ctx[c];
        let (op, rhs, step) = (s.op, s.rhs, w.otx());
        let n = w.warp_left(&ctx);
        // Threads to the end of the warp or, for a non-linear tuple, of the row.
        let seg = w.run_limit(&ctx);
        let lane = ctx.lin % WARP_SIZE;
        let carried = if s.lock.is_some() { s.mask } else { 0 };
        let cta_uniform = w.t.is_cta_uniform();
        // A path counter counts pushed masks: none for a warp with no active thread.
        let live = self.lanes(c) != 0;
        match s.lock {
            None if cta_uniform => {
                // Scalar vs scalar: one comparison per CTA, reused by its warps.
                if self.blocked(c) {
                    return None;
                }
                let r = if s.scal_v[c] { s.scal_r[c] } else { compare(op, ctx.acc, rhs) };
                if !s.scal_v[c] {
                    self.r.n.cnt_cmp = self.r.n.cnt_cmp.wrapping_add(1);
                    self.r.n.scal_v[c] = true;
                    self.r.n.scal_r[c] = r;
                }
                self.r.n.cnt_scalar = self.r.n.cnt_scalar.wrapping_add(live as u32);
                w.advance(&mut self.r.n.ctx[c], n);
                Some(uniform(r, n))
            }
            None | Some((_, Mode::Next)) => {
                // A row segment (the whole warp when it is one progression):
                // compute its last value.
                let (last, wrap) = last_of(op, ctx.acc, step, seg);
                self.r.n.last = last;
                self.r.n.wrap = wrap;
                self.r.n.lock = Some((c, Mode::Decide));
                None
            }
            Some((_, Mode::Decide)) => {
                let sc = if s.wrap { None } else { shortcut(op, ctx.acc, s.last, step, seg, rhs) };
                match sc {
                    Some(r) => {
                        let ends = seg == n;
                        if ends && self.blocked(c) {
                            return None;
                        }
                        self.r.n.cnt_cmp = self.r.n.cnt_cmp.wrapping_add(2);
                        self.r.n.ctx[c].acc = mac(ctx.acc, step, seg, false);
                        w.advance(&mut self.r.n.ctx[c], seg);
                        if ends {
                            self.r.n.cnt_uniform = self.r.n.cnt_uniform.wrapping_add(live as u32);
                        }
                        self.push_or_hold(c, ends, carried | uniform(r, seg) << lane, Mode::Next)
                    }
                    None => {
                        // Fall back; this cycle's first comparison is the segment's first thread.
                        self.r.n.cnt_cmp = self.r.n.cnt_cmp.wrapping_add(2);
                        self.r.n.mask = carried | (compare(op, ctx.acc, rhs) as u32) << lane;
                        self.r.n.ctx[c].acc = ctx.acc.wrapping_add(step);
                        w.advance(&mut self.r.n.ctx[c], 1);
                        self.r.n.lock = Some((c, Mode::Serial));
                        None
                    }
                }
            }
            Some((_, Mode::Serial)) => {
                let mask = carried | (compare(op, ctx.acc, rhs) as u32) << lane;
                let ends = n == 1;
                if ends && self.blocked(c) {
                    return None;
                }
                self.r.n.cnt_cmp = self.r.n.cnt_cmp.wrapping_add(1);
                self.r.n.ctx[c].acc = ctx.acc.wrapping_add(step);
                w.advance(&mut self.r.n.ctx[c], 1);
                if ends {
                    self.r.n.cnt_serial = self.r.n.cnt_serial.wrapping_add(live as u32);
                }
                self.push_or_hold(c, ends, mask, Mode::Serial)
            }
        }
    }

    fn compute(&mut self) {
        let rst = self.frame.get_bool(self.io.rst);
        self.r.same = self.r.s.top == Top::Idle && !rst && !self.frame.get_bool(self.io.in_valid);
        let push = if self.r.same { None } else { self.next(rst) };
        self.frame.set_bool(self.io.in_ready, self.r.s.top == Top::Idle);
        let push = push.filter(|(w, _)| *w < self.p.warps);
        self.frame.set_bool(self.io.push, push.is_some());
        self.frame.set_u64(self.io.push_warp, push.map_or(0, |p| p.0 as u64));
        self.frame.set_u64(self.io.push_mask, push.map_or(0, |p| p.1 as u64));
        let s = &self.r.s;
        let cnt = [self.io.cnt_scalar, self.io.cnt_uniform, self.io.cnt_serial, self.io.cnt_cmp];
        for (id, v) in cnt.iter().zip([s.cnt_scalar, s.cnt_uniform, s.cnt_serial, s.cnt_cmp]) {
            self.frame.set_u64(*id, v as u64);
        }
    }

    /// The next state into `n` (from `s`, or the reset state); the record
    /// or mask pushed this cycle.
    fn next(&mut self, rst: bool) -> Option<(u32, u32)> {
        self.r.n = self.r.s;
        let mut push: Option<(u32, u32)> = None;
        match self.r.s.top {
            Top::Idle => {
                if self.frame.get_bool(self.io.in_valid) {
                    let t = TupleCmd::unpack(self.frame.get(self.io.in_tuple));
                    self.r.n.w = self.r.s.w.accept(t.aff, self.cta.dims(&self.frame));
                    self.r.n.rhs = t.rhs;
                    self.r.n.op = t.op;
                    for c in 0..self.p.ctas as usize {
                        let st = if self.cta.target(&self.frame, c, t.ctas) { Cst::Start0 } else { Cst::Done };
                        self.r.n.ctx[c] = Ctx { st, ..Ctx::IDLE };
                        self.r.n.scal_v[c] = false;
                        self.r.n.scal_r[c] = false;
                    }
                    self.r.n.lock = None;
                    self.r.n.mask = 0;
                    self.r.n.top = self.r.n.w.first_setup();
                }
            }
            Top::SetupY | Top::SetupZ | Top::SetupT1 | Top::SetupT2 => {
                self.r.n.top = self.r.n.w.setup(self.r.s.top);
            }
            Top::Work => {
                let pick = match self.r.s.lock {
                    Some((c, _)) => Some(c),
                    None => (0..self.p.ctas as usize).find(|&c| match self.r.s.ctx[c].st {
                        Cst::Done => false,
                        Cst::Run => !self.blocked(c),
                        _ => true,
                    }),
                };
                if let Some(c) = pick {
                    if self.r.s.ctx[c].st == Cst::Run {
                        let lanes = self.lanes(c);
                        if let Some(mask) = self.run_step(c) {
                            push = Some((self.warp_of(c), mask & lanes)).filter(|_| lanes != 0);
                        }
                    } else {
                        // start, or a row adjustment (also inside a serial warp)
                        let bid = self.cta.bid(&self.frame, c);
                        self.r.s.w.start_or_adjust(&mut self.r.n.ctx[c], bid);
                    }
                }
                if self.r.n.ctx.iter().all(|c| c.st == Cst::Done) {
                    self.r.n.top = Top::Idle;
                }
            }
        }
        if rst {
            self.r.n = State::reset();
        }
        push
    }
}

impl Component for Peu {
    fn name(&self) -> &str {
        "peu"
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        self.compute();
    }
    fn tick(&mut self) {
        self.compute();
        self.r.commit();
    }
}

impl Reference for PeuParams {
    type Model = Peu;
    fn model(&self) -> Peu {
        Peu::new(self)
    }
}
