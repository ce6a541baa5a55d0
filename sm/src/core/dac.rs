//! DAC mode (seed 003 section 4, Figures 8 and 9): the SM runs a decoupled
//! kernel's non-affine stream on its warps and, per CTA, one affine warp on
//! the affine stream.
//!
//! - **Affine warps** issue from their own slot, one instruction per cycle
//!   for the SM (CTAs in turn), in order, each waiting for its operands
//!   (the instruction's latency class); an ALU instruction takes an SP
//!   unit's issue slot, as the warps' do. An `enq` may not issue while the
//!   affine tuple queue (ATQ, `dac.atq_entries`) is full, or while some
//!   warp's queue of its kind (PWPQ for `enq.pred`, PWAQ otherwise) is full
//!   (section 4.1, as the `atq` block's `enq_ready`).
//! - **Expansion**: the ATQ's head goes, in order, to its expansion unit
//!   when that unit is free: address and data tuples to the AEU, predicate
//!   tuples to the PEU, which work side by side. Each expands one warp
//!   record per cycle (the AEU's one adder; the PEU likewise) into that
//!   warp's address queue (PWAQ) or predicate queue (PWPQ), each
//!   `dac.pwaq_entries` / `dac.pwpq_entries` shared equally by the warp
//!   slots; a full queue holds its unit. A data record (a global load's, `enq.data`) also
//!   sends its lines to L1 through the memory stage, ahead of the warps'
//!   own instructions, as a load that writes no register.
//! - **Barriers** (section 4.2): a tuple enqueued after the affine warp's
//!   n-th barrier is expanded once the CTA's warps have completed n.
//! - **Issue rule** (section 4.1, the scoreboard stage): a warp's `deq`
//!   does not issue while its queue is empty or, for `[deq.data]`, while
//!   the record's lines have not arrived (`Stall::DacDeq`).
//!
//! The functional model computes every record (`kernel::dac::warp`); this
//! module decides when each exists. A prefetch locks its lines in L1 (lock
//! counters, at most `ways - 1` ways of a set); the `[deq.data]` load
//! takes the locks off as it accesses the lines.

use super::op::{Access, Control, Op, Pool, Space, Unit};
use super::pipes::Pipe;
use crate::config::Config;
use crate::func::AffineStep;
use crate::stats::DacStats;
use kernel::exec::DacRecord;
use kernel::inst::{AluOp, DacQueue, Opnd, Sreg};
use models::dac::affine::{Aff, TX};
use std::collections::VecDeque;
use std::sync::Arc;

/// Scoreboard register ids the affine warp tracks (R0..R63, P0..P7).
const REGS: usize = 72;

pub(crate) struct DacSm {
    /// The affine stream's decode, which of its instructions enqueue, and
    /// each one's latency (parameter and constant loads: the constant
    /// cache's).
    pub ops: Arc<[Op]>,
    enq: Vec<Option<DacQueue>>,
    latency: Vec<u64>,
    /// The ATQ: each entry an `enq`'s CTA slot and its records by warp
    /// slot, in expansion order.
    atq: VecDeque<Entry>,
    /// The tuples each expansion unit works on, at most one per CTA (the
    /// AEU keeps an address register per CTA, section 4.2): the AEU
    /// (addresses, data) and the PEU (predicates), oldest first.
    units: [Vec<Entry>; 2],
    atq_cap: usize,
    pwaq_cap: usize,
    pwpq_cap: usize,
    /// Per warp slot, its PWAQ records in order: whether the data a record
    /// stands for is there (always, but for a prefetch in flight), and the
    /// lines its prefetch locked in L1 (bit k: its k-th line).
    ready: Vec<VecDeque<(bool, u64)>>,
    /// Per warp slot, records pushed into and taken from its PWAQ so far
    /// (a prefetch names its record by the first count).
    pushed: Vec<u64>,
    taken: Vec<u64>,
    /// Prefetches waiting for the memory stage: (warp slot, record number, record).
    prefetch: VecDeque<(u16, u64, DacRecord)>,
    /// Per CTA slot: the cycle each register of its affine warp is ready.
    reg_ready: Vec<[u64; REGS]>,
    /// Per CTA slot: barriers its affine warp executed, and barriers its
    /// warps completed (section 4.2: a tuple enqueued past a barrier is
    /// expanded once the CTA's warps pass it).
    bars: Vec<u32>,
    passed: Vec<u32>,
    /// The CTA slot whose affine warp is looked at first.
    rr: usize,
    pub stats: DacStats,
    /// The affine stream, and per CTA slot the affine tuple each of its
    /// affine warp's 32-bit registers holds (a register pair: its low word),
    /// as the hardware computes them (section 4.4, Figure 5).
    affine: Arc<kernel::Kernel>,
    tuples: Vec<Vec<Vec<Part>>>,
    /// The address tuples enqueued, when logged.
    pub log: Option<Vec<TupleEvent>>,
}

