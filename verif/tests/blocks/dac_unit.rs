//! The composed DAC unit: the generated hardware against the reference model
//! (arbitrary tuples, driver traffic), the end-to-end property on both
//! engines (with and without draining), Figure 9, corrupted outputs caught,
//! co-simulation.

use crate::common::{arbitrary_small, driven, engines, matches_model, ports_of, top_of, tuple_value, typed, Corrupt, Ov};
use hw::blocks::dac::dac_unit::DacUnitParams;
use hw::blocks::dac::tuple::*;
use hw::iface::InterfaceExt;
use models::dac::affine::Aff;
use models::dac::dac_unit::DacUnit;
use models::dac::{CtaConfig, Record, TupleCmd};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::dac::dac_unit::{check_end_to_end, DacUnitDriver};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 4), ("ctas", 2), ("atq_entries", 2), ("pwaq_entries", 4), ("pwpq_entries", 8)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("dac_unit", SMALL), 120, |q| {
        (*q == typed::<DacUnitParams>("dac_unit", SMALL).decls().enq_tuple).then(tuple_value)
    })) {
        prop_assert_eq!(matches_model("dac_unit", SMALL, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Random shapes and seeds: the whole unit (model) matches the
    /// per-thread reference and drains.
    #[test]
    fn end_to_end_on_the_model(warps in 1u32..=48, ctas in 1u32..=8, atq in 1u32..=24, da in 1u32..=4, dp in 1u32..=4, seed in any::<u64>()) {
        let p = DacUnitParams { warps, ctas, atq_entries: atq, pwaq_entries: warps * da, pwpq_entries: warps * dp };
        // depth-1 partitions fed serial expansions drain slowly, and so do
        // many warps behind a short ATQ (32 warps, 5 CTAs, 5 entries took
        // more than 100,000 cycles): allow for it
        let stim = Stimulus::record(&mut DacUnitDriver::draining(&p, seed, 4_000), 400_000);
        let r = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, true);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn end_to_end_random_with_resets() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 6), ("ctas", 2), ("atq_entries", 3), ("pwaq_entries", 6), ("pwpq_entries", 12)][..], 2)] {
        let p: DacUnitParams = typed("dac_unit", ov);
        let stim = driven("dac_unit", ov, seed, 40_000);
        let rep = check_end_to_end(&mut NetlistSim::new(&top_of("dac_unit", ov)), &p, &stim, false).unwrap();
        println!("dac_unit netlist {p:?}: {rep:?}");
        assert!(rep.addr_expansions > 300 && rep.masks > 500 && rep.throttled_cycles > 50, "{rep:?}");
        matches_model("dac_unit", ov, &stim).unwrap();
    }
    for (p, seed) in [(DacUnitParams::default(), 1), (DacUnitParams { warps: 6, ctas: 2, atq_entries: 3, pwaq_entries: 6, pwpq_entries: 12 }, 2)] {
        let stim = Stimulus::record(&mut DacUnitDriver::new(&p, seed), 60_000);
        let rep = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, false).unwrap();
        println!("dac_unit model {p:?}: {rep:?}");
        assert!(rep.addr_expansions > 500 && rep.masks > 1000 && rep.throttled_cycles > 100, "{rep:?}");
    }
}

/// Enqueue, then drain: every expansion reaches its warp, every L1 request
/// is matched.
#[test]
fn end_to_end_drains_completely() {
    let p = DacUnitParams::default();
    let stim = Stimulus::record(&mut DacUnitDriver::draining(&p, 7, 20_000), 50_000);
    let rep = check_end_to_end(&mut NetlistSim::new(&top_of("dac_unit", &[])), &p, &stim, true).unwrap();
    println!("dac_unit netlist drained: {rep:?}");
    assert!(rep.tuples > 30 && rep.l1_requests > 500, "{rep:?}");
    let stim = Stimulus::record(&mut DacUnitDriver::draining(&p, 7, 40_000), 80_000);
    let rep = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, true).unwrap();
    println!("dac_unit model drained: {rep:?}");
    assert!(rep.tuples > 50 && rep.l1_requests > 1000, "{rep:?}");
}

fn one_cta(dims: [u32; 3]) -> CtaConfig {
    CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
}

