//! The whole GPU: every suite kernel on many SMs leaves the functional
//! model's final memory, in every mode; the statistics, final memory and
//! CTA placement are identical at 1, 2 and 8 threads; contention for the
//! shared memory system shows.

use kernel::{load, CompileOptions, LaunchFile, RunOptions};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

fn prepare(name: &str) -> (Arc<kernel::Kernel>, Arc<kernel::Launch>, kernel::Memory) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let launch = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&module, &k).unwrap();
    let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap();
    (Arc::new(k), Arc::new(launch), golden.memory)
}

fn gpu(sms: u32, mode: &str) -> Config {
    Config::preset("hpca16_pmode").with_override(&format!("gpu.sms={sms}")).unwrap().with_override(&format!("mode=\"{mode}\"")).unwrap()
}

fn run(k: &Arc<kernel::Kernel>, l: &Arc<kernel::Launch>, cfg: &Config, threads: usize) -> sm::run::Outcome {
    sm::run::simulate(Arc::clone(k), Arc::clone(l), cfg, Engine::Model, Outputs { threads, ..Outputs::default() }).unwrap()
}

const SUITE: &[&str] = &[
    "vecadd", "saxpy", "reduction", "histogram", "scan", "transpose_naive", "transpose_tiled", "sgemm", "stencil2d", "spmv", "bfs",
    "pathfinder", "pmode_loop", "dac_fig4",
];

#[test]
fn suite_on_fifteen_sms_leaves_the_functional_memory() {
    for mode in ["baseline", "pmode", "replay", "dac"] {
        let cfg = gpu(15, mode);
        for name in SUITE {
            let (k, l, golden) = prepare(name);
            let o = run(&k, &l, &cfg, 2);
            assert!(o.memory == golden, "{name} ({mode}): final memory differs from the functional model");
            let g = o.stats.gpu.as_ref().expect("GPU statistics");
            assert_eq!(o.stats.ctas, l.ctas(), "{name}: every CTA ran once");
            assert_eq!(o.stats.cta_done.len() as u64, l.ctas());
            assert!(o.stats.cta_done.iter().all(|&c| c > 0 && c <= o.stats.cycles), "{name}: every CTA completed in the run");
            assert_eq!(g.l2.reads + g.l2.atomics, o.stats.l1.misses + o.stats.l1.atomics, "{name}: every L1 miss and atomic reached L2 once");
            assert_eq!(g.l2.writes, o.stats.l1.stores, "{name}: every store line reached L2");
            assert_eq!(o.stats.breakdown.total(), o.stats.scheduler_cycles, "{name}");
            assert_eq!(o.stats.scheduler_cycles, o.stats.cycles * 2 * 15, "{name}");
        }
    }
}

/// The same run at 1, 2 and 8 threads: byte-identical statistics and memory.
#[test]
fn identical_at_any_thread_count() {
    for (name, mode) in [("histogram", "baseline"), ("sgemm", "pmode"), ("bfs", "baseline"), ("spmv", "replay"), ("transpose_tiled", "dac")] {
        let (k, l, _) = prepare(name);
        let cfg = gpu(15, mode);
        let one = run(&k, &l, &cfg, 1);
        for threads in [2, 8] {
            let o = run(&k, &l, &cfg, threads);
            assert_eq!(o.stats.json(), one.stats.json(), "{name} ({mode}) at {threads} threads");
            assert!(o.memory == one.memory, "{name} ({mode}) at {threads} threads: memory");
        }
    }
}

/// CTAs spread over the SMs: more SMs finish a many-CTA grid sooner, and
/// each SM that got work was busy.
#[test]
fn more_sms_run_a_grid_faster() {
    let (k, l, _) = prepare("sgemm");
    let c1 = run(&k, &l, &gpu(2, "baseline"), 2).stats;
    let c8 = run(&k, &l, &gpu(8, "baseline"), 2).stats;
    assert!(c8.cycles * 2 < c1.cycles, "8 SMs {} cycles, 2 SMs {}", c8.cycles, c1.cycles);
    let busy = &c8.gpu.as_ref().unwrap().sm_busy_cycles;
    assert_eq!(busy.len(), 8);
    assert!(busy.iter().all(|&b| b > 0), "{busy:?}");
}

