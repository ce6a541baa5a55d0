//! `warpforge exec -- ./app args…`: an unmodified CUDA program (built with
//! `nvcc -cudart shared`) run on warpforge through its CUDA runtime library
//! (the `cudart` crate), which the dynamic linker loads in place of
//! NVIDIA's `libcudart.so.13`.

use cudart::device::{ENV_CONFIG, ENV_D2H, ENV_ENGINE, ENV_FUNCTIONAL, ENV_PROFILE, ENV_SET, ENV_STATS, ENV_TRACE_PLACEMENT, ENV_TRACE_REPORT, ENV_TRACE_SCHEDULE};
use object::{Object, ObjectSymbol};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Res<T> = Result<T, String>;

#[derive(clap::Args, Clone)]
pub struct ExecArgs {
    /// SM configuration: a preset (hpca16_pmode, isca17_dac, ubc12_replay)
    /// or a TOML file [env: WARPFORGE_CONFIG; default hpca16_pmode].
    #[arg(long, value_name = "C.toml")]
    pub config: Option<String>,
    /// Override a configuration key, `section.key=value` (repeatable) [env:
    /// WARPFORGE_SET, `;`-separated].
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run every launch on the functional model only [env: WARPFORGE_FUNCTIONAL=1].
    #[arg(long)]
    pub functional: bool,
    /// Engine of the timing SM's hardware blocks: model, rtl, netlist [env: WARPFORGE_ENGINE].
    #[arg(long)]
    pub engine: Option<String>,
    /// Write the statistics of every launch, one JSON line each [env: WARPFORGE_STATS].
    #[arg(long, value_name = "F.jsonl")]
    pub stats: Option<PathBuf>,
    /// Write every copy from the device to the host into DIR, one file
    /// each (00001.bin, ...): the results the program reads back [env: WARPFORGE_D2H].
    #[arg(long, value_name = "DIR")]
    pub d2h: Option<PathBuf>,
    /// Count every branch's outcomes on the functional model into this
    /// profile (trace scheduling's training run) [env: WARPFORGE_PROFILE].
    #[arg(long, value_name = "PROFILE.json")]
    pub profile_branches: Option<PathBuf>,
    /// Trace-schedule every kernel with this profile before it runs
    /// (docs/tsched.md) [env: WARPFORGE_TRACE_SCHEDULE].
    #[arg(long, value_name = "PROFILE.json")]
    pub trace_schedule: Option<PathBuf>,
    /// With --trace-schedule: what the pass did per kernel, one JSON line
    /// each [env: WARPFORGE_TRACE_REPORT].
    #[arg(long, value_name = "F.jsonl", requires = "trace_schedule")]
    pub trace_report: Option<PathBuf>,
    /// With --trace-schedule: where moved statements go, list, earliest or
    /// bottom; or `blocks`, the ablation that moves nothing and
    /// list-schedules every block (docs/tsched.md) [env: WARPFORGE_TRACE_PLACEMENT].
    #[arg(long, requires = "trace_schedule", value_parser = ["list", "earliest", "bottom", "blocks"])]
    pub trace_placement: Option<String>,
    /// The program and its arguments.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub program: Vec<String>,
}

/// The runtime library: `$WARPFORGE_CUDART`, or `libcudart.so` built beside
/// this executable (`cargo build` builds both; a test build leaves it in
/// `deps/`), the newer if both are there.
fn library() -> Res<PathBuf> {
    if let Some(p) = std::env::var_os("WARPFORGE_CUDART") {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("WARPFORGE_CUDART names {}, which is not a file", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the warpforge executable: {e}"))?;
    let p = exe.with_file_name("libcudart.so");
    let built = [p.clone(), exe.with_file_name("deps").join("libcudart.so")];
    let newest = built.into_iter().filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p))).max();
    match newest {
        Some((_, p)) => Ok(p),
        None => Err(format!("the runtime library {} is not built: run `cargo build --release` in the warpforge checkout (it builds the `cudart` crate beside warpforge)", p.display())),
    }
}

/// Whether `program` is an executable this library can serve: it must
/// import the runtime dynamically.
fn check_program(program: &Path) -> Res<()> {
    let Ok(data) = std::fs::read(program) else { return Ok(()) }; // not readable here: let the exec say why
    let Ok(file) = object::File::parse(&*data) else { return Ok(()) }; // a script, say
    let imports = file.dynamic_symbols().any(|s| s.is_undefined() && s.name() == Ok("__cudaRegisterFatBinary"));
    if imports {
        return Ok(());
    }
    if file.section_by_name(".nv_fatbin").is_some() || file.symbols().any(|s| s.name() == Ok("__cudaRegisterFatBinary")) {
        return Err(format!(
            "{} links the CUDA runtime statically (nvcc's default), so warpforge's runtime library cannot take its calls: rebuild it with `nvcc -cudart shared ...` (and link against a libcudart.so, e.g. `-L DIR` with a libcudart.so symlink to NVIDIA's libcudart.so.13)",
            program.display()
        ));
    }
    eprintln!("warning: {} does not call the CUDA runtime (no fatbinary registration): no launch will reach warpforge", program.display());
    Ok(())
}

