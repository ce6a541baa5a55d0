//! The composed P-mode unit: the generated hardware against the reference
//! model (arbitrary inputs and driver traffic over parameters), the unit's
//! property check on both engines, Figure 5 end to end, the hierarchy, a
//! broken sub-block caught, co-simulation.

use crate::common::{build, driven, engines, matches_model, params, top_of, typed, work, Ov};
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
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 2u64..10, rr in 1u64..5, entries in 0u64..6, ports in 1u64..4,
                                         release in 0u64..2) {
        let ov = [("warps", warps), ("rename_regs", 8 * rr), ("entries", entries), ("issue_ports", ports), ("wb_ports", ports), ("release", release)];
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
    // Also a reused result moved home, and no P-queue at all (NoPQ).
    for (ov, seed, n) in
        [(&[][..], 7, 30_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000), (&[("release", 1)][..], 3, 20_000), (&[("entries", 0)][..], 4, 10_000)]
    {
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

/// Settling only the decisions and the scoreboard's answer
/// (`eval_outputs`, as the SM does per offer) gives the full settle's
/// values for them; the other outputs after the next `eval`, and the state
/// after an edge taken straight after the partial settle, are the full
/// settle's too.
#[test]
fn settling_the_decisions_alone_matches_the_full_settle() {
    for (p, seed) in [
        (PmodeUnitParams { warps: 8, rename_regs: 32, ..PmodeUnitParams::default() }, 21u64),
        (PmodeUnitParams { warps: 9, issue_ports: 3, wb_ports: 3, entries: 2, ..PmodeUnitParams::default() }, 22),
        (PmodeUnitParams { warps: 6, rename_regs: 16, entries: 4, issue_ports: 2, release: 1, ..PmodeUnitParams::default() }, 23),
    ] {
        let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, seed), 20_000);
        let (mut full, mut part) = (PmodeUnitModel::new(&p), PmodeUnitModel::new(&p));
        let io = p.bind(&full).unwrap();
        let decisions: Vec<PortId> = io.iss.iter().flat_map(|i| [i.action, i.stall, i.long_dep]).collect();
        let outputs: Vec<PortId> =
            (0..full.ports().len()).filter(|&i| full.ports()[i].dir == sim::Dir::Out).map(|i| PortId(i as u32)).collect();
        for c in 0..st.cycles() {
            full.set_inputs(st.cycle(c));
            part.set_inputs(st.cycle(c));
            full.eval();
            part.eval_outputs(&decisions);
            for &id in &decisions {
                assert_eq!(part.get(id), full.get(id), "seed {seed} cycle {c}: {}", full.ports()[id.0 as usize].name);
            }
            // Every other cycle the edge comes straight after the partial settle.
            if c % 2 == 0 {
                part.eval();
                for &id in &outputs {
                    assert_eq!(part.get(id), full.get(id), "seed {seed} cycle {c}: {}", full.ports()[id.0 as usize].name);
                }
            }
            full.tick();
            part.tick();
        }
    }
}

