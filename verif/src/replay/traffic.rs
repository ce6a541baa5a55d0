//! Tracker traffic harness: random loads with a configurable hit rate over a fixed-latency
//! memory, driving any [`Component`] with `replay_unit`'s ports (the reference model
//! [`reference`] or the netlist simulation of the generated hardware [`netlist`]), and the
//! naive / credit / predictor comparison table ([`netlist_table`] runs it on the
//! hardware; `cargo bench -p verif --bench replay_traffic` prints it).
//!
//! The world around the unit, per cycle:
//! * **Program**: every warp runs the same loop of `prog_len` static instructions; a
//!   fraction `load_frac` are global loads (replayable, may need an MSHR), the rest ALU
//!   instructions (not replayable, freed at issue). Each static load has its own hit
//!   probability: alternately `h + b*m` and `h - b*m` (`h = hit_rate`, `b = pc_bias`,
//!   `m = min(h, 1-h)`), so the mean is `h` and a per-PC predictor has something to learn.
//! * **Fetch**: one warp per cycle, round-robin among `fill_rdy`, `fill_width`
//!   instructions at its `fill_slot`.
//! * **Scheduler**: one issue per cycle, round-robin over warps with a valid offer. It
//!   skips a load it knows the unit would refuse (`miss_issue_ok = 0` and the load is a
//!   known miss, or the predictor is always-miss), and while `miss_issue_ok = 0` it
//!   prefers non-loads; with the counter predictor it cannot know whether a load will be
//!   refused, and a refused pick wastes the cycle (counted as `refused`).
//! * **Pipeline**: a load reaches the memory stage `pipe` cycles after issue.
//! * **Memory stage**: one access per cycle. With probability `div_rate` it covers only
//!   part of the threads (a DIV hazard: the rest replay, not known to miss). A hit
//!   completes the covered threads. A miss asks the MSHR table (the `mshr_table`
//!   reference model, `mshrs` entries, merge limit 8) for a line drawn from `lines`
//!   lines: merged or allocated, the threads complete; rejected, none do and the load is
//!   known to miss (an MSHR hazard). A load's hit/miss and line are drawn at its first
//!   access and kept while it replays for MSHR hazards (it still misses, same line);
//!   after a DIV split the remaining threads draw again. The hit rate reported is over
//!   loads (first accesses). COMQ and RSV hazards are not modelled.
//! * **Memory**: an allocated MSHR is filled (freed) `mem_lat` cycles later, one fill per
//!   cycle.
//!
//! Reported per configuration: load issues (first issues + replays), loads completed,
//! MSHR hazards (replays caused by a rejected MSHR request), and idle-MSHR cycles: cycles
//! in which the MSHR table had a free entry at the start of the cycle while hazard
//! avoidance held a load back (`miss_issue_ok = 0` and a waiting load known to need an
//! MSHR — a known miss, any load under always-miss — or a picked load was refused). The
//! thesis's Figure 7.12 measures the same effect ("an MSHR using instruction was ready to
//! issue ... and at least one MSHR was available").
//!
//! The harness also checks the unit on every cycle: completions it sends are accepted, a
//! replay carries exactly the threads not yet completed, a fill never lands on a live
//! slot, issued slots match the offer, and (counted, for the credit-tracker property)
//! whether a credited load found the MSHR table full. With the credit tracker it checks
//! the accounting invariant on every cycle: `credit_pool + credited loads in flight +
//! MSHRs in use + net credits in the delay line = mshrs`.

use models::bits::{get_field, mask};
use models::replay::credit_tracker::signed;
use models::replay::mshr_table::MshrTable;
use hw::blocks::replay::replay_unit::ReplayUnitIo;
use models::replay::replay_unit::ReplayUnit;
use sim::Bind;
use hw::blocks::replay::mshr_predictor::PredictorMode;
use hw::blocks::replay::mshr_table::MshrTableParams;
use hw::blocks::replay::replay_unit::{ReplayUnitParams, TrackerKind};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, ComponentExt, NetlistSim, PortId};
use std::collections::VecDeque;
use std::fmt::Write as _;

