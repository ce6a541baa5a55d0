//! The clocked SM (SM.md §3): GPGPU-Sim's pipeline, stages run back to front
//! each cycle so that every stage sees its neighbours' state of the previous
//! cycle and all advance together:
//!
//! memory stage (responses, one line per cycle) -> writeback -> SP/SFU
//! pipelines -> operand collector (bank reads, dispatch) -> issue
//! (schedulers, scoreboard block) -> fetch/decode -> CTA launch, then every
//! hardware block is evaluated and clocked once.
//!
//! Values come from the functional model (`crate::func`), executed when a
//! warp instruction issues; the timing decides only when.

pub mod cae;
pub mod dac;
pub mod ldst;
pub mod pmode;
pub mod op;
pub mod pipes;
pub mod replay;
pub mod sched;

use crate::blocks::{Engine, FetchMatch, MshrTable, PmodeBlock, SbAnswer, Scoreboard};
use crate::config::Config;
use crate::mem::cache::PENDING;
use kernel::barrier::{Arrival, CtaBarriers};
use crate::func::{ExecOut, Functional};
use crate::pipeview::Kanata;
use sim::Component;
use crate::stats::{Stall, Stats};
use crate::trace::{Layout, Sig, SmTrace};
use ldst::MemStage;
use op::{Access, Control, Op, Pool, Space, Unit};
use pipes::{Collector, Pipe};
use sched::Scheduler;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;

/// How an instruction enters the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IssueKind {
    /// N-mode, baseline: the scoreboard is told at issue.
    N,
    /// N-mode under the P-mode unit (which already decided ISSUE).
    PmN,
    /// P-mode pre-execution (with its P-queue index when recorded).
    Preexec(Option<u32>),
    /// P-mode pre-load.
    Preload,
}

/// What a picked warp issues: its next instruction, or (replay) a retained
/// one again.
#[derive(Clone, Copy)]
enum Candidate {
    First,
    Replay(u32),
}

/// A decoded instruction waiting in a warp's instruction buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IbEntry {
    op: u32,
    /// Cycle it arrives from fetch/decode.
    ready: u64,
    uid: u64,
    /// Replay mode: its warp-buffer slot.
    slot: u8,
    /// P-mode: moved from the P-queue at fetch (`Reuse.Rdy`), with the
    /// rename registers of its results (`Phy.Dst`).
    reuse: Option<[u16; op::MAX_WRITES]>,
}

/// Timing state of one warp slot.
#[derive(Clone, Debug, Default)]
struct Warp {
    cta: u16,
    ibuf: VecDeque<IbEntry>,
    /// Next instruction to fetch (index = PC / 8).
    fetch_op: u32,
    /// A control instruction was fetched: no fetch until it issues.
    fetch_blocked: bool,
    /// `core.fetch_when_empty`: the cycle a warp whose buffer was flushed
    /// may fetch again (GPGPU-Sim fetches past a branch and flushes the
    /// stale buffer at its scheduler the cycle after the branch issues).
    fetch_from: u64,
    at_barrier: bool,
    /// A `bar.red` waiting for its result: (instruction, lanes).
    reduced: Option<(u32, u32)>,
    /// Issued instructions not yet complete.
    inflight: u32,
    /// The scoreboard's answer for the instruction-buffer head (cleared
    /// when the head changes or a register of this warp is written back).
    sb: Option<SbAnswer>,
    /// P-mode unit: its last N-mode answer for the head when that was not
    /// carried out (kept and cleared with `sb`).
    kept: Kept,
}

/// An answer of the P-mode unit the scan did not carry out. It stands
/// until the warp changes, so the scan need not offer the warp again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Kept {
    #[default]
    Nothing,
    /// A TRIGGER deferred behind warps that could issue.
    Trigger,
    /// An ISSUE that found no free collector unit of its kind.
    Issue,
    /// A P-mode STALL met with no rename register reserved by a lower
    /// port, with the scoreboard's answer and the rename registers then
    /// free: it stands while no more are free (the unit's choice of a
    /// register depends on how many are free, its first P-mode rule stalls
    /// a warp without one), so the scan need not offer the warp again.
    Starved(crate::blocks::SbAnswer, u32),
}

impl Warp {
    /// Something of the warp changed: its kept answers are stale.
    fn forget(&mut self) {
        self.sb = None;
        self.kept = Kept::Nothing;
    }
}

/// A set of warp slots as two words: a member test is one shift (a
/// `u128` shifted by a variable amount takes several).
#[derive(Clone, Copy)]
struct Warps([u64; 2]);

impl Warps {
    fn of(m: u128) -> Warps {
        Warps([m as u64, (m >> 64) as u64])
    }

    fn has(self, w: u16) -> bool {
        self.0[(w >> 6) as usize & 1] >> (w & 63) & 1 == 1
    }
}

/// A CTA slot.
#[derive(Clone, Debug)]
struct Cta {
    warps: Vec<u16>,
    threads: u32,
    /// Warps not yet exited.
    running: u32,
    bars: CtaBarriers,
    /// Warps not yet finished.
    unfinished: u32,
}

/// A run that cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Exec(String),
    #[error("deadlock: no progress for {cycles} cycles at cycle {at}\n{report}")]
    Deadlock { cycles: u64, at: u64, report: String },
    #[error("stopped after {0} cycles, the cycle budget (--max-cycles, limits.max_cycles), before the kernel finished ({1})")]
    MaxCycles(u64, String),
    #[error("instruction budget of {0} warp instructions (--max-instructions, limits.max_instructions) exceeded before the kernel finished ({1})")]
    MaxInstructions(u64, String),
    #[error("kernel `{kernel}` can never finish: at cycle {at} every live warp is stuck ({detail}): nothing left to run can change memory")]
    NoProgress { kernel: String, at: u64, detail: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Optional outputs of a run.
#[derive(Default)]
pub struct Outputs {
    pub pipeview: Option<Kanata<Box<dyn Write + Send>>>,
    /// VCD of cycles `from..=to` (and its GTKWave save file).
    pub vcd: Option<VcdRequest>,
    /// Record every P-mode unit decision that happens (`Sm::actions`).
    pub log_actions: bool,
    /// Record every address tuple the affine warps enqueue (DAC mode,
    /// `Sm::dac_tuples`).
    pub log_dac: bool,
    /// Record every replay-mode warp-buffer event (`Sm::replay_events`).
    pub log_replay: bool,
    /// Scan every scheduler and clock every block every cycle (no
    /// idle-scheduler shortcut, no clock gating); tests compare the two.
    pub exhaustive: bool,
    /// Called every [`PROGRESS_CYCLES`] cycles (a progress display).
    pub progress: Option<ProgressFn>,
    /// A whole GPU: threads stepping its SMs (0 or 1: one). The results
    /// do not depend on it.
    pub threads: usize,
}

/// The livelock check of a run (one SM's or a GPU's): stuck — every warp
/// spinning with memory unchanged or waiting at a barrier — at two looks
/// `spacing` cycles apart, far enough that a CTA that could still launch
/// would have, with no memory write or CTA launch between them.
pub(crate) struct StuckWatch {
    pub spacing: u64,
    /// (memory generation, CTAs launched or handed out) when first seen stuck.
    since: Option<(u64, u32)>,
}

impl StuckWatch {
    pub fn new(cfg: &Config) -> StuckWatch {
        StuckWatch { spacing: (2 * cfg.core.cta_launch_interval as u64).max(4096), since: None }
    }

    /// One look: where the warps are, if stuck now as at the last look in
    /// the same `state`.
    pub fn look(&mut self, state: (u64, u32), stuck: Option<String>) -> Option<String> {
        match (stuck, self.since) {
            (Some(detail), Some(then)) if then == state => Some(detail),
            (Some(_), _) => {
                self.since = Some(state);
                None
            }
            (None, _) => {
                self.since = None;
                None
            }
        }
    }
}

/// A progress callback.
pub type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

/// Cycles between two [`Outputs::progress`] calls.
pub const PROGRESS_CYCLES: u64 = 1 << 14;

/// How far a run is.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub cycles: u64,
    pub warp_insts: u64,
    pub ctas_done: u64,
    pub ctas: u64,
}

pub struct VcdRequest {
    pub path: std::path::PathBuf,
    pub from: u64,
    pub to: u64,
    /// Also dump memories and register arrays of netlist blocks.
    pub memories: bool,
}

/// The block at issue: the plain scoreboard, or (P-mode) the P-mode unit
/// with its own scoreboard.
pub enum Issuer {
    Sb(Box<Scoreboard>),
    Pm(Box<PmodeBlock>),
}

