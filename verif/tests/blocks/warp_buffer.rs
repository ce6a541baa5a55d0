//! Warp buffer (replay family): the generated hardware against the reference
//! model (arbitrary inputs, driver traffic), the closed-loop properties on
//! both engines, Figure 5.4 and the ring corners as golden tests,
//! co-simulation.

use crate::common::{arbitrary_any, engines, record, same, verilator_100k, work};
use hw::blocks::replay::warp_buffer::WarpBufferParams;
use hw::iface::InterfaceExt;
use hw::Block;
use models::replay::warp_buffer::{WarpBuffer, WbIn};
use proptest::prelude::*;
use sim::{Component, ComponentExt, NetlistSim};
use verif::cosim::{cosim, Simulator};
use verif::replay::warp_buffer::{check_properties, figure_5_4, snapshot, Dut, WarpBufferDriver};

fn params() -> impl Strategy<Value = WarpBufferParams> {
    (1u32..=3, 1u32..=6).prop_map(|(log, w)| WarpBufferParams { slots: 1 << log, simt_width: w })
}

#[test]
fn hardware_ports_equal_model_ports() {
    for p in [WarpBufferParams::default(), WarpBufferParams { slots: 2, simt_width: 1 }] {
        assert_eq!(NetlistSim::new(&p.elaborate().unwrap()).ports(), WarpBuffer::new(&p).ports());
    }
}

#[test]
fn ports_have_the_specified_widths() {
    let io = WarpBufferParams::default().decls();
    assert_eq!(io.rst.name, "rst");
    assert_eq!((io.fill_count.width, io.cpl_slot.width, io.issue_mask.width, io.slot_pam.width), (4, 3, 32, 256));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in params().prop_flat_map(|p| (Just(p.clone()), arbitrary_any(&p.ports(), 120)))) {
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut WarpBuffer::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Protocol traffic (full buffers, replays), netlist vs reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), p in params()) {
        let s = record(&mut WarpBufferDriver::new(&p, seed), 4000);
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut WarpBuffer::new(&p), &s), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn properties_on_the_hardware(seed in any::<u64>(), p in params()) {
        let top = p.elaborate().unwrap();
        let stim = record(&mut WarpBufferDriver::new(&p, seed), 3000);
        prop_assert_eq!(same(&top, &mut WarpBuffer::new(&p), &stim), Ok(()));
        let st = check_properties(&mut NetlistSim::new(&top), &p, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        prop_assert!(st.unwrap().completions > 0);
    }

    #[test]
    fn properties_on_the_model(seed in any::<u64>(), log in 1u32..=5, width in 1u32..=64) {
        let p = WarpBufferParams { slots: 1 << log, simt_width: width };
        prop_assert!(check_properties(&mut WarpBuffer::new(&p), &p, seed, 3000).is_ok());
    }
}

#[test]
fn properties_at_defaults() {
    let p = WarpBufferParams::default();
    let st = check_properties(&mut WarpBuffer::new(&p), &p, 1, 20_000).unwrap();
    assert!(st.replays > 1000 && st.full_cycles > 100 && st.first_issues > 3000 && st.flushed > 100, "{st:?}");
    let stim = record(&mut WarpBufferDriver::new(&p, 7), 20_000);
    same(&p.elaborate().unwrap(), &mut WarpBuffer::new(&p), &stim).unwrap();
}

const FIG: &[(&str, u64)] = &[("slots", 4), ("simt_width", 4)];

#[test]
fn golden_figure_5_4() {
    for mut m in engines("warp_buffer", FIG) {
        figure_5_4(m.as_mut()).unwrap();
    }
}

/// All slots issued with the oldest retained at IP: IP == FP == ITP + 1, the
/// state the wrap bits exist for.
#[test]
fn fully_issued_ring_is_full_not_empty() {
    let p = WarpBufferParams { slots: 4, simt_width: 4 };
    for mut m in engines("warp_buffer", FIG) {
        let m = m.as_mut();
        let d = Dut::of(&p, m).unwrap();
        let go = |m: &mut dyn Component, i: WbIn| {
            d.set(m, &i);
            m.step();
        };
        go(m, WbIn { rst: true, ..Default::default() });
        go(m, WbIn { fill_count: 2, ..Default::default() });
        go(m, WbIn { fill_count: 2, ..Default::default() });
        let s = snapshot(m, &d);
        assert_eq!((s.fill_free, s.offer, s.ip, s.fp, s.itp), (0, Some((0, false)), 0, 0, 3));
        go(m, WbIn { issue: true, replayable: true, mask: 0xf, ..Default::default() });
        for _ in 0..3 {
            go(m, WbIn { issue: true, replayable: false, mask: 0xf, ..Default::default() });
        }
        let s = snapshot(m, &d);
        assert_eq!((s.fill_free, s.offer, s.ip, s.fp, s.itp), (0, None, 0, 0, 3));
        assert_eq!(s.slots[0], (true, false, 0xf));
        // A fill now would pass the tail: ignored.
        go(m, WbIn { fill_count: 1, ..Default::default() });
        assert_eq!(snapshot(m, &d).slots[1], (false, false, 0));
        // Completing the one retained load empties the ring.
        d.set(m, &WbIn { cpl_valid: true, cpl_slot: 0, cpl_mask: 0xf, ..Default::default() });
        m.eval();
        assert_eq!(m.get_u64(d.io.cpl_accept), 1);
        m.tick();
        let s = snapshot(m, &d);
        assert_eq!((s.fill_free, s.offer, s.itp), (4, None, 3));
    }
}

#[test]
fn illegal_completions_are_ignored() {
    let p = WarpBufferParams { slots: 4, simt_width: 4 };
    for mut m in engines("warp_buffer", FIG) {
        let m = m.as_mut();
        let d = Dut::of(&p, m).unwrap();
        d.set(m, &WbIn { rst: true, ..Default::default() });
        m.step();
        d.set(m, &WbIn { fill_count: 2, ..Default::default() });
        m.step();
        // Slot 0 is unissued, slot 2 free: completions for them do nothing.
        for slot in [0, 2] {
            d.set(m, &WbIn { cpl_valid: true, cpl_slot: slot, cpl_mask: 0xf, ..Default::default() });
            m.eval();
            assert_eq!(m.get_u64(d.io.cpl_accept), 0);
            m.tick();
        }
        let s = snapshot(m, &d);
        assert_eq!(s.slots[0], (true, false, 0));
        assert_eq!(s.offer, Some((0, false)));
    }
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("warp_buffer", 2026);
}

#[test]
fn iverilog_cosim_second_opinion() {
    let wb = WarpBufferParams { slots: 4, simt_width: 5 };
    let stim = record(&mut WarpBufferDriver::new(&wb, 1), 3000);
    let r = cosim(&wb.elaborate().unwrap(), None, &stim, Simulator::Iverilog, &work("wb-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}
