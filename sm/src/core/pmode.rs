//! Warp pre-execution in the SM (seed 000 sections 4–6): the `pmode_unit`
//! block decides, at issue, what happens to each offered instruction
//! (`mode_ctrl::action`); the SM carries the decision out.
//!
//! - **TRIGGER** (an N-mode instruction depends on a long-latency load): the
//!   warp's P-mode copy starts as its N-mode state (the functional model
//!   clones the warp), its instruction buffer is flushed and fetch follows
//!   the copy from the blocked instruction, which is offered again in P-mode;
//!   the decoded N-mode instruction is kept aside. Entries the last episode
//!   left in the P-queue are dropped.
//! - **PREEXEC**: executed on the copy without memory side effects, through
//!   the pipeline (operand collector, units, shared memory), written back to
//!   its rename register (`wb pmode = 1`, with its P-queue index when the
//!   queue recorded it; unrecorded with a full queue). A branch updates only
//!   the P stack and the copy's path.
//! - **PRELOAD** (a global load in P-mode): its lines go to L1 / the MSHR
//!   table like a load; nothing is written back.
//! - **SKIP** / **HALT**: the copy moves past the instruction / P-mode stops
//!   for the warp until the episode ends.
//! - **REUSE** (N-mode, the P-queue head matches): the instruction is
//!   executed on the N-mode state by the functional model (it stays the
//!   golden result) but takes no pipeline slot; the SM checks that the value
//!   pre-executed in P-mode equals the N-mode value (`reuse_mismatches`).
//!   With `pmode.release = move` the value's move home writes the
//!   destinations' register banks in that cycle.
//! - The episode ends when the triggering load writes back (the unit's
//!   `mode` bit falls): the copy is dropped, the buffer flushed, the blocked
//!   instruction kept aside is released into it (§5.2, no re-fetch) and
//!   fetch resumes after it.
//!
//! Scheduling (§5.1): each scheduler considers its N-mode warps in its
//! policy's order first, then its P-mode warps round-robin. A TRIGGER waits
//! behind the N-mode warps (`issue_pmode`); only N-mode issues move the
//! policy's pointer.
//!
//! The unit has one port per scheduler; a scheduler offers its candidates
//! one after another in a cycle (each offer is an `eval`; only the last one
//! is committed at the edge). An N-mode warp's STALL depends only on that
//! warp's scoreboard rows, P-queue and mode (the N-mode rules consult no
//! shared resource) and on a lower port's TRIGGER in the same cycle, so it is
//! kept until a writeback to the warp, a new instruction at its buffer head
//! or a mode switch — unless a lower port triggered that cycle. Outcomes are
//! the same as offering every warp every cycle (`Outputs::exhaustive` does;
//! a test compares).
//!
//! Decisions where the paper is silent: a CTA's warps are started in the
//! unit one per cycle (one launch port), and an exited warp's N-table
//! mappings are released one per cycle before its slot takes a new warp.
//! Generic loads are classed as global loads (the class is needed before the
//! address is known). Global atomics are classed as global loads (long
//! latency in N-mode, a harmless pre-load in P-mode); shared atomics as shared
//! stores (skipped in P-mode). `.param` / `.const` loads are ALU-class (read
//! only, short latency, pre-executable).

use super::op::{Access, Control, Op};
use super::{IssueKind, Kept, RunError, Sm, Stall};
use crate::blocks::{Action, FetchMatch, Offer};
use crate::config::Config;
use crate::func::Functional;
use hw::blocks::pmode::mode_ctrl::{op as class, ModeCtrlParams};
use std::collections::VecDeque;

/// One decision of the P-mode unit that happened (`Outputs::log_actions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionEvent {
    pub cycle: u64,
    pub warp: u16,
    pub pc: u32,
    /// The warp was in P-mode.
    pub pmode: bool,
    pub action: Action,
    /// A PREEXEC the P-queue recorded (reusable).
    pub recorded: bool,
}

/// Which P-mode action an instruction instance got (coverage accounting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pre {
    Executed,
    Loaded,
    Skipped,
}

/// What an offer came to (`Sm::pm_try`).
#[derive(Clone, Copy, Debug)]
enum Tried {
    Done(Done),
    Stalled(Stall),
    /// The unit would TRIGGER; not committed (deferred).
    Trigger,
}