/// What the SM asks of the functional model for the affine warps.
pub(crate) trait AffineHost {
    fn affine_next(&self, slot: u16) -> Option<u32>;
    fn affine_step(&mut self, slot: u16) -> Result<AffineStep, String>;
    fn queued(&self, w: u16, pred: bool) -> usize;
    fn push_record(&mut self, w: u16, r: DacRecord);
    fn thread_index(&self, w: u16, lane: u32) -> [u32; 3];
}

/// An `enq`: its CTA slot, the barriers its affine warp had passed, and
/// the records left to expand.
struct Entry {
    cta: u16,
    after: u32,
    records: VecDeque<(u16, DacRecord)>,
}

/// The tuple a register holds for some of a CTA's threads (per warp).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Part {
    masks: Vec<u32>,
    t: Aff,
}

/// An address tuple an affine warp enqueued (`Outputs::log_dac`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TupleEvent {
    pub cycle: u64,
    pub cta_slot: u16,
    /// The `enq`'s index in the affine stream.
    pub inst: u32,
    pub queue: DacQueue,
    /// Per-CTA: the block-index terms are in the base.
    pub tuple: Aff,
}

impl AffineHost for crate::func::Functional {
    fn affine_next(&self, slot: u16) -> Option<u32> {
        crate::func::Functional::affine_next(self, slot)
    }
    fn affine_step(&mut self, slot: u16) -> Result<AffineStep, String> {
        crate::func::Functional::affine_step(self, slot)
    }
    fn thread_index(&self, w: u16, lane: u32) -> [u32; 3] {
        crate::func::Functional::thread_index(self, w, lane)
    }
    fn queued(&self, w: u16, pred: bool) -> usize {
        crate::func::Functional::queued(self, w, pred)
    }
    fn push_record(&mut self, w: u16, r: DacRecord) {
        crate::func::Functional::push_record(self, w, r)
    }
}

/// What happened in the unit this cycle that the SM must act on.
#[derive(Default)]
pub(crate) struct Events {
    /// Warps whose queue received a record (their scheduler wakes).
    pub fed: Vec<u16>,
    /// The affine warps moved.
    pub progress: bool,
}

impl DacSm {
    pub fn new(cfg: &Config, affine: &Arc<kernel::Kernel>, ops: Arc<[Op]>) -> DacSm {
        let warps = cfg.core.max_warps as usize;
        DacSm {
            ops: Arc::clone(&ops),
            enq: affine
                .insts
                .iter()
                .map(|i| match i.op {
                    kernel::Op::Enq(q) => Some(q),
                    _ => None,
                })
                .collect(),
            latency: affine
                .insts
                .iter()
                .zip(ops.iter())
                .map(|(i, op)| if matches!(i.op, kernel::Op::Ld { .. }) { cfg.l1.const_latency as u64 } else { op.latency.max(1) as u64 })
                .collect(),
            atq: VecDeque::new(),
            units: [Vec::new(), Vec::new()],
            atq_cap: cfg.dac.atq_entries as usize,
            pwaq_cap: (cfg.dac.pwaq_entries as usize / warps).max(1),
            pwpq_cap: (cfg.dac.pwpq_entries as usize / warps).max(1),
            ready: vec![VecDeque::new(); warps],
            pushed: vec![0; warps],
            taken: vec![0; warps],
            prefetch: VecDeque::new(),
            reg_ready: vec![[0; REGS]; cfg.core.max_ctas as usize],
            bars: vec![0; cfg.core.max_ctas as usize],
            passed: vec![0; cfg.core.max_ctas as usize],
            rr: 0,
            stats: DacStats::default(),
            affine: Arc::clone(affine),
            tuples: vec![vec![Vec::new(); 64]; cfg.core.max_ctas as usize],
            log: None,
        }
    }

