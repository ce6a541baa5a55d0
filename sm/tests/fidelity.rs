//! Fidelity of the timing model: microbenchmarks (kernels/micro, CUDA C)
//! measure what the configuration says — memory latencies, issue rate, ALU
//! latency, coalescing and bank conflicts — and the scheduler-cycle
//! breakdown classifies simple cases as seed 000 section 3 defines them.

use kernel::{load, CompileOptions, LaunchFile};
use sm::core::Outputs;
use sm::{Config, Engine, Stall, Stats};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn micro(file: &str, kernel: &str, launch: &str, cfg: &Config, pipeview: Option<&Path>) -> Stats {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/micro");
    let m = load(&root.join(file), &CompileOptions::default()).unwrap();
    let k = m.kernel(kernel).unwrap().clone();
    let l = LaunchFile::parse(launch, &root.join("test.toml")).unwrap().bind(&m, &k).unwrap();
    let golden = kernel::run_functional(&k, &l, &kernel::RunOptions::default()).unwrap();
    let mut out = Outputs::default();
    if let Some(p) = pipeview {
        out.pipeview = Some(sm::pipeview::Kanata::new(Box::new(std::fs::File::create(p).unwrap())));
    }
    let o = sm::run::simulate(Arc::new(k), Arc::new(l), cfg, Engine::Model, out).unwrap();
    assert!(o.memory == golden.memory, "{kernel}: memory differs from the functional model");
    assert_eq!(o.stats.breakdown.total(), o.stats.scheduler_cycles);
    o.stats
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wf-fidelity-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// One thread following `next` for `steps` hops.
fn chase_launch(next: &[u32], steps: u32) -> String {
    let values: Vec<String> = next.iter().map(|v| v.to_string()).collect();
    format!(
        "grid = [1]\nblock = [1]\nargs = [\"next\", \"out\", {steps}]\n\
         [buffers.next]\ntype = \"u32\"\nlen = {}\ninit = {{ values = [{}] }}\n\
         [buffers.out]\ntype = \"u32\"\nlen = 1\n",
        next.len(),
        values.join(",")
    )
}

/// A cycle over `lines` 128-byte lines, one hop per line, starting at 0.
fn ring(lines: u32) -> Vec<u32> {
    let mut v = vec![0u32; (lines * 32) as usize];
    for i in 0..lines {
        v[(i * 32) as usize] = ((i + 1) % lines) * 32;
    }
    v
}

/// Cycles per hop between `a` and `b` hops (fixed costs cancel).
fn per_hop(next: &[u32], a: u32, b: u32, cfg: &Config) -> f64 {
    let ca = micro("chase.cu", "chase", &chase_launch(next, a), cfg, None).cycles;
    let cb = micro("chase.cu", "chase", &chase_launch(next, b), cfg, None).cycles;
    (cb - ca) as f64 / (b - a) as f64
}

#[test]
fn pointer_chase_measures_the_configured_latencies() {
    for (hit, l2, dram) in [(20u32, 200u32, 440u32), (30, 120, 700)] {
        let cfg = Config::preset("hpca16_pmode").single_sm()
            .with_override(&format!("l1.hit_latency={hit}"))
            .and_then(|c| c.with_override(&format!("memory.l2_latency={l2}")))
            .and_then(|c| c.with_override(&format!("memory.dram_latency={dram}")))
            .unwrap();
        // L1: eight words of one line, after its first miss every hop hits.
        let in_l1: Vec<u32> = (0..8).map(|i| (i + 1) % 8).collect();
        let h1 = per_hop(&in_l1, 64, 128, &cfg);
        // L2: 384 lines, six per L1 set (4 ways: LRU misses every time), all
        // in L2 (64 KB, 8 ways) after the first lap.
        let h2 = per_hop(&ring(384), 384 * 2, 384 * 4, &cfg);
        // DRAM: lines never visited before.
        let hd = per_hop(&ring(4096), 1024, 2048, &cfg);
        let x = h1 - hit as f64; // ALU and pipeline cost of one hop
        println!("hit {hit}: {h1:.2}/hop, L2 {l2}: {h2:.2}/hop, DRAM {dram}: {hd:.2}/hop; per-hop overhead {x:.2}");
        assert!((hd - h2 - (dram - l2) as f64).abs() <= 1.0, "DRAM - L2 per hop {:.2} vs configured {}", hd - h2, dram - l2);
        // A miss adds a few cycles of its own (MSHR, queue, fill, wake-up).
        let miss_overhead = h2 - l2 as f64 - x;
        assert!((0.0..=6.0).contains(&miss_overhead), "L2 hop {h2:.2} = {l2} + overhead {x:.2} + miss path {miss_overhead:.2}");
        assert!((0.0..=30.0).contains(&x), "L1 hop {h1:.2} vs hit latency {hit}");
    }
}

/// `l1.miss_delay` (GPGPU-Sim's L1 latency queue, which misses wait out
/// too) adds its cycles to every hop that misses L1 and none to a hop that
/// hits.
#[test]
fn miss_delay_lengthens_misses_only() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    let delayed = cfg.with_override("l1.miss_delay=35").unwrap();
    let in_l1: Vec<u32> = (0..8).map(|i| (i + 1) % 8).collect();
    let (h1, d1) = (per_hop(&in_l1, 64, 128, &cfg), per_hop(&in_l1, 64, 128, &delayed));
    assert!((d1 - h1).abs() < 0.5, "an L1 hit: {h1:.2} -> {d1:.2}/hop");
    let (h2, d2) = (per_hop(&ring(384), 384 * 2, 384 * 4, &cfg), per_hop(&ring(384), 384 * 2, 384 * 4, &delayed));
    assert!((d2 - h2 - 35.0).abs() <= 1.0, "an L2 hit: {h2:.2} -> {d2:.2}/hop");
}

