//! Affine tuple queue (DAC): the generated hardware against the reference
//! model (arbitrary inputs, driver traffic), the FIFO property on both
//! engines, the same-cycle rule, a corrupted output caught, co-simulation.

use crate::common::{arbitrary_small, driven, engines, matches_model, ports_of, top_of, typed, Corrupt, Ov};
use hw::blocks::dac::atq::AtqParams;
use hw::blocks::dac::tuple::KIND_ADDR;
use hw::iface::InterfaceExt;
use models::dac::atq::Atq;
use models::dac::TupleCmd;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::dac::atq::{check_fifo, AtqDriver};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("entries", 3)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("atq", SMALL), 60, |q| {
        (*q == typed::<AtqParams>("atq", SMALL).decls().enq_tuple).then(crate::common::tuple_value)
    })) {
        prop_assert_eq!(matches_model("atq", SMALL, &stim), Ok(()));
        let ap: AtqParams = typed("atq", SMALL);
        prop_assert!(check_fifo(&mut NetlistSim::new(&top_of("atq", SMALL)), &ap, &stim).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn fifo_property_on_the_model(entries in 1u32..=40, seed in any::<u64>()) {
        let p = AtqParams { entries };
        let stim = Stimulus::record(&mut AtqDriver::new(&p, seed), 4_000);
        let r = check_fifo(&mut Atq::new(&p), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn fifo_on_protocol_traffic() {
    for (ov, seed) in [(&[][..], 1), (&[("entries", 1)][..], 2), (&[("entries", 5)][..], 3)] {
        let p: AtqParams = typed("atq", ov);
        let stim = driven("atq", ov, seed, 20_000);
        let rep = check_fifo(&mut NetlistSim::new(&top_of("atq", ov)), &p, &stim).unwrap();
        assert!(rep.enqueued > 1000 && rep.full_cycles > 100 && rep.refused_by_backpressure > 50, "{rep:?}");
        matches_model("atq", ov, &stim).unwrap();
    }
    for (p, seed) in [(AtqParams::default(), 1), (AtqParams { entries: 1 }, 2), (AtqParams { entries: 5 }, 3)] {
        let stim = Stimulus::record(&mut AtqDriver::new(&p, seed), 30_000);
        let rep = check_fifo(&mut Atq::new(&p), &p, &stim).unwrap();
        println!("ATQ model {p:?}: {rep:?}");
        assert!(rep.enqueued > 2000 && rep.full_cycles > 500 && rep.refused_by_backpressure > 100, "{rep:?}");
    }
}

/// §4.1: an enq into a full ATQ is refused even when the head leaves in the
/// same cycle (ready comes from the registered count); the deq happens.
#[test]
fn full_queue_refuses_enq_even_with_deq() {
    let p = AtqParams { entries: 2 };
    for mut q in engines("atq", &[("entries", 2)]) {
        let q = q.as_mut();
        let io = p.bind(q).unwrap();
        q.set_bool(io.rst, true);
        q.step();
        q.set_bool(io.rst, false);
        q.set_bool(io.enq_valid, true);
        q.set(io.enq_tuple, &TupleCmd { kind: KIND_ADDR, ..Default::default() }.pack());
        q.step();
        q.step();
        q.set_bool(io.deq, true);
        q.eval();
        assert!(!q.get_bool(io.enq_ready_addr));
        q.tick();
        q.eval();
        assert_eq!(q.get_u64(io.count), 1);
    }
}

/// The FIFO property rejects a queue whose `enq_ready_addr` is flipped once.
#[test]
fn fifo_property_rejects_a_corrupted_ready() {
    let p = AtqParams::default();
    let stim = Stimulus::record(&mut AtqDriver::new(&p, 1), 5_000);
    let ready = p.ids().enq_ready_addr;
    let mut d = Corrupt::new(Box::new(Atq::new(&p)), ready, 200, move |a: &dyn Component| Some(vec![a.get_u64(ready) ^ 1]));
    assert!(check_fifo(&mut d, &p, &stim).is_err());
}

cosim_tests!("atq", seed 2026, small SMALL, and_model);
