//! `warpforge workloads`: the benchmark applications of `workloads/` built
//! by nvcc with `-cudart shared`, their inputs generated, run unmodified
//! through `warpforge exec` on the functional model and the timing SM, and
//! their output checked (each suite's `workloads/SUITE/apps.toml` says how,
//! per application).

use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

type Res<T> = Result<T, String>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    app: Vec<App>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct App {
    /// `suite/app`: also its directory under `workloads/` unless `dir` is given.
    name: String,
    #[serde(default)]
    dir: Option<String>,
    /// nvcc's inputs (CUDA and host C/C++), relative to the directory.
    sources: Vec<String>,
    #[serde(default)]
    flags: Vec<String>,
    exe: String,
    /// Configuration overrides the program needs on every configuration.
    #[serde(default)]
    set: Vec<String>,
    /// Absent when the program's only size takes minutes on the SM.
    #[serde(default)]
    small: Option<Size>,
    /// Enough CTAs to fill every SM of a 15-SM GPU twice over (seed 000's
    /// CTA-limit comparisons: OptTB, 2xTLP), where small leaves SMs with one.
    #[serde(default)]
    medium: Option<Size>,
    paper: Size,
    #[serde(default)]
    check: Check,
    /// It seeds its inputs with `time(0)`: run it with `time` fixed
    /// (`inputs/fixed_time.c`, preloaded), so every run sees one input.
    #[serde(default)]
    fixed_time: bool,
}

#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Size {
    args: Vec<String>,
    /// Commands run in the run directory first (input generators).
    #[serde(default)]
    prepare: Vec<Vec<String>>,
    /// The directory (under the run directory) the program runs in.
    #[serde(default)]
    cwd: Option<String>,
    /// A command run in the program's directory after it; exit 0 means
    /// its output is correct (a reference from the benchmark's CPU code).
    #[serde(default)]
    reference: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Check {
    /// Lines the program's standard output must contain (its own verification).
    #[serde(default)]
    stdout_has: Vec<String>,
    /// Text its standard output must not contain (its verification's failure).
    #[serde(default)]
    stdout_lacks: Vec<String>,
    /// Why the output is not checked beyond the per-launch comparison of
    /// the timing SM with the functional model.
    #[serde(default)]
    unchecked: Option<String>,
}

#[derive(clap::Args, Clone)]
pub struct WorkloadsArgs {
    /// Applications (`suite/app` or `app`, comma-separated) or `all`.
    #[arg(long, default_value = "all")]
    pub apps: String,
    /// Input size: small (seconds on the SM), medium (at least 16 CTAs per
    /// SM of a 15-SM GPU, where an application has it) or paper (the
    /// papers' inputs).
    #[arg(long, default_value = "small")]
    pub size: String,
    /// Runs, comma-separated: `functional`, or a preset or configuration
    /// file with `:key=value` overrides (`ubc12_replay:mode=replay:replay.tracker=credit`);
    /// `pmode` and `replay` stand for `hpca16_pmode:mode=pmode` and
    /// `ubc12_replay:mode=replay`, and may take overrides too; `gpgpusim`
    /// runs the program under GPGPU-Sim's GTX 480 (scripts/gpgpusim/build.sh
    /// first) and, listed first, adds the correlation table.
    #[arg(long, default_value = "functional,hpca16_pmode")]
    pub modes: String,
    /// The training input of runs marked `:trace` (trace-scheduled,
    /// docs/tsched.md): its branch profile comes from a functional run of
    /// this size.
    #[arg(long, default_value = "small")]
    pub train_size: String,
    /// Only build.
    #[arg(long)]
    pub build_only: bool,
    /// Where the programs, runs and the summary go.
    #[arg(long, default_value = "out/workloads")]
    pub out: PathBuf,
}

