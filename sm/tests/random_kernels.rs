//! The differential test on random kernels (issue 14, Correctness): every
//! kernel `kernel::gen` writes for a seed — CUDA C compiled by clang — runs
//! on the functional model and on the timing SM under every preset and
//! scheduler policy (model engine), and must leave byte-identical memory and
//! the same thread-instruction count; one seed in five also runs on the
//! netlist engine, whose statistics must equal the model engine's.
//!
//! Seeds: `WARPFORGE_RANDOM_SEEDS=N` (default 30) starting at
//! `WARPFORGE_RANDOM_FIRST` (default 0), or exactly the comma-separated list
//! in `WARPFORGE_RANDOM_SEED`. `make fuzz-sm` runs 500 in release mode.
//! A failure names the seed and configuration and leaves the kernel's `.cu`
//! and launch `.toml` under `target/tmp/random_kernels/` (the message prints
//! the path and a command that reproduces it).

use kernel::gen::{build_fitting, generate, Built, Generated};
use kernel::{CompileOptions, RunOptions};
use rayon::prelude::*;
use sm::core::Outputs;
use sm::{Config, Engine, Policy};
use std::collections::BTreeMap;
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
            .map(|s| {
                s.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("WARPFORGE_RANDOM_SEED: `{s}` is not a number"))
            })
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
    CompileOptions {
        cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kernel-ptx")),
        ..Default::default()
    }
}

/// Configurations every seed runs under (model engine).
fn configs() -> Vec<Config> {
    let mut v = Vec::new();
    for preset in PRESETS {
        for policy in Policy::ALL {
            v.push(
                Config::preset(preset)
                    .with_override(&format!("core.policy=\"{policy}\""))
                    .expect("a valid override"),
            );
        }
    }
    v
}

