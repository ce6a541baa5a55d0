//! DAC mode (seed 003 section 4, Figures 8 and 9): the SM runs a decoupled
//! kernel's non-affine stream on its warps and the affine stream on one
//! affine warp per batch of CTAs; the `dac_unit` block (ATQ, AEU, PEU,
//! PWAQ, PWPQ) on the run's engine is in the loop between them.
//!
//! - **The affine warp** issues from its own slot, one instruction per
//!   cycle for the SM, in order, waiting for its operands (the
//!   instruction's latency class); an ALU instruction takes an SP unit's
//!   issue slot, as the warps' do. Each CTA has an affine context; the
//!   contexts of a batch (CTAs launched back to back) move in step and
//!   issue each instruction together (`issue`). An `enq` issues when the
//!   block's ATQ takes it (`enq_ready`, section 4.1: not while the ATQ or
//!   some warp's queue of its kind is full). The SM packs the tuple the
//!   hardware computed (section 4.4, Figure 5; block-index terms as
//!   offsets, for the CTAs that share it) and gives each expansion unit the
//!   active threads of the tuple it works on (the affine SIMT stack's
//!   per-warp masks at the `enq`, section 4.5).
//! - **Expansion** is the block's: the ATQ head goes in order to the AEU
//!   (address and data tuples) or the PEU (predicates), which write warp
//!   address records and predicate masks into the warps' PWAQ and PWPQ
//!   partitions. A data record's line goes to L1 through the memory stage
//!   (`l1_req`), as a load that writes no register and locks its lines
//!   (lock counters, at most `ways - 1` ways of a set); the SM sends a
//!   warp's lines together at the run's first record (a run's records
//!   follow each other cycle by cycle).
//! - **Barriers** (section 4.2): the AEU expands an address or data tuple
//!   enqueued after a context's n-th barrier for that CTA only once the
//!   CTA's warps have completed n (`aeu_cta_hold`); with `barrier_hold =
//!   "enq"` the `enq` waits in the affine context instead. An `enq.pred`
//!   touches no memory and never waits.
//! - **Issue rule** (section 4.1, the scoreboard stage): a warp's `deq.pred`
//!   waits for a mask in its PWPQ; `[deq.addr]` / `[deq.data]` for its
//!   record run (all of it, or enough to fill its partition, the rest
//!   streaming) and, for data, its lines
//!   in L1 (`Stall::DacDeq`). The instruction then takes its records from
//!   the block, one per cycle.
//!
//! The functional model computes every record (`kernel::dac::warp`); the
//! block decides when each exists, and every record and mask it hands out
//! is checked against the functional one (`dac.expansion_mismatches`).

use super::op::{Access, Control, Op, Pool, Space, Unit};
use super::pipes::Pipe;
use crate::config::Config;
use crate::func::AffineStep;
use crate::stats::DacStats;
use kernel::exec::DacRecord;
use kernel::inst::{AluOp, DacQueue, Opnd, Sreg};
use models::dac::affine::{Aff, BX, TX};
use models::dac::TupleCmd;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// Scoreboard register ids the affine warp tracks (R0..R63, P0..P7).
const REGS: usize = 72;

/// The tracked register an operand names (a register pair: its low word).
fn tracked(o: Opnd) -> Option<usize> {
    match o {
        Opnd::R(n) | Opnd::D(n) => Some(n as usize),
        Opnd::P(n) => Some(64 + n as usize),
        _ => None,
    }
}

