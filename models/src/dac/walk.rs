//! The CTA walk shared by the AEU and PEU models (their specification in
//! `hw/src/blocks/dac/aeu.rs`, "The walk"): the unit-level setup sequence,
//! one walk context per CTA slot (accumulated value, thread position, state)
//! and the one multiply-add ALU operation each step performs.

use super::affine::Aff;
use crate::bits::get_field;
use hw::blocks::dac::{cta, CtaConfigIo, MAX_CTA_THREADS, WARP_SIZE};
use sim::{PortFrame, PortId};

/// Walk contexts a model holds (the `ctas` parameter's maximum); contexts
/// past `ctas` stay DONE.
pub const MAX_CTAS: usize = 16;

/// Unit state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Top {
    Idle,
    SetupY,
    SetupZ,
    SetupT1,
    SetupT2,
    Work,
}

/// State of one CTA's walk context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cst {
    Done,
    Start0,
    Start1,
    Start2,
    Run,
    AdjY,
    AdjZ,
}

/// One walk context: the accumulated value of the CTA's next thread and the
/// thread's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctx {
    pub st: Cst,
    pub acc: u32,
    /// Linear index of the next thread in the CTA.
    pub lin: u32,
    /// Its column and row (kept only when the tuple is not linear); the
    /// plane is not needed: a plane ends where the row wraps to 0, and the
    /// CTA where `lin` reaches the thread count.
    pub tx: u32,
    pub ty: u32,
}

impl Ctx {
    pub const IDLE: Ctx = Ctx { st: Cst::Done, acc: 0, lin: 0, tx: 0, ty: 0 };
}

/// The ALU: `a + b*c` or `a - b*c`, modulo 2^32 (`c` at most 16 bits).
pub fn mac(a: u32, b: u32, c: u32, negate: bool) -> u32 {
    let p = b.wrapping_mul(c);
    if negate {
        a.wrapping_sub(p)
    } else {
        a.wrapping_add(p)
    }
}

/// Registers latched or computed once per tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkRegs {
    /// Base and six offsets of the tuple.
    pub t: Aff,
    /// Block dimensions (actual, 1..).
    pub dx: u32,
    pub dy: u32,
    pub dz: u32,
    /// Added after the last thread of a row: from virtual thread (dx, ty, z)
    /// to (0, ty+1, z).
    pub adj_y: u32,
    /// Added after `adj_y` when a plane ends: from (0, dy, z) to (0, 0, z+1).
    pub adj_z: u32,
    /// Threads per CTA, saturated at 1024.
    pub total: u32,
    /// `total` is that of the latched dimensions (computed for an earlier
    /// tuple of the same block shape).
    pub total_valid: bool,
}

impl WalkRegs {
    pub fn otx(&self) -> u32 {
        self.t.off[0]
    }

    /// The tuple continues across rows (and planes) without adjustment, so a
    /// warp's values form one arithmetic progression whatever the shape.
    pub fn linear(&self) -> bool {
        (self.dy == 1 && self.dz == 1) || (self.adj_y == 0 && (self.dz == 1 || self.adj_z == 0))
    }

    /// Latch tuple `t` for blocks of `dims` (the unit's registers before
    /// are `self`): the adjustments start at 0; `total` is kept when the
    /// shape is the one it was computed for.
    pub fn accept(&self, t: Aff, [dx, dy, dz]: [u32; 3]) -> WalkRegs {
        let same = self.total_valid && [self.dx, self.dy, self.dz] == [dx, dy, dz];
        WalkRegs { t, dx, dy, dz, adj_y: 0, adj_z: 0, total: if same { self.total } else { 0 }, total_valid: same }
    }

    /// The setup steps a tuple needs, from `from` on: the row adjustment
    /// unless the block is one row (`dy = dz = 1`: the tuple is linear), the
    /// plane adjustment only for a 3-D block, the thread count only for a
    /// new block shape.
    fn next_setup(&self, from: Top) -> Top {
        let steps = [
            (Top::SetupY, !(self.dy == 1 && self.dz == 1)),
            (Top::SetupZ, self.dz > 1),
            (Top::SetupT1, !self.total_valid),
            (Top::SetupT2, !self.total_valid),
        ];
        steps.iter().skip_while(|(t, _)| *t != from).find(|(_, need)| *need).map_or(Top::Work, |(t, _)| *t)
    }

    /// The unit's state after accepting a tuple.
    pub fn first_setup(&self) -> Top {
        self.next_setup(Top::SetupY)
    }

    /// One setup cycle (one ALU operation); returns the next unit state.
    pub fn setup(&mut self, top: Top) -> Top {
        match top {
            Top::SetupY => {
                self.adj_y = mac(self.t.off[1], self.t.off[0], self.dx, true);
                self.next_setup(Top::SetupZ)
            }
            Top::SetupZ => {
                self.adj_z = mac(self.t.off[2], self.t.off[1], self.dy, true);
                self.next_setup(Top::SetupT1)
            }
            Top::SetupT1 => {
                self.total = mac(0, self.dx, self.dy, false).min(MAX_CTA_THREADS);
                Top::SetupT2
            }
            Top::SetupT2 => {
                self.total = mac(0, self.total, self.dz, false).min(MAX_CTA_THREADS);
                self.total_valid = true;
                Top::Work
            }
            t => t,
        }
    }