/// Atomics whose returned value is used, from many SMs in the same cycles:
/// every thread gets a distinct ticket (an SM whose atomic another SM's
/// came before in the commit order gets the committed value), and the
/// outcome is the same at any thread count.
#[test]
fn atomics_across_sms_hand_out_distinct_tickets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/micro");
    let m = load(&root.join("ticket.cu"), &CompileOptions::default()).unwrap();
    let k = Arc::new(m.only_kernel().unwrap().clone());
    let launch = "grid = [60]\nblock = [64]\nargs = [\"counter\", \"slots\"]\n\
        [buffers.counter]\ntype = \"i32\"\nlen = 1\n\
        [buffers.slots]\ntype = \"i32\"\nlen = 3840\n";
    let l = Arc::new(LaunchFile::parse(launch, &root.join("ticket.toml")).unwrap().bind(&m, &k).unwrap());
    let cfg = gpu(15, "baseline");
    let one = run(&k, &l, &cfg, 1);
    let words = |mem: &kernel::Memory, name: &str| -> Vec<i32> {
        mem.region(name).unwrap().data.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
    };
    assert_eq!(words(&one.memory, "counter"), vec![3840]);
    let mut slots = words(&one.memory, "slots");
    slots.sort();
    slots.dedup();
    assert_eq!(slots.len(), 3840, "each id in exactly one slot: {} distinct ids in the 3840 slots", slots.len());
    let eight = run(&k, &l, &cfg, 8);
    assert!(eight.memory == one.memory);
}

/// The gtx480 preset's instruction and constant caches (GPGPU-Sim's L1I
/// and L1C) cost cycles, never results: against ideal ones, the same final
/// memory, at least as many cycles, and misses counted.
#[test]
fn instruction_and_constant_caches_cost_cycles_not_results() {
    let (k, l, golden) = prepare("sgemm");
    let cached = Config::preset("gtx480");
    let ideal = cached.with_override("l1.icache_sets=0").unwrap().with_override("l1.const_sets=0").unwrap();
    let (a, b) = (run(&k, &l, &cached, 2), run(&k, &l, &ideal, 2));
    assert!(a.memory == golden && b.memory == golden);
    assert!(a.stats.icache.misses > 0 && a.stats.const_cache.misses > 0, "{:?} {:?}", a.stats.icache, a.stats.const_cache);
    assert_eq!((b.stats.icache.accesses, b.stats.const_cache.accesses), (0, 0));
    assert!(a.stats.cycles > b.stats.cycles, "cached {} vs ideal {}", a.stats.cycles, b.stats.cycles);
}

/// An SM with nothing to do skips its cycle's work (`Sm::quiet`); every
/// cycle in full (`Outputs::exhaustive`) gives the same statistics.
#[test]
fn quiet_sms_skip_work_not_results() {
    for (name, mode) in [("sgemm", "baseline"), ("bfs", "baseline"), ("histogram", "baseline"), ("vecadd", "baseline"), ("sgemm", "pmode"), ("bfs", "pmode")] {
        let (k, l, _) = prepare(name);
        let cfg = gpu(15, mode);
        let fast = run(&k, &l, &cfg, 1);
        let full = sm::run::simulate(Arc::clone(&k), Arc::clone(&l), &cfg, Engine::Model, Outputs { exhaustive: true, ..Outputs::default() }).unwrap();
        assert_eq!(fast.stats.json(), full.stats.json(), "{name} {mode}");
    }
}

