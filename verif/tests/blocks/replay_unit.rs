//! The composed replay unit: the generated hardware against the reference
//! model (arbitrary inputs, closed-loop traffic), the traffic harness's
//! checks on both engines, the tracker comparison, directed scenarios, the
//! hierarchy, co-simulation (with a fault injected into a sub-module).

use crate::common::{arbitrary_any, record, same, verilator_100k, work};
use hw::blocks::replay::mshr_predictor::PredictorMode;
use hw::blocks::replay::replay_unit::{ReplayUnitParams, TrackerKind};
use hw::iface::InterfaceExt;
use hw::ir::Module;
use hw::Block;
use models::replay::replay_unit::ReplayUnit;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::replay::replay_unit::{credit_scenario, credit_scenario_params, flush_scenario, out_of_range_params, out_of_range_scenario, ReplayUnitDriver};
use verif::replay::traffic::{self, TrafficCfg};
use verif::stimulus::Stimulus;

fn hw(p: &ReplayUnitParams) -> Arc<Module> {
    p.elaborate().unwrap()
}

fn params() -> impl Strategy<Value = ReplayUnitParams> {
    (1u32..=6, 1u32..=2, 1u32..=4, 1u32..=3, 0u32..=2, 0u32..=2, 0u32..=2, 0u32..=2, 1u32..=2, 1u32..=3, 1u32..=4).prop_map(
        |(warps, log, simt, mshrs, tracker, delay, mode, plog, bits, pc_bits, fw)| {
            let slots = 1 << log;
            ReplayUnitParams {
                warps,
                slots,
                simt_width: simt,
                fill_width: fw.min(slots),
                mshrs,
                tracker: TrackerKind::from_u32(tracker).unwrap(),
                delay,
                pred_mode: PredictorMode::from_u32(mode).unwrap(),
                pred_entries: 1 << plog,
                pred_counter_bits: bits,
                pc_bits,
            }
        },
    )
}

#[test]
fn hardware_ports_equal_model_ports() {
    for p in [ReplayUnitParams::default(), ReplayUnitParams { warps: 3, tracker: TrackerKind::Naive, ..ReplayUnitParams::default() }] {
        assert_eq!(NetlistSim::new(&hw(&p)).ports(), ReplayUnit::new(&p).ports());
    }
}

#[test]
fn ports_in_spec_order_with_widths() {
    let p = ReplayUnitParams::default();
    assert_eq!(p.ports().len(), 37);
    let io = p.decls();
    assert_eq!(p.ports()[0], io.rst);
    let w = (io.fill_warp.width, io.offer_slot.width, io.iss_pam.width, io.credit_pool.width, io.iss_pc.width);
    assert_eq!(w, (6, 192, 32, 7, 32));
}

