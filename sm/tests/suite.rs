//! Every kernel of the suite on the timing SM leaves the functional model's
//! final memory.

use kernel::{load, CompileOptions, LaunchFile, RunOptions};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

fn run(name: &str, cfg: &Config, engine: Engine) -> sm::Stats {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join(format!("{name}.cu")), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let launch = LaunchFile::load(&root.join(format!("{name}.toml"))).unwrap().bind(&module, &k).unwrap();
    let golden = kernel::run_functional(&k, &launch, &RunOptions::default()).unwrap();
    let out = sm::run::simulate(Arc::new(k), Arc::new(launch), cfg, engine, Outputs::default()).unwrap();
    assert!(out.memory == golden.memory, "{name}: final memory differs from the functional model");
    assert_eq!(out.stats.thread_insts, golden.stats.thread_insts, "{name}");
    out.stats
}

#[test]
fn vecadd_netlist() {
    let s = run("vecadd", &Config::preset("hpca16_pmode"), Engine::Netlist);
    println!("{}", s.table());
}

#[test]
fn vecadd_engines_agree() {
    let c = Config::preset("hpca16_pmode");
    let a = run("vecadd", &c, Engine::Netlist);
    let b = run("vecadd", &c, Engine::Model);
    assert_eq!(a.json().replace("netlist", "model"), b.json());
}