impl App {
    fn src(&self) -> PathBuf {
        root().join(self.dir.as_ref().unwrap_or(&self.name))
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads")
}

/// Every suite's `apps.toml`, in suite order.
fn load() -> Res<Manifest> {
    let mut suites: Vec<PathBuf> = std::fs::read_dir(root())
        .map_err(|e| format!("cannot read {}: {e}", root().display()))?
        .filter_map(|e| Some(e.ok()?.path().join("apps.toml")))
        .filter(|p| p.is_file())
        .collect();
    suites.sort();
    let mut all = Manifest { app: Vec::new() };
    for path in suites {
        let text = kernel::input::read_text(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let m: Manifest = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for a in &m.app {
            let checked = a.paper.reference.is_some() || !a.check.stdout_lacks.is_empty();
            if checked == a.check.unchecked.is_some() {
                return Err(format!("{}: `{}` needs either a check (reference, stdout_lacks) or `unchecked` saying why not, not both", path.display(), a.name));
            }
            if all.app.iter().any(|b| b.name == a.name) {
                return Err(format!("{}: `{}` is listed twice", path.display(), a.name));
            }
        }
        all.app.extend(m.app);
    }
    Ok(all)
}

fn build(app: &App, nvcc: &Path, link: &Path, out: &Path) -> Res<PathBuf> {
    let src = app.src();
    let dir = out.join(&app.name);
    crate::output::create_dir(&dir)?;
    let exe = dir.join(&app.exe);
    let mut cmd = Command::new(nvcc);
    cmd.current_dir(&src).args(["-arch=sm_75", "-cudart", "shared", "-O2", "-w", "-include"]).arg(root().join("cuda13_shim.h"));
    cmd.args(&app.flags).args(&app.sources).arg("-o").arg(&exe).arg("-L").arg(link).arg("-lm");
    let o = cmd.output().map_err(|e| format!("cannot run {}: {e}", nvcc.display()))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let first: Vec<&str> = err.lines().filter(|l| l.contains("error")).take(3).collect();
        return Err(format!("{}: nvcc failed: {}", app.name, first.join(" | ")));
    }
    if app.fixed_time {
        let src = root().join("inputs").join("fixed_time.c");
        run_cmd(&["gcc".into(), "-shared".into(), "-fPIC".into(), "-O2".into(), "-o".into(), fixed_time(&exe).display().to_string(), src.display().to_string()], &dir, "fixed_time.so")?;
    }
    Ok(exe)
}

/// The preloaded `time` of a `fixed_time` application, beside its program.
fn fixed_time(exe: &Path) -> PathBuf {
    exe.with_file_name("fixed_time.so")
}

/// `{src}`, `{bin}`, `{run}`, `{inputs}` in a command's words.
fn expand(words: &[String], src: &Path, bin: &Path, run: &Path) -> Vec<String> {
    let inputs = root().join("inputs");
    let subst = [("{src}", src), ("{bin}", bin), ("{run}", run), ("{inputs}", inputs.as_path())];
    words.iter().map(|w| subst.iter().fold(w.clone(), |w, (k, v)| w.replace(k, &v.display().to_string()))).collect()
}

fn run_cmd(words: &[String], cwd: &Path, what: &str) -> Res<()> {
    let (prog, args) = words.split_first().ok_or_else(|| format!("{what}: an empty command"))?;
    let o = Command::new(prog).args(args).current_dir(cwd).output().map_err(|e| format!("{what}: cannot run {prog}: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!("{what}: `{}` failed ({}): {}", words.join(" "), o.status, String::from_utf8_lossy(&o.stderr).trim()))
    }
}

/// One run's outcome.
struct Outcome {
    ok: Result<(), String>,
    launches: u64,
    cycles: u64,
    /// Replays (replay mode).
    replays: u64,
    warp_insts: u64,
    divergent_warp_insts: u64,
    thread_insts: u64,
    /// Wall seconds of the program's run under the simulator (its inputs'
    /// preparation and the output check not counted).
    secs: f64,
}

/// A run's configuration and overrides (`None`: the functional model);
/// a `:trace` part marks a trace-scheduled run and is not an override.
fn run_spec(mode: &str) -> Option<(String, Vec<String>)> {
    let mut parts = mode.split(':').filter(|p| *p != "trace" && !p.starts_with("trace="));
    let (config, mut sets) = match parts.next().unwrap_or_default() {
        "functional" | GPGPUSIM => return None,
        "pmode" => ("hpca16_pmode".to_string(), vec!["mode=pmode".to_string()]),
        "replay" => ("ubc12_replay".to_string(), vec!["mode=replay".to_string()]),
        c => (c.to_string(), Vec::new()),
    };
    sets.extend(parts.map(str::to_string));
    Some((config, sets))
}

/// A run part that takes its CTA limit from the application's earlier runs
/// (seed 000's OptTB): see [`best_ctas`].
const BEST_CTAS: &str = "core.max_ctas=best";

/// The CTA limit of the fastest of `earlier` (run, cycles) that is `mode`'s
/// configuration alone (the preset's limit, `preset_ctas`) or with only a
/// `core.max_ctas` override; ties go to the larger limit.
fn best_ctas(mode: &str, earlier: &[(String, u64)], preset_ctas: u32) -> Option<u32> {
    let (config, _) = run_spec(mode)?;
    earlier
        .iter()
        .filter_map(|(m, cycles)| {
            let (c, sets) = run_spec(m)?;
            let k = match sets.as_slice() {
                [] => preset_ctas,
                [s] => s.strip_prefix("core.max_ctas=")?.parse().ok()?,
                _ => return None,
            };
            (c == config).then_some((*cycles, std::cmp::Reverse(k)))
        })
        .min()
        .map(|(_, k)| k.0)
}

/// Per application: per timing run, (cycles, thread instructions, wall
/// seconds) if it finished.
type Correlated = (String, Vec<Option<(u64, u64, f64)>>);

/// The run under GPGPU-Sim (`make correlate`; scripts/gpgpusim).
const GPGPUSIM: &str = "gpgpusim";

/// Is the run trace-scheduled (`:trace`, or `:trace=bottom` for the
/// placement)?
fn traced(mode: &str) -> bool {
    mode.split(':').skip(1).any(|p| p == "trace" || p.starts_with("trace="))
}

/// Run one program: `extra` are more `exec` arguments.
fn run(app: &App, size: &Size, exe: &Path, mode: &str, dir: &Path, extra: &[String]) -> Outcome {
    let mut o = Outcome { ok: Ok(()), launches: 0, cycles: 0, replays: 0, warp_insts: 0, divergent_warp_insts: 0, thread_insts: 0, secs: 0.0 };
    o.ok = (|| {
        let _ = std::fs::remove_dir_all(dir);
        crate::output::create_dir(dir)?;
        let src = app.src();
        let bin = exe.parent().expect("in a directory");
        for p in &size.prepare {
            run_cmd(&expand(p, &src, bin, dir), dir, "prepare")?;
        }
        let cwd = size.cwd.as_ref().map_or(dir.to_path_buf(), |c| dir.join(c));
        crate::output::create_dir(&cwd)?;
        let stats = dir.join("stats.jsonl");
        if mode == GPGPUSIM {
            let t = Instant::now();
            let stdout = gpgpusim(app, size, exe, &cwd, &mut o);
            o.secs = t.elapsed().as_secs_f64();
            let stdout = stdout?;
            // A reference check that reads warpforge's copies to the host
            // (`{run}/d2h`) has nothing to read here: the output checks only.
            let d2h = size.reference.as_ref().is_some_and(|r| r.iter().any(|w| w.contains("/d2h/")));
            let size = Size { reference: if d2h { None } else { size.reference.clone() }, ..size.clone() };
            return check(app, &size, &stdout, &src, bin, dir, &cwd);
        }
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(me);
        cmd.arg("exec").arg(format!("--stats={}", stats.display())).arg(format!("--d2h={}", dir.join("d2h").display()));
        match run_spec(mode) {
            None => {
                cmd.arg("--functional");
            }
            Some((config, sets)) => {
                cmd.args(["--config", &config]);
                for s in sets {
                    cmd.args(["--set", &s]);
                }
            }
        }
        for s in &app.set {
            cmd.args(["--set", s]);
        }
        cmd.args(extra);
        if app.fixed_time {
            cmd.env("LD_PRELOAD", fixed_time(exe));
        }
        cmd.arg("--").arg(exe).args(expand(&size.args, &src, bin, dir)).current_dir(&cwd);
        let t = Instant::now();
        let out = cmd.output().map_err(|e| format!("cannot run warpforge exec: {e}"));
        o.secs = t.elapsed().as_secs_f64();
        let out = out?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        crate::output::write(&dir.join("stdout.txt"), &stdout)?;
        crate::output::write(&dir.join("stderr.txt"), &stderr)?;
        // exec closes the statistics with the program's totals.
        if let Some(line) = std::fs::read_to_string(&stats).unwrap_or_default().lines().last() {
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("{}: {e}", stats.display()))?;
            let total = |k: &str| v[k].as_u64().unwrap_or(0);
            (o.launches, o.cycles, o.replays) = (total("launches"), total("cycles"), total("replays"));
            (o.warp_insts, o.divergent_warp_insts) = (total("warp_insts"), total("divergent_warp_insts"));
            o.thread_insts = total("thread_insts");
        }
        if !out.status.success() {
            let why = stderr.lines().rfind(|l| l.starts_with("warpforge:") || l.starts_with("error:")).unwrap_or("no message");
            return Err(format!("exit {}: {why}", out.status));
        }
        if o.launches == 0 {
            return Err("no launch reached warpforge".into());
        }
        check(app, size, &stdout, &src, bin, dir, &cwd)
    })();
    o
}

/// The application's own verdict on its output, and its reference check.
fn check(app: &App, size: &Size, stdout: &str, src: &Path, bin: &Path, dir: &Path, cwd: &Path) -> Res<()> {
    let c = &app.check;
    if let Some(l) = c.stdout_has.iter().find(|l| !stdout.contains(l.as_str())) {
        return Err(format!("its output lacks `{l}`"));
    }
    if let Some(l) = c.stdout_lacks.iter().find(|l| stdout.contains(l.as_str())) {
        return Err(format!("its output has `{l}` (its own verification failed)"));
    }
    if let Some(r) = &size.reference {
        run_cmd(&expand(r, src, bin, dir), cwd, "reference check")?;
    }
    Ok(())
}

/// Run the program under GPGPU-Sim (scripts/gpgpusim/run.sh, GTX 480) in
/// `cwd`: its totals from GPGPU-Sim's log, which also holds the program's
/// output (returned).
fn gpgpusim(app: &App, size: &Size, exe: &Path, cwd: &Path, o: &mut Outcome) -> Res<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gpgpusim/run.sh");
    let bin = exe.parent().expect("in a directory");
    let mut cmd = Command::new("bash");
    cmd.arg(&script).arg(exe).args(expand(&size.args, &app.src(), bin, cwd)).current_dir(cwd).env("GPGPUSIM_RUN_DIR", cwd);
    if app.fixed_time {
        cmd.env("LD_PRELOAD", fixed_time(exe));
    }
    let out = cmd.output().map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    let log = std::fs::read_to_string(cwd.join("sim.log")).unwrap_or_default();
    // The program's output, with GPGPU-Sim's, where the checks read it.
    crate::output::write(&cwd.join("stdout.txt"), &log)?;
    let value = |line: &str, key: &str| line.strip_prefix(key).and_then(|v| v.trim().strip_prefix('=')).and_then(|v| v.trim().parse::<u64>().ok());
    for line in log.lines() {
        if let Some(c) = value(line, "gpu_tot_sim_cycle") {
            o.cycles = c;
        }
        if let Some(n) = value(line, "gpu_tot_sim_insn") {
            o.thread_insts = n;
            o.launches += 1;
        }
    }
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("exit {} under GPGPU-Sim: {}", out.status, err.lines().last().unwrap_or("no message")));
    }
    if o.launches == 0 {
        return Err("no kernel finished under GPGPU-Sim".into());
    }
    Ok(log)
}