/// Knobs of the traffic.
#[derive(Clone, Copy, Debug)]
pub struct TrafficCfg {
    /// Mean L1 hit probability of a load access.
    pub hit_rate: f64,
    /// Spread of per-PC hit probabilities around the mean (0: all PCs alike).
    pub pc_bias: f64,
    /// Fraction of static instructions that are global loads.
    pub load_frac: f64,
    /// Cycles from issue to the memory stage.
    pub pipe: u32,
    /// Cycles an MSHR is held (fixed memory latency).
    pub mem_lat: u32,
    /// Probability that an access covers only part of the threads (DIV).
    pub div_rate: f64,
    /// Distinct lines missing accesses draw from (fewer: more merging).
    pub lines: u64,
    /// Static instructions in the loop every warp runs.
    pub prog_len: u32,
    pub seed: u64,
}

impl Default for TrafficCfg {
    fn default() -> Self {
        TrafficCfg {
            hit_rate: 0.5,
            pc_bias: 0.8,
            load_frac: 0.4,
            pipe: 6,
            mem_lat: 200,
            div_rate: 0.05,
            lines: 4096,
            prog_len: 32,
            seed: 1,
        }
    }
}

/// Counts of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrafficStats {
    pub cycles: u64,
    /// Instructions issued (ALU + loads, replays included).
    pub issued: u64,
    /// Load issues, replays included.
    pub load_issues: u64,
    pub load_replays: u64,
    /// Loads whose every thread completed.
    pub loads_done: u64,
    /// Memory-stage accesses and hits.
    pub accesses: u64,
    pub hits: u64,
    /// Misses rejected by the MSHR table (replays caused by an MSHR hazard).
    pub mshr_hazards: u64,
    /// Of those, rejected because no entry was free.
    pub full_hazards: u64,
    /// Cycles a free MSHR sat idle while hazard avoidance held a load back.
    pub idle_mshr_cycles: u64,
    /// Picks the unit refused (wasted issue cycles).
    pub refused: u64,
    /// Credited loads that reached the memory stage with no free MSHR.
    pub credited_without_mshr: u64,
    /// Sum over cycles of MSHRs in use.
    pub mshr_busy: u64,
}

#[derive(Clone, Copy, Debug)]
struct Access {
    due: u64,
    warp: usize,
    slot: usize,
    pc: u32,
    mask: u64,
    credited: bool,
}

#[derive(Clone, Copy, Debug)]
struct Static {
    load: bool,
    p_hit: f64,
}

/// The harness. One instance drives one unit from reset.
pub struct Traffic {
    p: ReplayUnitParams,
    cfg: TrafficCfg,
    rng: ChaCha8Rng,
    prog: Vec<Static>,
    next_pc: Vec<u32>,
    /// Per warp, per slot: the instruction the unit holds there (pc, load).
    payload: Vec<Vec<Option<(u32, bool)>>>,
    /// Per warp, per slot: threads of a load not yet completed.
    remaining: Vec<Vec<u64>>,
    /// Per warp, per slot: the load's (hit, line), drawn at its first access and kept
    /// while it replays for an MSHR hazard (a known miss); drawn again after a DIV split.
    outcome: Vec<Vec<Option<(bool, u64)>>>,
    pipe: VecDeque<Access>,
    returns: VecDeque<(u64, u32)>,
    mshr: MshrTable,
    mshr_ids: [PortId; 17],
    ids: Option<([PortId; 21], [PortId; 15])>,
    /// Net credit deltas of the last `delay` memory-stage cycles (credit tracker check).
    transit: VecDeque<i64>,
    rr_issue: usize,
    rr_fill: usize,
    now: u64,
    pub stats: TrafficStats,
}

const MI_RST: usize = 0;
const MI_REQ_VALID: usize = 1;
const MI_REQ_ADDR: usize = 2;
const MI_FILL_VALID: usize = 4;
const MI_FILL_ENTRY: usize = 5;
const MO_REQ_OK: usize = 8;
const MO_REQ_MERGED: usize = 9;
const MO_REQ_ENTRY: usize = 10;
const MO_FREE_COUNT: usize = 12;
const MO_FILL_OK: usize = 13;