/// (label, issue cycle) of each instruction of a pipeview log that issued
/// and retired (not flushed), in the log's order.
fn issues(log: &Path) -> Vec<(String, u64)> {
    let recs = sm::pipeview::parse(&std::fs::read_to_string(log).unwrap()).unwrap();
    recs.into_iter()
        .filter(|r| r.retired.is_some_and(|(_, flushed)| !flushed))
        .filter_map(|r| r.stages.iter().find(|(s, _)| s == "Rr").map(|&(_, t)| t).map(|t| (r.label, t)))
        .collect()
}

/// (issue cycle of each instruction whose label contains `what`) in order.
fn issue_cycles(log: &Path, what: &str) -> Vec<u64> {
    let mut v: Vec<u64> = issues(log).into_iter().filter(|(l, _)| l.contains(what)).map(|(_, t)| t).collect();
    v.sort();
    v
}

fn alu_launch(n: u32) -> String {
    format!("grid = [1]\nblock = [32]\nargs = [\"out\", {n}]\n[buffers.out]\ntype = \"u32\"\nlen = 32\n")
}

#[test]
fn issue_rate_and_alu_latency() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    // Independent multiply-adds issue back to back: one per cycle per scheduler.
    let log = tmp("indep.log");
    micro("alu_chain.cu", "alu_independent", &alu_launch(64), &cfg, Some(&log));
    let t = issue_cycles(&log, "mad.lo");
    let gaps: Vec<u64> = t.windows(2).map(|w| w[1] - w[0]).collect();
    let back_to_back = gaps.iter().filter(|&&g| g == 1).count();
    // Eight multiply-adds per loop iteration: seven back-to-back gaps each.
    assert!(back_to_back * 8 >= gaps.len() * 7 - 8, "gaps {gaps:?}");
    assert!(gaps.iter().all(|&g| g >= 1));
    // A dependent chain issues one per (latency + a fixed pipeline cost);
    // the cost does not depend on the latency.
    let mut spacing = vec![];
    for lat in [5u32, 12] {
        let c = cfg.with_override(&format!("units.int_latency=[4, 13, 4, {lat}, 145]")).unwrap();
        let log = tmp(&format!("dep{lat}.log"));
        micro("alu_chain.cu", "alu_dependent", &alu_launch(64), &c, Some(&log));
        let t = issue_cycles(&log, "mad.lo");
        let mut gaps: Vec<u64> = t.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.sort();
        spacing.push(gaps[gaps.len() / 2]);
    }
    assert_eq!(spacing[1] - spacing[0], 12 - 5, "median spacing {spacing:?}");
    assert!(spacing[0] >= 5 && spacing[0] <= 5 + 3, "spacing {} for latency 5", spacing[0]);
}