/// The composed unit is a real hierarchy: one warp-buffer instance per warp,
/// the predictor and the tracker, each the block's own generator output.
#[test]
fn replay_unit_instantiates_the_sub_blocks() {
    let p = ReplayUnitParams::default();
    let top = hw(&p);
    let names: Vec<(&str, &str)> = top.instances.iter().map(|i| (i.name.as_str(), i.module.name.as_str())).collect();
    assert_eq!(names.iter().filter(|(_, m)| *m == "warp_buffer").count(), 64);
    assert!(names.contains(&("predictor", "mshr_predictor")));
    assert!(names.contains(&("tracker", "credit_tracker")));
    let naive = hw(&ReplayUnitParams { tracker: TrackerKind::Naive, delay: 2, pred_mode: PredictorMode::Counter, ..p.clone() });
    let names: Vec<&str> = naive.instances.iter().map(|i| i.module.name.as_str()).collect();
    assert!(names.contains(&"naive_tracker_delay2") && names.contains(&"mshr_predictor_mode2"));
    let none = hw(&ReplayUnitParams { tracker: TrackerKind::None, ..p });
    assert!(!none.instances.iter().any(|i| i.name == "tracker"));
    // Storage: the sub-blocks' bits plus the known-miss bits, as the spec counts them.
    let st = hw::stats::Storage::of(&top);
    assert_eq!(st.total_bits() as i64, ReplayUnitParams::default().storage().expected_bits());
    assert_eq!(st.bits_under("known_miss"), 64 * 8);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in params().prop_flat_map(|p| (Just(p.clone()), arbitrary_any(&p.ports(), 120)))) {
        prop_assert_eq!(same(&hw(&p), &mut ReplayUnit::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Closed-loop traffic from the driver, netlist vs reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), unit in params()) {
        let cfg = TrafficCfg { seed, mem_lat: 30, lines: 16, prog_len: 12, div_rate: 0.2, ..TrafficCfg::default() };
        let s = record(&mut ReplayUnitDriver::new(&unit, cfg), 4000);
        prop_assert_eq!(same(&hw(&unit), &mut ReplayUnit::new(&unit), &s), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// The traffic harness's checks on the composed hardware: legal completions
    /// accepted, replays carry exactly the pending threads, fills never overwrite a live
    /// slot, offers name filled slots, the credit accounting invariant on every cycle;
    /// with the credit tracker and always-miss prediction no credited load meets a full
    /// MSHR table.
    #[test]
    fn properties_on_the_hardware(seed in any::<u64>(), p in params(), hit in 0.0f64..=1.0, pipe in 1u32..=8) {
        let c = TrafficCfg { seed, hit_rate: hit, pipe, mem_lat: 40, div_rate: 0.2, lines: 64, prog_len: 12, ..TrafficCfg::default() };
        let st = traffic::run(&mut NetlistSim::new(&hw(&p)), &p, c, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        let st = st.unwrap();
        prop_assert!(st.loads_done > 0 || st.load_issues == 0);
        if p.tracker == TrackerKind::Credit && p.pred_mode == PredictorMode::AlwaysMiss {
            prop_assert_eq!(st.credited_without_mshr, 0);
            prop_assert_eq!(st.full_hazards, 0);
        }
    }

    /// The same on the model, over larger units.
    #[test]
    fn properties_on_the_model(seed in any::<u64>(), warps in 1u32..=8, log in 1u32..=4, simt in 1u32..=40,
                               mshrs in 1u32..=12, tracker in 0u32..=2, delay in 0u32..=4, mode in 0u32..=2,
                               hit in 0.0f64..=1.0, pipe in 1u32..=8) {
        let slots = 1u32 << log;
        let p = ReplayUnitParams {
            warps, slots, simt_width: simt, fill_width: 2.min(slots), mshrs,
            tracker: TrackerKind::from_u32(tracker).unwrap(), delay,
            pred_mode: PredictorMode::from_u32(mode).unwrap(), pred_entries: 16, ..ReplayUnitParams::default()
        };
        let c = TrafficCfg { seed, hit_rate: hit, pipe, mem_lat: 40, div_rate: 0.2, lines: 64, prog_len: 12, ..TrafficCfg::default() };
        let r = traffic::run(&mut ReplayUnit::new(&p), &p, c, 1500);
        prop_assert!(r.is_ok(), "{:?}", r);
        let st = r.unwrap();
        prop_assert!(st.loads_done > 0 || st.load_issues == 0);
        if p.tracker == TrackerKind::Credit && p.pred_mode == PredictorMode::AlwaysMiss {
            prop_assert_eq!(st.credited_without_mshr, 0);
        }
    }
}

#[test]
fn directed_scenarios() {
    type Scenario = fn(&mut dyn Component) -> Result<(), String>;
    let cases: [(ReplayUnitParams, Scenario); 3] = [
        (credit_scenario_params(), credit_scenario),
        (out_of_range_params(), out_of_range_scenario),
        (out_of_range_params(), flush_scenario),
    ];
    for (p, scenario) in cases {
        let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&hw(&p))), Box::new(ReplayUnit::new(&p))];
        for mut m in engines {
            scenario(m.as_mut()).unwrap();
        }
    }
}

/// At the thesis's sizes the closed-loop harness gives identical counts on the
/// hardware and on the reference model, for every tracker and predictor; the credit
/// tracker with always-miss prediction never meets a full table, and cuts the hazards
/// of the naive tracker.
#[test]
fn tracker_comparison_on_the_hardware_equals_the_reference() {
    let base = ReplayUnitParams::default();
    let cfg = TrafficCfg::default();
    let hw_rows = traffic::compare(&traffic::netlist, &base, cfg, 4000, &[0, 3]).unwrap();
    let ref_rows = traffic::compare(&traffic::reference, &base, cfg, 4000, &[0, 3]).unwrap();
    assert_eq!(hw_rows.len(), 13);
    for (a, b) in hw_rows.iter().zip(&ref_rows) {
        assert_eq!(a.stats, b.stats, "{}/{}/{}", a.tracker.name(), a.pred.name(), a.delay);
        if a.tracker == TrackerKind::Credit && a.pred == PredictorMode::AlwaysMiss {
            assert_eq!((a.stats.credited_without_mshr, a.stats.full_hazards), (0, 0));
        }
    }
    let hazards = |t: TrackerKind| hw_rows.iter().find(|r| r.tracker == t && r.pred == PredictorMode::AlwaysMiss).unwrap().stats.mshr_hazards;
    assert!(hazards(TrackerKind::Credit) < hazards(TrackerKind::Naive));
    println!("{}", traffic::table(&hw_rows));
}

