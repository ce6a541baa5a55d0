//! The whole GPU (SM.md §0, GPGPU-Sim's `gpu-sim.cc`): `gpu.sms` SMs, a CTA
//! scheduler, a request and a reply crossbar, L2 slices (memory
//! sub-partitions) and DRAM channels, each part on its clock domain.
//!
//! Each core cycle the SMs step in parallel (worker threads), each seeing global
//! memory as the previous cycle left it plus its own writes; then, in SM
//! order, their writes are committed, their requests enter the crossbar and
//! the CTA scheduler hands out CTAs. Nothing an SM does in its step depends
//! on another SM's step of the same cycle, so statistics and final memory
//! are the same at any thread count.

pub mod addr;
pub mod dram;
pub mod icnt;
pub mod l2;

use crate::blocks::Engine;
use crate::config::Config;
use crate::core::{Outputs, Progress, ProgressFn, RunError, Sm, StuckWatch, PROGRESS_CYCLES};
use crate::func::Functional;
use crate::mem::lower::{Kind, Response};
use crate::run::{Outcome, Warm};
use crate::stats::Stats;
use addr::AddressMap;
use dram::{Dram, DramRequest, DramStats, DramTiming};
use icnt::Crossbar;
use kernel::{Kernel, Launch, Memory};
use l2::{L2Request, L2Slice, L2Stats};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

/// Bytes of a packet's header (GPGPU-Sim's `READ_PACKET_SIZE`).
const HEADER_BYTES: u32 = 8;

/// What the memory system of a GPU run did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuStats {
    pub sms: u32,
    pub channels: u32,
    /// Cycles of each clock domain: interconnect, L2, DRAM.
    pub icnt_cycles: u64,
    pub l2_cycles: u64,
    pub dram_cycles: u64,
    pub request_flits: u64,
    pub reply_flits: u64,
    /// Bytes per flit: the flits above are the traffic between the L1s and
    /// L2 (seed 000 Figure 15), headers included.
    #[serde(default)]
    pub flit_bytes: u32,
    pub l2: L2Stats,
    pub dram_reads: u64,
    pub dram_writes: u64,
    pub dram_activates: u64,
    pub dram_row_hits: u64,
    /// DRAM command cycles the data buses carried data, over all channels.
    pub dram_bus_busy: u64,
    /// Core cycles each SM had a CTA or requests in flight.
    pub sm_busy_cycles: Vec<u64>,
}

impl GpuStats {
    /// Bytes moved between the L1s and L2, both directions.
    pub fn l1_l2_bytes(&self) -> u64 {
        (self.request_flits + self.reply_flits) * self.flit_bytes as u64
    }
}

/// A clock domain: its period and next edge, in femtoseconds.
struct Clock {
    period: u64,
    next: u64,
}

impl Clock {
    fn new(mhz: u32) -> Clock {
        Clock { period: 1_000_000_000 / mhz as u64, next: 0 }
    }
}

pub struct Gpu {
    cfg: Config,
    shared: Arc<Shared>,
    memory: Arc<RwLock<Memory>>,
    requests: Crossbar<L2Request>,
    replies: Crossbar<L2Request>,
    slices: Vec<L2Slice>,
    drams: Vec<Dram>,
    /// Per channel: the slice its DRAM takes from next (round-robin).
    dram_rr: Vec<usize>,
    /// Per channel (`gpu.dram_latency_queue`): requests spending
    /// `dram_latency` on their way into DRAM, (L2 cycle they arrive, request).
    dram_latency: Vec<VecDeque<(u64, DramRequest)>>,
    /// Per channel: the sector requests of the line it took last
    /// (`gpu.dram_sector_bytes`), one to DRAM a cycle; per slice and MSHR,
    /// the sectors of its fill back so far.
    dram_sectors: Vec<VecDeque<DramRequest>>,
    sectors_back: Vec<Vec<u8>>,
    map: AddressMap,
    line: u64,
    line_flits: u32,
    ctas: u32,
    next_cta: u32,
    last_sm: usize,
    now: u64,
    clocks: [Clock; 4],
    /// Threads beyond this one stepping SMs.
    workers: Vec<std::thread::JoinHandle<()>>,
    busy_cycles: Vec<u64>,
    /// Per SM after the last core cycle: idle, last progress, room for a CTA.
    idle: Vec<bool>,
    progress: Vec<u64>,
    can_take: Vec<bool>,
    /// Warp instructions issued so far, over the SMs.
    warp_insts: u64,
    stats: GpuStats,
    /// The caches for the next launch, filled in at the end.
    warm: Warm,
}

