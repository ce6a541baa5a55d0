//! What a run reports (SM.md §4): counts, the scheduler-cycle breakdown of
//! seed 000 Figure 3, memory and hazard figures, mode counters; as a
//! terminal table, JSON and a CSV row.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The category of one scheduler-cycle (seed 000 section 3, Figure 3).
///
/// Rule: a scheduler that issued gets `Issued`. Otherwise the cycle goes to
/// the blocking reason of the warp its policy would have picked first among
/// its warps that still have instructions; `NoInstLeft` only when none of
/// its warps has any (all exited, waiting for their CTA, or no warp at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stall {
    Issued,
    /// A source or destination pending on a long-latency operation (a global
    /// load or atomic): the scoreboard's `long_dep`.
    LongRaw,
    /// Pending on anything else.
    ShortRaw,
    /// The instruction needs the memory pipeline and it cannot accept it
    /// (no free memory collector unit).
    LsuFull,
    /// It needs an SP or SFU and no collector unit for it is free.
    SpSfuFull,
    /// Nothing decoded to issue (fetch latency, a control hazard).
    IbufferEmpty,
    BarrierWait,
    /// DAC: the warp's next instruction dequeues and its queue is empty, or
    /// the data its record prefetches has not arrived.
    DacDeq,
    NoInstLeft,
}

impl Stall {
    pub const ALL: [Stall; 9] = [
        Stall::Issued,
        Stall::LongRaw,
        Stall::ShortRaw,
        Stall::LsuFull,
        Stall::SpSfuFull,
        Stall::IbufferEmpty,
        Stall::BarrierWait,
        Stall::DacDeq,
        Stall::NoInstLeft,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stall::Issued => "issued",
            Stall::LongRaw => "long_raw",
            Stall::ShortRaw => "short_raw",
            Stall::LsuFull => "lsu_full",
            Stall::SpSfuFull => "sp_sfu_full",
            Stall::IbufferEmpty => "ibuffer_empty",
            Stall::BarrierWait => "barrier_wait",
            Stall::DacDeq => "dac_deq",
            Stall::NoInstLeft => "no_inst_left",
        }
    }

    /// The legend of seed 000 Figure 3.
    pub fn label(self) -> &'static str {
        match self {
            Stall::Issued => "Issued",
            Stall::LongRaw => "Long-latency RAW",
            Stall::ShortRaw => "Short-latency RAW",
            Stall::LsuFull => "LSU Full",
            Stall::SpSfuFull => "SP/SFU Full",
            Stall::IbufferEmpty => "Instruction Buffer Empty",
            Stall::BarrierWait => "Barrier Wait",
            Stall::DacDeq => "DAC Dequeue",
            Stall::NoInstLeft => "No Instruction Left",
        }
    }
}

/// Scheduler-cycles per category, indexed by `Stall as usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown(pub [u64; 9]);

impl Breakdown {
    pub fn add(&mut self, s: Stall) {
        self.0[s as usize] += 1;
    }
    pub fn get(&self, s: Stall) -> u64 {
        self.0[s as usize]
    }
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl Serialize for Breakdown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(Stall::ALL.len()))?;
        for c in Stall::ALL {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Breakdown {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = std::collections::BTreeMap::<String, u64>::deserialize(d)?;
        let mut b = Breakdown::default();
        for c in Stall::ALL {
            // Statistics written before DAC existed have no `dac_deq`.
            let v = m.get(c.name()).copied().or((c == Stall::DacDeq).then_some(0));
            b.0[c as usize] = v.ok_or_else(|| serde::de::Error::missing_field(c.name()))?;
        }
        Ok(b)
    }
}

/// Memory-stage hazards (seed 004 section 1.1.7), counted in cycles the
/// memory stage could not proceed for that reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hazards {
    /// Uncoalesced: extra cycles for the second and later lines of one instruction.
    pub div: u64,
    /// Shared-memory bank conflicts: extra cycles beyond the first.
    pub bank: u64,
    /// No MSHR (table full, or the line's entry at its merge limit / being filled).
    pub mshr: u64,
    /// The request queue toward L2 was full.
    pub comq: u64,
    /// No L1 line could be reserved (every way of the set awaits a fill).
    pub rsv: u64,
}