impl Traffic {
    /// `p.mshrs` must be at most 256 (the MSHR table model's limit).
    pub fn new(p: &ReplayUnitParams, cfg: TrafficCfg) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let (h, b) = (cfg.hit_rate, cfg.pc_bias);
        let spread = b * h.min(1.0 - h);
        let mut k = 0;
        let prog = (0..cfg.prog_len)
            .map(|_| {
                let load = rng.random_bool(cfg.load_frac);
                let p_hit = if k % 2 == 0 { h + spread } else { h - spread };
                if load {
                    k += 1;
                }
                Static { load, p_hit: p_hit.clamp(0.0, 1.0) }
            })
            .collect();
        let mp = MshrTableParams { entries: p.mshrs.clamp(1, 256), merge_limit: 8, line_bits: 25, id_bits: 8 };
        let mshr = MshrTable::new(&mp);
        // The MSHR table's ports in port order (the MI_* / MO_* positions).
        let mshr_ids: [PortId; 17] = {
            let t = mp.ids();
            [
                t.rst, t.req_valid, t.req_addr, t.req_id, t.fill_valid, t.fill_entry, t.probe_hit, t.probe_entry, t.req_ok,
                t.req_merged, t.req_entry, t.full, t.free_count, t.fill_ok, t.fill_addr, t.wake_valid, t.wake_ids,
            ]
        };
        let (w, s) = (p.warps as usize, p.slots as usize);
        Traffic {
            p: p.clone(),
            cfg,
            rng,
            prog,
            next_pc: vec![0; w],
            payload: vec![vec![None; s]; w],
            remaining: vec![vec![0; s]; w],
            outcome: vec![vec![None; s]; w],
            pipe: VecDeque::new(),
            returns: VecDeque::new(),
            mshr,
            mshr_ids,
            ids: None,
            transit: VecDeque::new(),
            rr_issue: 0,
            rr_fill: 0,
            now: 0,
            stats: TrafficStats::default(),
        }
    }

    /// A random draw from the harness's generator (for drivers deciding resets).
    pub fn rng_bool(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn clear(&mut self) {
        self.next_pc.fill(0);
        for w in 0..self.payload.len() {
            self.payload[w].fill(None);
            self.remaining[w].fill(0);
            self.outcome[w].fill(None);
        }
        self.pipe.clear();
        self.returns.clear();
        self.transit.clear();
    }

    /// One clock cycle of the harness against `dut`. With `reset`, the unit and the
    /// memory side are reset instead.
    pub fn cycle(&mut self, dut: &mut dyn Component, reset: bool) -> Result<(), String> {
        if self.p.mshrs > 256 {
            return Err(format!("the harness models at most 256 MSHRs, the unit has {}", self.p.mshrs));
        }
        if self.ids.is_none() {
            self.ids = Some(positions(&self.p.bind(dut).map_err(|e| e.to_string())?));
        }
        let (ii, oo) = self.ids.unwrap();
        let now = self.now;
        self.now += 1;
        let err = |m: String| format!("cycle {now}: {m}");
        for id in ii {
            dut.set_u64(id, 0);
        }
        let mi = self.mshr_ids;
        for id in &mi[..6] {
            self.mshr.set_u64(*id, 0);
        }
        if reset {
            self.clear();
            dut.set_u64(ii[0], 1);
            dut.step();
            self.mshr.set_u64(mi[MI_RST], 1);
            self.mshr.step();
            return Ok(());
        }
        self.stats.cycles += 1;
        let slots = self.p.slots as usize;
        let sb = self.p.warp_buffer().slot_bits();
        let full = mask(self.p.simt_width);

        // Memory returns: one fill per cycle.
        if self.returns.front().is_some_and(|(due, _)| *due <= now) {
            let (_, e) = self.returns.pop_front().unwrap();
            self.mshr.set_u64(mi[MI_FILL_VALID], 1);
            self.mshr.set_u64(mi[MI_FILL_ENTRY], e as u64);
        }
        // Memory stage.
        let access = if self.pipe.front().is_some_and(|a| a.due == now) { self.pipe.pop_front() } else { None };
        let mut covered = 0;
        let mut hit = false;
        let mut first_access = false;
        if let Some(a) = access {
            covered = a.mask;
            if a.mask.count_ones() >= 2 && self.rng.random_bool(self.cfg.div_rate) {
                let sub = a.mask & self.rng.random::<u64>();
                if sub != 0 && sub != a.mask {
                    covered = sub;
                }
            }
            let line;
            (hit, line) = match self.outcome[a.warp][a.slot] {
                Some(o) => o,
                None => {
                    first_access = true;
                    (self.rng.random_bool(self.prog[a.pc as usize].p_hit), self.rng.random_range(0..self.cfg.lines.max(1)))
                }
            };
            self.outcome[a.warp][a.slot] = Some((hit, line));
            if !hit {
                self.mshr.set_u64(mi[MI_REQ_VALID], 1);
                self.mshr.set_u64(mi[MI_REQ_ADDR], line);
            }
        }
        self.mshr.eval();
        let free_before = self.mshr.get_u64(mi[MO_FREE_COUNT]);
        let fill_ok = self.mshr.get_bool(mi[MO_FILL_OK]);
        if self.p.tracker == TrackerKind::Credit {
            // pool + credited loads in flight + MSHRs in use + credits in transit = mshrs
            let credited = self.pipe.iter().filter(|a| a.credited).count() as i64 + access.is_some_and(|a| a.credited) as i64;
            let in_use = self.p.mshrs as i64 - free_before as i64;
            let want = self.p.mshrs as i64 - credited - in_use - self.transit.iter().sum::<i64>();
            dut.eval();
            let pool = signed(dut.get_u64(oo[14]), self.p.credit().pool_bits());
            if pool != want {
                return Err(err(format!(
                    "credit_pool = {pool}, but mshrs {} - credited loads in flight {credited} - MSHRs in use {in_use} - in transit = {want}",
                    self.p.mshrs
                )));
            }
        }
        self.stats.mshr_busy += self.p.mshrs.min(256) as u64 - free_before;
        let mut cpl = None;
        if let Some(a) = access {
            if first_access {
                self.stats.accesses += 1;
                self.stats.hits += hit as u64;
            }
            if a.credited && free_before == 0 {
                self.stats.credited_without_mshr += 1;
            }
            let (mut completed, mut alloc, mut known_miss) = (covered, false, false);
            if hit {
            } else if self.mshr.get_bool(mi[MO_REQ_OK]) {
                alloc = !self.mshr.get_bool(mi[MO_REQ_MERGED]);
                if alloc {
                    let e = self.mshr.get_u64(mi[MO_REQ_ENTRY]) as u32;
                    self.returns.push_back((now + self.cfg.mem_lat as u64, e));
                }
            } else {
                completed = 0;
                known_miss = true;
                self.stats.mshr_hazards += 1;
                if free_before == 0 {
                    self.stats.full_hazards += 1;
                }
            }
            let v = [
                (9, 1),
                (10, a.warp as u64),
                (11, a.slot as u64),
                (12, completed),
                (13, known_miss as u64),
                (14, 1),
                (15, a.credited as u64),
                (16, alloc as u64),
                (17, !hit as u64),
                (18, a.pc as u64),
            ];
            for (k, x) in v {
                dut.set_u64(ii[k], x);
            }
            cpl = Some((a.warp, a.slot, completed, known_miss));
        }
        dut.set_u64(ii[19], fill_ok as u64);
        dut.set_u64(ii[20], (free_before > 0) as u64);
        if self.p.delay > 0 {
            let (ret, virt) = match access {
                Some(a) => {
                    let alloc = dut_in(dut, ii[16]);
                    ((a.credited && !alloc) as i64, (!a.credited && alloc) as i64)
                }
                None => (0, 0),
            };
            self.transit.push_back(ret - virt + fill_ok as i64);
            if self.transit.len() > self.p.delay as usize {
                self.transit.pop_front();
            }
        }
        dut.eval();

        // What the unit offers.
        let ov = dut.get_u64(oo[0]);
        let okm = dut.get_u64(oo[2]);
        let oslots = dut.get(oo[3]).to_vec();
        let frdy = dut.get_u64(oo[4]);
        let miss_ok = dut.get_bool(oo[6]);
        let warps = self.p.warps as usize;
        let offer = |w: usize| -> Option<(usize, u32, bool)> {
            if ov >> w & 1 == 0 {
                return None;
            }
            let s = get_field(&oslots, w * sb as usize, sb) as usize;
            self.payload[w][s].map(|(pc, load)| (s, pc, load))
        };
        // A valid offer must name an instruction the harness filled.
        for w in 0..warps {
            if ov >> w & 1 != 0 && offer(w).is_none() {
                return Err(err(format!("warp {w} offers slot {} which holds no instruction", get_field(&oslots, w * sb as usize, sb))));
            }
        }
        let certain_refusal = |w: usize, load: bool| {
            load && !miss_ok && (self.p.pred_mode == PredictorMode::AlwaysMiss || okm >> w & 1 != 0)
        };
        let held_back = (0..warps).any(|w| offer(w).is_some_and(|(_, _, load)| certain_refusal(w, load)));

        // Fetch.
        let mut fill = None;
        for k in 0..warps {
            let w = (self.rr_fill + k) % warps;
            if frdy >> w & 1 != 0 {
                fill = Some(w);
                self.rr_fill = (w + 1) % warps;
                break;
            }
        }
        if let Some(w) = fill {
            dut.set_u64(ii[1], w as u64);
            dut.set_u64(ii[2], self.p.fill_width as u64);
        }
        // Scheduler: round-robin; while the tracker is closed, instructions it cannot
        // throttle (non-loads) go first, then loads that may be predicted to hit.
        let mut pick = None;
        for pass in 0..2 {
            for k in 0..warps {
                let w = (self.rr_issue + k) % warps;
                if let Some((s, pc, load)) = offer(w) {
                    let later = !miss_ok && load && pass == 0;
                    if !certain_refusal(w, load) && !later {
                        pick = Some((w, s, pc, load));
                        break;
                    }
                }
            }
            if pick.is_some() {
                break;
            }
        }
        if let Some((w, _, pc, load)) = pick {
            let v = [(3, 1), (4, w as u64), (5, load as u64), (6, load as u64), (7, pc as u64), (8, full)];
            for (k, x) in v {
                dut.set_u64(ii[k], x);
            }
        }
        dut.eval();
        let iss_ok = dut.get_bool(oo[7]);
        let iss_slot = dut.get_u64(oo[8]) as usize;
        let iss_replay = dut.get_bool(oo[9]);
        let iss_pam = dut.get_u64(oo[10]);
        let credited = dut.get_bool(oo[12]);
        let fill_slot = dut.get_u64(oo[5]) as usize;
        if cpl.is_some() && !dut.get_bool(oo[13]) {
            return Err(err("the unit rejected a legal completion".into()));
        }
        let refused = pick.is_some() && !iss_ok;
        if refused {
            self.stats.refused += 1;
        }
        if free_before > 0 && (held_back || (refused && pick.is_some_and(|x| x.3))) {
            self.stats.idle_mshr_cycles += 1;
        }
        dut.tick();
        self.mshr.tick();

        // The world after the edge.
        if let Some((w, s, completed, known_miss)) = cpl {
            let r = self.remaining[w][s];
            if completed & !r != 0 {
                return Err(err(format!("warp {w} slot {s}: threads {:#x} complete twice", completed & !r)));
            }
            self.remaining[w][s] = r & !completed;
            if self.remaining[w][s] == 0 {
                self.stats.loads_done += 1;
                self.payload[w][s] = None;
                self.outcome[w][s] = None;
            } else if !known_miss {
                self.outcome[w][s] = None; // DIV: the rest goes to another address
            }
        }
        if let (true, Some((w, s, pc, load))) = (iss_ok, pick) {
            if iss_slot != s {
                return Err(err(format!("warp {w} issued slot {iss_slot}, offered {s}")));
            }
            self.rr_issue = (w + 1) % warps;
            self.stats.issued += 1;
            if iss_replay {
                if !load || iss_pam != self.remaining[w][s] {
                    return Err(err(format!(
                        "warp {w} slot {s} replays threads {iss_pam:#x}, not yet completed {:#x}",
                        self.remaining[w][s]
                    )));
                }
                self.stats.load_replays += 1;
            } else if load {
                self.remaining[w][s] = iss_pam;
            } else {
                self.payload[w][s] = None;
            }
            if load {
                self.stats.load_issues += 1;
                self.pipe.push_back(Access { due: now + self.cfg.pipe as u64, warp: w, slot: s, pc, mask: iss_pam, credited });
            }
        }
        if let Some(w) = fill {
            for k in 0..self.p.fill_width as usize {
                let s = (fill_slot + k) % slots;
                if self.payload[w][s].is_some() {
                    return Err(err(format!("warp {w}: fill overwrote live slot {s}")));
                }
                let pc = self.next_pc[w];
                self.payload[w][s] = Some((pc, self.prog[pc as usize].load));
                self.next_pc[w] = (pc + 1) % self.cfg.prog_len;
            }
        }
        Ok(())
    }
}