/// Cycles side by side with GPGPU-Sim's (`gpgpusim`, the first column):
/// each run's ratio per application and how many times GPGPU-Sim's
/// simulation rate (cycles per wall-second) it ran at, then the mean
/// absolute difference and the correlation coefficient of IPC (thread
/// instructions per cycle, each simulator's own count) over the
/// applications both finished.
fn correlation(timing: &[&str], runs: &[Correlated]) -> String {
    let mut s = String::from("application");
    for m in timing {
        let _ = write!(s, ",cycles {m}");
    }
    for m in &timing[1..] {
        let _ = write!(s, ",ratio {m}");
    }
    for m in &timing[1..] {
        let _ = write!(s, ",rate {m} (x GPGPU-Sim)");
    }
    s.push('\n');
    let mut ipc: Vec<Vec<(f64, f64)>> = vec![Vec::new(); timing.len()];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); timing.len()];
    for (app, r) in runs {
        let _ = write!(s, "{app}");
        for x in r {
            let _ = write!(s, ",{}", x.map_or("-".to_string(), |x| x.0.to_string()));
        }
        for (j, x) in r.iter().enumerate().skip(1) {
            match (r[0], x) {
                (Some(g), Some(w)) if g.0 > 0 && w.0 > 0 => {
                    let _ = write!(s, ",{:.3}", w.0 as f64 / g.0 as f64);
                    ipc[j].push((g.1 as f64 / g.0 as f64, w.1 as f64 / w.0 as f64));
                    ratios[j].push(w.0 as f64 / g.0 as f64);
                }
                _ => s.push_str(",-"),
            }
        }
        for x in &r[1..] {
            match (r[0], x) {
                (Some(g), Some(w)) if g.2 > 0.0 && w.2 > 0.0 => {
                    let _ = write!(s, ",{:.1}", (w.0 as f64 / w.2) / (g.0 as f64 / g.2));
                }
                _ => s.push_str(",-"),
            }
        }
        s.push('\n');
    }
    let mut mean = String::from("mean |ratio - 1|");
    let mut corr = String::from("IPC correlation");
    for _ in timing {
        mean.push(',');
        corr.push(',');
    }
    for (pairs, ratios) in ipc[1..].iter().zip(&ratios[1..]) {
        let n = pairs.len() as f64;
        if pairs.is_empty() {
            mean.push_str(",-");
            corr.push_str(",-");
            continue;
        }
        // Of the ratio of cycles (the simulators count instructions a little
        // differently, so the ratio of IPCs is not quite its inverse).
        let err = ratios.iter().map(|r| (r - 1.0).abs()).sum::<f64>() / n;
        let (mg, mw) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
        let cov: f64 = pairs.iter().map(|(g, w)| (g - mg) * (w - mw)).sum();
        let (vg, vw): (f64, f64) = (pairs.iter().map(|(g, _)| (g - mg).powi(2)).sum(), pairs.iter().map(|(_, w)| (w - mw).powi(2)).sum());
        let r = if vg > 0.0 && vw > 0.0 { cov / (vg * vw).sqrt() } else { f64::NAN };
        let _ = write!(mean, ",{err:.3}");
        let _ = write!(corr, ",{r:.3}");
    }
    let _ = writeln!(s, "{mean}\n{corr}");
    s
}

