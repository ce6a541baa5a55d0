//! The P-mode family's generated hardware — P-queue, rename tables, SIMT
//! stacks, mode controller and the composed `pmode_unit` (the scoreboard has
//! its own file) — against the reference models:
//! - proptest: netlist simulation == reference model on arbitrary inputs
//!   (shrinking) and on each block's driver traffic over parameters and seeds;
//! - the blocks' property checks and directed/golden tests (Figure 5, the
//!   slides' P stack) run on the netlist simulation;
//! - co-simulation of the emitted Verilog: 100,000 driver cycles per block at
//!   the paper's parameters under Verilator, a short iverilog run each.

use hw::blocks::pmode::mode_ctrl::ModeCtrlParams;
use hw::blocks::pmode::pmode_unit::PmodeUnitParams;
use hw::blocks::pmode::pqueue::PqueueParams;
use hw::blocks::pmode::rename::RenameParams;
use hw::blocks::pmode::simt_stack::SimtStackParams;
use hw::ir::Module;
use hw::params::Params;
use proptest::prelude::*;
use sim::{Component, NetlistSim};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
use verif::cosim::{cosim, Simulator};
use verif::models::pmode::{mode_ctrl, pmode_unit, pqueue, rename, simt_stack};
use verif::run::{first_mismatch, run};
use verif::stimulus::{Frame, InputLayout, Slot, Stimulus};

const BLOCKS: [&str; 5] = ["pqueue", "rename", "simt_stack", "mode_ctrl", "pmode_unit"];

fn params(block: &str, ov: &[(&str, u64)]) -> Params {
    let info = hw::registry::find(block).unwrap();
    info.params(&ov.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect::<Vec<_>>()).unwrap()
}

fn build(block: &str, ov: &[(&str, u64)]) -> Arc<Module> {
    hw::registry::find(block).unwrap().elaborate(&params(block, ov)).unwrap()
}

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pmode").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Driver traffic of `block` at parameters `ov`.
fn driven(block: &str, ov: &[(&str, u64)], seed: u64, cycles: u64) -> Stimulus {
    let v = verif::registry::find(block).unwrap();
    let mut d = (v.driver)(&params(block, ov), seed).unwrap();
    Stimulus::record(d.as_mut(), cycles)
}

/// The first difference between the netlist simulation of `top` and the
/// reference model of `block` at `ov` on `stim`.
fn compare(block: &str, ov: &[(&str, u64)], top: &Arc<Module>, stim: &Stimulus) -> Option<String> {
    let v = verif::registry::find(block).unwrap();
    let a = run(&mut NetlistSim::new(top), stim).unwrap();
    let mut model = (v.model)(&params(block, ov)).unwrap();
    let b = run(model.as_mut(), stim).unwrap();
    first_mismatch(&b, &a).map(|m| m.to_string())
}

// ---------------------------------------------------------------------------
// Small parameter sets (few warps and registers: conflicts are frequent, and
// non-power-of-two sizes leave out-of-range ids).

const PQ_SMALL: &[(&str, u64)] = &[("warps", 3), ("entries", 3), ("offset_bits", 6), ("regs", 6), ("rename_regs", 6), ("pc_bits", 10)];
const RN_SMALL: &[(&str, u64)] = &[("warps", 3), ("regs", 5), ("rename_regs", 12), ("banks", 4)];
const ST_SMALL: &[(&str, u64)] = &[("warps", 3), ("depth", 3), ("lanes", 4), ("pc_bits", 16), ("inst_bytes", 4)];
const MC_SMALL: &[(&str, u64)] = &[("warps", 3), ("regs", 5), ("pc_bits", 8)];
const UNIT_SMALL: &[(&str, u64)] = &[
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

fn small(block: &str) -> &'static [(&'static str, u64)] {
    match block {
        "pqueue" => PQ_SMALL,
        "rename" => RN_SMALL,
        "simt_stack" => ST_SMALL,
        "mode_ctrl" => MC_SMALL,
        _ => UNIT_SMALL,
    }
}