    /// A start or adjust step of a context (one ALU operation).
    pub fn start_or_adjust(&self, c: &mut Ctx, bid: [u32; 3]) {
        let o = &self.t.off;
        match c.st {
            Cst::Start0 => {
                c.acc = mac(self.t.base, o[3], bid[0], false);
                c.st = if o[4] != 0 {
                    Cst::Start1
                } else if o[5] != 0 {
                    Cst::Start2
                } else {
                    Cst::Run
                };
            }
            Cst::Start1 => {
                c.acc = mac(c.acc, o[4], bid[1], false);
                c.st = if o[5] != 0 { Cst::Start2 } else { Cst::Run };
            }
            Cst::Start2 => {
                c.acc = mac(c.acc, o[5], bid[2], false);
                c.st = Cst::Run;
            }
            Cst::AdjY => {
                c.acc = c.acc.wrapping_add(self.adj_y);
                c.st = if c.ty == 0 && self.adj_z != 0 { Cst::AdjZ } else { Cst::Run };
            }
            Cst::AdjZ => {
                c.acc = c.acc.wrapping_add(self.adj_z);
                c.st = Cst::Run;
            }
            Cst::Done | Cst::Run => unreachable!("not a start/adjust state: {c:?} {self:?}"),
        }
    }

    /// Threads from the context's next thread to the end of its warp.
    pub fn warp_left(&self, c: &Ctx) -> u32 {
        (WARP_SIZE - c.lin % WARP_SIZE).min(self.total - c.lin)
    }

    /// Threads the next step may cover: to the end of the warp and, for a
    /// non-linear tuple, of the row.
    pub fn run_limit(&self, c: &Ctx) -> u32 {
        let m = self.warp_left(c);
        if self.linear() {
            m
        } else {
            m.min(self.dx - c.tx)
        }
    }

    /// Move the context's position past `k` threads (the caller updated
    /// `acc`) and pick its next state.
    pub fn advance(&self, c: &mut Ctx, k: u32) {
        c.lin += k;
        let mut row_end = false;
        if !self.linear() {
            c.tx += k;
            if c.tx == self.dx {
                row_end = true;
                c.tx = 0;
                c.ty += 1;
                if c.ty == self.dy {
                    c.ty = 0;
                }
            }
        }
        c.st = if c.lin >= self.total {
            Cst::Done
        } else if row_end && self.adj_y != 0 {
            Cst::AdjY
        } else if row_end && c.ty == 0 && self.adj_z != 0 {
            Cst::AdjZ
        } else {
            Cst::Run
        };
    }
}

/// Warp `w`'s active threads on a `lane_mask` input (none past `warps`).
/// An expansion unit's state registers: the state `s`, and the next state
/// `n` its `eval` computed for the clock edge. `same`: `n` is `s` (an idle
/// unit offered no tuple keeps its state; `n` is then not written).
pub struct Regs<S> {
    pub s: S,
    pub n: S,
    pub same: bool,
}

impl<S: Copy + PartialEq> Regs<S> {
    pub fn new(reset: S) -> Self {
        Regs { s: reset, n: reset, same: false }
    }

    /// The clock edge would change the state (after an `eval` whose inputs
    /// have not changed since; `n` includes a reset).
    pub fn edge_changes(&self) -> bool {
        !self.same && self.n != self.s
    }

    /// The clock edge after an `eval` whose inputs have not changed since.
    pub fn commit(&mut self) {
        if !self.same {
            std::mem::swap(&mut self.s, &mut self.n);
        }
    }
}

pub fn lanes(f: &PortFrame, lane_mask: PortId, w: u32, warps: u32) -> u32 {
    if w < warps {
        super::warp_mask(f.get(lane_mask), w as usize)
    } else {
        0
    }
}

/// The CTA configuration inputs of an expansion unit, read from its port
/// frame.
#[derive(Clone, Debug)]
pub struct CtaPorts {
    pub io: CtaConfigIo<PortId>,
    pub warp_bits: u32,
}

impl CtaPorts {
    pub fn valid(&self, f: &PortFrame, c: usize) -> bool {
        f.get_u64(self.io.valid) >> c & 1 != 0
    }

    /// A context starts for slot `c`: it holds a CTA and the tuple names it.
    pub fn target(&self, f: &PortFrame, c: usize, tuple_ctas: u16) -> bool {
        self.valid(f, c) && tuple_ctas >> c & 1 != 0
    }

    pub fn bid(&self, f: &PortFrame, c: usize) -> [u32; 3] {
        let w = f.get(self.io.bidx);
        let lo = cta::BIDX_BITS as usize * c;
        [get_field(w, lo, 16) as u32, get_field(w, lo + 16, 16) as u32, get_field(w, lo + 32, 16) as u32]
    }

    pub fn warp0(&self, f: &PortFrame, c: usize) -> u32 {
        get_field(f.get(self.io.warp0), self.warp_bits as usize * c, self.warp_bits) as u32
    }

    /// Block dimensions (actual values).
    pub fn dims(&self, f: &PortFrame) -> [u32; 3] {
        [f.get_u64(self.io.dim_x_m1) as u32 + 1, f.get_u64(self.io.dim_y_m1) as u32 + 1, f.get_u64(self.io.dim_z_m1) as u32 + 1]
    }
}