pub(crate) struct DacSm {
    /// The affine stream's decode, which of its instructions enqueue, and
    /// each one's latency (parameter and constant loads: the constant
    /// cache's).
    pub ops: Arc<[Op]>,
    enq: Vec<Option<DacQueue>>,
    latency: Vec<u64>,
    /// The `dac_unit` block and its last status.
    block: crate::blocks::DacBlock,
    status: crate::blocks::DacStatus,
    /// The block's clock is gated: its state, and so `status`, did not
    /// change at the last edge.
    gated: bool,
    atq_cap: u32,
    pwaq_depth: u32,
    /// Per expansion unit (AEU, PEU), the tuples it has still to finish, in
    /// `enq` order (the front is the one it works on), whether it was busy
    /// last cycle, and the front the block's input holds; the AEU's CTA
    /// holds on the block's input.
    jobs: [VecDeque<Job>; 2],
    busy: [bool; 2],
    lanes_on: [Option<u64>; 2],
    hold_on: u16,
    barrier_hold: crate::config::BarrierHold,
    next_job: u64,
    /// Per warp slot, its address-record runs in `enq` order (one per
    /// address or data tuple), and the records in its PWAQ partition.
    runs: Vec<VecDeque<Run>>,
    in_pwaq: Vec<u32>,
    next_run: Vec<u64>,
    /// Per warp slot, predicate records enqueued and not yet in its PWPQ,
    /// and those whose masks are there.
    masks_due: Vec<VecDeque<DacRecord>>,
    masks_in: Vec<VecDeque<DacRecord>>,
    /// Issued dequeues still taking their records from the block (one
    /// record and one mask per cycle): warp slot, functional record, units
    /// seen so far.
    taking_addr: VecDeque<(u16, DacRecord, BTreeSet<u32>)>,
    taking_pred: VecDeque<(u16, DacRecord)>,
    /// Prefetches waiting for the memory stage: (warp slot, run, record).
    prefetch: VecDeque<(u16, u64, DacRecord)>,
    /// Per CTA slot: the cycle each register of its affine warp is ready.
    reg_ready: Vec<[u64; REGS]>,
    /// Per CTA slot: its CTA's block index, its batch (CTAs launched back
    /// to back), and the instructions its affine context executed; the
    /// cycle of the last launch.
    bid: Vec<[u32; 3]>,
    batch: Vec<u64>,
    steps: Vec<u64>,
    last_launch: Option<u64>,
    /// Scratch: the CTA slots in this cycle's issue order.
    order: Vec<usize>,
    batches: bool,
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
    fn affine_masks(&self, slot: u16) -> Option<&[u32]>;
    fn push_record(&mut self, w: u16, r: DacRecord);
    fn thread_index(&self, w: u16, lane: u32) -> [u32; 3];
}

/// A tuple an expansion unit has still to finish.
struct Job {
    id: u64,
    /// Its active threads by warp slot.
    lanes: Vec<u32>,
    /// Per CTA slot it is for, the barriers the CTA's warps must have
    /// completed before the AEU expands it for them (section 4.2; an
    /// address or data tuple enqueued after its context's n-th barrier).
    bars: Vec<(usize, u32)>,
}

