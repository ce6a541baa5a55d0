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

/// Every operator on constant operands is folded while the module is built;
/// the folded constant must equal what the simulator computes from the same
/// values on inputs.
fn folded_and_live(op: u8, wa: u32, wb: u32, x: u64, y: u64) -> (u64, u64, String) {
    use hw::ir::{cat, lit, mux, ModuleBuilder, Sig};
    let mask = |w: u32| if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (x, y) = (x & mask(wa), y & mask(wb));
    let m = ModuleBuilder::new("fold_check");
    let ia = m.input("a", wa);
    let ib = m.input("b", wb);
    let f = |a: Sig, b: Sig| -> (Sig, &'static str) {
        let bb = b.resize(a.width());
        match op % 24 {
            0 => (a & bb, "and"),
            1 => (a | bb, "or"),
            2 => (a ^ bb, "xor"),
            3 => (!a, "not"),
            4 => (a + bb, "add"),
            5 => (a - bb, "sub"),
            6 => (a.resize(a.width().min(32)) * b.resize(b.width().min(32)), "mul"),
            7 => (a.eq(bb), "eq"),
            8 => (a.ne(bb), "ne"),
            9 => (a.lt(bb), "lt"),
            10 => (a.le(bb), "le"),
            11 => (a.lt_s(bb), "lt_s"),
            12 => (a.le_s(bb), "le_s"),
            13 => (a.shl(b), "shl"),
            14 => (a.shr(b), "shr"),
            15 => (a.sra(b), "sra"),
            16 => (a.any(), "any"),
            17 => (a.all(), "all"),
            18 => (a.parity(), "parity"),
            19 => (a.ffs(), "ffs"),
            20 => (a.count_ones(), "popcount"),
            21 => (cat(&[a.resize(a.width().min(32)), b.resize(b.width().min(32))]), "cat"),
            22 => (a.resize(a.width().min(40)).sext(64), "sext"),
            _ => (mux(b.bit(0), a, !a), "mux"),
        }
    };
    let (live, name) = f(ia, ib);
    let (folded, _) = f(lit(x, wa), lit(y, wb));
    m.output("live", live.width()).set(live);
    m.output("folded", folded.width()).set(folded);
    let module = m.finish().unwrap();
    assert!(module.signal("folded").is_some());
    let mut s = NetlistSim::new(&module);
    use sim::ComponentExt;
    let (pa, pb) = (s.input("a").unwrap(), s.input("b").unwrap());
    let (ol, of) = (s.output("live").unwrap(), s.output("folded").unwrap());
    s.set(pa, &[x]);
    s.set(pb, &[y]);
    s.eval();
    (s.get(of)[0], s.get(ol)[0], format!("{name} a={x:#x}:{wa} b={y:#x}:{wb}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn constant_folding_equals_the_simulator(op in any::<u8>(), wa in 1u32..=64, wb in 1u32..=64, x in any::<u64>(), y in any::<u64>(), narrow in any::<bool>()) {
        let (wa, wb) = if narrow { (wa % 9 + 1, wb % 5 + 1) } else { (wa, wb) };
        let (folded, live, what) = folded_and_live(op, wa, wb, x, y);
        prop_assert_eq!(folded, live, "{}", what);
    }
}

/// Modules shaped like the blocks the Verilog lowering rewrites (per-word
/// register-array writes, merged row updates, narrow event sums): the
/// emitted Verilog equals the netlist simulation on every cycle.
#[test]
fn lowered_row_updates_match_iverilog() {
    for seed in 0..24u64 {
        let m = verif::fuzz::random_row_module(&format!("rows{seed}"), seed).unwrap();
        let s = stim(&NetlistSim::new(&m), seed, 300);
        let r = cosim(&m, None, &s, Simulator::Iverilog, &work(&format!("rows{seed}"))).unwrap();
        assert!(r.mismatch.is_none(), "seed {seed}: {}", r.mismatch.unwrap());
    }
}