/// An input's current value as the harness set it.
fn dut_in(dut: &dyn Component, id: PortId) -> bool {
    dut.get_u64(id) & 1 != 0
}

/// Run `cycles` cycles of traffic (after one reset cycle) on `dut`, a `replay_unit` with
/// parameters `p`.
pub fn run(dut: &mut dyn Component, p: &ReplayUnitParams, cfg: TrafficCfg, cycles: u64) -> Result<TrafficStats, String> {
    let mut t = Traffic::new(p, cfg);
    t.cycle(dut, true)?;
    for _ in 0..cycles {
        t.cycle(dut, false)?;
    }
    Ok(t.stats)
}

/// Makes a `replay_unit` engine (reference model or netlist) for a parameter set.
pub type UnitFactory = dyn Fn(&ReplayUnitParams) -> Result<Box<dyn Component>, String>;

/// One row of the comparison.
#[derive(Clone, Debug)]
pub struct Row {
    pub tracker: TrackerKind,
    pub pred: PredictorMode,
    pub delay: u32,
    pub stats: TrafficStats,
}

/// Run every tracker / predictor combination (plus plain replay without a tracker) for
/// each delay, on units made by `make` (e.g. the reference model), from `base` params.
pub fn compare(
    make: &UnitFactory,
    base: &ReplayUnitParams,
    cfg: TrafficCfg,
    cycles: u64,
    delays: &[u32],
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let mut configs = vec![(TrackerKind::None, PredictorMode::AlwaysHit, 0)];
    for &d in delays {
        for t in [TrackerKind::Naive, TrackerKind::Credit] {
            for m in [PredictorMode::AlwaysHit, PredictorMode::AlwaysMiss, PredictorMode::Counter] {
                configs.push((t, m, d));
            }
        }
    }
    for (tracker, pred, delay) in configs {
        let p = ReplayUnitParams { tracker, pred_mode: pred, delay, ..base.clone() };
        let mut dut = make(&p)?;
        let stats = run(dut.as_mut(), &p, cfg, cycles).map_err(|e| format!("{}/{}/delay {delay}: {e}", tracker.name(), pred.name()))?;
        rows.push(Row { tracker, pred, delay, stats });
    }
    Ok(rows)
}

