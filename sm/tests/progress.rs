//! The timing SM stops kernels that can never finish (every live warp
//! spinning with memory unchanged, or waiting at a barrier), on every mode
//! and engine, and honours the instruction and cycle budgets.

use kernel::{load, CompileOptions, LaunchFile};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

fn edge(name: &str) -> (Arc<kernel::Kernel>, Arc<kernel::Launch>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels/edge");
    let m = load(&dir.join(format!("{name}.cu")), &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let k = m.only_kernel().unwrap().clone();
    let l = LaunchFile::load(&dir.join(format!("{name}.toml"))).unwrap().bind(&m, &k).unwrap();
    (Arc::new(k), Arc::new(l))
}

fn simulate(name: &str, cfg: &Config, engine: Engine) -> Result<sm::run::Outcome, String> {
    let (k, l) = edge(name);
    sm::run::simulate(k, l, cfg, engine, Outputs::default())
}

#[test]
fn kernels_that_can_never_finish_are_reported() {
    let base = Config::preset("hpca16_pmode").single_sm();
    let pmode = base.with_override("mode=pmode").unwrap();
    let gpu = Config::preset("hpca16_pmode");
    for (cfg, engine) in [(&base, Engine::Model), (&pmode, Engine::Model), (&base, Engine::Compiled), (&gpu, Engine::Model)] {
        let e = simulate("flag_after_barrier", cfg, engine).err().expect("no progress");
        assert!(e.starts_with("kernel `flag_after_barrier` can never finish: at cycle"), "{e}");
        assert!(e.contains("warp 0 (CTA slot 0) loops at pc") && e.contains("warp 1 (CTA slot 0) waits at barrier 0 before"), "{e}");
        let e = simulate("spin_lock", cfg, engine).err().expect("no progress");
        assert!(e.starts_with("kernel `spin_lock` can never finish"), "{e}");
    }
}

/// Both CTAs are resident on the SM, so CTA 0's wait ends (the functional
/// model, which runs CTAs one after another, reports it instead); a warp
/// waiting for another warp's flag finishes as in the functional model.
#[test]
fn waits_that_end_are_not_reported() {
    let cfg = Config::preset("hpca16_pmode").single_sm();
    simulate("cta_wait", &cfg, Engine::Model).unwrap();
    let (k, l) = edge("flag_handoff");
    let o = sm::run::simulate(Arc::clone(&k), Arc::clone(&l), &cfg, Engine::Model, Outputs::default()).unwrap();
    let golden = kernel::run_functional(&k, &l, &kernel::RunOptions::default()).unwrap();
    assert_eq!(golden.memory.difference(&o.memory), None);
}

#[test]
fn budgets_stop_a_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let m = load(&root.join("vecadd.cu"), &CompileOptions::default()).unwrap();
    let k = Arc::new(m.only_kernel().unwrap().clone());
    let l = Arc::new(LaunchFile::load(&root.join("vecadd.toml")).unwrap().bind(&m, &k).unwrap());
    for cfg in [Config::preset("hpca16_pmode").single_sm(), Config::preset("hpca16_pmode")] {
        budgets(&k, &l, &cfg);
    }
}

fn budgets(k: &Arc<kernel::Kernel>, l: &Arc<kernel::Launch>, cfg: &Config) {
    let full = sm::run::simulate(Arc::clone(k), Arc::clone(l), cfg, Engine::Model, Outputs::default()).unwrap().stats;
    let run = |key: &str, v: u64| sm::run::simulate(Arc::clone(k), Arc::clone(l), &cfg.with_override(&format!("{key}={v}")).unwrap(), Engine::Model, Outputs::default());
    let e = run("limits.max_instructions", full.warp_insts / 2).err().unwrap();
    assert!(e.starts_with(&format!("instruction budget of {} warp instructions (--max-instructions, limits.max_instructions) exceeded", full.warp_insts / 2)), "{e}");
    assert!(e.contains("CTAs done"), "{e}");
    let e = run("limits.max_cycles", full.cycles / 2).err().unwrap();
    assert!(e.starts_with(&format!("stopped after {} cycles, the cycle budget (--max-cycles, limits.max_cycles)", full.cycles / 2)), "{e}");
    // A budget the kernel stays within changes nothing.
    assert_eq!(run("limits.max_instructions", full.warp_insts).unwrap().stats.cycles, full.cycles);
}
