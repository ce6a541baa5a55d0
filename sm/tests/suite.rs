//! Every kernel of the suite on the timing SM leaves the functional model's
//! final memory.

use kernel::{load, CompileOptions, LaunchFile, RunOptions};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

fn run(name: &str, cfg: &Config, engine: Engine) -> sm::Stats {
    run_with(name, cfg, engine, Outputs::default())
}

fn run_with(name: &str, cfg: &Config, engine: Engine, outputs: Outputs) -> sm::Stats {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let launch = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&module, &k).unwrap();
    let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap();
    let out = sm::run::simulate(Arc::new(k), Arc::new(launch), cfg, engine, outputs).unwrap();
    assert!(out.memory == golden.memory, "{name}: final memory differs from the functional model");
    // Instruction counts can differ where threads race benignly (BFS: which
    // thread finds a node unvisited first); the final memory cannot.
    if name != "bfs" {
        assert_eq!(out.stats.thread_insts, golden.stats.thread_insts, "{name}");
    }
    out.stats
}

#[test]
fn vecadd_netlist() {
    let s = run("vecadd", &Config::preset("hpca16_pmode"), Engine::Netlist);
    println!("{}", s.table());
}

/// Statistics without the engine's name.
fn same(mut s: sm::Stats) -> String {
    s.engine.clear();
    s.json()
}

/// Every kernel gives identical cycles and statistics with its blocks on the
/// reference models and on their netlists (interpreted and compiled).
#[test]
fn suite_engines_agree() {
    let c = Config::preset("hpca16_pmode");
    for name in SUITE {
        let m = same(run(name, &c, Engine::Model));
        for e in [Engine::Netlist, Engine::Compiled] {
            assert_eq!(same(run(name, &c, e)), m, "{name} on {e}");
        }
    }
}

const SUITE: &[&str] = &[
    "vecadd", "saxpy", "reduction", "histogram", "scan", "transpose_naive", "transpose_tiled", "sgemm", "stencil2d", "spmv", "bfs",
    "pathfinder", "pmode_loop", "dac_fig4",
];

#[test]
fn suite_all_presets_and_policies() {
    for name in SUITE {
        for preset in ["hpca16_pmode", "isca17_dac", "ubc12_replay"] {
            for policy in sm::Policy::ALL {
                let c = Config::preset(preset).with_override(&format!("core.policy=\"{policy}\"")).unwrap();
                let t = std::time::Instant::now();
                let s = run(name, &c, Engine::Model);
                println!("{name:16} {preset:13} {policy:9} cycles {:8} ipc {:6.2} ({:?})", s.cycles, s.ipc, t.elapsed());
            }
        }
    }
}

/// The idle-scheduler shortcut changes nothing: same statistics as
/// scanning every scheduler every cycle.
#[test]
fn idle_shortcut_is_exact() {
    for name in SUITE {
        for policy in sm::Policy::ALL {
            let c = Config::preset("hpca16_pmode").with_override(&format!("core.policy=\"{policy}\"")).unwrap();
            let a = run(name, &c, Engine::Model);
            let b = run_with(name, &c, Engine::Model, Outputs { exhaustive: true, ..Outputs::default() });
            assert_eq!(a.json(), b.json(), "{name} {policy}");
        }
    }
}
