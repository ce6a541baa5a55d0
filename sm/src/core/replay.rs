//! Replay in the SM (seed 004 chapters 5–6): the `replay_unit` block holds
//! every warp's instruction-buffer slots; the SM keeps their payloads.
//!
//! - **Fetch** fills one slot of a warp whose buffer has room (`fill_rdy`);
//!   the payload remembers its slot.
//! - **Issue**: a warp offers its oldest instruction marked for replay, else
//!   its next instruction; the scheduler picks in its policy's order, and the
//!   unit may refuse a load its predictor says needs an MSHR when the tracker
//!   has none to give (a wasted issue cycle, which the scheduler avoids where
//!   it can know in advance: a known miss, or every load under always-miss).
//!   A first issue goes through the scoreboard and executes on the
//!   functional model as in the baseline; a memory instruction is retained
//!   with the lanes that access memory as its private active mask. A replay
//!   re-enters the operand collector with the threads still pending.
//! - **Memory stage** (`ldst`): one pass per issue; the checkpoint tells the
//!   unit which threads completed and whether the rest were squashed for an
//!   MSHR, COMQ or RSV hazard (known to miss); loads train the predictor and
//!   move the tracker's credits; a freed MSHR returns its credit to the unit
//!   whose load allocated it.
//!
//! The thesis's Table 4.2 core has two schedulers, the unit one issue port:
//! each scheduler gets its own unit over its warps (`w % schedulers`), with
//! `l1.mshrs / schedulers` credits. A credited load is thus still
//! guaranteed an MSHR; a scheduler cannot borrow the other's idle credits.
//!
//! Hazard prediction without replay (`replay.squash = false`, Figure 7.13):
//! the memory stage stalls as in the baseline; the unit still gates the
//! issue of loads, and learns each accepted line. With `replay.retain`,
//! memory instructions also stay in the warp buffer until they leave the
//! stage, as replay needs (the warp-buffer penalty of Figure 7.1).
//!
//! Forward progress: only first issues and passes that complete threads
//! count as progress, so a storm of replays that completes nothing trips the
//! deadlock detector with its report.

use super::op::{gpr_read_mask, Unit};
use super::{Candidate, RunError, Sm, Stall};
use crate::blocks::{Engine, ReplayGrant, ReplayUnit};
use crate::config::{Config, Predictor};
use crate::core::ldst::ReplayCause;
use crate::core::op::Space;
use crate::mem::cache::Probe;
use crate::mem::coalesce::{coalesce, Lines};
use crate::stats::ReplayStats;
use sim::Component;

/// Replay-mode state of the SM.
pub struct ReplaySm {
    /// One unit per scheduler.
    pub units: Vec<ReplayUnit>,
    predictor: Predictor,
    /// Squash and replay (else the stage stalls; only the tracker acts),
    /// and keep memory instructions in the warp buffer until they leave the
    /// memory stage (always when squashing).
    squash: bool,
    retain: bool,
    /// Per warp slot, per warp-buffer slot: the retained instruction (pool index).
    retained: Vec<Vec<Option<u32>>>,
    /// Units that took a fill this cycle (one fill port each).
    filled: u64,
    /// Warps flushed this cycle (their fill would be dropped).
    flushed: u64,
    /// The grant of the first issue in progress.
    grant: Option<ReplayGrant>,
    /// Schedulers whose offers change at this cycle's edge (a completion):
    /// their idle shortcut ends next cycle.
    wake_next: u64,
    /// The MSHR table had a free entry at the start of this cycle.
    mshr_avail: bool,
    /// The events, when logged.
    pub log: Option<Vec<ReplayEvent>>,
    pub stats: ReplayStats,
}

impl ReplaySm {
    pub fn new(c: &Config, engine: Engine) -> Result<ReplaySm, String> {
        let s = c.core.schedulers;
        let per = c.core.max_warps.div_ceil(s);
        let mut units = Vec::new();
        for _ in 0..s {
            let mut u = ReplayUnit::new(c, per, engine)?;
            u.reset();
            units.push(u);
        }
        Ok(ReplaySm {
            units,
            predictor: c.replay.predictor,
            squash: c.replay.squash,
            retain: c.replay.squash || c.replay.retain,
            retained: vec![vec![None; c.core.ibuffer_entries as usize]; c.core.max_warps as usize],
            filled: 0,
            flushed: 0,
            grant: None,
            wake_next: 0,
            mshr_avail: true,
            log: None,
            stats: ReplayStats::default(),
        })
    }

    fn unit(&mut self, w: u16) -> (&mut ReplayUnit, u32) {
        let s = self.units.len();
        (&mut self.units[w as usize % s], (w as usize / s) as u32)
    }

