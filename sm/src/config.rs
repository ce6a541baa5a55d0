//! SM configuration: a TOML file with every key named, unknown keys and
//! impossible values rejected with the key's dotted path.
//!
//! Presets live in `configs/` at the repository root (and are built in, so
//! `--config hpca16_pmode` works from anywhere):
//!
//! | preset | source |
//! |---|---|
//! | `hpca16_pmode` | seed 000 (Kim et al., HPCA 2016) Table 1: GTX 480-like SM, GTO, 96 MSHRs |
//! | `isca17_dac` | seed 003 (Wang and Lin, ISCA 2017) Table 1: GTX 480, two-level scheduler, 48 KB L1, 32 MSHRs |
//! | `ubc12_replay` | seed 004 (Turner, UBC 2012) Table 4.2: 64 warps, 6-way 64-set L1, 32 MSHRs, 8-entry ibuffer |
//! | `gtx480` | the whole 15-SM GTX 480 as GPGPU-Sim dev models it (`SM2_GTX480`): `make correlate` |
//!
//! Where a paper is silent the value is GPGPU-Sim 3.2.2's GTX 480
//! configuration (`gpgpusim.config` of that release: opcode latencies and
//! initiation intervals, operand collector units, 16 register banks), the
//! simulator all three papers used.

use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which paper's mechanism is in the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Baseline,
    Pmode,
    Dac,
    Replay,
    /// Compact affine execution (seed 003 section 5.1.1, after Kim et al.):
    /// the Figure 16 comparator.
    Cae,
    /// The many-thread aware prefetcher (seed 003 section 5.1.1, after Lee
    /// et al., MICRO 2010): the Figure 16 comparator.
    Mta,
    /// Seed 000's DirectPrefetch (section 6.1): a per-warp stride
    /// prefetcher into L1, the Figures 12–15 comparator.
    Prefetch,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Baseline => "baseline",
            Mode::Pmode => "pmode",
            Mode::Dac => "dac",
            Mode::Replay => "replay",
            Mode::Cae => "cae",
            Mode::Mta => "mta",
            Mode::Prefetch => "prefetch",
        })
    }
}

/// Warp scheduling policy of every scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Greedy-then-oldest (Rogers et al., MICRO 2012): keep issuing from the
    /// last warp; when it stalls, the oldest ready warp.
    Gto,
    /// Loose round-robin: the warp after the last one issued, in slot order.
    Lrr,
    /// Two-level (Narasiman et al., MICRO 2011): round-robin over a small
    /// active set; a warp that stalls on a long-latency dependence is demoted
    /// to the pending set and the oldest pending warp is promoted.
    TwoLevel,
}

impl Policy {
    pub const ALL: [Policy; 3] = [Policy::Gto, Policy::Lrr, Policy::TwoLevel];
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Gto => "gto",
            Policy::Lrr => "lrr",
            Policy::TwoLevel => "two_level",
        })
    }
}

/// Core limits and front end.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Core {
    /// Warp slots (Table 1: 48).
    pub max_warps: u32,
    pub max_threads: u32,
    /// Concurrent CTAs per SM.
    pub max_ctas: u32,
    /// 32-bit registers per SM (a warp's allocation is `regs_per_thread * 32`).
    pub registers: u32,
    /// Shared memory bytes per SM.
    pub shared_memory: u32,
    /// Warp schedulers; warp slot `w` belongs to scheduler `w % schedulers`.
    pub schedulers: u32,
    pub policy: Policy,
    /// Active-set size per scheduler of the two-level policy.
    pub two_level_active: u32,
    /// Decoded instructions buffered per warp.
    pub ibuffer_entries: u32,
    /// Warps fetched per cycle (one per scheduler's group in the paper).
    pub fetch_width: u32,
    /// Cycles from fetch to the instruction buffer (ideal instruction cache).
    pub fetch_latency: u32,
    /// A warp is fetched only once its instruction buffer is empty, and then
    /// fills it at once from one instruction-cache line (one access), as
    /// GPGPU-Sim's fetch does (two instructions, one warp a cycle with
    /// `fetch_width = 1`). False: a buffer entry is refilled as soon as it
    /// frees, one instruction per fetch. Not with P-mode's fetch-time reuse
    /// or replay's warp buffer, which fetch one instruction at a time.
    #[serde(default)]
    pub fetch_when_empty: bool,
    /// Cycles between the first CTA launches (one CTA starts per this many cycles).
    pub cta_launch_interval: u32,
    /// Core clock (MHz): `%globaltimer` is the cycle count in ns at it.
    #[serde(default = "default_clock_mhz")]
    pub clock_mhz: u32,
}

/// Operand collector (GPGPU-Sim 3.2.2 GTX 480: 16 banks, 6/8/2 units).
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OperandCollector {
    /// Register-file banks; register `r` of warp slot `w` lives in bank
    /// `(r + w) % banks`, so warps' same registers spread over banks.
    pub banks: u32,
    pub units_sp: u32,
    pub units_sfu: u32,
    pub units_mem: u32,
    /// Generic units any instruction may use (seed 004: "8 slots (generic)");
    /// when non-zero the typed pools above are not used.
    pub units_generic: u32,
}

/// Functional units and their timing. Latencies and initiation intervals are
/// GPGPU-Sim's five classes `[add, max, mul, mad, div]` per type.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    pub sp: u32,
    pub sfu: u32,
    pub int_latency: [u32; 5],
    pub fp_latency: [u32; 5],
    pub dp_latency: [u32; 5],
    pub int_initiation: [u32; 5],
    pub fp_initiation: [u32; 5],
    pub dp_initiation: [u32; 5],
    /// Transcendentals, rcp, sqrt on the SFU.
    pub sfu_latency: u32,
    pub sfu_initiation: u32,
    /// Instructions written back per cycle (GPGPU-Sim EX_WB width).
    pub writeback_width: u32,
    /// Lanes of an SP unit: a warp instruction occupies it for
    /// `32 / sp_lanes` cycles at least (seed 003 section 5.1.1: Fermi's
    /// 16-lane units take two cycles per warp instruction).
    #[serde(default = "default_sp_lanes")]
    pub sp_lanes: u32,
    /// Cycles an SP or SFU result spends in pipeline registers besides the
    /// unit's latency, from its collector unit to the scoreboard (GPGPU-Sim:
    /// ID_OC, OC_EX, the unit's dispatch register and EX_WB; a dependent
    /// instruction issues `latency + 6` cycles after its producer there,
    /// `latency + 2` here without them). Throughput is unchanged.
    #[serde(default)]
    pub result_stages: u32,
    /// Latency of the instructions GPGPU-Sim puts in none of the five
    /// classes (logic, shifts, `setp`, `selp`, `mov`, `cvt`, branches), with
    /// an initiation interval of one pass: GPGPU-Sim gives them 1 cycle.
    /// 0: the add class's latency and interval.
    #[serde(default)]
    pub other_latency: u32,
}

