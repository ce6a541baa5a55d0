//! The composed P-mode unit: the generated hardware against the reference
//! model (arbitrary inputs and driver traffic over parameters), the unit's
//! property check on both engines, Figure 5 end to end, the hierarchy, a
//! broken sub-block caught, co-simulation.

use crate::common::{build, driven, engines, matches_model, typed, Ov};
use hw::blocks::pmode::mode_ctrl::action;
use hw::blocks::pmode::pmode_unit::PmodeUnitParams;
use hw::Block;
use models::pmode::pmode_unit::PmodeUnitModel;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim, PortId};
use verif::pmode::pmode_unit::{check, golden, PmodeUnitDriver};
use verif::stimulus::Stimulus;

const SMALL: Ov = &[
    ("warps", 3),
    ("regs", 6),
    ("rename_regs", 8),
    ("banks", 2),
    ("entries", 3),
    ("offset_bits", 5),
    ("pc_bits", 12),
    ("depth", 3),
    ("lanes", 4),
];
const TINY: Ov = &[
    ("warps", 2),
    ("regs", 2),
    ("rename_regs", 4),
    ("banks", 2),
    ("entries", 2),
    ("offset_bits", 3),
    ("pc_bits", 8),
    ("depth", 2),
    ("lanes", 2),
    ("inst_bytes", 1),
];

arbitrary_tests!("pmode_unit", small SMALL, tiny TINY);

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    #[test]
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 2u64..10, rr in 1u64..5, entries in 1u64..6, ports in 1u64..4) {
        let ov = [("warps", warps), ("rename_regs", 8 * rr), ("entries", entries), ("issue_ports", ports), ("wb_ports", ports)];
        prop_assert_eq!(matches_model("pmode_unit", &ov, &driven("pmode_unit", &ov, seed, 1500)), Ok(()));
    }
}

/// The unit's property check on `n` driver cycles at `ov`, on the hardware.
fn properties_on_netlist(ov: Ov, seed: u64, n: u64) -> Result<(), String> {
    let p: PmodeUnitParams = typed("pmode_unit", ov);
    check(&p, &mut NetlistSim::new(&build("pmode_unit", ov)), &driven("pmode_unit", ov, seed, n))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    #[test]
    fn properties_hold_on_the_hardware_over_parameters(seed in 0u64..1_000_000, warps in 2u64..10, rr in 1u64..5, banks_log in 0u32..3,
                                                        entries in 1u64..6, ports in 1u64..4, ob in 5u64..11) {
        let ov = [("warps", warps), ("rename_regs", 8 * rr), ("banks", 1u64 << banks_log), ("entries", entries),
                  ("issue_ports", ports), ("wb_ports", ports), ("offset_bits", ob)];
        prop_assert_eq!(properties_on_netlist(&ov, seed, 4000), Ok(()));
    }
}

#[test]
fn properties_hold_on_the_hardware() {
    for (ov, seed, n) in [(&[][..], 7, 30_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000)] {
        assert_eq!(properties_on_netlist(ov, seed, n), Ok(()), "{ov:?} seed {seed}");
    }
}

#[test]
fn random_kernels_satisfy_the_properties_on_the_model() {
    for (p, seed, cycles) in [
        (PmodeUnitParams::default(), 1u64, 20_000u64),
        (PmodeUnitParams { warps: 6, rename_regs: 16, entries: 4, issue_ports: 2, ..PmodeUnitParams::default() }, 2, 20_000),
        (PmodeUnitParams { warps: 5, rename_regs: 8, banks: 2, entries: 2, issue_ports: 1, wb_ports: 1, ..PmodeUnitParams::default() }, 3, 20_000),
        (PmodeUnitParams { warps: 9, issue_ports: 3, wb_ports: 3, offset_bits: 6, ..PmodeUnitParams::default() }, 4, 20_000),
    ] {
        let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, seed), cycles);
        check(&p, &mut PmodeUnitModel::new(&p), &st).unwrap_or_else(|e| panic!("{p:?} seed {seed}: {e}"));
    }
}