impl Issuer {
    pub fn inst(&self) -> &crate::blocks::BlockInst {
        match self {
            Issuer::Sb(b) => &b.inst,
            Issuer::Pm(b) => &b.inst,
        }
    }
    fn inst_mut(&mut self) -> &mut crate::blocks::BlockInst {
        match self {
            Issuer::Sb(b) => &mut b.inst,
            Issuer::Pm(b) => &mut b.inst,
        }
    }
    fn begin_cycle(&mut self) {
        match self {
            Issuer::Sb(b) => b.begin_cycle(),
            Issuer::Pm(b) => b.begin_cycle(),
        }
    }
    fn commanded(&self) -> bool {
        match self {
            Issuer::Sb(b) => b.commanded,
            Issuer::Pm(b) => b.commanded,
        }
    }
    fn wb_free(&self) -> usize {
        match self {
            Issuer::Sb(b) => b.wb_free(),
            Issuer::Pm(b) => b.wb_free(),
        }
    }
    /// Register `reg` of warp `w` written back; a P-mode result with its
    /// P-queue index if it was recorded.
    fn writeback(&mut self, w: u16, reg: u8, pmode: bool, pq: Option<u32>) {
        match self {
            Issuer::Sb(b) => b.writeback(w, reg),
            Issuer::Pm(b) => b.writeback(w, reg, pmode, pq),
        }
    }
    /// The plain scoreboard (the baseline issue path only).
    fn sb(&mut self) -> &mut Scoreboard {
        match self {
            Issuer::Sb(b) => b,
            Issuer::Pm(_) => unreachable!("the baseline issue path with the P-mode unit"),
        }
    }
    fn name(&self) -> &'static str {
        match self {
            Issuer::Sb(_) => "sb",
            Issuer::Pm(_) => "pm",
        }
    }
}

/// A scheduler found nothing to issue; until `until` or an event that can
/// change its scan (a writeback to or fetch for one of its warps, a freed
/// collector unit, a barrier release, a launch or exit), every cycle has the
/// same outcome.
#[derive(Clone, Copy, Debug)]
struct Idle {
    stall: Stall,
    until: u64,
}

/// What each stage did this cycle (for the VCD).
#[derive(Default)]
struct View {
    fetch: Vec<(u16, u32)>,
    /// Per scheduler: the issued (warp, op), and the cycle's category.
    issue: Vec<(Option<(u16, u32)>, Stall)>,
    wb: Vec<(u16, u32)>,
}

/// The VCD being written and its stage signals.
struct Tracing {
    t: SmTrace,
    fetch: Vec<[Sig; 3]>,
    issue: Vec<[Sig; 4]>,
    opcoll_busy: Sig,
    sp_busy: Sig,
    sfu_busy: Sig,
    mem: [Sig; 6],
    wb: Vec<[Sig; 3]>,
    gtkw_path: std::path::PathBuf,
}

pub struct Sm {
    cfg: Config,
    now: u64,
    func: Functional,
    ops: Arc<[Op]>,
    pool: Pool,
    next_uid: u64,
    warps: Vec<Warp>,
    ctas: Vec<Option<Cta>>,
    /// CTAs launched here.
    next_cta: u32,
    /// In a GPU: the CTAs its CTA scheduler gave this SM, not yet launched
    /// (`None`: a single SM runs the whole grid in order).
    given: Option<VecDeque<u32>>,
    ctas_finished: u64,
    last_launch: Option<u64>,
    used_warps: u32,
    used_threads: u32,
    used_regs: u32,
    used_shared: u32,
    scheds: Vec<Scheduler>,
    pub sb: Issuer,
    /// P-mode state per warp slot (empty outside P-mode configurations).
    pm: Vec<pmode::PWarp>,
    pm_extra: pmode::PmSm,
    /// Replay mode: the replay units and what the SM keeps for them.
    rp: Option<Box<replay::ReplaySm>>,
    /// DAC mode with a decoupled kernel: the affine warps and the DAC unit.
    dac: Option<Box<dac::DacSm>>,
    /// CAE mode: the registers' affine tags and the affine units.
    cae: Option<Box<cae::CaeSm>>,
    oc: Collector,
    sp: Vec<Pipe>,
    sfu: Vec<Pipe>,
    pub mem: MemStage,
    /// Completed instructions waiting for a writeback port.
    wbq: VecDeque<u32>,
    fetch_rr: usize,
    /// The instruction cache (`None`: ideal).
    icache: Option<crate::mem::cache::FillCache>,
    /// Address of the kernel's first instruction (`crate::run::Warm`).
    code_base: u64,
    /// Warp slots that may be able to fetch (bit per slot): set by every
    /// event that can make a warp fetchable (launch, issue, flush), cleared
    /// when fetch finds it cannot.
    fetch_candidates: u128,
    /// Bit w: the slot holds a warp of a running CTA that has not finished.
    /// In words of their own, so that the schedulers' scans read no warp.
    live: u128,
    /// Bit w: the warp executed its last instruction (it waits for its
    /// results, then finishes).
    exited: u128,
    pub stats: Stats,
    last_progress: u64,
    out: Outputs,
    view: View,
    tracing: Option<Box<Tracing>>,
    actions: Vec<pmode::ActionEvent>,
    sched_idle: Vec<Option<Idle>>,
    // Reused buffers: the cycle loop does not allocate.
    scratch_order: Vec<u16>,
    scratch_insts: Vec<u32>,
    scratch_uids: Vec<u64>,
}

impl Sm {
    fn is_live(&self, w: u16) -> bool {
        self.live >> w & 1 == 1
    }

    fn is_exited(&self, w: u16) -> bool {
        self.exited >> w & 1 == 1
    }

    /// The warps that are live and have not exited.
    fn running(&self) -> u128 {
        self.live & !self.exited
    }

    pub fn new(cfg: Config, func: Functional, engine: Engine, mut out: Outputs) -> Result<Sm, String> {
        let vcd = out.vcd.take();
        let ops = func.ops(&cfg)?;
        let operands = crate::blocks::Operands::of(&ops);
        let sb = if cfg.mode == crate::config::Mode::Pmode {
            let mut pm = PmodeBlock::new(&cfg, engine, operands)?;
            pm.reset(&pmode::compiler_used(&cfg, &func));
            Issuer::Pm(Box::new(pm))
        } else {
            let mut sb = Scoreboard::new(&cfg, engine, operands)?;
            sb.reset();
            Issuer::Sb(Box::new(sb))
        };
        let mut mshr = MshrTable::new(&cfg, engine)?;
        mshr.reset();
        let c = &cfg.core;
        let scheds = (0..c.schedulers).map(|k| Scheduler::new(k, c.policy, c.schedulers, c.max_warps, c.two_level_active)).collect();
        let o = &cfg.operand_collector;
        let oc = Collector::new(o.units_sp, o.units_sfu, o.units_mem, o.units_generic, o.banks);
        let dac = match (cfg.mode, func.affine_kernel(), func.affine_ops(&cfg)) {
            (crate::config::Mode::Dac, Some(a), Some(aops)) => {
                let mut d = dac::DacSm::new(&cfg, a, aops?, engine)?;
                d.log = out.log_dac.then(Vec::new);
                Some(Box::new(d))
            }
            _ => None,
        };
        let stats = Stats {
            kernel: func.kernel_name().to_string(),
            config: cfg.name.clone(),
            mode: cfg.mode.to_string(),
            policy: cfg.core.policy.to_string(),
            engine: sb.inst().engine().to_string(),
            variant: if cfg.mode == crate::config::Mode::Replay { cfg.replay.variant() } else { String::new() },
            ..Stats::default()
        };
        let mut sm = Sm {
            now: 0,
            ops,
            pool: Pool::new(),
            next_uid: 0,
            warps: vec![Warp { ibuf: VecDeque::with_capacity(c.ibuffer_entries as usize), ..Warp::default() }; c.max_warps as usize],
            ctas: vec![None; c.max_ctas as usize],
            next_cta: 0,
            given: None,
            ctas_finished: 0,
            last_launch: None,
            used_warps: 0,
            used_threads: 0,
            used_regs: 0,
            used_shared: 0,
            scheds,
            pm: vec![pmode::PWarp::default(); c.max_warps as usize],
            pm_extra: pmode::PmSm::default(),
            rp: if cfg.mode == crate::config::Mode::Replay {
                let mut rp = replay::ReplaySm::new(&cfg, engine)?;
                rp.log = out.log_replay.then(Vec::new);
                Some(Box::new(rp))
            } else {
                None
            },
            dac,
            cae: (cfg.mode == crate::config::Mode::Cae).then(|| Box::new(cae::CaeSm::new(cfg.cae.units, cfg.core.max_warps, &func))),
            sb,
            oc,
            sp: (0..cfg.units.sp).map(|_| Pipe::default()).collect(),
            sfu: (0..cfg.units.sfu).map(|_| Pipe::default()).collect(),
            mem: MemStage::new(&cfg, mshr),
            wbq: VecDeque::new(),
            fetch_rr: 0,
            icache: cfg.l1.read_only_cache(cfg.l1.icache_sets, cfg.l1.icache_ways, cfg.l1.icache_line, cfg.l1.icache_miss_latency),
            code_base: 0,
            fetch_candidates: 0,
            live: 0,
            exited: 0,
            stats,
            last_progress: 0,
            view: View::default(),
            tracing: None,
            actions: Vec::new(),
            sched_idle: vec![None; c.schedulers as usize],
            func,
            cfg,
            out,
            scratch_order: Vec::new(),
            scratch_insts: Vec::new(),
            scratch_uids: Vec::new(),
        };
        if let Some(v) = vcd {
            sm.open_trace(v).map_err(|e| e.to_string())?;
        }
        Ok(sm)
    }

