//! The differential test on random kernels (issue 14, Correctness): every
//! kernel `kernel::gen` writes for a seed — CUDA C compiled by clang — runs
//! on the functional model and on the timing SM under every preset and
//! scheduler policy (model engine), and on a starved SM (tiny caches, one
//! MSHR, one collector unit per kind; policy rotating with the seed), and
//! must leave byte-identical memory and execute the same thread
//! instructions. One seed in five also runs, on one configuration
//! (rotating), with its blocks' netlists on the interpreter or the compiled
//! engine (alternating) — whose statistics must equal the model engine's
//! apart from the engine's name — and with the idle-scheduler shortcut off (`Outputs::exhaustive`), which must not
//! change the statistics either. A deadlock, an error or a panic of the SM
//! is a failure.
//!
//! The seed 000 preset runs in its own mode and with warp pre-execution on
//! (P-mode: also no reused value may differ from the N-mode value), the
//! seed 004 preset in its own mode and in replay mode (with the policy:
//! GTO the naive tracker without squashing, LRR plain replay, two-level the
//! credit tracker with the counter predictor), and the starved SM rotates over the stalling and the replay
//! pipeline; `WARPFORGE_RANDOM_MODES=baseline,pmode` runs every preset in
//! each listed mode instead. Each seed's kernel, its helpers inlined and
//! trace-scheduled (seed 002's pass, trained on its launch), also runs on one
//! configuration (rotating) to the unscheduled kernel's memory.
//!
//! Seeds: `WARPFORGE_RANDOM_SEEDS=N` (default 30) starting at
//! `WARPFORGE_RANDOM_FIRST` (default 0), or exactly the comma-separated list
//! in `WARPFORGE_RANDOM_SEED`. `make fuzz-sm` runs 500 in release mode.
//! A failure names the seed and configuration and leaves the kernel's `.cu`
//! and launch `.toml` under `target/tmp/random_kernels/`; the message prints
//! both paths and the commands that reproduce it.

use kernel::gen::{build_fitting, generate, Built, Generated};
use kernel::{CompileOptions, RunOptions};
use rayon::prelude::*;
use sm::core::Outputs;
use sm::run::Outcome;
use sm::{Config, Engine, Policy};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

const PRESETS: [&str; 3] = ["hpca16_pmode", "isca17_dac", "ubc12_replay"];

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(v.trim().parse().unwrap_or_else(|_| panic!("{name}={v}: not a number")))
}

fn seeds() -> Vec<u64> {
    if let Ok(list) = std::env::var("WARPFORGE_RANDOM_SEED") {
        return list
            .split(',')
            .map(|s| s.trim().parse().unwrap_or_else(|_| panic!("WARPFORGE_RANDOM_SEED: `{s}` is not a number")))
            .collect();
    }
    let n = env_u64("WARPFORGE_RANDOM_SEEDS").unwrap_or(30);
    let first = env_u64("WARPFORGE_RANDOM_FIRST").unwrap_or(0);
    (first..first + n).collect()
}

fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random_kernels")
}

