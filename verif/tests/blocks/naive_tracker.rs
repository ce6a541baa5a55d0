//! Naive tracker (replay family): the generated hardware against the
//! reference model (arbitrary inputs), the delay property on both engines,
//! co-simulation.

use crate::common::{arbitrary_any, record, same, verilator_100k, work};
use hw::blocks::replay::naive_tracker::NaiveTrackerParams;
use hw::iface::InterfaceExt;
use hw::Block;
use models::replay::naive_tracker::NaiveTracker;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::cosim::{cosim, Simulator};
use verif::replay::naive_tracker::{check_delay, NaiveTrackerDriver};

#[test]
fn hardware_ports_equal_model_ports() {
    for delay in [0, 1, 4] {
        let p = NaiveTrackerParams { delay };
        assert_eq!(NetlistSim::new(&p.elaborate().unwrap()).ports(), NaiveTracker::new(&p).ports());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in (0u32..=4).prop_flat_map(|delay| {
        let p = NaiveTrackerParams { delay };
        (Just(p.clone()), arbitrary_any(&p.ports(), 60))
    })) {
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut NaiveTracker::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn delay_property_on_the_hardware(seed in any::<u64>(), delay in 0u32..=6) {
        let p = NaiveTrackerParams { delay };
        let stim = record(&mut NaiveTrackerDriver::new(&p, seed), 1000);
        prop_assert_eq!(check_delay(&mut NetlistSim::new(&p.elaborate().unwrap()), &p, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn delay_property_on_the_model(seed in any::<u64>(), delay in 0u32..=16) {
        let p = NaiveTrackerParams { delay };
        let stim = record(&mut NaiveTrackerDriver::new(&p, seed), 2000);
        prop_assert_eq!(check_delay(&mut NaiveTracker::new(&p), &p, &stim), Ok(()));
    }
}

#[test]
fn delay_zero_is_a_wire() {
    let p = NaiveTrackerParams { delay: 0 };
    let engines: Vec<Box<dyn Component>> = vec![Box::new(NetlistSim::new(&p.elaborate().unwrap())), Box::new(NaiveTracker::new(&p))];
    for mut m in engines {
        assert_eq!(m.ports().len(), 2, "no state, no rst");
        let io = p.bind(m.as_ref()).unwrap();
        assert!(io.rst.is_none());
        m.set_u64(io.mshr_avail, 0);
        m.eval();
        assert!(!m.get_bool(io.miss_issue_ok));
        m.set_u64(io.mshr_avail, 1);
        m.eval();
        assert!(m.get_bool(io.miss_issue_ok));
    }
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("naive_tracker", 2029);
}

#[test]
fn iverilog_cosim_second_opinion() {
    let nt = NaiveTrackerParams { delay: 3 };
    let stim = record(&mut NaiveTrackerDriver::new(&nt, 4), 3000);
    let r = cosim(&nt.elaborate().unwrap(), None, &stim, Simulator::Iverilog, &work("naive-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}
