//! Per-warp address queue (DAC): the generated hardware against the reference
//! model (arbitrary inputs, driver traffic), the per-partition FIFO property
//! on both engines, a corrupted output caught, co-simulation.

use crate::common::{arbitrary_small, driven, matches_model, ports_of, top_of, typed, Corrupt, Ov};
use hw::blocks::dac::pwaq::PwaqParams;
use models::dac::pwaq::PerWarpQueue;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::dac::pwaq::{check_queues, QueueDriver};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 3), ("entries", 6)];

fn model(p: &PwaqParams) -> PerWarpQueue {
    PerWarpQueue::new(p, p.shape())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("pwaq", SMALL), 60, |_| None)) {
        prop_assert_eq!(matches_model("pwaq", SMALL, &stim), Ok(()));
        let p: PwaqParams = typed("pwaq", SMALL);
        prop_assert!(check_queues(&mut NetlistSim::new(&top_of("pwaq", SMALL)), &p, &p.shape(), &stim).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn partitions_on_the_model(warps in 1u32..=64, depth in 1u32..=8, seed in any::<u64>()) {
        let p = PwaqParams { warps, entries: warps * depth };
        let stim = Stimulus::record(&mut QueueDriver::new(&p, p.shape(), seed), 4_000);
        let r = check_queues(&mut model(&p), &p, &p.shape(), &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn partitions_behave_as_fifos() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 3), ("entries", 21)][..], 2), (&[("warps", 64), ("entries", 64)][..], 3)] {
        let p: PwaqParams = typed("pwaq", ov);
        let stim = driven("pwaq", ov, seed, 20_000);
        let rep = check_queues(&mut NetlistSim::new(&top_of("pwaq", ov)), &p, &p.shape(), &stim).unwrap();
        assert!(rep.refused_full > 50 && rep.deq_of_empty > 50, "{rep:?}");
        matches_model("pwaq", ov, &stim).unwrap();
    }
    for (p, seed) in [
        (PwaqParams::default(), 1),
        (PwaqParams { warps: 4, entries: 4 }, 2),
        (PwaqParams { warps: 3, entries: 21 }, 3),
        (PwaqParams { warps: 64, entries: 128 }, 4),
    ] {
        let q = p.shape();
        let stim = Stimulus::record(&mut QueueDriver::new(&p, q, seed), 30_000);
        let rep = check_queues(&mut model(&p), &p, &q, &stim).unwrap();
        println!("PWAQ model {p:?}: {rep:?}");
        assert!(rep.refused_full > 100 && rep.deq_of_empty > 100 && (rep.same_warp_enq_deq > 50 || q.depth() == 1), "{rep:?}");
    }
}

/// The queue property rejects a record corrupted once.
#[test]
fn queue_property_rejects_corrupted_data() {
    let p = PwaqParams::default();
    let q = p.shape();
    let stim = Stimulus::record(&mut QueueDriver::new(&p, q, 1), 5_000);
    let io = p.ids();
    let (rec, empty) = (io.deq_data, io.deq_empty);
    let mut d = Corrupt::new(Box::new(model(&p)), rec, 200, move |a: &dyn Component| {
        (a.get_u64(empty) == 0).then(|| vec![a.get_u64(rec) ^ 4])
    });
    assert!(check_queues(&mut d, &p, &q, &stim).is_err());
}

cosim_tests!("pwaq", seed 2026, small SMALL, and_model);