fn default_sp_lanes() -> u32 {
    32
}

/// L1 data cache, shared memory and the memory stage.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct L1 {
    pub sets: u32,
    pub ways: u32,
    /// Line (and coalescing segment) size in bytes.
    pub line: u32,
    /// Cycles from the tag probe to the data for a hit.
    pub hit_latency: u32,
    /// Cycles a request below L1 (a miss, a store, an atomic, a prefetch)
    /// waits before it leaves: GPGPU-Sim's L1 probes every access at the end
    /// of its `-gpgpu_l1_latency` queue, so a miss pays that latency too.
    /// 0: it leaves at once.
    #[serde(default)]
    pub miss_delay: u32,
    /// MSHR table entries (the `mshr_table` block's `entries`).
    pub mshrs: u32,
    /// Requests one MSHR can hold (the block's `merge_limit`).
    pub merge: u32,
    /// Shared-memory banks (4-byte words).
    pub shared_banks: u32,
    pub shared_latency: u32,
    /// `.param` / `.const` loads that hit the constant cache.
    pub const_latency: u32,
    /// The instruction cache (GPGPU-Sim's L1I): sets (0: ideal, every fetch
    /// hits), ways, line bytes, and the cycles a miss takes to fill from L2.
    #[serde(default)]
    pub icache_sets: u32,
    #[serde(default)]
    pub icache_ways: u32,
    #[serde(default)]
    pub icache_line: u32,
    #[serde(default)]
    pub icache_miss_latency: u32,
    /// The constant cache (L1C) of `.param` and `.const` loads, likewise
    /// (0 sets: ideal, every load takes `const_latency`).
    #[serde(default)]
    pub const_sets: u32,
    #[serde(default)]
    pub const_ways: u32,
    #[serde(default)]
    pub const_line: u32,
    #[serde(default)]
    pub const_miss_latency: u32,
    /// A program's next kernel launch finds the instruction and constant
    /// caches as the last one left them (`crate::run::Warm`), as GPGPU-Sim
    /// keeps them (it invalidates only L1D between kernels).
    #[serde(default)]
    pub warm_read_only: bool,
    /// Where an instruction- or constant-cache miss fills from: `"latency"`
    /// (the default), after `icache_miss_latency` / `const_miss_latency`;
    /// `"memory"`, from L2 (and DRAM) through the SM's request queue and the
    /// interconnect, as a read that competes with L1's misses, as GPGPU-Sim
    /// sends L1I and L1C misses (code at `READ_ONLY_CODE`, the constant and
    /// parameter banks at `READ_ONLY_CONST`).
    #[serde(default)]
    pub read_only_misses: ReadOnlyMisses,
    /// With `read_only_misses = "memory"`: lines each of the two caches may
    /// have on their way at once (GPGPU-Sim's L1I and L1C MSHRs, 2 each on
    /// the GTX 480); a miss beyond them waits. 0: no limit.
    #[serde(default)]
    pub read_only_mshrs: u32,
    /// The constant cache takes one line a cycle: a `.param` / `.const`
    /// load touching k lines holds the memory stage k cycles (GPGPU-Sim's
    /// `constant_cycle`, one access per distinct line). False: all at once.
    #[serde(default)]
    pub const_serial: bool,
}

impl L1 {
    /// A read-only cache of `sets`, `ways`, `line` bytes and miss latency
    /// `latency` as this configuration has it (`None`: ideal): misses fill
    /// after `latency`, or from memory (miss latency 0) through its MSHRs.
    pub fn read_only_cache(&self, sets: u32, ways: u32, line: u32, latency: u32) -> Option<crate::mem::cache::FillCache> {
        Some(match self.read_only_misses {
            ReadOnlyMisses::Latency => crate::mem::cache::FillCache::new(sets, ways, line, latency)?,
            ReadOnlyMisses::Memory => crate::mem::cache::FillCache::new(sets, ways, line, 0)?.with_mshrs(self.read_only_mshrs),
        })
    }
}

/// Where the read-only caches' misses fill from (`l1.read_only_misses`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadOnlyMisses {
    #[default]
    Latency,
    Memory,
}

/// Device addresses of the lines the read-only caches fetch from memory
/// (`l1.read_only_misses = "memory"`): the code (GPGPU-Sim's
/// `PROGRAM_MEM_START`) and the constant and parameter banks, above every
/// buffer a program allocates.
pub const READ_ONLY_CODE: u64 = 0xF000_0000;
pub const READ_ONLY_CONST: u64 = 0xE000_0000;

/// Interconnect, L2 and DRAM: one SM's share, as a fixed latency plus a
/// bandwidth-limited queue per level.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Entries of the SM's request queue toward L2 (COMQ).
    pub icnt_queue: u32,
    /// Core cycles per request leaving the SM's queue (its port's bandwidth).
    pub icnt_interval: u32,
    /// Core cycles per line returning to the SM (response bandwidth).
    pub response_interval: u32,
    /// Cycles from an L1 miss leaving the SM to its fill, on an L2 hit.
    pub l2_latency: u32,
    pub l2_sets: u32,
    pub l2_ways: u32,
    pub l2_line: u32,
    /// Cycles from an L1 miss leaving the SM to its fill, on an L2 miss
    /// (DRAM), unloaded; at least `l2_latency`.
    pub dram_latency: u32,
    /// Core cycles per line transferred from DRAM (bandwidth).
    pub dram_interval: u32,
    /// L2 acknowledges every store, and a warp is done (its CTA's resources
    /// free) only once its stores are acknowledged, as in GPGPU-Sim
    /// (`stores_done`); false: stores get no response.
    #[serde(default)]
    pub store_acks: bool,
    /// A global load outside every allocation: `"error"` (the default) or
    /// `"zero"` (reads zero and is counted, as GPGPU-Sim's sparse memory
    /// does; for unmodified programs that read past an allocation).
    #[serde(default)]
    pub unmapped_reads: UnmappedReads,
}

/// What a global load outside every allocation does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnmappedReads {
    #[default]
    Error,
    Zero,
}