/// The arguments of an application's input size (`None`, said why, when
/// it has no such size).
fn sized<'a>(app: &'a App, size: &str) -> Option<&'a Size> {
    match (size, &app.small, &app.medium) {
        ("small", Some(s), _) | ("medium", _, Some(s)) => Some(s),
        ("small", None, _) => {
            println!("{:<34} no small size (its one input takes minutes on the SM): run with --size paper", "");
            None
        }
        ("medium", _, None) => {
            println!("{:<34} no medium size (its small or paper input fills the GPU already)", "");
            None
        }
        _ => Some(&app.paper),
    }
}

/// Cycles per kernel (by name, in first-launch order) of a run's statistics.
fn per_kernel(stats: &Path) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for line in std::fs::read_to_string(stats).unwrap_or_default().lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let (Some(k), Some(c)) = (v["kernel"].as_str(), v["cycles"].as_u64()) else { continue };
        match out.iter_mut().find(|r| r.0 == k) {
            Some(r) => r.1 += c,
            None => out.push((k.to_string(), c)),
        }
    }
    out
}

/// Which of seed 003's mechanisms a run is: DAC, or a Figure 16 comparator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mech {
    Dac,
    Cae,
    Mta,
}

/// A run's totals over its launches (seed 003 Figures 16 to 20).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct DacTotals {
    cycles: u64,
    warp_insts: u64,
    /// DAC: the affine warps' instructions; CAE: the affine units'.
    affine_insts: u64,
    loads: u64,
    decoupled_loads: u64,
    /// MTA: demand line requests the prefetch buffer served, and L1 misses.
    useful: u64,
    misses: u64,
    launches: u64,
    decoupled: u64,
}

/// A DAC, CAE or MTA run: application, run, the first timing run's
/// (cycles, warp instructions), the run's mechanism and totals.
type DacRow = (String, String, Option<(u64, u64)>, Mech, DacTotals);

/// A run's totals over its launches' SM statistics, and its mechanism (a
/// baseline run: none).
fn run_totals(stats: &Path) -> (DacTotals, Option<Mech>) {
    let mut t = DacTotals::default();
    let mut mech = None;
    for line in std::fs::read_to_string(stats).unwrap_or_default().lines() {
        let Ok(l) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let v = &l["sm"];
        if !v.is_object() {
            continue;
        }
        let m = match v["mode"].as_str() {
            Some("dac") => Some(Mech::Dac),
            Some("cae") => Some(Mech::Cae),
            Some("mta") => Some(Mech::Mta),
            _ => None,
        };
        mech = mech.or(m);
        let d = &v["dac"];
        let n = |x: &serde_json::Value| x.as_u64().unwrap_or(0);
        t.cycles += n(&v["cycles"]);
        t.warp_insts += n(&v["warp_insts"]);
        t.affine_insts += if m == Some(Mech::Cae) { n(&v["cae"]["affine_insts"]) } else { n(&d["affine_insts"]) };
        t.loads += n(&d["loads"]);
        t.decoupled_loads += n(&d["decoupled_loads"]);
        t.useful += n(&v["mta"]["useful"]);
        t.misses += n(&v["l1"]["misses"]);
        t.launches += 1;
        t.decoupled += (m == Some(Mech::Dac) && d["unchanged"].as_str().is_some_and(str::is_empty)) as u64;
    }
    (t, mech)
}

/// Per application and DAC / CAE / MTA run: speedup over the first timing
/// run (Figure 16); warp instructions against its (DAC: affine and
/// non-affine, Figure 17); the affine share (DAC: the affine warps'
/// instructions; CAE: the affine units', Figure 18); the coverage (DAC: the
/// global/local loads that dequeued prefetched data, Figure 19; MTA: demand
/// line misses the prefetch buffer covered, Figure 20). Then a mean row per
/// run.
fn dac_table(rows: &[DacRow]) -> String {
    let mut s = String::from("application,run,speedup,warp_insts_vs_baseline,affine_share,coverage,launches_decoupled\n");
    let mut runs: Vec<&str> = Vec::new();
    for r in rows {
        if !runs.contains(&r.1.as_str()) {
            runs.push(&r.1);
        }
    }
    let mut means = String::new();
    for run in runs {
        let (mut logs, mut insts, mut share, mut cover, mut n, mut ns, mut nc) = (0.0f64, 0.0, 0.0, 0.0, 0, 0, 0);
        for (app, _, base, mech, t) in rows.iter().filter(|r| r.1 == run) {
            let all = t.warp_insts + if *mech == Mech::Dac { t.affine_insts } else { 0 };
            let (speedup, ratio) = match base {
                Some((c, w)) if t.cycles > 0 && all > 0 => {
                    n += 1;
                    logs += (*c as f64 / t.cycles as f64).ln();
                    insts += all as f64 / *w as f64;
                    (format!("{:.3}", *c as f64 / t.cycles as f64), format!("{:.3}", all as f64 / *w as f64))
                }
                _ => ("-".into(), "-".into()),
            };
            let sh = match mech {
                Mech::Mta => None,
                _ => Some(t.affine_insts as f64 / all.max(1) as f64),
            };
            let cv = match mech {
                Mech::Dac if t.loads > 0 => Some(t.decoupled_loads as f64 / t.loads as f64),
                Mech::Mta if t.useful + t.misses > 0 => Some(t.useful as f64 / (t.useful + t.misses) as f64),
                _ => None,
            };
            let cell = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
            share += sh.unwrap_or(0.0);
            ns += sh.is_some() as u32;
            cover += cv.unwrap_or(0.0);
            nc += cv.is_some() as u32;
            let decoupled = if *mech == Mech::Dac { format!("{}/{}", t.decoupled, t.launches) } else { "-".into() };
            let _ = writeln!(s, "{app},{run},{speedup},{ratio},{},{},{decoupled}", cell(sh), cell(cv));
        }
        if n > 0 {
            let mean = |x: f64, k: u32| if k > 0 { format!("{:.3}", x / k as f64) } else { "-".into() };
            let _ = writeln!(means, "mean ({n} applications),{run},{:.3} (geomean),{:.3},{},{},", (logs / n as f64).exp(), insts / n as f64, mean(share, ns), mean(cover, nc));
        }
    }
    s + &means
}