impl Gpu {
    /// `threads`: worker threads stepping the SMs (1: on this thread).
    /// `out`: SM 0 writes the VCD and pipeline log and keeps the event
    /// logs; `out.threads` threads step the SMs.
    /// `warm`: the caches an earlier launch of the program left
    /// (`crate::run::Warm`), the kernel's code at `code_base`.
    pub fn new(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, out: &mut Outputs, warm: Warm, code_base: u64) -> Result<Gpu, String> {
        let threads = out.threads.max(1);
        let g = &cfg.gpu;
        let memory = Arc::new(RwLock::new(launch.memory.clone()));
        let mut sms = Vec::with_capacity(g.sms as usize);
        for i in 0..g.sms {
            let mut func = Functional::new(kernel.clone(), launch.clone(), cfg.core.max_warps, cfg.core.max_ctas)?;
            func.read_unmapped_as_zero(cfg.memory.unmapped_reads == crate::config::UnmappedReads::Zero);
            func.set_clock_hz(cfg.core.clock_mhz as u64 * 1_000_000);
            let own = Outputs { exhaustive: out.exhaustive, ..Outputs::default() };
            let mut sm = Sm::new(cfg.clone(), func, engine, if i == 0 { std::mem::replace(out, own) } else { own })?;
            sm.join_gpu(memory.clone());
            sm.warm_up(warm.sms.get(i as usize), code_base);
            sms.push(sm);
        }
        sms[0].check_fits().map_err(|e| e.to_string())?;
        let map = AddressMap::parse(&g.address_mapping, g.channels, g.sub_partitions)?;
        let timing = DramTiming::parse(&g.dram_timing)?;
        let nslices = (g.channels * g.sub_partitions) as usize;
        let buffer = g.icnt_buffer as usize;
        let n = sms.len();
        let shared = Arc::new(Shared {
            sms: sms.into_iter().map(Mutex::new).collect(),
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            go: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            errors: Mutex::new(Vec::new()),
        });
        let mut workers = Vec::new();
        for k in 1..threads {
            let sh = Arc::clone(&shared);
            let h = std::thread::Builder::new().name(format!("sm-worker-{k}")).spawn(move || sh.work()).map_err(|e| format!("cannot start {threads} threads: {e}"))?;
            workers.push(h);
        }
        let mut gpu = Gpu {
            requests: Crossbar::new(n, nslices, buffer, g.icnt_latency as u64),
            replies: Crossbar::new(nslices, n, buffer, g.icnt_latency as u64),
            slices: (0..nslices)
                .map(|i| {
                    let mut s = L2Slice::new(g);
                    if let Some(l) = warm.l2.get(i).filter(|_| g.warm_l2 && warm.l2.len() == nslices) {
                        s.warm(l);
                    }
                    s
                })
                .collect(),
            drams: (0..g.channels)
                .map(|_| {
                    let d = Dram::new(timing, g.dram_queue as usize, g.dram_return_queue as usize, g.dram_burst_length, g.dram_bus_bytes * g.dram_chips, g.dram_data_command_ratio);
                    if g.dram_bank_group_low_bits { d.with_low_group_bits() } else { d }
                })
                .collect(),
            dram_rr: vec![0; g.channels as usize],
            dram_latency: vec![VecDeque::new(); g.channels as usize],
            dram_sectors: vec![VecDeque::new(); g.channels as usize],
            sectors_back: vec![vec![0; g.l2_mshrs as usize]; (g.channels * g.sub_partitions) as usize],
            map,
            line: g.l2_line as u64,
            line_flits: (HEADER_BYTES + g.l2_line).div_ceil(g.flit_bytes),
            ctas: launch.ctas() as u32,
            next_cta: 0,
            // GPGPU-Sim's round robin goes on from the last launch's SM.
            last_sm: warm.last_sm.filter(|&s| g.carry_cta_order && s < g.sms as usize).unwrap_or(g.sms as usize - 1),
            now: 0,
            clocks: [Clock::new(cfg.core.clock_mhz), Clock::new(g.icnt_mhz), Clock::new(g.l2_mhz), Clock::new(g.dram_mhz)],
            workers,
            busy_cycles: vec![0; n],
            idle: vec![true; n],
            progress: vec![0; n],
            can_take: vec![false; n],
            warp_insts: 0,
            stats: GpuStats { sms: g.sms, channels: g.channels, ..GpuStats::default() },
            warm,
            shared,
            memory,
            cfg: cfg.clone(),
        };
        gpu.copies_into_l2();
        Ok(gpu)
    }