    fn open_trace(&mut self, v: VcdRequest) -> std::io::Result<()> {
        let mut l = Layout::new();
        let c = &self.cfg;
        let fetch = (0..c.core.fetch_width).map(|i| {
            let s = format!("fetch{i}");
            [l.add(&s, "valid", 1), l.add(&s, "warp", 8), l.add(&s, "pc", 32)]
        }).collect();
        let issue = (0..c.core.schedulers).map(|k| {
            let s = format!("issue{k}");
            [l.add(&s, "valid", 1), l.add(&s, "warp", 8), l.add(&s, "pc", 32), l.add(&s, "stall", 3)]
        }).collect();
        let opcoll_busy = l.add("opcoll", "busy_units", 8);
        let sp_busy = l.add("exec", "sp_busy", 1);
        let sfu_busy = l.add("exec", "sfu_busy", 1);
        let mem = [
            l.add("mem", "valid", 1),
            l.add("mem", "warp", 8),
            l.add("mem", "pc", 32),
            l.add("mem", "hazard", 3),
            l.add("mem", "comq_used", 16),
            l.add("mem", "mshr_used", 9),
        ];
        let wb = (0..c.units.writeback_width).map(|j| {
            let s = format!("wb{j}");
            [l.add(&s, "valid", 1), l.add(&s, "warp", 8), l.add(&s, "pc", 32)]
        }).collect();
        let t = SmTrace::create(&v.path, v.from, v.to, l, &self.traced_blocks(), v.memories)?;
        self.tracing = Some(Box::new(Tracing { t, fetch, issue, opcoll_busy, sp_busy, sfu_busy, mem, wb, gtkw_path: v.path.with_extension("gtkw") }));
        Ok(())
    }

    /// Write this cycle's values to the VCD.
    fn trace_cycle(&mut self) -> std::io::Result<()> {
        let Some(tr) = self.tracing.as_mut() else { return Ok(()) };
        if !tr.t.wants(self.now) {
            return Ok(());
        }
        let pc = |op: u32| op as u64 * 8;
        for (i, s) in tr.fetch.iter().enumerate() {
            let v = self.view.fetch.get(i).copied();
            tr.t.set(s[0], v.is_some() as u64);
            tr.t.set(s[1], v.map_or(0, |x| x.0 as u64));
            tr.t.set(s[2], v.map_or(0, |x| pc(x.1)));
        }
        for (k, s) in tr.issue.iter().enumerate() {
            let (v, stall) = self.view.issue.get(k).copied().unwrap_or((None, Stall::NoInstLeft));
            tr.t.set(s[0], v.is_some() as u64);
            tr.t.set(s[1], v.map_or(0, |x| x.0 as u64));
            tr.t.set(s[2], v.map_or(0, |x| pc(x.1)));
            tr.t.set(s[3], stall as u64);
        }
        tr.t.set(tr.opcoll_busy, self.oc.occupied() as u64);
        tr.t.set(tr.sp_busy, self.sp.iter().any(|p| p.busy()) as u64);
        tr.t.set(tr.sfu_busy, self.sfu.iter().any(|p| p.busy()) as u64);
        let cur = self.mem.current().map(|i| self.pool.get(i));
        tr.t.set(tr.mem[0], cur.is_some() as u64);
        tr.t.set(tr.mem[1], cur.map_or(0, |i| i.warp as u64));
        tr.t.set(tr.mem[2], cur.map_or(0, |i| pc(i.op)));
        tr.t.set(tr.mem[3], self.mem.hazard_now as u64);
        tr.t.set(tr.mem[4], self.mem.lower.queue_len() as u64);
        let used = self.mem.mshr_occupied();
        tr.t.set(tr.mem[5], used);
        for (j, s) in tr.wb.iter().enumerate() {
            let v = self.view.wb.get(j).copied();
            tr.t.set(s[0], v.is_some() as u64);
            tr.t.set(s[1], v.map_or(0, |x| x.0 as u64));
            tr.t.set(s[2], v.map_or(0, |x| pc(x.1)));
        }
        let mut tr = self.tracing.take().expect("tracing");
        let blocks: Vec<&crate::blocks::BlockInst> = self.traced_blocks().into_iter().map(|(_, b)| b).collect();
        let r = tr.t.sample(self.now, &blocks);
        self.tracing = Some(tr);
        r
    }

    /// The blocks in the VCD, with their scope names.
    fn traced_blocks(&self) -> Vec<(&'static str, &crate::blocks::BlockInst)> {
        const REPLAY: [&str; 4] = ["replay0", "replay1", "replay2", "replay3"];
        let mut v = vec![(self.sb.name(), self.sb.inst()), ("mshr", &self.mem.mshr.inst)];
        if let Some(d) = &self.dac {
            v.push(("dac", d.block()));
        }
        if let Some(rp) = &self.rp {
            v.extend(rp.units.iter().enumerate().map(|(k, u)| (REPLAY[k], &u.inst)));
        }
        v
    }

    /// The functional model (final memory after `run`).
    pub fn functional(&self) -> &Functional {
        &self.func
    }

    /// The final global memory (`None` in a GPU: the GPU has it) and the
    /// P-mode decisions logged.
    pub fn finish(self) -> (Option<kernel::Memory>, Vec<pmode::ActionEvent>) {
        (self.func.into_memory(), self.actions)
    }

    /// The P-mode decisions logged (`Outputs::log_actions`).
    pub fn take_actions(&mut self) -> Vec<pmode::ActionEvent> {
        std::mem::take(&mut self.actions)
    }

    /// The address tuples the affine warps enqueued (`Outputs::log_dac`).
    pub fn dac_tuples(&mut self) -> Vec<dac::TupleEvent> {
        self.dac.as_mut().and_then(|d| d.log.take()).unwrap_or_default()
    }

    /// The replay-mode events logged (`Outputs::log_replay`).
    pub fn replay_events(&mut self) -> Vec<replay::ReplayEvent> {
        self.rp.as_mut().and_then(|rp| rp.log.take()).unwrap_or_default()
    }

    pub fn cycle_count(&self) -> u64 {
        self.now
    }

    /// Run the kernel to completion.
    pub fn run(&mut self) -> Result<(), RunError> {
        self.check_fits()?;
        let limits = self.cfg.limits.clone();
        let mut watch = StuckWatch::new(&self.cfg);
        loop {
            if self.finished() {
                break;
            }
            self.cycle()?;
            if self.now - self.last_progress > limits.deadlock_cycles {
                return Err(RunError::Deadlock { cycles: limits.deadlock_cycles, at: self.now, report: self.report() });
            }
            if limits.max_cycles != 0 && self.now >= limits.max_cycles {
                return Err(RunError::MaxCycles(limits.max_cycles, self.how_far()));
            }
            if limits.max_instructions != 0 && self.stats.warp_insts > limits.max_instructions {
                return Err(RunError::MaxInstructions(limits.max_instructions, self.how_far()));
            }
            if self.now.is_multiple_of(watch.spacing) {
                if let Some(detail) = watch.look((self.func.generation(), self.next_cta), self.stuck()) {
                    return Err(RunError::NoProgress { kernel: self.func.kernel_name().to_string(), at: self.now, detail });
                }
            }
            if self.now.is_multiple_of(PROGRESS_CYCLES) {
                if let Some(f) = self.out.progress.as_mut() {
                    f(&Progress { cycles: self.now, warp_insts: self.stats.warp_insts, ctas_done: self.ctas_finished, ctas: self.func.num_ctas() as u64 });
                }
            }
        }
        self.finish_stats()
    }