/// A committed action.
#[derive(Clone, Copy, Debug)]
struct Done {
    warp: u16,
    op: u32,
    /// The warp was in P-mode.
    pmode: bool,
    /// An instruction entered the pipeline or was reused (not a TRIGGER,
    /// SKIP or HALT).
    issued: bool,
}

/// P-mode state of one warp slot, beside the unit's.
#[derive(Clone, Debug, Default)]
pub struct PWarp {
    /// In P-mode and halted (the unit's bits, as of the last edge).
    pub halted: bool,
    /// Started in the unit (its launch command has taken effect).
    pub ready: bool,
    launch_pending: bool,
    /// Architected registers whose N-table entry points at a rename
    /// register (set by REUSE, cleared by an N-mode write).
    nmapped: u128,
    /// N-table mappings still to be released after the warp exited.
    pub releasing: u32,
    /// Pre-executed values in P-queue order: (op, lanes, values).
    recorded: VecDeque<(u32, u32, Vec<u32>)>,
    /// This episode's actions in program order, for the coverage of the
    /// N-mode instructions that follow.
    episode: VecDeque<(u32, Pre)>,
    /// The blocked N-mode instruction, decoded, kept aside during the
    /// episode and released at its end (§5.2) without a re-fetch.
    held: Option<super::IbEntry>,
    /// P-mode results (registers) not yet written back.
    flight: u32,
}

/// SM-wide P-mode bookkeeping.
#[derive(Debug, Default)]
pub struct PmSm {
    /// Warps in P-mode (the unit's mode bits, as of the last edge, and the
    /// warps that triggered since): one word, so that the cycle's scans
    /// read no warp's state.
    active: u64,
    launch_queue: VecDeque<(u16, u32)>,
    release_queue: VecDeque<(u16, u8)>,
    /// Per scheduler: round-robin pointer over its P-mode warps.
    p_rr: Vec<usize>,
    /// The warp started in the unit this cycle.
    launched_now: Option<u16>,
    released_now: Option<u16>,
    /// Scratch: this cycle's candidates.
    order: Vec<u16>,
    /// `rename_exhausted` already counted for this scheduler-cycle.
    exhausted_counted: bool,
    /// Warps with a P-mode result written back this cycle.
    pub(super) wrote_back: Vec<u16>,
    /// The cycle's one episode start is taken — a port committed a TRIGGER,
    /// or a warp is launched (its P-queue is emptied through the start
    /// port): an N-mode STALL may be owed to it, so it is not cached.
    start_taken: bool,
}

/// The rename registers the compiler's allocation occupies (§5.1: "the
/// register availability vector for those compiler used registers is set"):
/// the register file holds 1024 warp registers (32 K registers / 32 lanes);
/// resident warps use `regs_used` each from the bottom; the rename window is
/// the top `rename_regs`.
pub fn compiler_used(c: &Config, f: &Functional) -> Vec<u64> {
    let file = (c.core.registers / 32) as u64;
    let (threads, warps, regs, shared) = f.cta_resources();
    let fit = [
        c.core.max_ctas as u64,
        (c.core.max_warps / warps.max(1)) as u64,
        (c.core.max_threads / threads.max(1)) as u64,
        (c.core.registers / regs.max(1)) as u64,
        c.core.shared_memory.checked_div(shared).map_or(u64::MAX, u64::from),
    ]
    .into_iter()
    .min()
    .unwrap_or(0)
    .min(f.num_ctas() as u64);
    let used = fit * warps as u64 * f.kernel().regs_used as u64;
    let n = c.pmode.rename_regs as u64;
    let base = file.saturating_sub(n);
    let mut v = vec![0u64; n.div_ceil(64) as usize];
    for i in 0..n {
        if base + i < used {
            v[(i / 64) as usize] |= 1 << (i % 64);
        }
    }
    v
}