    /// The lines of the host copies since the last launch go into L2, in
    /// copy order (`gpu.copies_fill_l2`, GPGPU-Sim's
    /// `-gpgpu_perf_sim_memcpy`).
    fn copies_into_l2(&mut self) {
        let copies = std::mem::take(&mut self.warm.copies);
        if !self.cfg.gpu.copies_fill_l2 {
            return;
        }
        for (addr, bytes) in copies {
            for line in addr / self.line..=(addr + bytes - 1) / self.line {
                let (slice, set) = self.slice_and_set(line);
                self.slices[slice].install(line, set);
            }
        }
    }

    /// The L2 slice of a line and its set there: sets are indexed by the
    /// partition address (`l2_cache_config::set_index`).
    fn slice_and_set(&self, line: u64) -> (usize, u32) {
        let addr = line * self.line;
        let slice = self.map.decode(addr).sub_partition as usize;
        (slice, ((self.map.partition_address(addr) / self.line) % self.cfg.gpu.l2_sets as u64) as u32)
    }

    /// Run the grid to completion: the GPU's statistics (SMs summed) and
    /// the final memory.
    pub fn run(mut self, mut progress: Option<ProgressFn>) -> Result<Outcome, RunError> {
        let limits = self.cfg.limits.clone();
        let mut shown = 0;
        let (mut watch, mut checked) = (StuckWatch::new(&self.cfg), 0);
        while !self.finished() {
            self.step()?;
            if let Some(f) = progress.as_mut().filter(|_| self.now >= shown + PROGRESS_CYCLES) {
                shown = self.now;
                let ctas_done = (0..self.shared.sms.len()).map(|i| self.sm(i).ctas_finished()).sum();
                f(&Progress { cycles: self.now, warp_insts: self.warp_insts, ctas_done, ctas: self.ctas as u64 });
            }
            let progress = self.progress.iter().copied().max().unwrap_or(0);
            if self.now - progress > limits.deadlock_cycles {
                let report = (0..self.shared.sms.len()).map(|i| format!("SM {i}:\n{}", self.sm(i).report())).collect::<Vec<_>>().join("\n");
                return Err(RunError::Deadlock { cycles: limits.deadlock_cycles, at: self.now, report });
            }
            if limits.max_cycles != 0 && self.now >= limits.max_cycles {
                return Err(RunError::MaxCycles(limits.max_cycles, self.how_far()));
            }
            if limits.max_instructions != 0 && self.warp_insts > limits.max_instructions {
                return Err(RunError::MaxInstructions(limits.max_instructions, self.how_far()));
            }
            // As one SM's check, over the GPU: every SM with warps is stuck.
            if self.now >= checked + watch.spacing {
                checked = self.now;
                if let Some(detail) = watch.look((self.memory_generation(), self.next_cta), self.stuck()) {
                    let kernel = self.sm(0).functional().kernel_name().to_string();
                    return Err(RunError::NoProgress { kernel, at: self.now, detail });
                }
            }
        }
        self.stop_workers();
        let (actions, replay_events, dac_tuples) = {
            let mut sm0 = self.sm(0);
            (sm0.take_actions(), sm0.replay_events(), sm0.dac_tuples())
        };
        let mut sms = Vec::with_capacity(self.shared.sms.len());
        let mut caches = Vec::with_capacity(self.shared.sms.len());
        for i in 0..self.shared.sms.len() {
            let mut sm = self.sm(i);
            sm.finish_stats()?;
            sms.push(sm.stats.clone());
            caches.push(sm.caches());
        }
        let mut warm = std::mem::take(&mut self.warm);
        warm.sms = caches;
        warm.l2 = self.slices.iter().map(|s| s.lines()).collect();
        warm.last_sm = Some(self.last_sm);
        let mut stats = merge(&sms, self.now);
        self.stats.request_flits = self.requests.stats.flits;
        self.stats.reply_flits = self.replies.stats.flits;
        self.stats.flit_bytes = self.cfg.gpu.flit_bytes;
        for s in &self.slices {
            add_l2(&mut self.stats.l2, &s.stats);
        }
        for d in &self.drams {
            let d: &DramStats = d.stats();
            self.stats.dram_reads += d.reads;
            self.stats.dram_writes += d.writes;
            self.stats.dram_activates += d.activates;
            self.stats.dram_row_hits += d.row_hits;
            self.stats.dram_bus_busy += d.data_bus_busy;
        }
        self.stats.sm_busy_cycles = self.busy_cycles.clone();
        stats.l2_hits = self.stats.l2.hits;
        stats.l2_misses = self.stats.l2.misses;
        stats.gpu = Some(self.stats.clone());
        let shared = std::mem::replace(&mut self.shared, Arc::new(Shared::default()));
        drop(shared);
        let memory = std::mem::replace(&mut self.memory, Arc::new(RwLock::new(Memory::new())));
        let memory = Arc::try_unwrap(memory).map_err(|_| RunError::Exec("the GPU's memory is still shared".into()))?;
        let memory = memory.into_inner().map_err(|_| RunError::Exec("the GPU's memory lock was poisoned".into()))?;
        Ok(Outcome { stats, memory, actions, replay_events, dac_tuples, warm })
    }