#[test]
fn driver_exercises_every_action() {
    let p = PmodeUnitParams { warps: 8, rename_regs: 32, ..PmodeUnitParams::default() };
    let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, 11), 30_000);
    let mut m = PmodeUnitModel::new(&p);
    verif::run::check_inputs(&m, st.layout()).unwrap();
    let a: Vec<PortId> = p.bind(&m).unwrap().iss.iter().map(|i| i.action).collect();
    let mut n = [0u32; 8];
    for c in 0..st.cycles() {
        m.set_inputs(st.cycle(c));
        m.eval();
        for id in &a {
            n[m.get_u64(*id) as usize] += 1;
        }
        m.tick();
    }
    let named = n.iter().zip(action::NAMES).collect::<Vec<_>>();
    println!("{named:?}");
    assert!(n.iter().all(|&x| x > 20), "{named:?}");
}

#[test]
fn golden_figure5_single_warp() {
    for mut m in engines("pmode_unit", &[]) {
        golden::figure5_single_warp(&PmodeUnitParams::default(), m.as_mut());
    }
}

/// The unit is a real hierarchy of the five generators.
#[test]
fn unit_is_a_hierarchy_of_the_real_blocks() {
    let top = build("pmode_unit", &[]);
    let subs: Vec<(&str, &str)> = top.instances.iter().map(|i| (i.name.as_str(), i.module.name.as_str())).collect();
    assert_eq!(subs, [("sb", "scoreboard"), ("pq", "pqueue"), ("rn", "rename"), ("st", "simt_stack"), ("mc", "mode_ctrl")]);
    let files = hw::verilog::emit(&top);
    for name in ["scoreboard", "pqueue", "rename", "simt_stack", "mode_ctrl", "pmode_unit"] {
        assert!(files.iter().any(|f| f.module == name), "{name} missing from the emitted Verilog");
    }
    // Non-default parameters name the sub-modules after their own parameters.
    let top = build("pmode_unit", SMALL);
    assert!(
        top.instances.iter().any(|i| i.module.name == "simt_stack_warps3_depth3_lanes4_pc_bits12"),
        "{:?}",
        top.instances.iter().map(|i| i.module.name.clone()).collect::<Vec<_>>()
    );
}

/// The same checks are able to fail: the unit with a scoreboard that never
/// reports a long-latency source never triggers, so the Figure 5 walk-through
/// fails on it.
#[test]
fn golden_test_catches_a_broken_scoreboard() {
    struct NoLong(Box<dyn Component>, Vec<PortId>);
    impl Component for NoLong {
        fn name(&self) -> &str {
            "nolong"
        }
        fn ports(&self) -> &[sim::PortSpec] {
            self.0.ports()
        }
        fn set(&mut self, p: PortId, v: &[u64]) {
            self.0.set(p, v)
        }
        fn get(&self, p: PortId) -> &[u64] {
            if self.1.contains(&p) {
                &[0]
            } else {
                self.0.get(p)
            }
        }
        fn eval(&mut self) {
            self.0.eval()
        }
        fn tick(&mut self) {
            self.0.tick()
        }
    }
    let p = PmodeUnitParams::default();
    let sbp = p.scoreboard();
    let sb = NetlistSim::new(&sbp.elaborate().unwrap());
    let longs = sbp.bind(&sb).unwrap().iss.iter().flat_map(|i| i.src_long.clone()).collect();
    let mut unit = PmodeUnitModel::with_scoreboard(&p, Box::new(NoLong(Box::new(sb), longs))).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| golden::figure5_single_warp(&p, &mut unit)));
    assert!(r.is_err(), "the walk-through must notice that nothing triggers");
}

cosim_tests!("pmode_unit", seed 2026, small SMALL);
