//! SM simulation speed (SM.md §5): SM-cycles per second at 48 warps on a
//! memory-bound kernel (vecadd) and a compute-bound one (tiled sgemm), with
//! the blocks on the reference models and on the netlist; and the time per
//! SM-cycle as the warp slots grow from 8 to 48 (it should stay roughly flat
//! per active warp); and per mode (baseline, P-mode, replay) on the
//! reference models, against the baseline's rate; then the whole 15-SM GPU
//! (baseline and P-mode) in SM-cycles per wall-second on 1 and 2 threads.
//! Timing covers the simulation only (not clang, not the functional golden
//! run). `cargo bench -p sm --bench sm_speed`.

use kernel::{load, CompileOptions, LaunchFile};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn launch(name: &str, toml: &str) -> (Arc<kernel::Kernel>, Arc<kernel::Launch>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let m = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).expect("compile");
    let k = m.only_kernel().expect("kernel").clone();
    let lf = LaunchFile::parse(toml, &root.join("bench.toml")).expect("launch");
    let l = lf.bind(&m, &k).expect("bind");
    (Arc::new(k), Arc::new(l))
}

fn vecadd(n: u32) -> String {
    format!(
        "grid = [{}]\nblock = [256]\nargs = [\"a\", \"b\", \"c\", {n}]\n\
         [buffers.a]\ntype = \"f32\"\nlen = {n}\ninit = {{ random = {{ seed = 1, min = -1.0, max = 1.0 }} }}\n\
         [buffers.b]\ntype = \"f32\"\nlen = {n}\ninit = {{ random = {{ seed = 2, min = -1.0, max = 1.0 }} }}\n\
         [buffers.c]\ntype = \"f32\"\nlen = {n}\n",
        n.div_ceil(256)
    )
}

fn sgemm(n: u32) -> String {
    format!(
        "grid = [{g}, {g}]\nblock = [16, 16]\nargs = [\"A\", \"B\", \"C\", {n}, {n}, {n}]\n\
         [buffers.A]\ntype = \"f32\"\nlen = {nn}\ninit = {{ random = {{ seed = 10, min = -1.0, max = 1.0 }} }}\n\
         [buffers.B]\ntype = \"f32\"\nlen = {nn}\ninit = {{ random = {{ seed = 11, min = -1.0, max = 1.0 }} }}\n\
         [buffers.C]\ntype = \"f32\"\nlen = {nn}\n",
        g = n / 16,
        nn = n * n
    )
}

/// CPU time of this thread: on a shared machine, wall time also counts
/// other processes' turns.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// (cycles, wall seconds, CPU seconds) of one run.
fn time(k: &Arc<kernel::Kernel>, l: &Arc<kernel::Launch>, c: &Config, e: Engine) -> (u64, f64, f64) {
    let (t, c0) = (Instant::now(), cpu_seconds());
    let o = sm::run::simulate(Arc::clone(k), Arc::clone(l), c, e, Outputs::default()).expect("run");
    (o.stats.cycles, t.elapsed().as_secs_f64(), cpu_seconds() - c0)
}

/// (GPU cycles, wall seconds) of a whole-GPU run on `threads` threads.
fn time_gpu(k: &Arc<kernel::Kernel>, l: &Arc<kernel::Launch>, c: &Config, threads: usize) -> (u64, f64) {
    let t = Instant::now();
    let o = sm::run::simulate(Arc::clone(k), Arc::clone(l), c, Engine::Model, Outputs { threads, ..Outputs::default() }).expect("run");
    (o.stats.cycles, t.elapsed().as_secs_f64())
}

fn main() {
    let c48 = Config::preset("hpca16_pmode").single_sm();
    let mem = launch("vecadd", &vecadd(256 * 480));
    let comp = launch("sgemm", &sgemm(128));
    println!("SM speed at 48 warps (hpca16_pmode), one run each:");
    println!("{:<10} {:<8} {:>10} {:>9} {:>9} {:>16} {:>16}", "kernel", "engine", "cycles", "wall s", "CPU s", "SM-cycles/CPU-s", "SM-cycles/wall-s");
    for (name, (k, l)) in [("vecadd", &mem), ("sgemm", &comp)] {
        for e in [Engine::Model, Engine::Netlist, Engine::Compiled] {
            let (cy, w, c) = time(k, l, &c48, e);
            println!("{name:<10} {:<8} {cy:>10} {w:>9.3} {c:>9.3} {:>16.0} {:>16.0}", e.to_string(), cy as f64 / c, cy as f64 / w);
        }
    }
    println!("\nSM speed per mode at 48 warps (hpca16_pmode, model engine), against the baseline's:");
    println!("{:<10} {:<40} {:>10} {:>16} {:>12}", "kernel", "mode", "cycles", "SM-cycles/CPU-s", "x baseline");
    let modes: [&[&str]; 4] = [
        &[],
        &["mode=\"pmode\""],
        &["mode=\"replay\""],
        &["mode=\"replay\"", "replay.tracker=\"credit\"", "replay.predictor=\"counter\""],
    ];
    for (name, (k, l)) in [("vecadd", &mem), ("sgemm", &comp)] {
        let mut base = 0.0;
        for sets in modes {
            let c = sets.iter().fold(c48.clone(), |c, s| c.with_override(s).expect("config"));
            let (cy, _, cpu) = time(k, l, &c, Engine::Model);
            let rate = cy as f64 / cpu;
            if sets.is_empty() {
                base = rate;
            }
            let label = if sets.is_empty() { "baseline".to_string() } else { sets.join(" ") };
            println!("{name:<10} {label:<40} {cy:>10} {rate:>16.0} {:>12.2}", rate / base);
        }
    }
    let gpu = Config::preset("hpca16_pmode");
    println!("\nthe whole GPU ({} SMs, hpca16_pmode, model engine), wall time:", gpu.gpu.sms);
    println!("{:<10} {:<10} {:>8} {:>10} {:>16} {:>16} {:>12}", "kernel", "mode", "threads", "cycles", "GPU cycles/s", "SM-cycles/s", "x 1 thread");
    for (name, (k, l)) in [("vecadd", &mem), ("sgemm", &comp)] {
        for mode in ["baseline", "pmode"] {
            let c = gpu.with_override(&format!("mode=\"{mode}\"")).expect("config");
            let mut one = 0.0;
            for threads in [1, 2] {
                let (cy, w) = time_gpu(k, l, &c, threads);
                let rate = cy as f64 / w;
                if threads == 1 {
                    one = rate;
                }
                println!("{name:<10} {mode:<10} {threads:>8} {cy:>10} {rate:>16.0} {:>16.0} {:>12.2}", rate * gpu.gpu.sms as f64, rate / one);
            }
        }
    }
    println!("\ntime per SM-cycle as warps grow (vecadd, model engine):");
    println!("{:>6} {:>10} {:>16} {:>20}", "warps", "cycles", "CPU ns/cycle", "CPU ns/cycle/warp");
    for warps in [8u32, 16, 32, 48] {
        let c = c48
            .with_override(&format!("core.max_threads={}", warps * 32))
            .and_then(|c| c.with_override(&format!("core.max_warps={warps}")))
            .expect("config");
        let (cy, _, s) = time(&mem.0, &mem.1, &c, Engine::Model);
        let ns = s * 1e9 / cy as f64;
        println!("{warps:>6} {cy:>10} {ns:>16.1} {:>20.2}", ns / warps as f64);
    }
}