/// L1 data cache figures (global and local loads; stores write through).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1Stats {
    /// Line requests of loads.
    pub accesses: u64,
    pub hits: u64,
    /// Misses merged into a pending MSHR.
    pub merges: u64,
    /// Misses that allocated an MSHR.
    pub misses: u64,
    pub stores: u64,
    pub atomics: u64,
    /// Sum over cycles of occupied MSHRs (mean occupancy = this / cycles).
    pub mshr_occupancy_sum: u64,
    pub mshr_peak: u64,
    /// DAC: prefetched lines locked in L1, and locks the `ways - 1` rule
    /// refused.
    #[serde(default)]
    pub dac_locked: u64,
    #[serde(default)]
    pub dac_lock_refused: u64,
}

/// Accesses and misses of a read-only cache (instruction, constant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheCount {
    pub accesses: u64,
    pub misses: u64,
}

impl CacheCount {
    pub fn is_empty(&self) -> bool {
        self.accesses == 0
    }
}

/// P-mode counters (seed 000 Figures 10, 11, 14); zero in other modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PmodeStats {
    pub switches: u64,
    pub pre_executed: u64,
    pub skipped: u64,
    pub pre_loads: u64,
    /// N-mode instructions whose result came from the P-queue.
    pub reused: u64,
    /// Instructions pre-executed without being recorded (the P-queue was
    /// full): executed for the pre-loads that depend on them, never reused.
    pub pqueue_full: u64,
    /// P-queue entries a new episode dropped unreused (the warp triggered
    /// again before reaching them).
    #[serde(default)]
    pub pqueue_dropped: u64,
    /// Instructions that came from the P-queue head at fetch, bypassing
    /// fetch and decode (§5.2).
    #[serde(default)]
    pub fetch_moved: u64,
    /// Fetches that waited because the matching head's result was not
    /// back yet.
    #[serde(default)]
    pub fetch_waits: u64,
    /// Of `fetch_moved`, those flushed with the instruction buffer before
    /// they issued (lost for reuse).
    #[serde(default)]
    pub fetch_flushed: u64,
    /// Sum over cycles of the rename registers P-mode held (beyond the
    /// compiler's): the register file's extra utilisation (seed 001).
    #[serde(default)]
    pub rename_held_sum: u64,
    /// Scheduler-cycles in which a P-mode warp was held back because every
    /// rename register was in use.
    pub rename_exhausted: u64,
    pub halted_on_branch: u64,
    /// N-mode global-load line requests that hit or merged.
    pub n_l1_hit_or_merge: u64,
    pub n_l1_accesses: u64,
    /// Reused results that differed from the N-mode value (must be 0).
    pub reuse_mismatches: u64,
    /// N-mode instructions by what P-mode did with them (Figure 11):
    /// [reused, executed in P-mode but not reused, skipped in P-mode, not
    /// reached by P-mode]; short-latency and long-latency (global loads).
    pub cover_short: [u64; 4],
    pub cover_long: [u64; 4],
}

/// Replay-mode counters (seed 004 chapters 5-7); zero in other modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayStats {
    /// Memory instructions issued for the first time (each is retained).
    pub first_issues: u64,
    /// Re-issues from the warp buffer.
    pub replays: u64,
    /// Memory-stage passes that squashed threads, by cause: DIV, BANK,
    /// MSHR, COMQ, RSV (`ReplayCause` order).
    pub squashed: [u64; 5],
    /// The most passes one instruction took.
    pub max_passes: u64,
    /// Issues that took an MSHR credit.
    pub credited: u64,
    /// Offers the scheduler passed by because the tracker would refuse them.
    pub held: u64,
    /// Picks the unit refused (the counter predictor's wasted issue cycles).
    pub refused: u64,
    /// Cycles the tracker held back or refused a load while the MSHR table
    /// had a free entry (the tracker's cost, Figure 7.12).
    #[serde(default)]
    pub idle_mshr_cycles: u64,
}