const PQ_TINY: &[(&str, u64)] = &[("warps", 2), ("entries", 2), ("offset_bits", 3), ("regs", 2), ("rename_regs", 2), ("pc_bits", 8)];
const RN_TINY: &[(&str, u64)] = &[("warps", 2), ("regs", 3), ("rename_regs", 4), ("banks", 2)];
const ST_TINY: &[(&str, u64)] = &[("warps", 2), ("depth", 2), ("lanes", 2), ("pc_bits", 8), ("inst_bytes", 1)];
const MC_TINY: &[(&str, u64)] = &[("warps", 2), ("regs", 2), ("pc_bits", 8)];
const UNIT_TINY: &[(&str, u64)] = &[
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

/// Tiny parameters: ids of one or two bits, so that arbitrary inputs name
/// the same warps, registers, entries and PCs often.
fn tiny(block: &str) -> &'static [(&'static str, u64)] {
    match block {
        "pqueue" => PQ_TINY,
        "rename" => RN_TINY,
        "simt_stack" => ST_TINY,
        "mode_ctrl" => MC_TINY,
        _ => UNIT_TINY,
    }
}

/// The hardware of `block` at `ov`, built once per test binary.
fn top_of(block: &str, ov: &[(&str, u64)]) -> Arc<Module> {
    static TOPS: OnceLock<Mutex<HashMap<String, Arc<Module>>>> = OnceLock::new();
    let key = format!("{block}{ov:?}");
    let mut tops = TOPS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    tops.entry(key).or_insert_with(|| build(block, ov)).clone()
}

fn small_top(block: &str) -> Arc<Module> {
    top_of(block, small(block))
}

