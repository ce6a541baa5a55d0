//! Replay family (Turner, MASc thesis, UBC 2012, chapters 5-6): the generated hardware of
//! `warp_buffer`, `mshr_table`, `credit_tracker`, `naive_tracker`, `mshr_predictor` and
//! `replay_unit` against the reference models (proptest, shrinking), the phase-1 property
//! checks and the Figure 5.4 golden test run on the netlist simulation, the traffic
//! harness on the composed unit's netlist, and co-simulation of the emitted Verilog
//! (Verilator at the paper's defaults for 100,000 cycles per block, iverilog as a second
//! opinion, an injected fault).

use hw::blocks::replay::credit_tracker::{CreditTrackerParams};
use hw::blocks::replay::mshr_predictor::{MshrPredictorParams, PredictorMode};
use hw::blocks::replay::mshr_table::{MshrTableParams};
use hw::blocks::replay::naive_tracker::{NaiveTrackerParams};
use hw::blocks::replay::replay_unit::{ReplayUnitParams, TrackerKind};
use hw::blocks::replay::warp_buffer::{WarpBufferParams};
use hw::ir::Module;
use hw::Block;
use proptest::prelude::*;
use sim::{Component, NetlistSim, PortSpec};
use std::path::PathBuf;
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::models::replay as models;
use verif::models::replay::traffic::{self, TrafficCfg};
use verif::run::{first_mismatch, run};
use verif::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};

fn work(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn wb_hw(p: &WarpBufferParams) -> Arc<Module> {
    p.elaborate().unwrap()
}
fn mshr_hw(p: &MshrTableParams) -> Arc<Module> {
    p.elaborate().unwrap()
}
fn credit_hw(p: &CreditTrackerParams) -> Arc<Module> {
    p.elaborate().unwrap()
}
fn naive_hw(p: &NaiveTrackerParams) -> Arc<Module> {
    p.elaborate().unwrap()
}
fn pred_hw(p: &MshrPredictorParams) -> Arc<Module> {
    p.elaborate().unwrap()
}
fn unit_hw(p: &ReplayUnitParams) -> Arc<Module> {
    p.elaborate().unwrap()
}

/// The netlist simulation and the reference model give the same outputs on every cycle.
fn same(top: &Arc<Module>, model: &mut dyn Component, stim: &Stimulus) -> Result<(), String> {
    let hw_out = run(&mut NetlistSim::new(top), stim)?;
    let ref_out = run(model, stim)?;
    match first_mismatch(&ref_out, &hw_out) {
        None => Ok(()),
        Some(m) => Err(format!("{}: {m}", top.name)),
    }
}

/// Arbitrary stimulus for `ports`: every input uniformly random (1-bit inputs set 40% of
/// the time), `rst` only now and then, so shrinking finds minimal failing sequences.
fn arbitrary(ports: Vec<PortSpec>, max_cycles: usize) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(&ports);
    let frame = layout
        .ports()
        .iter()
        .map(|q| {
            let w = q.width;
            if w == 1 {
                prop_oneof![3 => Just(0u64), 2 => Just(1u64)].boxed()
            } else {
                any::<u64>().prop_map(move |v| if w >= 64 { v } else { v & ((1u64 << w) - 1) }).boxed()
            }
        })
        .collect::<Vec<_>>();
    prop::collection::vec(frame, 1..max_cycles).prop_map(move |cycles| {
        let mut s = Stimulus::new(layout.clone());
        let mut f = Frame::new(layout.clone());
        for (c, values) in cycles.iter().enumerate() {
            for (k, &v) in values.iter().enumerate() {
                let is_rst = layout.ports()[k].name == "rst";
                f.set(Slot(k), if is_rst { (v & 1 == 1 && c % 11 == 10) as u64 } else { v });
            }
            s.push(&f);
        }
        s
    })
}

fn record(d: &mut dyn Driver, cycles: u64) -> Stimulus {
    Stimulus::record(d, cycles)
}