    fn memory_generation(&self) -> u64 {
        (0..self.shared.sms.len()).map(|i| self.sm(i).generation()).sum()
    }

    /// Every SM that has warps is stuck (`Sm::stuck`): where each is.
    fn stuck(&self) -> Option<String> {
        let mut parts = Vec::new();
        for i in 0..self.shared.sms.len() {
            let sm = self.sm(i);
            if sm.idle() {
                continue;
            }
            parts.push(format!("SM {i}: {}", sm.stuck()?));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn how_far(&self) -> String {
        let done: u64 = (0..self.shared.sms.len()).map(|i| self.sm(i).ctas_finished()).sum();
        format!("{done} of {} CTAs done", self.ctas)
    }

    fn finished(&self) -> bool {
        self.next_cta == self.ctas
            && self.idle.iter().all(|&i| i)
            && !self.requests.busy()
            && !self.replies.busy()
            && self.slices.iter().all(|s| !s.busy())
            && self.drams.iter().all(|d| !d.busy())
            && self.dram_latency.iter().all(|q| q.is_empty())
            && self.dram_sectors.iter().all(|q| q.is_empty())
    }

    /// Advance to the next clock edge(s) of any domain.
    fn step(&mut self) -> Result<(), RunError> {
        let t = self.clocks.iter().map(|c| c.next).min().expect("four clocks");
        let ticks: [bool; 4] = std::array::from_fn(|i| self.clocks[i].next == t);
        for (c, &tick) in self.clocks.iter_mut().zip(&ticks) {
            if tick {
                c.next += c.period;
            }
        }
        // GPGPU-Sim's order: responses into the cores, DRAM, L2, the
        // interconnect, then the cores.
        if ticks[0] {
            self.exchange_with_sms();
        }
        if ticks[3] {
            self.dram_cycle();
        }
        if ticks[2] {
            self.l2_cycle();
        }
        if ticks[1] {
            self.requests.cycle();
            self.replies.cycle();
            self.stats.icnt_cycles += 1;
        }
        if ticks[0] {
            self.core_cycle()?;
        }
        Ok(())
    }

    /// Replies into the SMs' ports, the SMs' requests into the crossbar
    /// (one of each per SM per cycle).
    fn exchange_with_sms(&mut self) {
        let shared = Arc::clone(&self.shared);
        for i in 0..shared.sms.len() {
            let mut sm = lock(&shared, i);
            let port = sm.mem.lower.port_mut().expect("an SM of a GPU");
            if port.inbound.len() < 2 {
                if let Some(r) = self.replies.pop(i) {
                    port.inbound.push_back(Response { line: r.line, kind: r.kind, dram: false });
                }
            }
            if self.requests.can_push(i) {
                if let Some(r) = port.out.pop_front() {
                    let (slice, set) = self.slice_and_set(r.line);
                    let flits = if r.kind.is_write() || matches!(r.kind, Kind::Atomic { .. }) { self.line_flits } else { 1 };
                    self.requests.push(i, slice, flits, L2Request { sm: i as u16, line: r.line, set, kind: r.kind });
                }
            }
        }
    }

    /// Bytes of each DRAM request (a whole line unless `gpu.dram_sector_bytes`).
    fn sector_bytes(&self) -> u64 {
        match self.cfg.gpu.dram_sector_bytes {
            0 => self.line,
            s => s as u64,
        }
    }

    fn dram_cycle(&mut self) {
        self.stats.dram_cycles += 1;
        let subs = self.cfg.gpu.sub_partitions as usize;
        let delay = self.cfg.gpu.dram_latency as u64;
        let queued = self.cfg.gpu.dram_latency_queue;
        let sector = self.sector_bytes();
        for (c, dram) in self.drams.iter_mut().enumerate() {
            let latency = &mut self.dram_latency[c];
            let sectors = &mut self.dram_sectors[c];
            // The slices of a channel share the L2 clock.
            let now = self.slices[c * subs].now();
            // The channel takes one request a cycle from its slices in turn
            // (a line's sectors one after the other).
            for k in (0..subs).filter(|_| sectors.is_empty()) {
                let s = c * subs + (self.dram_rr[c] + k) % subs;
                let slice = &mut self.slices[s];
                let ready = slice.miss_queue.front().is_some_and(|&(t, _)| t <= slice.now());
                if !ready {
                    continue;
                }
                if !dram.can_accept() {
                    dram.note_full();
                    break;
                }
                let (_, op) = slice.miss_queue.pop_front().expect("a ready request");
                let tag = ((s as u64) << 32) | op.mshr as u64;
                // A write-back is the whole line, as GPGPU-Sim's of a line
                // whose every sector is dirty.
                let bytes = if op.write { self.line } else { sector };
                for at in (0..self.line).step_by(bytes as usize) {
                    let a = self.map.decode(op.line * self.line + at);
                    sectors.push_back(DramRequest { tag, bank: a.bank, row: a.row, col: a.col, write: op.write, bytes: bytes as u32 });
                }
                self.dram_rr[c] = (s - c * subs + 1) % subs;
                break;
            }
            if !sectors.is_empty() {
                if dram.can_accept() {
                    let r = sectors.pop_front().expect("a request");
                    if queued {
                        latency.push_back((now + delay, r));
                    } else {
                        dram.push(r);
                    }
                } else {
                    dram.note_full();
                }
            }
            if latency.front().is_some_and(|&(t, _)| t <= now) && dram.can_accept() {
                dram.push(latency.pop_front().expect("a request").1);
            }
            dram.cycle();
            if let Some(tag) = dram.peek_return() {
                let (s, m) = ((tag >> 32) as usize, tag as u32);
                let slice = &mut self.slices[s];
                let back = &mut self.sectors_back[s][m as usize];
                if *back + 1 < (self.line / sector) as u8 {
                    *back += 1;
                    dram.pop_return();
                } else if slice.fills.len() < slice.queue {
                    *back = 0;
                    slice.fills.push_back(m);
                    dram.pop_return();
                }
            }
        }
    }

    fn l2_cycle(&mut self) {
        self.stats.l2_cycles += 1;
        for (s, slice) in self.slices.iter_mut().enumerate() {
            if slice.can_accept() {
                if let Some(r) = self.requests.pop(s) {
                    slice.accept(r);
                }
            }
            slice.cycle();
            if self.replies.can_push(s) {
                if let Some(r) = slice.replies.pop_front() {
                    // A store's acknowledgement is a header alone.
                    let flits = if r.kind.is_write() { 1 } else { self.line_flits };
                    self.replies.push(s, r.sm as usize, flits, r);
                }
            }
        }
    }

    fn core_cycle(&mut self) -> Result<(), RunError> {
        let sh = &self.shared;
        sh.next.store(0, Ordering::SeqCst);
        sh.done.store(0, Ordering::SeqCst);
        sh.go.fetch_add(1, Ordering::SeqCst);
        sh.step_some();
        let mut spins = 0u32;
        while sh.done.load(Ordering::SeqCst) < self.workers.len() {
            backoff(&mut spins);
        }
        let mut errors = sh.errors.lock().map_err(|_| RunError::Exec("an SM thread panicked".into()))?;
        // The lowest-numbered SM's error, whatever the thread schedule.
        if let Some(k) = (0..errors.len()).min_by_key(|&k| errors[k].0) {
            let (i, e) = errors.swap_remove(k);
            return Err(match e {
                RunError::Exec(m) => RunError::Exec(format!("SM {i}: {m}")),
                e => e,
            });
        }
        drop(errors);
        {
            let mut m = self.memory.write().map_err(|_| RunError::Exec("the GPU's memory lock was poisoned".into()))?;
            let shared = Arc::clone(&self.shared);
            self.warp_insts = 0;
            for i in 0..shared.sms.len() {
                let mut sm = lock(&shared, i);
                sm.commit(&mut m);
                self.warp_insts += sm.stats.warp_insts;
                self.idle[i] = sm.idle();
                self.progress[i] = sm.last_progress();
                self.can_take[i] = self.next_cta < self.ctas && sm.can_take_cta();
                self.busy_cycles[i] += !self.idle[i] as u64;
            }
        }
        // GPGPU-Sim's issue_block2core: SMs in turn from the one after the
        // last given a CTA, one CTA each while they have room.
        let n = self.shared.sms.len();
        let first = self.last_sm + 1;
        for k in 0..n {
            if self.next_cta == self.ctas {
                break;
            }
            let i = (first + k) % n;
            if self.can_take[i] {
                lock(&self.shared, i).give_cta(self.next_cta);
                self.idle[i] = false;
                self.next_cta += 1;
                self.last_sm = i;
            }
        }
        self.now += 1;
        Ok(())
    }
}

impl Gpu {
    fn sm(&self, i: usize) -> MutexGuard<'_, Sm> {
        lock(&self.shared, i)
    }

    fn stop_workers(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        self.stop_workers();
    }
}

/// SM `i`. Its lock is poisoned only if a thread panicked stepping it, and
/// then the run has failed already.
fn lock(shared: &Shared, i: usize) -> MutexGuard<'_, Sm> {
    shared.sms[i].lock().unwrap_or_else(|p| p.into_inner())
}