/// One warp's records of one address or data tuple.
struct Run {
    seq: u64,
    record: DacRecord,
    data: bool,
    /// Records the AEU wrote so far, and whether the last was among them.
    pushed: u32,
    last: bool,
    /// Its dequeue issued.
    issued: bool,
    /// Its lines are in L1 (data), and which of them its prefetch locked.
    filled: bool,
    locked: u64,
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
    fn affine_masks(&self, slot: u16) -> Option<&[u32]> {
        crate::func::Functional::affine_masks(self, slot)
    }
    fn thread_index(&self, w: u16, lane: u32) -> [u32; 3] {
        crate::func::Functional::thread_index(self, w, lane)
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
    pub fn new(cfg: &Config, affine: &Arc<kernel::Kernel>, ops: Arc<[Op]>, engine: crate::blocks::Engine) -> Result<DacSm, String> {
        let warps = cfg.core.max_warps as usize;
        let mut block = crate::blocks::DacBlock::new(cfg, engine)?;
        block.reset();
        Ok(DacSm {
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
            block,
            status: Default::default(),
            gated: false,
            atq_cap: cfg.dac.atq_entries,
            pwaq_depth: (cfg.dac.pwaq_entries / cfg.core.max_warps).max(1),
            jobs: [VecDeque::new(), VecDeque::new()],
            busy: [false; 2],
            lanes_on: [None; 2],
            hold_on: 0,
            barrier_hold: cfg.dac.barrier_hold,
            next_job: 0,
            runs: (0..warps).map(|_| VecDeque::new()).collect(),
            in_pwaq: vec![0; warps],
            next_run: vec![0; warps],
            masks_due: vec![VecDeque::new(); warps],
            masks_in: vec![VecDeque::new(); warps],
            taking_addr: VecDeque::new(),
            taking_pred: VecDeque::new(),
            prefetch: VecDeque::new(),
            reg_ready: vec![[0; REGS]; cfg.core.max_ctas as usize],
            bid: vec![[0; 3]; cfg.core.max_ctas as usize],
            batch: vec![0; cfg.core.max_ctas as usize],
            steps: vec![0; cfg.core.max_ctas as usize],
            last_launch: None,
            order: Vec::new(),
            batches: cfg.dac.batches,
            bars: vec![0; cfg.core.max_ctas as usize],
            passed: vec![0; cfg.core.max_ctas as usize],
            rr: 0,
            stats: DacStats::default(),
            affine: Arc::clone(affine),
            tuples: vec![vec![Vec::new(); REGS]; cfg.core.max_ctas as usize],
            log: None,
        })
    }

    /// The `dac_unit` block (for the VCD).
    pub fn block(&self) -> &crate::blocks::BlockInst {
        &self.block.inst
    }

    /// The warps of CTA slot `slot` completed a barrier.
    pub fn barrier_passed(&mut self, slot: usize) {
        self.passed[slot] += 1;
    }

    /// A CTA of `dims` threads and block index `bid` starts in `slot` on the
    /// consecutive warp slots from `warp0` at cycle `now`: its affine
    /// context's registers are free. It joins the batch of the CTA launched
    /// the cycle before, if one was (the CTAs that start together, as at
    /// kernel start, or after CTAs that finished together).
    pub fn launch(&mut self, slot: usize, warp0: u16, dims: [u32; 3], bid: [u32; 3], now: u64) {
        self.block.launch(slot, warp0, dims, bid);
        self.bid[slot] = bid;
        self.steps[slot] = 0;
        let prev = self.last_launch.replace(now);
        let last = self.batch.iter().copied().max().unwrap_or(0);
        self.batch[slot] = if self.batches && prev.is_some_and(|t| now <= t + 1) { last } else { last + 1 };
        self.reg_ready[slot] = [0; REGS];
        self.bars[slot] = 0;
        self.passed[slot] = 0;
        self.tuples[slot] = vec![Vec::new(); REGS];
    }

    /// Tuple `t` with its block-index terms added into its base for the CTA
    /// in `slot`: the values it takes in that CTA alone.
    fn fold(&self, slot: usize, t: &Aff) -> Aff {
        let b = self.bid[slot];
        let base = (0..3).fold(t.base, |v, d| v.wrapping_add(t.off[BX + d].wrapping_mul(b[d])));
        let mut off = t.off;
        off[BX..].fill(0);
        Aff::new(base, off)
    }

    /// The tuples of an operand over the threads `m` (per warp of the CTA):
    /// one per part of `m` that a different definition reached. `None`: some
    /// thread's value is no tuple the unit tracks.
    fn parts_of(&self, slot: usize, o: Opnd, m: &[u32]) -> Option<Vec<Part>> {
        let whole = |t: Aff| Some(vec![Part { masks: m.to_vec(), t }]);
        match o {
            Opnd::Imm(v) => whole(Aff::scalar(v as u32)),
            Opnd::Sreg(Sreg::Tid(d)) => whole(Aff::unit(TX + d as usize % 3)),
            Opnd::Sreg(Sreg::Ctaid(d)) => whole(Aff::unit(BX + d as usize % 3)),
            Opnd::R(_) | Opnd::D(_) | Opnd::P(_) => {
                let mut out = Vec::new();
                let mut left = m.to_vec();
                for p in &self.tuples[slot][tracked(o)?] {
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
        let Some(dst) = tracked(inst.dst[0]) else { return };
        let p = |n: usize| self.parts_of(slot, inst.src[n], m);
        let scalar = || value.map(|v| vec![Part { masks: m.to_vec(), t: Aff::scalar(v as u32) }]);
        let uniform = || {
            let all = inst.src.iter().all(|&o| o == Opnd::None || self.parts_of(slot, o, m).is_some_and(|v| v.iter().all(|x| x.t.is_cta_uniform())));
            scalar().filter(|_| all)
        };
        // Each pair of parts: the threads both cover, the op on their tuples
        // (on this CTA's values when it is not affine in the block index,
        // e.g. a product of two block-index terms).
        let pairwise = |a: Option<Vec<Part>>, b: Option<Vec<Part>>, f: &dyn Fn(&Aff, &Aff) -> Option<Aff>| -> Option<Vec<Part>> {
            let mut out = Vec::new();
            for x in a? {
                for y in b.clone()? {
                    let masks: Vec<u32> = x.masks.iter().zip(&y.masks).map(|(a, b)| a & b).collect();
                    if masks.iter().any(|&v| v != 0) {
                        let t = f(&x.t, &y.t).or_else(|| f(&self.fold(slot, &x.t), &self.fold(slot, &y.t)))?;
                        out.push(Part { masks, t });
                    }
                }
            }
            Some(out)
        };
        let out = match inst.op {
            kernel::Op::Mov(_) => match inst.src[0] {
                Opnd::Sreg(Sreg::Tid(_) | Sreg::Ctaid(_)) | Opnd::Imm(_) | Opnd::R(_) | Opnd::D(_) => p(0),
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
                _ => uniform(),
            },
            // Anything else of CTA-wide sources (a `selp` of scalars, a
            // comparison of scalars) is a scalar.
            _ => uniform(),
        };
        // The threads of `m` take the new tuples; the others keep theirs.
        let reg = &mut self.tuples[slot][dst];
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
        let [bx, by, bz] = self.bid[slot];
        for (w, r) in &s.records {
            let Some(wi) = s.slots.iter().position(|x| x == w) else { continue };
            for lane in (0..32).filter(|l| r.mask >> l & 1 == 1) {
                let [x, y, z] = func.thread_index(*w, lane);
                let t = parts.iter().find(|p| p.masks[wi] >> lane & 1 == 1).map(|p| p.t);
                if t.map(|t| t.eval(&[x, y, z, bx, by, bz]) as u64) != Some(r.vals[lane as usize] & 0xffff_ffff) {
                    self.stats.tuple_mismatches += 1;
                    return;
                }
            }
        }
        let folded: Vec<Aff> = if self.log.is_some() { parts.iter().map(|p| self.fold(slot, &p.t)).collect() } else { Vec::new() };
        if let (Some(log), Some(&(_, r))) = (self.log.as_mut(), s.records.first()) {
            for t in folded {
                log.push(TupleEvent { cycle: now, cta_slot: slot as u16, inst: idx as u32, queue: r.queue, tuple: t });
            }
        }
    }

    /// The tuple an `enq` hands the block (section 4.4, for CTA slot
    /// `slot`): an address's base register plus its offset over the
    /// executing threads, or the comparison of the `setp` just before an
    /// `enq.pred`. Each must be one tuple of 32-bit values (the pass
    /// decouples nothing else; a divergent tuple is an error). Its
    /// block-index terms stay offsets, which the units multiply by each
    /// CTA's index (Figure 11's `block_offset x block_index`), so that
    /// CTAs share it, unless the index is wider than the units' 16 bits or
    /// the PEU's scalar operand depends on it (the comparison is then this
    /// CTA's alone): the second value says whether CTAs may share it.
    fn tuple_of(&self, slot: usize, idx: usize, masks: &[u32]) -> Result<(TupleCmd, bool), String> {
        use hw::blocks::dac::tuple::*;
        let inst = &self.affine.insts[idx];
        let one = |o: Opnd| -> Result<Aff, String> {
            match self.parts_of(slot, o, masks).as_deref() {
                Some([p]) => Ok(p.t),
                Some(parts) => Err(format!("{} tuples (a divergent tuple)", parts.len())),
                None => Err("no tuple".into()),
            }
        };
        let ctas = 1 << slot;
        let shared = hw::blocks::dac::cta::bid_fits(self.bid[slot]);
        let at = || format!("DAC: the enq at line {} of CTA slot {slot}", inst.line);
        if let Some(a) = inst.addr {
            let t = one(a.base).map_err(|e| format!("{}: its address has {e}", at()))?.add(&Aff::scalar(a.off as u32));
            let t = if shared { t } else { self.fold(slot, &t) };
            let bytes = inst.mem.map_or(4, |m| m.elem_bytes as u32 * m.vec as u32);
            let kind = if self.enq[idx] == Some(DacQueue::Data) { KIND_DATA } else { KIND_ADDR };
            let op = match bytes {
                1 => GRAN_BYTE,
                2 => GRAN_HALF,
                _ => GRAN_WORD,
            };
            return Ok((TupleCmd { aff: t, rhs: 0, kind, op, ctas }, shared));
        }
        let setp = idx.checked_sub(1).map(|i| &self.affine.insts[i]);
        let Some((kernel::Op::Setp { cmp, ty, .. }, s0, s1)) = setp.filter(|i| i.dst[0] == inst.src[0]).map(|i| (i.op, i.src[0], i.src[1])) else {
            return Err(format!("{}: no comparison before it", at()));
        };
        let (a, b) = (one(s0).map_err(|e| format!("{}: {e}", at()))?, one(s1).map_err(|e| format!("{}: {e}", at()))?);
        let block_terms = |t: &Aff| t.off[BX..].iter().any(|&o| o != 0);
        let shared = shared && !(b.is_cta_uniform() && block_terms(&b) || !b.is_cta_uniform() && block_terms(&a));
        let (a, b) = if shared { (a, b) } else { (self.fold(slot, &a), self.fold(slot, &b)) };
        use kernel::inst::Cmp::*;
        // value OP rhs with the scalar on the right (mirrored if it was on the left).
        let (aff, rhs, cmp) = if b.is_cta_uniform() {
            (a, b.base, cmp)
        } else if a.is_cta_uniform() {
            let mirror = match cmp {
                Lt => Gt,
                Le => Ge,
                Gt => Lt,
                Ge => Le,
                Lo => Hi,
                Ls => Hs,
                Hi => Lo,
                Hs => Ls,
                c => c,
            };
            (b, a.base, mirror)
        } else {
            return Err(format!("{}: no scalar operand", at()));
        };
        let signed = if ty == kernel::inst::Ty::S32 { CMP_SIGNED } else { 0 };
        let op = match cmp {
            Lt => CMP_LT | signed,
            Le => CMP_LE | signed,
            Gt => CMP_GT | signed,
            Ge => CMP_GE | signed,
            Lo => CMP_LT,
            Ls => CMP_LE,
            Hi => CMP_GT,
            Hs => CMP_GE,
            Eq => CMP_EQ,
            Ne => CMP_NE,
            c => return Err(format!("{}: comparison {c:?}", at())),
        };
        Ok((TupleCmd { aff, rhs, kind: KIND_PRED, op, ctas }, shared))
    }

    /// One cycle: the block's queue writes, the dequeues' records, then one
    /// affine-warp instruction; the block's edge.
    pub fn cycle(&mut self, now: u64, func: &mut dyn AffineHost, sp: &mut [Pipe]) -> Result<Events, String> {
        let mut ev = Events::default();
        self.block.begin_cycle();
        for (u, jobs) in self.jobs.iter().enumerate() {
            if let Some(j) = jobs.front() {
                if self.lanes_on[u] != Some(j.id) {
                    self.block.set_lanes(u == 1, &j.lanes);
                    self.lanes_on[u] = Some(j.id);
                }
            }
        }
        // Section 4.2: the AEU expands its tuple for a CTA only once the
        // CTA's warps have passed the barriers before its `enq`.
        let hold = self.jobs[0].front().map_or(0, |j| j.bars.iter().filter(|&&(s, n)| self.passed[s] < n).fold(0u16, |m, &(s, _)| m | 1 << s));
        if hold != self.hold_on {
            self.block.set_aeu_hold(hold);
            self.hold_on = hold;
        }
        // Clock gating: a block whose ATQ is empty and whose units are idle
        // keeps its state through a cycle without a command, so last
        // cycle's status still holds.
        let st = if self.gated { self.status } else { self.block.status() };
        self.status = st;
        self.stats.atq_sum += st.atq_count as u64;
        self.stats.atq_peak = self.stats.atq_peak.max(st.atq_count as u64);
        self.stats.peu_paths = st.peu_paths;
        for (u, idle) in [st.aeu_idle, st.peu_idle].into_iter().enumerate() {
            if self.busy[u] && idle {
                self.jobs[u].pop_front();
            }
            self.busy[u] = !idle;
        }
        self.stats.barrier_waits += (hold != 0 && self.busy[0]) as u64;
        let pushed = st.aeu_push.is_some() || st.peu_push.is_some();
        self.stats.queue_full += (self.busy[0] && st.aeu_push.is_none()) as u64 + (self.busy[1] && st.peu_push.is_none()) as u64;
        if let Some((w, last)) = st.aeu_push {
            self.address_record(w, last, st.l1, func)?;
            ev.fed.push(w);
        }
        if let Some(w) = st.peu_push {
            let r = self.masks_due[w as usize].pop_front().ok_or_else(|| format!("DAC: the PEU wrote a mask for warp {w}, which expects none"))?;
            func.push_record(w, r);
            self.masks_in[w as usize].push_back(r);
            self.stats.records += 1;
            ev.fed.push(w);
        }
        ev.progress = pushed;
        let taking = !self.taking_addr.is_empty() || !self.taking_pred.is_empty();
        self.take_records();
        let enqs = self.stats.enq;
        self.issue(now, func, sp, &mut ev)?;
        self.gated = st.atq_count == 0 && st.aeu_idle && st.peu_idle && !taking && enqs == self.stats.enq;
        if !self.gated {
            self.block.end_cycle();
        }
        Ok(ev)
    }

    /// The AEU wrote a record into warp `w`'s partition: the next run of
    /// the warp's that has not seen its last. Its first record makes the
    /// functional record available and sends a data run's lines to L1.
    fn address_record(&mut self, w: u16, last: bool, l1: Option<u64>, func: &mut dyn AffineHost) -> Result<(), String> {
        let run = self.runs[w as usize].iter_mut().find(|r| !r.last).ok_or_else(|| format!("DAC: the AEU wrote a record for warp {w}, which expects none"))?;
        run.pushed += 1;
        run.last = last;
        if run.pushed == 1 {
            func.push_record(w, run.record);
            if run.data {
                self.prefetch.push_back((w, run.seq, run.record));
            }
        }
        if let Some(line) = l1 {
            let r = &run.record;
            if !(0..32).any(|l| r.mask >> l & 1 == 1 && (r.vals[l] & 0xffff_ffff) >> 7 == line) {
                self.stats.expansion_mismatches += 1;
            }
        }
        self.in_pwaq[w as usize] += 1;
        self.stats.records += 1;
        self.retire(w);
        Ok(())
    }

    /// Runs dequeued and complete leave the warp's list.
    fn retire(&mut self, w: u16) {
        let runs = &mut self.runs[w as usize];
        while runs.front().is_some_and(|r| r.issued && r.last) {
            runs.pop_front();
        }
    }

    /// Issued dequeues take their records and masks from the block (one
    /// of each per cycle), each checked against the functional record.
    fn take_records(&mut self) {
        if let Some((w, r, seen)) = self.taking_addr.front_mut() {
            if let Some(rec) = self.block.take_record(*w) {
                self.in_pwaq[*w as usize] -= 1;
                seen.extend(rec.units());
                if rec.last {
                    let g = match r.bytes {
                        1 => 1,
                        2 => 2,
                        _ => 4,
                    };
                    let want: BTreeSet<u32> = (0..32).filter(|l| r.mask >> l & 1 == 1).map(|l| r.vals[l] as u32 / g * g).collect();
                    self.stats.expansion_mismatches += (*seen != want) as u64;
                    self.taking_addr.pop_front();
                }
            }
        }
        if let Some(&(w, r)) = self.taking_pred.front() {
            if let Some(m) = self.block.take_mask(w) {
                let want = (0..32).filter(|&l| r.mask >> l & 1 == 1 && r.vals[l] != 0).fold(0u32, |a, l| a | 1 << l);
                self.stats.expansion_mismatches += (m & r.mask != want) as u64;
                self.taking_pred.pop_front();
            }
        }
    }

    fn operands_ready(&self, slot: usize, idx: u32, now: u64) -> bool {
        let op = &self.ops[idx as usize];
        op.reads().iter().chain(op.writes()).all(|&r| self.reg_ready[slot][r as usize] <= now)
    }

    /// One affine instruction for the SM (section 4.1: one affine warp per
    /// SM, "executed once for each batch of concurrent non-affine warps").
    /// Each CTA has an affine context (registers, affine SIMT stack); the
    /// contexts of a batch move in step: one that is ahead of another of its
    /// batch waits for it. The contexts of a batch at the same instruction,
    /// ready, and (for an `enq`) with the same tuple issue it together: one
    /// issue slot, one SP slot, one ATQ entry naming all their CTAs, which
    /// the units expand CTA by CTA.
    fn issue(&mut self, now: u64, func: &mut dyn AffineHost, sp: &mut [Pipe], ev: &mut Events) -> Result<(), String> {
        let n = self.reg_ready.len();
        let mut atq_blocked = false;
        let mut queue_blocked = false;
        let mut lanes_blocked = false;
        let mut barrier_blocked = false;
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend((0..n).map(|i| (self.rr + i) % n).filter(|&s| func.affine_next(s as u16).is_some()));
        let behind = |s: usize| order.iter().any(|&o| self.batch[o] == self.batch[s] && self.steps[o] < self.steps[s]);
        let waits = order.iter().filter(|&&s| behind(s)).fold(0u64, |m, &s| m | 1 << s);
        order.retain(|&s| waits >> s & 1 == 0);
        // `barrier_hold = "enq"`: an address or data `enq` past a barrier
        // its CTA's warps have not completed waits in the affine context.
        let held = |d: &DacSm, s: usize, q: Option<DacQueue>| {
            d.barrier_hold == crate::config::BarrierHold::Enq && q.is_some_and(|q| q != DacQueue::Pred) && d.bars[s] > d.passed[s]
        };
        for i in 0..order.len() {
            let slot = order[i];
            let Some(idx) = func.affine_next(slot as u16) else { continue };
            if !self.operands_ready(slot, idx, now) {
                continue;
            }
            let enq = self.enq[idx as usize];
            if held(self, slot, enq) {
                barrier_blocked = true;
                continue;
            }
            if let Some(q) = enq {
                use hw::blocks::dac::tuple::{KIND_ADDR, KIND_DATA, KIND_PRED};
                let kind = match q {
                    DacQueue::Pred => KIND_PRED,
                    DacQueue::Data => KIND_DATA,
                    DacQueue::Addr => KIND_ADDR,
                };
                if !self.block.enq_ready(kind) {
                    if self.status.atq_count >= self.atq_cap {
                        atq_blocked = true;
                    } else {
                        queue_blocked = true;
                    }
                    continue;
                }
            }
            // The affine warp computes on the SIMT lanes (section 4.6): an
            // ALU instruction takes an SP unit's issue slot, before the
            // warps' instructions are dispatched this cycle.
            let op = &self.ops[idx as usize];
            if op.unit == Unit::Sp && enq.is_none() {
                let Some(p) = sp.iter_mut().find(|p| p.can_accept(now)) else {
                    lanes_blocked = true;
                    continue;
                };
                p.occupy(now, op.initiation);
            }
            let mut gang = vec![slot];
            gang.extend(order.iter().copied().filter(|&o| {
                o != slot
                    && self.batch[o] == self.batch[slot]
                    && func.affine_next(o as u16) == Some(idx)
                    && self.operands_ready(o, idx, now)
                    && !held(self, o, enq)
            }));
            if enq.is_some() {
                gang = self.same_tuple(&gang, idx as usize, func);
            }
            let mut steps = Vec::with_capacity(gang.len());
            for &m in &gang {
                let step = func.affine_step(m as u16)?;
                if enq.is_some_and(|q| q != DacQueue::Pred) {
                    self.check_tuple(now, m, idx as usize, &step, func);
                }
                steps.push((m, step));
            }
            if let Some(q) = enq {
                self.enqueue(idx as usize, q, &steps)?;
            }
            let (latency, control) = (self.latency[idx as usize], self.ops[idx as usize].control);
            for (m, step) in &steps {
                if !step.masks.is_empty() {
                    self.track(*m, idx as usize, step.value, &step.masks);
                }
                for &r in self.ops[idx as usize].writes() {
                    self.reg_ready[*m][r as usize] = now + latency;
                }
                self.bars[*m] += (control == Control::Barrier) as u32;
                self.steps[*m] += 1;
            }
            self.stats.affine_insts += 1;
            self.stats.affine_ctas += gang.len() as u64;
            self.rr = slot + 1;
            ev.progress = true;
            self.order = order;
            return Ok(());
        }
        self.order = order;
        self.stats.atq_full += atq_blocked as u64;
        self.stats.enq_queue_full += queue_blocked as u64;
        self.stats.lanes_busy += lanes_blocked as u64;
        self.stats.barrier_waits += barrier_blocked as u64;
        Ok(())
    }

    /// Of the affine warps at `enq` `idx` (the first leads), those that
    /// enqueue the leader's tuple: one shared by CTAs and equal but for the
    /// CTA set, or no active thread at all. A leader whose tuple is its
    /// CTA's alone (or an error, reported when it enqueues) goes alone.
    fn same_tuple(&self, gang: &[usize], idx: usize, func: &dyn AffineHost) -> Vec<usize> {
        let mut key: Option<TupleCmd> = None;
        let mut out = Vec::with_capacity(gang.len());
        for (i, &m) in gang.iter().enumerate() {
            let masks = func.affine_masks(m as u16).unwrap_or_default();
            if masks.iter().all(|&x| x == 0) {
                out.push(m);
                continue;
            }
            match (self.tuple_of(m, idx, masks), key) {
                (Ok((t, true)), None) => key = Some(t),
                (Ok((t, true)), Some(k)) if TupleCmd { ctas: k.ctas, ..t } == k => {}
                _ if i == 0 => return vec![m],
                _ => continue,
            }
            out.push(m);
        }
        out
    }

    /// The affine warps of `steps` issued `enq` `idx`: one tuple to the
    /// block for the CTAs with records, their active threads to its
    /// expansion unit's list, each warp's functional record to the warp's
    /// runs or predicates.
    fn enqueue(&mut self, idx: usize, q: DacQueue, steps: &[(usize, AffineStep)]) -> Result<(), String> {
        let mut with = steps.iter().filter(|(_, s)| !s.records.is_empty());
        let Some((first, s)) = with.next() else { return Ok(()) };
        let (mut t, _) = self.tuple_of(*first, idx, &s.masks)?;
        let mut bars = vec![(*first, self.bars[*first])];
        for (m, _) in with {
            t.ctas |= 1 << m;
            bars.push((*m, self.bars[*m]));
        }
        if q == DacQueue::Pred {
            bars.clear();
        }
        self.block.enq(&t);
        self.stats.enq[q as usize] += 1;
        let mut lanes = vec![0u32; self.runs.len()];
        for &(w, r) in steps.iter().flat_map(|(_, s)| &s.records) {
            lanes[w as usize] = r.mask;
            let wi = w as usize;
            if q == DacQueue::Pred {
                self.masks_due[wi].push_back(r);
            } else {
                let seq = self.next_run[wi];
                self.next_run[wi] += 1;
                let data = q == DacQueue::Data;
                self.runs[wi].push_back(Run { seq, record: r, data, pushed: 0, last: false, issued: false, filled: !data, locked: 0 });
            }
        }
        self.jobs[(q == DacQueue::Pred) as usize].push_back(Job { id: self.next_job, lanes, bars });
        self.next_job += 1;
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

    /// The prefetch of warp `w`'s run `seq` has all its lines in L1,
    /// `locked` of them locked.
    pub fn prefetched(&mut self, w: u16, seq: u64, locked: u64) {
        if let Some(r) = self.runs[w as usize].iter_mut().find(|r| r.seq == seq) {
            r.filled = true;
            r.locked = locked;
        }
    }

    /// Whether warp `w` may issue a dequeue from `q`.
    pub fn can_deq(&self, w: u16, q: DacQueue) -> bool {
        match q {
            DacQueue::Pred => !self.masks_in[w as usize].is_empty(),
            _ => self.runs[w as usize]
                .iter()
                .find(|r| !r.issued)
                .is_some_and(|r| r.pushed > 0 && (r.last || r.pushed >= self.pwaq_depth) && r.filled),
        }
    }

    /// Warp `w` issued `op` (a non-affine instruction) whose access
    /// resolved to `space`; returns the lines its access unlocks.
    pub fn issued(&mut self, w: u16, op: &Op, space: Option<Space>) -> u64 {
        let mut unlock = 0;
        match op.deq {
            Some(DacQueue::Addr | DacQueue::Data) => {
                if let Some(r) = self.runs[w as usize].iter_mut().find(|r| !r.issued) {
                    r.issued = true;
                    unlock = r.locked;
                    self.taking_addr.push_back((w, r.record, BTreeSet::new()));
                }
                self.retire(w);
            }
            Some(DacQueue::Pred) => {
                if let Some(r) = self.masks_in[w as usize].pop_front() {
                    self.taking_pred.push_back((w, r));
                }
            }
            None => {}
        }
        if op.access == Some(Access::Load) && matches!(space, Some(Space::Global | Space::Local)) {
            self.stats.loads += 1;
            self.stats.decoupled_loads += (op.deq == Some(DacQueue::Data)) as u64;
        }
        unlock
    }

    /// The unit's state, for deadlock reports.
    pub fn report(&self, func: &crate::func::Functional) -> String {
        let st = &self.status;
        let unit = |busy: bool, jobs: usize| if busy { format!("busy, {jobs} tuple(s) to go") } else { format!("idle, {jobs} tuple(s) to go") };
        let mut s = format!(
            "  DAC unit: ATQ {} of {} entries; AEU {}{}; PEU {}; {} prefetch(es) waiting for the memory stage\n",
            st.atq_count,
            self.atq_cap,
            unit(self.busy[0], self.jobs[0].len()),
            if self.hold_on != 0 { format!(", holding CTA slots {:#b} at a barrier", self.hold_on) } else { String::new() },
            unit(self.busy[1], self.jobs[1].len()),
            self.prefetch.len()
        );
        for slot in 0..self.reg_ready.len() {
            if let Some(i) = func.affine_next(slot as u16) {
                let bar = if self.bars[slot] > self.passed[slot] { format!(" (past barrier {}, which its CTA's warps have not completed)", self.bars[slot]) } else { String::new() };
                s.push_str(&format!("  affine warp of CTA slot {slot}: next: {}{bar}\n", self.ops[i as usize].text));
            }
        }
        for w in 0..self.runs.len() {
            let (runs, due, masks) = (&self.runs[w], self.masks_due[w].len(), self.masks_in[w].len());
            if !runs.is_empty() || due + masks > 0 {
                let head = runs.iter().find(|r| !r.issued).map_or("-".to_string(), |r| {
                    format!("{} record(s) written{}{}", r.pushed, if r.last { ", the last" } else { "" }, if r.filled { "" } else { ", data in flight" })
                });
                s.push_str(&format!(
                    "  warp {w}: PWAQ {} of {} (next run: {head}), {} run(s); PWPQ {masks} mask(s), {due} to come\n",
                    self.in_pwaq[w],
                    self.pwaq_depth,
                    runs.len()
                ));
            }
        }
        s
    }

    /// Nothing queued or in flight in the unit.
    pub fn idle(&self) -> bool {
        self.status.atq_count == 0
            && self.jobs.iter().all(|j| j.is_empty())
            && self.prefetch.is_empty()
            && self.taking_addr.is_empty()
            && self.taking_pred.is_empty()
    }
}