    /// The statistics at the end of a run, and the trace files closed.
    pub fn finish_stats(&mut self) -> Result<(), RunError> {
        self.stats.cycles = self.now;
        self.stats.ipc = if self.now == 0 { 0.0 } else { self.stats.thread_insts as f64 / self.now as f64 };
        self.stats.scheduler_cycles = self.now * self.cfg.core.schedulers as u64;
        self.stats.warp_regs = (self.cfg.core.registers / 32) as u64;
        self.stats.l1 = self.mem.l1_stats;
        self.stats.icache = self.icache.as_ref().map(|c| c.stats).unwrap_or_default();
        self.stats.const_cache = self.mem.const_cache.as_ref().map(|c| c.stats).unwrap_or_default();
        self.stats.hazards = self.mem.hazards;
        self.stats.shared_accesses = self.mem.shared_accesses;
        self.stats.unmapped_reads = self.func.unmapped_reads;
        self.stats.partial_barriers = self.func.partial_barriers;
        self.stats.pmode.n_l1_accesses = self.mem.n_accesses;
        self.stats.pmode.n_l1_hit_or_merge = self.mem.n_hit_or_merge;
        let lower = self.mem.lower.stats();
        self.stats.l2_hits = lower.l2_hits;
        self.stats.l2_misses = lower.l2_misses;
        let stalling = self.cfg.mode != crate::config::Mode::Replay || !self.cfg.replay.squash;
        if stalling {
            self.stats.predicted_max_speedup = self.stats.predicted_max_speedup(self.cfg.units.sp + self.cfg.units.sfu);
        }
        if let Some(d) = &self.dac {
            self.stats.dac = d.stats.clone();
            self.stats.dac.locks_left = self.mem.l1.locks_held();
        }
        if let Some(c) = &self.cae {
            self.stats.cae = c.stats.clone();
        }
        if let Some(m) = &self.mem.mta {
            self.stats.mta = m.stats.clone();
        }
        if let Some(d) = &self.mem.direct {
            self.stats.prefetch = d.stats.clone();
        }
        if self.rp.is_some() {
            let cfg = self.cfg.clone();
            self.replay_finish(&cfg)?;
            self.stats.replay = self.rp.as_ref().expect("replay mode").stats;
        }
        if let Some(k) = self.out.pipeview.take() {
            k.finish()?;
        }
        if let Some(tr) = self.tracing.take() {
            let gtkw = tr.t.finish()?;
            std::fs::write(&tr.gtkw_path, gtkw.render())
                .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", tr.gtkw_path.display())))?;
        }
        Ok(())
    }

    /// Warp instructions so far that changed memory (the no-progress
    /// detector's clock).
    pub fn generation(&self) -> u64 {
        self.func.generation()
    }

    pub fn ctas_finished(&self) -> u64 {
        self.ctas_finished
    }

    /// The last cycle anything moved (issue, writeback, a response).
    pub fn last_progress(&self) -> u64 {
        self.last_progress
    }

    /// In a GPU: perform this cycle's global-memory writes on the GPU's
    /// memory (after every SM has stepped, in SM order).
    pub fn commit(&mut self, memory: &mut kernel::Memory) {
        self.func.commit(memory);
    }

    /// A CTA of this kernel must fit an empty SM, or nothing ever runs.
    pub fn check_fits(&self) -> Result<(), RunError> {
        let c = &self.cfg.core;
        let (threads, warps, regs, shared) = self.func.cta_resources();
        let checks = [
            ("core.max_threads", threads, c.max_threads),
            ("core.max_warps", warps, c.max_warps),
            ("core.registers", regs, c.registers),
            ("core.shared_memory", shared, c.shared_memory),
        ];
        for (key, need, have) in checks {
            if need > have {
                return Err(RunError::Exec(format!(
                    "kernel `{}`: one CTA needs {need} of {key} but the configuration `{}` has {have}",
                    self.func.kernel_name(),
                    self.cfg.name
                )));
            }
        }
        Ok(())
    }

    fn finished(&self) -> bool {
        self.next_cta == self.func.num_ctas() && self.idle()
    }

    /// A GPU's SM with nothing to do until its CTA scheduler gives it a CTA:
    /// no CTA, nothing in flight, every scheduler's last scan found no warp
    /// (baseline or P-mode, no outputs that watch each cycle). Its cycle only
    /// counts the schedulers' idle cycles (and in P-mode the rename registers
    /// held, `Some` of them); a test compares it with the full cycle
    /// (`Outputs::exhaustive`).
    fn quiet(&self) -> Option<Option<u32>> {
        let quiet = !self.out.exhaustive
            && self.tracing.is_none()
            && self.out.pipeview.is_none()
            && self.rp.is_none()
            && self.dac.as_ref().is_none_or(|d| d.idle())
            // MTA's throttle counts every cycle; DirectPrefetch's queue drains.
            && self.mem.mta.is_none()
            && self.mem.direct.as_ref().is_none_or(|d| d.queue.is_empty())
            && self.idle()
            && self.given.is_some()
            && self.wbq.is_empty()
            && self.oc.occupied() == 0
            && !self.sp.iter().chain(&self.sfu).chain(self.cae.iter().flat_map(|c| &c.pipes)).any(|p| p.busy())
            && !self.mem.busy();
        match &self.sb {
            _ if !quiet => None,
            Issuer::Sb(_) => {
                self.sched_idle.iter().all(|i| i.is_some_and(|i| i.stall == Stall::NoInstLeft && i.until == u64::MAX)).then_some(None)
            }
            Issuer::Pm(_) => self.pm_quiet().map(Some),
        }
    }

    /// Start with the instruction and constant caches an earlier launch
    /// left (of the same shape; `l1.warm_read_only`), the kernel's code at
    /// `code_base`.
    pub(crate) fn warm_up(&mut self, c: Option<&crate::run::SmCaches>, code_base: u64) {
        self.code_base = code_base;
        let Some(c) = c.filter(|_| self.cfg.l1.warm_read_only) else { return };
        for (mine, old) in [(&mut self.icache, &c.icache), (&mut self.mem.const_cache, &c.const_cache)] {
            if let (Some(m), Some(o)) = (mine.as_mut(), old) {
                if m.same_shape(o) {
                    *m = o.clone();
                }
            }
        }
    }

    /// The instruction and constant caches for the next launch.
    pub(crate) fn caches(&self) -> crate::run::SmCaches {
        let carry = |c: &Option<crate::mem::cache::FillCache>| c.as_ref().map(|c| c.carried(self.now));
        crate::run::SmCaches { icache: carry(&self.icache), const_cache: carry(&self.mem.const_cache) }
    }

    /// No CTA running or waiting to launch, nothing in flight below the SM.
    pub fn idle(&self) -> bool {
        self.given.as_ref().is_none_or(|q| q.is_empty()) && self.ctas.iter().all(|c| c.is_none()) && !self.mem.lower.busy()
    }

    /// The next CTA to launch here.
    fn next_cta_index(&self) -> Option<u32> {
        match &self.given {
            None => (self.next_cta < self.func.num_ctas()).then_some(self.next_cta),
            Some(q) => q.front().copied(),
        }
    }

    /// Become an SM of a GPU: CTAs come from its CTA scheduler
    /// (`give_cta`), global memory is the GPU's, requests below L1 go to
    /// its interconnect.
    pub fn join_gpu(&mut self, memory: Arc<std::sync::RwLock<kernel::Memory>>) {
        self.given = Some(VecDeque::new());
        self.func.share_memory(memory);
        self.mem.lower.to_port(&self.cfg);
    }

    /// The GPU's CTA scheduler may give this SM a CTA: none is waiting and
    /// one more would fit now (GPGPU-Sim's `can_issue_1block`).
    pub fn can_take_cta(&self) -> bool {
        self.given.as_ref().is_some_and(|q| q.is_empty()) && self.cta_room().is_some()
    }

    pub fn give_cta(&mut self, cta: u32) {
        self.given.as_mut().expect("an SM in a GPU").push_back(cta);
    }

    /// A free CTA slot, if one more CTA's warps, threads, registers and
    /// shared memory fit, and enough warp slots are free.
    fn cta_room(&self) -> Option<usize> {
        let c = &self.cfg.core;
        let (threads, nwarps, regs, shared) = self.func.cta_resources();
        let slot = self.ctas.iter().position(|s| s.is_none())?;
        if self.used_warps + nwarps > c.max_warps
            || self.used_threads + threads > c.max_threads
            || self.used_regs + regs > c.registers
            || self.used_shared + shared > c.shared_memory
        {
            return None;
        }
        self.free_warp_slots(nwarps).map(|_| slot)
    }