    /// The warps of CTA slot `slot` completed a barrier.
    pub fn barrier_passed(&mut self, slot: usize) {
        self.passed[slot] += 1;
    }

    /// A CTA starts in `slot`: its affine warp's registers are free.
    pub fn launch(&mut self, slot: usize) {
        self.reg_ready[slot] = [0; REGS];
        self.bars[slot] = 0;
        self.passed[slot] = 0;
        self.tuples[slot] = vec![Vec::new(); 64];
    }

    /// The tuples of an operand over the threads `m` (per warp of the CTA):
    /// one per part of `m` that a different definition reached. `None`: some
    /// thread's value is no tuple the unit tracks.
    fn parts_of(&self, slot: usize, o: Opnd, m: &[u32]) -> Option<Vec<Part>> {
        let whole = |t: Aff| Some(vec![Part { masks: m.to_vec(), t }]);
        match o {
            Opnd::Imm(v) => whole(Aff::scalar(v as u32)),
            Opnd::Sreg(Sreg::Tid(d)) => whole(Aff::unit(TX + d as usize % 3)),
            Opnd::R(n) | Opnd::D(n) => {
                let mut out = Vec::new();
                let mut left = m.to_vec();
                for p in &self.tuples[slot][n as usize] {
                    let inter: Vec<u32> = p.masks.iter().zip(m).map(|(a, b)| a & b).collect();
                    if inter.iter().any(|&x| x != 0) {
                        left.iter_mut().zip(&inter).for_each(|(l, i)| *l &= !i);
                        out.push(Part { masks: inter, t: p.t });
                    }
                }
                left.iter().all(|&x| x == 0).then_some(out)
            }
            _ => None,
        }
    }

    /// The affine warp of `slot` executed instruction `idx` on the threads
    /// `m`; `value` is its result in the first of them (a scalar's value).
    fn track(&mut self, slot: usize, idx: usize, value: Option<u64>, m: &[u32]) {
        let inst = self.affine.insts[idx].clone();
        let (Opnd::R(dst) | Opnd::D(dst)) = inst.dst[0] else { return };
        let p = |n: usize| self.parts_of(slot, inst.src[n], m);
        let scalar = || value.map(|v| vec![Part { masks: m.to_vec(), t: Aff::scalar(v as u32) }]);
        // Each pair of parts: the threads both cover, the op on their tuples.
        let pairwise = |a: Option<Vec<Part>>, b: Option<Vec<Part>>, f: &dyn Fn(&Aff, &Aff) -> Option<Aff>| -> Option<Vec<Part>> {
            let mut out = Vec::new();
            for x in a? {
                for y in b.clone()? {
                    let masks: Vec<u32> = x.masks.iter().zip(&y.masks).map(|(a, b)| a & b).collect();
                    if masks.iter().any(|&v| v != 0) {
                        out.push(Part { masks, t: f(&x.t, &y.t)? });
                    }
                }
            }
            Some(out)
        };
        let out = match inst.op {
            kernel::Op::Mov(_) => match inst.src[0] {
                Opnd::Sreg(Sreg::Tid(_)) | Opnd::Imm(_) | Opnd::R(_) | Opnd::D(_) => p(0),
                _ => scalar(),
            },
            kernel::Op::Ld { .. } => scalar(),
            kernel::Op::Cvt { .. } | kernel::Op::Cvta { .. } => p(0),
            kernel::Op::Alu { op, .. } => match op {
                AluOp::Add => pairwise(p(0), p(1), &|a, b| Some(a.add(b))),
                AluOp::Sub => pairwise(p(0), p(1), &|a, b| Some(a.sub(b))),
                AluOp::Neg => pairwise(p(0), p(0).map(|v| v.into_iter().map(|x| Part { t: Aff::scalar(0), ..x }).collect()), &|a, z| Some(z.sub(a))),
                AluOp::Mul | AluOp::MulWide => pairwise(p(0), p(1), &|a, b| a.mul(b)),
                AluOp::Mad | AluOp::MadWide => pairwise(pairwise(p(0), p(1), &|a, b| a.mul(b)), p(2), &|a, b| Some(a.add(b))),
                AluOp::Shl => pairwise(p(0), p(1), &|a, b| a.shl(b)),
                _ => {
                    let uniform = inst.src.iter().all(|&o| o == Opnd::None || self.parts_of(slot, o, m).is_some_and(|v| v.iter().all(|x| x.t.is_cta_uniform())));
                    scalar().filter(|_| uniform)
                }
            },
            _ => None,
        };
        // The threads of `m` take the new tuples; the others keep theirs.
        let reg = &mut self.tuples[slot][dst as usize];
        for old in reg.iter_mut() {
            old.masks.iter_mut().zip(m).for_each(|(o, n)| *o &= !n);
        }
        reg.retain(|x| x.masks.iter().any(|&v| v != 0));
        for new in out.unwrap_or_default() {
            match reg.iter_mut().find(|x| x.t == new.t) {
                Some(x) => x.masks.iter_mut().zip(&new.masks).for_each(|(o, n)| *o |= n),
                None => reg.push(new),
            }
        }
    }