/// P-mode (seed 000) parameters; used when `mode = "pmode"`.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pmode {
    /// P-queue entries per warp; 0 = no reuse (pre-loads only).
    pub pqueue_entries: u32,
    /// Physical registers available for renaming.
    pub rename_regs: u32,
    /// SIMT stack entries per warp and mode (the unit's stacks).
    pub stack_depth: u32,
    /// What happens to a reused result's rename register (seed 000 §5.2).
    #[serde(default)]
    pub release: Release,
}

/// A reused P-mode result (seed 000 §5.2; the `pmode_unit`'s `release`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Release {
    /// The N table points the architected register at the rename register,
    /// which is held until N-mode rewrites the architected register (the
    /// paper's renaming).
    #[default]
    Rename,
    /// The value is moved into the architected register (a register-file
    /// write in the reuse cycle) and the rename register freed at once (the
    /// register-to-register move the paper names and rejects for energy).
    Move,
}

/// Where an address or data tuple enqueued after a barrier waits for the
/// CTA's warps to pass it (seed 003 section 4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BarrierHold {
    /// In the AEU (the paper: "the AEU disables expansion for the target
    /// non-affine blocks"): the tuple enters the ATQ; the AEU expands it
    /// for the tuple's other CTAs and holds the held CTA's context, and
    /// the in-order ATQ waits behind it.
    #[default]
    Aeu,
    /// At the `enq`: the affine context waits (and its batch with it), the
    /// ATQ takes other CTAs' tuples meanwhile.
    Enq,
}

/// MSHR tracker of replay mode (seed 004 chapter 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tracker {
    /// Plain replay: loads issue whatever the MSHRs hold.
    None,
    /// Issue a load predicted to miss only while the table has a free MSHR.
    Naive,
    /// Issue a load predicted to miss only with a credit (credits = MSHRs).
    Credit,
}

/// Which loads the tracker is asked about (seed 004 chapter 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Predictor {
    /// Only a replay of a load squashed for MSHR, COMQ or RSV (known to miss).
    AlwaysHit,
    /// Every global or local load.
    AlwaysMiss,
    /// A per-PC saturating counter trained at the memory stage.
    Counter,
    /// Simulation only: the loads that would allocate an MSHR now (a line
    /// neither in L1 nor on its way), looked up at issue.
    Oracle,
}

/// Replay mode (`mode = "replay"`): the `replay_unit` block's tracker and
/// predictor. Its warp buffers have `core.ibuffer_entries` slots.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Replay {
    pub tracker: Tracker,
    pub predictor: Predictor,
    /// Counter-predictor table entries (a power of two) and counter bits.
    pub counter_entries: u32,
    pub counter_bits: u32,
    /// Cycles from the memory stage's MSHR events to the tracker at issue.
    pub delay: u32,
    /// Squash and replay at memory-stage hazards; `false`: the memory stage
    /// stalls as in the baseline and only the tracker and predictor act
    /// (hazard prediction without replay, seed 004 Figure 7.13).
    pub squash: bool,
    /// With `squash = false`: still keep memory instructions in the warp
    /// buffer until they leave the memory stage (Figure 7.1's penalty).
    pub retain: bool,
}

impl Replay {
    /// A short name: tracker, predictor, and how hazards are handled.
    pub fn variant(&self) -> String {
        let tracker = match self.tracker {
            Tracker::None => "none",
            Tracker::Naive => "naive",
            Tracker::Credit => "credit",
        };
        let predictor = match self.predictor {
            Predictor::AlwaysHit => "always_hit",
            Predictor::AlwaysMiss => "always_miss",
            Predictor::Counter => "counter",
            Predictor::Oracle => "oracle",
        };
        let mut s = format!("{tracker} {predictor}");
        if !self.squash {
            s.push_str(if self.retain { " stall retain" } else { " stall" });
        }
        s
    }
}

impl Default for Replay {
    fn default() -> Self {
        Replay { tracker: Tracker::None, predictor: Predictor::AlwaysHit, counter_entries: 256, counter_bits: 2, delay: 0, squash: true, retain: false }
    }
}