    /// Warp slots for a CTA of `n` warps: the first free ones, or in DAC
    /// mode the first `n` consecutive free ones (the `dac_unit` block knows
    /// a CTA's warps by its first, as GPGPU-Sim's CTAs take consecutive
    /// hardware thread ids).
    fn free_warp_slots(&self, n: u32) -> Option<Vec<u16>> {
        let all = self.cfg.core.max_warps as u16;
        if self.dac.is_some() {
            let mut run = 0u16;
            for w in 0..all {
                run = if self.warp_slot_free(w) { run + 1 } else { 0 };
                if run as u32 == n {
                    return Some((w + 1 - run..=w).collect());
                }
            }
            return None;
        }
        let free: Vec<u16> = (0..all).filter(|&w| self.warp_slot_free(w)).take(n as usize).collect();
        (free.len() == n as usize).then_some(free)
    }

    /// A finished warp's slot stays its CTA's until the whole CTA is done
    /// (the CTA's barrier releases walk its warp list). In P-mode a slot is
    /// also busy until the unit has released its warp's rename mappings.
    fn warp_slot_free(&self, w: u16) -> bool {
        !self.is_live(w) && !self.ctas.iter().flatten().any(|c| c.warps.contains(&w)) && self.pm[w as usize].releasing == 0
    }

    /// One clock cycle.
    pub fn cycle(&mut self) -> Result<(), RunError> {
        if let Some(held) = self.quiet() {
            // Nothing can change this cycle: each scheduler's scan would find
            // no warp, as it did last cycle, and no block is commanded.
            for _ in 0..self.scheds.len() {
                self.stats.breakdown.add(Stall::NoInstLeft);
            }
            self.stats.pmode.rename_held_sum += held.unwrap_or(0) as u64;
            self.now += 1;
            return Ok(());
        }
        self.func.clock = self.now;
        self.view.fetch.clear();
        self.view.issue.clear();
        self.view.wb.clear();
        if let Some(k) = self.out.pipeview.as_mut() {
            // Decoded instructions reaching the buffer this cycle wait to issue.
            let live = Warps::of(self.live);
            for warp in self.warps.iter().enumerate().filter(|&(w, _)| live.has(w as u16)).map(|(_, x)| x) {
                for e in warp.ibuf.iter().filter(|e| e.ready == self.now) {
                    let _ = k.stage(self.now, e.uid, "Is");
                }
            }
        }
        self.sb.begin_cycle();
        if matches!(self.sb, Issuer::Pm(_)) {
            self.pm_begin_cycle();
        }
        if self.rp.is_some() {
            self.replay_begin_cycle();
        }
        self.mem.mshr.begin_cycle();
        let mut progress = self.mem.cycle(self.now, &mut self.pool);
        if !self.mem.inst_fills.is_empty() {
            self.code_filled();
        }
        for w in std::mem::take(&mut self.mem.stores_done) {
            self.maybe_finish_warp(w);
        }
        if self.rp.is_some() {
            self.replay_checkpoint();
        }
        let mut done = std::mem::take(&mut self.scratch_insts);
        done.clear();
        std::mem::swap(&mut done, &mut self.mem.done);
        for &inst in &done {
            self.completed(inst);
        }
        self.scratch_insts = done;
        self.stats.warp_regs_sum += (self.used_regs / 32) as u64;
        progress |= self.writeback();
        self.execute();
        if self.dac.is_some() {
            progress |= self.dac_cycle()?;
        }
        if self.mem.direct.is_some() && self.mem.can_accept() {
            // DirectPrefetch: a queued line takes the stage no demand took.
            if let Some((_, idx)) = self.mem.take_direct_prefetch(&mut self.pool, self.next_uid) {
                self.next_uid += 1;
                self.mem.accept(idx);
                progress = true;
            }
        }
        self.collect();
        progress |= if matches!(self.sb, Issuer::Pm(_)) { self.issue_pmode()? } else { self.issue()? };
        self.fetch();
        progress |= self.launch();
        // Clock gating: a block given no command this cycle keeps its state
        // (every block's registers and memories update only under an
        // enable), so its edge is skipped. `exhaustive` clocks every cycle;
        // a test compares the two.
        let traced = self.tracing.as_ref().is_some_and(|t| t.t.wants(self.now));
        let clock_all = self.out.exhaustive || traced;
        if clock_all {
            self.sb.inst_mut().comp.eval();
            self.mem.mshr.inst.comp.eval();
        } else {
            if self.sb.commanded() {
                self.sb.inst_mut().settle_for_edge();
            }
            if self.mem.mshr.commanded {
                self.mem.mshr.inst.settle_for_edge();
            }
        }
        if self.rp.is_some() {
            self.replay_eval(clock_all);
        }
        self.trace_cycle()?;
        if clock_all || self.sb.commanded() {
            self.sb.inst_mut().comp.tick();
        }
        if clock_all || self.mem.mshr.commanded {
            self.mem.mshr.inst.comp.tick();
        }
        if self.rp.is_some() {
            self.replay_tick();
        }
        if matches!(self.sb, Issuer::Pm(_)) {
            self.pm_after_edge()?;
        }
        if progress {
            self.last_progress = self.now;
        }
        self.now += 1;
        Ok(())
    }

    /// The DAC unit's cycle (`dac`): records expanded wake their warps; a
    /// prefetch takes the memory stage if it is free.
    fn dac_cycle(&mut self) -> Result<bool, RunError> {
        let d = self.dac.as_mut().expect("DAC mode");
        let ev = d.cycle(self.now, &mut self.func, &mut self.sp).map_err(RunError::Exec)?;
        let prefetch = if self.mem.can_accept() { d.take_prefetch(&mut self.pool, self.next_uid) } else { None };
        for &w in &ev.fed {
            self.wake_warp(w);
        }
        if let Some((w, idx)) = prefetch {
            self.next_uid += 1;
            self.warps[w as usize].inflight += 1;
            self.mem.accept(idx);
        }
        Ok(ev.progress)
    }

    /// Something scheduler `k`'s scan depends on changed.
    fn wake(&mut self, k: usize) {
        self.sched_idle[k] = None;
    }

    fn wake_warp(&mut self, w: u16) {
        self.wake(w as usize % self.scheds.len());
    }

    fn wake_all(&mut self) {
        self.sched_idle.iter_mut().for_each(|i| *i = None);
    }

    fn new_uid(&mut self) -> u64 {
        self.next_uid += 1;
        self.next_uid - 1
    }

    // ---- CTA launch -----------------------------------------------------

    fn launch(&mut self) -> bool {
        let Some(cta) = self.next_cta_index() else { return false };
        if let Some(t) = self.last_launch {
            if self.now < t + self.cfg.core.cta_launch_interval as u64 {
                return false;
            }
        }
        let Some(slot) = self.cta_room() else { return false };
        let (threads, nwarps, regs, shared) = self.func.cta_resources();
        let free = self.free_warp_slots(nwarps).expect("cta_room found them");
        if let Some(q) = self.given.as_mut() {
            q.pop_front();
        }
        self.next_cta += 1;
        self.last_launch = Some(self.now);
        self.used_warps += nwarps;
        self.used_threads += threads;
        self.used_regs += regs;
        self.used_shared += shared;
        self.func.start_cta(cta, slot as u16, &free);
        for &w in &free {
            let start = self.func.next_op(w).unwrap_or(0);
            let warp = &mut self.warps[w as usize];
            self.live |= 1 << w;
            self.exited &= !(1 << w);
            *warp = Warp { cta: slot as u16, fetch_op: start, ibuf: std::mem::take(&mut warp.ibuf), ..Warp::default() };
            warp.ibuf.clear();
            let k = w as usize % self.scheds.len();
            self.scheds[k].launched(w);
            self.wake(k);
            self.fetch_candidates |= 1 << w;
            if matches!(self.sb, Issuer::Pm(_)) {
                self.pm_launch(w);
            }
            if let Some(c) = self.cae.as_mut() {
                c.launch(w);
            }
        }
        if let Some(d) = self.dac.as_mut() {
            d.launch(slot, free[0], self.func.block_dim(), self.func.ctaid(slot as u16), self.now);
        }
        self.ctas[slot] = Some(Cta { warps: free, threads, running: nwarps, bars: CtaBarriers::default(), unfinished: nwarps });
        self.stats.ctas += 1;
        self.stats.warps += nwarps as u64;
        if self.stats.cta_done.len() <= cta as usize {
            self.stats.cta_done.resize(cta as usize + 1, 0);
        }
        true
    }

    // ---- fetch / decode -------------------------------------------------