// ---------------------------------------------------------------------------------------
// Parameter strategies (small sizes: conflicts are frequent, elaboration is cheap).
// ---------------------------------------------------------------------------------------

fn wb_params() -> impl Strategy<Value = WarpBufferParams> {
    (1u32..=3, 1u32..=6).prop_map(|(log, w)| WarpBufferParams { slots: 1 << log, simt_width: w })
}

fn mshr_params() -> impl Strategy<Value = MshrTableParams> {
    (1u32..=6, 1u32..=4, 1u32..=3, 1u32..=4).prop_map(|(entries, merge_limit, line_bits, id_bits)| MshrTableParams {
        entries,
        merge_limit,
        line_bits,
        id_bits,
    })
}

fn credit_params() -> impl Strategy<Value = CreditTrackerParams> {
    (1u32..=6, 0u32..=3).prop_map(|(mshrs, delay)| CreditTrackerParams { mshrs, delay })
}

fn pred_params() -> impl Strategy<Value = MshrPredictorParams> {
    (0u32..=2, 0u32..=3, 1u32..=3, 1u32..=4).prop_map(|(mode, log, counter_bits, pc_bits)| MshrPredictorParams {
        mode: PredictorMode::from_u32(mode).unwrap(),
        entries: 1 << log,
        counter_bits,
        pc_bits,
    })
}

fn unit_params() -> impl Strategy<Value = ReplayUnitParams> {
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
    let wb = [WarpBufferParams::default(), WarpBufferParams { slots: 2, simt_width: 1 }];
    for p in wb {
        assert_eq!(NetlistSim::new(&wb_hw(&p)).ports(), models::warp_buffer::ports(&p).as_slice());
    }
    for p in [MshrTableParams::default(), MshrTableParams { entries: 5, merge_limit: 1, line_bits: 3, id_bits: 2 }] {
        assert_eq!(NetlistSim::new(&mshr_hw(&p)).ports(), models::mshr_table::ports(&p).as_slice());
    }
    for p in [CreditTrackerParams::default(), CreditTrackerParams { mshrs: 5, delay: 3 }] {
        assert_eq!(NetlistSim::new(&credit_hw(&p)).ports(), models::credit_tracker::ports(&p).as_slice());
    }
    for delay in [0, 1, 4] {
        let p = NaiveTrackerParams { delay };
        assert_eq!(NetlistSim::new(&naive_hw(&p)).ports(), models::naive_tracker::ports(&p).as_slice());
    }
    for mode in [PredictorMode::AlwaysHit, PredictorMode::AlwaysMiss, PredictorMode::Counter] {
        let p = MshrPredictorParams { mode, ..MshrPredictorParams::default() };
        assert_eq!(NetlistSim::new(&pred_hw(&p)).ports(), models::mshr_predictor::ports(&p).as_slice());
    }
    for p in [ReplayUnitParams::default(), ReplayUnitParams { warps: 3, tracker: TrackerKind::Naive, ..ReplayUnitParams::default() }] {
        assert_eq!(NetlistSim::new(&unit_hw(&p)).ports(), models::replay_unit::ports(&p).as_slice());
    }
}