    /// Warp `w` still holds issued memory instructions.
    pub(super) fn retains(&self, w: u16) -> bool {
        self.retained[w as usize].iter().any(|r| r.is_some())
    }

    /// Fetch may write an instruction of warp `w` now (its slot if so).
    pub fn fill(&mut self, w: u16) -> Option<u8> {
        let k = w as usize % self.units.len();
        if self.filled >> k & 1 != 0 || self.flushed >> w & 1 != 0 {
            return None;
        }
        let (u, local) = self.unit(w);
        if !u.fill_rdy(local) {
            return None;
        }
        let slot = u.fill(local);
        self.filled |= 1 << k;
        Some(slot as u8)
    }

    /// The first issue in progress redirects warp `w`.
    pub fn flush(&mut self, w: u16) {
        self.unit(w).0.flush();
        self.flushed |= 1 << w;
    }

    /// The tracker would refuse this offer (so the scheduler passes it by);
    /// `oracle`: the oracle's answer (asked only when `asks_oracle`).
    fn held(&self, known_miss: bool, may_miss: bool, miss_ok: bool, oracle: bool) -> bool {
        !miss_ok
            && match self.predictor {
                Predictor::AlwaysHit => known_miss,
                Predictor::AlwaysMiss => may_miss,
                Predictor::Oracle => may_miss && oracle,
                // One lookup port: the scheduler cannot know before it picks.
                Predictor::Counter => false,
            }
    }

    /// `held` needs the oracle's answer.
    fn asks_oracle(&self, may_miss: bool, miss_ok: bool) -> bool {
        self.predictor == Predictor::Oracle && may_miss && !miss_ok
    }
}

/// One warp-buffer event (`Outputs::log_replay`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayEvent {
    pub cycle: u64,
    pub warp: u16,
    pub pc: u32,
    pub kind: ReplayEventKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayEventKind {
    /// A memory instruction's first issue, with its private active mask.
    Issue { pam: u32 },
    /// A replay of the threads not yet completed.
    Replay { pam: u32 },
    /// The memory-stage checkpoint: threads completed; `miss`: the rest were
    /// squashed for MSHR, COMQ or RSV.
    Checkpoint { completed: u32, miss: bool },
}

impl Sm {
    /// Start of a cycle: the units' inputs idle.
    pub(super) fn replay_begin_cycle(&mut self) {
        let avail = self.mem.mshr.free() > 0;
        let rp = self.rp.as_mut().expect("replay mode");
        rp.filled = 0;
        rp.flushed = 0;
        rp.grant = None;
        rp.mshr_avail = avail;
        for u in &mut rp.units {
            u.begin_cycle(avail);
        }
        let wake = std::mem::take(&mut rp.wake_next);
        for k in 0..self.scheds.len() {
            if wake >> k & 1 != 0 {
                self.wake(k);
            }
        }
    }

    /// The memory stage's checkpoint and MSHR frees, to the units.
    pub(super) fn replay_checkpoint(&mut self) {
        let rp = self.rp.as_mut().expect("replay mode");
        if let Some(w) = self.mem.mshr_freed_by {
            rp.unit(w).0.mshr_freed();
        }
        let Some(cp) = self.mem.checkpoint else { return };
        let (squash, retain) = (rp.squash, rp.retain);
        let i = self.pool.get_mut(cp.inst);
        let (w, slot) = (i.warp, i.slot);
        let (u, local) = rp.unit(w);
        // Every issue of a load the unit was asked about resolves here, also
        // one with no lane left or a generic address that went to shared
        // memory: a credit it carries must come back. Without squashing, a
        // load reports each line it gets accepted, its credit with the first.
        if self.ops[i.op as usize].may_miss && (squash || cp.load.is_some() || i.credited) {
            let (alloc, miss) = cp.load.unwrap_or((false, false));
            u.resolved(i.credited, alloc, miss, i.op * 8);
            if !squash {
                i.credited = false;
            }
        }
        if !retain || !cp.leaves {
            return;
        }
        u.complete(local, slot as u32, cp.completed, cp.miss);
        if let Some(log) = rp.log.as_mut() {
            log.push(ReplayEvent { cycle: self.now, warp: w, pc: i.op * 8, kind: ReplayEventKind::Checkpoint { completed: cp.completed, miss: cp.miss } });
        }
        if i.pending == 0 {
            rp.retained[w as usize][slot as usize] = None;
        }
        let st = &mut rp.stats;
        st.max_passes = st.max_passes.max(i.passes as u64);
        if let Some(c) = cp.cause {
            st.squashed[c as usize] += 1;
        }
        // The slot frees (or turns ready to replay) at this edge.
        rp.wake_next |= 1 << (w as usize % rp.units.len());
        self.fetch_candidates |= 1 << w;
        self.wake_warp(w);
    }

