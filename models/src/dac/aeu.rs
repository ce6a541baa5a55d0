//! Reference model of the address expansion unit (AEU), written from the
//! specification in `hw/src/blocks/dac/aeu.rs` (paper §4.2).

use super::walk::{self, mac, Regs, Cst, CtaPorts, Ctx, Top, WalkRegs, MAX_CTAS};
use super::{Record, TupleCmd};
use crate::Reference;
use hw::blocks::dac::aeu::{AeuIo, AeuParams};
use hw::blocks::dac::{tuple, WARP_SIZE};
use sim::{Bind, Component, PortFrame, PortId};

/// How a step covers threads, from the thread offset and granularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stride {
    /// Offset 0: every thread of the run hits one unit.
    Zero,
    /// Offset `+g * 2^p`, p <= 5: mask bits every `2^p` units upward.
    Up(u32),
    /// Offset `-g * 2^p`: downward.
    Down(u32),
    /// Anything else: one thread per cycle.
    Serial,
}

fn classify(s: u32, gl: u32) -> Stride {
    if s == 0 {
        return Stride::Zero;
    }
    for p in 0..=5 {
        let step = 1u32 << (gl + p);
        if s == step {
            return Stride::Up(p);
        }
        if s == step.wrapping_neg() {
            return Stride::Down(p);
        }
    }
    Stride::Serial
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    top: Top,
    w: WalkRegs,
    /// Decoded granularity: log2 of the unit size (0, 1, 2).
    gl: u32,
    data: bool,
    ctx: [Ctx; MAX_CTAS],
    /// Context whose serial record is being built.
    lock: Option<usize>,
    /// Mask of that record (its region is the locked context's current one).
    bld_mask: u32,
}