/// What the threads stepping the SMs share. Each core cycle the main
/// thread bumps `go`; every thread then takes SMs in turn from `next`
/// until none is left, and a worker counts itself `done`.
#[derive(Default)]
struct Shared {
    sms: Vec<Mutex<Sm>>,
    next: AtomicUsize,
    done: AtomicUsize,
    go: AtomicU64,
    stop: AtomicBool,
    errors: Mutex<Vec<(usize, RunError)>>,
}

impl Shared {
    fn step_some(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(sm) = self.sms.get(i) else { return };
            let r = sm.lock().unwrap_or_else(|p| p.into_inner()).cycle();
            if let Err(e) = r {
                self.errors.lock().unwrap_or_else(|p| p.into_inner()).push((i, e));
            }
        }
    }

    /// A worker thread: a cycle's share of SMs each time `go` moves.
    fn work(&self) {
        // `go` starts at 0, before the first cycle (which may bump it
        // before this thread runs).
        let mut seen = 0;
        loop {
            let mut spins = 0u32;
            loop {
                if self.stop.load(Ordering::SeqCst) {
                    return;
                }
                if self.go.load(Ordering::SeqCst) != seen {
                    break;
                }
                backoff(&mut spins);
            }
            seen = self.go.load(Ordering::SeqCst);
            self.step_some();
            self.done.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Wait a little: spin first (a cycle of SM work is microseconds), then
/// give the core away (more threads than cores).
fn backoff(spins: &mut u32) {
    *spins += 1;
    if *spins < 2000 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

fn add_l2(a: &mut L2Stats, b: &L2Stats) {
    a.reads += b.reads;
    a.writes += b.writes;
    a.atomics += b.atomics;
    a.hits += b.hits;
    a.misses += b.misses;
    a.merges += b.merges;
    a.writebacks += b.writebacks;
    a.stalls += b.stalls;
}

/// The GPU's statistics from its SMs': counts summed (CTA completion
/// cycles by CTA), peaks the largest, rates recomputed over `cycles`.
fn merge(sms: &[Stats], cycles: u64) -> Stats {
    fn add(a: &mut serde_json::Value, b: &serde_json::Value) {
        use serde_json::Value;
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
                    *x = (p + q).into();
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() < y.len() {
                    x.resize(y.len(), 0u64.into());
                }
                for (p, q) in x.iter_mut().zip(y) {
                    add(p, q);
                }
            }
            (Value::Object(x), Value::Object(y)) => {
                for (k, q) in y {
                    match x.get_mut(k) {
                        Some(p) => add(p, q),
                        // A field the first SM left out (nothing counted).
                        None => {
                            x.insert(k.clone(), q.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut total = serde_json::to_value(&sms[0]).expect("stats serialize");
    for s in &sms[1..] {
        add(&mut total, &serde_json::to_value(s).expect("stats serialize"));
    }
    let mut out: Stats = serde_json::from_value(total).expect("stats deserialize");
    out.cycles = cycles;
    out.ipc = if cycles == 0 { 0.0 } else { out.thread_insts as f64 / cycles as f64 };
    out.l1.mshr_peak = sms.iter().map(|s| s.l1.mshr_peak).max().unwrap_or(0);
    out.replay.max_passes = sms.iter().map(|s| s.replay.max_passes).max().unwrap_or(0);
    out.dac.atq_peak = sms.iter().map(|s| s.dac.atq_peak).max().unwrap_or(0);
    out.mta.degree = sms.iter().map(|s| s.mta.degree).max().unwrap_or(0);
    out.predicted_max_speedup = 0.0;
    out
}

/// Run `kernel` with `launch` on the GPU of `cfg` (`gpu.sms` SMs).
pub fn simulate(kernel: Arc<Kernel>, launch: Arc<Launch>, cfg: &Config, engine: Engine, mut out: Outputs, warm: Warm, code_base: u64) -> Result<Outcome, String> {
    let progress = out.progress.take();
    let gpu = Gpu::new(kernel, launch, cfg, engine, &mut out, warm, code_base)?;
    gpu.run(progress).map_err(|e| e.to_string())
}
