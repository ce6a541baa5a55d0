//! The `warpforge` command line: outputs, determinism, and clear one-line
//! errors with a non-zero exit on bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn wf(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpforge")).args(args).output().expect("run warpforge")
}

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Fails with exactly one `error:` line containing `needle`.
fn fails_with(args: &[&str], needle: &str) {
    let o = wf(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} should fail");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got:\n{err}");
    assert!(err.starts_with("error: ") && err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_is_one_clear_error_line() {
    fails_with(&["blocks", "--block", "nosuch"], "unknown block `nosuch` (blocks: scoreboard");
    fails_with(&["verilog", "--block", "scoreboard", "--param", "regs=0", "-o", "x"], "parameter `regs` of block `scoreboard` = 0 is out of range 2..=255");
    fails_with(&["verilog", "--block", "scoreboard", "--param", "lanes=4"], "block `scoreboard` has no parameter `lanes`");
    fails_with(&["verilog", "--block", "scoreboard", "--param", "regs"], "`regs` is not of the form name=value");
    fails_with(&["verilog", "--block", "scoreboard", "--param", "regs=six"], "`six` is not a non-negative integer");
    fails_with(&["verilog", "--block", "scoreboard", "-o", "/proc/warpforge/out"], "/proc/warpforge/out");
    fails_with(&["sim", "--block", "scoreboard", "--stim", "/nonexistent/stim.txt"], "/nonexistent/stim.txt");
    let d = tmp("badstim");
    let stim = d.join("bad.stim");
    std::fs::write(&stim, "ports rst:1\n1\n").unwrap();
    fails_with(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap()], "bad.stim:1: ports");
    std::fs::write(&stim, "# a comment only\n").unwrap();
    fails_with(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap()], "bad.stim:1: end of file before the `ports` line");
    fails_with(&["sim", "--block", "scoreboard", "--cycles", "10", "--vcd", "/proc/x/y.vcd"], "/proc/x/y.vcd");
    let vcd = d.join("w.vcd");
    let vcd = vcd.to_str().unwrap();
    fails_with(&["sim", "--block", "scoreboard", "--cycles", "10", "--vcd", vcd, "--vcd-from", "5", "--vcd-to", "2"], "--vcd-from 5 is after --vcd-to 2");
    fails_with(&["sim", "--block", "scoreboard", "--cycles", "10", "--vcd", vcd, "--vcd-from", "10"], "past the last cycle of the run (9)");
    fails_with(&["sim", "--block", "pmode_unit", "--param", "warps=2", "--cycles", "10", "--vcd", vcd, "--vcd-scope", "sbx"], "`sbx` matches no signal of `pmode_unit_warps2` (instances: sb, pq, rn, st, mc)");
    let profile = d.join("profile.json");
    std::fs::write(&profile, "{\"kernels\": {\"k\": {\"x\": 1}}}").unwrap();
    fails_with(&["kernel", "kernels/vecadd.cu", "--trace-schedule", "--profile", profile.to_str().unwrap()], "profile.json: not a branch profile");
    fails_with(&["kernel", "kernels/vecadd.cu", "--trace-schedule", "--launch", "kernels/vecadd.toml", "--min-prob", "1.5"], "--min-prob 1.5: a probability in [0, 1)");
}