impl State {
    fn reset() -> Self {
        State {
            top: Top::Idle,
            w: WalkRegs::default(),
            gl: 0,
            data: false,
            ctx: [Ctx::IDLE; MAX_CTAS],
            lock: None,
            bld_mask: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Push {
    warp: u32,
    rec: Record,
}

pub struct Aeu {
    p: AeuParams,
    pub(crate) frame: PortFrame,
    io: AeuIo<PortId>,
    cta: CtaPorts,
    pub(crate) r: Regs<State>,
}

impl Aeu {
    pub fn new(p: &AeuParams) -> Self {
        let io = p.ids();
        Aeu {
            p: p.clone(),
            frame: p.frame(),
            cta: CtaPorts { io: io.cta.clone(), warp_bits: p.warp_bits() },
            io,
            r: Regs::new(State::reset()),
        }
    }

    /// Warp slot of a context's next thread (may be out of range).
    fn warp_of(&self, c: usize) -> u32 {
        self.cta.warp0(&self.frame, c) + self.r.s.ctx[c].lin / WARP_SIZE
    }

    /// The active threads of context `c`'s warp (none out of range).
    fn lanes(&self, c: usize) -> u32 {
        walk::lanes(&self.frame, self.io.lane_mask, self.warp_of(c), self.p.warps)
    }

    /// The queue of the context's warp is full and the warp has active
    /// threads (an out-of-range warp has no queue and is never full: its
    /// records are dropped; a warp with no active thread pushes nothing).
    fn blocked(&self, c: usize) -> bool {
        let w = self.warp_of(c);
        w < self.p.warps && self.frame.get_u64(self.io.pwaq_full) >> w & 1 != 0 && self.lanes(c) != 0
    }

    /// One RUN step of context `c` into `self.r.n`; returns the record to push.
    /// A step that would push into a full queue changes nothing (a stall).
    fn run_step(&mut self, c: usize) -> Option<Record> {
        let w = self.r.s.w;
        let ctx = self.r.s.ctx[c];
        let gl = self.r.s.gl;
        let acc = ctx.acc;
        let u0 = (acc >> gl) & 31;
        let region_shift = 5 + gl;
        let m = w.run_limit(&ctx);
        let s = w.otx();
        // Thread j of the step is lane `lin % 32 + j`; only active threads name a unit.
        let run_lanes = self.lanes(c) >> (ctx.lin % WARP_SIZE);
        let on = |j: u32| run_lanes >> j & 1 != 0;
        // (threads covered, mask, next accumulated value, push now?)
        let (k, mask, next, emit) = match classify(s, gl) {
            Stride::Serial => {
                let bit = if on(0) { 1u32 << u0 } else { 0 };
                let next = acc.wrapping_add(s);
                let same = next >> region_shift == acc >> region_shift;
                let mask = if self.r.s.lock.is_some() { self.r.s.bld_mask | bit } else { bit };
                (1, mask, next, m == 1 || !same)
            }
            Stride::Zero => (m, if (0..m).any(on) { 1u32 << u0 } else { 0 }, acc, true),
            Stride::Up(p) => {
                let k = m.min(((31 - u0) >> p) + 1);
                (k, (0..k).filter(|&j| on(j)).fold(0u32, |a, j| a | 1 << (u0 + (j << p))), mac(acc, s, k, false), true)
            }
            Stride::Down(p) => {
                let k = m.min((u0 >> p) + 1);
                (k, (0..k).filter(|&j| on(j)).fold(0u32, |a, j| a | 1 << (u0 - (j << p))), mac(acc, s, k, false), true)
            }
        };
        if emit && self.blocked(c) {
            return None;
        }
        let nctx = &mut self.r.n.ctx[c];
        nctx.acc = next;
        w.advance(nctx, k);
        if emit {
            self.r.n.lock = None;
            self.r.n.bld_mask = 0;
            Some(Record {
                mask,
                line: acc >> 7,
                sect: (acc >> region_shift) & ((1 << (2 - gl)) - 1),
                gran: gl,
                last: (ctx.lin + k).is_multiple_of(WARP_SIZE) || ctx.lin + k == w.total,
            })
        } else {
            self.r.n.lock = Some(c);
            self.r.n.bld_mask = mask;
            None
        }
    }

    /// Settle this cycle: outputs into the port frame, next state into `n`.
    fn compute(&mut self) {
        let rst = self.frame.get_bool(self.io.rst);
        self.r.same = self.r.s.top == Top::Idle && !rst && !self.frame.get_bool(self.io.in_valid);
        let push = if self.r.same { None } else { self.next(rst) };
        // Outputs.
        self.frame.set_bool(self.io.in_ready, self.r.s.top == Top::Idle);
        let in_range = push.is_some_and(|p| p.warp < self.p.warps);
        self.frame.set_bool(self.io.push, in_range);
        let (w, r) = match push {
            Some(p) if in_range => (p.warp as u64, p.rec.pack()),
            _ => (0, 0),
        };
        self.frame.set_u64(self.io.push_warp, w);
        self.frame.set_u64(self.io.push_rec, r);
        self.frame.set_bool(self.io.push_data, in_range && self.r.s.data && r & 0xffff_ffff != 0);
    }

    /// The next state into `n` (from `s`, or the reset state); the record
    /// or mask pushed this cycle.
    fn next(&mut self, rst: bool) -> Option<Push> {
        self.r.n = self.r.s;
        let mut push: Option<Push> = None;
        match self.r.s.top {
            Top::Idle => {
                if self.frame.get_bool(self.io.in_valid) {
                    let t = TupleCmd::unpack(self.frame.get(self.io.in_tuple));
                    self.r.n.w = self.r.s.w.accept(t.aff, self.cta.dims(&self.frame));
                    let g = t.op & 3;
                    self.r.n.gl = if g & 2 != 0 { 2 } else { g as u32 };
                    self.r.n.data = t.kind == tuple::KIND_DATA;
                    for c in 0..self.p.ctas as usize {
                        let st = if self.cta.target(&self.frame, c, t.ctas) { Cst::Start0 } else { Cst::Done };
                        self.r.n.ctx[c] = Ctx { st, ..Ctx::IDLE };
                    }
                    self.r.n.lock = None;
                    self.r.n.bld_mask = 0;
                    self.r.n.top = self.r.n.w.first_setup();
                }
            }
            Top::SetupY | Top::SetupZ | Top::SetupT1 | Top::SetupT2 => {
                self.r.n.top = self.r.n.w.setup(self.r.s.top);
            }
            Top::Work => {
                // The locked context keeps the unit until its record is pushed;
                // otherwise the lowest-numbered context that can make progress.
                // A held CTA's context takes no step (even a locked one).
                let hold = self.frame.get_u64(self.io.cta_hold);
                let pick = match self.r.s.lock {
                    Some(c) => (hold >> c & 1 == 0).then_some(c),
                    None => {
                        (0..self.p.ctas as usize).find(|&c| match self.r.s.ctx[c].st {
                            Cst::Done => false,
                            _ if hold >> c & 1 == 1 => false,
                            Cst::Run => !self.blocked(c),
                            _ => true,
                        })
                    }
                };
                if let Some(c) = pick {
                    let st = self.r.s.ctx[c].st;
                    if st == Cst::Run {
                        let live = self.lanes(c) != 0;
                        if let Some(rec) = self.run_step(c) {
                            push = Some(Push { warp: self.warp_of(c), rec }).filter(|_| live);
                        }
                    } else {
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

impl Component for Aeu {
    fn name(&self) -> &str {
        "aeu"
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

impl Reference for AeuParams {
    type Model = Aeu;
    fn model(&self) -> Aeu {
        Aeu::new(self)
    }
}