/// DAC counters (seed 003 section 5); zero in other modes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DacStats {
    /// Why the kernel was not decoupled (empty: it was).
    pub unchanged: String,
    /// Warp instructions the affine warp issued (the non-affine warps'
    /// are `warp_insts`), and the CTAs they were for (summed: per
    /// instruction, the CTAs whose affine contexts were in step).
    pub affine_insts: u64,
    #[serde(default)]
    pub affine_ctas: u64,
    /// Tuples enqueued, by queue: address, data (prefetching), predicate.
    pub enq: [u64; 3],
    /// Records expanded into the warps' queues, and those sent to L1
    /// (data records: a load's lines fetched ahead of its dequeue).
    pub records: u64,
    pub prefetches: u64,
    /// Global and local load warp instructions of the non-affine warps, and
    /// those that dequeued a prefetched record (Figure 19's coverage).
    pub loads: u64,
    pub decoupled_loads: u64,
    /// Cycles an affine warp could not issue an `enq` for a full ATQ, and
    /// unit-cycles an expansion unit held a tuple without writing a record
    /// (setup, CTA starts, serial steps, a full per-warp queue).
    pub atq_full: u64,
    pub queue_full: u64,
    /// Cycles an affine warp could not issue an `enq` because some warp's
    /// queue of its kind was full (section 4.1).
    #[serde(default)]
    pub enq_queue_full: u64,
    /// Cycles an affine warp's ALU instruction found every SP unit busy.
    #[serde(default)]
    pub lanes_busy: u64,
    /// Cycles a tuple waited for a CTA's warps to pass a barrier the
    /// affine warp had passed (section 4.2): the AEU holding a CTA of its
    /// tuple (`dac.barrier_hold = "aeu"`), or an `enq` waiting (`"enq"`).
    #[serde(default)]
    pub barrier_waits: u64,
    /// Sum over cycles of the ATQ's entries (occupancy = sum / cycles) and
    /// its peak.
    pub atq_sum: u64,
    pub atq_peak: u64,
    /// Address `enq`s whose records are not their affine tuple's values
    /// (0 unless the decoupling pass let a non-affine value through).
    #[serde(default)]
    pub tuple_mismatches: u64,
    /// Address `enq`s whose threads hold more than one tuple (divergent
    /// affine tuples, section 4.6: the hardware computes them side by side).
    #[serde(default)]
    pub divergent_tuples: u64,
    /// L1 lock counters still held when the run ended (a lock without its
    /// dequeue; 0 unless something is wrong).
    #[serde(default)]
    pub locks_left: u64,
    /// Records, masks and L1 requests of the `dac_unit` block that differ
    /// from the functional model's records (0 unless something is wrong).
    #[serde(default)]
    pub expansion_mismatches: u64,
    /// The PEU's path counters: masks by the scalar, two-compare and serial
    /// paths, and comparisons made (section 4.3).
    #[serde(default)]
    pub peu_paths: [u64; 4],
}

/// CAE mode (seed 003 section 5.1.1): warp instructions run on the affine
/// units instead of the SIMT lanes.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CaeStats {
    /// Warp instructions the affine units executed (Figure 18's coverage is
    /// this / `warp_insts`), those of them on scalar operands only.
    pub affine_insts: u64,
    pub scalar_insts: u64,
    /// Affine-closed instructions on tagged operands that a divergent warp
    /// (not all its threads active) sent to the lanes instead.
    pub divergent: u64,
    /// Affine-unit results whose lane values are not one base and stride (0
    /// unless the run-time tags are wrong).
    pub tag_mismatches: u64,
}

/// MTA mode (seed 003 section 5.1.1; Lee et al., MICRO 2010): the
/// many-thread aware prefetcher and its prefetch buffer.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct MtaStats {
    /// Prefetch requests sent below L1, by the stride that predicted them:
    /// inter-warp (another warp's address at the same load) and intra-warp
    /// (the same warp's next iteration).
    pub inter_warp: u64,
    pub intra_warp: u64,
    /// Candidates dropped: already in L1, in the buffer or in flight.
    pub redundant: u64,
    /// Demand line requests that hit a prefetched line in the buffer (the
    /// line moves to L1), and that merged into a prefetch in flight.
    pub useful: u64,
    pub late: u64,
    /// Prefetched lines evicted from the buffer before any use.
    pub early_evicted: u64,
    /// Throttling: periods that lowered and raised the degree, and the
    /// degree at the end (a GPU: the highest of its SMs').
    pub throttled: u64,
    pub unthrottled: u64,
    pub degree: u64,
}