fn small() -> ReplayUnitParams {
    ReplayUnitParams { warps: 8, mshrs: 8, ..ReplayUnitParams::default() }
}

fn cfg() -> TrafficCfg {
    TrafficCfg { mem_lat: 60, ..TrafficCfg::default() }
}

#[test]
fn harness_runs_every_configuration_cleanly_on_the_model() {
    let rows = traffic::compare(&traffic::reference, &small(), cfg(), 3000, &[0, 3]).unwrap();
    assert_eq!(rows.len(), 13);
    for r in &rows {
        assert!(r.stats.loads_done > 100, "{:?}", r);
    }
    let none = &rows[0].stats;
    assert!(none.mshr_hazards > 50, "plain replay must see MSHR hazards: {none:?}");
}

/// The credit-tracker property at unit level: delay 0, always-miss: no load ever
/// reaches the memory stage without an MSHR to take.
#[test]
fn credit_always_miss_delay_0_never_meets_a_full_table() {
    for seed in 0..4 {
        let p = ReplayUnitParams { tracker: TrackerKind::Credit, pred_mode: PredictorMode::AlwaysMiss, delay: 0, ..small() };
        let c = TrafficCfg { seed, hit_rate: 0.2, ..cfg() };
        let st = traffic::run(&mut ReplayUnit::new(&p), &p, c, 4000).unwrap();
        assert_eq!(st.credited_without_mshr, 0);
        assert_eq!(st.full_hazards, 0);
        assert!(st.load_issues > 300);
    }
}

#[test]
fn credit_beats_naive_on_hazards() {
    let mut p = small();
    p.pred_mode = PredictorMode::AlwaysMiss;
    let mut hazards = [0; 2];
    for (k, t) in [TrackerKind::Naive, TrackerKind::Credit].into_iter().enumerate() {
        p.tracker = t;
        hazards[k] = traffic::run(&mut ReplayUnit::new(&p), &p, cfg(), 4000).unwrap().full_hazards;
    }
    assert!(hazards[1] < hazards[0], "{hazards:?}");
}

#[test]
fn driver_records_a_replayable_stimulus() {
    let p = small();
    let stim = record(&mut ReplayUnitDriver::new(&p, cfg()), 2000);
    // Replaying the recording on a fresh model: deterministic, and the unit
    // does something.
    let mut m = ReplayUnit::new(&p);
    verif::run::check_inputs(&m, stim.layout()).unwrap();
    let ok = p.bind(&m).unwrap().iss_ok;
    let mut issued = 0;
    for c in 0..stim.cycles() {
        m.set_inputs(stim.cycle(c));
        m.eval();
        issued += m.get_bool(ok) as u64;
        m.tick();
    }
    assert!(issued > 500, "{issued}");
}

/// The driver's noise only touches inputs the specification ignores: replaying the
/// noisy and the clean recording gives the same state-derived outputs every cycle.
#[test]
fn driver_noise_is_dont_care() {
    for (warps, tracker) in [(6, TrackerKind::Credit), (5, TrackerKind::Naive), (3, TrackerKind::None)] {
        let p = ReplayUnitParams { warps, mshrs: 6, tracker, pred_mode: PredictorMode::Counter, delay: 2, ..ReplayUnitParams::default() };
        let cfg = TrafficCfg { mem_lat: 40, seed: warps as u64, ..TrafficCfg::default() };
        let noisy = Stimulus::record(&mut ReplayUnitDriver::new(&p, cfg), 3000);
        let clean = Stimulus::record(&mut ReplayUnitDriver::new(&p, cfg).with_noise(false), 3000);
        assert_ne!(noisy, clean);
        let (mut a, mut b) = (ReplayUnit::new(&p), ReplayUnit::new(&p));
        let io = p.bind(&a).unwrap();
        let watch = [
            io.offer_valid,
            io.offer_replay,
            io.offer_known_miss,
            io.offer_slot,
            io.fill_rdy,
            io.miss_issue_ok,
            io.iss_ok,
            io.iss_slot,
            io.iss_credited,
            io.cpl_accept,
            io.credit_pool,
        ];
        for c in 0..noisy.cycles() {
            for (m, st) in [(&mut a, &noisy), (&mut b, &clean)] {
                m.set_inputs(st.cycle(c));
                m.eval();
            }
            for o in watch {
                assert_eq!(a.get(o), b.get(o), "cycle {c}: {} differs (warps {warps})", a.ports()[o.0 as usize].name);
            }
            a.tick();
            b.tick();
        }
    }
}