fn compile_opts() -> CompileOptions {
    CompileOptions { cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kernel-ptx")), ..Default::default() }
}

/// A configuration to run: a preset and `--set` overrides.
#[derive(Clone)]
struct Case {
    preset: &'static str,
    sets: Vec<String>,
    cfg: Config,
}

impl Case {
    fn new(preset: &'static str, sets: Vec<String>) -> Case {
        let mut cfg = Config::preset(preset);
        for set in &sets {
            cfg = cfg.with_override(set).unwrap_or_else(|e| panic!("{preset} with {set}: {e}"));
        }
        Case { preset, sets, cfg }
    }

    fn label(&self) -> String {
        format!("{} {}", self.preset, self.sets.join(" "))
    }

    /// The command line that runs it.
    fn args(&self) -> String {
        let sets: Vec<String> = self.sets.iter().map(|s| format!(" --set '{s}'")).collect();
        format!("--config {}{}", self.preset, sets.concat())
    }
}

/// Configurations every seed runs under (model engine): each preset with
/// each policy, in the preset's own mode (the seed 000 preset also with
/// warp pre-execution on) or, with `WARPFORGE_RANDOM_MODES=baseline,pmode`,
/// in each of the modes listed.
fn cases() -> Vec<Case> {
    let listed: Option<Vec<Option<String>>> =
        std::env::var("WARPFORGE_RANDOM_MODES").ok().map(|list| list.split(',').map(|m| Some(m.trim().to_string())).collect());
    let mut v = Vec::new();
    for preset in PRESETS {
        let modes = listed.clone().unwrap_or_else(|| match preset {
            "hpca16_pmode" => vec![None, Some("pmode".to_string()), Some("prefetch".to_string())],
            "ubc12_replay" => vec![None, Some("replay".to_string())],
            "isca17_dac" => [None].into_iter().chain(["dac", "cae", "mta"].iter().map(|m| Some(m.to_string()))).collect(),
            _ => vec![None],
        });
        for mode in &modes {
            for (i, policy) in Policy::ALL.into_iter().enumerate() {
                // The comparators (seed 003 Figure 16, seed 000 Figure 12):
                // the GPU and one SM under one other policy.
                if matches!(mode.as_deref(), Some("cae" | "mta" | "prefetch")) && i > 1 {
                    continue;
                }
                let mut sets: Vec<String> = mode.iter().map(|m| format!("mode=\"{m}\"")).collect();
                if mode.as_deref() == Some("replay") {
                    sets.extend(REPLAY_VARIANTS[i % REPLAY_VARIANTS.len()].iter().map(|s| s.to_string()));
                }
                sets.push(format!("core.policy=\"{policy}\""));
                // The preset's whole GPU under its first policy, one SM
                // under the others (the GPU steps every SM every cycle).
                if i > 0 {
                    sets.push("gpu.sms=1".to_string());
                }
                v.push(Case::new(preset, sets));
            }
        }
    }
    v
}

/// Replay-mode trackers and predictors the cases rotate through.
const REPLAY_VARIANTS: [&[&str]; 3] = [
    &["replay.squash=false", "replay.tracker=\"naive\"", "replay.predictor=\"always_miss\""],
    &["replay.tracker=\"none\""],
    &["replay.tracker=\"credit\"", "replay.predictor=\"counter\""],
];

/// The starved SM with the replay pipeline: two-slot warp buffers (the
/// least a warp buffer has) and one MSHR credit per scheduler.
fn starved_replay(policy: Policy) -> Case {
    let mut sets = starved(policy).sets;
    sets.retain(|s| !s.starts_with("core.ibuffer_entries") && !s.starts_with("l1.mshrs"));
    // Each override is checked on its own: the buffers first, then the mode.
    let replay = ["core.ibuffer_entries=2", "l1.mshrs=2", "replay.tracker=\"credit\"", "replay.predictor=\"always_miss\"", "mode=\"replay\""];
    sets.extend(replay.iter().map(|s| s.to_string()));
    Case::new("hpca16_pmode", sets)
}

/// A starved SM (one MSHR without merging, a one-entry interconnect queue, a
/// 4-line L1, one register bank, one collector unit of each kind, one-entry
/// instruction buffers, 16 warp slots, one SP pipeline, one writeback port):
/// every structural hazard and stall path is taken often, and a resource that
/// is never released shows as a deadlock.
fn starved(policy: Policy) -> Case {
    let mut sets: Vec<String> = [
        "l1.sets=2",
        "l1.ways=2",
        "l1.mshrs=1",
        "l1.merge=1",
        "memory.icnt_queue=1",
        "core.ibuffer_entries=1",
        "core.max_threads=512",
        "core.max_warps=16",
        "core.two_level_active=1",
        "operand_collector.banks=1",
        "operand_collector.units_sp=1",
        "operand_collector.units_sfu=1",
        "operand_collector.units_mem=1",
        "units.sp=1",
        "units.writeback_width=1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    sets.push(format!("core.policy=\"{policy}\""));
    Case::new("hpca16_pmode", sets)
}