/// `kernel --trace-schedule` writes PTX that loads and runs to the same
/// memory, and lists what moved; `run --trace-schedule` runs it.
#[test]
fn trace_schedule_prints_ptx_and_runs() {
    let d = tmp("tsched");
    let out = d.join("pathfinder.ptx");
    let o = wf(&["kernel", "kernels/pathfinder.cu", "--trace-schedule", "--launch", "kernels/pathfinder.toml", "-o", out.to_str().unwrap()]);
    let listing = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(listing.contains("statements moved") && listing.contains("predicated @"), "{listing}");
    let dumps: Vec<PathBuf> = ["orig", "ts"].iter().map(|n| d.join(n)).collect();
    let a = wf(&["run", "kernels/pathfinder.cu", "--launch", "kernels/pathfinder.toml", "--functional", "--dump", dumps[0].to_str().unwrap()]);
    let b = wf(&["run", out.to_str().unwrap(), "--launch", "kernels/pathfinder.toml", "--functional", "--dump", dumps[1].to_str().unwrap()]);
    let c = wf(&["run", "kernels/pathfinder.cu", "--launch", "kernels/pathfinder.toml", "--config", "hpca16_pmode", "--trace-schedule", "kernels/pathfinder.toml"]);
    for r in [&a, &b, &c] {
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    assert!(String::from_utf8_lossy(&c.stdout).contains("final memory equals the functional model's"));
    for f in std::fs::read_dir(&dumps[0]).unwrap() {
        let name = f.unwrap().file_name();
        assert_eq!(std::fs::read(dumps[0].join(&name)).unwrap(), std::fs::read(dumps[1].join(&name)).unwrap(), "{name:?}");
    }
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpforge"))
        .arg("blocks")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warpforge");
    drop(child.stdout.take()); // the reader goes away before the first line
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn blocks_reports_storage_from_the_ir_and_the_paper() {
    let o = wf(&["blocks", "--block", "scoreboard"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(out.contains("12096 flip-flop bits, 0 memory bits"), "{out}");
    assert!(out.contains("emitted total 12096 bits = paper + differences"), "{out}");
    let o = wf(&["blocks", "--block", "scoreboard", "--param", "warps=8", "--param", "regs=16"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("512 flip-flop bits"));
}

#[test]
fn verilog_writes_one_file_per_module() {
    let d = tmp("verilog");
    let o = wf(&["verilog", "--block", "scoreboard", "--param", "warps=4", "-o", d.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(d.join("scoreboard_warps4.v")).unwrap();
    assert!(text.contains("module scoreboard_warps4 ("));
    assert!(d.join("scoreboard_warps4.f").exists());
}

#[test]
fn sim_waves_are_deterministic_and_come_with_a_save_file() {
    let d = tmp("sim");
    let run = |name: &str| {
        let vcd = d.join(name);
        let o = wf(&["sim", "--block", "scoreboard", "--cycles", "3000", "--seed", "9", "--vcd", vcd.to_str().unwrap(), "--vcd-from", "100", "--vcd-to", "400", "--vcd-memories"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(vcd).unwrap()
    };
    let (a, b) = (run("a.vcd"), run("b.vcd"));
    assert_eq!(a, b, "same seed, same bytes");
    let text = String::from_utf8(a).unwrap();
    assert!(text.contains("$scope module TOP $end") && text.contains("$scope module scoreboard $end"));
    assert!(text.contains("n_pending[47]"));
    assert!(!text.contains("\n#100\n") && text.contains("\n#1010\n") && text.contains("\n#4015\n") && !text.contains("\n#4020\n"));
    let gtkw = std::fs::read_to_string(d.join("a.gtkw")).unwrap();
    assert!(gtkw.contains("[dumpfile] \"a.vcd\"") && gtkw.contains("TOP.scoreboard.iss0_stall"));
    // Scope filter.
    let vcd = d.join("scoped.vcd");
    let o = wf(&["sim", "--block", "scoreboard", "--cycles", "50", "--vcd", vcd.to_str().unwrap(), "--vcd-scope", "iss1_"]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(vcd).unwrap();
    assert!(text.contains("iss1_pending_row") && !text.contains("iss0_pending_row"));
}

#[test]
fn recorded_stimulus_replays_identically_on_both_engines() {
    let d = tmp("stim");
    let stim = d.join("sb.stim");
    let o = wf(&["stim", "--block", "scoreboard", "--cycles", "2000", "--seed", "4", "-o", stim.to_str().unwrap()]);
    assert!(o.status.success());
    let table = |o: Output| {
        let s = String::from_utf8_lossy(&o.stdout).to_string();
        s.lines().skip_while(|l| !l.starts_with("output")).map(String::from).collect::<Vec<_>>()
    };
    let direct = table(wf(&["sim", "--block", "scoreboard", "--cycles", "2000", "--seed", "4"]));
    let replay = table(wf(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap()]));
    let reference = table(wf(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap(), "--engine", "reference"]));
    assert!(!direct.is_empty());
    assert_eq!(direct, replay);
    assert_eq!(direct, reference);
    for engine in ["netlist", "compiled", "rtl", "model"] {
        let o = wf(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap(), "--engine", engine]);
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(o.status.success() && out.lines().next().unwrap_or("").contains(" engine"), "{engine}: {out}");
        if engine == "compiled" {
            assert!(out.contains("compiled engine") && (out.contains("model compiled in") || out.contains("found in the cache")), "{out}");
        }
        assert_eq!(direct, table(o), "--engine {engine}");
    }
    // --cycles with a file runs its first N cycles, the same as recording N.
    let prefix = table(wf(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap(), "--cycles", "700"]));
    assert_eq!(prefix, table(wf(&["sim", "--block", "scoreboard", "--cycles", "700", "--seed", "4"])));
    assert_ne!(prefix, direct);
    // ... and asking for more than the file holds is an error, not a shorter run.
    fails_with(&["sim", "--block", "scoreboard", "--stim", stim.to_str().unwrap(), "--cycles", "2001"], "--cycles 2001: ");
    fails_with(&["cosim", "--block", "scoreboard", "--stim", stim.to_str().unwrap(), "--cycles", "2001"], "sb.stim holds 2000 cycles");
}

#[test]
fn cosim_reports_a_match() {
    let d = tmp("cosim");
    let o = wf(&["cosim", "--block", "scoreboard", "--param", "warps=4", "--cycles", "3000", "--work", d.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("match: `scoreboard_warps4`") && out.contains("3000 cycles"), "{out}");
}

#[test]
fn synth_runs_only_the_chosen_flow() {
    let d = tmp("synth");
    let o = wf(&["synth", "--block", "credit_tracker", "--flow", "ice40", "--work", d.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.lines().any(|l| l.trim_start().starts_with("synth ")), "generic flow ran:\n{out}");
    let ice = out.lines().find(|l| l.trim_start().starts_with("synth_ice40")).expect("synth_ice40 line");
    let f: Vec<&str> = ice.split_whitespace().collect();
    let ffs = f.iter().position(|w| *w == "flip-flops").map(|i| f[i + 1]);
    // The 7-bit credit pool: 32 MSHRs, signed, the only state at delay 0.
    assert_eq!(ffs, Some("7"), "{out}");
    let bad = wf(&["synth", "--block", "credit_tracker", "--flow", "asic"]);
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("invalid value 'asic'"));
}

#[test]
fn synth_hierarchical_flows_list_every_module() {
    // replay_unit at 2 warps: two instances of one warp_buffer module.
    let field = |line: &str, key: &str| -> u64 {
        let f: Vec<&str> = line.split_whitespace().collect();
        f.iter().position(|w| *w == key).and_then(|i| f[i + 1].parse().ok()).expect(key)
    };
    let mut totals = Vec::new();
    for flow in ["ice40-hier", "ice40-fast"] {
        let d = tmp(flow);
        let o = wf(&["synth", "--block", "replay_unit", "--param", "warps=2", "--flow", flow, "--work", d.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let total = out.lines().find(|l| l.trim_start().starts_with("synth_ice40")).expect("total line");
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("    ") && l.contains("LUT4")).collect();
        for module in ["warp_buffer", "mshr_predictor", "replay_unit_warps2"] {
            assert!(rows.iter().any(|r| r.trim_start().starts_with(module)), "{flow}: no row for {module}:\n{out}");
        }
        let wb = rows.iter().find(|r| r.trim_start().starts_with("warp_buffer")).unwrap();
        assert!(field(wb, "LUT4") > 0 && field(total, "LUT4") > 2 * field(wb, "LUT4"), "{flow}:\n{out}");
        totals.push(field(total, "flip-flops"));
    }
    // Only the LUT mapping differs: the same flip-flops.
    assert_eq!(totals[0], totals[1]);
}

fn kernels(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kernels").join(name).to_str().unwrap().to_string()
}

#[test]
fn kernel_lists_allocated_code() {
    let o = wf(&["kernel", &kernels("reduction.cu")]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("kernel reduction (_Z9reductionPKfPfi):"), "{out}");
    assert!(out.contains("11 registers (at most 11 live at once)") && out.contains("bar.sync 0") && out.contains("; reconverge at 0x"), "{out}");
    let o = wf(&["kernel", &kernels("sgemm.cu"), "--ptx"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains(".entry _Z5sgemmPKfS0_Pfiii("));
    fails_with(&["kernel", &kernels("sgemm.cu"), "--kernel", "nope"], "no kernel `nope` (kernels: sgemm)");
    fails_with(&["kernel", "/nonexistent/k.ptx"], "/nonexistent/k.ptx");
    let d = tmp("kernel_bad");
    let cu = d.join("bad.cu");
    std::fs::write(&cu, "__global__ void k(int *p) {\n  p[0] = undefined_thing;\n}\n").unwrap();
    fails_with(&["kernel", cu.to_str().unwrap()], "bad.cu:2:10: error: use of undeclared identifier 'undefined_thing'");
    // NVIDIA's compiler beside clang: its PTX, its error line.
    let o = wf(&["kernel", &kernels("reduction.cu"), "--compiler", "nvcc", "--ptx"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ptx = String::from_utf8_lossy(&o.stdout);
    assert!(ptx.contains("Cuda compilation tools, release 13.5") && ptx.contains(".target sm_75"), "{ptx}");
    let o = wf(&["kernel", &kernels("reduction.cu"), "--compiler", "nvcc"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("reduction.cu: PTX 9.5 for sm_75"), "{}", String::from_utf8_lossy(&o.stdout));
    fails_with(&["kernel", cu.to_str().unwrap(), "--compiler", "nvcc"], "bad.cu(2): error: identifier \"undefined_thing\" is undefined");
    let ptx = d.join("bad.ptx");
    std::fs::write(&ptx, ".version 7.0\n.target sm_52\n.address_size 64\n.entry k()\n{\n  pmevent 1;\n}\n").unwrap();
    fails_with(&["kernel", ptx.to_str().unwrap()], "bad.ptx:6:3: `pmevent`: unsupported opcode");
}

#[test]
fn run_functional_dumps_buffers() {
    let d = tmp("run");
    let out = d.join("out");
    let o = wf(&["run", &kernels("vecadd.cu"), "--kernel", "vecadd", "--launch", &kernels("vecadd.toml"), "--functional", "--dump", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("vecadd: 20 CTAs x 256 threads, "), "{text}");
    let (a, b, c) = (std::fs::read(out.join("a.bin")).unwrap(), std::fs::read(out.join("b.bin")).unwrap(), std::fs::read(out.join("c.bin")).unwrap());
    assert_eq!(c.len(), 5000 * 4);
    let f = |v: &[u8], i: usize| f32::from_le_bytes(v[4 * i..4 * i + 4].try_into().unwrap());
    assert!((0..5000).all(|i| f(&c, i) == f(&a, i) + f(&b, i)));
    // Same launch, same bytes.
    let out2 = d.join("out2");
    wf(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--functional", "--dump", out2.to_str().unwrap()]);
    assert_eq!(std::fs::read(out2.join("c.bin")).unwrap(), c);
    let bad = d.join("bad.toml");
    std::fs::write(&bad, "grid = [1]\nblock = [32]\nargs = [\"a\", \"a\", \"a\", 1]\nwarps = 3\n").unwrap();
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", bad.to_str().unwrap(), "--functional"], "bad.toml: warps (line 4): unknown field `warps`");
    std::fs::write(&bad, "grid = [1]\nblock = [32]\nargs = [\"a\", \"a\", \"a\"]\n[buffers.a]\ntype = \"f32\"\nlen = 32\n").unwrap();
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", bad.to_str().unwrap(), "--functional"], "bad.toml: args: 3 arguments for kernel `vecadd`, which takes 4");
    std::fs::write(&bad, "grid = [2]\nblock = [32]\nargs = [\"a\", \"a\", \"a\", 64]\n[buffers.a]\ntype = \"f32\"\nlen = 32\n").unwrap();
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", bad.to_str().unwrap(), "--functional"], "kernel `vecadd`: pc 0x");
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml")], "give --functional or --config");
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", "/nonexistent/l.toml", "--functional"], "/nonexistent/l.toml: cannot read");
}

#[test]
fn run_timing_writes_stats_csv_waves_and_pipeview_and_plots() {
    let d = tmp("timing");
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    let o = wf(&[
        "run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", "hpca16_pmode",
        "--stats", &p("a.json"), "--csv", &p("runs.csv"), "--vcd", &p("a.vcd"), "--vcd-from", "100", "--vcd-to", "200",
        "--pipeview", &p("a.log"), "--dump", &p("dump"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("scheduler-cycle breakdown") && text.contains("final memory equals the functional model's"), "{text}");
    for f in ["a.json", "a.vcd", "a.gtkw", "a.log", "runs.csv", "dump/partial.bin"] {
        assert!(d.join(f).exists(), "{f} missing");
    }
    let o = wf(&["run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", "hpca16_pmode", "--set", "core.policy=lrr", "--stats", &p("b.json"), "--csv", &p("runs.csv")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(d.join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "header and two rows: {csv}");
    let o = wf(&["plot", &p("a.json"), &p("b.json"), "-o", &p("b.svg")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(d.join("b.svg")).unwrap().contains("Long-latency RAW"));
    // Bad configuration input: one line naming the key.
    fails_with(&["run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", "hpca16_pmode", "--set", "l1.mshrs=0"], "l1.mshrs");
    fails_with(&["run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", "nosuch"], "unknown config preset `nosuch`");
    std::fs::write(d.join("bad.toml"), "name = \"x\"\n").unwrap();
    fails_with(&["run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", &p("bad.toml")], "bad.toml");
    fails_with(&["run", &kernels("reduction.cu"), "--launch", &kernels("reduction.toml"), "--config", "hpca16_pmode", "--engine", "fast"], "unknown engine `fast`");
    fails_with(&["plot", &p("runs.csv")], "not a warpforge stats file");
}

#[test]
fn sweep_is_the_same_at_any_thread_count_and_shards_partition_it() {
    let d = tmp("sweep");
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    let suite = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let args = |out: &str, j: &str| {
        vec![
            "sweep".to_string(), "--suite".into(), suite.to_str().unwrap().into(), "--kernels".into(), "vecadd,scan".into(),
            "--policies".into(), "gto,lrr".into(), "-j".into(), j.into(), "-o".into(), out.to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        let o = wf(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(args(&p("one.csv"), "1"));
    run(args(&p("two.csv"), "2"));
    let one = std::fs::read_to_string(d.join("one.csv")).unwrap();
    assert_eq!(one, std::fs::read_to_string(d.join("two.csv")).unwrap());
    assert_eq!(one.lines().count(), 5);
    let mut rows: Vec<String> = Vec::new();
    for i in 0..2 {
        let mut a = args(&p(&format!("s{i}.csv")), "1");
        a.extend(["--shard".to_string(), format!("{i}/2")]);
        run(a);
        rows.extend(std::fs::read_to_string(d.join(format!("s{i}.csv"))).unwrap().lines().skip(1).map(String::from));
    }
    rows.sort();
    let mut all: Vec<String> = one.lines().skip(1).map(String::from).collect();
    all.sort();
    assert_eq!(rows, all);
    fails_with(&["sweep", "--kernels", "nosuch", "--suite", suite.to_str().unwrap()], "`nosuch`");
    fails_with(&["sweep", "--shard", "2/2", "--suite", suite.to_str().unwrap()], "--shard `2/2`");
}

/// `--unmapped-reads-zero`: a load past every allocation reads zero on the
/// functional model and the SM alike (counted and warned about); without
/// it the run stops at that load.
#[test]
fn unmapped_reads_zero_on_both_models() {
    let d = tmp("unmapped");
    let l = d.join("l.toml");
    std::fs::write(&l, "grid = [2]\nblock = [64]\nargs = [\"a\", \"b\", \"c\", 128]\n[buffers.a]\ntype = \"f32\"\nlen = 128\n[buffers.b]\ntype = \"f32\"\nlen = 100\n[buffers.c]\ntype = \"f32\"\nlen = 128\n").unwrap();
    let l = l.to_str().unwrap();
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", l, "--functional"], "is outside every buffer");
    let o = wf(&["run", &kernels("vecadd.cu"), "--launch", l, "--functional", "--unmapped-reads-zero"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("28 lane-elements of global loads read unmapped memory as zero"));
    let o = wf(&["run", &kernels("vecadd.cu"), "--launch", l, "--config", "hpca16_pmode", "--unmapped-reads-zero"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("reads of unmapped global memory, as zero: 28 lane-elements"), "{out}");
}