    /// Before scheduler `k` scans: read its unit's offers; whether the
    /// tracker lets a load that needs an MSHR issue.
    pub(super) fn replay_scan_begin(&mut self, k: usize) -> bool {
        let unit = &mut self.rp.as_mut().expect("replay mode").units[k];
        unit.read_offers();
        unit.miss_issue_ok()
    }

    /// Offers held back and picks refused so far (0 outside replay mode).
    pub(super) fn replay_restricted(&self) -> u64 {
        self.rp.as_ref().map_or(0, |rp| rp.stats.held + rp.stats.refused)
    }

    /// After the issue stage: a cycle in which the tracker held a load back
    /// while an MSHR was free (`restricted`: the count before the stage).
    pub(super) fn replay_issue_end(&mut self, restricted: u64) {
        let now = self.replay_restricted();
        let rp = self.rp.as_mut().expect("replay mode");
        if rp.mshr_avail && now != restricted {
            rp.stats.idle_mshr_cycles += 1;
        }
    }

    /// Can warp `w` issue its offer on scheduler `k`; `Err(None)`: an exited
    /// warp with nothing to replay now.
    pub(super) fn replay_candidate(&mut self, k: usize, w: u16, miss_ok: bool) -> Result<Candidate, Option<Stall>> {
        let rp = self.rp.as_mut().expect("replay mode");
        let (u, local) = rp.unit(w);
        let offer = u.offer(local);
        if offer.replay {
            let idx = rp.retained[w as usize][offer.slot as usize].expect("a replay offer names a retained instruction");
            let may_miss = self.ops[self.pool.get(idx).op as usize].may_miss;
            let oracle = rp.asks_oracle(may_miss, miss_ok) && self.oracle_needs_mshr(w, Candidate::Replay(idx));
            let rp = self.rp.as_mut().expect("replay mode");
            if rp.held(offer.known_miss, may_miss, miss_ok, oracle) {
                self.rp.as_mut().expect("replay mode").stats.held += 1;
                return Err(Some(Stall::LsuFull));
            }
            if !self.oc.has_free(Unit::Mem) {
                return Err(Some(Stall::LsuFull));
            }
            return Ok(Candidate::Replay(idx));
        }
        if self.exited >> w & 1 == 1 {
            return Err(None);
        }
        if let Some(head) = self.warps[w as usize].ibuf.front().filter(|e| e.ready <= self.now) {
            let may_miss = self.ops[head.op as usize].may_miss;
            let oracle = rp.asks_oracle(may_miss, miss_ok) && self.oracle_needs_mshr(w, Candidate::First);
            let rp = self.rp.as_mut().expect("replay mode");
            if rp.held(false, may_miss, miss_ok, oracle) {
                self.rp.as_mut().expect("replay mode").stats.held += 1;
                return Err(Some(Stall::LsuFull));
            }
        }
        self.can_issue(k, w).map(|()| Candidate::First).map_err(Some)
    }

    /// Present the pick to the unit and issue it if granted: (warp, op, replay).
    pub(super) fn replay_pick(&mut self, k: usize, w: u16, c: Candidate) -> Result<Option<(u16, u32, bool)>, RunError> {
        let op = match c {
            Candidate::Replay(idx) => self.pool.get(idx).op,
            Candidate::First => self.warps[w as usize].ibuf.front().expect("a first issue").op,
        };
        let mut load = self.ops[op as usize].may_miss;
        if load && self.rp.as_ref().expect("replay mode").predictor == Predictor::Oracle {
            load = self.oracle_needs_mshr(w, c);
        }
        let rp = self.rp.as_mut().expect("replay mode");
        let (u, local) = rp.unit(w);
        let Some(g) = u.pick(local, load, op * 8) else {
            rp.stats.refused += 1;
            return Ok(None);
        };
        rp.stats.credited += g.credited as u64;
        match c {
            Candidate::Replay(idx) => {
                rp.stats.replays += 1;
                let inst = self.pool.get_mut(idx);
                if g.pam != inst.pending || !g.replay {
                    return Err(RunError::Exec(format!(
                        "internal: warp {w} replays threads {:#x} of slot {}, the SM has {:#x} pending",
                        g.pam, g.slot, inst.pending
                    )));
                }
                inst.credited = g.credited;
                inst.reads_left = gpr_read_mask(&self.ops[op as usize]);
                if let Some(log) = rp.log.as_mut() {
                    log.push(ReplayEvent { cycle: self.now, warp: w, pc: op * 8, kind: ReplayEventKind::Replay { pam: g.pam } });
                }
                self.oc.allocate(Unit::Mem, idx);
                Ok(Some((w, op, true)))
            }
            Candidate::First => {
                let head_slot = self.warps[w as usize].ibuf.front().map(|e| e.slot);
                if g.replay || head_slot != Some(g.slot as u8) {
                    return Err(RunError::Exec(format!(
                        "internal: warp {w}'s first issue is slot {} in the replay unit, {head_slot:?} in the SM",
                        g.slot
                    )));
                }
                rp.grant = Some(g);
                let op = self.issue_warp(k, w)?;
                Ok(Some((w, op, false)))
            }
        }
    }