thread_local! {
    /// Where the last panic on this thread happened (set by the test's hook).
    static PANIC_AT: RefCell<String> = const { RefCell::new(String::new()) };
    /// This thread is inside `simulate` (its panics are recorded, not printed).
    static IN_SIM: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// One timing run; an error or a panic (with its location) is an `Err`.
fn simulate(b: &(Arc<kernel::Kernel>, Arc<kernel::Launch>), cfg: &Config, engine: Engine, out: Outputs) -> Result<Outcome, String> {
    IN_SIM.with(|f| f.set(true));
    let r =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sm::run::simulate(Arc::clone(&b.0), Arc::clone(&b.1), cfg, engine, out)))
            .unwrap_or_else(|_| Err(format!("panic: {}", PANIC_AT.with(|p| p.borrow().clone()))));
    IN_SIM.with(|f| f.set(false));
    r
}

/// The first buffer element where two memories differ.
fn first_difference(b: &Built, got: &kernel::Memory, want: &kernel::Memory) -> String {
    for info in &b.launch.buffers {
        let (g, w) = (b.launch.buffer(got, &info.name).unwrap_or(&[]), b.launch.buffer(want, &info.name).unwrap_or(&[]));
        let eb = info.ty.bytes() as usize;
        let differ = |i: &usize| g[*i..*i + eb] != w[*i..*i + eb];
        let len = g.len().min(w.len());
        if let Some(i) = (0..len).step_by(eb).find(differ) {
            let n = (0..len).step_by(eb).filter(differ).count();
            return format!(
                "buffer `{}` ({}) element {}: SM {:02x?}, functional {:02x?}; {n} element(s) differ",
                info.name,
                info.ty.name(),
                i / eb,
                &g[i..i + eb],
                &w[i..i + eb]
            );
        }
    }
    "memories differ outside the launch's buffers".into()
}

/// Statistics JSON without the engine's name.
fn same(s: &sm::Stats) -> String {
    let mut s = s.clone();
    s.engine.clear();
    s.json()
}

/// The RTL engine of a seed's extra run: the netlist interpreter and the
/// compiled netlist alternate.
fn rtl_engine(seed: u64) -> Engine {
    if (seed / 5).is_multiple_of(2) {
        Engine::Netlist
    } else {
        Engine::Compiled
    }
}

/// The first lines where two statistics JSON texts differ.
fn json_difference(a: &str, b: &str, what: (&str, &str)) -> String {
    let d: Vec<String> = a
        .lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .take(5)
        .map(|(x, y)| format!("{} {} / {} {}", what.0, x.trim(), what.1, y.trim()))
        .collect();
    d.join("; ")
}

fn repro(g: &Generated, case: Option<&Case>, engine: Engine) -> String {
    let dir = work_dir();
    let (cu, toml) = (dir.join(format!("{}.cu", g.stem())), dir.join(format!("{}.toml", g.stem())));
    let mut s = format!(
        "files: {} and {}\n  reproduce: WARPFORGE_RANDOM_SEED={} cargo test -p sm --test random_kernels -- --nocapture",
        cu.display(),
        toml.display(),
        g.seed
    );
    if let Some(c) = case {
        let k = kernel::gen::KERNEL_NAME;
        s += &format!("\n  or: warpforge run {} --kernel {k} --launch {} {} --engine {engine}", cu.display(), toml.display(), c.args());
    }
    s
}

#[derive(Default)]
struct SeedResult {
    features: Vec<&'static str>,
    /// The generator's size class the kernel fitted the registers in.
    size: u32,
    cycles: u64,
    /// Also checked on the netlist engine and without the idle shortcut.
    extra: bool,
    failures: Vec<String>,
}