/// `units.result_stages` (GPGPU-Sim's pipeline registers) moves a dependent
/// instruction that many cycles later and leaves independent ones back to
/// back; `units.other_latency` sets the latency of the instructions outside
/// the five classes (the loop's `setp` here).
#[test]
fn result_stages_delay_dependents_not_throughput() {
    let base = Config::preset("hpca16_pmode").single_sm();
    let median_gap = |c: &Config, kernel: &str, name: &str| {
        let log = tmp(name);
        micro("alu_chain.cu", kernel, &alu_launch(64), c, Some(&log));
        let t = issue_cycles(&log, "mad.lo");
        let mut gaps: Vec<u64> = t.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.sort();
        (gaps[gaps.len() / 2], gaps.iter().filter(|&&g| g == 1).count())
    };
    let staged = base.with_override("units.result_stages=4").unwrap();
    let (dep0, _) = median_gap(&base, "alu_dependent", "stages0.log");
    let (dep4, _) = median_gap(&staged, "alu_dependent", "stages4.log");
    assert_eq!(dep4, dep0 + 4, "dependent spacing {dep0} -> {dep4}");
    let (_, b2b0) = median_gap(&base, "alu_independent", "stages0i.log");
    let (_, b2b4) = median_gap(&staged, "alu_independent", "stages4i.log");
    assert_eq!(b2b4, b2b0, "back-to-back issues of independent instructions");
    // The loop's compare-and-branch is outside the classes: 1 cycle instead
    // of the add class's 4 shortens each iteration.
    let run = |c: &Config| micro("alu_chain.cu", "alu_dependent", &alu_launch(64), c, None).cycles;
    assert!(run(&base.with_override("units.other_latency=1").unwrap()) < run(&base));
}

/// `l1.read_only_misses = "memory"` (GPGPU-Sim's L1I and L1C misses): a
/// cold instruction or constant line comes from DRAM through the SM's
/// request queue, not after the fixed `*_miss_latency`, and every request
/// below L1 is one of the three caches' misses or a store.
#[test]
fn read_only_misses_fill_from_memory() {
    let memory = Config::preset("gtx480").single_sm();
    let latency = memory.with_override("l1.read_only_misses=\"latency\"").unwrap();
    let first_issue = |c: &Config, name: &str| {
        let log = tmp(name);
        let stats = micro("alu_chain.cu", "alu_dependent", &alu_launch(16), c, Some(&log));
        (issues(&log).iter().map(|&(_, t)| t).min().unwrap(), stats)
    };
    let (lat_first, lat) = first_issue(&latency, "ro_latency.log");
    let (mem_first, mem) = first_issue(&memory, "ro_memory.log");
    let (m, l1) = (&memory.memory, &memory.l1);
    assert!(lat_first <= (l1.icache_miss_latency + memory.core.fetch_latency + 2) as u64, "fixed latency: first issue at {lat_first}");
    assert!(mem_first >= (m.dram_latency + memory.core.fetch_latency) as u64, "from DRAM: first issue at {mem_first}");
    assert!(mem_first < (m.dram_latency + memory.core.fetch_latency + 20) as u64, "from DRAM: first issue at {mem_first}");
    assert_eq!((mem.icache, mem.const_cache), (lat.icache, lat.const_cache), "the same accesses and misses");
    assert!(mem.icache.misses > 1 && mem.const_cache.misses > 0);
    assert_eq!(lat.l2_hits + lat.l2_misses, lat.l1.misses + lat.l1.stores, "fixed latency: only L1's requests go below");
    assert_eq!(mem.l2_hits + mem.l2_misses, mem.l1.misses + mem.l1.stores + mem.icache.misses + mem.const_cache.misses);
}