    fn fetch(&mut self) {
        let n = self.warps.len();
        let mut fetched = 0;
        let cap = self.cfg.core.ibuffer_entries as usize;
        // `core.fetch_when_empty`: a warp's whole buffer at once, from one
        // instruction-cache line.
        let group = self.cfg.core.fetch_when_empty;
        // Candidates (at most 128 slots) in round-robin order from `fetch_rr`.
        let c = self.fetch_candidates;
        let rr = self.fetch_rr;
        let (mut hi, mut lo) = (c & (!0u128 << rr), c & ((1u128 << rr) - 1));
        while hi | lo != 0 {
            if fetched == self.cfg.core.fetch_width {
                break;
            }
            let half = if hi != 0 { &mut hi } else { &mut lo };
            let w = half.trailing_zeros() as usize;
            *half &= *half - 1;
            let warp = &self.warps[w];
            if warp.fetch_from > self.now {
                continue;
            }
            let full = if group { !warp.ibuf.is_empty() } else { warp.ibuf.len() >= cap };
            if self.running() >> w & 1 == 0 || warp.fetch_blocked || full || warp.fetch_op as usize >= self.ops.len() {
                // Not fetchable until launch, issue or flush marks it again.
                self.fetch_candidates &= !(1u128 << w);
                continue;
            }
            let op = warp.fetch_op;
            let mut slot = 0;
            if let Some(rp) = self.rp.as_mut() {
                // The warp buffer has no room (or its fill port is taken):
                // a completion or an issue will make room.
                match rp.fill(w as u16) {
                    Some(s) => slot = s,
                    None => continue,
                }
            }
            // P-mode (§5.2): an N-mode warp's next instruction is matched
            // with its P-queue head; a ready match comes from the queue,
            // bypassing the instruction cache and decode, and a match not
            // yet ready waits for its result.
            let reuse = match self.pm_fetch(fetched as usize, w as u16, op) {
                FetchMatch::Moved(pdst) => Some(pdst),
                FetchMatch::Wait => {
                    fetched += 1;
                    continue;
                }
                FetchMatch::Fetch => {
                    // A miss with no free instruction-cache MSHR: the fetch
                    // slot is spent, the warp tries again.
                    let pc = self.code_addr(op);
                    if self.icache.as_ref().is_some_and(|c| !c.has(pc) && !c.can_miss()) {
                        fetched += 1;
                        continue;
                    }
                    None
                }
            };
            let uid = self.new_uid();
            let ready = if reuse.is_some() {
                self.now + 1
            } else {
                let pc = self.code_addr(op);
                match self.icache.as_mut().map_or(self.now, |c| c.access(pc, self.now)) {
                    PENDING => {
                        let c = self.icache.as_mut().expect("a cache");
                        let bytes = c.line_bytes();
                        for line in c.take_requests() {
                            self.mem.request_code(line * bytes);
                        }
                        PENDING
                    }
                    there => there + self.cfg.core.fetch_latency as u64,
                }
            };
            let was_empty = self.warps[w].ibuf.is_empty();
            let line_bytes = self.icache.as_ref().map_or(16, |c| c.line_bytes());
            let (first, mut op, mut uid) = (self.code_addr(op) / line_bytes, op, uid);
            loop {
                let control = self.ops[op as usize].control;
                let warp = &mut self.warps[w];
                warp.ibuf.push_back(IbEntry { op, ready, uid, slot, reuse });
                warp.fetch_op += 1;
                if control.blocks_fetch() && !group {
                    warp.fetch_blocked = true;
                }
                if let Some(k) = self.out.pipeview.as_mut() {
                    let label = format!("w{w} {}", self.ops[op as usize].text);
                    let _ = k.start(self.now, uid, w as u32, &label);
                }
                let warp = &self.warps[w];
                op = warp.fetch_op;
                if !group || warp.fetch_blocked || warp.ibuf.len() >= cap || op as usize >= self.ops.len() || self.code_addr(op) / line_bytes != first {
                    break;
                }
                uid = self.new_uid();
            }
            if was_empty {
                self.wake_warp(w as u16);
            }
            fetched += 1;
            self.fetch_rr = (w + 1) % n;
            self.view.fetch.push((w as u16, self.warps[w].fetch_op - 1));
        }
    }

    /// The code address of instruction `op`.
    fn code_addr(&self, op: u32) -> u64 {
        self.code_base + op as u64 * kernel::INST_BYTES as u64
    }

    /// Lines of code arrived from memory: the instruction cache has them,
    /// and the fetches that waited for them are decoded.
    fn code_filled(&mut self) {
        let fills = std::mem::take(&mut self.mem.inst_fills);
        let ready = self.now + self.cfg.core.fetch_latency as u64;
        for &l1_line in &fills {
            let code = self.mem.code_range(l1_line);
            if let Some(c) = self.icache.as_mut() {
                for pc in code.clone().step_by(c.line_bytes() as usize) {
                    c.fill(c.line(pc), self.now);
                }
            }
            let base = self.code_base;
            for w in 0..self.warps.len() {
                let mut woke = false;
                for e in self.warps[w].ibuf.iter_mut().filter(|e| e.ready == PENDING) {
                    if code.contains(&(base + e.op as u64 * kernel::INST_BYTES as u64)) {
                        e.ready = ready;
                        woke = true;
                    }
                }
                if woke {
                    self.wake_warp(w as u16);
                }
            }
        }
        self.mem.inst_fills = fills;
        self.mem.inst_fills.clear();
    }

    /// Drop a warp's decoded instructions (they do not follow the path the
    /// warp took) and fetch from `op` next.
    fn flush(&mut self, w: u16, op: u32) {
        let warp = &mut self.warps[w as usize];
        let mut moved = 0;
        while let Some(e) = warp.ibuf.pop_front() {
            moved += e.reuse.is_some() as usize;
            if let Some(k) = self.out.pipeview.as_mut() {
                let _ = k.retire(self.now, e.uid, true);
            }
        }
        warp.fetch_op = op;
        warp.fetch_blocked = false;
        if self.cfg.core.fetch_when_empty {
            warp.fetch_from = self.now + 1;
        }
        warp.forget();
        if let Some(rp) = self.rp.as_mut() {
            rp.flush(w);
        }
        self.fetch_candidates |= 1 << w;
        self.wake_warp(w);
        if moved > 0 {
            self.pm_flushed_moved(w, moved);
        }
    }

    // ---- issue ----------------------------------------------------------

    /// The issue stage (baseline and replay; P-mode has its own): per
    /// scheduler, the first warp in policy order that can issue.
    fn issue(&mut self) -> Result<bool, RunError> {
        let mut any = false;
        let restricted = self.replay_restricted();
        for k in 0..self.scheds.len() {
            if let Some(idle) = self.sched_idle[k] {
                // Nothing this scheduler's scan depends on has changed since
                // its last fruitless scan: the same outcome, without the scan.
                if self.now < idle.until {
                    self.sb.sb().idle(k);
                    self.stats.breakdown.add(idle.stall);
                    self.view.issue.push((None, idle.stall));
                    continue;
                }
                self.sched_idle[k] = None;
            }
            // Replay: this cycle's offers and whether the tracker lets a load
            // that needs an MSHR issue.
            let miss_ok = if self.rp.is_some() { self.replay_scan_begin(k) } else { true };
            let restricted_before = self.replay_restricted();
            let mut first: Option<Stall> = None;
            let mut picked = None;
            let mut demoted = false;
            let mut until = u64::MAX;
            let mut order = std::mem::take(&mut self.scratch_order);
            order.clear();
            {
                let mut m = self.running();
                // An exited warp stays until its retained instructions complete.
                if let Some(rp) = self.rp.as_deref() {
                    let mut exited = self.live & self.exited;
                    while exited != 0 {
                        let w = exited.trailing_zeros() as u16;
                        exited &= exited - 1;
                        if rp.retains(w) {
                            m |= 1 << w;
                        }
                    }
                }
                let schedulable = Warps::of(m);
                order.extend_from_slice(self.scheds[k].order(|w| schedulable.has(w)));
            }
            for &w in &order {
                let c = if self.rp.is_some() { self.replay_candidate(k, w, miss_ok) } else { self.can_issue(k, w).map(|()| Candidate::First).map_err(Some) };
                match c {
                    Ok(c) => {
                        picked = Some((w, c));
                        break;
                    }
                    Err(Some(s)) => {
                        // Two-level: a warp that will wait long (or for its
                        // DAC queue) leaves the active set.
                        if matches!(s, Stall::LongRaw | Stall::BarrierWait | Stall::DacDeq) {
                            demoted |= self.scheds[k].demote(w);
                        }
                        if s == Stall::IbufferEmpty {
                            if let Some(e) = self.warps[w as usize].ibuf.front() {
                                until = until.min(e.ready);
                            }
                        }
                        first.get_or_insert(s);
                    }
                    // An exited warp with nothing to replay now.
                    Err(None) => {}
                }
            }
            self.scratch_order = order;
            let issued = match picked {
                Some((w, Candidate::First)) if self.rp.is_none() => Some((w, self.issue_warp(k, w)?, false)),
                Some((w, c)) => self.replay_pick(k, w, c)?,
                None => None,
            };
            match issued {
                Some((w, op, replay)) => {
                    self.scheds[k].issued(w);
                    self.stats.breakdown.add(Stall::Issued);
                    self.view.issue.push((Some((w, op)), Stall::Issued));
                    // A replay is no progress (a storm of them is reported).
                    any |= !replay;
                }
                None => {
                    self.sb.sb().idle(k);
                    // A pick the replay unit refused wastes the cycle.
                    let s = if picked.is_some() { Stall::LsuFull } else { first.unwrap_or(Stall::NoInstLeft) };
                    // A scan the tracker blocked is not cached: its credits
                    // change without a wake.
                    let held = self.replay_restricted() != restricted_before;
                    if picked.is_none() && !held && !demoted && !self.out.exhaustive {
                        self.sched_idle[k] = Some(Idle { stall: s, until });
                    }
                    self.stats.breakdown.add(s);
                    self.view.issue.push((None, s));
                }
            }
        }
        if self.rp.is_some() {
            self.replay_issue_end(restricted);
        }
        Ok(any)
    }