/// The reference model as a factory for [`compare`].
pub fn reference(p: &ReplayUnitParams) -> Result<Box<dyn Component>, String> {
    Ok(Box::new(ReplayUnit::new(p)))
}

/// The netlist simulation of the generated `replay_unit` hardware (warp buffers,
/// tracker and predictor as sub-module instances) as a factory for [`compare`].
pub fn netlist(p: &ReplayUnitParams) -> Result<Box<dyn Component>, String> {
    let top = hw::Block::elaborate(p).map_err(|e| e.to_string())?;
    Ok(Box::new(NetlistSim::new(&top)))
}

/// The tracker comparison, run on the netlist simulation of the hardware: plain replay,
/// then naive and credit trackers with each predictor (always-hit, always-miss, per-PC
/// counters) for each signalling delay, `cycles` cycles each, at `base` (e.g. the
/// thesis's 64 warps and 32 MSHRs). Returns the Markdown table.
pub fn netlist_table(base: &ReplayUnitParams, cfg: TrafficCfg, cycles: u64, delays: &[u32]) -> Result<String, String> {
    let rows = compare(&netlist, base, cfg, cycles, delays)?;
    Ok(table(&rows))
}

/// Print the tracker comparison of the thesis-sized unit (64 warps, 8 slots, 32 MSHRs)
/// run on the netlist simulation of the hardware: `cycles` cycles per configuration,
/// default traffic, signalling delays 0 and 4 (what `make bench` shows).
pub fn print_netlist_table(cycles: u64) -> Result<(), String> {
    let p = ReplayUnitParams::default();
    let cfg = TrafficCfg::default();
    println!(
        "replay unit tracker comparison: netlist simulation of the generated hardware, {} warps, {} slots, {} MSHRs, \
         {cycles} cycles per configuration; traffic: hit rate {}, loads {:.0}% of instructions, {} cycles issue to memory \
         stage, {} cycles memory latency, DIV rate {}",
        p.warps,
        p.slots,
        p.mshrs,
        cfg.hit_rate,
        cfg.load_frac * 100.0,
        cfg.pipe,
        cfg.mem_lat,
        cfg.div_rate
    );
    println!("{}", netlist_table(&p, cfg, cycles, &[0, 4])?);
    Ok(())
}