#[test]
fn driver_exercises_every_action() {
    let p = PmodeUnitParams { warps: 8, rename_regs: 32, ..PmodeUnitParams::default() };
    let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, 11), 30_000);
    let mut m = PmodeUnitModel::new(&p);
    verif::run::check_inputs(&m, st.layout()).unwrap();
    let io = p.bind(&m).unwrap();
    let mut n = [0u32; 8];
    // Per warp, entries recorded and not reused; triggers that drop some;
    // pre-executions the full queue did not record.
    let mut queued = [0i64; 8];
    let (mut drops, mut unrecorded) = (0u32, 0u32);
    for c in 0..st.cycles() {
        m.set_inputs(st.cycle(c));
        m.eval();
        for i in &io.iss {
            let a = m.get_u64(i.action);
            n[a as usize] += 1;
            let w = st.u64(c, i.warp) as usize;
            match a {
                action::PREEXEC if st.u64(c, i.op) != hw::blocks::pmode::mode_ctrl::op::BRANCH => {
                    if m.get_bool(i.recorded) {
                        queued[w] += 1;
                    } else {
                        unrecorded += 1;
                    }
                }
                action::REUSE => queued[w] -= 1,
                action::TRIGGER => {
                    drops += (queued[w] > 0) as u32;
                    queued[w] = 0;
                }
                _ => {}
            }
        }
        if st.bit(c, io.launch_en) {
            queued[st.u64(c, io.launch_warp) as usize] = 0;
        }
        m.tick();
    }
    let named = n.iter().zip(action::NAMES).collect::<Vec<_>>();
    println!("{named:?}, {drops} triggers dropping entries, {unrecorded} unrecorded pre-executions");
    assert!(n.iter().all(|&x| x > 20), "{named:?}");
    assert!(drops > 20 && unrecorded > 20, "{drops} triggers dropping entries, {unrecorded} unrecorded pre-executions");
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
    // The P-queue's ports are the two issue ports and the two fetch ports.
    let pq = "pqueue_issue_ports4";
    assert_eq!(subs, [("sb", "scoreboard"), ("pq", pq), ("rn", "rename"), ("st", "simt_stack"), ("mc", "mode_ctrl")]);
    let files = hw::verilog::emit(&top);
    for name in ["scoreboard", pq, "rename", "simt_stack", "mode_ctrl", "pmode_unit"] {
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
    struct NoLong(Box<dyn Component + Send>, Vec<PortId>);
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

/// The SM's operand counts (`srcs = 8`, `dsts = 4`, register ids 0..71,
/// eight writeback ports) at a small size: [`golden::wide`].
const WIDE: Ov = &[
    ("warps", 4),
    ("regs", 72),
    ("rename_regs", 16),
    ("entries", 4),
    ("depth", 4),
    ("lanes", 8),
    ("wb_ports", 8),
    ("srcs", 8),
    ("dsts", 4),
];

#[test]
fn wide_parameters_are_the_golden_tests() {
    assert_eq!(typed::<PmodeUnitParams>("pmode_unit", WIDE), golden::wide());
}

/// Driver traffic at the SM's operand counts: the unit's properties on the
/// model and on the hardware, and hardware == model.
#[test]
fn properties_hold_at_the_sms_operand_counts() {
    let p: PmodeUnitParams = typed("pmode_unit", WIDE);
    let st = driven("pmode_unit", WIDE, 3, 30_000);
    check(&p, &mut PmodeUnitModel::new(&p), &st).unwrap();
    assert_eq!(matches_model("pmode_unit", WIDE, &st), Ok(()));
    assert_eq!(check(&p, &mut NetlistSim::new(&build("pmode_unit", WIDE)), &st), Ok(()));
}

/// The driver's wide instructions reach every P-mode action: register pairs
/// are pre-executed and reused, several-register results pre-loaded and
/// skipped, four-register loads handled in P-mode; instructions with three or
/// more sources trigger, skip and are pre-executed. (A four-register result is
/// pre-executed only as a shared-memory vector load, about once in 100,000
/// driver cycles: `golden::shared_v4_wide` is the directed test of that.)
#[test]
fn driver_exercises_wide_instructions() {
    let p: PmodeUnitParams = typed("pmode_unit", WIDE);
    // (action, destinations, sources (3 = three or more)) -> count
    let mut n = std::collections::BTreeMap::new();
    for seed in [3, 5] {
        let st = driven("pmode_unit", WIDE, seed, 15_000);
        let mut m = PmodeUnitModel::new(&p);
        let io = p.bind(&m).unwrap();
        for c in 0..st.cycles() {
            m.set_inputs(st.cycle(c));
            m.eval();
            for i in &io.iss {
                let a = action::NAMES[m.get_u64(i.action) as usize];
                let nd = i.dst.iter().filter(|o| st.bit(c, o.vld)).count();
                let ns = i.src.iter().filter(|o| st.bit(c, o.vld)).count().min(3);
                *n.entry((a, nd, ns)).or_insert(0u32) += 1;
            }
            m.tick();
        }
    }
    let count = |a: &str, f: &dyn Fn(usize, usize) -> bool| n.iter().filter(|((x, d, s), _)| *x == a && f(*d, *s)).map(|(_, k)| k).sum::<u32>();
    for a in ["preexec", "reuse"] {
        assert!(count(a, &|nd, _| nd == 2) > 0, "no {a} with 2 destinations: {n:?}");
    }
    for a in ["preload", "skip"] {
        assert!(count(a, &|nd, _| nd >= 2) > 0, "no {a} with several destinations: {n:?}");
    }
    let four = ["preexec", "preload", "skip"].iter().map(|a| count(a, &|nd, _| nd == 4)).sum::<u32>();
    assert!(four > 0, "no four-register result handled in P-mode: {n:?}");
    for a in ["trigger", "skip", "preexec"] {
        assert!(count(a, &|_, ns| ns >= 3) > 0, "no {a} with three or more sources: {n:?}");
    }
}

/// Figure 5's loop as the SM's PTX has it (register pairs, `fma`, a
/// predicate register), on both engines.
#[test]
fn golden_sm_loop_wide() {
    for mut m in engines("pmode_unit", WIDE) {
        golden::sm_loop_wide(&golden::wide(), m.as_mut());
    }
}

#[test]
fn golden_shared_v4_wide() {
    for mut m in engines("pmode_unit", WIDE) {
        golden::shared_v4_wide(&golden::wide(), m.as_mut());
    }
}

/// The SM's co-simulation shape under Verilator: 20,000 driver cycles at
/// [`WIDE`] (the SM's operand counts, four warps), hardware == model too.
#[test]
fn verilator_cosim_wide() {
    let (_, stim, _) = crate::common::verilator("pmode_unit", WIDE, 2026, 20_000);
    crate::common::matches_model("pmode_unit", WIDE, &stim).unwrap();
}

/// The unit as the SM instantiates it (`sm::blocks::PmodeBlock`): 48 warps,
/// register ids 0..71 (R0-R62, predicates P0-P6 at 64..70), eight sources,
/// four destinations, eight writeback ports; the other parameters at the
/// paper's values.
const SM: Ov = &[("warps", 48), ("regs", 72), ("srcs", 8), ("dsts", 4), ("wb_ports", 8)];

/// At the SM's size the unit and its sub-blocks (each at the SM's values of
/// the parameters it has) elaborate, emit Verilog that passes Verilator -Wall
/// with no warning and compiles in iverilog, and give the same outputs on the
/// netlist interpreter, the compiled engine and the reference model.
#[test]
fn sm_size_lints_and_runs_on_every_engine() {
    use sim::compiled::CompileOptions;
    use sim::{CompiledSim, Visibility};
    use verif::run::{first_mismatch, run};
    for block in ["pmode_unit", "scoreboard", "rename", "mode_ctrl", "pqueue"] {
        let info = hw::registry::find(block).unwrap();
        let ov: Vec<(&str, u64)> = SM.iter().copied().filter(|(n, _)| info.params.iter().any(|s| s.name == *n)).collect();
        let top = top_of(block, &ov);
        let (verilator, iverilog) = verif::lint::lint_hdl(&hw::verilog::emit(&top), &top.name, &work(&format!("{}-lint", top.name))).unwrap();
        assert_eq!((&verilator, &iverilog), (&verif::lint::Check::Pass, &verif::lint::Check::Pass), "{}", top.name);
        let stim = driven(block, &ov, 3, 600);
        let interp = run(&mut NetlistSim::new(&top), &stim).unwrap();
        let model = run(models::model(block, &params(block, &ov)).unwrap().as_mut(), &stim).unwrap();
        assert_eq!(first_mismatch(&model, &interp), None, "{}: netlist vs reference model", top.name);
        let mut c = CompiledSim::with_options(&top, Visibility::Ports, &CompileOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", top.name));
        assert_eq!(first_mismatch(&interp, &run(&mut c, &stim).unwrap()), None, "{}: compiled engine vs netlist", top.name);
    }
}