pub fn exec(a: &ExecArgs) -> Res<ExitCode> {
    let lib = library()?;
    let program = PathBuf::from(&a.program[0]);
    check_program(&program)?;
    if let Some(c) = &a.config {
        // A bad configuration is reported now, not by the library inside the program.
        crate::sm_cmd::config(c, &a.set)?;
    }
    // The library under the names programs ask for.
    let dir = std::env::temp_dir().join(format!("warpforge-exec-{}", std::process::id()));
    crate::output::create_dir(&dir)?;
    let lib = lib.canonicalize().map_err(|e| format!("{}: {e}", lib.display()))?;
    for name in ["libcudart.so.13", "libcudart.so.12", "libcudart.so"] {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&lib, &link).map_err(|e| format!("cannot create {}: {e}", link.display()))?;
    }
    let stats = match &a.stats {
        Some(p) => {
            crate::output::prepare(p)?;
            std::fs::write(p, "").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            p.clone()
        }
        None => dir.join("stats.jsonl"),
    };
    let mut ld_path = dir.clone().into_os_string();
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty()) {
        ld_path.push(":");
        ld_path.push(old);
    }
    let mut cmd = Command::new(&program);
    cmd.args(&a.program[1..]).env("LD_LIBRARY_PATH", ld_path).env(ENV_STATS, &stats);
    if let Some(c) = &a.config {
        cmd.env(ENV_CONFIG, c);
    }
    if !a.set.is_empty() {
        cmd.env(ENV_SET, a.set.join(";"));
    }
    if a.functional {
        cmd.env(ENV_FUNCTIONAL, "1");
    }
    if let Some(d) = &a.d2h {
        crate::output::create_dir(d)?;
        cmd.env(ENV_D2H, std::path::absolute(d).map_err(|e| format!("{}: {e}", d.display()))?);
    }
    if let Some(p) = &a.profile_branches {
        crate::output::prepare(p)?;
        cmd.env(ENV_PROFILE, std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    if let Some(p) = &a.trace_schedule {
        // A bad profile is reported now, not by the library inside the program.
        kernel::tsched::Profile::load(p)?;
        cmd.env(ENV_TRACE_SCHEDULE, std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    if let Some(p) = &a.trace_placement {
        cmd.env(ENV_TRACE_PLACEMENT, p);
    }
    if let Some(p) = &a.trace_report {
        crate::output::prepare(p)?;
        std::fs::write(p, "").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        cmd.env(ENV_TRACE_REPORT, std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    if let Some(e) = &a.engine {
        sm::blocks::parse_engine(e)?;
        cmd.env(ENV_ENGINE, e);
    }
    let t = std::time::Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot run {}: {e}", program.display()));
    let secs = t.elapsed().as_secs_f64();
    let summary = summarize(&stats, secs);
    if a.stats.is_none() {
        let _ = std::fs::remove_file(&stats);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let status = status?;
    let (summary, mut totals) = summary?;
    eprintln!("{summary}");
    if let Some(p) = &a.stats {
        // The program's line closes the file: its command, exit status and totals.
        totals["program"] = serde_json::json!(a.program);
        totals["exit_status"] = status.code().into();
        use std::io::Write;
        let r = std::fs::OpenOptions::new().append(true).open(p).and_then(|mut f| writeln!(f, "{totals}"));
        r.map_err(|e| format!("cannot append to {}: {e}", p.display()))?;
    }
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => {
            eprintln!("warpforge exec: {} exited with status {c}", program.display());
            ExitCode::from(c.clamp(1, 255) as u8)
        }
        None => {
            eprintln!("warpforge exec: {} was killed by a signal ({status})", program.display());
            ExitCode::FAILURE
        }
    })
}

/// The program's totals: the summary for the terminal and the closing
/// statistics line.
fn summarize(stats: &Path, secs: f64) -> Res<(String, serde_json::Value)> {
    let text = std::fs::read_to_string(stats).unwrap_or_default();
    let (mut launches, mut cycles, mut warp_insts, mut replays, mut timed) = (0u64, 0u64, 0u64, 0u64, false);
    let (mut thread_insts, mut divergent) = (0u64, 0u64);
    let mut kernels: Vec<(String, u64, u64)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("{} line {}: {e}", stats.display(), i + 1))?;
        if v.get("program").is_some() {
            continue;
        }
        let name = v["kernel"].as_str().unwrap_or("?").to_string();
        let c = v["cycles"].as_u64();
        timed |= c.is_some();
        launches += 1;
        cycles += c.unwrap_or(0);
        warp_insts += v["warp_insts"].as_u64().unwrap_or(0);
        thread_insts += v["thread_insts"].as_u64().unwrap_or(0);
        divergent += v["divergent_warp_insts"].as_u64().unwrap_or(0);
        replays += v["replay"]["replays"].as_u64().unwrap_or(0);
        match kernels.iter_mut().find(|k| k.0 == name) {
            Some(k) => {
                k.1 += 1;
                k.2 += c.unwrap_or(0);
            }
            None => kernels.push((name, 1, c.unwrap_or(0))),
        }
    }
    let mut s = format!("warpforge exec: {launches} launch(es) of {} kernel(s), {warp_insts} warp instructions", kernels.len());
    if timed {
        s += &format!(", {cycles} SM cycles ({:.0} SM-cycles/s)", cycles as f64 / secs.max(1e-9));
    }
    s += &format!(", {secs:.2} s");
    for (name, n, c) in &kernels {
        s += &format!("\n  {name}: {n} launch(es)");
        if timed {
            s += &format!(", {c} cycles");
        }
    }
    let mut totals = serde_json::json!({
        "launches": launches,
        "kernels": kernels.len(),
        "warp_insts": warp_insts,
        "thread_insts": thread_insts,
        "divergent_warp_insts": divergent,
        "wall_seconds": secs
    });
    if timed {
        totals["cycles"] = cycles.into();
        totals["replays"] = replays.into();
    }
    Ok((s, totals))
}