/// Check one seed under `cases` and one of `starved` (rotating with the seed).
fn check_seed(seed: u64, cases: &[Case], starved: &[Case]) -> SeedResult {
    let mut cases = cases.to_vec();
    cases.push(starved[seed as usize % starved.len()].clone());
    let mut r = SeedResult { extra: seed.is_multiple_of(5), ..SeedResult::default() };
    let (g, b) = match build_fitting(seed, &work_dir(), &compile_opts()) {
        Ok(x) => x,
        Err(e) => {
            let g = generate(seed);
            r.failures.push(format!("seed {seed}: the generated kernel does not build: {e}\n  {}", repro(&g, None, Engine::Model)));
            return r;
        }
    };
    r.features = g.features.iter().copied().collect();
    r.size = g.size;
    let golden = match kernel::run_functional(&b.kernel, &b.launch, &RunOptions { max_warp_insts: 50_000_000, ..Default::default() }) {
        Ok(x) => x,
        Err(e) => {
            r.failures.push(format!("seed {seed}: the functional model fails: {e}\n  {}", repro(&g, None, Engine::Model)));
            return r;
        }
    };
    let run = (Arc::new(b.kernel.clone()), Arc::new(b.launch.clone()));
    // DAC mode runs the decoupled kernel: its thread instructions are the
    // functional model's count for that kernel (its memory, the original's).
    let dac_threads = if cases.iter().any(|c| c.cfg.mode == sm::Mode::Dac) {
        let d = kernel::dac::decouple(&b.kernel).kernel;
        match kernel::run_functional(&d, &b.launch, &RunOptions { max_warp_insts: 50_000_000, ..Default::default() }) {
            Ok(x) if x.memory == golden.memory => x.stats.thread_insts,
            Ok(_) => {
                r.failures.push(format!("seed {seed}: the decoupled kernel's memory differs on the functional model\n  {}", repro(&g, None, Engine::Model)));
                return r;
            }
            Err(e) => {
                r.failures.push(format!("seed {seed}: the decoupled kernel fails on the functional model: {e}\n  {}", repro(&g, None, Engine::Model)));
                return r;
            }
        }
    } else {
        0
    };
    // The extra checks rotate through the configurations.
    let extra_case = (seed as usize / 5) % cases.len();
    for (i, case) in cases.iter().enumerate() {
        // The P-mode unit's SIMT stacks are hardware of a configured depth
        // (`pmode.stack_depth`, 2..=32): a kernel nesting deeper is an error
        // naming the key. Give it the depth it needs, or expect that error.
        let need = golden.stats.max_stack_depth;
        let mut cfg = &case.cfg;
        let deeper;
        if cfg.mode == sm::Mode::Pmode && need > cfg.pmode.stack_depth {
            if need > 32 {
                match simulate(&run, cfg, Engine::Model, Outputs::default()) {
                    Err(e) if e.contains("SIMT stack overflowed") => {}
                    other => r.failures.push(format!(
                        "seed {seed}, config {}: nesting depth {need}, expected the stack-overflow error, got {:?}",
                        case.label(),
                        other.map(|o| o.stats.cycles)
                    )),
                }
                continue;
            }
            deeper = cfg.clone().with_override(&format!("pmode.stack_depth={need}")).expect("a valid depth");
            cfg = &deeper;
        }
        let mut bad: Vec<(Engine, String)> = Vec::new();
        let check = |engine: Engine, out: Outputs, bad: &mut Vec<(Engine, String)>| -> Option<Outcome> {
            let o = simulate(&run, cfg, engine, out).map_err(|e| bad.push((engine, e))).ok()?;
            if o.memory != golden.memory {
                bad.push((engine, format!("final memory differs: {}", first_difference(&b, &o.memory, &golden.memory))));
            }
            if o.stats.cae.tag_mismatches > 0 {
                bad.push((engine, format!("{} affine-unit results are not one base and stride", o.stats.cae.tag_mismatches)));
            }
            if o.stats.dac.tuple_mismatches > 0 {
                bad.push((engine, format!("{} enqueued addresses are not their affine tuples' values", o.stats.dac.tuple_mismatches)));
            }
            let want = if cfg.mode == sm::Mode::Dac { dac_threads } else { golden.stats.thread_insts };
            if o.stats.thread_insts != want {
                let (s, f) = (o.stats.thread_insts, want);
                bad.push((engine, format!("{s} thread instructions, the functional model executed {f}")));
            }
            if o.stats.pmode.reuse_mismatches != 0 {
                bad.push((engine, format!("{} reused values differ from the N-mode values", o.stats.pmode.reuse_mismatches)));
            }
            Some(o)
        };
        if let Some(model) = check(Engine::Model, Outputs::default(), &mut bad) {
            r.cycles += model.stats.cycles;
            if r.extra && i == extra_case {
                let want = same(&model.stats);
                let rtl = rtl_engine(seed);
                if let Some(o) = check(rtl, Outputs::default(), &mut bad) {
                    let got = same(&o.stats);
                    if got != want {
                        let d = json_difference(&got, &want, (&rtl.to_string(), "model"));
                        bad.push((rtl, format!("statistics differ from the model engine's: {d}")));
                    }
                }
                if let Some(o) = check(Engine::Model, Outputs { exhaustive: true, ..Outputs::default() }, &mut bad) {
                    let got = same(&o.stats);
                    if got != want {
                        let d = json_difference(&got, &want, ("exhaustive", "shortcut"));
                        bad.push((Engine::Model, format!("statistics differ without the idle-scheduler shortcut: {d}")));
                    }
                }
            }
        }
        for (engine, what) in bad {
            r.failures.push(format!("seed {seed}, config {}, engine {engine}: {what}\n  {}", case.label(), repro(&g, Some(case), engine)));
        }
    }
    let modeless: Vec<&Case> = cases.iter().filter(|c| c.cfg.mode != sm::Mode::Pmode).collect();
    let case = modeless[seed as usize % modeless.len()];
    if let Err(e) = trace_scheduled(&g, &b, &case.cfg) {
        r.failures.push(format!("seed {seed}, trace-scheduled, config {}: {e}\n  {}", case.label(), repro(&g, Some(case), Engine::Model)));
    }
    r
}

