//! Credit tracker (replay family): the generated hardware against the
//! reference model (arbitrary inputs, driver traffic), the credit properties
//! in a small load/MSHR environment on both engines, §6.0.1's scenarios as
//! directed tests, co-simulation.

use crate::common::{arbitrary_any, record, same, verilator_100k, work};
use hw::blocks::replay::credit_tracker::CreditTrackerParams;
use hw::iface::InterfaceExt;
use hw::Block;
use models::replay::credit_tracker::{signed, CreditIn, CreditTracker};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::cosim::{cosim, Simulator};
use verif::replay::credit_tracker::{check_credit_properties, CreditTrackerDriver, EnvCfg};
use verif::stimulus::Stimulus;

fn params() -> impl Strategy<Value = CreditTrackerParams> {
    (1u32..=6, 0u32..=3).prop_map(|(mshrs, delay)| CreditTrackerParams { mshrs, delay })
}

#[test]
fn hardware_ports_equal_model_ports() {
    for p in [CreditTrackerParams::default(), CreditTrackerParams { mshrs: 5, delay: 3 }] {
        assert_eq!(NetlistSim::new(&p.elaborate().unwrap()).ports(), CreditTracker::new(&p).ports());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in params().prop_flat_map(|p| (Just(p.clone()), arbitrary_any(&p.ports(), 80)))) {
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut CreditTracker::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Protocol traffic (negative credit pools), netlist vs reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), p in params()) {
        let s = record(&mut CreditTrackerDriver::new(&p, seed), 4000);
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut CreditTracker::new(&p), &s), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn properties_on_the_hardware(seed in any::<u64>(), p in params(), miss in 0u32..=2, hit in 0u32..=2) {
        let cfg = EnvCfg { p_pred_miss: [0.0, 0.5, 1.0][miss as usize], p_hit: [0.0, 0.4, 0.9][hit as usize], ..EnvCfg::default() };
        let st = check_credit_properties(&mut NetlistSim::new(&p.elaborate().unwrap()), &p, cfg, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        if miss == 2 {
            // Every load credited: a credited load always finds a free MSHR.
            prop_assert_eq!(st.unwrap().credited_without_mshr, 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn conservation_on_the_model(seed in any::<u64>(), mshrs in 1u32..=40, delay in 0u32..=6, pipe in 1u32..=10,
                                 pm in 0.0f64..=1.0, hit in 0.0f64..=1.0) {
        let p = CreditTrackerParams { mshrs, delay };
        let cfg = EnvCfg { pipe, p_pred_miss: pm, p_hit: hit, ..EnvCfg::default() };
        let r = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, seed, 3000);
        prop_assert!(r.is_ok(), "{:?}", r);
    }

    #[test]
    fn always_miss_is_hazard_free_on_the_model(seed in any::<u64>(), mshrs in 1u32..=40, pipe in 1u32..=10, hit in 0.0f64..=1.0) {
        let p = CreditTrackerParams { mshrs, delay: 0 };
        let cfg = EnvCfg { pipe, p_load: 1.0, p_pred_miss: 1.0, p_hit: hit, ..EnvCfg::default() };
        let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, seed, 3000).unwrap();
        prop_assert_eq!(st.credited_without_mshr, 0);
    }
}

/// `ins` one per cycle on both engines of `p`: (credit_avail, pool) after each.
fn run(p: &CreditTrackerParams, ins: &[CreditIn]) -> Vec<(bool, i64)> {
    let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&p.elaborate().unwrap())), Box::new(CreditTracker::new(p))];
    let runs: Vec<Vec<(bool, i64)>> = engines
        .into_iter()
        .map(|mut m| {
            let io = p.bind(m.as_ref()).unwrap();
            ins.iter()
                .map(|i| {
                    i.write(&io, |id, v| m.set_u64(id, v));
                    m.eval();
                    let r = (m.get_bool(io.credit_avail), signed(m.get_u64(io.pool), p.pool_bits()));
                    m.tick();
                    r
                })
                .collect()
        })
        .collect();
    assert_eq!(runs[0], runs[1], "netlist vs model");
    runs[1].clone()
}

const RST: CreditIn = CreditIn { rst: true, iss_take: false, mem_valid: false, mem_credited: false, mem_alloc: false, mshr_free: false };