/// The whole GPU (SM.md §0): `sms` SMs share a crossbar, memory partitions
/// with L2 slices, and DRAM channels with banks, rows and FR-FCFS. With
/// `sms = 1` the SM runs alone on its share of an unloaded memory system
/// (`[memory]`); with more, `[memory]` gives only the SM's request-queue
/// size (`icnt_queue`) and this table the rest. Defaults are GPGPU-Sim's
/// GTX 480 configuration (`configs/deprecated-cfgs/GTX480`), whose option
/// each key names.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Gpu {
    /// SMs (`-gpgpu_n_clusters` x `-gpgpu_n_cores_per_cluster`).
    pub sms: u32,
    /// Memory channels (`-gpgpu_n_mem`), each with its DRAM.
    pub channels: u32,
    /// L2 slices per channel (`-gpgpu_n_sub_partition_per_mchannel`).
    pub sub_partitions: u32,
    /// `-gpgpu_mem_addr_mapping`.
    pub address_mapping: String,
    /// Clocks of the interconnect, the L2 and the DRAM command bus
    /// (`-gpgpu_clock_domains`; the core's is `core.clock_mhz`).
    pub icnt_mhz: u32,
    pub l2_mhz: u32,
    pub dram_mhz: u32,
    /// Crossbar flit (`flit_size`), packets each input buffers
    /// (`vc_buf_size`), and its pipeline latency in interconnect cycles.
    pub flit_bytes: u32,
    pub icnt_buffer: u32,
    pub icnt_latency: u32,
    /// L2 slice (`-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4:0,32`):
    /// sets, ways, line, MSHRs, merges per MSHR, miss-queue entries.
    pub l2_sets: u32,
    pub l2_ways: u32,
    pub l2_line: u32,
    pub l2_mshrs: u32,
    pub l2_merge: u32,
    pub l2_miss_queue: u32,
    /// Queues between the crossbar, an L2 slice and DRAM
    /// (`-gpgpu_dram_partition_queues`).
    pub partition_queue: u32,
    /// Cycles from the crossbar to the L2 (`-rop_latency`), and the fixed
    /// part of the DRAM path (`-dram_latency`), in L2 cycles.
    pub rop_latency: u32,
    pub dram_latency: u32,
    /// Where a request toward DRAM spends `dram_latency`: true, in a queue
    /// of its own after the channel took it from its slice's queues (the
    /// slice's `l2_miss_queue` entries, then `partition_queue` entries
    /// toward DRAM), as GPGPU-Sim's `m_dram_latency_queue`; false, at the
    /// head of the slice's miss queue, which then holds at most
    /// `l2_miss_queue` misses per `dram_latency`.
    #[serde(default)]
    pub dram_latency_queue: bool,
    /// Bytes of each DRAM request a line's fill becomes: 0, the whole line;
    /// 32, its four sectors, each its own request taking a whole DRAM atom
    /// (GPGPU-Sim dev's sectored GTX 480 L2 splits each access into 32-byte
    /// sector requests). A write-back is the whole line either way.
    #[serde(default)]
    pub dram_sector_bytes: u32,
    /// A DRAM bank's group is its number's low bits (GPGPU-Sim's
    /// `-dram_bnkgrp_indexing_policy 1`, the GTX 480 configuration's), so
    /// consecutive banks alternate groups; false: its high bits (the
    /// simulator's default, policy 0).
    #[serde(default)]
    pub dram_bank_group_low_bits: bool,
    /// A program's next launch gives its first CTA to the SM after the one
    /// that took the last launch's last CTA, as GPGPU-Sim's CTA scheduler
    /// (`m_last_cluster_issue`) does; false: every launch starts at SM 0.
    #[serde(default)]
    pub carry_cta_order: bool,
    /// `-gpgpu_dram_timing_opt`.
    pub dram_timing: String,
    /// FR-FCFS queue (`-gpgpu_frfcfs_dram_sched_queue_size`) and return
    /// queue (`-gpgpu_dram_return_queue_size`) entries.
    pub dram_queue: u32,
    pub dram_return_queue: u32,
    /// `-gpgpu_dram_burst_length`, `-gpgpu_dram_buswidth` (bytes per chip),
    /// `-gpgpu_n_mem_per_ctrlr` and `-dram_data_command_freq_ratio`.
    pub dram_burst_length: u32,
    pub dram_bus_bytes: u32,
    pub dram_chips: u32,
    pub dram_data_command_ratio: u32,
    /// A program's next kernel launch finds the L2 slices as the last one
    /// left them (`crate::run::Warm`), as GPGPU-Sim does
    /// (`-gpgpu_flush_l2_cache 0`); `false`: every launch starts cold. For
    /// programs (`warpforge exec`, `workloads`): a single launch starts cold
    /// either way.
    #[serde(default)]
    pub warm_l2: bool,
    /// The program's copies between host and device memory leave their
    /// lines in L2 for the next launch, as in GPGPU-Sim
    /// (`-gpgpu_perf_sim_memcpy 1`).
    #[serde(default)]
    pub copies_fill_l2: bool,
}

impl Default for Gpu {
    fn default() -> Gpu {
        Gpu {
            sms: 1,
            channels: 6,
            sub_partitions: 2,
            address_mapping: "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS".into(),
            icnt_mhz: 700,
            l2_mhz: 700,
            dram_mhz: 924,
            flit_bytes: 32,
            icnt_buffer: 8,
            icnt_latency: 4,
            l2_sets: 64,
            l2_ways: 8,
            l2_line: 128,
            l2_mshrs: 32,
            l2_merge: 4,
            l2_miss_queue: 4,
            partition_queue: 8,
            rop_latency: 120,
            dram_latency: 100,
            dram_latency_queue: false,
            dram_sector_bytes: 0,
            dram_bank_group_low_bits: false,
            carry_cta_order: false,
            dram_timing: "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2".into(),
            dram_queue: 16,
            dram_return_queue: 116,
            dram_burst_length: 8,
            dram_bus_bytes: 4,
            dram_chips: 2,
            dram_data_command_ratio: 4,
            warm_l2: false,
            copies_fill_l2: false,
        }
    }
}

/// Run control.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Cycles without progress (no issue, writeback or memory response)
    /// before the run stops with a deadlock report.
    pub deadlock_cycles: u64,
    /// Stop after this many cycles (0 = no limit); an error if reached.
    pub max_cycles: u64,
    /// Stop after this many warp instructions (0 = no limit); an error if
    /// reached before the kernel finishes.
    #[serde(default)]
    pub max_instructions: u64,
}

fn default_clock_mhz() -> u32 {
    700
}

/// DAC (seed 003 section 4) parameters; used when `mode = "dac"`. The
/// defaults are the paper's (BLOCKS.md): 24 ATQ entries, 192 PWAQ and 192
/// PWPQ entries per SM shared equally by the warp slots.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Dac {
    pub atq_entries: u32,
    pub pwaq_entries: u32,
    pub pwpq_entries: u32,
    /// One affine warp per batch of CTAs launched back to back (section
    /// 4.1): their affine contexts move in step and issue each instruction
    /// once, an `enq` as one tuple for all of them. `false`: every CTA's
    /// affine warp issues on its own.
    pub batches: bool,
    pub barrier_hold: BarrierHold,
}

impl Default for Dac {
    fn default() -> Self {
        Dac { atq_entries: 24, pwaq_entries: 192, pwpq_entries: 192, batches: true, barrier_hold: BarrierHold::Aeu }
    }
}

/// CAE (seed 003 section 5.1.1) parameters; used when `mode = "cae"`.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Cae {
    /// Affine functional units per SM (the paper: two, one per scheduler).
    pub units: u32,
}

impl Default for Cae {
    fn default() -> Self {
        Cae { units: 2 }
    }
}

/// MTA prefetcher (seed 003 section 5.1.1; Lee et al., MICRO 2010)
/// parameters; used when `mode = "mta"`. docs/dac.md gives the sources.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Mta {
    /// The dedicated prefetch buffer, bytes (the paper: 16 KB per SM), and
    /// its ways.
    pub buffer_bytes: u32,
    pub buffer_ways: u32,
    /// Entries of the per-warp stride table and of the inter-warp
    /// (global stride) table, indexed by load PC.
    pub table_entries: u32,
    /// Matching strides seen before a stride is trusted.
    pub confidence: u32,
    /// Prefetch degree before throttling: warps (inter-warp) or loop
    /// iterations (intra-warp) prefetched ahead per trigger.
    pub degree: u32,
    /// Throttling period, in cycles; at its end the early eviction ratio
    /// (prefetched lines evicted unused / prefetches filled) decides the
    /// next period's degree.
    pub throttle_period: u32,
    /// Early eviction ratio above which the degree halves (to 0: off), and
    /// below which it doubles back to `degree`, in percent.
    pub throttle_high: u32,
    pub throttle_low: u32,
}