/// The comparison at the thesis's sizes (64 warps, 32 MSHRs); slow in debug builds:
/// `cargo test -p verif --release --test blocks -- --ignored --nocapture tracker_table`.
#[test]
#[ignore]
fn tracker_table() {
    let rows = traffic::compare(&traffic::reference, &ReplayUnitParams::default(), TrafficCfg::default(), 20_000, &[0, 4]).unwrap();
    println!("{}", traffic::table(&rows));
}

/// Recording speed of the driver at the default size (manual check:
/// `cargo test -p verif --release --test blocks -- --ignored --nocapture driver_speed`).
#[test]
#[ignore]
fn driver_speed() {
    let p = ReplayUnitParams::default();
    let t = std::time::Instant::now();
    let stim = Stimulus::record(&mut ReplayUnitDriver::new(&p, TrafficCfg::default()), 100_000);
    println!("100k cycles recorded in {:?} ({} cycles)", t.elapsed(), stim.cycles());
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("replay_unit", 2031);
}

/// The stateful variants the defaults leave out: a unit with the naive
/// tracker, a delay and counters (Verilator, 20k cycles).
#[test]
fn verilator_cosim_non_default_variant() {
    let unit = ReplayUnitParams {
        warps: 12,
        tracker: TrackerKind::Naive,
        delay: 3,
        pred_mode: PredictorMode::Counter,
        pred_entries: 64,
        ..ReplayUnitParams::default()
    };
    let cfg = TrafficCfg { seed: 9, mem_lat: 80, ..TrafficCfg::default() };
    let stim = record(&mut ReplayUnitDriver::new(&unit, cfg), 20_000);
    let r = cosim(&hw(&unit), None, &stim, Simulator::Verilator, &work("unit-naive")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn iverilog_cosim_second_opinion() {
    let unit = ReplayUnitParams {
        warps: 5,
        slots: 4,
        simt_width: 8,
        mshrs: 4,
        delay: 1,
        pred_mode: PredictorMode::Counter,
        pred_entries: 16,
        ..ReplayUnitParams::default()
    };
    let cfg = TrafficCfg { seed: 4, mem_lat: 30, lines: 32, ..TrafficCfg::default() };
    let stim = record(&mut ReplayUnitDriver::new(&unit, cfg), 3000);
    let r = cosim(&hw(&unit), None, &stim, Simulator::Iverilog, &work("unit-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

/// A fault injected into the emitted Verilog of a sub-module (the credit tracker's
/// `credit_avail` becomes `pool >= 0`) is caught at the unit's ports, with both VCDs.
#[test]
fn injected_verilog_fault_in_a_sub_module_is_caught() {
    let p = ReplayUnitParams { warps: 4, slots: 4, simt_width: 4, mshrs: 3, pred_mode: PredictorMode::AlwaysMiss, ..ReplayUnitParams::default() };
    let top = hw(&p);
    let mut files = hw::verilog::emit(&top);
    let sub = p.credit().name();
    let f = files.iter_mut().find(|f| f.module == sub).expect("the tracker is its own Verilog module");
    let needle = "assign credit_avail = ";
    let start = f.text.find(needle).expect("credit_avail assignment");
    let end = start + f.text[start..].find('\n').unwrap();
    let line = f.text[start..end].to_string();
    let sign = p.credit().pool_bits() - 1;
    f.text = f.text.replacen(&line, &format!("assign credit_avail = ~credits[{sign}];"), 1);
    let cfg = TrafficCfg { seed: 3, mem_lat: 40, hit_rate: 0.2, ..TrafficCfg::default() };
    let stim = record(&mut ReplayUnitDriver::new(&p, cfg), 2000);
    let r = cosim(&top, Some(&files), &stim, Simulator::Iverilog, &work("unit-fault")).unwrap();
    let m = r.mismatch.expect("the injected fault must be caught");
    let io = p.decls();
    let ports = [&io.miss_issue_ok, &io.iss_ok, &io.iss_credited, &io.credit_pool];
    assert!(ports.iter().any(|q| q.name == m.mismatch.port), "{m}");
    assert!(m.rust_vcd.exists() && m.rtl_vcd.exists(), "{m}");
}