    /// Check an address `enq`'s records against its tuples: every executing
    /// thread's address is its tuple's value at its thread index. More than
    /// one tuple: a divergent affine tuple (section 4.6).
    fn check_tuple(&mut self, now: u64, slot: usize, idx: usize, s: &AffineStep, func: &dyn AffineHost) {
        let inst = &self.affine.insts[idx];
        let Some(a) = inst.addr else { return };
        let Some(parts) = self.parts_of(slot, a.base, &s.masks) else {
            self.stats.tuple_mismatches += 1;
            return;
        };
        let parts: Vec<Part> = parts.into_iter().map(|p| Part { t: p.t.add(&Aff::scalar(a.off as u32)), ..p }).collect();
        self.stats.divergent_tuples += (parts.len() > 1) as u64;
        for (w, r) in &s.records {
            let Some(wi) = s.slots.iter().position(|x| x == w) else { continue };
            for lane in (0..32).filter(|l| r.mask >> l & 1 == 1) {
                let [x, y, z] = func.thread_index(*w, lane);
                let t = parts.iter().find(|p| p.masks[wi] >> lane & 1 == 1).map(|p| p.t);
                if t.map(|t| t.eval(&[x, y, z, 0, 0, 0]) as u64) != Some(r.vals[lane as usize] & 0xffff_ffff) {
                    self.stats.tuple_mismatches += 1;
                    return;
                }
            }
        }
        if let (Some(log), Some(&(_, r))) = (self.log.as_mut(), s.records.first()) {
            for p in &parts {
                log.push(TupleEvent { cycle: now, cta_slot: slot as u16, inst: idx as u32, queue: r.queue, tuple: p.t });
            }
        }
    }

    /// One cycle: expand one record, then issue one affine-warp instruction.
    pub fn cycle(&mut self, now: u64, func: &mut dyn AffineHost, sp: &mut [Pipe]) -> Result<Events, String> {
        let mut ev = Events::default();
        self.stats.atq_sum += self.atq.len() as u64;
        self.stats.atq_peak = self.stats.atq_peak.max(self.atq.len() as u64);
        self.expand(func, &mut ev);
        self.issue(now, func, sp, &mut ev)?;
        Ok(ev)
    }

    /// The expansion units: each expands one record per cycle, of its
    /// oldest tuple whose next warp's queue has room (a full queue holds
    /// that CTA's tuple; the unit switches to another CTA's); then the ATQ
    /// head goes, in order, to its unit unless that unit already works on
    /// a tuple of the same CTA.
    fn expand(&mut self, func: &mut dyn AffineHost, ev: &mut Events) {
        for unit in 0..2 {
            self.expand_one(unit, func, ev);
        }
        if let Some(head) = self.atq.front() {
            let unit = (head.records.front().map(|r| r.1.queue) == Some(DacQueue::Pred)) as usize;
            if !self.units[unit].iter().any(|e| e.cta == head.cta) {
                let e = self.atq.pop_front().expect("a head");
                self.units[unit].push(e);
            }
        }
    }