/// `l1.const_serial` (GPGPU-Sim's `constant_cycle`): a constant load takes
/// one cycle per distinct line, so a loop whose load touches 32 lines takes
/// about 31 cycles an iteration more than one whose load touches one (warm
/// lines: the slope per iteration; the loads follow one another through
/// their destination register); all at once, the same. `l1.read_only_mshrs = 2`: the cold
/// first load's 32 misses go two at a time, not all at once.
#[test]
fn constant_lines_one_a_cycle_through_two_mshrs() {
    let serial = Config::preset("gtx480").single_sm();
    let parallel = serial.with_override("l1.const_serial=false").unwrap();
    let launch = |stride: u32, steps: u32| format!("grid = [1]\nblock = [32]\nargs = [\"out\", {stride}, {steps}]\n[buffers.out]\ntype = \"u32\"\nlen = 32\n");
    let cycles = |c: &Config, stride: u32, steps: u32| micro("const_lines.cu", "const_gather", &launch(stride, steps), c, None).cycles as f64;
    let slope = |c: &Config, stride: u32| (cycles(c, stride, 48) - cycles(c, stride, 16)) / 32.0;
    let extra = slope(&serial, 16) - slope(&serial, 0);
    assert!((extra - 31.0).abs() <= 3.0, "32 lines a load: {extra:.1} cycles more per iteration");
    let extra = slope(&parallel, 16) - slope(&parallel, 0);
    assert!(extra.abs() <= 1.5, "all at once: {extra:.1} cycles more per iteration");
    // 32 cold lines through 2 MSHRs: 16 rounds of a DRAM access, at least.
    let unlimited = serial.with_override("l1.read_only_mshrs=0").unwrap();
    let (two, any) = (cycles(&serial, 16, 1), cycles(&unlimited, 16, 1));
    assert!(two - any >= 15.0 * serial.memory.l2_latency as f64, "{two} cycles with two MSHRs, {any} with no limit");
}

/// `core.fetch_when_empty` (GPGPU-Sim's fetch): a warp's buffer is filled
/// only once empty, with the instructions of one fetch; past a taken branch
/// the target issues a cycle later than with per-entry refills (GPGPU-Sim
/// fetches past the branch and flushes the stale buffer at its scheduler the
/// next cycle). Independent instructions of one warp then issue in pairs.
#[test]
fn fetch_when_empty_as_gpgpu_sim() {
    let grouped = Config::preset("gtx480").single_sm();
    let refill = grouped.with_override("core.fetch_when_empty=false").unwrap();
    // (median issue gap after a loop's branch, back-to-back issues of the independent chains)
    let measure = |c: &Config, name: &str| {
        let log = tmp(name);
        micro("alu_chain.cu", "alu_independent", &alu_launch(32), c, Some(&log));
        let issued = issues(&log);
        let mut after_branch: Vec<u64> = issued.windows(2).filter(|w| w[0].0.contains("bra")).map(|w| w[1].1 - w[0].1).collect();
        after_branch.sort();
        let b2b = issued.windows(2).filter(|w| w[1].1 == w[0].1 + 1).count();
        (after_branch[after_branch.len() / 2], b2b, issued.len())
    };
    let (g_branch, g_b2b, n) = measure(&grouped, "grouped.log");
    let (r_branch, r_b2b, _) = measure(&refill, "refill.log");
    assert_eq!(g_branch, r_branch + 1, "after a taken branch: {g_branch} cycles grouped, {r_branch} refilling");
    assert_eq!(r_branch, refill.core.fetch_latency as u64);
    // Refilling, more than half of the independent instructions issue back
    // to back; grouped, at most every other one (a pair, then the refill).
    assert!(r_b2b * 2 > n, "{r_b2b} of {n} back to back refilling");
    assert!(g_b2b * 2 <= n + 2, "{g_b2b} of {n} back to back grouped, {r_b2b} refilling");
}