/// Prefetch mode (seed 000 section 6.1): the DirectPrefetch comparator.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PrefetchStats {
    /// Lines queued by a trusted stride, and dropped at a full queue.
    pub queued: u64,
    pub dropped: u64,
    /// Queued lines that L1 had or was already fetching when their turn
    /// came (not sent).
    pub redundant: u64,
    /// Prefetches that went through the memory stage to fill L1.
    pub issued: u64,
}

/// Everything a run reports.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    pub kernel: String,
    pub config: String,
    pub mode: String,
    pub policy: String,
    pub engine: String,
    /// What else distinguishes the mode: in replay mode the tracker and the
    /// predictor (`credit always_miss`), `stall` without squashing and
    /// `retain` with retention.
    #[serde(default)]
    pub variant: String,
    pub cycles: u64,
    pub warp_insts: u64,
    pub thread_insts: u64,
    pub ipc: f64,
    pub ctas: u64,
    pub warps: u64,
    /// Cycle at which each CTA completed, in CTA order.
    pub cta_done: Vec<u64>,
    pub breakdown: Breakdown,
    pub scheduler_cycles: u64,
    pub l1: L1Stats,
    pub hazards: Hazards,
    pub shared_accesses: u64,
    pub l2_hits: u64,
    pub l2_misses: u64,
    pub pmode: PmodeStats,
    /// Sum over cycles of the warp registers (32 lanes x 32 bits) that
    /// resident CTAs allocate: the register file's utilisation (seed 000
    /// Figure 7) is this / (cycles x registers / 32).
    #[serde(default)]
    pub warp_regs_sum: u64,
    /// Warp registers in the register file (`core.registers / 32`).
    #[serde(default)]
    pub warp_regs: u64,
    #[serde(default)]
    pub replay: ReplayStats,
    #[serde(default)]
    pub dac: DacStats,
    #[serde(default)]
    pub cae: CaeStats,
    #[serde(default)]
    pub mta: MtaStats,
    #[serde(default)]
    pub prefetch: PrefetchStats,
    /// Warp instructions issued to the load/store unit.
    #[serde(default)]
    pub mem_insts: u64,
    /// Seed 004 section 3.5, from a stalling run: the speedup left if every
    /// cycle the memory stage stalled could run ALU instructions
    /// (`cycles / (cycles - min(hazard cycles, ALU instructions / ALU units)) - 1`);
    /// 0 for a replaying run.
    #[serde(default)]
    pub predicted_max_speedup: f64,
    /// Lane-elements of global loads outside every allocation, read as zero
    /// (`memory.unmapped_reads = "zero"`).
    #[serde(default)]
    pub unmapped_reads: u64,
    /// `bar.sync`s reached by only part of a warp's live threads.
    #[serde(default)]
    pub partial_barriers: u64,
    /// The instruction and constant caches, when modelled (`l1.icache_sets`,
    /// `l1.const_sets`).
    #[serde(default, skip_serializing_if = "CacheCount::is_empty")]
    pub icache: CacheCount,
    #[serde(default, skip_serializing_if = "CacheCount::is_empty")]
    pub const_cache: CacheCount,
    /// A whole-GPU run: its memory system (the counts above are summed
    /// over the SMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<crate::gpu::GpuStats>,
}

impl Stats {
    /// SMs the counts are summed over.
    pub fn sms(&self) -> u64 {
        self.gpu.as_ref().map_or(1, |g| g.sms as u64)
    }

