//! Reference model of `credit_tracker` (specification in
//! `hw::blocks::replay::credit_tracker`).

use crate::bits::mask;
use crate::Reference;
use hw::blocks::replay::credit_tracker::{CreditTrackerIo, CreditTrackerParams, NAME};
use sim::{Bind, Component, PortFrame, PortId};

/// Two's-complement value of the low `bits` of `v`.
pub fn signed(v: u64, bits: u32) -> i64 {
    let v = v & mask(bits);
    if bits < 64 && v >> (bits - 1) & 1 != 0 {
        v as i64 - (1i64 << bits)
    } else {
        v as i64
    }
}

/// One cycle of inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreditIn {
    pub rst: bool,
    pub iss_take: bool,
    pub mem_valid: bool,
    pub mem_credited: bool,
    pub mem_alloc: bool,
    pub mshr_free: bool,
}

impl CreditIn {
    /// Read the inputs through `get` (a frame, a component, a recorded cycle).
    pub fn read(io: &CreditTrackerIo<PortId>, get: impl Fn(PortId) -> u64) -> Self {
        let b = |id| get(id) & 1 != 0;
        CreditIn {
            rst: b(io.rst),
            iss_take: b(io.iss_take),
            mem_valid: b(io.mem_valid),
            mem_credited: b(io.mem_credited),
            mem_alloc: b(io.mem_alloc),
            mshr_free: b(io.mshr_free),
        }
    }

    /// Write every input through `set`.
    pub fn write(&self, io: &CreditTrackerIo<PortId>, mut set: impl FnMut(PortId, u64)) {
        set(io.rst, self.rst as u64);
        set(io.iss_take, self.iss_take as u64);
        set(io.mem_valid, self.mem_valid as u64);
        set(io.mem_credited, self.mem_credited as u64);
        set(io.mem_alloc, self.mem_alloc as u64);
        set(io.mshr_free, self.mshr_free as u64);
    }

    /// Net credit movement of the memory-stage events: returned (+1), virtual (-1), freed (+1).
    pub fn mem_delta(&self) -> i64 {
        let ret = self.mem_valid && self.mem_credited && !self.mem_alloc;
        let virt = self.mem_valid && !self.mem_credited && self.mem_alloc;
        ret as i64 - virt as i64 + self.mshr_free as i64
    }
}

/// The reference model.
pub struct CreditTracker {
    p: CreditTrackerParams,
    frame: PortFrame,
    io: CreditTrackerIo<PortId>,
    /// The pool as a P-bit two's-complement register, held as its signed value.
    pool: i64,
    /// Delay line of (ret, virt, free); `line[head]` is the oldest stage.
    line: Vec<(bool, bool, bool)>,
    head: usize,
}

impl CreditTracker {
    pub fn new(p: &CreditTrackerParams) -> Self {
        CreditTracker { p: p.clone(), frame: p.frame(), io: p.ids(), pool: p.mshrs as i64, line: vec![(false, false, false); p.delay as usize], head: 0 }
    }

    fn inputs(&self) -> CreditIn {
        CreditIn::read(&self.io, |id| self.frame.get_u64(id))
    }
}

impl Component for CreditTracker {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        let pool = self.pool;
        self.frame.set_bool(self.io.credit_avail, pool > 0);
        self.frame.set_u64(self.io.pool, pool as u64 & mask(self.p.pool_bits()));
    }
    fn tick(&mut self) {
        let i = self.inputs();
        if i.rst {
            self.pool = self.p.mshrs as i64;
            self.line.fill((false, false, false));
            self.head = 0;
            return;
        }
        let now = (
            i.mem_valid && i.mem_credited && !i.mem_alloc,
            i.mem_valid && !i.mem_credited && i.mem_alloc,
            i.mshr_free,
        );
        let (ret, virt, free) = if self.line.is_empty() {
            now
        } else {
            let old = self.line[self.head];
            self.line[self.head] = now;
            self.head = (self.head + 1) % self.line.len();
            old
        };
        let next = self.pool - i.iss_take as i64 + ret as i64 - virt as i64 + free as i64;
        self.pool = signed(next as u64, self.p.pool_bits());
    }
}

impl Reference for CreditTrackerParams {
    type Model = CreditTracker;
    fn model(&self) -> CreditTracker {
        CreditTracker::new(self)
    }
}