/// The `mode_ctrl` class of an instruction.
pub fn class_of(op: &Op, inst: &kernel::Inst) -> u64 {
    match op.control {
        Control::Branch => return class::BRANCH,
        Control::Barrier => return class::BARRIER,
        Control::Exit => return class::EXIT,
        Control::None => {}
    }
    let Some(m) = inst.mem else { return class::ALU };
    let shared = m.space == kernel::Space::Shared;
    let read_only = matches!(m.space, kernel::Space::Const | kernel::Space::Param);
    match op.access {
        Some(Access::Load) if read_only => class::ALU,
        Some(Access::Load) if shared => class::SLOAD,
        Some(Access::Load) => class::GLOAD,
        Some(Access::Store) if shared => class::SSTORE,
        Some(Access::Store) => class::GSTORE,
        Some(Access::Atomic) if shared => class::SSTORE,
        Some(Access::Atomic) => class::GLOAD,
        None => class::ALU,
    }
}

impl Sm {
    fn pm_block(&mut self) -> &mut crate::blocks::PmodeBlock {
        match &mut self.sb {
            super::Issuer::Pm(b) => b,
            super::Issuer::Sb(_) => unreachable!("P-mode path without the P-mode unit"),
        }
    }

    /// Once per scheduler-cycle: a P-mode warp whose operands are ready
    /// held back for lack of a rename register (`free` of them free).
    fn count_exhausted(&mut self, stall: bool, free: u32) {
        if !stall && free == 0 && !self.pm_extra.exhausted_counted {
            self.pm_extra.exhausted_counted = true;
            self.stats.pmode.rename_exhausted += 1;
        }
    }

    /// The `f`-th fetch of this cycle, of warp `w` at `op` (§5.2): an N-mode
    /// warp's instruction is matched with its P-queue head on fetch port
    /// `f` (the configuration holds the fetch width to the unit's fetch
    /// ports); outside P-mode it is fetched as usual.
    pub(super) fn pm_fetch(&mut self, f: usize, w: u16, op: u32) -> FetchMatch {
        if !matches!(self.sb, super::Issuer::Pm(_)) || self.pm_active(w) {
            return FetchMatch::Fetch;
        }
        // With nothing recorded and not yet reused, the warp's P-queue is
        // empty: no head to match (`exhaustive` and traced cycles still ask,
        // and a test compares).
        let traced = self.tracing.as_ref().is_some_and(|t| t.t.wants(self.now));
        if self.pm[w as usize].recorded.is_empty() && !self.out.exhaustive && !traced {
            return FetchMatch::Fetch;
        }
        let m = self.pm_block().fetch(f, w, op * kernel::INST_BYTES);
        match m {
            FetchMatch::Moved(_) => self.stats.pmode.fetch_moved += 1,
            FetchMatch::Wait => self.stats.pmode.fetch_waits += 1,
            FetchMatch::Fetch => {}
        }
        m
    }

    /// `n` instructions that came from the P-queue at fetch were flushed
    /// with the instruction buffer (fetched past a reconvergence point the
    /// warp does not reach next): they left the queue and are lost, and the
    /// instructions execute normally when the warp gets there. Their
    /// records are the oldest ones not yet reused.
    pub(super) fn pm_flushed_moved(&mut self, w: u16, n: usize) {
        let p = &mut self.pm[w as usize];
        for _ in 0..n {
            p.recorded.pop_front();
        }
        self.stats.pmode.fetch_flushed += n as u64;
    }

    /// A warp of a new CTA: start it in the unit (one per cycle).
    pub(super) fn pm_launch(&mut self, w: u16) {
        let lanes = self.func.lanes(w);
        self.pm[w as usize] = PWarp { launch_pending: true, ..PWarp::default() };
        self.pm_extra.active &= !(1 << w);
        self.pm_extra.launch_queue.push_back((w, lanes));
    }

    /// A warp finished: release its N-table mappings (one per cycle).
    pub(super) fn pm_finish(&mut self, w: u16) {
        self.pm_extra.active &= !(1 << w);
        let p = &mut self.pm[w as usize];
        p.halted = false;
        // The first release also returns what the warp's episodes still own
        // (unrecorded results, entries never reached): one even without an
        // N mapping.
        let mut m = p.nmapped.max(1);
        p.nmapped = 0;
        while m != 0 {
            let r = m.trailing_zeros() as u8;
            m &= m - 1;
            p.releasing += 1;
            self.pm_extra.release_queue.push_back((w, r));
        }
    }

