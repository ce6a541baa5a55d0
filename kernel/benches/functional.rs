//! Functional-model throughput: thread instructions per second on one core,
//! on sgemm (256 x 256 x 256, regular, shared memory and barriers) and BFS
//! (32 searches over the shipped graph: divergent, data-dependent).
//! `make bench` runs it; `cargo bench -p kernel --bench functional`.

use kernel::{CompileOptions, LaunchFile, RunOptions};
use std::path::PathBuf;
use std::time::Instant;

fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("kernels")
}

fn replace(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "launch file changed: `{from}` not found");
    text.replace(from, to)
}

fn bench(name: &str, launch_text: &str) {
    let opts =
        CompileOptions { cache_dir: Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/kernel-ptx")), ..Default::default() };
    let m = kernel::load(&kernels_dir().join(format!("{name}.cu")), &opts).unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel(name).unwrap_or_else(|e| panic!("{e}"));
    let lf = LaunchFile::parse(launch_text, &kernels_dir().join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"));
    let l = lf.bind(&m, k).unwrap_or_else(|e| panic!("{e}"));
    let mut best = f64::MAX;
    let mut stats = None;
    for _ in 0..5 {
        let t = Instant::now();
        let r = kernel::run_functional(k, &l, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        best = best.min(t.elapsed().as_secs_f64());
        stats = Some(r.stats);
    }
    let s = stats.expect("ran");
    println!(
        "{name:<8} {:>6} CTAs {:>11} warp-instr {:>12} thread-instr ({:>4.1} threads/warp-instr)  best of 5: {:>7.1} ms  {:>6.1} M thread-instr/s  {:>5.2} M warp-instr/s",
        s.ctas,
        s.warp_insts,
        s.thread_insts,
        s.thread_insts as f64 / s.warp_insts as f64,
        best * 1e3,
        s.thread_insts as f64 / best / 1e6,
        s.warp_insts as f64 / best / 1e6
    );
}

fn main() {
    println!("functional model, one core (target: >= 100 M thread-instr/s)");
    let sgemm = std::fs::read_to_string(kernels_dir().join("sgemm.toml")).expect("sgemm.toml");
    let sgemm = replace(&sgemm, "grid = [4, 4]", "grid = [16, 16]");
    let sgemm = replace(&sgemm, "64, 64, 64]", "256, 256, 256]");
    let sgemm = replace(&sgemm, "len = 4096", "len = 65536");
    bench("sgemm", &sgemm);
    let bfs = std::fs::read_to_string(kernels_dir().join("bfs.toml")).expect("bfs.toml");
    let searches = 32;
    let sources: Vec<String> = (0..searches).map(|i| ((i * 997) % 1000).to_string()).collect();
    let bfs = replace(&bfs, "grid = [4]", &format!("grid = [{searches}]"));
    let bfs = replace(
        &bfs,
        "len = 4\ninit = { values = [0, 475, 949, 960] }",
        &format!("len = {searches}\ninit = {{ values = [{}] }}", sources.join(", ")),
    );
    let bfs = replace(&bfs, "len = 4000", &format!("len = {}", searches * 1000));
    bench("bfs", &bfs);
}