/// Arbitrary stimulus for `block` at `ov`: every input uniformly random
/// (1-bit inputs biased to 0), `rst` rare, so shrinking finds minimal
/// sequences.
fn arbitrary(block: &'static str, ov: &'static [(&'static str, u64)], max_cycles: usize) -> impl Strategy<Value = Stimulus> {
    let top = top_of(block, ov);
    let layout = InputLayout::of(&verif::cosim::component_ports(&top));
    let widths: Vec<u32> = layout.ports().iter().map(|q| q.width).collect();
    let frame = widths
        .iter()
        .map(|&w| match w {
            1 => prop_oneof![3 => Just(vec![0u64]), 2 => Just(vec![1u64])].boxed(),
            w if w < 64 => (0u64..(1u64 << w)).prop_map(|v| vec![v]).boxed(),
            w => prop::collection::vec(any::<u64>(), w.div_ceil(64) as usize).boxed(),
        })
        .collect::<Vec<_>>();
    prop::collection::vec(frame, 1..max_cycles).prop_map(move |cycles| {
        let mut s = Stimulus::new(layout.clone());
        let mut f = Frame::new(layout.clone());
        for (c, values) in cycles.iter().enumerate() {
            for (k, v) in values.iter().enumerate() {
                if k == 0 {
                    f.set(Slot(0), (v[0] == 1 && c % 9 == 8) as u64);
                } else {
                    f.set_wide(Slot(k), v);
                }
            }
            s.push(&f);
        }
        s
    })
}

fn arbitrary_matches(block: &'static str, ov: &[(&str, u64)], stim: &Stimulus) -> Result<(), TestCaseError> {
    prop_assert_eq!(compare(block, ov, &top_of(block, ov), stim), None);
    Ok(())
}

// ---------------------------------------------------------------------------
// Netlist == reference model

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    #[test]
    fn pqueue_matches_reference_on_arbitrary_inputs_small(stim in arbitrary("pqueue", small("pqueue"), 60)) {
        arbitrary_matches("pqueue", small("pqueue"), &stim)?;
    }

    #[test]
    fn pqueue_matches_reference_on_arbitrary_inputs_tiny(stim in arbitrary("pqueue", tiny("pqueue"), 60)) {
        arbitrary_matches("pqueue", tiny("pqueue"), &stim)?;
    }

    #[test]
    fn rename_matches_reference_on_arbitrary_inputs_small(stim in arbitrary("rename", small("rename"), 60)) {
        arbitrary_matches("rename", small("rename"), &stim)?;
    }

    #[test]
    fn rename_matches_reference_on_arbitrary_inputs_tiny(stim in arbitrary("rename", tiny("rename"), 60)) {
        arbitrary_matches("rename", tiny("rename"), &stim)?;
    }

    #[test]
    fn simt_stack_matches_reference_on_arbitrary_inputs_small(stim in arbitrary("simt_stack", small("simt_stack"), 60)) {
        arbitrary_matches("simt_stack", small("simt_stack"), &stim)?;
    }

    #[test]
    fn simt_stack_matches_reference_on_arbitrary_inputs_tiny(stim in arbitrary("simt_stack", tiny("simt_stack"), 60)) {
        arbitrary_matches("simt_stack", tiny("simt_stack"), &stim)?;
    }

    #[test]
    fn mode_ctrl_matches_reference_on_arbitrary_inputs_small(stim in arbitrary("mode_ctrl", small("mode_ctrl"), 60)) {
        arbitrary_matches("mode_ctrl", small("mode_ctrl"), &stim)?;
    }

    #[test]
    fn mode_ctrl_matches_reference_on_arbitrary_inputs_tiny(stim in arbitrary("mode_ctrl", tiny("mode_ctrl"), 60)) {
        arbitrary_matches("mode_ctrl", tiny("mode_ctrl"), &stim)?;
    }

    #[test]
    fn pmode_unit_matches_reference_on_arbitrary_inputs_small(stim in arbitrary("pmode_unit", small("pmode_unit"), 60)) {
        arbitrary_matches("pmode_unit", small("pmode_unit"), &stim)?;
    }

    #[test]
    fn pmode_unit_matches_reference_on_arbitrary_inputs_tiny(stim in arbitrary("pmode_unit", tiny("pmode_unit"), 60)) {
        arbitrary_matches("pmode_unit", tiny("pmode_unit"), &stim)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    /// Driver traffic over parameters: ports, sizes that are and are not
    /// powers of two.
    #[test]
    fn pqueue_matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 1u64..7, entries in 1u64..9,
                                                ob in 3u64..11, ports in 1u64..4) {
        let ov = [("warps", warps), ("entries", entries), ("offset_bits", ob), ("pc_bits", 16), ("issue_ports", ports), ("wb_ports", ports)];
        let top = build("pqueue", &ov);
        prop_assert_eq!(compare("pqueue", &ov, &top, &driven("pqueue", &ov, seed, 1500)), None);
    }

    #[test]
    fn rename_matches_reference_over_parameters(seed in 0u64..1_000_000, regs in 2u64..12, rr in 1u64..5,
                                                bank_log in 0u32..3, ports in 1u64..4) {
        let ov = [("warps", 3), ("regs", regs), ("rename_regs", 8 * rr), ("banks", 1u64 << bank_log), ("issue_ports", ports)];
        let top = build("rename", &ov);
        prop_assert_eq!(compare("rename", &ov, &top, &driven("rename", &ov, seed, 1500)), None);
    }

    #[test]
    fn simt_stack_matches_reference_over_parameters(seed in 0u64..1_000_000, depth in 2u64..10, lanes in 1u64..40,
                                                    ports in 1u64..4) {
        let ov = [("warps", 6), ("depth", depth), ("lanes", lanes), ("issue_ports", ports)];
        let top = build("simt_stack", &ov);
        prop_assert_eq!(compare("simt_stack", &ov, &top, &driven("simt_stack", &ov, seed, 1500)), None);
    }

    #[test]
    fn mode_ctrl_matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 1u64..20, regs in 2u64..70,
                                                   ports in 1u64..5, wbp in 1u64..5) {
        let ov = [("warps", warps), ("regs", regs), ("issue_ports", ports), ("wb_ports", wbp)];
        let top = build("mode_ctrl", &ov);
        prop_assert_eq!(compare("mode_ctrl", &ov, &top, &driven("mode_ctrl", &ov, seed, 1500)), None);
    }

    #[test]
    fn pmode_unit_matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 2u64..10, rr in 1u64..5,
                                                    entries in 1u64..6, ports in 1u64..4) {
        let ov = [("warps", warps), ("rename_regs", 8 * rr), ("entries", entries), ("issue_ports", ports), ("wb_ports", ports)];
        let top = build("pmode_unit", &ov);
        prop_assert_eq!(compare("pmode_unit", &ov, &top, &driven("pmode_unit", &ov, seed, 1500)), None);
    }
}

// ---------------------------------------------------------------------------
// Property checks on the netlist simulation