    /// Nothing for the P-mode unit this cycle: no warp to offer, launch or
    /// release, no writeback to forget, and its status read since its last
    /// edge (without a command it is not clocked, so the status stands).
    /// `rename_held` is the status's, for the cycle's statistics. (A
    /// release leaves the queue and is counted off within one cycle, so an
    /// empty queue means no warp has a release pending.)
    pub(super) fn pm_quiet(&self) -> Option<u32> {
        let super::Issuer::Pm(b) = &self.sb else { return None };
        let x = &self.pm_extra;
        let nothing = x.launch_queue.is_empty()
            && x.release_queue.is_empty()
            && x.wrote_back.is_empty()
            && x.active == 0
            && self.live == 0;
        if nothing {
            b.last_status().map(|s| s.rename_held)
        } else {
            None
        }
    }

    /// Warp `w` is in P-mode.
    pub(super) fn pm_active(&self, w: u16) -> bool {
        self.pm_extra.active >> w & 1 == 1
    }

    pub(super) fn pm_begin_cycle(&mut self) {
        if self.pm_extra.p_rr.is_empty() {
            self.pm_extra.p_rr = vec![0; self.scheds.len()];
        }
        self.pm_extra.launched_now = None;
        self.pm_extra.released_now = None;
        self.pm_extra.start_taken = false;
        if let Some((w, lanes)) = self.pm_extra.launch_queue.pop_front() {
            self.pm_block().launch(w, lanes);
            self.pm_extra.launched_now = Some(w);
            self.pm_extra.start_taken = true;
        }
        if let Some((w, r)) = self.pm_extra.release_queue.pop_front() {
            self.pm_block().release(w, r);
            self.pm_extra.released_now = Some(w);
        }
    }

    /// After the clock edge: launches and releases took effect; episodes
    /// that ended (the triggering load wrote back) return their warps to
    /// N-mode; halts are mirrored.
    pub(super) fn pm_after_edge(&mut self) -> Result<(), RunError> {
        if let Some(w) = self.pm_extra.launched_now.take() {
            let p = &mut self.pm[w as usize];
            p.launch_pending = false;
            p.ready = true;
        }
        if let Some(w) = self.pm_extra.released_now.take() {
            self.pm[w as usize].releasing -= 1;
        }
        // A P-mode result's `reuse_rdy` is visible from the cycle after its
        // writeback (no bypass in the P-queue): a STALL kept in that cycle
        // is stale now.
        for &w in &self.pm_extra.wrote_back {
            self.warps[w as usize].forget();
        }
        self.pm_extra.wrote_back.clear();
        let clocked = self.pm_block().commanded;
        let st = self.pm_block().status(clocked);
        let (mode, halted) = (st.mode, st.halted);
        self.stats.pmode.rename_held_sum += st.rename_held as u64;
        // Only warps in P-mode before or after the edge change.
        let was = self.pm_extra.active;
        self.pm_extra.active = was & mode;
        let mut m = was | mode;
        while m != 0 {
            let w = m.trailing_zeros() as usize;
            m &= m - 1;
            let on = mode >> w & 1 == 1;
            let p = &mut self.pm[w];
            p.halted = on && halted >> w & 1 == 1;
            if was >> w & 1 == 1 && !on {
                self.func.end_pmode(w as u16);
                let next = self.func.next_op(w as u16).unwrap_or(0);
                let held = p.held.take();
                self.flush(w as u16, next);
                // §5.2: "The first instruction that is dependent on the long
                // latency operation is then released for execution. Then the
                // warp starts the next instruction fetch in program order."
                match held {
                    Some(e) if e.op == next => {
                        let control = self.ops[e.op as usize].control;
                        let warp = &mut self.warps[w];
                        warp.ibuf.push_back(e);
                        warp.fetch_op = e.op + 1;
                        warp.fetch_blocked = control.blocks_fetch();
                    }
                    Some(e) => {
                        if let Some(k) = self.out.pipeview.as_mut() {
                            let _ = k.retire(self.now, e.uid, true);
                        }
                    }
                    None => {}
                }
            }
        }
        if st.overflow {
            return Err(RunError::Exec(format!(
                "kernel `{}`: the P-mode unit's SIMT stack overflowed (depth {}); raise pmode.stack_depth",
                self.func.kernel_name(),
                self.cfg.pmode.stack_depth
            )));
        }
        Ok(())
    }

