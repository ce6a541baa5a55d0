//! MSHR table (replay family): the generated hardware against the reference
//! model (arbitrary inputs, driver traffic), the closed-loop properties on
//! both engines, the merge and fill corners as directed tests, co-simulation.

use crate::common::{arbitrary_any, record, same, verilator_100k, work};
use hw::blocks::replay::mshr_table::{MshrTableIo, MshrTableParams};
use hw::iface::InterfaceExt;
use hw::Block;
use models::replay::mshr_table::{MshrIn, MshrTable};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim, PortId};
use verif::cosim::{cosim, Simulator};
use verif::replay::mshr_table::{check_properties, MshrTableDriver};

fn params() -> impl Strategy<Value = MshrTableParams> {
    (1u32..=6, 1u32..=4, 1u32..=3, 1u32..=4).prop_map(|(entries, merge_limit, line_bits, id_bits)| MshrTableParams {
        entries,
        merge_limit,
        line_bits,
        id_bits,
    })
}

#[test]
fn hardware_ports_equal_model_ports() {
    for p in [MshrTableParams::default(), MshrTableParams { entries: 5, merge_limit: 1, line_bits: 3, id_bits: 2 }] {
        assert_eq!(NetlistSim::new(&p.elaborate().unwrap()).ports(), MshrTable::new(&p).ports());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference((p, stim) in params().prop_flat_map(|p| (Just(p.clone()), arbitrary_any(&p.ports(), 120)))) {
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut MshrTable::new(&p), &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    /// Protocol traffic (merges up to the limit, a full table), netlist vs
    /// reference model.
    #[test]
    fn hardware_matches_reference_on_driver_traffic(seed in any::<u64>(), p in params()) {
        let s = record(&mut MshrTableDriver::new(&p, seed), 4000);
        prop_assert_eq!(same(&p.elaborate().unwrap(), &mut MshrTable::new(&p), &s), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn properties_on_the_hardware(seed in any::<u64>(), p in params()) {
        let top = p.elaborate().unwrap();
        let stim = record(&mut MshrTableDriver::new(&p, seed), 3000);
        prop_assert_eq!(same(&top, &mut MshrTable::new(&p), &stim), Ok(()));
        let st = check_properties(&mut NetlistSim::new(&top), &p, seed, 3000);
        prop_assert!(st.is_ok(), "{:?}", st);
        prop_assert!(st.unwrap().woken > 0);
    }

    #[test]
    fn properties_on_the_model(seed in any::<u64>(), entries in 1u32..=40, merge in 1u32..=10, line_bits in 1u32..=64, id_bits in 1u32..=32) {
        let p = MshrTableParams { entries, merge_limit: merge, line_bits, id_bits };
        let r = check_properties(&mut MshrTable::new(&p), &p, seed, 2000);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn properties_at_defaults() {
    let p = MshrTableParams::default();
    let st = check_properties(&mut MshrTable::new(&p), &p, 3, 20_000).unwrap();
    assert!(st.merged > 1000 && st.rejected_full > 100 && st.rejected_merge > 10, "{st:?}");
    let stim = record(&mut MshrTableDriver::new(&p, 11), 20_000);
    same(&p.elaborate().unwrap(), &mut MshrTable::new(&p), &stim).unwrap();
}

/// A table under a directed test, on either engine.
struct T {
    m: Box<dyn Component>,
    io: MshrTableIo<PortId>,
}

impl T {
    fn new(p: &MshrTableParams, mut m: Box<dyn Component>) -> Self {
        let io = p.bind(m.as_mut()).unwrap();
        let mut t = T { m, io };
        t.cycle(MshrIn { rst: true, ..Default::default() });
        t
    }
    fn set(&mut self, i: MshrIn) {
        let m = &mut self.m;
        i.write(&self.io, |id, v| m.set_u64(id, v));
    }
    /// Drive, eval, read (req_ok, req_merged, req_entry, fill_ok, wake_valid), tick.
    fn cycle(&mut self, i: MshrIn) -> (bool, bool, u64, bool, u64) {
        self.set(i);
        self.m.eval();
        let io = &self.io;
        let g = |id: PortId| self.m.get_u64(id);
        let r = (g(io.req_ok) != 0, g(io.req_merged) != 0, g(io.req_entry), g(io.fill_ok) != 0, g(io.wake_valid));
        self.m.tick();
        r
    }
    fn req(&mut self, line: u64, id: u64) -> (bool, bool, u64, bool, u64) {
        self.cycle(MshrIn { req_valid: true, req_addr: line, req_id: id, ..Default::default() })
    }
}

/// Both engines of `p`.
fn engines(p: &MshrTableParams) -> Vec<Box<dyn Component>> {
    vec![Box::new(NetlistSim::new(&p.elaborate().unwrap())), Box::new(MshrTable::new(p))]
}

#[test]
fn merge_up_to_the_limit_and_wake_all() {
    let p = MshrTableParams { entries: 2, merge_limit: 3, line_bits: 8, id_bits: 4 };
    for m in engines(&p) {
        let mut t = T::new(&p, m);
        assert_eq!(t.req(0x10, 1), (true, false, 0, false, 0)); // allocate entry 0
        assert_eq!(t.req(0x10, 2), (true, true, 0, false, 0)); // merge
        assert_eq!(t.req(0x20, 3), (true, false, 1, false, 0)); // allocate entry 1
        assert_eq!(t.req(0x10, 4), (true, true, 0, false, 0)); // third request: limit reached
        assert!(!t.req(0x10, 5).0); // over the merge limit: rejected
        assert!(!t.req(0x30, 6).0); // no free entry: rejected
        t.set(MshrIn { fill_valid: true, fill_entry: 0, ..Default::default() });
        t.m.eval();
        assert_eq!(t.m.get_u64(t.io.fill_addr), 0x10);
        assert_eq!(t.m.get_u64(t.io.wake_valid), 0b111);
        assert_eq!(t.m.get(t.io.wake_ids)[0], 1 | 2 << 4 | 4 << 8);
        t.m.tick();
        assert_eq!(t.req(0x30, 7), (true, false, 0, false, 0)); // entry 0 reused
    }
}

#[test]
fn request_to_line_being_filled_is_rejected_and_freed_entry_waits_a_cycle() {
    let p = MshrTableParams { entries: 1, merge_limit: 4, line_bits: 8, id_bits: 4 };
    for m in engines(&p) {
        let mut t = T::new(&p, m);
        t.req(0x10, 1);
        // Same line while its fill arrives: rejected, woken set unchanged.
        let r = t.cycle(MshrIn { req_valid: true, req_addr: 0x10, req_id: 2, fill_valid: true, fill_entry: 0, ..Default::default() });
        assert_eq!(r, (false, false, 0, true, 0b1));
        t.req(0x10, 1);
        // Other line while the only entry is being filled: still full this cycle.
        let r = t.cycle(MshrIn { req_valid: true, req_addr: 0x20, req_id: 2, fill_valid: true, fill_entry: 0, ..Default::default() });
        assert_eq!(r, (false, false, 0, true, 0b1));
        assert_eq!(t.req(0x20, 2), (true, false, 0, false, 0));
        // Fill of a free entry or out of range does nothing.
        assert!(!t.cycle(MshrIn { fill_valid: true, fill_entry: 1, ..Default::default() }).3);
    }
}

#[test]
fn verilator_cosim_100k() {
    verilator_100k("mshr_table", 2027);
}

#[test]
fn iverilog_cosim_second_opinion() {
    let mt = MshrTableParams { entries: 6, merge_limit: 3, line_bits: 4, id_bits: 5 };
    let stim = record(&mut MshrTableDriver::new(&mt, 2), 3000);
    let r = cosim(&mt.elaborate().unwrap(), None, &stim, Simulator::Iverilog, &work("mshr-iverilog")).unwrap();
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
}