/// Seed 002's pass in the differential test: the kernel with its helpers
/// inlined (the pass is intraprocedural), trained on its launch and
/// scheduled, runs on the SM to the unscheduled kernel's memory.
fn trace_scheduled(g: &Generated, b: &Built, cfg: &Config) -> Result<(), String> {
    let cu = b.cu_path.with_file_name(format!("{}_inlined.cu", g.stem()));
    std::fs::write(&cu, g.cuda.replace("__noinline__", "__forceinline__")).map_err(|e| e.to_string())?;
    let ptx = kernel::compile_cuda(&cu, &compile_opts()).map_err(|e| e.to_string())?;
    let file = cu.display().to_string();
    let load = |ptx: &str| -> Result<(kernel::Kernel, kernel::Launch), String> {
        let m = kernel::Module::from_ptx(ptx, &file).map_err(|e| e.to_string())?;
        let k = m.kernel(kernel::gen::KERNEL_NAME).map_err(|e| e.to_string())?.clone();
        let l = kernel::LaunchFile::parse(&g.launch, &b.launch_path).and_then(|f| f.bind(&m, &k)).map_err(|e| e.to_string())?;
        Ok((k, l))
    };
    let (k, l) = load(&ptx)?;
    let opts = RunOptions { max_warp_insts: 50_000_000, ..Default::default() };
    let golden = kernel::run_functional(&k, &l, &opts).map_err(|e| e.to_string())?;
    let mut profile = kernel::tsched::Profile::default();
    kernel::tsched::train(&k, &l, &opts, &mut profile).map_err(|e| e.to_string())?;
    let s = kernel::tsched::schedule(&ptx, &file, &profile, &Default::default()).map_err(|e| e.to_string())?;
    let (k2, l2) = load(&s.ptx)?;
    let o = simulate(&(Arc::new(k2), Arc::new(l2)), cfg, Engine::Model, Outputs::default())?;
    if o.memory != golden.memory {
        return Err(format!("final memory differs: {}", first_difference(b, &o.memory, &golden.memory)));
    }
    Ok(())
}