/// Figure 9 end to end on the default unit: the affine warp enqueues the
/// Figure 5 load (`enq.data`) and the bound check `tid < 70`; the units
/// expand them; warp 0 dequeues its line (requested from L1 when it was
/// pushed) and warp 2 its mask.
#[test]
fn figure_9_flow() {
    let p = DacUnitParams::default();
    for mut u in engines("dac_unit", &[]) {
        let u = u.as_mut();
        let io = p.bind(u).unwrap();
        verif::poke::clear_inputs(u);
        one_cta([256, 1, 1]).write(&io.cta, p.warp_bits(), |id, v| u.set(id, v));
        let all = models::dac::warp_words(&vec![u32::MAX; p.warps as usize]);
        u.set(io.aeu_lane_mask, &all);
        u.set(io.peu_lane_mask, &all);
        u.set_bool(io.rst, true);
        u.step();
        u.set_bool(io.rst, false);
        let all = TupleCmd::ALL_CTAS;
        let fig5 = TupleCmd { aff: Aff::new(0x81000, [4, 0, 0, 1024, 0, 0]), rhs: 0, kind: KIND_DATA, op: GRAN_WORD, ctas: all };
        let bound = TupleCmd { aff: Aff::new(0, [1, 0, 0, 0, 0, 0]), rhs: 70, kind: KIND_PRED, op: CMP_LT, ctas: all };
        let cnt = [io.peu_cnt_scalar, io.peu_cnt_uniform, io.peu_cnt_serial];
        let mut lines = vec![];
        for t in [fig5, bound] {
            u.set_bool(io.enq_valid, true);
            u.set(io.enq_tuple, &t.pack());
            u.eval();
            assert!(u.get_bool(if t.kind == KIND_PRED { io.enq_ready_pred } else { io.enq_ready_addr }));
            u.tick();
        }
        u.set_bool(io.enq_valid, false);
        for _ in 0..100 {
            u.eval();
            if u.get_bool(io.l1_req) {
                lines.push(u.get_u64(io.l1_req_line));
            }
            u.tick();
        }
        assert_eq!(lines, (0..8).map(|w| (0x81000 + 128 * w) >> 7).collect::<Vec<u64>>());
        u.set_bool(io.deq_addr, true);
        u.set_u64(io.deq_addr_warp, 0);
        u.set_bool(io.deq_pred, true);
        u.set_u64(io.deq_pred_warp, 2);
        u.eval();
        assert_eq!(Record::unpack(u.get_u64(io.addr_rec)), Record { mask: !0, line: 0x81000 >> 7, sect: 0, gran: 2, last: true });
        assert_eq!(u.get_u64(io.pred_mask), 0x3f);
        u.tick();
        u.set_bool(io.deq_addr, false);
        u.set_bool(io.deq_pred, false);
        u.eval();
        assert!(u.get_bool(io.addr_empty) && u.get_bool(io.pred_empty));
        assert_eq!(cnt.map(|x| u.get_u64(x)), [0, 7, 1]);
    }
}

/// The end-to-end property rejects a flipped mask bit and a wrong L1 line.
#[test]
fn end_to_end_property_rejects_a_wrong_mask_and_a_stray_l1_request() {
    let p = DacUnitParams::default();
    let stim = Stimulus::record(&mut DacUnitDriver::new(&p, 3), 20_000);
    let io = p.ids();
    let (deq, empty, mask) = (io.deq_pred, io.pred_empty, io.pred_mask);
    let mut d = Corrupt::new(Box::new(DacUnit::new(&p)), mask, 100, move |a: &dyn Component| {
        (a.get_u64(deq) == 1 && a.get_u64(empty) == 0).then(|| vec![a.get_u64(mask) ^ 0x8000_0000])
    });
    assert!(check_end_to_end(&mut d, &p, &stim, false).is_err());
    let (req, line) = (io.l1_req, io.l1_req_line);
    let mut d = Corrupt::new(Box::new(DacUnit::new(&p)), line, 100, move |a: &dyn Component| {
        (a.get_u64(req) == 1).then(|| vec![a.get_u64(line) ^ 0x100_0000])
    });
    assert!(check_end_to_end(&mut d, &p, &stim, false).unwrap_err().contains("without an l1_req"));
}

cosim_tests!("dac_unit", seed 2026, small SMALL, and_model);