    /// Warp `w`'s predicate (or address) queue is full.
    fn queue_full(&self, func: &dyn AffineHost, w: u16, pred: bool) -> bool {
        func.queued(w, pred) >= if pred { self.pwpq_cap } else { self.pwaq_cap }
    }

    /// An `enq` past a barrier its CTA's warps have not completed.
    fn held(&self, e: &Entry) -> bool {
        e.after > self.passed[e.cta as usize]
    }

    fn expand_one(&mut self, unit: usize, func: &mut dyn AffineHost, ev: &mut Events) {
        let room = |(w, r): &(u16, DacRecord)| !self.queue_full(func, *w, r.queue == DacQueue::Pred);
        let Some(k) = self.units[unit].iter().position(|e| !self.held(e) && e.records.front().is_some_and(room)) else {
            if self.units[unit].iter().any(|e| self.held(e)) {
                self.stats.barrier_waits += 1;
            } else {
                self.stats.queue_full += (!self.units[unit].is_empty()) as u64;
            }
            return;
        };
        let (w, r) = self.units[unit][k].records.pop_front().expect("a record");
        if self.units[unit][k].records.is_empty() {
            self.units[unit].remove(k);
        }
        let pred = r.queue == DacQueue::Pred;
        func.push_record(w, r);
        if !pred {
            let data = r.queue == DacQueue::Data;
            self.ready[w as usize].push_back((!data, 0));
            if data {
                self.prefetch.push_back((w, self.pushed[w as usize], r));
            }
            self.pushed[w as usize] += 1;
        }
        self.stats.records += 1;
        ev.fed.push(w);
        ev.progress = true;
    }

    fn issue(&mut self, now: u64, func: &mut dyn AffineHost, sp: &mut [Pipe], ev: &mut Events) -> Result<(), String> {
        let n = self.reg_ready.len();
        let mut atq_blocked = false;
        let mut queue_blocked = false;
        let mut lanes_blocked = false;
        // Section 4.1: an enq does not issue while some warp's queue of its
        // kind is full (the `atq` block's `pwaq_any_full` / `pwpq_any_full`);
        // looked at once a cycle, when an enq is next.
        let mut any_full: Option<[bool; 2]> = None;
        for i in 0..n {
            let slot = (self.rr + i) % n;
            let Some(idx) = func.affine_next(slot as u16) else { continue };
            let op = &self.ops[idx as usize];
            let regs = &self.reg_ready[slot];
            if op.reads().iter().chain(op.writes()).any(|&r| regs[r as usize] > now) {
                continue;
            }
            if let Some(q) = self.enq[idx as usize] {
                if self.atq.len() >= self.atq_cap {
                    atq_blocked = true;
                    continue;
                }
                let warps = self.pushed.len() as u16;
                let full = *any_full.get_or_insert_with(|| [false, true].map(|pred| (0..warps).any(|w| self.queue_full(func, w, pred))));
                if full[(q == DacQueue::Pred) as usize] {
                    queue_blocked = true;
                    continue;
                }
            }
            // The affine warp computes on the SIMT lanes (section 4.6): an
            // ALU instruction takes an SP unit's issue slot, before the
            // warps' instructions are dispatched this cycle.
            if op.unit == Unit::Sp && self.enq[idx as usize].is_none() {
                let Some(p) = sp.iter_mut().find(|p| p.can_accept(now)) else {
                    lanes_blocked = true;
                    continue;
                };
                p.occupy(now, op.initiation);
            }
            let step = func.affine_step(slot as u16)?;
            if self.enq[idx as usize].is_some() && step.records.first().is_some_and(|r| r.1.queue != DacQueue::Pred) {
                self.check_tuple(now, slot, idx as usize, &step, func);
            }
            if !step.masks.is_empty() {
                self.track(slot, idx as usize, step.value, &step.masks);
            }
            let records = step.records;
            let op = &self.ops[idx as usize];
            for &r in op.writes() {
                self.reg_ready[slot][r as usize] = now + self.latency[idx as usize];
            }
            if let Some(&(_, r)) = records.first() {
                self.stats.enq[r.queue as usize] += 1;
            }
            if !records.is_empty() {
                self.atq.push_back(Entry { cta: slot as u16, after: self.bars[slot], records: records.into() });
            }
            if op.control == Control::Barrier {
                self.bars[slot] += 1;
            }
            self.stats.affine_insts += 1;
            self.rr = slot + 1;
            ev.progress = true;
            return Ok(());
        }
        self.stats.atq_full += atq_blocked as u64;
        self.stats.enq_queue_full += queue_blocked as u64;
        self.stats.lanes_busy += lanes_blocked as u64;
        Ok(())
    }