/// The first buffer element where two memories differ.
fn first_difference(b: &Built, got: &kernel::Memory, want: &kernel::Memory) -> String {
    for info in &b.launch.buffers {
        let (g, w) = (
            b.launch.buffer(got, &info.name).unwrap_or(&[]),
            b.launch.buffer(want, &info.name).unwrap_or(&[]),
        );
        let eb = info.ty.bytes() as usize;
        if let Some(i) = (0..g.len().min(w.len())).step_by(eb).find(|&i| g[i..i + eb] != w[i..i + eb]) {
            let n = (0..g.len().min(w.len()))
                .step_by(eb)
                .filter(|&i| g[i..i + eb] != w[i..i + eb])
                .count();
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

struct SeedResult {
    features: Vec<&'static str>,
    /// The generator's size class the kernel fitted the registers in.
    size: u32,
    cycles: u64,
    netlist: bool,
    failures: Vec<String>,
}

fn repro(g: &Generated, b: Option<&Built>, cfg: &str, engine: Engine) -> String {
    let files = match b {
        Some(b) => format!("{} and {}", b.cu_path.display(), b.launch_path.display()),
        None => format!("{}/{}.{{cu,toml}}", work_dir().display(), g.stem()),
    };
    format!(
        "files: {files}\n  reproduce: WARPFORGE_RANDOM_SEED={} cargo test -p sm --test random_kernels\n  or: warpforge run {}/{}.cu --kernel {} --launch {}/{}.toml --config {cfg} --engine {engine}",
        g.seed,
        work_dir().display(),
        g.stem(),
        kernel::gen::KERNEL_NAME,
        work_dir().display(),
        g.stem()
    )
}

fn check_seed(seed: u64, configs: &[Config]) -> SeedResult {
    let mut r = SeedResult {
        features: Vec::new(),
        size: 0,
        cycles: 0,
        netlist: seed % 5 == 0,
        failures: Vec::new(),
    };
    let (g, b) = match build_fitting(seed, &work_dir(), &compile_opts()) {
        Ok(x) => x,
        Err(e) => {
            let g = generate(seed);
            r.failures.push(format!(
                "seed {seed}: the generated kernel does not build: {e}\n  {}",
                repro(&g, None, "-", Engine::Model)
            ));
            return r;
        }
    };
    r.features = g.features.iter().copied().collect();
    r.size = g.size;
    let opts = RunOptions {
        max_warp_insts: 50_000_000,
    };
    let golden = match kernel::run_functional(&b.kernel, &b.launch, &opts) {
        Ok(x) => x,
        Err(e) => {
            r.failures.push(format!(
                "seed {seed}: the functional model fails: {e}\n  {}",
                repro(&g, Some(&b), "-", Engine::Model)
            ));
            return r;
        }
    };
    let kernel = Arc::new(b.kernel.clone());
    let launch = Arc::new(b.launch.clone());
    let mut netlist_cfg = None;
    for (i, cfg) in configs.iter().enumerate() {
        let name = format!("{} policy={}", cfg.name, cfg.core.policy);
        let run = |engine: Engine| {
            // A panic in the SM is a failure of this seed, not of the whole test.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sm::run::simulate(Arc::clone(&kernel), Arc::clone(&launch), cfg, engine, Outputs::default())
            }))
            .unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
                Err(format!("panic: {}", msg.unwrap_or_default()))
            })
        };
        let fail = |what: String, engine: Engine| {
            format!(
                "seed {seed}, config {name}, engine {engine}: {what}\n  {}",
                repro(&g, Some(&b), &cfg.name, engine)
            )
        };
        let out = match run(Engine::Model) {
            Ok(o) => o,
            Err(e) => {
                r.failures.push(fail(e, Engine::Model));
                continue;
            }
        };
        if out.memory != golden.memory {
            r.failures.push(fail(
                format!("final memory differs: {}", first_difference(&b, &out.memory, &golden.memory)),
                Engine::Model,
            ));
        }
        if out.stats.thread_insts != golden.stats.thread_insts {
            r.failures.push(fail(
                format!(
                    "{} thread instructions, the functional model executed {}",
                    out.stats.thread_insts, golden.stats.thread_insts
                ),
                Engine::Model,
            ));
        }
        r.cycles += out.stats.cycles;
        // The netlist seeds rotate through the configurations.
        if r.netlist && i == (seed as usize / 5) % configs.len() {
            netlist_cfg = Some((cfg, out.stats.json()));
        }
    }
    if let Some((cfg, model_json)) = netlist_cfg {
        let name = format!("{} policy={}", cfg.name, cfg.core.policy);
        match sm::run::simulate(Arc::clone(&kernel), Arc::clone(&launch), cfg, Engine::Netlist, Outputs::default()) {
            Err(e) => r.failures.push(format!(
                "seed {seed}, config {name}, engine netlist: {e}\n  {}",
                repro(&g, Some(&b), &cfg.name, Engine::Netlist)
            )),
            Ok(out) => {
                if out.memory != golden.memory {
                    r.failures.push(format!(
                        "seed {seed}, config {name}, engine netlist: final memory differs: {}\n  {}",
                        first_difference(&b, &out.memory, &golden.memory),
                        repro(&g, Some(&b), &cfg.name, Engine::Netlist)
                    ));
                }
                let json = out.stats.json().replace("\"netlist\"", "\"model\"");
                if json != model_json {
                    let diff: Vec<String> = json
                        .lines()
                        .zip(model_json.lines())
                        .filter(|(a, b)| a != b)
                        .take(5)
                        .map(|(a, b)| format!("netlist {} / model {}", a.trim(), b.trim()))
                        .collect();
                    r.failures.push(format!(
                        "seed {seed}, config {name}: statistics differ between the netlist and model engines: {}\n  {}",
                        diff.join("; "),
                        repro(&g, Some(&b), &cfg.name, Engine::Netlist)
                    ));
                }
            }
        }
    }
    r
}

#[test]
fn random_kernels_match_the_functional_model() {
    let seeds = seeds();
    let configs = configs();
    let t = std::time::Instant::now();
    let results: Vec<(u64, SeedResult)> = seeds.par_iter().map(|&s| (s, check_seed(s, &configs))).collect();
    let mut coverage: BTreeMap<&str, u32> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut cycles, mut netlist, mut smaller) = (0u64, 0, 0);
    for (_, r) in &results {
        for f in &r.features {
            *coverage.entry(f).or_default() += 1;
        }
        cycles += r.cycles;
        netlist += r.netlist as u32;
        smaller += (r.size > 0) as u32;
        failures.extend(r.failures.iter().cloned());
    }
    println!(
        "{} seeds ({} in a smaller size class) x {} configurations ({} also on the netlist engine): {} SM cycles in {:.1?}",
        seeds.len(),
        smaller,
        configs.len(),
        netlist,
        cycles,
        t.elapsed()
    );
    println!("feature coverage (seeds using it): {coverage:?}");
    if !failures.is_empty() {
        let failed: std::collections::BTreeSet<u64> = results.iter().filter(|(_, r)| !r.failures.is_empty()).map(|(s, _)| *s).collect();
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