impl Default for Mta {
    fn default() -> Self {
        Mta {
            buffer_bytes: 16384,
            buffer_ways: 8,
            table_entries: 32,
            confidence: 2,
            degree: 2,
            throttle_period: 10000,
            throttle_high: 50,
            throttle_low: 10,
        }
    }
}

/// DirectPrefetch (seed 000 section 6.1) parameters; used when
/// `mode = "prefetch"`.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct DirectPrefetch {
    /// History-table entries per warp slot, indexed by load PC.
    pub table_entries: u32,
    /// Confidence a stride needs before it prefetches (the paper: 2).
    pub confidence: u32,
    /// Prefetch queue entries (lines waiting for a free memory stage).
    pub queue_entries: u32,
}

impl Default for DirectPrefetch {
    fn default() -> Self {
        DirectPrefetch { table_entries: 32, confidence: 2, queue_entries: 32 }
    }
}

/// A whole SM configuration.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub name: String,
    pub mode: Mode,
    pub core: Core,
    pub operand_collector: OperandCollector,
    pub units: Units,
    pub l1: L1,
    pub memory: Memory,
    pub pmode: Pmode,
    #[serde(default)]
    pub replay: Replay,
    #[serde(default)]
    pub dac: Dac,
    #[serde(default)]
    pub cae: Cae,
    #[serde(default)]
    pub mta: Mta,
    #[serde(default)]
    pub prefetch: DirectPrefetch,
    #[serde(default)]
    pub gpu: Gpu,
    pub limits: Limits,
}

/// Errors reading a configuration (always user input).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: {message}")]
    Toml { file: String, message: String },
    #[error("{file}: key `{key}` = {value}: {why}")]
    Value { file: String, key: String, value: String, why: String },
    #[error("cannot read config `{file}`: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("unknown config preset `{0}` (presets: {1}; or give a path to a .toml file)")]
    UnknownPreset(String, String),
}

/// The built-in presets, by name (the files in `configs/`).
pub const PRESETS: &[(&str, &str)] = &[
    ("hpca16_pmode", include_str!("../../configs/hpca16_pmode.toml")),
    ("isca17_dac", include_str!("../../configs/isca17_dac.toml")),
    ("ubc12_replay", include_str!("../../configs/ubc12_replay.toml")),
    ("gtx480", include_str!("../../configs/gtx480.toml")),
];