    /// The issue stage with the P-mode unit: per scheduler, N-mode warps in
    /// policy order, then P-mode warps round-robin; the first offer the unit
    /// does not stall (and that finds a collector unit when it needs one)
    /// happens. A TRIGGER is deferred behind the N-mode warps: it takes the
    /// port only when no N-mode warp issues, so entering P-mode costs no
    /// other warp its issue (it goes before the P-mode warps, which would
    /// get the slot only in such a cycle too). Only N-mode issues move the
    /// policy's pointer (GTO's greedy warp, LRR's start): P-mode runs in the
    /// baseline's idle slots and leaves its order alone.
    pub(super) fn issue_pmode(&mut self) -> Result<bool, RunError> {
        let mut any = false;
        for k in 0..self.scheds.len() {
            let mut order = std::mem::take(&mut self.pm_extra.order);
            order.clear();
            let n_mode;
            {
                let (running, pm) = (super::Warps::of(self.running()), self.pm_extra.active);
                let live = |w: u16| running.has(w);
                let all = self.scheds[k].order(live);
                let active = |w: u16| pm >> w & 1 == 1;
                order.extend(all.iter().copied().filter(|&w| !active(w)));
                n_mode = order.len();
                let p = all.len() - n_mode;
                if p > 0 {
                    let start = self.pm_extra.p_rr[k] % p;
                    let ps = || all.iter().copied().filter(|&w| active(w));
                    order.extend(ps().skip(start));
                    order.extend(ps().take(start));
                }
            }
            let mut first: Option<Stall> = None;
            let mut done = None;
            let mut trigger = None;
            self.pm_extra.exhausted_counted = false;
            for (i, &w) in order.iter().enumerate() {
                if i == n_mode && trigger.is_some() {
                    break;
                }
                // No rename register free (counted by the P-mode offer that
                // found it): every further P-mode offer stalls (the unit's
                // first P-mode rule) and changes nothing; `exhaustive` still
                // makes them, and a test compares.
                if self.pm_extra.exhausted_counted && !self.out.exhaustive {
                    break;
                }
                match self.pm_try(k, w, false)? {
                    Tried::Done(d) => {
                        done = Some(d);
                        break;
                    }
                    Tried::Stalled(s) => {
                        first.get_or_insert(s);
                    }
                    Tried::Trigger => {
                        first.get_or_insert(Stall::LongRaw);
                        trigger.get_or_insert(w);
                    }
                }
            }
            if let (None, Some(w)) = (done, trigger) {
                match self.pm_try(k, w, true)? {
                    Tried::Done(d) => done = Some(d),
                    t => unreachable!("a deferred TRIGGER offered again: {t:?}"),
                }
            }
            self.pm_extra.order = order;
            match done {
                Some(d) => {
                    if d.pmode {
                        self.pm_extra.p_rr[k] += 1;
                    } else if d.issued {
                        self.scheds[k].issued(d.warp);
                    }
                    // A slot spent on a TRIGGER, SKIP or HALT issued nothing:
                    // it counts as the stall the scan met first (the one the
                    // baseline would report).
                    let s = if d.issued { Stall::Issued } else { first.unwrap_or(Stall::LongRaw) };
                    self.stats.breakdown.add(s);
                    self.view.issue.push((Some((d.warp, d.op)), s));
                    any = true;
                }
                None => {
                    self.pm_block().withdraw(k);
                    let s = first.unwrap_or(Stall::NoInstLeft);
                    self.stats.breakdown.add(s);
                    self.view.issue.push((None, s));
                }
            }
        }
        Ok(any)
    }