/// A Markdown table of [`compare`] rows.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| tracker | predictor | delay | all issues | load issues | replays | loads done | MSHR hazards (table full) | idle-MSHR cycles | refused picks | hit rate | MSHRs busy |\n");
    s.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let st = &r.stats;
        let pred = if r.tracker == TrackerKind::None { "-" } else { r.pred.name() };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {:.2} | {:.1} |",
            r.tracker.name(),
            pred,
            r.delay,
            st.issued,
            st.load_issues,
            st.load_replays,
            st.loads_done,
            st.mshr_hazards,
            st.full_hazards,
            st.idle_mshr_cycles,
            st.refused,
            st.hits as f64 / st.accesses.max(1) as f64,
            st.mshr_busy as f64 / st.cycles.max(1) as f64,
        );
    }
    s
}


/// The unit's inputs and outputs in port order (the positions the harness
/// indexes: inputs `rst` = 0 .. `mshr_avail` = 20, outputs `offer_valid` = 0 ..
/// `credit_pool` = 14).
fn positions(io: &ReplayUnitIo<PortId>) -> ([PortId; 21], [PortId; 15]) {
    (
        [
            io.rst, io.fill_warp, io.fill_count, io.iss_valid, io.iss_warp, io.iss_load, io.iss_replayable, io.iss_pc,
            io.iss_mask, io.cpl_valid, io.cpl_warp, io.cpl_slot, io.cpl_mask, io.cpl_miss, io.mem_valid, io.mem_credited,
            io.mem_alloc, io.mem_miss, io.mem_pc, io.mshr_free, io.mshr_avail,
        ],
        [
            io.offer_valid, io.offer_replay, io.offer_known_miss, io.offer_slot, io.fill_rdy, io.fill_slot, io.miss_issue_ok,
            io.iss_ok, io.iss_slot, io.iss_replay, io.iss_pam, io.iss_pred_miss, io.iss_credited, io.cpl_accept,
            io.credit_pool,
        ],
    )
}