/// The composed unit is a real hierarchy: one warp-buffer instance per warp, the
/// predictor and the tracker, each the block's own generator output.
#[test]
fn replay_unit_instantiates_the_sub_blocks() {
    let p = ReplayUnitParams::default();
    let top = unit_hw(&p);
    let names: Vec<(&str, &str)> = top.instances.iter().map(|i| (i.name.as_str(), i.module.name.as_str())).collect();
    assert_eq!(names.iter().filter(|(_, m)| *m == "warp_buffer").count(), 64);
    assert!(names.contains(&("predictor", "mshr_predictor")));
    assert!(names.contains(&("tracker", "credit_tracker")));
    let naive = unit_hw(&ReplayUnitParams { tracker: TrackerKind::Naive, delay: 2, pred_mode: PredictorMode::Counter, ..p.clone() });
    let names: Vec<&str> = naive.instances.iter().map(|i| i.module.name.as_str()).collect();
    assert!(names.contains(&"naive_tracker_delay2") && names.contains(&"mshr_predictor_mode2"));
    let none = unit_hw(&ReplayUnitParams { tracker: TrackerKind::None, ..p });
    assert!(!none.instances.iter().any(|i| i.name == "tracker"));
    // Storage: the sub-blocks' bits plus the known-miss bits, as the spec counts them.
    let st = hw::stats::Storage::of(&top);
    assert_eq!(st.total_bits() as i64, ReplayUnitParams::default().storage().expected_bits());
    assert_eq!(st.bits_under("known_miss"), 64 * 8);
}

// ---------------------------------------------------------------------------------------
// Netlist == reference model, arbitrary inputs (shrinking) and protocol traffic.
// ---------------------------------------------------------------------------------------

