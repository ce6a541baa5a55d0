//! Issue 23's defects, each with the command that showed it: outputs into
//! directories that do not exist yet, outputs checked before a run, inputs
//! that overflowed the stack or were read without bound, budgets the timing
//! SM ignored, kernels that can never finish, progress output, and error
//! messages that did not say what was wrong.

use std::path::PathBuf;
use std::process::{Command, Output};

fn wf<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpforge")).args(args).output().expect("run warpforge")
}

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("first_contact").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kernels(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kernels").join(name).to_str().unwrap().to_string()
}

fn ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> Output {
    let o = wf(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// Fails with exactly one `error:` line containing every needle; returns it.
fn fails_with<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], needles: &[&str]) -> String {
    let o = wf(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{args:?} should fail");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got:\n{err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
    }
    err
}

#[test]
fn every_output_goes_into_a_directory_created_for_it() {
    let d = tmp("outputs");
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    let o = ok(&[
        "run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--config", "hpca16_pmode",
        "--stats", &p("s/a.json"), "--csv", &p("c/runs.csv"), "--vcd", &p("v/a.vcd"), "--vcd-to", "100",
        "--pipeview", &p("k/a.log"), "--dump", &p("dump/x"),
    ]);
    for f in ["s/a.json", "c/runs.csv", "v/a.vcd", "v/a.gtkw", "k/a.log", "dump/x/c.bin"] {
        assert!(d.join(f).is_file(), "{f} missing");
    }
    assert!(String::from_utf8_lossy(&o.stdout).contains("k/a.log"));
    ok(&["plot", &p("s/a.json"), "-o", &p("plots/b.svg")]);
    assert!(d.join("plots/b.svg").is_file());
    ok(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--functional", "--dump", &p("f/dump")]);
    assert!(d.join("f/dump/c.bin").is_file());
}

#[test]
fn an_unwritable_output_fails_before_the_run() {
    for opt in ["--stats", "--csv", "--pipeview", "--vcd"] {
        let o = wf(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--config", "hpca16_pmode", opt, "/proc/wf/x.out"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.starts_with("error: cannot write /proc/wf/x.out"), "{opt}: {err}");
        assert!(o.stdout.is_empty(), "{opt}: the run went ahead: {}", String::from_utf8_lossy(&o.stdout));
    }
    // A disk that fills during the run: the error names the file.
    fails_with(&["run", &kernels("sgemm.cu"), "--launch", &kernels("sgemm.toml"), "--config", "hpca16_pmode", "--vcd", "/dev/full"], &["cannot write /dev/full", "No space left on device"]);
    fails_with(&["plot", &kernels("vecadd.toml"), "-o", "/proc/wf/b.svg"], &["cannot write /proc/wf/b.svg"]);
}

#[test]
fn deeply_nested_input_is_no_stack_overflow() {
    let d = tmp("nested");
    let n = 20_000;
    let ptx = format!(".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{{\n{}ret;\n{}}}\n", "{\n".repeat(n), "}\n".repeat(n));
    std::fs::write(d.join("nest.ptx"), ptx).unwrap();
    ok(&["kernel", d.join("nest.ptx").to_str().unwrap()]);
    std::fs::write(d.join("l.toml"), "block = [32]\n").unwrap();
    ok(&["run", d.join("nest.ptx").to_str().unwrap(), "--launch", d.join("l.toml").to_str().unwrap(), "--functional"]);
    // A VCD whose scopes nest 30,000 deep.
    let mut vcd = String::from("$timescale 1ns $end\n");
    for i in 0..30_000 {
        vcd += &format!("$scope module m{i} $end\n");
    }
    vcd += "$var wire 1 ! x $end\n";
    vcd += &"$upscope $end\n".repeat(30_000);
    vcd += "$enddefinitions $end\n#0\n0!\n#10\n1!\n";
    std::fs::write(d.join("deep.vcd"), &vcd).unwrap();
    let o = ok(&["wavediff", d.join("deep.vcd").to_str().unwrap(), d.join("deep.vcd").to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "no difference\n");
}

#[test]
fn buffer_files_are_read_with_a_bound() {
    let d = tmp("reads");
    let launch = |init: &str| {
        let t = format!("grid = [1]\nblock = [32]\nargs = [\"a\", \"b\", \"c\", 32]\n[buffers.a]\ntype = \"f32\"\nlen = 32\ninit = {{ file = \"{init}\" }}\n[buffers.b]\ntype = \"f32\"\nlen = 32\n[buffers.c]\ntype = \"f32\"\nlen = 32\n");
        std::fs::write(d.join("l.toml"), t).unwrap();
        d.join("l.toml").to_str().unwrap().to_string()
    };
    let run = |l: &str| vec!["run".to_string(), kernels("vecadd.cu"), "--launch".into(), l.to_string(), "--functional".into()];
    for dev in ["/dev/zero", "/dev/urandom"] {
        fails_with(&run(&launch(dev)), &["buffers.a.init.file", dev, "not a regular file"]);
    }
    let fifo = d.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    fails_with(&run(&launch(fifo.to_str().unwrap())), &["not a regular file"]);
    std::fs::write(d.join("long.bin"), [0u8; 132]).unwrap();
    fails_with(&run(&launch("long.bin")), &["long.bin holds 132 bytes; the buffer is 32 x f32 = 128 bytes"]);
    std::fs::write(d.join("short.bin"), [0u8; 100]).unwrap();
    fails_with(&run(&launch("short.bin")), &["short.bin holds 100 bytes; the buffer is 32 x f32 = 128 bytes"]);
    // Every other named input refuses a device too.
    fails_with(&["run", "/dev/zero", "--launch", &kernels("vecadd.toml"), "--functional"], &["/dev/zero", "not a regular file"]);
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", "/dev/zero", "--functional"], &["/dev/zero", "not a regular file"]);
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--config", "/dev/zero"], &["/dev/zero", "not a regular file"]);
    fails_with(&["sim", "--block", "scoreboard", "--stim", "/dev/zero"], &["/dev/zero", "not a regular file"]);
    fails_with(&["plot", "/dev/zero"], &["/dev/zero", "not a regular file"]);
}

#[test]
fn budgets_hold_on_every_engine() {
    let d = tmp("budgets");
    // Counts forever: its state never repeats, so only a budget stops it.
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry count()\n{\n.reg .b32 %r<2>;\nL:\nadd.s32 %r1, %r1, 1;\nbra.uni L;\n}\n";
    std::fs::write(d.join("count.ptx"), ptx).unwrap();
    std::fs::write(d.join("l.toml"), "block = [32]\n").unwrap();
    let (k, l) = (d.join("count.ptx"), d.join("l.toml"));
    let (k, l) = (k.to_str().unwrap(), l.to_str().unwrap());
    for mode in [&["--functional"][..], &["--config", "hpca16_pmode"], &["--config", "hpca16_pmode", "--engine", "rtl"]] {
        let mut a = vec!["run", k, "--launch", l, "--max-instructions", "5000"];
        a.extend_from_slice(mode);
        fails_with(&a, &["instruction budget of 5000 warp instructions exceeded"]);
    }
    // The timing SM's own budgets, on a kernel that would finish.
    let vecadd = |extra: &[&str]| {
        let mut a = vec!["run".to_string(), kernels("vecadd.cu"), "--launch".into(), kernels("vecadd.toml"), "--config".into(), "hpca16_pmode".into()];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let o = wf(&vecadd(&["--max-cycles", "1000"]));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("stopped after 1000 cycles, the cycle budget"), "{err}");
    let o = wf(&vecadd(&["--set", "limits.max_instructions=300"]));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("instruction budget of 300 warp instructions exceeded"), "{err}");
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--functional", "--max-cycles", "10"], &["--max-cycles needs --config"]);
}

#[test]
fn kernels_that_can_never_finish_are_reported() {
    let e = |n: &str| (kernels(&format!("edge/{n}.cu")), kernels(&format!("edge/{n}.toml")));
    for name in ["flag_after_barrier", "spin_lock", "cta_wait"] {
        let (k, l) = e(name);
        fails_with(&["run", &k, "--launch", &l, "--functional"], &[&format!("kernel `{name}` can never finish"), "loops at pc"]);
    }
    let (k, l) = e("flag_after_barrier");
    fails_with(&["run", &k, "--launch", &l, "--config", "hpca16_pmode"], &["can never finish", "waits at barrier 0"]);
    // A barrier in divergent code: a warning, and the run goes on.
    let (k, l) = e("divergent_barrier");
    let o = ok(&["run", &k, "--launch", &l, "--functional"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("warning: kernel `divergent_barrier`: 2 bar.sync executed by only part of a warp's live threads"), "{err}");
    // A racy kernel: which byte differs, and why.
    let (k, l) = e("race");
    fails_with(&["run", &k, "--launch", &l, "--config", "hpca16_pmode"], &["`out` byte 0x0 is", "depends on the order or timing in which its threads run"]);
}

#[test]
fn piped_runs_draw_no_progress_bar() {
    let o = ok(&["run", &kernels("sgemm.cu"), "--launch", &kernels("sgemm.toml"), "--config", "hpca16_pmode", "--set", "mode=pmode"]);
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn messages_say_what_is_wrong() {
    let d = tmp("messages");
    let p = |n: &str| d.join(n).to_str().unwrap().to_string();
    // A PTX file without a kernel.
    std::fs::write(d.join("none.ptx"), ".version 7.0\n.target sm_52\n.address_size 64\n").unwrap();
    std::fs::write(d.join("l.toml"), "block = [32]\n").unwrap();
    fails_with(&["run", &p("none.ptx"), "--launch", &p("l.toml"), "--functional"], &["none.ptx: no .entry kernel in the file"]);
    // --set names the key, not a line of an internal document, and no Rust types.
    for (set, want) in [
        ("core.max_warps=abc", "--set core.max_warps=abc: key `core.max_warps`: found the string \"abc\", expected a non-negative integer"),
        ("core=1", "`core` is a section; set one of its keys: core."),
        ("limits.max_cycles=1.5", "found the number `1.5`, expected a non-negative integer"),
    ] {
        let err = fails_with(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--config", "hpca16_pmode", "--set", set], &[want]);
        assert!(!err.contains("line ") && !err.contains("struct") && !err.contains("u32"), "{err}");
    }
    // Launch files: no Rust type names.
    std::fs::write(d.join("t.toml"), "grid = [1.5]\nblock = [32]\nargs = [\"a\"]\n[buffers.a]\ntype = \"f32\"\nlen = 32\n").unwrap();
    let err = fails_with(&["run", &kernels("vecadd.cu"), "--launch", &p("t.toml"), "--functional"], &["grid[0] (line 1): found the number `1.5`, expected a non-negative integer"]);
    assert!(!err.contains("u32"), "{err}");
    std::fs::write(d.join("t.toml"), "grid = [1]\nblock = [32]\nargs = [\"a\"]\n[buffers.a]\ntype = \"f32\"\nlen = 32\ninit = 5\n").unwrap();
    fails_with(&["run", &kernels("vecadd.cu"), "--launch", &p("t.toml"), "--functional"], &["buffers.a.init (line 7): found the integer `5`, expected a table"]);
    // A megabyte token is not echoed whole.
    let long = "x".repeat(1 << 20);
    std::fs::write(d.join("long.ptx"), format!(".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{{\n{long} %r1;\n}}\n")).unwrap();
    let err = fails_with(&["kernel", &p("long.ptx")], &["(1048576 bytes)"]);
    assert!(err.len() < 300, "{} bytes", err.len());
    // wavediff --from past both traces' ends.
    ok(&["sim", "--block", "scoreboard", "--cycles", "20", "--vcd", &p("a.vcd")]);
    fails_with(&["wavediff", &p("a.vcd"), &p("a.vcd"), "--from", "100000"], &["--from 100000 is past the end of both traces"]);
    // Wave options without a VCD are refused, not ignored.
    for extra in [&["--gtkw", "x.gtkw"][..], &["--vcd-from", "5"], &["--vcd-memories"]] {
        let mut a = vec!["sim", "--block", "scoreboard", "--cycles", "20"];
        a.extend_from_slice(extra);
        let o = wf(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.starts_with("error:") && err.contains("--vcd <"), "{extra:?}: {err}");
    }
    let o = wf(&["run", &kernels("vecadd.cu"), "--launch", &kernels("vecadd.toml"), "--config", "hpca16_pmode", "--vcd-from", "5"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--vcd <"));
    // compare without a baseline run.
    std::fs::write(d.join("r.csv"), "point,kernel,config,mode,policy,engine,cycles\n0,vecadd,x,pmode,gto,model,100\n").unwrap();
    fails_with(&["compare", &p("r.csv")], &["no baseline run to compare with"]);
}
