//! MSHR predictor (replay family): the generated hardware against the
//! reference model (arbitrary inputs, driver traffic), the prediction
//! property on both engines, the counter sequence as a directed test,
//! co-simulation (the counter mode too).

use crate::common::{arbitrary_any, record, same, verilator_100k, work};
use hw::blocks::replay::mshr_predictor::{MshrPredictorParams, PredictorMode};
use hw::iface::InterfaceExt;
use hw::Block;
use models::replay::mshr_predictor::MshrPredictor;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::cosim::{cosim, Simulator};
use verif::replay::mshr_predictor::{check_predictions, MshrPredictorDriver};

fn params() -> impl Strategy<Value = MshrPredictorParams> {
    (0u32..=2, 0u32..=3, 1u32..=3, 1u32..=4).prop_map(|(mode, log, counter_bits, pc_bits)| MshrPredictorParams {
        mode: PredictorMode::from_u32(mode).unwrap(),
        entries: 1 << log,
        counter_bits,
        pc_bits,
    })
}

#[test]
fn hardware_ports_equal_model_ports() {
    for mode in [PredictorMode::AlwaysHit, PredictorMode::AlwaysMiss, PredictorMode::Counter] {
        let p = MshrPredictorParams { mode, ..MshrPredictorParams::default() };
        assert_eq!(NetlistSim::new(&p.elaborate().unwrap()).ports(), MshrPredictor::new(&p).ports());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in params().prop_flat_map(|p| (Just(p.clone()), arbitrary_any(&p.ports(), 80)))) {
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut MshrPredictor::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Protocol traffic (trained counters), netlist vs reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), p in params()) {
        let s = record(&mut MshrPredictorDriver::new(&p, seed), 4000);
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut MshrPredictor::new(&p), &s), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn predictions_follow_history_on_the_hardware(seed in any::<u64>(), p in params()) {
        let stim = record(&mut MshrPredictorDriver::new(&p, seed), 1000);
        prop_assert_eq!(check_predictions(&mut NetlistSim::new(&p.elaborate().unwrap()), &p, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn predictions_follow_history_on_the_model(seed in any::<u64>(), mode in 0u32..=2, log in 0u32..=6, bits in 1u32..=4, pc_bits in 1u32..=64) {
        let p = MshrPredictorParams { mode: PredictorMode::from_u32(mode).unwrap(), entries: 1 << log, counter_bits: bits, pc_bits };
        let stim = record(&mut MshrPredictorDriver::new(&p, seed), 1500);
        prop_assert_eq!(check_predictions(&mut MshrPredictor::new(&p), &p, &stim), Ok(()));
    }
}

/// Both engines of `p`, each with a cycle function: (pc, known, upd (pc,
/// miss)) -> pred_miss.
fn engines(p: &MshrPredictorParams) -> Vec<Box<dyn Component>> {
    vec![Box::new(NetlistSim::new(&p.elaborate().unwrap())), Box::new(MshrPredictor::new(p))]
}

fn cyc(p: &MshrPredictorParams, m: &mut dyn Component, pc: u64, known: bool, upd: Option<(u64, bool)>) -> bool {
    let io = p.bind(m).unwrap();
    m.set_u64(io.pc, pc);
    m.set_u64(io.known_miss, known as u64);
    m.set_u64(io.upd_valid, upd.is_some() as u64);
    m.set_u64(io.upd_pc, upd.map(|u| u.0).unwrap_or(0));
    m.set_u64(io.upd_miss, upd.map(|u| u.1 as u64).unwrap_or(0));
    m.eval();
    let r = m.get_bool(io.pred_miss);
    m.tick();
    r
}

#[test]
fn two_bit_counter_sequence() {
    let p = MshrPredictorParams { mode: PredictorMode::Counter, entries: 4, counter_bits: 2, pc_bits: 32 };
    for mut m in engines(&p) {
        let m = m.as_mut();
        verif::poke::reset(m);
        // Reset value 1 (weakly hit). Same-cycle update is not bypassed.
        assert!(!cyc(&p, m, 5, false, Some((5, true)))); // 1 -> 2
        assert!(cyc(&p, m, 5, false, Some((5, true)))); // 2 -> 3
        assert!(cyc(&p, m, 5, false, Some((5, true)))); // saturates at 3
        assert!(cyc(&p, m, 1, false, Some((1, false)))); // pc 1 aliases pc 5 (4 entries): 3 -> 2
        assert!(cyc(&p, m, 5, false, Some((5, false)))); // 2 -> 1
        assert!(!cyc(&p, m, 5, false, Some((5, false)))); // 1 -> 0
        assert!(!cyc(&p, m, 5, false, Some((5, false)))); // stays 0
        assert!(cyc(&p, m, 5, true, None)); // known miss overrides
        assert!(!cyc(&p, m, 6, false, None)); // untouched entry: weakly hit
    }
}

#[test]
fn static_modes() {
    for (mode, want) in [(PredictorMode::AlwaysHit, [false, true]), (PredictorMode::AlwaysMiss, [true, true])] {
        let p = MshrPredictorParams { mode, ..MshrPredictorParams::default() };
        for mut m in engines(&p) {
            let m = m.as_mut();
            verif::poke::clear_inputs(m);
            assert_eq!(cyc(&p, m, 9, false, Some((9, true))), want[0]);
            assert_eq!(cyc(&p, m, 9, true, None), want[1]);
        }
    }
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("mshr_predictor", 2030);
}

/// The counter mode, which the defaults leave out (Verilator, 20k cycles).
#[test]
fn verilator_cosim_counter_mode() {
    let pr = MshrPredictorParams { mode: PredictorMode::Counter, ..MshrPredictorParams::default() };
    let stim = record(&mut MshrPredictorDriver::new(&pr, 5), 20_000);
    let r = cosim(&pr.elaborate().unwrap(), None, &stim, Simulator::Verilator, &work("pred-counter")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}
