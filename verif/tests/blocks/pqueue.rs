//! P-queue: the generated hardware against the reference model (arbitrary
//! inputs and driver traffic over parameters), the property check on both
//! engines, Figure 5 and the limits as golden tests, co-simulation.

use crate::common::{build, driven, engines, matches_model, typed, Ov};
use hw::blocks::pmode::pqueue::PqueueParams;
use models::pmode::pqueue::PqueueModel;
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::pmode::pqueue::{check, golden, PqueueDriver};
use verif::pmode::InView;
use verif::stimulus::Stimulus;

/// Few warps and registers: conflicts are frequent, and non-power-of-two
/// sizes leave out-of-range ids.
const SMALL: Ov = &[("warps", 3), ("entries", 3), ("offset_bits", 6), ("regs", 6), ("rename_regs", 6), ("pc_bits", 10)];
/// Ids of one or two bits, so that arbitrary inputs name the same warps,
/// entries and PCs often.
const TINY: Ov = &[("warps", 2), ("entries", 2), ("offset_bits", 3), ("regs", 2), ("rename_regs", 2), ("pc_bits", 8)];

arbitrary_tests!("pqueue", small SMALL, tiny TINY);

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    /// Driver traffic over parameters: ports, sizes that are and are not
    /// powers of two.
    #[test]
    fn matches_reference_over_parameters(seed in 0u64..1_000_000, warps in 1u64..7, entries in 1u64..9, ob in 3u64..11, ports in 1u64..4) {
        let ov = [("warps", warps), ("entries", entries), ("offset_bits", ob), ("pc_bits", 16), ("issue_ports", ports), ("wb_ports", ports)];
        prop_assert_eq!(matches_model("pqueue", &ov, &driven("pqueue", &ov, seed, 1500)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]

    /// The property check on the model over parameters.
    #[test]
    fn model_properties_over_parameters(seed in 0u64..1_000_000, entries in 1u32..9, ports in 1u32..4, ob in 3u32..11) {
        let p = PqueueParams { warps: 5, entries, offset_bits: ob, pc_bits: 16, issue_ports: ports, wb_ports: ports, ..PqueueParams::default() };
        let st = Stimulus::record(&mut PqueueDriver::new(&p, seed), 3_000);
        prop_assert_eq!(check(&p, &mut PqueueModel::new(&p), &st), Ok(()));
    }
}

#[test]
fn properties_hold_on_the_hardware() {
    for (ov, seed, n) in [(&[][..], 7, 20_000), (SMALL, 1, 10_000), (SMALL, 2, 10_000)] {
        let p: PqueueParams = typed("pqueue", ov);
        assert_eq!(check(&p, &mut NetlistSim::new(&build("pqueue", ov)), &driven("pqueue", ov, seed, n)), Ok(()), "{ov:?} seed {seed}");
    }
}

#[test]
fn properties_hold_on_the_model() {
    let small = PqueueParams { warps: 6, entries: 4, offset_bits: 6, pc_bits: 12, ..PqueueParams::default() };
    for (p, seed) in [(PqueueParams::default(), 1u64), (small.clone(), 2), (PqueueParams { issue_ports: 1, wb_ports: 1, entries: 3, warps: 5, ..small }, 3)] {
        let st = Stimulus::record(&mut PqueueDriver::new(&p, seed), 20_000);
        check(&p, &mut PqueueModel::new(&p), &st).unwrap();
    }
}

#[test]
fn driver_exercises_the_interesting_cases() {
    let p = golden::small();
    let st = Stimulus::record(&mut PqueueDriver::new(&p, 7), 20_000);
    let mut m = PqueueModel::new(&p);
    verif::run::check_inputs(&m, st.layout()).unwrap();
    let io = p.bind(&m).unwrap();
    let i0 = &io.iss[0];
    let mut n = [0u32; 5];
    for c in 0..st.cycles() {
        m.set_inputs(st.cycle(c));
        m.eval();
        let iv = InView::new(&st, c);
        let (push, pop) = (iv.b(i0.push), iv.b(i0.pop));
        n[0] += (push && m.get_bool(i0.ok)) as u32;
        n[1] += (push && m.get_bool(i0.full)) as u32;
        n[2] += (push && !m.get_bool(i0.full) && !m.get_bool(i0.ok)) as u32;
        n[3] += (pop && m.get_bool(i0.hit) && m.get_bool(i0.rdy)) as u32;
        n[4] += (pop && m.get_bool(i0.hit) && !m.get_bool(i0.rdy)) as u32;
        m.tick();
    }
    // recorded, refused when full, refused out of range, reused, waiting
    assert!(n.iter().all(|&x| x > 20), "{n:?}");
}

#[test]
fn golden_figure5_queue() {
    for mut m in engines("pqueue", &[]) {
        golden::figure5_queue(&PqueueParams::default(), m.as_mut());
    }
}

#[test]
fn golden_full_and_out_of_range_record_nothing() {
    let s = golden::small();
    let ov = [("warps", s.warps as u64), ("entries", s.entries as u64), ("offset_bits", s.offset_bits as u64), ("pc_bits", s.pc_bits as u64)];
    for mut m in engines("pqueue", &ov) {
        golden::full_and_out_of_range(&s, m.as_mut());
    }
}

cosim_tests!("pqueue", seed 2026, small SMALL);
