//! Rename tables: the generated hardware against the reference model
//! (arbitrary inputs and driver traffic over parameters), the property check,
//! the directed tests on both engines, co-simulation.

use crate::common::{build, driven, engines, matches_model, typed, Ov};
use hw::blocks::pmode::rename::RenameParams;
use models::pmode::rename::RenameModel;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::pmode::rename::{check, golden, RenameDriver};
use verif::pmode::InView;
use verif::stimulus::Stimulus;

const SMALL: Ov = &[("warps", 3), ("regs", 5), ("rename_regs", 12), ("banks", 4)];
const TINY: Ov = &[("warps", 2), ("regs", 3), ("rename_regs", 4), ("banks", 2)];

arbitrary_tests!("rename", small SMALL, tiny TINY);

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    #[test]
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, regs in 2u64..12, rr in 1u64..5, bank_log in 0u32..3, ports in 1u64..4) {
        let ov = [("warps", 3), ("regs", regs), ("rename_regs", 8 * rr), ("banks", 1u64 << bank_log), ("issue_ports", ports)];
        prop_assert_eq!(matches_model("rename", &ov, &driven("rename", &ov, seed, 1500)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]

    #[test]
    fn model_properties_over_parameters(seed in 0u64..1_000_000, regs in 2u32..12, rr in 1u32..5, bank_log in 0u32..3, ports in 1u32..4) {
        let p = RenameParams { warps: 3, regs, rename_regs: 8 * rr, banks: 1 << bank_log, issue_ports: ports, ..RenameParams::default() };
        let st = Stimulus::record(&mut RenameDriver::new(&p, seed), 3_000);
        prop_assert_eq!(check(&p, &mut RenameModel::new(&p), &st), Ok(()));
    }
}

#[test]
fn properties_hold_on_the_hardware() {
    for (ov, seed, n) in [(&[][..], 7, 20_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000)] {
        let p: RenameParams = typed("rename", ov);
        assert_eq!(check(&p, &mut NetlistSim::new(&build("rename", ov)), &driven("rename", ov, seed, n)), Ok(()), "{ov:?} seed {seed}");
    }
}

#[test]
fn properties_hold_on_the_model() {
    let small = RenameParams { warps: 5, regs: 8, rename_regs: 16, banks: 4, issue_ports: 2, ..RenameParams::default() };
    for (p, seed) in [(RenameParams::default(), 1u64), (small.clone(), 2), (RenameParams { issue_ports: 3, banks: 2, ..small }, 3)] {
        let st = Stimulus::record(&mut RenameDriver::new(&p, seed), 10_000);
        check(&p, &mut RenameModel::new(&p), &st).unwrap();
    }
}

#[test]
fn driver_exercises_the_interesting_cases() {
    let p = RenameParams { warps: 5, regs: 8, rename_regs: 16, banks: 4, issue_ports: 2, ..RenameParams::default() };
    let st = Stimulus::record(&mut RenameDriver::new(&p, 9), 20_000);
    let mut m = RenameModel::new(&p);
    verif::run::check_inputs(&m, st.layout()).unwrap();
    let io = p.bind(&m).unwrap();
    let i0 = &io.iss[0];
    let mut n = [0u32; 6];
    for c in 0..st.cycles() {
        m.set_inputs(st.cycle(c));
        m.eval();
        let iv = InView::new(&st, c);
        let before = m.get(io.used)[0].count_ones();
        n[0] += (iv.b(i0.pmode) && iv.b(i0.alloc) && m.get_bool(i0.free)) as u32;
        n[1] += (iv.b(i0.pmode) && iv.b(i0.alloc) && !m.get_bool(i0.free)) as u32;
        m.tick();
        m.eval();
        let after = m.get(io.used)[0].count_ones();
        n[2] += (!iv.b(i0.pmode) && iv.b(i0.reuse) && after < before) as u32;
        n[3] += (!iv.b(i0.pmode) && !iv.b(i0.reuse) && iv.b(i0.write) && after < before) as u32;
        n[4] += (before == 16) as u32;
        n[5] += (iv.b(io.start_en) && after < before) as u32;
    }
    // allocated, refused (none free), freed by reuse, freed by write, vector
    // full, freed by an episode start (entries left unreused)
    assert!(n.iter().all(|&x| x > 20), "{n:?}");
}

#[test]
fn golden_directed_tests() {
    let p = RenameParams::default();
    let tests: [fn(&RenameParams, &mut dyn Component); 3] =
        [golden::same_bank_first_and_compiler_registers, golden::when_a_register_returns_to_the_vector, golden::same_cycle_corners];
    for t in tests {
        for mut m in engines("rename", &[]) {
            t(&p, m.as_mut());
        }
    }
}

cosim_tests!("rename", seed 2026, small SMALL);