#[test]
fn random_kernels_match_the_functional_model() {
    let seeds = seeds();
    let cases = cases();
    let starved: Vec<Case> = Policy::ALL.into_iter().map(starved).chain(Policy::ALL.into_iter().map(starved_replay)).collect();
    let t = std::time::Instant::now();
    // Panics inside the SM are caught per run and reported with their
    // location; the hook records it instead of printing a backtrace.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if IN_SIM.with(|f| f.get()) {
            PANIC_AT.with(|p| *p.borrow_mut() = info.to_string().replace('\n', " "));
        } else {
            default_hook(info);
        }
    }));
    let results: Vec<(u64, SeedResult)> = seeds.par_iter().map(|&s| (s, check_seed(s, &cases, &starved))).collect();
    let _ = std::panic::take_hook();
    let mut coverage: BTreeMap<&str, u32> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut cycles, mut extra, mut smaller) = (0u64, 0, 0);
    for (_, r) in &results {
        for f in &r.features {
            *coverage.entry(f).or_default() += 1;
        }
        cycles += r.cycles;
        extra += r.extra as u32;
        smaller += (r.size > 0) as u32;
        failures.extend(r.failures.iter().cloned());
    }
    println!(
        "{} seeds ({smaller} in a smaller size class) x {} configurations and the starved SM, {extra} also on the netlist or compiled engine and without the idle shortcut: {cycles} SM cycles (model runs) in {:.1?}",
        seeds.len(),
        cases.len(),
        t.elapsed()
    );
    println!("feature coverage (seeds using it): {coverage:?}");
    if !failures.is_empty() {
        let failed: BTreeSet<u64> = results.iter().filter(|(_, r)| !r.failures.is_empty()).map(|(s, _)| *s).collect();
        panic!("{} failure(s) on seeds {failed:?}:\n{}", failures.len(), failures.join("\n"));
    }
    // The default seeds must exercise every feature the generator has (a
    // generator change that loses one shows here).
    if std::env::var("WARPFORGE_RANDOM_SEED").is_err() && seeds.len() >= 30 {
        for f in kernel::gen::FEATURES {
            assert!(coverage.contains_key(f), "no seed used feature `{f}`");
        }
    }
}

/// Generated kernels that once exposed an SM bug, kept as files (a change of
/// the generator cannot lose them), each on the configuration that showed
/// it and on every preset and policy.
#[test]
fn random_kernel_regressions() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/random_regressions");
    let regressions = [("warp_slot_reuse", starved(Policy::Gto))];
    for (name, case) in regressions {
        let cu = dir.join(format!("{name}.cu"));
        let module = kernel::load(&cu, &compile_opts()).unwrap_or_else(|e| panic!("{e}"));
        let k = module.kernel(kernel::gen::KERNEL_NAME).unwrap().clone();
        let launch =
            kernel::LaunchFile::load(&dir.join(format!("{name}.toml"))).and_then(|f| f.bind(&module, &k)).unwrap_or_else(|e| panic!("{e}"));
        let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let run = (Arc::new(k), Arc::new(launch));
        for c in std::iter::once(case).chain(cases()) {
            let o = sm::run::simulate(Arc::clone(&run.0), Arc::clone(&run.1), &c.cfg, Engine::Model, Outputs::default())
                .unwrap_or_else(|e| panic!("{name}, {}: {e}", c.label()));
            assert!(o.memory == golden.memory, "{name}, {}: final memory differs from the functional model", c.label());
        }
    }
}