    /// Offer warp `w`'s next instruction on port `k`; commit what the unit
    /// decides unless it stalls, or it is a TRIGGER and `trigger` is false.
    fn pm_try(&mut self, k: usize, w: u16, trigger: bool) -> Result<Tried, RunError> {
        let p = &self.pm[w as usize];
        if !p.ready {
            return Ok(Tried::Stalled(Stall::IbufferEmpty));
        }
        if p.halted {
            return Ok(Tried::Stalled(Stall::LongRaw));
        }
        let pmode = self.pm_active(w);
        let warp = &self.warps[w as usize];
        if warp.at_barrier {
            return Ok(Tried::Stalled(Stall::BarrierWait));
        }
        let Some(head) = warp.ibuf.front().copied().filter(|e| e.ready <= self.now) else {
            return Ok(Tried::Stalled(Stall::IbufferEmpty));
        };
        if !self.out.exhaustive {
            // A STALL on pending operands stays a STALL until something of
            // this warp changes (a writeback, a new head, a mode switch:
            // each clears the cache), in N-mode and in P-mode alike.
            if let Some(a) = warp.sb {
                return Ok(Tried::Stalled(if a.long_dep { Stall::LongRaw } else { Stall::ShortRaw }));
            }
            if let (true, Kept::Starved(a, then)) = (pmode, warp.kept) {
                if let Some(free) = self.pm_block().renames_free().filter(|&free| free <= then) {
                    self.count_exhausted(a.stall, free);
                    return Ok(Tried::Stalled(if a.long_dep { Stall::LongRaw } else { Stall::ShortRaw }));
                }
            }
            let warp = &self.warps[w as usize];
            // So does an answer not carried out (unless a lower port
            // triggered this cycle: one episode start per cycle, the unit
            // then says STALL to a TRIGGER): a deferred TRIGGER, and an
            // ISSUE while its unit has no free collector.
            if !self.pm_extra.start_taken {
                match warp.kept {
                    Kept::Trigger if !trigger => return Ok(Tried::Trigger),
                    Kept::Issue => {
                        let unit = self.ops[head.op as usize].unit;
                        if !self.oc.has_free(unit) {
                            return Ok(Tried::Stalled(unit.full_stall()));
                        }
                    }
                    _ => {}
                }
            }
        }
        let ops = std::sync::Arc::clone(&self.ops);
        let op = &ops[head.op as usize];
        let cls = class_of(op, &self.func.kernel().insts[head.op as usize]);
        let branch = self.func.branch_preview(w, pmode).unwrap_or((0, 0, 0));
        let offer =
            Offer { warp: w, pc: head.op * kernel::INST_BYTES, class: cls, reads: op.reads(), writes: op.writes(), branch, reuse: head.reuse };
        let action = self.pm_block().offer(k, &offer);

        let needs_unit = matches!(action, Action::Issue | Action::Preexec | Action::Preload);
        if action == Action::Stall {
            let (stall, long) = self.pm_block().stall_reason(k);
            // A P-mode STALL is kept only when it cannot be for want of a
            // rename register (registers other warps free would end it):
            // more are free than this cycle's lower ports can reserve.
            let reservable = (self.scheds.len() * super::op::MAX_WRITES) as u32;
            let renames_left = |b: &crate::blocks::PmodeBlock| {
                let (used, size) = b.rename_used();
                size - used > reservable
            };
            let answer = crate::blocks::SbAnswer { stall, long_dep: long };
            if (!pmode || (stall && renames_left(self.pm_block()))) && !self.pm_extra.start_taken {
                self.warps[w as usize].sb = Some(answer);
            } else if pmode && !self.pm_block().reserved_below(k) {
                let (used, size) = self.pm_block().rename_used();
                self.warps[w as usize].kept = Kept::Starved(answer, size - used);
            }
            if pmode {
                let (used, size) = self.pm_block().rename_used();
                self.count_exhausted(stall, size - used);
            }
            return Ok(Tried::Stalled(if long { Stall::LongRaw } else { Stall::ShortRaw }));
        }
        if action == Action::Trigger && !trigger {
            if !self.pm_extra.start_taken {
                self.warps[w as usize].kept = Kept::Trigger;
            }
            return Ok(Tried::Trigger);
        }
        if needs_unit && !self.oc.has_free(op.unit) {
            if action == Action::Issue && !self.pm_extra.start_taken {
                self.warps[w as usize].kept = Kept::Issue;
            }
            return Ok(Tried::Stalled(op.unit.full_stall()));
        }
        self.pm_block().commit();
        let pre_dst = action == Action::Preexec && op.control == Control::None;
        let pq = if pre_dst { self.pm_block().pq_idx(k) } else { None };
        if self.out.log_actions {
            let pc = head.op * kernel::INST_BYTES;
            self.actions.push(ActionEvent { cycle: self.now, warp: w, pc, pmode, action, recorded: pq.is_some() });
        }
        if pre_dst {
            self.pm_in_flight(w, op.n_writes as u32)?;
        }
        match action {
            Action::Stall => unreachable!(),
            Action::Issue => {
                self.pm_covered(w, head.op, false);
                self.pm[w as usize].nmapped &= !reg_mask(op.writes());
                self.issue_as(k, w, IssueKind::PmN)?;
            }
            Action::Reuse => {
                self.pm_covered(w, head.op, true);
                self.pm_reuse(k, w, op)?;
            }
            Action::Trigger => {
                self.pm_extra.start_taken = true;
                self.stats.pmode.switches += 1;
                self.pm_extra.active |= 1 << w;
                let p = &mut self.pm[w as usize];
                p.episode.clear();
                // The start drops the entries the last episode left.
                self.stats.pmode.pqueue_dropped += p.recorded.len() as u64;
                p.recorded.clear();
                p.held = self.warps[w as usize].ibuf.pop_front();
                self.func.start_pmode(w);
                self.flush(w, head.op);
            }
            Action::Preexec => {
                self.stats.pmode.pre_executed += 1;
                self.stats.pmode.pqueue_full += (op.control == Control::None && pq.is_none()) as u64;
                self.pm[w as usize].episode.push_back((head.op, Pre::Executed));
                let (_, mask) = self.issue_as(k, w, IssueKind::Preexec(pq))?;
                if pq.is_some() {
                    let vals = self.func.values(w, true, op.writes(), mask);
                    self.pm[w as usize].recorded.push_back((head.op, mask, vals));
                }
            }
            Action::Preload => {
                self.stats.pmode.pre_loads += 1;
                self.pm[w as usize].episode.push_back((head.op, Pre::Loaded));
                self.issue_as(k, w, IssueKind::Preload)?;
            }
            Action::Skip => {
                self.stats.pmode.skipped += 1;
                self.pm[w as usize].episode.push_back((head.op, Pre::Skipped));
                self.pm_consume(w, head.uid);
                self.func.p_skip(w).map_err(RunError::Exec)?;
                self.follow(k, w, true);
            }
            Action::Halt => {
                if op.control == Control::Branch {
                    self.stats.pmode.halted_on_branch += 1;
                }
            }
        }
        Ok(Tried::Done(Done {
            warp: w,
            op: head.op,
            pmode,
            issued: matches!(action, Action::Issue | Action::Reuse) || needs_unit,
        }))
    }