/// A program's second launch of a kernel finds the L2, instruction and
/// constant caches as the first left them (`gpu.warm_l2`,
/// `l1.warm_read_only`): the same memory, fewer misses, fewer cycles; on
/// the whole GPU and on one SM. Off, the second launch is the first.
#[test]
fn a_relaunch_finds_the_caches_warm() {
    let (k, l, golden) = prepare("sgemm");
    let cold_cfg = Config::preset("gtx480").with_override("gpu.warm_l2=false").unwrap().with_override("l1.warm_read_only=false").unwrap().with_override("gpu.carry_cta_order=false").unwrap();
    let first = sm::run::simulate_warm(Arc::clone(&k), Arc::clone(&l), &cold_cfg, Engine::Model, Outputs::default(), Default::default()).unwrap();
    let again = sm::run::simulate_warm(Arc::clone(&k), Arc::clone(&l), &cold_cfg, Engine::Model, Outputs::default(), first.warm).unwrap();
    assert_eq!(first.stats.json(), again.stats.json(), "nothing kept");
    for sms in [15, 1] {
        let cfg = Config::preset("gtx480").with_override(&format!("gpu.sms={sms}")).unwrap();
        let sim = |w: sm::run::Warm| sm::run::simulate_warm(Arc::clone(&k), Arc::clone(&l), &cfg, Engine::Model, Outputs::default(), w).unwrap();
        let cold = sim(Default::default());
        let warm = sim(cold.warm.clone());
        assert!(cold.memory == golden && warm.memory == golden, "{sms} SMs");
        assert!(warm.stats.icache.misses < cold.stats.icache.misses, "{sms} SMs: icache {:?} then {:?}", cold.stats.icache, warm.stats.icache);
        assert!(warm.stats.const_cache.misses < cold.stats.const_cache.misses, "{sms} SMs: {:?} then {:?}", cold.stats.const_cache, warm.stats.const_cache);
        if sms > 1 {
            assert!(warm.stats.l2_misses < cold.stats.l2_misses, "L2 misses {} then {}", cold.stats.l2_misses, warm.stats.l2_misses);
        }
        assert!(warm.stats.cycles < cold.stats.cycles, "{sms} SMs: {} then {} cycles", cold.stats.cycles, warm.stats.cycles);
        // Deterministic: the same warm start, the same run.
        assert_eq!(sim(cold.warm.clone()).stats.json(), warm.stats.json());
    }
}

/// Host copies leave their lines in L2 for the next launch
/// (`gpu.copies_fill_l2`, GPGPU-Sim's `-gpgpu_perf_sim_memcpy`): sgemm's
/// inputs copied in, its loads hit in L2; off, they do not. The same memory
/// either way.
#[test]
fn copies_fill_the_l2() {
    let (k, l, golden) = prepare("sgemm");
    let run = |fill: bool| {
        // Code and parameters are not copied: they fill from L2 at the fixed latency.
        let cfg = Config::preset("gtx480").with_override(&format!("gpu.copies_fill_l2={fill}")).unwrap().with_override("l1.read_only_misses=\"latency\"").unwrap();
        let mut warm = sm::run::Warm::default();
        for name in ["A", "B"] {
            let r = l.memory.region(name).unwrap();
            warm.copied(r.base, r.data.len() as u64);
        }
        sm::run::simulate_warm(Arc::clone(&k), Arc::clone(&l), &cfg, Engine::Model, Outputs::default(), warm).unwrap()
    };
    let (filled, not) = (run(true), run(false));
    assert!(filled.memory == golden && not.memory == golden);
    let dram = |o: &sm::run::Outcome| o.stats.gpu.as_ref().unwrap().dram_reads;
    assert_eq!(dram(&filled), 0, "every input line was in L2");
    assert!(dram(&not) > 0);
    assert!(filled.stats.cycles < not.stats.cycles, "{} vs {}", filled.stats.cycles, not.stats.cycles);
}

/// A streaming vecadd of `n` elements (no copies into L2: every input line
/// comes from DRAM).
fn stream(n: u32) -> (Arc<kernel::Kernel>, Arc<kernel::Launch>, kernel::Memory) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join("vecadd.cu"), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let buf = |name: &str, seed: u32| format!("[buffers.{name}]\ntype = \"f32\"\nlen = {n}\ninit = {{ random = {{ seed = {seed}, min = -1.0, max = 1.0 }} }}\n");
    let text = format!("grid = [{}]\nblock = [256]\nargs = [\"a\", \"b\", \"c\", {n}]\n{}{}[buffers.c]\ntype = \"f32\"\nlen = {n}\n", n / 256, buf("a", 1), buf("b", 2));
    let launch = LaunchFile::parse(&text, &root.join("stream.toml")).unwrap().bind(&module, &k).unwrap();
    let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap();
    (Arc::new(k), Arc::new(launch), golden.memory)
}