fn pq_p(ov: &[(&str, u64)]) -> PqueueParams {
    <PqueueParams as hw::BlockParams>::from_params(&params("pqueue", ov)).unwrap()
}
fn rn_p(ov: &[(&str, u64)]) -> RenameParams {
    <RenameParams as hw::BlockParams>::from_params(&params("rename", ov)).unwrap()
}
fn st_p(ov: &[(&str, u64)]) -> SimtStackParams {
    <SimtStackParams as hw::BlockParams>::from_params(&params("simt_stack", ov)).unwrap()
}
fn mc_p(ov: &[(&str, u64)]) -> ModeCtrlParams {
    <ModeCtrlParams as hw::BlockParams>::from_params(&params("mode_ctrl", ov)).unwrap()
}
fn unit_p(ov: &[(&str, u64)]) -> PmodeUnitParams {
    <PmodeUnitParams as hw::BlockParams>::from_params(&params("pmode_unit", ov)).unwrap()
}

/// Every block's property check, on `n` driver cycles at `ov`.
fn properties_on_netlist(block: &str, ov: &[(&str, u64)], seed: u64, n: u64) -> Result<(), String> {
    let top = build(block, ov);
    let mut sim = NetlistSim::new(&top);
    match block {
        "pqueue" => pqueue::check(&pq_p(ov), &mut sim, &driven(block, ov, seed, n)),
        "rename" => rename::check(&rn_p(ov), &mut sim, &driven(block, ov, seed, n)),
        "simt_stack" => {
            let p = st_p(ov);
            let mut d = simt_stack::SimtStackDriver::new(&p, seed);
            let st = Stimulus::record(&mut d, n);
            simt_stack::check_ipdom(&p, &mut sim, &st, d.expectations())
        }
        "mode_ctrl" => mode_ctrl::check(&mc_p(ov), &mut sim, &driven(block, ov, seed, n)),
        _ => pmode_unit::check(&unit_p(ov), &mut sim, &driven(block, ov, seed, n)),
    }
}

#[test]
fn properties_hold_on_the_hardware_at_default_size() {
    for b in BLOCKS {
        let n = if b == "pmode_unit" { 30_000 } else { 20_000 };
        assert_eq!(properties_on_netlist(b, &[], 7, n), Ok(()), "{b}");
    }
}