impl Config {
    /// Parse and check a configuration; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let c: Config = toml::from_str(text).map_err(|e| ConfigError::Toml { file: file.to_string(), message: toml_message(&e, text) })?;
        c.check(file)?;
        Ok(c)
    }

    /// A preset name or a path to a TOML file.
    pub fn load(spec: &str) -> Result<(Config, Option<PathBuf>), ConfigError> {
        if let Some((_, text)) = PRESETS.iter().find(|(n, _)| *n == spec) {
            return Ok((Config::parse(text, &format!("configs/{spec}.toml"))?, None));
        }
        let path = Path::new(spec);
        if !path.exists() && !spec.contains('/') && !spec.ends_with(".toml") {
            let known = PRESETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
            return Err(ConfigError::UnknownPreset(spec.to_string(), known));
        }
        let text = kernel::input::read_text(path).map_err(|e| ConfigError::Io { file: spec.to_string(), source: e.into() })?;
        Ok((Config::parse(&text, spec)?, Some(path.to_path_buf())))
    }

    /// The same configuration on one SM with its share of the memory
    /// system (`gpu.sms = 1`).
    pub fn single_sm(mut self) -> Config {
        self.gpu.sms = 1;
        self
    }

    /// A built-in preset (panics only on a bad built-in file, which a test
    /// rules out).
    pub fn preset(name: &str) -> Config {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no preset `{name}`"));
        Config::parse(text, name).unwrap_or_else(|e| panic!("built-in preset: {e}"))
    }

    /// Range and consistency rules, each naming its key.
    fn check(&self, file: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, value: &dyn fmt::Display, why: &str| {
            Err(ConfigError::Value { file: file.to_string(), key: key.to_string(), value: value.to_string(), why: why.to_string() })
        };
        let range = |key: &str, v: u64, lo: u64, hi: u64| -> Result<(), ConfigError> {
            if v < lo || v > hi {
                return bad(key, &v, &format!("out of range {lo}..={hi}"));
            }
            Ok(())
        };
        let pow2 = |key: &str, v: u32| -> Result<(), ConfigError> {
            if !v.is_power_of_two() {
                return bad(key, &v, "must be a power of two");
            }
            Ok(())
        };
        let c = &self.core;
        // Warp ids index the hardware blocks, whose per-warp vectors are 64
        // bits wide but the scoreboard's; seed 000's 2xTLP comparator needs
        // 96 warps, in baseline mode (and DirectPrefetch's, beside it).
        range("core.max_warps", c.max_warps as u64, 1, 128)?;
        if !matches!(self.mode, Mode::Baseline | Mode::Prefetch) && c.max_warps > 64 {
            return bad("core.max_warps", &c.max_warps, &format!("at most 64 with mode = \"{}\" (more: baseline and prefetch modes only)", self.mode));
        }
        range("core.max_threads", c.max_threads as u64, 32, 128 * 32)?;
        if c.max_threads > c.max_warps * 32 {
            return bad("core.max_threads", &c.max_threads, &format!("more than core.max_warps * 32 = {}", c.max_warps * 32));
        }
        range("core.max_ctas", c.max_ctas as u64, 1, 64)?;
        range("core.registers", c.registers as u64, 32, 1 << 20)?;
        range("core.shared_memory", c.shared_memory as u64, 0, 1 << 20)?;
        range("core.schedulers", c.schedulers as u64, 1, 4)?;
        if c.schedulers > c.max_warps {
            return bad("core.schedulers", &c.schedulers, "more schedulers than warp slots");
        }
        range("core.two_level_active", c.two_level_active as u64, 1, 64)?;
        range("core.ibuffer_entries", c.ibuffer_entries as u64, 1, 64)?;
        range("core.fetch_width", c.fetch_width as u64, 1, 64)?;
        let fetch_ports = hw::blocks::pmode::FETCH_PORTS.max;
        if self.mode == Mode::Pmode && c.fetch_width as u64 > fetch_ports {
            // Every fetch is matched with its warp's P-queue head (§5.2).
            return bad("core.fetch_width", &c.fetch_width, &format!("at most {fetch_ports} with mode = \"pmode\" (the P-mode unit's fetch ports)"));
        }
        if c.fetch_when_empty && matches!(self.mode, Mode::Pmode | Mode::Replay) {
            // Each fetch is matched with the P-queue, or takes a warp-buffer slot, one instruction at a time.
            return bad("core.fetch_when_empty", &c.fetch_when_empty, "not with mode = \"pmode\" or \"replay\", which fetch one instruction at a time: set it false");
        }
        range("core.fetch_latency", c.fetch_latency as u64, 1, 64)?;
        range("core.cta_launch_interval", c.cta_launch_interval as u64, 1, 1 << 16)?;
        range("core.clock_mhz", c.clock_mhz as u64, 1, 100_000)?;
        let o = &self.operand_collector;
        range("operand_collector.banks", o.banks as u64, 1, 64)?;
        range("operand_collector.units_sp", o.units_sp as u64, 1, 64)?;
        range("operand_collector.units_sfu", o.units_sfu as u64, 1, 64)?;
        range("operand_collector.units_mem", o.units_mem as u64, 1, 64)?;
        range("operand_collector.units_generic", o.units_generic as u64, 0, 64)?;
        let u = &self.units;
        range("units.sp", u.sp as u64, 1, 16)?;
        range("units.sfu", u.sfu as u64, 1, 16)?;
        for (key, arr) in [
            ("units.int_latency", &u.int_latency),
            ("units.fp_latency", &u.fp_latency),
            ("units.dp_latency", &u.dp_latency),
            ("units.int_initiation", &u.int_initiation),
            ("units.fp_initiation", &u.fp_initiation),
            ("units.dp_initiation", &u.dp_initiation),
        ] {
            for (i, &v) in arr.iter().enumerate() {
                range(&format!("{key}[{i}]"), v as u64, 1, 4096)?;
            }
        }
        for i in 0..5 {
            for (lat, ini, key) in [
                (u.int_latency[i], u.int_initiation[i], "units.int_initiation"),
                (u.fp_latency[i], u.fp_initiation[i], "units.fp_initiation"),
                (u.dp_latency[i], u.dp_initiation[i], "units.dp_initiation"),
            ] {
                if ini > lat {
                    return bad(&format!("{key}[{i}]"), &ini, &format!("initiation interval above the latency {lat}"));
                }
            }
        }
        range("units.sfu_latency", u.sfu_latency as u64, 1, 4096)?;
        range("units.sfu_initiation", u.sfu_initiation as u64, 1, u.sfu_latency as u64)?;
        range("units.result_stages", u.result_stages as u64, 0, 64)?;
        range("units.other_latency", u.other_latency as u64, 0, 1 << 16)?;
        range("units.writeback_width", u.writeback_width as u64, 1, 2)?;
        if ![1, 2, 4, 8, 16, 32].contains(&u.sp_lanes) {
            return bad("units.sp_lanes", &u.sp_lanes, "must divide the warp: 1, 2, 4, 8, 16 or 32");
        }
        let l = &self.l1;
        range("l1.sets", l.sets as u64, 1, 1 << 16)?;
        range("l1.ways", l.ways as u64, 1, 64)?;
        pow2("l1.line", l.line)?;
        range("l1.line", l.line as u64, 32, 4096)?;
        range("l1.hit_latency", l.hit_latency as u64, 1, 4096)?;
        range("l1.miss_delay", l.miss_delay as u64, 0, 4096)?;
        range("l1.mshrs", l.mshrs as u64, 1, 256)?;
        range("l1.merge", l.merge as u64, 1, 64)?;
        pow2("l1.shared_banks", l.shared_banks)?;
        range("l1.shared_banks", l.shared_banks as u64, 1, 64)?;
        range("l1.shared_latency", l.shared_latency as u64, 1, 4096)?;
        range("l1.const_latency", l.const_latency as u64, 1, 4096)?;
        for (name, sets, ways, line, miss) in [
            ("icache", l.icache_sets, l.icache_ways, l.icache_line, l.icache_miss_latency),
            ("const", l.const_sets, l.const_ways, l.const_line, l.const_miss_latency),
        ] {
            if sets > 0 {
                range(&format!("l1.{name}_sets"), sets as u64, 1, 1 << 16)?;
                range(&format!("l1.{name}_ways"), ways as u64, 1, 64)?;
                pow2(&format!("l1.{name}_line"), line)?;
                range(&format!("l1.{name}_line"), line as u64, 8, 4096)?;
                if l.read_only_misses == ReadOnlyMisses::Latency {
                    range(&format!("l1.{name}_miss_latency"), miss as u64, 1, 1 << 16)?;
                } else if line > l.line {
                    return bad(&format!("l1.{name}_line"), &line, &format!("larger than l1.line = {} (its misses fill from memory, one L1 line each)", l.line));
                }
            }
        }
        let m = &self.memory;
        range("memory.icnt_queue", m.icnt_queue as u64, 1, 4096)?;
        range("memory.icnt_interval", m.icnt_interval as u64, 1, 4096)?;
        range("memory.response_interval", m.response_interval as u64, 1, 4096)?;
        range("memory.l2_latency", m.l2_latency as u64, 1, 1 << 16)?;
        range("memory.l2_sets", m.l2_sets as u64, 1, 1 << 20)?;
        range("memory.l2_ways", m.l2_ways as u64, 1, 64)?;
        pow2("memory.l2_line", m.l2_line)?;
        if m.l2_line > l.line {
            return bad("memory.l2_line", &m.l2_line, &format!("larger than l1.line = {}", l.line));
        }
        range("memory.dram_latency", m.dram_latency as u64, m.l2_latency as u64, 1 << 16)?;
        range("memory.dram_interval", m.dram_interval as u64, 1, 4096)?;
        let p = &self.pmode;
        range("pmode.pqueue_entries", p.pqueue_entries as u64, 0, 64)?;
        range("pmode.rename_regs", p.rename_regs as u64, 2, 1024)?;
        range("pmode.stack_depth", p.stack_depth as u64, 2, 32)?;
        if self.limits.deadlock_cycles == 0 {
            return bad("limits.deadlock_cycles", &0, "must be at least 1");
        }
        let r = &self.replay;
        pow2("replay.counter_entries", r.counter_entries)?;
        range("replay.counter_entries", r.counter_entries as u64, 1, 4096)?;
        range("replay.counter_bits", r.counter_bits as u64, 1, 8)?;
        range("replay.delay", r.delay as u64, 0, 16)?;
        if self.mode == Mode::Replay {
            // The warp buffers' pointers wrap modulo 2 * slots.
            pow2("core.ibuffer_entries", c.ibuffer_entries)?;
            range("core.ibuffer_entries", c.ibuffer_entries as u64, 2, 32)?;
            if self.l1.mshrs < c.schedulers {
                return bad("l1.mshrs", &self.l1.mshrs, "replay mode splits the MSHR credits over the schedulers: at least one each");
            }
        }
        let g = &self.gpu;
        range("gpu.sms", g.sms as u64, 1, 256)?;
        range("gpu.channels", g.channels as u64, 1, 64)?;
        pow2("gpu.sub_partitions", g.sub_partitions)?;
        range("gpu.sub_partitions", g.sub_partitions as u64, 1, 8)?;
        for (key, v) in [("gpu.icnt_mhz", g.icnt_mhz), ("gpu.l2_mhz", g.l2_mhz), ("gpu.dram_mhz", g.dram_mhz)] {
            range(key, v as u64, 1, 100_000)?;
        }
        range("gpu.flit_bytes", g.flit_bytes as u64, 4, 1024)?;
        range("gpu.icnt_buffer", g.icnt_buffer as u64, 1, 4096)?;
        range("gpu.icnt_latency", g.icnt_latency as u64, 1, 4096)?;
        range("gpu.l2_sets", g.l2_sets as u64, 1, 1 << 20)?;
        range("gpu.l2_ways", g.l2_ways as u64, 1, 64)?;
        if g.sms > 1 && g.l2_line != l.line {
            return bad("gpu.l2_line", &g.l2_line, &format!("must equal l1.line = {} (an L1 miss is one L2 line)", l.line));
        }
        range("gpu.l2_mshrs", g.l2_mshrs as u64, 1, 4096)?;
        range("gpu.l2_merge", g.l2_merge as u64, 1, 64)?;
        range("gpu.l2_miss_queue", g.l2_miss_queue as u64, 1, 4096)?;
        range("gpu.partition_queue", g.partition_queue as u64, 1, 4096)?;
        range("gpu.rop_latency", g.rop_latency as u64, 1, 1 << 16)?;
        range("gpu.dram_latency", g.dram_latency as u64, 0, 1 << 16)?;
        if g.dram_sector_bytes != 0 {
            pow2("gpu.dram_sector_bytes", g.dram_sector_bytes)?;
            range("gpu.dram_sector_bytes", g.dram_sector_bytes as u64, (g.l2_line as u64 / 64).max(8), g.l2_line as u64)?;
        }
        range("gpu.dram_queue", g.dram_queue as u64, 1, 4096)?;
        range("gpu.dram_return_queue", g.dram_return_queue as u64, 1, 4096)?;
        range("gpu.dram_burst_length", g.dram_burst_length as u64, 1, 64)?;
        range("gpu.dram_bus_bytes", g.dram_bus_bytes as u64, 1, 64)?;
        range("gpu.dram_chips", g.dram_chips as u64, 1, 16)?;
        range("gpu.dram_data_command_ratio", g.dram_data_command_ratio as u64, 1, 16)?;
        if let Err(e) = crate::gpu::dram::DramTiming::parse(&g.dram_timing) {
            return bad("gpu.dram_timing", &format!("{:?}", g.dram_timing), &e);
        }
        if let Err(e) = crate::gpu::addr::AddressMap::parse(&g.address_mapping, g.channels, g.sub_partitions) {
            return bad("gpu.address_mapping", &format!("{:?}", g.address_mapping), &e);
        }
        let d = &self.dac;
        range("dac.atq_entries", d.atq_entries as u64, 1, 1024)?;
        for (key, v) in [("dac.pwaq_entries", d.pwaq_entries), ("dac.pwpq_entries", d.pwpq_entries)] {
            if v < self.core.max_warps {
                return bad(key, &v, &format!("at least one entry per warp slot (core.max_warps = {})", self.core.max_warps));
            }
        }
        range("cae.units", self.cae.units as u64, 1, 16)?;
        let t = &self.mta;
        range("mta.buffer_ways", t.buffer_ways as u64, 1, 64)?;
        if !t.buffer_bytes.is_multiple_of(l.line * t.buffer_ways) || t.buffer_bytes == 0 || t.buffer_bytes > 1 << 24 {
            return bad("mta.buffer_bytes", &t.buffer_bytes, &format!("a non-zero multiple of l1.line x mta.buffer_ways = {}, at most 16 MB", l.line * t.buffer_ways));
        }
        range("mta.table_entries", t.table_entries as u64, 1, 4096)?;
        range("mta.confidence", t.confidence as u64, 1, 16)?;
        range("mta.degree", t.degree as u64, 1, 64)?;
        range("mta.throttle_period", t.throttle_period as u64, 1, 1 << 20)?;
        range("mta.throttle_high", t.throttle_high as u64, 0, 100)?;
        range("mta.throttle_low", t.throttle_low as u64, 0, t.throttle_high as u64)?;
        let f = &self.prefetch;
        range("prefetch.table_entries", f.table_entries as u64, 1, 4096)?;
        // The 2-bit confidence counter saturates at 3.
        range("prefetch.confidence", f.confidence as u64, 1, 3)?;
        range("prefetch.queue_entries", f.queue_entries as u64, 1, 4096)?;
        Ok(())
    }

    /// Set one key from `key=value` (sweeps and `--set` on the command line),
    /// re-checked like a file.
    pub fn with_override(&self, assignment: &str) -> Result<Config, ConfigError> {
        let (key, value) = assignment.split_once('=').ok_or_else(|| ConfigError::Toml {
            file: "--set".into(),
            message: format!("`{assignment}` is not of the form key=value"),
        })?;
        let mut doc: toml::Table = toml::Table::try_from(self).map_err(|e| ConfigError::Toml { file: "--set".into(), message: e.to_string() })?;
        // A TOML value (`16`, `"lrr"`, `[1, 2]`), or a bare word as a string.
        let parsed = format!("v = {}", value.trim())
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.trim().to_string()));
        let parts: Vec<&str> = key.trim().split('.').collect();
        let mut table = &mut doc;
        for (i, part) in parts.iter().enumerate() {
            if i + 1 == parts.len() {
                if !table.contains_key(*part) {
                    return Err(ConfigError::Toml { file: "--set".into(), message: format!("unknown key `{}`", key.trim()) });
                }
                if let Some(toml::Value::Table(section)) = table.get(*part) {
                    let keys: Vec<String> = section.keys().map(|k| format!("{}.{k}", key.trim())).collect();
                    return Err(ConfigError::Toml {
                        file: "--set".into(),
                        message: format!("`{}` is a section; set one of its keys: {}", key.trim(), keys.join(", ")),
                    });
                }
                table.insert(part.to_string(), parsed.clone());
            } else {
                table = match table.get_mut(*part) {
                    Some(toml::Value::Table(t)) => t,
                    _ => return Err(ConfigError::Toml { file: "--set".into(), message: format!("unknown key `{}`", key.trim()) }),
                };
            }
        }
        let text = toml::to_string(&doc).map_err(|e| ConfigError::Toml { file: "--set".into(), message: e.to_string() })?;
        // The document is ours, not the user's: name the key, not a line of it.
        let c: Config = toml::from_str(&text).map_err(|e| ConfigError::Toml {
            file: format!("--set {}", kernel::error::clip(assignment)),
            message: format!("key `{}`: {}", key.trim(), kernel::error::plain_types(&e.message().trim().replace('\n', " "))),
        })?;
        c.check(&format!("--set {}", kernel::error::clip(assignment)))?;
        Ok(c)
    }
}