/// A timing run's totals over its launches (seed 000 Figures 12 to 15
/// and 18): cycles, scheduler-cycles per stall category, N-mode L1 line
/// requests and those that hit or merged, bytes between L1 and L2 (a
/// whole-GPU run).
#[derive(Clone, Debug, Default, PartialEq)]
struct PerfTotals {
    cycles: u64,
    breakdown: [u64; 9],
    scheduler_cycles: u64,
    n_accesses: u64,
    n_hit_or_merge: u64,
    l1_l2_bytes: Option<u64>,
}

fn perf_totals(stats: &Path) -> PerfTotals {
    let mut t = PerfTotals::default();
    for line in std::fs::read_to_string(stats).unwrap_or_default().lines() {
        let Ok(l) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let Ok(v) = serde_json::from_value::<sm::Stats>(l["sm"].clone()) else { continue };
        t.cycles += v.cycles;
        for c in sm::Stall::ALL {
            t.breakdown[c as usize] += v.breakdown.get(c);
        }
        t.scheduler_cycles += v.scheduler_cycles;
        t.n_accesses += v.pmode.n_l1_accesses;
        t.n_hit_or_merge += v.pmode.n_l1_hit_or_merge;
        if let Some(g) = &v.gpu {
            *t.l1_l2_bytes.get_or_insert(0) += g.l1_l2_bytes();
        }
    }
    t
}

/// Per application and timing run: cycles and speedup over the
/// application's first timing run (seed 000 Figure 12), each stall
/// category's share of scheduler-cycles (Figure 13), the N-mode L1
/// hit-or-merge rate (Figure 14) and the L1-L2 traffic, in MB and against
/// the first run's (Figure 15). Then a mean row per run (geometric for
/// speedup and traffic).
fn breakdown_table(rows: &[(String, String, PerfTotals)]) -> String {
    let mut s = String::from("application,run,cycles,speedup");
    for c in sm::Stall::ALL {
        let _ = write!(s, ",{}", c.name());
    }
    s.push_str(",n_l1_hit_or_merge,l1_l2_mb,traffic_vs_first\n");
    let mut runs: Vec<&str> = Vec::new();
    for r in rows {
        if !runs.contains(&r.1.as_str()) {
            runs.push(&r.1);
        }
    }
    let pct = |x: u64, of: u64| 100.0 * x as f64 / of.max(1) as f64;
    let mut means = String::new();
    for run in runs {
        let (mut n, mut speed, mut shares, mut hits, mut nt, mut traffic) = (0u32, 0.0f64, [0.0f64; 9], 0.0, 0u32, 0.0f64);
        for (app, _, t) in rows.iter().filter(|r| r.1 == run) {
            let first = &rows.iter().find(|r| &r.0 == app).expect("the application's first run").2;
            let speedup = first.cycles as f64 / t.cycles.max(1) as f64;
            let _ = write!(s, "{app},{run},{},{speedup:.3}", t.cycles);
            for (k, &b) in t.breakdown.iter().enumerate() {
                shares[k] += pct(b, t.scheduler_cycles);
                let _ = write!(s, ",{:.1}", pct(b, t.scheduler_cycles));
            }
            let hm = pct(t.n_hit_or_merge, t.n_accesses);
            let _ = write!(s, ",{hm:.1}");
            match (t.l1_l2_bytes, first.l1_l2_bytes) {
                (Some(b), Some(f)) if f > 0 => {
                    let _ = writeln!(s, ",{:.2},{:.3}", b as f64 / 1e6, b as f64 / f as f64);
                    traffic += (b as f64 / f as f64).ln();
                    nt += 1;
                }
                _ => s.push_str(",-,-\n"),
            }
            n += 1;
            speed += speedup.ln();
            hits += hm;
        }
        let _ = write!(means, "mean ({n} applications),{run},-,{:.3}", (speed / n as f64).exp());
        for x in shares {
            let _ = write!(means, ",{:.1}", x / n as f64);
        }
        let traffic = if nt > 0 { format!("{:.3}", (traffic / nt as f64).exp()) } else { "-".into() };
        let _ = writeln!(means, ",{:.1},-,{traffic}", hits / n as f64);
    }
    s + &means
}

/// The trace-scheduling report of a run, one CSV row per kernel.
fn trace_rows(table: &mut String, app: &str, report: &Path) {
    for line in std::fs::read_to_string(report).unwrap_or_default().lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let n = |k: &str| v[k].as_u64().unwrap_or(0);
        let why = v["unchanged"].as_str().or(v["unmoved"].as_str()).unwrap_or("").replace(',', ";");
        let _ = writeln!(
            table,
            "{app},{},{},{},{},{},{},{},{},{},{},{why}",
            v["kernel"].as_str().unwrap_or("?"),
            n("blocks"),
            n("traces"),
            n("moved"),
            n("moved_loads"),
            n("predicated"),
            n("regs_before"),
            n("regs_after"),
            v["ptxas_regs_before"].as_u64().map_or("-".into(), |r| r.to_string()),
            v["ptxas_regs_after"].as_u64().map_or("-".into(), |r| r.to_string())
        );
    }
}

/// Speedup of every timing run over the first (its cycles over theirs),
/// per application and as a geometric mean over the applications every run
/// finished; comma-separated columns.
fn speedups(timing: &[&str], cycles: &[(String, Vec<Option<u64>>)], rows: &str) -> String {
    let mut s = format!("{},{}\n", if rows == "kernels" { "application:kernel" } else { "application" }, timing.iter().map(|m| format!("speedup {m}")).collect::<Vec<_>>().join(","));
    let mut logs = vec![0.0f64; timing.len()];
    let mut n = 0;
    for (app, c) in cycles {
        let base = c[0].filter(|&b| b > 0);
        let cells: Vec<String> = c
            .iter()
            .map(|x| match (base, x) {
                (Some(b), Some(x)) if *x > 0 => format!("{:.3}", b as f64 / *x as f64),
                _ => "-".to_string(),
            })
            .collect();
        if let (Some(b), true) = (base, c.iter().all(|x| x.is_some_and(|x| x > 0))) {
            n += 1;
            for (l, x) in logs.iter_mut().zip(c) {
                *l += (b as f64 / x.expect("finished") as f64).ln();
            }
        }
        let _ = writeln!(s, "{app},{}", cells.join(","));
    }
    if n > 0 {
        let _ = writeln!(s, "geomean ({n} {rows}),{}", logs.iter().map(|l| format!("{:.3}", (l / n as f64).exp())).collect::<Vec<_>>().join(","));
    }
    s
}