    /// The oracle predictor (simulation only): the access would allocate an
    /// MSHR now — one of its lines is neither in L1 nor reserved for a fill.
    /// The first issue's lanes and addresses come from executing it on a
    /// copy of the warp; if that fails, the real issue reports the error.
    fn oracle_needs_mshr(&mut self, w: u16, c: Candidate) -> bool {
        let mut addrs = [0u64; 32];
        let (lanes, bytes, space) = match c {
            Candidate::Replay(idx) => {
                let i = self.pool.get(idx);
                addrs = i.addrs;
                (i.pending, i.bytes, Some(i.space))
            }
            Candidate::First => {
                match self.func.preview(w, &mut addrs) {
                    Ok(o) => (o.lanes, o.bytes, o.space),
                    Err(_) => return true,
                }
            }
        };
        if !matches!(space, Some(Space::Global | Space::Local)) {
            return false;
        }
        let mut lines = Lines::default();
        coalesce(&addrs, lanes, bytes, self.cfg.l1.line, &mut lines);
        lines.as_slice().iter().any(|&l| self.mem.l1.probe(l) == Probe::Miss)
    }

    /// Called by `issue_as` for a granted first issue: a memory instruction
    /// is retained with the lanes that access memory.
    pub(super) fn replay_first_issue(&mut self, w: u16, idx: u32, unit: Unit, lanes: u32) {
        let rp = self.rp.as_mut().expect("replay mode");
        let g = rp.grant.take().expect("a granted first issue");
        let mem = unit == Unit::Mem;
        let retain = mem && rp.retain;
        rp.unit(w).0.first_issue(retain, lanes);
        if mem && !retain {
            self.pool.get_mut(idx).credited = g.credited;
        }
        if retain {
            rp.retained[w as usize][g.slot as usize] = Some(idx);
            rp.stats.first_issues += 1;
            let inst = self.pool.get_mut(idx);
            if let Some(log) = rp.log.as_mut() {
                log.push(ReplayEvent { cycle: self.now, warp: w, pc: inst.op * 8, kind: ReplayEventKind::Issue { pam: lanes } });
            }
            inst.pending = lanes;
            inst.slot = g.slot as u8;
            inst.passes = 0;
            inst.load_id = None;
            inst.credited = g.credited;
        }
    }

    /// End of the cycle: evaluate and clock the units given a command (clock
    /// gating as for the other blocks), every unit every cycle when the
    /// tracker has a delay line, which moves on its own.
    pub(super) fn replay_eval(&mut self, all: bool) {
        let all = all || self.cfg.replay.delay > 0;
        let rp = self.rp.as_mut().expect("replay mode");
        for u in &mut rp.units {
            u.clocked = all || u.commanded;
            if u.clocked {
                u.inst.comp.eval();
            }
        }
    }

    /// At the end of a run every credit is back in its pool (the credit
    /// tracker's invariant with nothing in flight), after the tracker's
    /// delay line has drained.
    pub(super) fn replay_finish(&mut self, cfg: &Config) -> Result<(), RunError> {
        if cfg.replay.tracker != crate::config::Tracker::Credit {
            return Ok(());
        }
        let mshrs = (cfg.l1.mshrs / cfg.core.schedulers) as i64;
        for (k, u) in self.rp.as_mut().expect("replay mode").units.iter_mut().enumerate() {
            for _ in 0..=cfg.replay.delay {
                u.begin_cycle(true);
                u.inst.comp.eval();
                u.inst.comp.tick();
            }
            let left = u.credits();
            if left != mshrs {
                return Err(RunError::Exec(format!("internal: replay unit {k} ends with {left} of its {mshrs} MSHR credits")));
            }
        }
        Ok(())
    }

    pub(super) fn replay_tick(&mut self) {
        for u in &mut self.rp.as_mut().expect("replay mode").units {
            if u.clocked {
                u.inst.comp.tick();
            }
        }
    }
}

impl ReplayCause {
    pub const ALL: [ReplayCause; 5] = [ReplayCause::Div, ReplayCause::Bank, ReplayCause::Mshr, ReplayCause::Comq, ReplayCause::Rsv];

    pub fn name(self) -> &'static str {
        match self {
            ReplayCause::Div => "DIV",
            ReplayCause::Bank => "BANK",
            ReplayCause::Mshr => "MSHR",
            ReplayCause::Comq => "COMQ",
            ReplayCause::Rsv => "RSV",
        }
    }
}