/// toml's message on one line, with the line, column and the dotted key
/// the error is at.
fn toml_message(e: &toml::de::Error, text: &str) -> String {
    let msg = kernel::error::plain_types(&e.message().trim().replace('\n', " "));
    let Some(span) = e.span() else { return msg };
    let start = span.start.min(text.len());
    let line_no = text[..start].matches('\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let col = start - line_start + 1;
    let line = text[line_start..].lines().next().unwrap_or("");
    let table = text[..line_start]
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix('[').and_then(|l| l.split(']').next()).map(|t| t.trim().to_string()));
    let key = line.split_once('=').map(|(k, _)| k.trim()).filter(|k| !k.is_empty() && !k.starts_with('['));
    match (table, key) {
        (Some(t), Some(k)) => format!("line {line_no}, column {col}: key `{t}.{k}`: {msg}"),
        (None, Some(k)) => format!("line {line_no}, column {col}: key `{k}`: {msg}"),
        _ => format!("line {line_no}, column {col}: {msg}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse() {
        for (name, _) in PRESETS {
            let c = Config::preset(name);
            assert_eq!(&c.name, name);
        }
        let p = Config::preset("hpca16_pmode");
        assert_eq!((p.core.max_warps, p.core.schedulers, p.core.policy), (48, 2, Policy::Gto));
        assert_eq!((p.l1.sets, p.l1.ways, p.l1.mshrs), (64, 4, 96));
        let d = Config::preset("isca17_dac");
        assert_eq!((d.core.policy, d.l1.mshrs, d.l1.sets * d.l1.ways * d.l1.line), (Policy::TwoLevel, 32, 48 * 1024));
        let r = Config::preset("ubc12_replay");
        assert_eq!((r.core.max_warps, r.l1.sets, r.l1.ways, r.core.ibuffer_entries), (64, 64, 6, 8));
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_key() {
        let base = PRESETS[0].1;
        let e = Config::parse(&base.replace("max_warps = 48", "max_warps = 48\nwarps = 3"), "x.toml").unwrap_err().to_string();
        assert!(e.contains("x.toml") && e.contains("warps"), "{e}");
        let e = Config::parse(&base.replace("max_warps = 48", "max_warps = 0"), "x.toml").unwrap_err().to_string();
        assert!(e.contains("core.max_warps") && e.contains("out of range"), "{e}");
        let e = Config::parse(&base.replace("line = 128", "line = 100"), "x.toml").unwrap_err().to_string();
        assert!(e.contains("l1.line") && e.contains("power of two"), "{e}");
        let e = Config::parse(&base.replace("policy = \"gto\"", "policy = \"fifo\""), "x.toml").unwrap_err().to_string();
        assert!(e.contains("fifo"), "{e}");
        let e = Config::parse(&base.replace("max_warps = 48", "max_warps = \"many\""), "x.toml").unwrap_err().to_string();
        assert!(e.contains("x.toml") && e.contains("core.max_warps") && e.contains("line 8"), "{e}");
    }

    #[test]
    fn overrides() {
        let c = Config::preset("hpca16_pmode");
        let d = c.with_override("core.policy=\"lrr\"").unwrap();
        assert_eq!(d.core.policy, Policy::Lrr);
        let d = c.with_override("l1.mshrs=16").unwrap();
        assert_eq!(d.l1.mshrs, 16);
        assert!(c.with_override("l1.bogus=1").unwrap_err().to_string().contains("l1.bogus"));
        assert!(c.with_override("l1.mshrs=0").unwrap_err().to_string().contains("l1.mshrs"));
        let d = c.with_override("mode=\"pmode\"").unwrap();
        assert_eq!(d.mode, Mode::Pmode);
        // 2xTLP (seed 000 Figure 17) runs 96 warps in baseline mode, not in P-mode.
        let tlp = c.with_override("core.max_warps=96").unwrap();
        assert!(tlp.with_override("mode=\"pmode\"").unwrap_err().to_string().contains("core.max_warps"));
        // P-mode matches every fetch with the P-queue: the unit's fetch ports bound the fetch width.
        let wide = c.with_override("core.fetch_width=3").unwrap();
        assert!(wide.with_override("mode=\"pmode\"").unwrap_err().to_string().contains("core.fetch_width"));
        let grouped = c.with_override("core.fetch_when_empty=true").unwrap();
        for mode in ["pmode", "replay"] {
            assert!(grouped.with_override(&format!("mode=\"{mode}\"")).unwrap_err().to_string().contains("core.fetch_when_empty"));
        }
        let d = Config::preset("isca17_dac").with_override("mode=cae").unwrap().with_override("cae.units=1").unwrap();
        assert_eq!((d.mode, d.cae.units, d.units.sp_lanes), (Mode::Cae, 1, 16));
        assert_eq!(c.units.sp_lanes, 32, "the default: a warp per cycle");
        for (set, key) in [("units.sp_lanes=12", "units.sp_lanes"), ("prefetch.confidence=4", "prefetch.confidence"), ("mta.buffer_bytes=1000", "mta.buffer_bytes"), ("mta.throttle_low=90", "mta.throttle_low"), ("cae.units=0", "cae.units")] {
            let e = c.with_override(set).unwrap_err().to_string();
            assert!(e.contains(key), "{set}: {e}");
        }
    }
}
