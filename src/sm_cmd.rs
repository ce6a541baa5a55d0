//! The timing SM on the command line: `run --config`, `plot`, `sweep`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sm::core::{Outputs, VcdRequest};
use sm::{Config, Engine, Stats};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

type Res<T> = Result<T, String>;

/// Where a timing run writes what it reports.
#[derive(clap::Args, Clone, Default)]
pub struct TimingArgs {
    /// SM configuration: a preset (hpca16_pmode, isca17_dac, ubc12_replay) or a TOML file.
    #[arg(long, value_name = "C.toml")]
    pub config: Option<String>,
    /// Override a configuration key, `section.key=value` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Engine of the hardware blocks: model (alias reference), rtl, netlist.
    #[arg(long, default_value = "model")]
    pub engine: String,
    /// Write the statistics as JSON.
    #[arg(long, value_name = "S.json")]
    pub stats: Option<PathBuf>,
    /// Append the statistics as a CSV row (header written if the file is new).
    #[arg(long, value_name = "F.csv")]
    pub csv: Option<PathBuf>,
    /// VCD of the SM (stage signals and the blocks' scopes), with a .gtkw beside it.
    #[arg(long, value_name = "F.vcd")]
    pub vcd: Option<PathBuf>,
    /// First cycle in the VCD.
    #[arg(long, value_name = "A", default_value_t = 0, requires = "vcd")]
    pub vcd_from: u64,
    /// Last cycle in the VCD (default: 10,000 cycles after --vcd-from).
    #[arg(long, value_name = "B", requires = "vcd")]
    pub vcd_to: Option<u64>,
    /// Also dump the register arrays and memories of netlist blocks.
    #[arg(long, requires = "vcd")]
    pub vcd_memories: bool,
    /// Kanata pipeline log for the Konata viewer.
    #[arg(long, value_name = "F.log")]
    pub pipeview: Option<PathBuf>,
    /// Threads stepping a whole GPU's SMs (`gpu.sms` > 1); the results are
    /// the same at any count.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// The configuration of a timing run, overrides applied.
pub fn config(spec: &str, set: &[String]) -> Res<Config> {
    let (mut c, _) = Config::load(spec).map_err(|e| e.to_string())?;
    for s in set {
        c = c.with_override(s).map_err(|e| e.to_string())?;
    }
    Ok(c)
}

/// The run budgets of `warpforge run`, one vocabulary for the functional
/// model and the timing SM.
#[derive(clap::Args, Clone, Copy, Default)]
pub struct Budget {
    /// Stop with an error after this many warp instructions (functional
    /// model and timing SM; default for the functional model 2^30).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Stop with an error after this many cycles (timing SM; sets
    /// limits.max_cycles).
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Global loads outside every allocation read zero and are counted (as
    /// GPGPU-Sim does) instead of stopping the run (sets
    /// memory.unmapped_reads = "zero").
    #[arg(long)]
    pub unmapped_reads_zero: bool,
}

/// Check every output path of a run before it starts.
pub fn prepare_outputs(a: &TimingArgs) -> Res<()> {
    for p in [&a.stats, &a.csv, &a.vcd, &a.pipeview].into_iter().flatten() {
        crate::output::prepare(p)?;
    }
    if let Some(v) = &a.vcd {
        crate::output::prepare(&v.with_extension("gtkw"))?;
    }
    Ok(())
}

/// The functional model's run with the instruction budget and a progress
/// bar; its warning about partial barriers goes to standard error.
pub fn functional(k: &kernel::Kernel, l: &kernel::Launch, opts: kernel::RunOptions) -> Res<kernel::FunctionalResult> {
    let bar = crate::progress::Bar::new(Some(l.ctas()), "functional model {bar:30} {pos}/{len} CTAs {msg}");
    let t = Instant::now();
    let mut memory = l.memory.clone();
    let r = kernel::run_observed(k, l, &mut memory, &opts, &mut |s| {
        bar.update(s.ctas, || format!("{:.1} M warp instructions/s", s.warp_insts as f64 / t.elapsed().as_secs_f64().max(1e-9) / 1e6))
    });
    bar.finish();
    let stats = r.map_err(|e| e.to_string())?;
    if let Some(w) = stats.barrier_warning(&k.base_name) {
        eprintln!("{w}");
    }
    if stats.unmapped_reads > 0 {
        eprintln!("warning: kernel `{}`: {} lane-elements of global loads read unmapped memory as zero", k.base_name, stats.unmapped_reads);
    }
    Ok(kernel::FunctionalResult { memory, stats })
}

/// `warpforge run --config`: the timing SM, checked against the functional model.
pub fn run_timing(k: &kernel::Kernel, l: &kernel::Launch, a: &TimingArgs, dump: Option<PathBuf>, budget: Budget) -> Res<()> {
    let mut cfg = config(a.config.as_deref().expect("--config"), &a.set)?;
    if let Some(n) = budget.max_cycles {
        cfg.limits.max_cycles = n;
    }
    if let Some(n) = budget.max_instructions {
        cfg.limits.max_instructions = n;
    }
    if budget.unmapped_reads_zero {
        cfg.memory.unmapped_reads = sm::config::UnmappedReads::Zero;
    }
    let engine = sm::blocks::parse_engine(&a.engine)?;
    let mut out = Outputs { threads: a.threads, ..Outputs::default() };
    if let Some(p) = &a.pipeview {
        let f = waves::PathWriter::create(p).map_err(|e| e.to_string())?;
        out.pipeview = Some(sm::pipeview::Kanata::new(Box::new(f)));
    }
    if let Some(p) = &a.vcd {
        let to = a.vcd_to.unwrap_or(a.vcd_from + 10_000);
        if to < a.vcd_from {
            return Err(format!("--vcd-to {to} is before --vcd-from {}", a.vcd_from));
        }
        out.vcd = Some(VcdRequest { path: p.clone(), from: a.vcd_from, to, memories: a.vcd_memories });
    }
    let max_insts = match cfg.limits.max_instructions {
        0 => kernel::RunOptions::default().max_warp_insts,
        n => n,
    };
    let unmapped_reads_zero = cfg.memory.unmapped_reads == sm::config::UnmappedReads::Zero;
    let golden = functional(k, l, kernel::RunOptions { max_warp_insts: max_insts, unmapped_reads_zero })?;
    let bar = crate::progress::Bar::new(None, "timing SM: cycle {pos} {msg}");
    let t = Instant::now();
    let shown = bar.clone();
    out.progress = Some(Box::new(move |p: &sm::core::Progress| {
        shown.update(p.cycles, || {
            format!("{}/{} CTAs done, {:.0} cycles/s", p.ctas_done, p.ctas, p.cycles as f64 / t.elapsed().as_secs_f64().max(1e-9))
        })
    }));
    let o = sm::run::simulate(Arc::new(k.clone()), Arc::new(l.clone()), &cfg, engine, out);
    bar.finish();
    let o = o?;
    let secs = t.elapsed().as_secs_f64();
    print!("{}", o.stats.table());
    // The statistics are the run's, whatever the memory check says.
    write_reports(&o.stats, a)?;
    if let Some(d) = golden.memory.difference(&o.memory) {
        return Err(format!(
            "{}: the final memory of the functional model and of the timing run differ: {d}: the kernel's result depends on the order or timing in which its threads run (a data race, floating-point atomics whose order changes the rounding, or stored %clock values); otherwise this is a warpforge bug: please report it",
            k.base_name
        ));
    }
    println!("final memory equals the functional model's; {:.3} s, {:.0} SM-cycles/s", secs, (o.stats.cycles * o.stats.sms()) as f64 / secs.max(1e-9));
    if let Some(p) = &a.vcd {
        println!("{} (and {})", p.display(), p.with_extension("gtkw").display());
    }
    if let Some(p) = &a.pipeview {
        println!("{}", p.display());
    }
    if let Some(dir) = dump {
        crate::dump_buffers(l, &o.memory, &dir)?;
    }
    Ok(())
}

fn write_reports(s: &Stats, a: &TimingArgs) -> Res<()> {
    if let Some(p) = &a.stats {
        crate::output::write_results(p, &s.json())?;
        println!("{}", p.display());
    }
    if let Some(p) = &a.csv {
        append_csv(p, std::slice::from_ref(s))?;
    }
    Ok(())
}

fn append_csv(p: &Path, rows: &[Stats]) -> Res<()> {
    use std::io::Write;
    let new = !p.exists();
    let mut text = String::new();
    if new {
        text += &Stats::csv_header();
        text.push('\n');
    }
    for s in rows {
        text += &s.csv_row();
        text.push('\n');
    }
    let r = std::fs::OpenOptions::new().create(true).append(true).open(p).and_then(|mut f| f.write_all(text.as_bytes()));
    r.map_err(|e| format!("cannot write {}: {e}", p.display())).inspect_err(|_| crate::output::print_instead(p, &text))
}

/// `warpforge plot`: the breakdown of several stats files as one SVG.
pub fn plot(files: &[PathBuf], out: &Path, title: &str) -> Res<()> {
    if files.is_empty() {
        return Err("plot: give at least one stats file (written by `run --stats`)".into());
    }
    crate::output::prepare(out)?;
    let mut runs = Vec::new();
    for f in files {
        let text = kernel::input::read_text(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        runs.push(Stats::from_json(&text).map_err(|e| format!("{}: not a warpforge stats file: {e}", f.display()))?);
    }
    sm::plot::breakdown_svg(&runs, out, title)?;
    println!("{}", out.display());
    Ok(())
}

#[derive(clap::Args, Clone)]
pub struct SweepArgs {
    /// Kernels of the suite directory (comma-separated, or `all`).
    #[arg(long, default_value = "all")]
    pub kernels: String,
    /// Suite directory: NAME.cu with its launch file NAME.toml.
    #[arg(long, default_value = "kernels")]
    pub suite: PathBuf,
    /// Configurations (presets or files), comma-separated.
    #[arg(long, default_value = "hpca16_pmode")]
    pub configs: String,
    /// Modes (baseline, pmode), comma-separated; default: each configuration's own.
    #[arg(long)]
    pub modes: Option<String>,
    /// Scheduler policies (gto, lrr, two_level), comma-separated; default: each configuration's own.
    #[arg(long)]
    pub policies: Option<String>,
    /// Engines, comma-separated.
    #[arg(long, default_value = "model")]
    pub engines: String,
    /// A grid axis over one key, `section.key=v1,v2,...` (repeatable).
    #[arg(long = "vary", value_name = "KEY=V1,V2")]
    pub vary: Vec<String>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    pub jobs: usize,
    /// Run only grid points p with p % n == i (e.g. a Slurm array task).
    #[arg(long, value_name = "i/n")]
    pub shard: Option<String>,
    /// The compiler of the suite's `.cu` files.
    #[arg(long, value_enum, default_value = "clang")]
    pub compiler: crate::CompilerArg,
    /// Output CSV.
    #[arg(long, short = 'o', default_value = "out/sweep.csv")]
    pub out: PathBuf,
    /// Also write each run's stats as JSON into this directory.
    #[arg(long, value_name = "DIR")]
    pub stats_dir: Option<PathBuf>,
}

struct Point {
    kernel: String,
    cfg: Config,
    engine: Engine,
    label: String,
}

fn list(s: &str) -> Vec<String> {
    s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()
}

/// `warpforge sweep`.
pub fn sweep(a: &SweepArgs) -> Res<()> {
    let kernels: Vec<String> = if a.kernels == "all" {
        let mut v: Vec<String> = std::fs::read_dir(&a.suite)
            .map_err(|e| format!("cannot read suite {}: {e}", a.suite.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "cu") && p.with_extension("toml").exists())
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().to_string()))
            .collect();
        v.sort();
        v
    } else {
        list(&a.kernels)
    };
    for k in &kernels {
        let p = a.suite.join(format!("{k}.cu"));
        if !p.exists() || !p.with_extension("toml").exists() {
            return Err(format!("--kernels: `{k}` needs {} and its launch file {}", p.display(), p.with_extension("toml").display()));
        }
    }
    let shard = match &a.shard {
        Some(s) => sm::sweep::Shard::parse(s)?,
        None => sm::sweep::Shard::ALL,
    };
    // The configuration axes, as override lists.
    let mut axes: Vec<Vec<String>> = Vec::new();
    if let Some(m) = &a.modes {
        axes.push(list(m).into_iter().map(|v| format!("mode={v}")).collect());
    }
    if let Some(p) = &a.policies {
        axes.push(list(p).into_iter().map(|v| format!("core.policy={v}")).collect());
    }
    for v in &a.vary {
        let (key, values) = v.split_once('=').ok_or_else(|| format!("--vary `{v}`: expected section.key=v1,v2"))?;
        axes.push(list(values).into_iter().map(|x| format!("{key}={x}")).collect());
    }
    let mut combos: Vec<Vec<String>> = vec![vec![]];
    for axis in &axes {
        combos = combos.iter().flat_map(|c| axis.iter().map(move |v| [c.clone(), vec![v.clone()]].concat())).collect();
    }
    let engines: Vec<Engine> = list(&a.engines).iter().map(|e| sm::blocks::parse_engine(e)).collect::<Res<_>>()?;
    let mut points = Vec::new();
    for k in &kernels {
        for c in list(&a.configs) {
            for combo in &combos {
                let cfg = config(&c, combo)?;
                for &engine in &engines {
                    points.push(Point { kernel: k.clone(), cfg: cfg.clone(), engine, label: combo.join(" ") });
                }
            }
        }
    }
    // Compile and bind every kernel once, up front (errors stop the sweep early).
    let mut loaded = std::collections::HashMap::new();
    for k in &kernels {
        let file = a.suite.join(format!("{k}.cu"));
        let m = crate::load_module(&file, a.compiler)?;
        let kern = m.only_kernel().map_err(|e| e.to_string())?.clone();
        let l = kernel::LaunchFile::load(&file.with_extension("toml")).map_err(|e| e.to_string())?.bind(&m, &kern).map_err(|e| e.to_string())?;
        loaded.insert(k.clone(), (Arc::new(kern), Arc::new(l)));
    }
    crate::output::prepare(&a.out)?;
    if let Some(dir) = &a.stats_dir {
        crate::output::create_dir(dir)?;
    }
    let mine = (0..points.len()).filter(|&p| shard.takes(p)).count();
    let bar = ProgressBar::new(mine as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} (eta {eta})").expect("template"));
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let t = Instant::now();
    let results = sm::sweep::run(
        &points,
        shard,
        a.jobs,
        |p| {
            let (k, l) = &loaded[&p.kernel];
            sm::run::simulate(Arc::clone(k), Arc::clone(l), &p.cfg, p.engine, Outputs::default())
        },
        || bar.inc(1),
    )?;
    bar.finish_and_clear();
    let mut text = format!("point,{},overrides\n", Stats::csv_header());
    let mut failures = Vec::new();
    for (p, r) in &results {
        match r {
            Ok(o) => {
                text += &format!("{p},{},\"{}\"\n", o.stats.csv_row(), points[*p].label);
                if let Some(dir) = &a.stats_dir {
                    let f = dir.join(format!("{p:05}_{}_{}.json", points[*p].kernel, points[*p].cfg.mode));
                    if let Err(e) = std::fs::write(&f, o.stats.json()) {
                        failures.push(format!("cannot write {}: {e}", f.display()));
                    }
                }
            }
            Err(e) => failures.push(format!("point {p} ({} {} {}): {e}", points[*p].kernel, points[*p].cfg.name, points[*p].label)),
        }
    }
    crate::output::write_results(&a.out, &text)?;
    println!("{} runs ({} of {} grid points, shard {}/{}) in {:.1} s -> {}", results.len(), mine, points.len(), shard.index, shard.count, t.elapsed().as_secs_f64(), a.out.display());
    if !failures.is_empty() {
        return Err(format!("{} run(s) failed:\n{}", failures.len(), failures.join("\n")));
    }
    Ok(())
}

/// `warpforge compare`: speedups and long-latency RAW shares from a sweep CSV.
pub fn compare(file: &Path) -> Res<()> {
    let text = kernel::input::read_text(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let rows = sm::report::parse_csv(&text, &file.display().to_string())?;
    print!("{}", sm::report::compare(&rows).map_err(|e| format!("{}: {e}", file.display()))?);
    Ok(())
}
