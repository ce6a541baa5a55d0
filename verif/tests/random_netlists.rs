//! Random netlists (every operator, widths across word boundaries,
//! registers, RAM, register array): the netlist simulator must agree with the
//! bit-serial evaluator (proptest over many modules) and with Verilator and
//! iverilog on the emitted Verilog.

use proptest::prelude::*;
use sim::{Component, NetlistSim};
use verif::bitref::BitRef;
use verif::cosim::{cosim, Simulator};
use verif::fuzz::{random_module, FuzzShape};
use verif::run::{first_mismatch, run};
use verif::stimulus::{InputLayout, RandomDriver, Stimulus};

fn stim(sim: &NetlistSim, seed: u64, cycles: u64) -> Stimulus {
    let mut d = RandomDriver::new(InputLayout::of(sim.ports()), seed, 0.05);
    Stimulus::record(&mut d, cycles)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn netlist_simulator_equals_bit_serial_evaluator(seed in any::<u64>(), small in any::<bool>()) {
        let shape = if small { FuzzShape { max_width: 20, ..FuzzShape::default() } } else { FuzzShape::default() };
        let m = random_module("fuzz_bitref", seed, shape).unwrap();
        let mut netlist = NetlistSim::new(&m);
        let s = stim(&netlist, seed ^ 1, 40);
        let a = run(&mut netlist, &s).unwrap();
        let b = run(&mut BitRef::new(&m), &s).unwrap();
        prop_assert_eq!(first_mismatch(&b, &a), None);
    }
}

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn random_netlists_match_verilator() {
    for seed in [11u64, 12, 13] {
        let m = random_module(&format!("fuzz_v{seed}"), seed, FuzzShape { ops: 200, ..FuzzShape::default() }).unwrap();
        let s = stim(&NetlistSim::new(&m), seed, 2000);
        let r = cosim(&m, None, &s, Simulator::Verilator, &work(&format!("fuzz-v{seed}"))).unwrap();
        assert!(r.mismatch.is_none(), "seed {seed}: {}", r.mismatch.unwrap());
    }
}

#[test]
fn random_netlist_matches_iverilog() {
    let m = random_module("fuzz_iv", 21, FuzzShape::default()).unwrap();
    let s = stim(&NetlistSim::new(&m), 21, 1000);
    let r = cosim(&m, None, &s, Simulator::Iverilog, &work("fuzz-iv")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn random_netlists_are_lint_clean() {
    let m = random_module("fuzz_lint", 31, FuzzShape::default()).unwrap();
    let files = hw::verilog::emit(&m);
    let r = verif::lint::lint(&files, &m.name, &work("fuzz-lint"), verif::lint::Flow::Coarse).unwrap();
    assert!(r.passed(), "{r:#?}");
}