#[test]
fn properties_hold_on_small_hardware() {
    for b in BLOCKS {
        for seed in [1, 2] {
            assert_eq!(properties_on_netlist(b, small(b), seed, 10_000), Ok(()), "{b} seed {seed}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    #[test]
    fn unit_properties_hold_over_parameters(seed in 0u64..1_000_000, warps in 2u64..10, rr in 1u64..5, banks_log in 0u32..3,
                                            entries in 1u64..6, ports in 1u64..4, ob in 5u64..11) {
        let ov = [("warps", warps), ("rename_regs", 8 * rr), ("banks", 1u64 << banks_log), ("entries", entries),
                  ("issue_ports", ports), ("wb_ports", ports), ("offset_bits", ob)];
        prop_assert_eq!(properties_on_netlist("pmode_unit", &ov, seed, 4000), Ok(()));
    }

    #[test]
    fn simt_stack_ipdom_holds_over_parameters(seed in 0u64..1_000_000, depth in 2u64..10, lanes in 1u64..40, ports in 1u64..4) {
        let ov = [("warps", 6), ("depth", depth), ("lanes", lanes), ("issue_ports", ports)];
        prop_assert_eq!(properties_on_netlist("simt_stack", &ov, seed, 3000), Ok(()));
    }
}

// ---------------------------------------------------------------------------
// Directed and golden tests on the netlist simulation

#[test]
fn golden_figure5_on_the_unit_hardware() {
    pmode_unit::golden::figure5_single_warp(&mut NetlistSim::new(&build("pmode_unit", &[])));
}

#[test]
fn golden_figure5_queue_and_pqueue_limits_on_hardware() {
    pqueue::golden::figure5_queue(&mut NetlistSim::new(&build("pqueue", &[])));
    let s = pqueue::golden::small();
    let ov = [("warps", s.warps as u64), ("entries", s.entries as u64), ("offset_bits", s.offset_bits as u64), ("pc_bits", s.pc_bits as u64)];
    pqueue::golden::full_and_out_of_range(&mut NetlistSim::new(&build("pqueue", &ov)));
}

#[test]
fn directed_rename_tests_on_hardware() {
    rename::golden::same_bank_first_and_compiler_registers(&mut NetlistSim::new(&build("rename", &[])));
    rename::golden::when_a_register_returns_to_the_vector(&mut NetlistSim::new(&build("rename", &[])));
    rename::golden::same_cycle_corners(&mut NetlistSim::new(&build("rename", &[])));
}

#[test]
fn directed_simt_stack_tests_on_hardware() {
    let sp = simt_stack::golden::slides_params();
    let slides = build("simt_stack", &[("lanes", sp.lanes as u64)]);
    simt_stack::golden::slides_p_stack(&mut NetlistSim::new(&slides), &sp);
    simt_stack::golden::path_to_the_enclosing_reconvergence_pc_is_dropped(&mut NetlistSim::new(&slides), &sp);
    let op = simt_stack::golden::overflow_params();
    let ovf = build("simt_stack", &[("depth", op.depth as u64), ("lanes", op.lanes as u64)]);
    simt_stack::golden::overflow_leaves_the_stack_unchanged(&mut NetlistSim::new(&ovf), &op);
    simt_stack::golden::same_cycle_conflicts(&mut NetlistSim::new(&build("simt_stack", &[])), &SimtStackParams::default());
}

#[test]
fn directed_mode_ctrl_tests_on_hardware() {
    mode_ctrl::golden::skip_rules(&mut NetlistSim::new(&build("mode_ctrl", &[])));
    mode_ctrl::golden::one_trigger_per_cycle_and_exit_wins(&mut NetlistSim::new(&build("mode_ctrl", &[])));
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
    let top = build("pmode_unit", UNIT_SMALL);
    assert!(top.instances.iter().any(|i| i.module.name == "simt_stack_warps3_depth3_lanes4_pc_bits12"), "{:?}",
        top.instances.iter().map(|i| i.module.name.clone()).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------
// Co-simulation of the emitted Verilog

/// 100,000 driver cycles at the paper's parameters under Verilator; prints
/// build (or cache) and run times.
fn verilator_100k(block: &str, seed: u64) {
    let top = build(block, &[]);
    let stim = driven(block, &[], seed, 100_000);
    let t = Instant::now();
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work(&format!("{block}-verilator"))).unwrap();
    println!("{block}: {} cycles, {} outputs, harness {}, {:.1} s", r.cycles, r.outputs, if r.built { "built" } else { "cached" }, t.elapsed().as_secs_f64());
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!(r.cycles, 100_000);
}

#[test]
fn verilator_cosim_100k_pqueue() {
    verilator_100k("pqueue", 2026);
}

#[test]
fn verilator_cosim_100k_rename() {
    verilator_100k("rename", 2026);
}

#[test]
fn verilator_cosim_100k_simt_stack() {
    verilator_100k("simt_stack", 2026);
}

#[test]
fn verilator_cosim_100k_mode_ctrl() {
    verilator_100k("mode_ctrl", 2026);
}

#[test]
fn verilator_cosim_100k_pmode_unit() {
    verilator_100k("pmode_unit", 2026);
}

#[test]
fn iverilog_cosim_second_opinion() {
    for b in BLOCKS {
        let top = small_top(b);
        let stim = driven(b, small(b), 11, 3000);
        let r = cosim(&top, None, &stim, Simulator::Iverilog, &work(&format!("{b}-iverilog"))).unwrap();
        assert!(r.mismatch.is_none(), "{b}: {}", r.mismatch.unwrap());
    }
}

/// The same checks are able to fail: the unit with a scoreboard that never
/// reports a long-latency source never triggers, so the Figure 5 walk-through
/// fails on it.
#[test]
fn golden_test_catches_a_broken_scoreboard() {
    struct NoLong(Box<dyn Component>, Vec<sim::PortId>);
    impl Component for NoLong {
        fn name(&self) -> &str {
            "nolong"
        }
        fn ports(&self) -> &[sim::PortSpec] {
            self.0.ports()
        }
        fn set(&mut self, p: sim::PortId, v: &[u64]) {
            self.0.set(p, v)
        }
        fn get(&self, p: sim::PortId) -> &[u64] {
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
    use sim::ComponentExt;
    let p = PmodeUnitParams::default();
    let sb = NetlistSim::new(&hw::blocks::pmode::scoreboard::scoreboard(&p.scoreboard(), "scoreboard").unwrap());
    let longs = (0..2).flat_map(|k| (0..2).map(move |j| format!("iss{k}_src{j}_long"))).map(|n| sb.output(&n).unwrap()).collect();
    let mut unit = pmode_unit::PmodeUnitModel::with_scoreboard(&p, Box::new(NoLong(Box::new(sb), longs)));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pmode_unit::golden::figure5_single_warp(&mut unit)));
    assert!(r.is_err(), "the walk-through must notice that nothing triggers");
}