/// §6.0.1's scenario: a credited load's MSHR is taken by an uncredited load,
/// which gets a virtual credit and drives the pool negative; the credited
/// load fails and returns its credit; the MSHR frees.
#[test]
fn virtual_credit_goes_negative_and_recovers() {
    let take = CreditIn { iss_take: true, ..Default::default() };
    let virt = CreditIn { mem_valid: true, mem_alloc: true, ..Default::default() };
    let fail = CreditIn { mem_valid: true, mem_credited: true, ..Default::default() };
    let free = CreditIn { mshr_free: true, ..Default::default() };
    let r = run(&CreditTrackerParams { mshrs: 1, delay: 0 }, &[RST, take, virt, fail, free, CreditIn::default()]);
    let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
    assert_eq!(pools, [1, 1, 0, -1, 0, 1]);
    assert!(!r[3].0);
    assert!(r[5].0);
}

#[test]
fn delay_holds_memory_events_back() {
    let free = CreditIn { mshr_free: true, ..Default::default() };
    let take = CreditIn { iss_take: true, ..Default::default() };
    let idle = CreditIn::default();
    let r = run(&CreditTrackerParams { mshrs: 4, delay: 2 }, &[RST, take, free, idle, idle, idle]);
    let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
    // take lands at the next edge; the free (cycle 2) lands at the edge of cycle 4.
    assert_eq!(pools, [4, 4, 3, 3, 3, 4]);
}

#[test]
fn credited_hit_returns_credited_miss_keeps() {
    let take = CreditIn { iss_take: true, ..Default::default() };
    let hit = CreditIn { mem_valid: true, mem_credited: true, ..Default::default() };
    let miss = CreditIn { mem_valid: true, mem_credited: true, mem_alloc: true, ..Default::default() };
    let uncredited_hit = CreditIn { mem_valid: true, ..Default::default() };
    let r = run(&CreditTrackerParams { mshrs: 2, delay: 0 }, &[RST, take, take, hit, miss, uncredited_hit, CreditIn::default()]);
    let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
    assert_eq!(pools, [2, 2, 1, 0, 1, 1, 1]);
}

#[test]
fn invariant_holds_with_mixed_predictions() {
    for delay in 0..4 {
        let p = CreditTrackerParams { mshrs: 8, delay };
        let cfg = EnvCfg { p_pred_miss: 0.5, p_hit: 0.3, ..EnvCfg::default() };
        let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, delay as u64, 20_000).unwrap();
        assert!(st.negative_cycles > 0 && st.hazards > 0, "delay {delay}: {st:?}");
    }
}

/// The property: delay 0 and an always-miss predictor: no load
/// reaches the memory stage without an MSHR to take (shown for larger delays
/// too).
#[test]
fn always_miss_never_meets_a_full_table() {
    for delay in 0..4 {
        let p = CreditTrackerParams { mshrs: 8, delay };
        let cfg = EnvCfg { p_load: 1.0, p_pred_miss: 1.0, p_hit: 0.2, ..EnvCfg::default() };
        let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, 9, 20_000).unwrap();
        assert_eq!(st.credited_without_mshr, 0, "delay {delay}");
        assert_eq!(st.hazards, 0);
        assert!(st.takes > 1000);
    }
}

#[test]
fn driver_stimulus_runs_and_stays_in_range() {
    let p = CreditTrackerParams::default();
    let stim = Stimulus::record(&mut CreditTrackerDriver::new(&p, 5), 20_000);
    let mut m = CreditTracker::new(&p);
    verif::run::check_inputs(&m, stim.layout()).unwrap();
    let pool = p.bind(&m).unwrap().pool;
    let mut lo = i64::MAX;
    for c in 0..stim.cycles() {
        m.set_inputs(stim.cycle(c));
        m.eval();
        lo = lo.min(signed(m.get_u64(pool), p.pool_bits()));
        m.tick();
    }
    assert!(lo < 0 && lo >= -(p.mshrs as i64) - 64, "lowest pool {lo}");
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("credit_tracker", 2028);
}

#[test]
fn iverilog_cosim_second_opinion() {
    let ct = CreditTrackerParams { mshrs: 4, delay: 2 };
    let stim = record(&mut CreditTrackerDriver::new(&ct, 3), 3000);
    let r = cosim(&ct.elaborate().unwrap(), None, &stim, Simulator::Iverilog, &work("credit-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}
