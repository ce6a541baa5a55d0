//! Per-warp predicate queue (DAC): the generated hardware against the
//! reference model (arbitrary inputs, driver traffic), the per-partition FIFO
//! property on both engines, the same-cycle enq and deq of one warp,
//! co-simulation.

use crate::common::{arbitrary_small, driven, engines, matches_model, ports_of, top_of, typed, Ov};
use hw::blocks::dac::pwpq::PwpqParams;
use models::dac::pwaq::PerWarpQueue;
use proptest::prelude::*;
use sim::{Bind, ComponentExt, NetlistSim};
use verif::dac::pwaq::{check_queues, QueueDriver};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 2), ("entries", 6)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("pwpq", SMALL), 60, |_| None)) {
        prop_assert_eq!(matches_model("pwpq", SMALL, &stim), Ok(()));
        let p: PwpqParams = typed("pwpq", SMALL);
        prop_assert!(check_queues(&mut NetlistSim::new(&top_of("pwpq", SMALL)), &p, &p.shape(), &stim).is_ok());
    }
}

#[test]
fn partitions_behave_as_fifos() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 3), ("entries", 21)][..], 2), (&[("warps", 64), ("entries", 64)][..], 3)] {
        let p: PwpqParams = typed("pwpq", ov);
        let stim = driven("pwpq", ov, seed, 20_000);
        let rep = check_queues(&mut NetlistSim::new(&top_of("pwpq", ov)), &p, &p.shape(), &stim).unwrap();
        assert!(rep.refused_full > 50 && rep.deq_of_empty > 50, "{rep:?}");
        matches_model("pwpq", ov, &stim).unwrap();
    }
    for (p, seed) in [(PwpqParams::default(), 5), (PwpqParams { warps: 2, entries: 2 }, 6), (PwpqParams { warps: 5, entries: 40 }, 7)] {
        let q = p.shape();
        let stim = Stimulus::record(&mut QueueDriver::new(&p, q, seed), 30_000);
        let rep = check_queues(&mut PerWarpQueue::new(&p, q), &p, &q, &stim).unwrap();
        println!("PWPQ model {p:?}: {rep:?}");
        assert!(rep.refused_full > 100 && rep.deq_of_empty > 100 && (rep.same_warp_enq_deq > 50 || q.depth() == 1), "{rep:?}");
    }
}

/// §4.1: a per-warp queue takes an enq and a deq of one warp in one cycle
/// when it is full (the deq frees no slot for this edge: the enq is refused)
/// and when it is empty (the enq proceeds, the deq does nothing).
#[test]
fn same_cycle_enq_and_deq_of_one_warp() {
    let p = PwpqParams { warps: 2, entries: 2 };
    for mut q in engines("pwpq", &[("warps", 2), ("entries", 2)]) {
        let q = q.as_mut();
        let io = p.bind(q).unwrap();
        q.set_bool(io.rst, true);
        q.step();
        q.set_bool(io.rst, false);
        // Empty warp 1: enq + deq in one cycle: the mask stays.
        q.set_bool(io.enq, true);
        q.set_u64(io.enq_warp, 1);
        q.set_u64(io.enq_data, 0xaaaa);
        q.set_bool(io.deq, true);
        q.set_u64(io.deq_warp, 1);
        q.step();
        q.set_bool(io.deq, false);
        q.set_bool(io.enq, false);
        q.eval();
        assert_eq!((q.get_bool(io.deq_empty), q.get_u64(io.deq_data), q.get_u64(io.full_vec)), (false, 0xaaaa, 0b10));
        // Full warp 1: enq + deq: the deq proceeds, the enq is refused.
        q.set_bool(io.enq, true);
        q.set_u64(io.enq_data, 0x5555);
        q.set_bool(io.deq, true);
        q.step();
        q.set_bool(io.enq, false);
        q.set_bool(io.deq, false);
        q.eval();
        assert_eq!((q.get_bool(io.deq_empty), q.get_u64(io.full_vec)), (true, 0));
    }
}

cosim_tests!("pwpq", seed 2027, small SMALL, and_model);