/// `memory.store_acks` (GPGPU-Sim's `stores_done`): a warp is done once L2
/// has acknowledged its stores, so the kernel ends an L2 round trip after
/// its last store leaves; on the GPU each store's acknowledgement is one
/// reply flit.
#[test]
fn store_acks_hold_the_warp_until_l2_has_its_stores() {
    let acked = Config::preset("gtx480").single_sm();
    let unacked = acked.with_override("memory.store_acks=false").unwrap();
    let run = |c: &Config| micro("alu_chain.cu", "alu_dependent", &alu_launch(16), c, None);
    let (a, u) = (run(&acked), run(&unacked));
    assert_eq!(a.l1.stores, 1);
    // Unacknowledged, the kernel ends while its store waits out the L1
    // queue; acknowledged, once the store has left it and L2's reply is back.
    let (m, d) = (acked.memory.l2_latency as u64, acked.l1.miss_delay as u64);
    assert!((m..=m + d).contains(&(a.cycles - u.cycles)), "{} vs {} cycles", a.cycles, u.cycles);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let m = load(&root.join("sgemm.cu"), &CompileOptions::default()).unwrap();
    let k = Arc::new(m.kernel("sgemm").unwrap().clone());
    let l = Arc::new(LaunchFile::load(&root.join("sgemm.toml")).unwrap().bind(&m, &k).unwrap());
    let gpu = |c: &Config| sm::run::simulate(Arc::clone(&k), Arc::clone(&l), c, Engine::Model, Outputs::default()).unwrap();
    let (a, u) = (gpu(&Config::preset("gtx480")), gpu(&Config::preset("gtx480").with_override("memory.store_acks=false").unwrap()));
    assert!(a.memory == u.memory);
    let flits = |o: &sm::run::Outcome| o.stats.gpu.as_ref().unwrap().reply_flits;
    assert_eq!(flits(&a) - flits(&u), a.stats.l1.stores, "one flit per acknowledgement");
    assert!(a.stats.cycles > u.stats.cycles);
}

#[test]
fn coalescing_requests_per_warp_instruction() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    for (stride, lines) in [(1u32, 1u64), (2, 2), (4, 4), (32, 32)] {
        let launch = format!(
            "grid = [1]\nblock = [32]\nargs = [\"in\", \"out\", {stride}]\n\
             [buffers.in]\ntype = \"f32\"\nlen = {}\ninit = {{ random = {{ seed = 3, min = 0.0, max = 1.0 }} }}\n\
             [buffers.out]\ntype = \"f32\"\nlen = 32\n",
            32 * stride
        );
        let s = micro("strided.cu", "strided", &launch, &cfg, None);
        // One load instruction (its line requests) and one unit-stride store.
        assert_eq!(s.l1.accesses, lines, "stride {stride}");
        assert_eq!(s.l1.stores, 1, "stride {stride}");
        assert_eq!(s.hazards.div, lines - 1, "stride {stride}");
    }
}

#[test]
fn shared_bank_conflict_degree() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    for (stride, degree) in [(1u64, 1u64), (2, 2), (4, 4), (8, 8), (16, 16), (32, 32), (3, 1), (6, 2)] {
        let launch = format!("grid = [1]\nblock = [32]\nargs = [\"out\", {stride}]\n[buffers.out]\ntype = \"f32\"\nlen = 32\n");
        let s = micro("bank.cu", "bank", &launch, &cfg, None);
        assert_eq!(s.shared_accesses, 2, "one store and one load");
        assert_eq!(s.hazards.bank, 2 * (degree - 1), "stride {stride}");
    }
}

#[test]
fn breakdown_classifies_simple_cases() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    // One warp chasing pointers through DRAM waits on a global load.
    let s = micro("chase.cu", "chase", &chase_launch(&ring(256), 200), &cfg, None);
    let b = &s.breakdown;
    assert!(b.get(Stall::LongRaw) * 10 > s.scheduler_cycles * 4, "{}", s.table());
    // One scheduler has no warp at all: its cycles are "no instruction left".
    assert!(b.get(Stall::NoInstLeft) >= s.cycles, "{}", s.table());
    // A dependent ALU chain waits on short-latency results.
    let s = micro("alu_chain.cu", "alu_dependent", &alu_launch(64), &cfg, None);
    let b = &s.breakdown;
    assert!(b.get(Stall::ShortRaw) > b.get(Stall::LongRaw) * 10 && b.get(Stall::ShortRaw) > b.get(Stall::Issued), "{}", s.table());
}
