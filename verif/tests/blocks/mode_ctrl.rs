//! Mode controller: the generated hardware against the reference model
//! (arbitrary inputs and driver traffic over parameters), the property check
//! on both engines, the directed tests, co-simulation.

use crate::common::{build, driven, engines, matches_model, typed, Ov};
use hw::blocks::pmode::mode_ctrl::ModeCtrlParams;
use models::pmode::mode_ctrl::ModeCtrlModel;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::pmode::mode_ctrl::{check, golden, ModeCtrlDriver};
use verif::stimulus::Stimulus;

const SMALL: Ov = &[("warps", 3), ("regs", 5), ("pc_bits", 8)];
const TINY: Ov = &[("warps", 2), ("regs", 2), ("pc_bits", 8)];

arbitrary_tests!("mode_ctrl", small SMALL, tiny TINY);

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    #[test]
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 1u64..20, regs in 2u64..70, ports in 1u64..5, wbp in 1u64..5,
                                         fb in 1u64..8, release in 0u64..2) {
        let ov = [("warps", warps), ("regs", regs), ("issue_ports", ports), ("wb_ports", wbp), ("flight_bits", fb), ("release", release)];
        prop_assert_eq!(matches_model("mode_ctrl", &ov, &driven("mode_ctrl", &ov, seed, 1500)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]

    #[test]
    fn model_properties_over_parameters(seed in 0u64..1_000_000, warps in 1u32..20, regs in 2u32..70, ports in 1u32..5, wbp in 1u32..5,
                                        release in 0u32..2) {
        let p = ModeCtrlParams { warps, regs, issue_ports: ports, wb_ports: wbp, release, ..ModeCtrlParams::default() };
        let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, seed), 3_000);
        prop_assert_eq!(check(&p, &mut ModeCtrlModel::new(&p), &st), Ok(()));
    }
}

#[test]
fn properties_hold_on_the_hardware() {
    for (ov, seed, n) in [(&[][..], 7, 20_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000), (&[("release", 1)][..], 3, 10_000)] {
        let p: ModeCtrlParams = typed("mode_ctrl", ov);
        assert_eq!(check(&p, &mut NetlistSim::new(&build("mode_ctrl", ov)), &driven("mode_ctrl", ov, seed, n)), Ok(()), "{ov:?} seed {seed}");
    }
}

#[test]
fn properties_hold_on_the_model() {
    for (p, seed) in [
        (ModeCtrlParams::default(), 1u64),
        (ModeCtrlParams { warps: 5, regs: 8, issue_ports: 3, wb_ports: 1, ..ModeCtrlParams::default() }, 2),
        (ModeCtrlParams { warps: 64, issue_ports: 1, wb_ports: 3, ..ModeCtrlParams::default() }, 3),
    ] {
        let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, seed), 20_000);
        check(&p, &mut ModeCtrlModel::new(&p), &st).unwrap();
    }
}

#[test]
fn driver_exercises_every_action() {
    let p = ModeCtrlParams::default();
    let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, 4), 20_000);
    let mut m = ModeCtrlModel::new(&p);
    verif::run::check_inputs(&m, st.layout()).unwrap();
    let a = p.bind(&m).unwrap().iss[0].action;
    let mut n = [0u32; 8];
    for c in 0..st.cycles() {
        m.set_inputs(st.cycle(c));
        m.eval();
        n[m.get_u64(a) as usize] += 1;
        m.tick();
    }
    assert!(n.iter().all(|&x| x > 50), "{n:?}");
}

#[test]
fn golden_directed_tests() {
    let p = ModeCtrlParams::default();
    let tests: [fn(&ModeCtrlParams, &mut dyn Component); 3] =
        [golden::skip_rules, golden::trigger_register_redefined, golden::one_trigger_per_cycle_and_exit_wins];
    for t in tests {
        for mut m in engines("mode_ctrl", &[]) {
            t(&p, m.as_mut());
        }
    }
}

cosim_tests!("mode_ctrl", seed 2026, small SMALL);