fn wb_case() -> impl Strategy<Value = (WarpBufferParams, Stimulus)> {
    wb_params().prop_flat_map(|p| (Just(p.clone()), arbitrary(models::warp_buffer::ports(&p), 120)))
}
fn mshr_case() -> impl Strategy<Value = (MshrTableParams, Stimulus)> {
    mshr_params().prop_flat_map(|p| (Just(p.clone()), arbitrary(models::mshr_table::ports(&p), 120)))
}
fn credit_case() -> impl Strategy<Value = (CreditTrackerParams, Stimulus)> {
    credit_params().prop_flat_map(|p| (Just(p.clone()), arbitrary(models::credit_tracker::ports(&p), 80)))
}
fn naive_case() -> impl Strategy<Value = (NaiveTrackerParams, Stimulus)> {
    (0u32..=4).prop_flat_map(|delay| {
        let p = NaiveTrackerParams { delay };
        (Just(p.clone()), arbitrary(models::naive_tracker::ports(&p), 60))
    })
}
fn pred_case() -> impl Strategy<Value = (MshrPredictorParams, Stimulus)> {
    pred_params().prop_flat_map(|p| (Just(p.clone()), arbitrary(models::mshr_predictor::ports(&p), 80)))
}
fn unit_case() -> impl Strategy<Value = (ReplayUnitParams, Stimulus)> {
    unit_params().prop_flat_map(|p| (Just(p.clone()), arbitrary(models::replay_unit::ports(&p), 120)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn warp_buffer_hardware_matches_reference((p, stim) in wb_case()) {
        prop_assert_eq!(same(&wb_hw(&p), &mut models::warp_buffer::WarpBuffer::new(&p), &stim), Ok(()));
    }

    #[test]
    fn mshr_table_hardware_matches_reference((p, stim) in mshr_case()) {
        prop_assert_eq!(same(&mshr_hw(&p), &mut models::mshr_table::MshrTable::new(&p), &stim), Ok(()));
    }

    #[test]
    fn credit_tracker_hardware_matches_reference((p, stim) in credit_case()) {
        prop_assert_eq!(same(&credit_hw(&p), &mut models::credit_tracker::CreditTracker::new(&p), &stim), Ok(()));
    }

    #[test]
    fn naive_tracker_hardware_matches_reference((p, stim) in naive_case()) {
        prop_assert_eq!(same(&naive_hw(&p), &mut models::naive_tracker::NaiveTracker::new(&p), &stim), Ok(()));
    }

    #[test]
    fn mshr_predictor_hardware_matches_reference((p, stim) in pred_case()) {
        prop_assert_eq!(same(&pred_hw(&p), &mut models::mshr_predictor::MshrPredictor::new(&p), &stim), Ok(()));
    }

    #[test]
    fn replay_unit_hardware_matches_reference((p, stim) in unit_case()) {
        prop_assert_eq!(same(&unit_hw(&p), &mut models::replay_unit::ReplayUnit::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Protocol traffic from the drivers (deep states: full buffers, merges up to the
    /// limit, negative credit pools, trained counters), netlist vs reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), wb in wb_params(), mt in mshr_params(),
                                                    ct in credit_params(), pr in pred_params(), unit in unit_params()) {
        use models::*;
        let s = record(&mut warp_buffer::WarpBufferDriver::new(&wb, seed), 4000);
        prop_assert_eq!(same(&wb_hw(&wb), &mut warp_buffer::WarpBuffer::new(&wb), &s), Ok(()));
        let s = record(&mut mshr_table::MshrTableDriver::new(&mt, seed), 4000);
        prop_assert_eq!(same(&mshr_hw(&mt), &mut mshr_table::MshrTable::new(&mt), &s), Ok(()));
        let s = record(&mut credit_tracker::CreditTrackerDriver::new(&ct, seed), 4000);
        prop_assert_eq!(same(&credit_hw(&ct), &mut credit_tracker::CreditTracker::new(&ct), &s), Ok(()));
        let s = record(&mut mshr_predictor::MshrPredictorDriver::new(&pr, seed), 4000);
        prop_assert_eq!(same(&pred_hw(&pr), &mut mshr_predictor::MshrPredictor::new(&pr), &s), Ok(()));
        let cfg = TrafficCfg { seed, mem_lat: 30, lines: 16, prog_len: 12, div_rate: 0.2, ..TrafficCfg::default() };
        let s = record(&mut replay_unit::ReplayUnitDriver::new(&unit, cfg), 4000);
        prop_assert_eq!(same(&unit_hw(&unit), &mut replay_unit::ReplayUnit::new(&unit), &s), Ok(()));
    }
}

// ---------------------------------------------------------------------------------------
// Phase-1 property checks and golden tests, on the netlist simulation.
// ---------------------------------------------------------------------------------------

#[test]
fn figure_5_4_golden_on_the_hardware() {
    let p = WarpBufferParams { slots: 4, simt_width: 4 };
    models::warp_buffer::figure_5_4(&mut NetlistSim::new(&wb_hw(&p))).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn warp_buffer_properties_on_the_hardware(seed in any::<u64>(), p in wb_params()) {
        let top = wb_hw(&p);
        let stim = record(&mut models::warp_buffer::WarpBufferDriver::new(&p, seed), 3000);
        prop_assert_eq!(models::warp_buffer::check_against_shadow(&mut NetlistSim::new(&top), &p, &stim), Ok(()));
        let st = models::warp_buffer::check_properties(&mut NetlistSim::new(&top), &p, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        prop_assert!(st.unwrap().completions > 0);
    }

    #[test]
    fn mshr_table_properties_on_the_hardware(seed in any::<u64>(), p in mshr_params()) {
        let top = mshr_hw(&p);
        let stim = record(&mut models::mshr_table::MshrTableDriver::new(&p, seed), 3000);
        prop_assert_eq!(models::mshr_table::check_against_shadow(&mut NetlistSim::new(&top), &p, &stim), Ok(()));
        let st = models::mshr_table::check_properties(&mut NetlistSim::new(&top), &p, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        prop_assert!(st.unwrap().woken > 0);
    }

    #[test]
    fn credit_tracker_properties_on_the_hardware(seed in any::<u64>(), p in credit_params(), miss in 0u32..=2, hit in 0u32..=2) {
        use models::credit_tracker::{check_credit_properties, EnvCfg};
        let cfg = EnvCfg { p_pred_miss: [0.0, 0.5, 1.0][miss as usize], p_hit: [0.0, 0.4, 0.9][hit as usize], ..EnvCfg::default() };
        let st = check_credit_properties(&mut NetlistSim::new(&credit_hw(&p)), &p, cfg, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        if miss == 2 {
            // Every load credited: a credited load always finds a free MSHR.
            prop_assert_eq!(st.unwrap().credited_without_mshr, 0);
        }
    }

    #[test]
    fn naive_tracker_and_predictor_properties_on_the_hardware(seed in any::<u64>(), delay in 0u32..=6, pr in pred_params()) {
        let p = NaiveTrackerParams { delay };
        let stim = record(&mut models::naive_tracker::NaiveTrackerDriver::new(&p, seed), 1000);
        prop_assert_eq!(models::naive_tracker::check_delay(&mut NetlistSim::new(&naive_hw(&p)), &p, &stim), Ok(()));
        let stim = record(&mut models::mshr_predictor::MshrPredictorDriver::new(&pr, seed), 1000);
        prop_assert_eq!(models::mshr_predictor::check_predictions(&mut NetlistSim::new(&pred_hw(&pr)), &pr, &stim), Ok(()));
    }

    /// The traffic harness's checks on the composed hardware: legal completions
    /// accepted, replays carry exactly the pending threads, fills never overwrite a live
    /// slot, offers name filled slots, the credit accounting invariant on every cycle;
    /// with the credit tracker and always-miss prediction no credited load meets a full
    /// MSHR table.
    #[test]
    fn replay_unit_properties_on_the_hardware(seed in any::<u64>(), p in unit_params(), hit in 0.0f64..=1.0, pipe in 1u32..=8) {
        let c = TrafficCfg { seed, hit_rate: hit, pipe, mem_lat: 40, div_rate: 0.2, lines: 64, prog_len: 12, ..TrafficCfg::default() };
        let st = traffic::run(&mut NetlistSim::new(&unit_hw(&p)), &p, c, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        let st = st.unwrap();
        prop_assert!(st.loads_done > 0 || st.load_issues == 0);
        if p.tracker == TrackerKind::Credit && p.pred_mode == PredictorMode::AlwaysMiss {
            prop_assert_eq!(st.credited_without_mshr, 0);
            prop_assert_eq!(st.full_hazards, 0);
        }
    }
}

#[test]
fn replay_unit_directed_scenarios_on_the_hardware() {
    use models::replay_unit::*;
    credit_scenario(&mut NetlistSim::new(&unit_hw(&credit_scenario_params()))).unwrap();
    out_of_range_scenario(&mut NetlistSim::new(&unit_hw(&out_of_range_params()))).unwrap();
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

// ---------------------------------------------------------------------------------------
// Co-simulation of the emitted Verilog.
// ---------------------------------------------------------------------------------------

/// Verilator, 100,000 driver cycles at the block's paper defaults (the registry's
/// module, as `warpforge` emits it).
fn verilator_100k(block: &str, seed: u64) {
    let info = hw::registry::find(block).unwrap();
    let p = info.default_params();
    let top = info.elaborate(&p).unwrap();
    let v = verif::registry::find(block).unwrap();
    let stim = Stimulus::record((v.driver)(&p, seed).unwrap().as_mut(), 100_000);
    let t = std::time::Instant::now();
    let r = cosim(&top, None, &stim, Simulator::Verilator, &work(&format!("{block}-verilator"))).unwrap();
    println!("{block}: 100k cycles co-simulated in {:.1} s (harness built: {})", t.elapsed().as_secs_f64(), r.built);
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!(r.cycles, 100_000);
}

#[test]
fn verilator_cosim_100k_warp_buffer() {
    verilator_100k("warp_buffer", 2026);
}

#[test]
fn verilator_cosim_100k_mshr_table() {
    verilator_100k("mshr_table", 2027);
}

#[test]
fn verilator_cosim_100k_credit_tracker() {
    verilator_100k("credit_tracker", 2028);
}

#[test]
fn verilator_cosim_100k_naive_tracker() {
    verilator_100k("naive_tracker", 2029);
}

#[test]
fn verilator_cosim_100k_mshr_predictor() {
    verilator_100k("mshr_predictor", 2030);
}

#[test]
fn verilator_cosim_100k_replay_unit() {
    verilator_100k("replay_unit", 2031);
}

/// The stateful variants the defaults leave out: the counter predictor, delayed
/// trackers, and a unit with the naive tracker and counters (Verilator, 20k cycles).
#[test]
fn verilator_cosim_non_default_variants() {
    let stim_of = |d: &mut dyn Driver| Stimulus::record(d, 20_000);
    let pr = MshrPredictorParams { mode: PredictorMode::Counter, ..MshrPredictorParams::default() };
    let stim = stim_of(&mut models::mshr_predictor::MshrPredictorDriver::new(&pr, 5));
    let r = cosim(&pred_hw(&pr), None, &stim, Simulator::Verilator, &work("pred-counter")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    let unit = ReplayUnitParams {
        warps: 12,
        tracker: TrackerKind::Naive,
        delay: 3,
        pred_mode: PredictorMode::Counter,
        pred_entries: 64,
        ..ReplayUnitParams::default()
    };
    let cfg = TrafficCfg { seed: 9, mem_lat: 80, ..TrafficCfg::default() };
    let stim = stim_of(&mut models::replay_unit::ReplayUnitDriver::new(&unit, cfg));
    let r = cosim(&unit_hw(&unit), None, &stim, Simulator::Verilator, &work("unit-naive")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

#[test]
fn iverilog_cosim_second_opinion() {
    let wb = WarpBufferParams { slots: 4, simt_width: 5 };
    let stim = record(&mut models::warp_buffer::WarpBufferDriver::new(&wb, 1), 3000);
    let r = cosim(&wb_hw(&wb), None, &stim, Simulator::Iverilog, &work("wb-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    let mt = MshrTableParams { entries: 6, merge_limit: 3, line_bits: 4, id_bits: 5 };
    let stim = record(&mut models::mshr_table::MshrTableDriver::new(&mt, 2), 3000);
    let r = cosim(&mshr_hw(&mt), None, &stim, Simulator::Iverilog, &work("mshr-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    let ct = CreditTrackerParams { mshrs: 4, delay: 2 };
    let stim = record(&mut models::credit_tracker::CreditTrackerDriver::new(&ct, 3), 3000);
    let r = cosim(&credit_hw(&ct), None, &stim, Simulator::Iverilog, &work("credit-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    let nt = NaiveTrackerParams { delay: 3 };
    let stim = record(&mut models::naive_tracker::NaiveTrackerDriver::new(&nt, 4), 3000);
    let r = cosim(&naive_hw(&nt), None, &stim, Simulator::Iverilog, &work("naive-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
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
    let stim = record(&mut models::replay_unit::ReplayUnitDriver::new(&unit, cfg), 3000);
    let r = cosim(&unit_hw(&unit), None, &stim, Simulator::Iverilog, &work("unit-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}

/// A fault injected into the emitted Verilog of a sub-module (the credit tracker's
/// `credit_avail` becomes `pool >= 0`) is caught at the unit's ports, with both VCDs.
#[test]
fn injected_verilog_fault_in_a_sub_module_is_caught() {
    let p = ReplayUnitParams { warps: 4, slots: 4, simt_width: 4, mshrs: 3, pred_mode: PredictorMode::AlwaysMiss, ..ReplayUnitParams::default() };
    let top = unit_hw(&p);
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
    let stim = record(&mut models::replay_unit::ReplayUnitDriver::new(&p, cfg), 2000);
    let r = cosim(&top, Some(&files), &stim, Simulator::Iverilog, &work("unit-fault")).unwrap();
    let m = r.mismatch.expect("the injected fault must be caught");
    assert!(["miss_issue_ok", "iss_ok", "iss_credited", "credit_pool"].contains(&m.mismatch.port.as_str()), "{m}");
    assert!(m.rust_vcd.exists() && m.rtl_vcd.exists(), "{m}");
}