    /// Can warp `w` issue its next instruction on scheduler `k`; if not, why.
    fn can_issue(&mut self, k: usize, w: u16) -> Result<(), Stall> {
        let warp = &self.warps[w as usize];
        if warp.at_barrier {
            return Err(Stall::BarrierWait);
        }
        let Some(head) = warp.ibuf.front().copied().filter(|e| e.ready <= self.now) else {
            return Err(Stall::IbufferEmpty);
        };
        let op = &self.ops[head.op as usize];
        if let (Some(q), Some(d)) = (op.deq, self.dac.as_deref()) {
            if !d.can_deq(w, q) {
                return Err(Stall::DacDeq);
            }
        }
        let answer = match warp.sb {
            Some(a) => a,
            None => {
                let a = self.sb.sb().query(k, w, op.reads(), op.writes());
                self.warps[w as usize].sb = Some(a);
                a
            }
        };
        if answer.stall {
            return Err(if answer.long_dep { Stall::LongRaw } else { Stall::ShortRaw });
        }
        if !self.oc.has_free(op.unit) {
            return Err(op.unit.full_stall());
        }
        Ok(())
    }

    /// Issue warp `w`'s next instruction on scheduler `k` (baseline: the
    /// scoreboard is told here); returns its op.
    fn issue_warp(&mut self, k: usize, w: u16) -> Result<u32, RunError> {
        self.issue_as(k, w, IssueKind::N).map(|(op, _)| op)
    }

    /// Issue warp `w`'s next instruction into the pipeline: executed on its
    /// N-mode state, or (P-mode) on its P-mode copy as a pre-executed
    /// instruction or a pre-load. Returns the op and the lanes that executed.
    fn issue_as(&mut self, k: usize, w: u16, kind: IssueKind) -> Result<(u32, u32), RunError> {
        let head = self.warps[w as usize].ibuf.pop_front().expect("issue with an empty buffer");
        self.warps[w as usize].forget();
        self.fetch_candidates |= 1 << w;
        let ops = Arc::clone(&self.ops);
        let op = &ops[head.op as usize];
        let idx = self.pool.alloc();
        let pmode = matches!(kind, IssueKind::Preexec(_) | IssueKind::Preload);
        let out: ExecOut = {
            let inst = self.pool.get_mut(idx);
            if pmode {
                self.func.p_exec(w, &mut inst.addrs).map_err(RunError::Exec)?
            } else {
                self.func.exec(w, &mut inst.addrs).map_err(RunError::Exec)?
            }
        };
        debug_assert_eq!(out.op, head.op, "fetched PC differs from the executed one");
        let dac_lines = self.dac.as_mut().map_or(0, |d| d.issued(w, op, out.space));
        let affine_unit = match self.cae.as_mut() {
            Some(c) if !pmode => c.issued(w, head.op, out.lanes == self.func.lanes(w), op.unit == Unit::Sp, &self.func),
            _ => false,
        };
        let long = matches!(out.space, Some(Space::Global | Space::Local)) && matches!(op.access, Some(Access::Load | Access::Atomic));
        let gpr_reads = op::gpr_read_mask(op);
        {
            let inst = self.pool.get_mut(idx);
            inst.uid = head.uid;
            inst.warp = w;
            inst.op = head.op;
            inst.active = out.lanes;
            inst.space = out.space.unwrap_or(Space::Global);
            inst.access = op.access;
            inst.bytes = out.bytes;
            inst.lines_left = 0;
            inst.reads_left = gpr_reads;
            inst.long = long;
            inst.pq = match kind {
                IssueKind::Preexec(pq) => pq,
                _ => None,
            };
            inst.pmode = pmode;
            inst.preload = kind == IssueKind::Preload;
            inst.dac_record = None;
            inst.hw_prefetch = false;
            inst.dac_lines = dac_lines;
            inst.affine_unit = affine_unit;
        }
        if kind == IssueKind::N {
            self.sb.sb().fire(k, w, op.reads(), op.writes(), long);
        }
        self.oc.allocate(op.unit, idx);
        if self.rp.is_some() {
            self.replay_first_issue(w, idx, op.unit, out.lanes);
        }
        if !pmode {
            self.stats.warp_insts += 1;
            self.stats.mem_insts += (op.unit == Unit::Mem) as u64;
            self.stats.thread_insts += out.active.count_ones() as u64;
        }
        if let Some(kv) = self.out.pipeview.as_mut() {
            let _ = kv.stage(self.now, head.uid, "Rr");
        }
        let warp = &mut self.warps[w as usize];
        warp.inflight += 1;
        if op.control != Control::None {
            warp.fetch_blocked = false;
        }
        self.follow(k, w, pmode);
        if let Some(a) = out.barrier.filter(|_| !pmode) {
            if a.red.is_some() {
                self.warps[w as usize].reduced = Some((out.op, out.lanes));
            }
            self.barrier_arrive(w, a);
        }
        Ok((head.op, out.lanes))
    }

    /// After an instruction of warp `w` left its buffer: where the warp goes
    /// next (branches, reconvergence, exit) in N-mode or on its P-mode copy.
    fn follow(&mut self, k: usize, w: u16, pmode: bool) {
        let next = if pmode { self.func.p_next_op(w) } else { self.func.next_op(w) };
        match next {
            None if pmode => {
                // The P-mode copy ran off the end (an exit is never
                // pre-executed, so this does not happen); fetch stops.
                self.flush(w, self.ops.len() as u32);
            }
            None => {
                self.flush(w, 0);
                self.exited |= 1 << w;
                // Replay: a warp still holding instructions to replay stays
                // in the two-level active set until they complete.
                if !self.rp.as_ref().is_some_and(|rp| rp.retains(w)) {
                    self.scheds[k].demote(w);
                }
                self.warp_exited(w);
            }
            Some(next) => {
                let warp = &self.warps[w as usize];
                let stale = match warp.ibuf.front() {
                    Some(e) => e.op != next,
                    None => warp.fetch_op != next,
                };
                if stale {
                    self.flush(w, next);
                }
            }
        }
    }

    fn barrier_arrive(&mut self, w: u16, a: Arrival) {
        let slot = self.warps[w as usize].cta as usize;
        self.warps[w as usize].at_barrier = a.wait;
        let cta = self.ctas[slot].as_mut().expect("warp of a running CTA");
        let released = cta.bars.arrive(w as u32, a, cta.running);
        self.release(slot, released);
    }

    /// A barrier completed: its warps go on (`bar.red` results written first).
    fn release(&mut self, slot: usize, warps: Vec<u32>) {
        let results = self.ctas[slot].as_mut().map(|c| c.bars.take_results()).unwrap_or_default();
        for (w, v) in results {
            if let Some((op, lanes)) = self.warps[w as usize].reduced.take() {
                self.func.write_barrier_result(w as u16, op as usize, lanes, v);
            }
        }
        if !warps.is_empty() {
            for w in warps {
                self.warps[w as usize].at_barrier = false;
            }
            self.wake_all();
            if let Some(d) = self.dac.as_mut() {
                d.barrier_passed(slot);
            }
        }
    }

    fn warp_exited(&mut self, w: u16) {
        let slot = self.warps[w as usize].cta as usize;
        let cta = self.ctas[slot].as_mut().expect("running CTA");
        cta.running -= 1;
        let released = cta.bars.exited(cta.running);
        self.release(slot, released);
        self.maybe_finish_warp(w);
    }