/// GPGPU-Sim's DRAM path on the gtx480 preset, each key against its own
/// reference: with `gpu.dram_latency_queue` off, `dram_latency` is spent in
/// the slice's `l2_miss_queue`-entry queue, which caps a slice at that many
/// misses per `dram_latency`; on, streaming beats the cap. With
/// `gpu.dram_sector_bytes = 32` every line fill is four DRAM reads of one
/// atom each (a write-back stays one); with low-bit bank groups
/// consecutive banks alternate groups, and the data bus is busier.
#[test]
fn dram_path_as_gpgpu_sim() {
    let (k, l, golden) = stream(1 << 17);
    let base = Config::preset("gtx480").with_override("gpu.dram_sector_bytes=0").unwrap();
    let outcome = |c: &Config| {
        let o = run(&k, &l, c, 2);
        assert!(o.memory == golden);
        o
    };
    let g = &base.gpu;
    let slices = (g.channels * g.sub_partitions) as f64;
    let fills = |o: &sm::run::Outcome| (o.stats.gpu.as_ref().unwrap().dram_reads + o.stats.gpu.as_ref().unwrap().dram_writes) as f64;
    let cap = slices * g.l2_miss_queue as f64 / g.dram_latency as f64;
    let off = outcome(&base.with_override("gpu.dram_latency_queue=false").unwrap());
    let on = outcome(&base);
    assert!(fills(&off) / off.stats.gpu.as_ref().unwrap().l2_cycles as f64 <= cap, "DRAM requests per L2 cycle within the cap {cap}");
    assert!(fills(&on) / on.stats.gpu.as_ref().unwrap().l2_cycles as f64 > 1.5 * cap);
    let gpu = |o: &sm::run::Outcome| o.stats.gpu.clone().unwrap();
    let sectored = outcome(&base.with_override("gpu.dram_sector_bytes=32").unwrap());
    assert_eq!(gpu(&on).dram_reads * 4, gpu(&sectored).dram_reads, "four sector reads per line");
    assert_eq!(gpu(&sectored).dram_writes, gpu(&sectored).l2.writebacks, "one DRAM write per write-back");
    let util = |o: &sm::run::Outcome| gpu(o).dram_bus_busy as f64 / gpu(o).dram_cycles as f64;
    let high = outcome(&base.with_override("gpu.dram_sector_bytes=32").unwrap().with_override("gpu.dram_bank_group_low_bits=false").unwrap());
    assert!(util(&sectored) > util(&high), "bus use {} with low-bit groups, {} with high-bit", util(&sectored), util(&high));
}

/// `gpu.carry_cta_order` (GPGPU-Sim's `m_last_cluster_issue`): a program's
/// next launch gives its first CTA to the SM after the one that took the
/// last launch's last CTA; off, every launch starts at SM 0.
#[test]
fn the_cta_order_goes_on_across_launches() {
    let (k, l, golden) = stream(1024);
    let busy = |cfg: &Config| {
        let sim = |w: sm::run::Warm| sm::run::simulate_warm(Arc::clone(&k), Arc::clone(&l), cfg, Engine::Model, Outputs::default(), w).unwrap();
        let first = sim(Default::default());
        let again = sim(first.warm.clone());
        assert!(first.memory == golden && again.memory == golden);
        let sms = |o: &sm::run::Outcome| o.stats.gpu.as_ref().unwrap().sm_busy_cycles.iter().enumerate().filter(|(_, &c)| c > 0).map(|(i, _)| i).collect::<Vec<_>>();
        (sms(&first), sms(&again))
    };
    let carried = Config::preset("gtx480");
    assert_eq!(busy(&carried), (vec![0, 1, 2, 3], vec![4, 5, 6, 7]), "four CTAs a launch");
    assert_eq!(busy(&carried.with_override("gpu.carry_cta_order=false").unwrap()), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
}
