//! `warpforge exec`: CUDA programs compiled by nvcc with `-cudart shared`
//! and linked against NVIDIA's libcudart.so.13, run unmodified on
//! warpforge's runtime library. `cudart/tests/programs/api.cu` checks every
//! call's result on the host; the failures must each stop the program with
//! one line and a non-zero exit.

use object::{Object, ObjectSection};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cudart/tests/programs")
}

fn work() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exec");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `nvcc -arch=sm_75 -cudart shared` of `sources` into `work()/name`,
/// linked against NVIDIA's runtime library (as a user's build would be).
fn build(name: &str, sources: &[&str], extra: &[&str]) -> PathBuf {
    let nvcc = kernel::compile::find_nvcc().expect("nvcc (make setup installs it)");
    static LINK: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let link = LINK.get_or_init(|| kernel::compile::cudart_link_dir(&nvcc, &work().join("link")).unwrap());
    let out = work().join(name);
    let mut cmd = Command::new(&nvcc);
    cmd.args(["-arch=sm_75", "-o"]).arg(&out).args(extra).arg("-L").arg(link);
    for s in sources {
        cmd.arg(programs().join(s));
    }
    let o = cmd.output().expect("run nvcc");
    assert!(o.status.success(), "nvcc: {}", String::from_utf8_lossy(&o.stderr));
    out
}

fn exec(flags: &[&str], program: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpforge"));
    cmd.arg("exec").args(flags).arg("--").arg(program).args(args);
    cmd.output().expect("run warpforge exec")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn runtime_api_under_every_mode() {
    let app = build("api", &["api.cu", "api_other.cu"], &["-cudart", "shared"]);
    let stats = work().join("api.jsonl");
    let stats_flag = format!("--stats={}", stats.display());
    let runs: [&[&str]; 7] = [
        &["--functional"],
        &[&stats_flag],
        &["--set", "mode=pmode"],
        &["--config", "isca17_dac"],
        &["--config", "ubc12_replay"],
        &["--config", "ubc12_replay", "--set", "mode=replay", "--set", "replay.tracker=credit"],
        &["--engine", "rtl"],
    ];
    for flags in runs {
        let o = exec(flags, &app, &[]);
        let (out, err) = text(&o);
        assert!(o.status.success() && out.contains("PASS"), "{flags:?}:\n{out}\n{err}");
        // The two deliberate errors are reported as they are returned.
        assert!(err.contains("cudaMemcpy returns cudaErrorInvalidValue"), "{err}");
        assert!(err.contains("6 launch(es) of 5 kernel(s)"), "{err}");
    }
    // One statistics line per launch, each with the SM's statistics.
    let mut lines: Vec<serde_json::Value> = std::fs::read_to_string(&stats).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The last line is the program's.
    let program = lines.pop().unwrap();
    assert_eq!((program["launches"].as_u64(), program["exit_status"].as_i64()), (Some(6), Some(0)), "{program}");
    let total: u64 = lines.iter().map(|l| l["cycles"].as_u64().unwrap()).sum();
    assert_eq!(program["cycles"].as_u64(), Some(total));
    let names: Vec<&str> = lines.iter().map(|l| l["kernel"].as_str().unwrap()).collect();
    assert_eq!(names, ["scale", "reverse", "rows", "fetch", "fetch", "sum"]);
    assert_eq!(lines[1]["shared_bytes"], 400);
    for l in &lines {
        assert!(l["cycles"].as_u64().unwrap() > 0 && l["cycles"] == l["sm"]["cycles"], "{l}");
    }
}

#[test]
fn failures_stop_the_program_with_one_line() {
    let app = build("faults", &["faults.cu"], &["-cudart", "shared"]);
    let o = exec(&[], &app, &["none"]);
    assert!(o.status.success(), "{:?}", text(&o));
    for (case, want) in [
        ("out-of-bounds", "launch 1 of kernel `store`"),
        ("mapped", "unsupported: cudaHostAlloc with cudaHostAllocMapped"),
        ("attribute", "unsupported: cudaDeviceGetAttribute of attribute"),
    ] {
        let o = exec(&[], &app, &[case]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{case}: {out}\n{err}");
        assert!(err.contains(want) && !out.contains("finished"), "{case}: {err}");
    }
    // nvcc's default, the static runtime, is refused with how to rebuild.
    let app = build("faults_static", &["faults.cu"], &[]);
    let o = exec(&[], &app, &[]);
    assert!(!o.status.success() && text(&o).1.contains("rebuild it with `nvcc -cudart shared"), "{:?}", text(&o));
}

/// A fatbinary damaged inside the program: its PTX entry's compressed
/// bytes, then its header, give a clean error naming the fault.
#[test]
fn damaged_fatbinary() {
    let app = build("damaged", &["faults.cu"], &["-cudart", "shared"]);
    let bytes = std::fs::read(&app).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let (start, size) = file.section_by_name(".nv_fatbin").unwrap().file_range().unwrap();
    let (start, end) = (start as usize, (start + size) as usize);
    // The zstd frame of the PTX entry (magic 28 b5 2f fd).
    let zstd = bytes[start..end].windows(4).position(|w| w == [0x28, 0xb5, 0x2f, 0xfd]).expect("a zstd-compressed PTX entry") + start;
    for (what, at, want) in [("payload", zstd + 12, "malformed fatbinary"), ("header", zstd - 0x50 + 8, "malformed fatbinary")] {
        let mut b = bytes.clone();
        for x in &mut b[at..at + 4] {
            *x ^= 0x5a;
        }
        let path = work().join(format!("damaged_{what}"));
        std::fs::write(&path, &b).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let o = exec(&[], &path, &[]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{what}: {out}\n{err}");
        assert!(err.contains(want) && err.lines().filter(|l| l.starts_with("warpforge:")).count() == 1, "{what}: {err}");
    }
}

/// The benchmark applications of workloads/ at their small size, built by
/// nvcc and run unmodified on the functional model, under each preset,
/// P-mode and replay, each output checked (`warpforge workloads`; the rest
/// of the applications run in `make workloads-check`).
#[test]
fn workloads_small() {
    let out = work().join("workloads");
    let o = Command::new(env!("CARGO_BIN_EXE_warpforge"))
        .args(["workloads", "--apps", "bfs,gaussian,hotspot,lud,nn,nw,pathfinder,srad_v2,backprop"])
        .args(["--modes", "functional,hpca16_pmode,pmode,isca17_dac,ubc12_replay,replay:replay.tracker=credit,hpca16_pmode:trace", "--out"])
        .arg(&out)
        .output()
        .expect("run warpforge workloads");
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let table = std::fs::read_to_string(out.join("summary-small.csv")).unwrap();
    assert_eq!(table.lines().filter(|l| l.contains(",ok,")).count(), 9 * 7, "{table}");
    let speedups = std::fs::read_to_string(out.join("speedup-small.csv")).unwrap();
    assert!(speedups.lines().last().unwrap().starts_with("geomean (9 applications),1.000,"), "{speedups}");
    // Trace scheduling (trained on the same small inputs): a report row per
    // kernel, with NVIDIA's assembler's registers before and after (it
    // accepted every scheduled module: a rejection stops the program).
    let trace = std::fs::read_to_string(out.join("trace-small.csv")).unwrap();
    let rows: Vec<&str> = trace.lines().skip(1).collect();
    assert!(rows.len() >= 12, "{trace}");
    assert!(rows.iter().all(|r| !r.contains(",-,")), "{trace}");
    assert!(rows.iter().any(|r| r.starts_with("rodinia/pathfinder,dynproc_kernel,")), "{trace}");
}