    /// The next prefetch for the memory stage, as a pool instruction that
    /// loads its lines and writes no register: (warp slot, pool index).
    pub fn take_prefetch(&mut self, pool: &mut Pool, uid: u64) -> Option<(u16, u32)> {
        let (w, seq, r) = self.prefetch.pop_front()?;
        let idx = pool.alloc();
        *pool.get_mut(idx) = super::op::Inst { dac_record: Some(seq), ..super::op::Inst::prefetch(uid, w, r.mask, r.bytes, r.vals) };
        self.stats.prefetches += 1;
        Some((w, idx))
    }

    /// Prefetch `seq` of warp `w` has all its lines in L1, `locked` of them locked.
    pub fn prefetched(&mut self, w: u16, seq: u64, locked: u64) {
        let at = (seq - self.taken[w as usize]) as usize;
        self.ready[w as usize][at] = (true, locked);
    }

    /// Whether warp `w` may issue a dequeue from `q`.
    pub fn can_deq(&self, w: u16, q: DacQueue, func: &dyn AffineHost) -> bool {
        match q {
            DacQueue::Pred => func.queued(w, true) > 0,
            _ => self.ready[w as usize].front().is_some_and(|r| r.0),
        }
    }

    /// Warp `w` issued `op` (a non-affine instruction) whose access
    /// resolved to `space`; returns the lines its access unlocks.
    pub fn issued(&mut self, w: u16, op: &Op, space: Option<Space>) -> u64 {
        let mut unlock = 0;
        if matches!(op.deq, Some(DacQueue::Addr | DacQueue::Data)) {
            unlock = self.ready[w as usize].pop_front().map_or(0, |r| r.1);
            self.taken[w as usize] += 1;
        }
        if op.access == Some(Access::Load) && matches!(space, Some(Space::Global | Space::Local)) {
            self.stats.loads += 1;
            self.stats.decoupled_loads += (op.deq == Some(DacQueue::Data)) as u64;
        }
        unlock
    }

    /// The unit's state, for deadlock reports.
    pub fn report(&self, func: &crate::func::Functional) -> String {
        let mut head = String::new();
        for (name, u) in ["AEU", "PEU"].iter().zip(&self.units) {
            for e in u {
                if let Some((w, r)) = e.records.front() {
                    let bar = if self.held(e) { format!(", held until the CTA passes its barrier {}", e.after) } else { String::new() };
                    head += &format!("; the {name} expands CTA slot {}'s enq.{} for warp {w} ({} record(s) left{bar})", e.cta, r.queue.name(), e.records.len());
                }
            }
        }
        let mut s = format!("  DAC: ATQ {} of {} entries{head}; {} prefetch(es) waiting for the memory stage\n", self.atq.len(), self.atq_cap, self.prefetch.len());
        for slot in 0..self.reg_ready.len() {
            if let Some(i) = func.affine_next(slot as u16) {
                s.push_str(&format!("  affine warp of CTA slot {slot}: next: {}\n", self.ops[i as usize].text));
            }
        }
        for w in 0..self.ready.len() as u16 {
            let (a, p) = (func.queued(w, false), func.queued(w, true));
            if a + p > 0 {
                let head = match self.ready[w as usize].front() {
                    Some((true, _)) => "ready",
                    Some((false, _)) => "data in flight",
                    None => "-",
                };
                s.push_str(&format!("  warp {w}: PWAQ {a} of {} (head {head}), PWPQ {p} of {}\n", self.pwaq_cap, self.pwpq_cap));
            }
        }
        s
    }

    /// Nothing queued or in flight in the unit.
    pub fn idle(&self) -> bool {
        self.atq.is_empty() && self.units.iter().all(|u| u.is_empty()) && self.prefetch.is_empty()
    }
}