    /// A PREEXEC's results enter the pipeline. The unit counts a warp's
    /// P-mode results in flight (a new episode waits for them) in
    /// `flight_bits`; more would wrap its count.
    fn pm_in_flight(&mut self, w: u16, n: u32) -> Result<(), RunError> {
        let p = &mut self.pm[w as usize];
        p.flight += n;
        let max = (1u32 << ModeCtrlParams::default().flight_bits) - 1;
        if p.flight > max {
            return Err(RunError::Exec(format!(
                "kernel `{}`: warp {w} has {} P-mode results in flight, more than the P-mode unit counts ({max})",
                self.func.kernel_name(),
                p.flight
            )));
        }
        Ok(())
    }

    /// A P-mode result of warp `w` (`n` registers) was written back: its
    /// P-queue entry becomes reusable and the warp's count of results in
    /// flight falls, both visible from the next cycle.
    pub(super) fn pm_writeback(&mut self, w: u16, n: u32) {
        self.pm[w as usize].flight -= n;
        self.pm_extra.wrote_back.push(w);
    }

    /// An instruction leaves the buffer without entering the pipeline.
    fn pm_consume(&mut self, w: u16, uid: u64) {
        self.warps[w as usize].ibuf.pop_front();
        self.warps[w as usize].forget();
        self.fetch_candidates |= 1 << w;
        if let Some(kv) = self.out.pipeview.as_mut() {
            let _ = kv.retire(self.now, uid, true);
        }
    }