    /// Seed 004's predicted maximum speedup (section 3.5) of this stalling
    /// run, with `alu_units` SP and SFU pipelines issuing one warp
    /// instruction per cycle each.
    pub fn predicted_max_speedup(&self, alu_units: u32) -> f64 {
        let h = &self.hazards;
        let blocked = h.div + h.bank + h.mshr + h.comq + h.rsv;
        let alu = (self.warp_insts - self.mem_insts) as f64 / alu_units.max(1) as f64;
        let new = self.cycles as f64 - (blocked as f64).min(alu);
        if new <= 0.0 {
            0.0
        } else {
            self.cycles as f64 / new - 1.0
        }
    }

    /// The figure the SM's terminal table shows.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let mode = if self.variant.is_empty() { self.mode.clone() } else { format!("{} ({})", self.mode, self.variant) };
        let _ = writeln!(s, "kernel {}  config {}  mode {mode}  policy {}  engine {}", self.kernel, self.config, self.policy, self.engine);
        let _ = writeln!(
            s,
            "cycles {}  warp instructions {}  thread instructions {}  IPC {:.3} (thread instructions per cycle)",
            self.cycles, self.warp_insts, self.thread_insts, self.ipc
        );
        let _ = writeln!(s, "CTAs {}  warps {}", self.ctas, self.warps);
        let _ = writeln!(s, "scheduler-cycle breakdown ({} scheduler-cycles):", self.scheduler_cycles);
        for c in Stall::ALL {
            let v = self.breakdown.get(c);
            let pct = if self.scheduler_cycles == 0 { 0.0 } else { 100.0 * v as f64 / self.scheduler_cycles as f64 };
            let _ = writeln!(s, "  {:<26}{:>12}  {:>6.2}%", c.label(), v, pct);
        }
        let l = &self.l1;
        let _ = writeln!(
            s,
            "L1: {} load line requests, {} hits, {} merges, {} misses; {} stores, {} atomics; MSHRs mean {:.2}, peak {}",
            l.accesses,
            l.hits,
            l.merges,
            l.misses,
            l.stores,
            l.atomics,
            if self.cycles == 0 { 0.0 } else { l.mshr_occupancy_sum as f64 / (self.cycles * self.sms()) as f64 },
            l.mshr_peak
        );
        let h = &self.hazards;
        let _ = writeln!(s, "hazards (cycles): DIV {}  BANK {}  MSHR {}  COMQ {}  RSV {}", h.div, h.bank, h.mshr, h.comq, h.rsv);
        if self.predicted_max_speedup > 0.0 {
            let _ = writeln!(
                s,
                "predicted maximum speedup of overlapping ALU work with the memory stage's stalls (seed 004 section 3.5): {:.1}%",
                100.0 * self.predicted_max_speedup
            );
        }
        let _ = writeln!(s, "shared-memory accesses {}  L2 hits {}  L2 misses {}", self.shared_accesses, self.l2_hits, self.l2_misses);
        if let Some(g) = &self.gpu {
            let _ = writeln!(
                s,
                "GPU: {} SMs (counts above summed, MSHR mean per SM); crossbar flits {} requests, {} replies; L2 {} merges, {} write-backs, {} stall cycles; DRAM {} reads, {} writes, row-buffer hits {:.1}%, data bus busy {:.1}% of {} DRAM cycles per channel",
                g.sms,
                g.request_flits,
                g.reply_flits,
                g.l2.merges,
                g.l2.writebacks,
                g.l2.stalls,
                g.dram_reads,
                g.dram_writes,
                100.0 * g.dram_row_hits as f64 / (g.dram_reads + g.dram_writes).max(1) as f64,
                100.0 * g.dram_bus_busy as f64 / (g.dram_cycles * g.channels as u64).max(1) as f64,
                g.dram_cycles
            );
        }
        if self.unmapped_reads > 0 {
            let _ = writeln!(s, "reads of unmapped global memory, as zero: {} lane-elements", self.unmapped_reads);
        }
        if self.partial_barriers > 0 {
            let _ = writeln!(s, "barriers reached by part of a warp's live threads: {}", self.partial_barriers);
        }
        if self.mode == "pmode" {
            let p = &self.pmode;
            let per = |x: u64| if p.switches == 0 { 0.0 } else { x as f64 / p.switches as f64 };
            let _ = writeln!(
                s,
                "P-mode: {} switches; per switch {:.2} pre-executed, {:.2} skipped, {:.2} pre-loads; {} reused ({} mismatches; {} moved from the P-queue at fetch, {} of them flushed, {} fetches waited for a result), {} dropped by a new episode; pre-executed unrecorded (P-queue full) {}, rename-exhausted cycles {}, halts on a long-latency branch {}",
                p.switches,
                per(p.pre_executed),
                per(p.skipped),
                per(p.pre_loads),
                p.reused,
                p.reuse_mismatches,
                p.fetch_moved,
                p.fetch_flushed,
                p.fetch_waits,
                p.pqueue_dropped,
                p.pqueue_full,
                p.rename_exhausted,
                p.halted_on_branch
            );
            let pct = |r: &[u64; 4], i: usize| {
                let t: u64 = r.iter().sum();
                if t == 0 { 0.0 } else { 100.0 * r[i] as f64 / t as f64 }
            };
            for (what, r) in [("short-latency", &p.cover_short), ("long-latency", &p.cover_long)] {
                let _ = writeln!(
                    s,
                    "  N-mode {what} instructions covered by P-mode: reused {:.1}%, not reused {:.1}%, skipped {:.1}%, not reached {:.1}%",
                    pct(r, 0),
                    pct(r, 1),
                    pct(r, 2),
                    pct(r, 3)
                );
            }
            let hm = if p.n_l1_accesses == 0 { 0.0 } else { 100.0 * p.n_l1_hit_or_merge as f64 / p.n_l1_accesses as f64 };
            let _ = writeln!(s, "  N-mode L1 hit-or-merge rate {hm:.1}% of {} load line requests", p.n_l1_accesses);
            let (base, held) = self.register_utilisation();
            let _ = writeln!(s, "  register file used: {:.1}% by resident warps, {:.1}% with P-mode's rename registers", 100.0 * base, 100.0 * (base + held));
        }
        if self.mode == "replay" {
            let r = &self.replay;
            let _ = writeln!(
                s,
                "replay: {} memory instructions, {} replays (at most {} passes for one); squashed by DIV {}  BANK {}  MSHR {}  COMQ {}  RSV {}",
                r.first_issues, r.replays, r.max_passes, r.squashed[0], r.squashed[1], r.squashed[2], r.squashed[3], r.squashed[4]
            );
            let _ = writeln!(
                s,
                "  MSHR tracker: {} issues credited, {} offers held back, {} picks refused; {} cycles with a load held back and an MSHR free",
                r.credited, r.held, r.refused, r.idle_mshr_cycles
            );
        }
        if self.mode == "dac" {
            let d = &self.dac;
            if d.unchanged.is_empty() {
                let _ = writeln!(
                    s,
                    "DAC: {} affine-warp instructions, {:.2} CTAs each ({} warp instructions in all); enq addr {} data {} pred {}; {} records, {} prefetches; {} of {} global/local loads dequeued prefetched data",
                    d.affine_insts,
                    d.affine_ctas as f64 / d.affine_insts.max(1) as f64,
                    d.affine_insts + self.warp_insts,
                    d.enq[0],
                    d.enq[1],
                    d.enq[2],
                    d.records,
                    d.prefetches,
                    d.decoupled_loads,
                    d.loads
                );
                let _ = writeln!(
                    s,
                    "  ATQ mean {:.1}, peak {}; cycles an enq waited for the ATQ {}, for a full warp queue {}, cycles a tuple waited for a CTA's barrier {}, an affine instruction for an SP unit {}; unit-cycles an expansion unit held a tuple without writing {}; PEU masks scalar {} two-compare {} serial {}; L1 lines locked {}, locks refused {}; expansion mismatches {}",
                    d.atq_sum as f64 / self.cycles.max(1) as f64,
                    d.atq_peak,
                    d.atq_full,
                    d.enq_queue_full,
                    d.barrier_waits,
                    d.lanes_busy,
                    d.queue_full,
                    d.peu_paths[0],
                    d.peu_paths[1],
                    d.peu_paths[2],
                    self.l1.dac_locked,
                    self.l1.dac_lock_refused,
                    d.expansion_mismatches
                );
            } else {
                let _ = writeln!(s, "DAC: the kernel runs as it is: {}", d.unchanged);
            }
        }
        if self.mode == "cae" {
            let c = &self.cae;
            let _ = writeln!(
                s,
                "CAE: {} warp instructions on the affine units ({:.1}% of {}), {} on scalars; {} sent to the lanes for divergence; {} tag mismatches",
                c.affine_insts,
                100.0 * c.affine_insts as f64 / self.warp_insts.max(1) as f64,
                self.warp_insts,
                c.scalar_insts,
                c.divergent,
                c.tag_mismatches
            );
        }
        if self.mode == "mta" {
            let m = &self.mta;
            let _ = writeln!(
                s,
                "MTA: prefetches {} inter-warp, {} intra-warp ({} candidates redundant); {} useful, {} late, {} evicted unused; throttled {} times, raised {}, degree now {}",
                m.inter_warp, m.intra_warp, m.redundant, m.useful, m.late, m.early_evicted, m.throttled, m.unthrottled, m.degree
            );
        }
        if self.mode == "prefetch" {
            let p = &self.prefetch;
            let _ = writeln!(
                s,
                "DirectPrefetch: {} lines queued ({} dropped at a full queue), {} sent to L1, {} already in L1 or on their way",
                p.queued, p.dropped, p.issued, p.redundant
            );
        }
        s
    }

    /// Column names of [`Stats::csv_row`].
    pub fn csv_header() -> String {
        let mut cols: Vec<String> = ["kernel", "config", "mode", "policy", "engine", "cycles", "warp_insts", "thread_insts", "ipc"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        cols.extend(Stall::ALL.iter().map(|c| c.name().to_string()));
        cols.extend(
            [
                "l1_accesses",
                "l1_hits",
                "l1_merges",
                "l1_misses",
                "hz_div",
                "hz_bank",
                "hz_mshr",
                "hz_comq",
                "hz_rsv",
                "pm_switches",
                "pm_pre_executed",
                "pm_skipped",
                "pm_pre_loads",
                "pm_reused",
                "pm_reuse_mismatches",
                "rp_replays",
                "rp_sq_div",
                "rp_sq_bank",
                "rp_sq_mshr",
                "rp_sq_comq",
                "rp_sq_rsv",
                "rp_held",
                "rp_refused",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        cols.join(",")
    }

    /// Mean share of the register file (warp registers) the resident CTAs
    /// allocate, and the mean share P-mode's rename registers add.
    pub fn register_utilisation(&self) -> (f64, f64) {
        let file = (self.cycles * self.warp_regs) as f64;
        if file == 0.0 {
            return (0.0, 0.0);
        }
        (self.warp_regs_sum as f64 / file, self.pmode.rename_held_sum as f64 / file)
    }

    /// One CSV line (no newline), for sweeps.
    pub fn csv_row(&self) -> String {
        let mut v = vec![
            self.kernel.clone(),
            self.config.clone(),
            self.mode.clone(),
            self.policy.clone(),
            self.engine.clone(),
            self.cycles.to_string(),
            self.warp_insts.to_string(),
            self.thread_insts.to_string(),
            format!("{:.6}", self.ipc),
        ];
        v.extend(Stall::ALL.iter().map(|&c| self.breakdown.get(c).to_string()));
        let (l, h, p) = (&self.l1, &self.hazards, &self.pmode);
        for x in [l.accesses, l.hits, l.merges, l.misses, h.div, h.bank, h.mshr, h.comq, h.rsv] {
            v.push(x.to_string());
        }
        let r = &self.replay;
        for x in [p.switches, p.pre_executed, p.skipped, p.pre_loads, p.reused, p.reuse_mismatches, r.replays] {
            v.push(x.to_string());
        }
        for x in r.squashed.iter().chain([&r.held, &r.refused]) {
            v.push(x.to_string());
        }
        v.join(",")
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("stats serialize")
    }

    /// Read a stats file written by `--stats`.
    pub fn from_json(text: &str) -> Result<Stats, serde_json::Error> {
        serde_json::from_str(text)
    }
}