    fn maybe_finish_warp(&mut self, w: u16) {
        let warp = &self.warps[w as usize];
        if !self.is_live(w) || !self.is_exited(w) || warp.inflight > 0 || self.mem.stores_out[w as usize] > 0 {
            return;
        }
        let slot = warp.cta as usize;
        self.live &= !(1 << w);
        let k = w as usize % self.scheds.len();
        self.scheds[k].finished(w);
        self.wake(k);
        if matches!(self.sb, Issuer::Pm(_)) {
            self.pm_finish(w);
        }
        let cta = self.ctas[slot].as_mut().expect("running CTA");
        cta.unfinished -= 1;
        if cta.unfinished == 0 {
            let cta = self.ctas[slot].take().expect("running CTA");
            let (_, nwarps, regs, shared) = self.func.cta_resources();
            self.used_warps -= nwarps;
            self.used_threads -= cta.threads;
            self.used_regs -= regs;
            self.used_shared -= shared;
            let index = self.func.end_cta(slot as u16);
            self.stats.cta_done[index as usize] = self.now;
            self.ctas_finished += 1;
        }
    }

    // ---- operand collector and execution ----------------------------------

    fn collect(&mut self) {
        let ops = Arc::clone(&self.ops);
        let now = self.now;
        let stages = self.cfg.units.result_stages;
        let (sp, sfu, mem) = (&mut self.sp, &mut self.sfu, &mut self.mem);
        let mut affine = self.cae.as_mut().map(|c| &mut c.pipes);
        let mut dispatched = std::mem::take(&mut self.scratch_uids);
        dispatched.clear();
        self.oc.cycle(
            &mut self.pool,
            &ops,
            |pool, i| {
                let inst = pool.get(i);
                let op = &ops[inst.op as usize];
                let ok = match op.unit {
                    Unit::Mem => {
                        if mem.can_accept() {
                            mem.accept(i);
                            true
                        } else {
                            false
                        }
                    }
                    Unit::Sp | Unit::Sfu => {
                        // CAE: an affine instruction takes an affine unit for one cycle.
                        let (units, initiation) = match affine.as_deref_mut() {
                            Some(a) if inst.affine_unit => (a, 1),
                            _ if op.unit == Unit::Sp => (&mut *sp, op.initiation),
                            _ => (&mut *sfu, op.initiation),
                        };
                        match units.iter_mut().find(|p| p.can_accept(now)) {
                            Some(p) => {
                                p.accept(now, op.latency + stages, initiation, inst.uid, i);
                                true
                            }
                            None => false,
                        }
                    }
                };
                if ok {
                    dispatched.push(inst.uid);
                }
                ok
            },
        );
        if let Some(k) = self.out.pipeview.as_mut() {
            for &uid in &dispatched {
                let _ = k.stage(now, uid, "Ex");
            }
        }
        if !dispatched.is_empty() {
            // Collector units freed.
            self.wake_all();
        }
        self.scratch_uids = dispatched;
    }

    fn execute(&mut self) {
        let now = self.now;
        let mut done = std::mem::take(&mut self.scratch_insts);
        done.clear();
        let affine = self.cae.as_mut().map_or(&mut [][..], |c| &mut c.pipes[..]);
        for p in self.sp.iter_mut().chain(self.sfu.iter_mut()).chain(affine.iter_mut()) {
            while let Some(i) = p.pop_done(now) {
                done.push(i);
            }
        }
        for &i in &done {
            self.completed(i);
        }
        self.scratch_insts = done;
    }

    /// An instruction's result is ready: it waits for a writeback port, or
    /// (nothing to write) is done.
    fn completed(&mut self, i: u32) {
        let op = &self.ops[self.pool.get(i).op as usize];
        if op.n_writes > 0 && !self.pool.get(i).preload {
            if let Some(k) = self.out.pipeview.as_mut() {
                let _ = k.stage(self.now, self.pool.get(i).uid, "Wb");
            }
            self.wbq.push_back(i);
        } else {
            self.retire(i);
        }
    }

    fn retire(&mut self, i: u32) {
        let (w, uid) = (self.pool.get(i).warp, self.pool.get(i).uid);
        if self.pool.get(i).hw_prefetch && self.pool.get(i).dac_record.is_none() {
            // A DirectPrefetch: no warp waits for it.
            self.pool.release(i);
            return;
        }
        if let Some(seq) = self.pool.get(i).dac_record {
            // A DAC prefetch: its record's data is there (it has no
            // pipeline-view entry).
            let locked = self.pool.get(i).dac_lines;
            self.dac.as_mut().expect("DAC mode").prefetched(w, seq, locked);
            self.wake_warp(w);
        } else if let Some(k) = self.out.pipeview.as_mut() {
            if self.ops[self.pool.get(i).op as usize].n_writes == 0 {
                let _ = k.stage(self.now, uid, "Wb");
            }
            let _ = k.retire(self.now, uid, false);
        }
        self.pool.release(i);
        self.warps[w as usize].inflight -= 1;
        self.maybe_finish_warp(w);
    }

    fn writeback(&mut self) -> bool {
        let mut n = 0;
        while n < self.cfg.units.writeback_width {
            let Some(&i) = self.wbq.front() else { break };
            let (w, op, pq, pmode) = (self.pool.get(i).warp, self.pool.get(i).op, self.pool.get(i).pq, self.pool.get(i).pmode);
            let op = &self.ops[op as usize];
            if op.n_writes as usize > self.sb.wb_free() {
                break;
            }
            self.wbq.pop_front();
            for &r in op.writes() {
                self.sb.writeback(w, r, pmode, pq);
                if r < op::SB_PRED_BASE {
                    let b = self.oc.bank(w, r);
                    self.oc.write_bank(b);
                }
            }
            self.warps[w as usize].forget();
            if pmode {
                self.pm_writeback(w, op.n_writes as u32);
            }
            self.wake_warp(w);
            self.view.wb.push((w, self.pool.get(i).op));
            self.retire(i);
            n += 1;
        }
        n > 0
    }

    // ---- reports ------------------------------------------------------------

    /// `k of n CTAs done`, for budget errors.
    fn how_far(&self) -> String {
        format!("{} of {} CTAs done", self.ctas_finished, self.func.num_ctas())
    }

    /// If every live warp is spinning (`kernel::progress`) or waiting at a
    /// barrier (which releases its warps as it completes, so one that all
    /// wait at will never complete): where each is.
    pub fn stuck(&self) -> Option<String> {
        let mut parts = Vec::new();
        for (w, warp) in self.warps.iter().enumerate() {
            let w = w as u16;
            if !self.is_live(w) || self.is_exited(w) {
                continue;
            }
            if self.func.spinning(w) {
                parts.push(format!("warp {w} (CTA slot {}) loops at {} with memory unchanged", warp.cta, self.func.where_is(w)));
            } else if warp.at_barrier {
                let cta = self.ctas[warp.cta as usize].as_ref().expect("running CTA");
                let id = cta.bars.waiting(w as u32).unwrap_or(0);
                parts.push(format!("warp {w} (CTA slot {}) waits at barrier {id} before {}", warp.cta, self.func.where_is(w)));
            } else {
                return None;
            }
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// Which warps wait on what (the deadlock report).
    pub fn report(&mut self) -> String {
        let mut s = String::new();
        for w in 0..self.warps.len() {
            let warp = &self.warps[w];
            if !self.is_live(w as u16) {
                continue;
            }
            let head = warp.ibuf.front().map(|e| self.ops[e.op as usize].text.clone()).unwrap_or_else(|| "(instruction buffer empty)".into());
            let why = if self.is_exited(w as u16) {
                format!("exited, {} instruction(s) in flight", warp.inflight)
            } else if warp.at_barrier {
                "waiting at the barrier".to_string()
            } else {
                match warp.sb {
                    Some(SbAnswer { stall: true, long_dep }) => {
                        format!("scoreboard: operands pending ({})", if long_dep { "long-latency" } else { "short-latency" })
                    }
                    _ => format!("{} instruction(s) in flight", warp.inflight),
                }
            };
            let pm = match (self.pm_active(w as u16), self.pm[w].halted, self.pm[w].ready) {
                (_, _, false) if matches!(self.sb, Issuer::Pm(_)) => " (not yet started in the P-mode unit)",
                (true, true, _) => " (P-mode, halted)",
                (true, false, _) => " (P-mode)",
                _ => "",
            };
            s.push_str(&format!("  warp {w} (CTA slot {}){pm}: {why}; next: {head}\n", warp.cta));
        }
        s.push_str(&format!(
            "  memory stage: {}; {} writeback(s) queued; {} instruction(s) in flight; requests below L1: {}\n",
            match self.mem.current() {
                Some(i) => self.ops[self.pool.get(i).op as usize].text.clone(),
                None => "idle".into(),
            },
            self.wbq.len(),
            self.pool.in_use(),
            self.mem.lower.queue_len()
        ));
        if let Some(d) = &self.dac {
            s.push_str(&d.report(&self.func));
        }
        s
    }
}