/// Comma-separated lines as columns padded to their widest cell.
fn aligned(csv: &str) -> String {
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols).map(|j| rows.iter().filter_map(|r| r.get(j)).map(|c| c.len()).max().unwrap_or(0)).collect();
    let mut s = String::new();
    for r in &rows {
        let cells: Vec<String> = r.iter().enumerate().map(|(j, c)| format!("{c:<w$}", w = width[j])).collect();
        let _ = writeln!(s, "{}", cells.join("  ").trim_end());
    }
    s
}

pub fn workloads(a: &WorkloadsArgs) -> Res<()> {
    let m = load()?;
    let want: Vec<&str> = a.apps.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let apps: Vec<&App> = m.app.iter().filter(|p| want == ["all"] || want.iter().any(|w| *w == p.name || p.name.ends_with(&format!("/{w}")))).collect();
    if apps.is_empty() {
        let names: Vec<&str> = m.app.iter().map(|p| p.name.as_str()).collect();
        return Err(format!("--apps {}: no such application (workloads/*/apps.toml list: {})", a.apps, names.join(", ")));
    }
    for (flag, v) in [("--size", &a.size), ("--train-size", &a.train_size)] {
        if !["small", "medium", "paper"].contains(&v.as_str()) {
            return Err(format!("{flag} {v}: small, medium or paper"));
        }
    }
    let modes: Vec<&str> = a.modes.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    for m in &modes {
        if let Some((config, sets)) = run_spec(&m.replace(BEST_CTAS, "core.max_ctas=1")) {
            crate::sm_cmd::config(&config, &sets).map_err(|e| format!("--modes {m}: {e}"))?;
        }
    }
    let nvcc = kernel::compile::find_nvcc().ok_or("nvcc not found: run `make setup` (or set WARPFORGE_NVCC / CUDA_HOME)")?;
    let out = std::path::absolute(&a.out).map_err(|e| e.to_string())?;
    let link = kernel::compile::cudart_link_dir(&nvcc, &out.join("link"))?;
    let mut table = String::from("application,run,result,launches,cycles,replays,warp_insts,divergent_warp_insts,wall_seconds\n");
    let mut trace_table =
        String::from("application,kernel,blocks,traces,moved,moved_loads,predicated,regs_before,regs_after,ptxas_regs_before,ptxas_regs_after,unchanged\n");
    // Cycles per application and timing run, for the speedup table.
    let timing: Vec<&str> = modes.iter().copied().filter(|m| run_spec(m).is_some() || *m == GPGPUSIM).collect();
    // (cycles, thread instructions, wall seconds) per application and timing run, with GPGPU-Sim.
    let mut correlated: Vec<Correlated> = Vec::new();
    let mut cycles: Vec<(String, Vec<Option<u64>>)> = Vec::new();
    // The same per kernel (`application:kernel`), summed over its launches.
    let mut kernel_cycles: Vec<(String, Vec<Option<u64>>)> = Vec::new();
    // DAC runs: (application, run, the first timing run's cycles and warp
    // instructions, the DAC totals).
    let mut dac_rows: Vec<DacRow> = Vec::new();
    let mut perf_rows: Vec<(String, String, PerfTotals)> = Vec::new();
    let mut failures = 0;
    for app in apps {
        let t = Instant::now();
        let exe = match build(app, &nvcc, &link, &out) {
            Ok(e) => e,
            Err(e) => {
                println!("{:<34} build FAILED: {e}", app.name);
                let _ = writeln!(table, "{},build,failed,0,0,0", app.name);
                failures += 1;
                continue;
            }
        };
        println!("{:<34} built in {:.1} s", app.name, t.elapsed().as_secs_f64());
        if a.build_only {
            continue;
        }
        let Some(size) = sized(app, &a.size) else { continue };
        // The training run of the trace-scheduled runs.
        let profile = out.join(&app.name).join(format!("train-{}", a.train_size)).join("profile.json");
        if modes.iter().any(|m| traced(m)) {
            let Some(train) = sized(app, &a.train_size) else { continue };
            let dir = profile.parent().expect("in a directory");
            let o = run(app, train, &exe, "functional", dir, &[format!("--profile-branches={}", profile.display())]);
            println!("{:<34} {:<14} {}; {} launches, {:.2} s", "", "training", o.ok.as_ref().map_or_else(|e| format!("FAILED: {e}"), |_| "done".into()), o.launches, o.secs);
        }
        cycles.push((app.name.clone(), vec![None; timing.len()]));
        correlated.push((app.name.clone(), vec![None; timing.len()]));
        let mut reported = false;
        // The first timing run's SM cycles and warp instructions.
        let mut base: Option<(u64, u64)> = None;
        // This application's finished timing runs so far, with their cycles.
        let mut earlier: Vec<(String, u64)> = Vec::new();
        for mode in &modes {
            // The run as `exec` gets it (`core.max_ctas=best` resolved).
            let spec = if mode.contains(BEST_CTAS) {
                let (config, _) = run_spec(mode).expect("a timing run");
                let preset = crate::sm_cmd::config(&config, &[])?.core.max_ctas;
                match best_ctas(mode, &earlier, preset) {
                    Some(k) => {
                        println!("{:<34} {mode}: the fastest earlier run of {config} has a CTA limit of {k}", "");
                        mode.replace(BEST_CTAS, &format!("core.max_ctas={k}"))
                    }
                    None => {
                        println!("{:<34} {mode} FAILED: no earlier run of {config} (alone or with core.max_ctas only) to take the CTA limit from", "");
                        failures += 1;
                        continue;
                    }
                }
            } else {
                mode.to_string()
            };
            let dir = out.join(&app.name).join(format!("{}-{}", a.size, mode.replace(['/', '.', ':', '=', '"'], "_")));
            let report = dir.join("trace.jsonl");
            let extra = if traced(mode) {
                let mut v = vec![format!("--trace-schedule={}", profile.display()), format!("--trace-report={}", report.display())];
                v.extend(mode.split(':').filter_map(|p| p.strip_prefix("trace=")).map(|p| format!("--trace-placement={p}")));
                v
            } else {
                Vec::new()
            };
            let o = run(app, size, &exe, &spec, &dir, &extra);
            // The report of the first run that moves statements (not the ablation).
            if traced(mode) && !mode.contains("trace=blocks") && !std::mem::replace(&mut reported, true) {
                trace_rows(&mut trace_table, &app.name, &report);
            }
            let result = match &o.ok {
                Ok(()) if app.check.unchecked.is_some() => "ran (output unchecked)".to_string(),
                Ok(()) => "correct".to_string(),
                Err(e) => {
                    failures += 1;
                    format!("FAILED: {e} (see {})", dir.display())
                }
            };
            println!("{:<34} {:<14} {result}; {} launches, {} cycles, {:.2} s", "", mode, o.launches, o.cycles, o.secs);
            let _ = writeln!(
                table,
                "{},{mode},{},{},{},{},{},{},{:.3}",
                app.name,
                if o.ok.is_ok() { "ok" } else { "failed" },
                o.launches,
                o.cycles,
                o.replays,
                o.warp_insts,
                o.divergent_warp_insts,
                o.secs
            );
            if o.ok.is_ok() && run_spec(mode).is_some() {
                earlier.push((spec, o.cycles));
                perf_rows.push((app.name.clone(), mode.to_string(), perf_totals(&dir.join("stats.jsonl"))));
                let (t, mech) = run_totals(&dir.join("stats.jsonl"));
                if let Some(m) = mech {
                    dac_rows.push((app.name.clone(), mode.to_string(), base, m, t));
                } else if timing.first() == Some(mode) {
                    base = Some((t.cycles, t.warp_insts));
                }
            }
            if let (Ok(()), Some(j)) = (&o.ok, timing.iter().position(|m| m == mode)) {
                cycles.last_mut().expect("this application's row").1[j] = Some(o.cycles);
                correlated.last_mut().expect("this application's row").1[j] = Some((o.cycles, o.thread_insts, o.secs));
                for (k, c) in per_kernel(&dir.join("stats.jsonl")) {
                    let name = format!("{}:{k}", app.name);
                    let i = kernel_cycles.iter().position(|r| r.0 == name).unwrap_or_else(|| {
                        kernel_cycles.push((name, vec![None; timing.len()]));
                        kernel_cycles.len() - 1
                    });
                    kernel_cycles[i].1[j] = Some(c);
                }
            }
        }
    }
    let csv = out.join(format!("summary-{}.csv", a.size));
    crate::output::write(&csv, &table)?;
    println!("{}", csv.display());
    if modes.iter().any(|m| traced(m)) {
        let path = out.join(format!("trace-{}.csv", a.size));
        crate::output::write(&path, &trace_table)?;
        print!("{}", aligned(&trace_table));
        println!("{}", path.display());
    }
    if timing.len() > 1 {
        let t = speedups(&timing, &cycles, "applications");
        print!("{}", aligned(&t));
        let path = out.join(format!("speedup-{}.csv", a.size));
        crate::output::write(&path, &t)?;
        println!("{}", path.display());
        let path = out.join(format!("speedup-kernels-{}.csv", a.size));
        crate::output::write(&path, &speedups(&timing, &kernel_cycles, "kernels"))?;
        println!("{} (per kernel)", path.display());
    }
    if !perf_rows.is_empty() {
        let path = out.join(format!("breakdown-{}.csv", a.size));
        crate::output::write(&path, &breakdown_table(&perf_rows))?;
        println!("{} (speedup, stall breakdown, N-mode L1 hit-or-merge, L1-L2 traffic)", path.display());
    }
    if !dac_rows.is_empty() {
        let t = dac_table(&dac_rows);
        print!("{}", aligned(&t));
        let path = out.join(format!("dac-{}.csv", a.size));
        crate::output::write(&path, &t)?;
        println!("{}", path.display());
    }
    if timing.first() == Some(&GPGPUSIM) && timing.len() > 1 {
        let t = correlation(&timing, &correlated);
        print!("{}", aligned(&t));
        let path = out.join(format!("correlation-{}.csv", a.size));
        crate::output::write(&path, &t)?;
        println!("{}", path.display());
    }
    if failures > 0 {
        return Err(format!("{failures} build(s) or run(s) failed"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_specs() {
        assert_eq!(run_spec("functional"), None);
        assert_eq!(run_spec("ubc12_replay"), Some(("ubc12_replay".into(), vec![])));
        assert_eq!(run_spec("pmode"), Some(("hpca16_pmode".into(), vec!["mode=pmode".into()])));
        assert_eq!(
            run_spec("replay:replay.tracker=credit:replay.predictor=counter"),
            Some(("ubc12_replay".into(), vec!["mode=replay".into(), "replay.tracker=credit".into(), "replay.predictor=counter".into()]))
        );
        assert_eq!(run_spec("configs/x.toml:l1.mshrs=16"), Some(("configs/x.toml".into(), vec!["l1.mshrs=16".into()])));
    }

    #[test]
    fn correlation_table() {
        let runs = vec![
            ("a".to_string(), vec![Some((100, 1000, 1.0)), Some((50, 1000, 1.0))]),
            ("b".to_string(), vec![Some((200, 1000, 1.0)), Some((200, 1100, 1.0))]),
            ("c".to_string(), vec![Some((100, 1000, 1.0)), Some((100, 1000, 2.0))]),
            ("d".to_string(), vec![None, Some((100, 1000, 1.0))]),
        ];
        let t = correlation(&["gpgpusim", "x"], &runs);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "application,cycles gpgpusim,cycles x,ratio x,rate x (x GPGPU-Sim)");
        assert_eq!(lines[1], "a,100,50,0.500,0.5");
        assert_eq!(lines[3], "c,100,100,1.000,0.5");
        assert_eq!(lines[4], "d,-,100,-,-");
        // Cycle ratios 0.5, 1, 1: mean |0.5 - 1| / 3 (b's instruction counts
        // differ, its cycles do not). IPC pairs (10, 20), (5, 5.5), (10, 10):
        // r = 31.67 / sqrt(16.67 * 110.17) = 0.739.
        assert_eq!(lines[5], "mean |ratio - 1|,,,0.167");
        assert_eq!(lines[6], "IPC correlation,,,0.739");
    }

    #[test]
    fn speedup_table() {
        let cycles = vec![
            ("a".to_string(), vec![Some(100), Some(50), Some(200)]),
            ("b".to_string(), vec![Some(90), None, Some(90)]),
            ("c".to_string(), vec![Some(400), Some(100), Some(100)]),
        ];
        let t = speedups(&["base", "x", "y"], &cycles, "applications");
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "application,speedup base,speedup x,speedup y");
        assert_eq!(lines[1], "a,1.000,2.000,0.500");
        assert_eq!(lines[2], "b,1.000,-,1.000");
        // b did not finish every run: the mean is over a and c (x: 2 and 4; y: 0.5 and 4).
        assert_eq!(lines[4], "geomean (2 applications),1.000,2.828,1.414");
        assert!(aligned(&t).lines().next().unwrap().starts_with("application               speedup base"));
    }

    #[test]
    fn run_totals_read_the_sm_statistics() {
        let dir = std::env::temp_dir().join(format!("wf-dac-totals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("stats.jsonl");
        let launch = |mode: &str, unchanged: &str| {
            format!(
                r#"{{"launch":1,"cycles":9,"warp_insts":99,"sm":{{"mode":"{mode}","cycles":10,"warp_insts":20,"l1":{{"misses":5}},"mta":{{"useful":1}},"cae":{{"affine_insts":7}},"dac":{{"unchanged":"{unchanged}","affine_insts":3,"loads":4,"decoupled_loads":2}}}}}}"#
            )
        };
        let text = [launch("dac", ""), launch("dac", "why"), r#"{"cycles":18,"launches":2}"#.to_string()].join("\n");
        std::fs::write(&p, text).unwrap();
        let (t, mech) = run_totals(&p);
        assert_eq!(mech, Some(Mech::Dac));
        assert_eq!(t, DacTotals { cycles: 20, warp_insts: 40, affine_insts: 6, loads: 8, decoupled_loads: 4, useful: 2, misses: 10, launches: 2, decoupled: 1 });
        std::fs::write(&p, launch("cae", "")).unwrap();
        let (t, mech) = run_totals(&p);
        assert_eq!((mech, t.affine_insts, t.decoupled), (Some(Mech::Cae), 7, 0));
        std::fs::write(&p, launch("baseline", "")).unwrap();
        assert!(run_totals(&p).1.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn best_cta_limit_from_the_earlier_runs() {
        let runs = |v: &[(&str, u64)]| v.iter().map(|(m, c)| (m.to_string(), *c)).collect::<Vec<_>>();
        let earlier = runs(&[
            ("hpca16_pmode", 100),
            ("pmode", 50),
            ("hpca16_pmode:core.max_ctas=2", 90),
            ("hpca16_pmode:core.max_ctas=3", 90),
            ("hpca16_pmode:mode=prefetch", 10),
            ("hpca16_pmode:core.max_ctas=1:gpu.sms=1", 5),
        ]);
        // Only the preset alone (8) and its core.max_ctas runs compete; the tie goes to 3.
        assert_eq!(best_ctas("pmode:core.max_ctas=best", &earlier, 8), Some(3));
        assert_eq!(best_ctas("pmode:core.max_ctas=best", &earlier[..1], 8), Some(8));
        assert_eq!(best_ctas("isca17_dac:core.max_ctas=best", &earlier, 8), None);
    }

    #[test]
    fn breakdown_table_against_the_first_run() {
        let t = |cycles, long_raw, hm, bytes| PerfTotals {
            cycles,
            breakdown: [cycles, long_raw, 0, 0, 0, 0, 0, 0, 0],
            scheduler_cycles: cycles + long_raw,
            n_accesses: 10,
            n_hit_or_merge: hm,
            l1_l2_bytes: bytes,
        };
        let rows = vec![
            ("a".to_string(), "base".to_string(), t(200, 200, 2, Some(1_000_000))),
            ("a".to_string(), "pmode".to_string(), t(100, 100 / 3, 5, Some(1_500_000))),
            ("b".to_string(), "base".to_string(), t(50, 0, 0, None)),
            ("b".to_string(), "pmode".to_string(), t(200, 0, 10, None)),
        ];
        let csv = breakdown_table(&rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("application,run,cycles,speedup,issued,long_raw,"));
        assert_eq!(lines[3], "a,pmode,100,2.000,75.2,24.8,0.0,0.0,0.0,0.0,0.0,0.0,0.0,50.0,1.50,1.500");
        assert_eq!(lines[4], "b,pmode,200,0.250,100.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,100.0,-,-");
        // Geomean speedup of 2 and 1/4, mean hit rate of 50% and 100%, traffic of `a` only.
        assert!(lines[6].starts_with("mean (2 applications),pmode,-,0.707,"), "{}", lines[6]);
        assert!(lines[6].ends_with(",75.0,-,1.500"), "{}", lines[6]);
    }

    #[test]
    fn dac_table_rows() {
        let t = |cycles, warp_insts, affine_insts, loads, decoupled_loads| DacTotals { cycles, warp_insts, affine_insts, loads, decoupled_loads, launches: 2, decoupled: 1, ..DacTotals::default() };
        let mta = DacTotals { cycles: 80, warp_insts: 1000, useful: 1, misses: 3, launches: 2, ..DacTotals::default() };
        let rows = vec![
            ("a".to_string(), "dac".to_string(), Some((200, 1000)), Mech::Dac, t(100, 600, 100, 10, 8)),
            ("b".to_string(), "dac".to_string(), Some((100, 100)), Mech::Dac, t(200, 90, 10, 0, 0)),
            ("a".to_string(), "mta".to_string(), Some((200, 1000)), Mech::Mta, mta),
            ("a".to_string(), "cae".to_string(), Some((200, 1000)), Mech::Cae, t(160, 1000, 250, 10, 0)),
        ];
        let s = dac_table(&rows);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[1], "a,dac,2.000,0.700,0.143,0.800,1/2");
        assert_eq!(lines[2], "b,dac,0.500,1.000,0.100,-,1/2");
        assert_eq!(lines[3], "a,mta,2.500,1.000,-,0.250,-");
        assert_eq!(lines[4], "a,cae,1.250,1.000,0.250,-,-");
        assert_eq!(lines[5], "mean (2 applications),dac,1.000 (geomean),0.850,0.121,0.800,");
        assert_eq!(lines[6], "mean (1 applications),mta,2.500 (geomean),1.000,-,0.250,");
        assert_eq!(lines[7], "mean (1 applications),cae,1.250 (geomean),1.000,0.250,-,");
    }
}