    /// N-mode reuse: the functional model executes the instruction on the
    /// N-mode state (the golden value), which must equal the value P-mode
    /// pre-executed; no pipeline slot.
    fn pm_reuse(&mut self, k: usize, w: u16, op: &Op) -> Result<(), RunError> {
        let head = *self.warps[w as usize].ibuf.front().expect("an instruction");
        self.pm_consume(w, head.uid);
        let mut addrs = [0u64; 32];
        let out = self.func.exec(w, &mut addrs).map_err(RunError::Exec)?;
        self.stats.warp_insts += 1;
        self.stats.thread_insts += out.active.count_ones() as u64;
        self.stats.pmode.reused += 1;
        let vals = self.func.values(w, false, op.writes(), out.lanes);
        match self.pm[w as usize].recorded.pop_front() {
            Some((o, mask, pre)) if o == head.op && mask == out.lanes && pre == vals => {}
            _ => self.stats.pmode.reuse_mismatches += 1,
        }
        if self.cfg.pmode.release == crate::config::Release::Move {
            // The value moves home: a write into the destinations' banks
            // this cycle; nothing stays mapped.
            for &r in op.writes().iter().filter(|&&r| r < super::op::SB_PRED_BASE) {
                let b = self.oc.bank(w, r);
                self.oc.write_bank(b);
            }
        } else {
            self.pm[w as usize].nmapped |= reg_mask(op.writes());
        }
        self.follow(k, w, false);
        Ok(())
    }

    /// Coverage of an N-mode instruction by the episode before it (seed 000
    /// Figure 11): reused, executed in P-mode but not reused (pre-loads
    /// included), skipped, or not reached by P-mode.
    fn pm_covered(&mut self, w: u16, op: u32, reused: bool) {
        // Figure 11's long-latency row: global memory loads (generic ones
        // included, as the unit classes them), not atomics.
        let o = &self.ops[op as usize];
        let long = o.access == Some(Access::Load) && class_of(o, &self.func.kernel().insts[op as usize]) == class::GLOAD;
        let c = &mut self.stats.pmode;
        let p = &mut self.pm[w as usize];
        let pre = match p.episode.front() {
            Some(&(o, pre)) if o == op => {
                p.episode.pop_front();
                Some(pre)
            }
            Some(_) => {
                // N-mode left the path P-mode took: no more coverage.
                p.episode.clear();
                None
            }
            None => None,
        };
        let row = if long { &mut c.cover_long } else { &mut c.cover_short };
        match (pre, reused) {
            (_, true) => row[0] += 1,
            (Some(Pre::Executed | Pre::Loaded), false) => row[1] += 1,
            (Some(Pre::Skipped), false) => row[2] += 1,
            (None, false) => row[3] += 1,
        }
    }
}

fn reg_mask(regs: &[u8]) -> u128 {
    regs.iter().fold(0u128, |m, &r| m | 1u128 << r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Action;
    use std::path::Path;
    use std::sync::Arc;

    /// P-mode leaves the baseline policy's order alone: GTO's greedy warp is
    /// always the warp of the scheduler's last N-mode issue (or reuse),
    /// whatever P-mode warps issued or triggered since.
    #[test]
    fn pmode_does_not_move_the_greedy_warp() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
        let m = kernel::load(&root.join("pmode_loop.cu"), &kernel::CompileOptions::default()).unwrap();
        let k = Arc::new(m.only_kernel().unwrap().clone());
        let l = Arc::new(kernel::LaunchFile::load(&root.join("pmode_loop.toml")).unwrap().bind(&m, &k).unwrap());
        let cfg = Config::preset("hpca16_pmode").single_sm().with_override("mode=\"pmode\"").unwrap();
        let func = Functional::new(k, l, cfg.core.max_warps, cfg.core.max_ctas).unwrap();
        let out = super::super::Outputs { log_actions: true, ..Default::default() };
        let mut sm = Sm::new(cfg, func, crate::Engine::Model, out).unwrap();
        let ks = sm.scheds.len();
        let mut greedy = vec![None; ks];
        let (mut seen, mut p_between) = (0, 0u64);
        let mut p_since = vec![false; ks];
        while !sm.finished() {
            sm.cycle().unwrap();
            for a in &sm.actions[seen..] {
                let k = a.warp as usize % ks;
                if matches!(a.action, Action::Issue | Action::Reuse) {
                    if p_since[k] {
                        p_between += 1;
                    }
                    greedy[k] = Some(a.warp);
                    p_since[k] = false;
                } else if a.pmode || a.action == Action::Trigger {
                    p_since[k] = true;
                }
            }
            seen = sm.actions.len();
            for (k, s) in sm.scheds.iter().enumerate() {
                if let Some(last) = s.last() {
                    assert_eq!(Some(last), greedy[k], "cycle {}: scheduler {k}", sm.now);
                }
            }
        }
        assert!(p_between > 100, "P-mode actions between N-mode issues: {p_between}");
    }
}
