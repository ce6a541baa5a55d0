//! DAC blocks (Wang and Lin, ISCA 2017, seed 003): the generated hardware
//! against the reference models (driver traffic and proptest on arbitrary
//! inputs), the blocks' properties and the paper's figures on the netlist
//! simulation, and co-simulation of the emitted Verilog under Verilator
//! (100,000 cycles per block at the paper's sizes) and iverilog.

use hw::blocks::dac::aeu::AeuParams;
use hw::blocks::dac::affine_simt_stack::AffineSimtStackParams;
use hw::blocks::dac::atq::AtqParams;
use hw::blocks::dac::dac_unit::DacUnitParams;
use hw::blocks::dac::peu::PeuParams;
use hw::blocks::dac::pwaq::PwaqParams;
use hw::blocks::dac::pwpq::PwpqParams;
use hw::blocks::dac::tuple::*;
use hw::ir::Module;
use hw::params::{BlockParams, Params};
use proptest::prelude::*;
use sim::{Component, ComponentExt, NetlistSim};
use std::sync::Arc;
use verif::cosim::{cosim, Simulator};
use verif::models::dac::affine::{Aff, CtaGeom};
use verif::models::dac::{self as dac, aeu, affine_simt_stack as stack, atq, dac_unit, peu, pwaq, pwpq};
use verif::models::dac::{CtaConfig, Record, TupleCmd};
use verif::run::{first_mismatch, run};
use verif::stimulus::{Frame, InputLayout, Slot, Stimulus};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn params(block: &str, overrides: &[(&str, u64)]) -> Params {
    let info = hw::registry::find(block).unwrap();
    let ov: Vec<(String, String)> = overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    info.params(&ov).unwrap()
}

/// Elaborate a registered block with `name=value` overrides.
fn elaborate(block: &str, overrides: &[(&str, u64)]) -> (Arc<Module>, Params) {
    let p = params(block, overrides);
    (hw::registry::find(block).unwrap().elaborate(&p).unwrap(), p)
}

fn typed<P: BlockParams>(block: &str, overrides: &[(&str, u64)]) -> (Arc<Module>, P) {
    let (m, p) = elaborate(block, overrides);
    (m, P::from_params(&p).unwrap())
}

fn driven(block: &str, p: &Params, seed: u64, cycles: u64) -> Stimulus {
    let v = verif::registry::find(block).unwrap();
    Stimulus::record((v.driver)(p, seed).unwrap().as_mut(), cycles)
}

/// Netlist simulation vs reference model on `stim`.
fn same_as_model(block: &str, m: &Arc<Module>, p: &Params, stim: &Stimulus) -> Result<(), String> {
    let mut model = (verif::registry::find(block).unwrap().model)(p).unwrap();
    let mut hw = NetlistSim::new(m);
    if model.ports() != hw.ports() {
        return Err(format!("{block}: ports differ"));
    }
    let a = run(&mut hw, stim).unwrap();
    let b = run(model.as_mut(), stim).unwrap();
    match first_mismatch(&b, &a) {
        None => Ok(()),
        Some(x) => Err(format!("{block}: model vs netlist: {x}")),
    }
}

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dac").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every engine a directed test runs on: the netlist simulation of the
/// generated hardware and the reference model.
fn engines(block: &str, overrides: &[(&str, u64)]) -> Vec<Box<dyn Component>> {
    let (m, p) = elaborate(block, overrides);
    let model = (verif::registry::find(block).unwrap().model)(&p).unwrap();
    vec![Box::new(NetlistSim::new(&m)), model]
}

// ---------------------------------------------------------------------------
// Arbitrary stimulus (proptest, shrinking)
// ---------------------------------------------------------------------------

fn mask_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// A port value: mostly small numbers (so indices hit, dimensions stay
/// small and walks short), sometimes any value of the width.
fn word_value(width: u32) -> BoxedStrategy<Vec<u64>> {
    let m = mask_of(width);
    if width == 1 {
        prop_oneof![3 => Just(vec![0u64]), 2 => Just(vec![1u64])].boxed()
    } else if width <= 64 {
        prop_oneof![3 => (0u64..4).prop_map(move |v| vec![v & m]), 2 => any::<u64>().prop_map(move |v| vec![v & m])]
            .boxed()
    } else {
        let n = width.div_ceil(64) as usize;
        let top = mask_of(width - 64 * (n as u32 - 1));
        prop::collection::vec(any::<u64>(), n)
            .prop_map(move |mut w| {
                *w.last_mut().unwrap() &= top;
                w
            })
            .boxed()
    }
}

/// An affine tuple with offsets from the interesting set (zero, unit and
/// power-of-two strides of every granularity, negative, huge, odd) and
/// every kind and operation.
fn tuple_value() -> BoxedStrategy<Vec<u64>> {
    let off = prop_oneof![
        4 => Just(0u32),
        1 => Just(1u32),
        1 => Just(2u32),
        2 => Just(4u32),
        1 => Just(8u32),
        1 => Just(12u32),
        1 => Just(128u32),
        1 => Just(0xffff_fffcu32),
        1 => Just(0x8000_0000u32),
        1 => any::<u32>(),
    ];
    let base = prop_oneof![any::<u32>(), 0u32..512, 0xffff_ff00u32..=u32::MAX];
    (base, prop::array::uniform6(off), any::<u32>(), 0u64..4, 0u64..16)
        .prop_map(|(base, off, rhs, kind, op)| {
            let rhs = if rhs & 1 == 0 { base.wrapping_add(off[0].wrapping_mul(rhs >> 27)) } else { rhs };
            TupleCmd { aff: Aff::new(base, off), rhs, kind, op }.pack().to_vec()
        })
        .boxed()
}

/// Per-warp thread masks: all, none, or any, per warp.
fn cond_value(warps: u32) -> BoxedStrategy<Vec<u64>> {
    let m = prop_oneof![Just(u32::MAX), Just(0u32), Just(0xffffu32), any::<u32>()];
    prop::collection::vec(m, warps as usize)
        .prop_map(|ms| {
            let mut w = vec![0u64; ms.len().div_ceil(2)];
            for (i, m) in ms.iter().enumerate() {
                w[i / 2] |= (*m as u64) << (32 * (i % 2));
            }
            w
        })
        .boxed()
}

/// Arbitrary stimulus for `ports`: every input from [`word_value`] unless
/// `special` gives a strategy by name; resets rare.
fn arbitrary(
    ports: &[sim::PortSpec],
    max_cycles: usize,
    special: impl Fn(&str) -> Option<BoxedStrategy<Vec<u64>>>,
) -> impl Strategy<Value = Stimulus> {
    let layout = InputLayout::of(ports);
    let frame: Vec<BoxedStrategy<Vec<u64>>> = layout
        .ports()
        .iter()
        .map(|q| if q.name == "rst" { prop_oneof![15 => Just(vec![0u64]), 1 => Just(vec![1u64])].boxed() } else { special(&q.name).unwrap_or_else(|| word_value(q.width)) })
        .collect();
    prop::collection::vec(frame, 1..max_cycles).prop_map(move |cycles| {
        let mut s = Stimulus::new(layout.clone());
        let mut f = Frame::new(layout.clone());
        for values in &cycles {
            for (k, v) in values.iter().enumerate() {
                f.set_wide(Slot(k), v);
            }
            s.push(&f);
        }
        s
    })
}

fn no_special(_: &str) -> Option<BoxedStrategy<Vec<u64>>> {
    None
}

fn tuples(name: &str) -> Option<BoxedStrategy<Vec<u64>>> {
    (name == "in_tuple" || name == "enq_tuple").then(tuple_value)
}

/// The small configurations of the proptests.
const ATQ_SMALL: &[(&str, u64)] = &[("entries", 3)];
const PWAQ_SMALL: &[(&str, u64)] = &[("warps", 3), ("entries", 6)];
const PWPQ_SMALL: &[(&str, u64)] = &[("warps", 2), ("entries", 6)];
const AEU_SMALL: &[(&str, u64)] = &[("warps", 5), ("ctas", 3)];
const PEU_SMALL: &[(&str, u64)] = &[("warps", 5), ("ctas", 3)];
const STACK_SMALL: &[(&str, u64)] = &[("warps", 3), ("depth", 3), ("pc_bits", 8)];
const UNIT_SMALL: &[(&str, u64)] =
    &[("warps", 4), ("ctas", 2), ("atq_entries", 2), ("pwaq_entries", 4), ("pwpq_entries", 8)];

fn ports_of(block: &str, ov: &[(&str, u64)]) -> Vec<sim::PortSpec> {
    NetlistSim::new(&elaborate(block, ov).0).ports().to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn atq_hardware_matches_reference(stim in arbitrary(&ports_of("atq", ATQ_SMALL), 60, tuples)) {
        let (m, p) = elaborate("atq", ATQ_SMALL);
        prop_assert_eq!(same_as_model("atq", &m, &p, &stim), Ok(()));
        let ap = AtqParams::from_params(&p).unwrap();
        prop_assert!(atq::check_fifo(&mut NetlistSim::new(&m), &ap, &stim).is_ok());
    }

    #[test]
    fn pwaq_hardware_matches_reference(stim in arbitrary(&ports_of("pwaq", PWAQ_SMALL), 60, no_special)) {
        let (m, p) = elaborate("pwaq", PWAQ_SMALL);
        prop_assert_eq!(same_as_model("pwaq", &m, &p, &stim), Ok(()));
        let q = pwaq::shape(&PwaqParams::from_params(&p).unwrap());
        prop_assert!(pwaq::check_queues(&mut NetlistSim::new(&m), &q, &stim).is_ok());
    }

    #[test]
    fn pwpq_hardware_matches_reference(stim in arbitrary(&ports_of("pwpq", PWPQ_SMALL), 60, no_special)) {
        let (m, p) = elaborate("pwpq", PWPQ_SMALL);
        prop_assert_eq!(same_as_model("pwpq", &m, &p, &stim), Ok(()));
        let q = pwpq::shape(&PwpqParams::from_params(&p).unwrap());
        prop_assert!(pwpq::check_queues(&mut NetlistSim::new(&m), &q, &stim).is_ok());
    }

    #[test]
    fn aeu_hardware_matches_reference(stim in arbitrary(&ports_of("aeu", AEU_SMALL), 120, tuples)) {
        let (m, p) = elaborate("aeu", AEU_SMALL);
        prop_assert_eq!(same_as_model("aeu", &m, &p, &stim), Ok(()));
    }

    #[test]
    fn peu_hardware_matches_reference(stim in arbitrary(&ports_of("peu", PEU_SMALL), 120, tuples)) {
        let (m, p) = elaborate("peu", PEU_SMALL);
        prop_assert_eq!(same_as_model("peu", &m, &p, &stim), Ok(()));
    }

    #[test]
    fn stack_hardware_matches_reference(
        stim in arbitrary(&ports_of("affine_simt_stack", STACK_SMALL), 60, |n| (n == "cond").then(|| cond_value(3)))
    ) {
        let (m, p) = elaborate("affine_simt_stack", STACK_SMALL);
        prop_assert_eq!(same_as_model("affine_simt_stack", &m, &p, &stim), Ok(()));
        let sp = AffineSimtStackParams::from_params(&p).unwrap();
        prop_assert!(stack::check_against_flat(&mut NetlistSim::new(&m), &sp, &stim).is_ok());
    }

    #[test]
    fn unit_hardware_matches_reference(stim in arbitrary(&ports_of("dac_unit", UNIT_SMALL), 120, tuples)) {
        let (m, p) = elaborate("dac_unit", UNIT_SMALL);
        prop_assert_eq!(same_as_model("dac_unit", &m, &p, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Constrained traffic at random small sizes: the expansion properties
    /// hold on the netlist and it equals the model.
    #[test]
    fn expansion_units_at_random_sizes(warps in 1u64..=20, ctas in 1u64..=5, seed in any::<u64>()) {
        let ov = [("warps", warps), ("ctas", ctas)];
        let (m, p) = typed::<AeuParams>("aeu", &ov);
        let stim = driven("aeu", &params("aeu", &ov), seed, 4_000);
        let r = aeu::check_expansion(&mut NetlistSim::new(&m), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
        prop_assert_eq!(same_as_model("aeu", &m, &params("aeu", &ov), &stim), Ok(()));
        let (m, p) = typed::<PeuParams>("peu", &ov);
        let stim = driven("peu", &params("peu", &ov), seed, 4_000);
        let r = peu::check_masks(&mut NetlistSim::new(&m), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
        prop_assert_eq!(same_as_model("peu", &m, &params("peu", &ov), &stim), Ok(()));
    }
}

// ---------------------------------------------------------------------------
// Driver traffic: netlist == model, and the properties on the netlist
// ---------------------------------------------------------------------------

#[test]
fn queues_on_protocol_traffic() {
    for (ov, seed) in [(&[][..], 1), (&[("entries", 1)][..], 2), (&[("entries", 5)][..], 3)] {
        let (m, p) = typed::<AtqParams>("atq", ov);
        let stim = driven("atq", &params("atq", ov), seed, 20_000);
        let rep = atq::check_fifo(&mut NetlistSim::new(&m), &p, &stim).unwrap();
        assert!(rep.enqueued > 1000 && rep.full_cycles > 100 && rep.refused_by_backpressure > 50, "{rep:?}");
        same_as_model("atq", &m, &params("atq", ov), &stim).unwrap();
    }
    for (ov, seed) in [(&[][..], 1), (&[("warps", 3), ("entries", 21)][..], 2), (&[("warps", 64), ("entries", 64)][..], 3)] {
        for (block, q) in [
            ("pwaq", pwaq::shape(&PwaqParams::from_params(&params("pwaq", ov)).unwrap())),
            ("pwpq", pwpq::shape(&PwpqParams::from_params(&params("pwpq", ov)).unwrap())),
        ] {
            let (m, p) = elaborate(block, ov);
            let stim = driven(block, &p, seed, 20_000);
            let rep = pwaq::check_queues(&mut NetlistSim::new(&m), &q, &stim).unwrap();
            assert!(rep.refused_full > 50 && rep.deq_of_empty > 50, "{block} {rep:?}");
            same_as_model(block, &m, &p, &stim).unwrap();
        }
    }
}

/// §4.1: an enq into a full ATQ is refused even when the head leaves in the
/// same cycle; a per-warp queue takes an enq and a deq of one warp in one
/// cycle when it is full (the deq frees no slot for this edge: refused) and
/// when it is empty (the enq proceeds, the deq does nothing).
#[test]
fn same_cycle_enq_and_deq() {
    for mut q in engines("atq", &[("entries", 2)]) {
        let q = q.as_mut();
        let i = |q: &dyn Component, n: &str| q.input(n).unwrap();
        let (ev, et, deq) = (i(q, "enq_valid"), i(q, "enq_tuple"), i(q, "deq"));
        let (count, ready) = (q.output("count").unwrap(), q.output("enq_ready").unwrap());
        q.set_bool(i(q, "rst"), true);
        q.step();
        q.set_bool(i(q, "rst"), false);
        q.set_bool(ev, true);
        q.set(et, &TupleCmd { kind: KIND_ADDR, ..Default::default() }.pack());
        q.step();
        q.step();
        q.set_bool(deq, true);
        q.eval();
        assert!(!q.get_bool(ready));
        q.tick();
        q.eval();
        assert_eq!(q.get_u64(count), 1);
    }
    for mut q in engines("pwpq", &[("warps", 2), ("entries", 2)]) {
        let q = q.as_mut();
        let i = |q: &dyn Component, n: &str| q.input(n).unwrap();
        let (enq, ew, em, deq, dw) = (i(q, "enq"), i(q, "enq_warp"), i(q, "enq_mask"), i(q, "deq"), i(q, "deq_warp"));
        let (mask, empty, full) = (q.output("deq_mask").unwrap(), q.output("deq_empty").unwrap(), q.output("full_vec").unwrap());
        q.set_bool(i(q, "rst"), true);
        q.step();
        q.set_bool(i(q, "rst"), false);
        // Empty warp 1: enq + deq in one cycle: the mask stays.
        q.set_bool(enq, true);
        q.set_u64(ew, 1);
        q.set_u64(em, 0xaaaa);
        q.set_bool(deq, true);
        q.set_u64(dw, 1);
        q.step();
        q.set_bool(deq, false);
        q.set_bool(enq, false);
        q.eval();
        assert_eq!((q.get_bool(empty), q.get_u64(mask), q.get_u64(full)), (false, 0xaaaa, 0b10));
        // Full warp 1: enq + deq: the deq proceeds, the enq is refused.
        q.set_bool(enq, true);
        q.set_u64(em, 0x5555);
        q.set_bool(deq, true);
        q.step();
        q.set_bool(enq, false);
        q.set_bool(deq, false);
        q.eval();
        assert_eq!((q.get_bool(empty), q.get_u64(full)), (true, 0));
    }
}

#[test]
fn aeu_on_protocol_traffic() {
    for (ov, seed, cycles) in [(&[][..], 1, 60_000), (&[("warps", 12), ("ctas", 3)][..], 2, 30_000), (&[("warps", 1), ("ctas", 1)][..], 3, 10_000)] {
        let (m, p) = typed::<AeuParams>("aeu", ov);
        let stim = driven("aeu", &params("aeu", ov), seed, cycles);
        let rep = aeu::check_expansion(&mut NetlistSim::new(&m), &p, &stim).unwrap();
        println!("AEU netlist {p:?}: {rep:?}");
        assert!(rep.tuples > 20 && rep.records > 1000, "{rep:?}");
        same_as_model("aeu", &m, &params("aeu", ov), &stim).unwrap();
    }
}

/// The PEU mask property for every comparison operator, signed and
/// unsigned, on the netlist; the path counters it reports.
#[test]
fn peu_on_protocol_traffic_every_operator() {
    let mut total = peu::PeuReport::default();
    for (ov, seed, cycles) in [(&[][..], 11, 80_000), (&[("warps", 12), ("ctas", 3)][..], 12, 40_000), (&[("warps", 1), ("ctas", 1)][..], 13, 20_000)] {
        let (m, p) = typed::<PeuParams>("peu", ov);
        let stim = driven("peu", &params("peu", ov), seed, cycles);
        let rep = peu::check_masks(&mut NetlistSim::new(&m), &p, &stim).unwrap();
        same_as_model("peu", &m, &params("peu", ov), &stim).unwrap();
        for i in 0..4 {
            total.paths[i] += rep.paths[i];
        }
        for i in 0..16 {
            total.per_op[i] += rep.per_op[i];
        }
        total.warps += rep.warps;
        total.tuples += rep.tuples;
    }
    let names = ["lt", "le", "gt", "ge", "eq", "ne", "never", "always"];
    for (op, n) in total.per_op.iter().enumerate() {
        let sign = if op & 8 != 0 { "signed" } else { "unsigned" };
        println!("PEU netlist: {:>6} {sign:<8} {n} warp masks checked", names[op & 7]);
        assert!(*n > 200, "operator {op} checked only {n} times");
    }
    let [sc, un, se, cmp] = total.paths;
    let masks = (sc + un + se) as f64;
    println!(
        "PEU netlist path counters over {} tuples, {} masks: scalar {sc} ({:.1}%), two-compare {un} ({:.1}%), full {se} ({:.1}%); {cmp} comparisons ({:.2} per mask)",
        total.tuples,
        sc + un + se,
        100.0 * sc as f64 / masks,
        100.0 * un as f64 / masks,
        100.0 * se as f64 / masks,
        cmp as f64 / masks
    );
    assert!(sc > 1000 && un > 1000 && se > 1000);
}

#[test]
fn stack_on_random_divergence() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 3), ("depth", 2), ("pc_bits", 8)][..], 2), (&[("warps", 64), ("depth", 5), ("pc_bits", 20)][..], 3)] {
        let (m, p) = typed::<AffineSimtStackParams>("affine_simt_stack", ov);
        let stim = driven("affine_simt_stack", &params("affine_simt_stack", ov), seed, 30_000);
        let rep = stack::check_against_flat(&mut NetlistSim::new(&m), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!(
            "stack netlist {p:?}: {rep:?}; per-warp mask writes: flat {flat}, two-level {} (saves {:.1}%)",
            rep.pws_writes,
            100.0 * (flat - rep.pws_writes) as f64 / flat.max(1) as f64
        );
        assert!(rep.divergent > 500 && rep.reconvergences > 500 && rep.overflows > 5, "{rep:?}");
        same_as_model("affine_simt_stack", &m, &params("affine_simt_stack", ov), &stim).unwrap();
    }
    // The saving on the divergence decoupled code has (§4.5: bound checks,
    // warp-uniform conditions), on the default-size netlist.
    let (m, p) = typed::<AffineSimtStackParams>("affine_simt_stack", &[]);
    for (name, styles) in [("tid < bound", &[2u32][..]), ("bound checks and warp-uniform", &[0, 1, 2, 4]), ("random", &[5])] {
        let stim = Stimulus::record(&mut stack::StackDriver::with_styles(&p, 9, styles), 30_000);
        let rep = stack::check_against_flat(&mut NetlistSim::new(&m), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!(
            "stack netlist writes, {name}: {} entries; flat per-warp mask writes {flat}, two-level {} (saves {:.1}%)",
            rep.entry_writes,
            rep.pws_writes,
            100.0 * (flat - rep.pws_writes) as f64 / flat.max(1) as f64
        );
    }
}

#[test]
fn unit_end_to_end_on_the_netlist() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 6), ("ctas", 2), ("atq_entries", 3), ("pwaq_entries", 6), ("pwpq_entries", 12)][..], 2)] {
        let (m, p) = typed::<DacUnitParams>("dac_unit", ov);
        let stim = driven("dac_unit", &params("dac_unit", ov), seed, 40_000);
        let rep = dac_unit::check_end_to_end(&mut NetlistSim::new(&m), &p, &stim, false).unwrap();
        println!("dac_unit netlist {p:?}: {rep:?}");
        assert!(rep.addr_expansions > 300 && rep.masks > 500 && rep.throttled_cycles > 50, "{rep:?}");
        same_as_model("dac_unit", &m, &params("dac_unit", ov), &stim).unwrap();
    }
    // Enqueue, then drain: every expansion reaches its warp, every L1
    // request is matched.
    let (m, p) = typed::<DacUnitParams>("dac_unit", &[]);
    let stim = Stimulus::record(&mut dac_unit::DacUnitDriver::draining(&p, 7, 20_000), 50_000);
    let rep = dac_unit::check_end_to_end(&mut NetlistSim::new(&m), &p, &stim, true).unwrap();
    println!("dac_unit netlist drained: {rep:?}");
    assert!(rep.tuples > 30 && rep.l1_requests > 500, "{rep:?}");
}

// ---------------------------------------------------------------------------
// The paper's figures, on the netlist (and the model)
// ---------------------------------------------------------------------------

fn one_cta(dims: [u32; 3]) -> CtaConfig {
    CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
}

fn word(base: u32, otx: u32) -> TupleCmd {
    TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs: 0, kind: KIND_DATA, op: GRAN_WORD }
}

fn full_line(line: u32) -> Record {
    Record { mask: !0, line, sect: 0, gran: 2, last: true }
}

/// Figure 1 (A = 0x100 + 4·tid, C = A + 0x200), Figure 10 / §3 (offset 4:
/// one line per warp), §4.2 ("an offset of 8 generates 1010..."), the
/// unaligned variant of Figure 1, and the tuple of Figure 5 (A[] at 0x80000
/// plus 0x400·4, 256-thread blocks: `0x81000 + 4·tid.x + 1024·ctaid.x`)
/// expanded for four CTAs.
#[test]
fn aeu_paper_figures() {
    for ov in [&[("warps", 32), ("ctas", 4)][..], &[][..]] {
        for mut dut in engines("aeu", ov) {
            let p = AeuParams::from_params(&params("aeu", ov)).unwrap();
            let dut = dut.as_mut();
            // Figure 1.
            let (recs, _) = aeu::expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x100, 4));
            assert_eq!(recs[0], vec![full_line(2)]);
            let (recs, _) = aeu::expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x300, 4));
            assert_eq!(recs[0], vec![full_line(6)]);
            // Figure 10: consecutive lines for consecutive warps.
            let (recs, _) = aeu::expand_one(dut, &p, &one_cta([128, 1, 1]), word(0x80000, 4));
            for (w, rec) in recs.iter().enumerate().take(4) {
                assert_eq!(*rec, vec![full_line((0x80000 >> 7) + w as u32)]);
            }
            // §4.2: offset 8 is every other word, two lines per warp.
            let (recs, _) = aeu::expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x1000, 8));
            let half = |line, last| Record { mask: 0x5555_5555, line, sect: 0, gran: 2, last };
            assert_eq!(recs[0], vec![half(0x20, false), half(0x21, true)]);
            // Unaligned start: split at the line boundary.
            let (recs, _) = aeu::expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x108, 4));
            let part = |mask, line, last| Record { mask, line, sect: 0, gran: 2, last };
            assert_eq!(recs[0], vec![part(0xffff_fffc, 2, false), part(0x3, 3, true)]);
            // Figure 5, four 256-thread CTAs: 32 warps, one line each; 1
            // accept + 4 setup + 4 CTA starts + 32 records.
            let cfg = CtaConfig {
                dims: [256, 1, 1],
                valid: vec![true; 4],
                bid: (0..4).map(|b| [b, 0, 0]).collect(),
                warp0: (0..4).map(|b| 8 * b).collect(),
            };
            let fig5 = TupleCmd { aff: Aff::new(0x81000, [4, 0, 0, 1024, 0, 0]), ..word(0, 0) };
            let (recs, cycles) = aeu::expand_one(dut, &p, &cfg, fig5);
            for b in 0..4u32 {
                for w in 0..8u32 {
                    assert_eq!(recs[(8 * b + w) as usize], vec![full_line((0x81000 + 1024 * b + 128 * w) >> 7)]);
                }
            }
            assert_eq!(cycles, 1 + 4 + 4 + 32);
        }
    }
}

/// Cycles per warp for the common cases, on the default-size netlist.
#[test]
fn aeu_cycles_per_warp() {
    let (m, p) = typed::<AeuParams>("aeu", &[]);
    let mut dut = NetlistSim::new(&m);
    let cfg = CtaConfig {
        dims: [192, 1, 1],
        valid: vec![true; 8],
        bid: (0..8).map(|c| [c, 0, 0]).collect(),
        warp0: (0..8).map(|c| 6 * c).collect(),
    };
    let with_block = |t: TupleCmd| TupleCmd { aff: Aff { off: [t.aff.off[0], 0, 0, 192 * t.aff.off[0], 0, 0], ..t.aff }, ..t };
    let cases = [
        ("offset 4 word, line-aligned", with_block(word(0x10_0000, 4)), 1 + 4 + 8 + 48),
        ("offset 4 word, unaligned", with_block(word(0x10_0008, 4)), 1 + 4 + 8 + 96),
        ("offset 0 (one address)", with_block(word(0x10_0000, 0)), 1 + 4 + 8 + 48),
        ("offset 8 word", with_block(word(0x10_0000, 8)), 1 + 4 + 8 + 96),
        ("offset 1 byte", TupleCmd { op: GRAN_BYTE, ..with_block(word(0x10_0000, 1)) }, 1 + 4 + 8 + 48),
        ("offset 12 word (serial)", with_block(word(0x10_0000, 12)), 1 + 4 + 8 + 48 * 32),
    ];
    for (name, t, want) in cases {
        let (recs, cycles) = aeu::expand_one(&mut dut, &p, &cfg, t);
        let n: usize = recs.iter().map(|r| r.len()).sum();
        println!("AEU netlist {name}: {cycles} cycles for 48 warps = {:.2} cycles/warp, {n} records", cycles as f64 / 48.0);
        assert_eq!(cycles, want, "{name}");
    }
}

/// Every edge case the issue lists — unaligned starts, zero and negative
/// offsets, offsets larger than a line, 32-bit wrap-around — at every
/// granularity and for 1-D, 2-D and 3-D blocks: the records of each warp
/// cover exactly the reference's units, none is empty, the last has `last`.
#[test]
fn aeu_edge_cases_on_the_netlist() {
    let ov = [("warps", 16), ("ctas", 2)];
    let (m, p) = typed::<AeuParams>("aeu", &ov);
    let mut dut = NetlistSim::new(&m);
    let bases = [0u32, 0x7c, 0xffff_ff80, 0xffff_fff0, 0x8000_0000 - 6, 3];
    let offsets = [
        0u32, 1, 2, 4, 8, 12, 128, 132, 256, 0xffff_fffc, 0xffff_fff8, 0xffff_ff80, 0x8000_0000, 0x4000_0000,
        0x1000_0000, 7, 0xffff_fff9,
    ];
    let mut warps = 0;
    for dims in [[64, 1, 1], [5, 3, 2], [33, 2, 1], [16, 4, 1]] {
        let cfg = CtaConfig { dims, valid: vec![true, true], bid: vec![[1, 0, 0], [3, 2, 1]], warp0: vec![0, 4] };
        for base in bases {
            for otx in offsets {
                for gran in 0..4 {
                    let mut t = TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs: 0, kind: KIND_ADDR, op: gran };
                    t.aff.off[1] = otx.wrapping_mul(dims[0]).wrapping_add(if dims[1] == 3 { 0 } else { 0x40 });
                    t.aff.off[2] = 0x1234;
                    t.aff.off[3] = 0x8000;
                    let (recs, _) = aeu::expand_one(&mut dut, &p, &cfg, t);
                    for (ci, b) in [(0usize, [1u32, 0, 0]), (1, [3, 2, 1])] {
                        let g = CtaGeom { dims, bid: b };
                        for wi in 0..g.warps() {
                            let slot = (cfg.warp0[ci] + wi) as usize;
                            let got: std::collections::BTreeSet<u32> = recs[slot].iter().flat_map(|r| r.units().collect::<Vec<_>>()).collect();
                            assert!(recs[slot].iter().all(|r| r.mask != 0), "{t:?}: empty record");
                            assert!(recs[slot].last().unwrap().last);
                            assert!(recs[slot][..recs[slot].len() - 1].iter().all(|r| !r.last));
                            assert_eq!(got, dac::affine::warp_units(&t.aff, &g, wi, t.op), "{t:?} {dims:?} cta {ci} warp {wi}");
                            warps += 1;
                        }
                    }
                }
            }
        }
    }
    println!("AEU netlist edge cases: {warps} warp expansions checked");
}

fn pred(base: u32, otx: u32, rhs: u32, op: u64) -> TupleCmd {
    TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs, kind: KIND_PRED, op }
}

/// Figure 7 line 15 (`setp.ne p0, dim, i`: scalar vs scalar, one comparison
/// per CTA), a bound check `tid < 70` (two-compare shortcut except the warp
/// holding the bound), `eq` with a hit between the ends, and a progression
/// that wraps inside the warp (both need the full comparison).
#[test]
fn peu_paper_figures() {
    for mut dut in engines("peu", &[("warps", 8), ("ctas", 1)]) {
        let p = PeuParams { warps: 8, ctas: 1 };
        let dut = dut.as_mut();
        let (m, _, cnt) = peu::expand_one(dut, &p, &one_cta([256, 1, 1]), pred(7, 0, 10, CMP_NE));
        assert_eq!((m, cnt), (vec![Some(!0); 8], [8, 0, 0, 1]));
        let (m, cycles, cnt) = peu::expand_one(dut, &p, &one_cta([256, 1, 1]), pred(0, 1, 70, CMP_LT));
        let want: Vec<Option<u32>> = (0..8).map(|w| Some([!0, !0, 0x3f, 0, 0, 0, 0, 0][w])).collect();
        assert_eq!(m, want);
        assert_eq!(cnt, [0, 7, 1, 7 * 2 + 2 + 31]);
        assert_eq!(cycles, 1 + 4 + 1 + 7 * 2 + 1 + 32);
        let one = PeuParams { warps: 8, ctas: 1 };
        for (op, want) in [(CMP_EQ, 1u32 << 9), (CMP_NE, !(1u32 << 9))] {
            let (m, _, cnt) = peu::expand_one(dut, &one, &one_cta([32, 1, 1]), pred(100, 4, 136, op));
            assert_eq!((m[0], cnt[2]), (Some(want), 1));
        }
        let (m, _, cnt) = peu::expand_one(dut, &one, &one_cta([32, 1, 1]), pred(100, 4, 99, CMP_EQ));
        assert_eq!((m[0], cnt[1]), (Some(0), 1));
        let t = pred(0xffff_ff00, 16, 0x10, CMP_GT);
        let want = dac::affine::warp_pred_mask(&t.aff, t.rhs, t.op, &CtaGeom { dims: [32, 1, 1], bid: [0; 3] }, 0);
        let (m, _, cnt) = peu::expand_one(dut, &one, &one_cta([32, 1, 1]), t);
        assert_eq!((m[0], cnt[2]), (Some(want), 1));
        let (m, _, cnt) = peu::expand_one(dut, &one, &one_cta([32, 1, 1]), pred(0xffff_ff00, 16, -1000i32 as u32, CMP_GT | CMP_SIGNED));
        assert_eq!((m[0], cnt[1]), (Some(!0), 1));
        // `eq`/`ne` where rhs is exactly a warp's first or last value: the
        // ends are not strictly on one side, so not uniform.
        for (t, dims, want) in [
            (pred(0, 1, 32, CMP_EQ), [64, 1, 1], [Some(0), Some(1)]),
            (pred(0, 1, 32, CMP_NE), [64, 1, 1], [Some(!0), Some(!1)]),
            (pred(100, u32::MAX, 69, CMP_EQ), [32, 1, 1], [Some(1 << 31), None]),
            (pred(100, u32::MAX, 69, CMP_NE | CMP_SIGNED), [32, 1, 1], [Some(!(1 << 31)), None]),
        ] {
            let (m, _, _) = peu::expand_one(dut, &one, &one_cta(dims), t);
            assert_eq!(m[..2], want, "{t:?}");
        }
    }
}

fn cond_words(masks: &[u32]) -> Vec<u64> {
    let mut w = vec![0u64; masks.len().div_ceil(2)];
    for (i, m) in masks.iter().enumerate() {
        w[i / 2] |= (*m as u64) << (32 * (i % 2));
    }
    w
}

/// Figure 13: an if/else where warps 0, 1 take the branch, warp 3 does not
/// and only warp 2 diverges: only warp 2 writes its per-warp stack.
#[test]
fn stack_figure_13() {
    for mut s in engines("affine_simt_stack", &[("warps", 4), ("depth", 8), ("pc_bits", 32)]) {
        let s = s.as_mut();
        let i = |s: &dyn Component, n: &str| s.input(n).unwrap();
        let (op, pc, pcf, rpc, cond, rd) = (i(s, "op"), i(s, "pc"), i(s, "pc_fall"), i(s, "rpc"), i(s, "cond"), i(s, "rd_warp"));
        let o = |n: &str| s.output(n).unwrap();
        let (depth, tpc, codes, rdm, pw) = (o("depth"), o("top_pc"), o("codes"), o("rd_mask"), o("pws_writes"));
        s.set_bool(i(s, "rst"), true);
        s.step();
        s.set_bool(i(s, "rst"), false);
        s.set_u64(op, stack::OP_INIT);
        s.set_u64(pc, 0xa);
        s.set(cond, &cond_words(&[!0; 4]));
        s.step();
        s.set_u64(op, stack::OP_BRANCH);
        s.set_u64(pc, 0xc);
        s.set_u64(pcf, 0xb);
        s.set_u64(rpc, 0xd);
        s.set(cond, &cond_words(&[!0, !0, 0x0000_ffff, 0]));
        s.step();
        s.set_u64(op, stack::OP_NOP);
        s.set_u64(rd, 2);
        s.eval();
        assert_eq!((s.get_u64(depth), s.get_u64(tpc), s.get_u64(codes)), (3, 0xc, 0b00_10_11_11));
        assert_eq!(s.get_u64(rdm), 0x0000_ffff);
        assert_eq!(s.get_u64(pw), 2, "warp 2 writes its stack for BB_b and BB_c, nobody else");
        s.set_u64(op, stack::OP_ADV);
        s.set_u64(pc, 0xd);
        s.step();
        s.set_u64(op, stack::OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(depth), s.get_u64(tpc), s.get_u64(codes), s.get_u64(rdm)), (2, 0xb, 0b11_10_00_00, 0xffff_0000));
        s.set_u64(op, stack::OP_ADV);
        s.step();
        s.set_u64(op, stack::OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(depth), s.get_u64(tpc), s.get_u64(codes)), (1, 0xd, 0xff));
    }
}

/// Figure 9 end to end on the default unit: the affine warp enqueues the
/// Figure 5 load (`enq.data`) and the bound check `tid < 70`; the units
/// expand them; warp 0 dequeues its line (requested from L1 when it was
/// pushed) and warp 2 its mask.
#[test]
fn unit_figure_9_flow() {
    for mut u in engines("dac_unit", &[]) {
        let u = u.as_mut();
        let p = DacUnitParams::default();
        verif::poke::clear_inputs(u);
        let i = |u: &dyn Component, n: &str| u.input(n).unwrap();
        verif::models::dac::set_cta_config(u, &one_cta([256, 1, 1]), p.warp_bits());
        u.set_bool(i(u, "rst"), true);
        u.step();
        u.set_bool(i(u, "rst"), false);
        let (ev, et) = (i(u, "enq_valid"), i(u, "enq_tuple"));
        let fig5 = TupleCmd { aff: Aff::new(0x81000, [4, 0, 0, 1024, 0, 0]), ..word(0, 0) };
        let o = |u: &dyn Component, n: &str| u.output(n).unwrap();
        let (ready, l1, l1_line) = (o(u, "enq_ready"), o(u, "l1_req"), o(u, "l1_req_line"));
        let (addr_rec, pred_mask, addr_empty, pred_empty) = (o(u, "addr_rec"), o(u, "pred_mask"), o(u, "addr_empty"), o(u, "pred_empty"));
        let cnt = [o(u, "peu_cnt_scalar"), o(u, "peu_cnt_uniform"), o(u, "peu_cnt_serial")];
        let mut lines = vec![];
        for t in [fig5, pred(0, 1, 70, CMP_LT)] {
            u.set_bool(ev, true);
            u.set(et, &t.pack());
            u.eval();
            assert!(u.get_bool(ready));
            u.tick();
        }
        u.set_bool(ev, false);
        for _ in 0..100 {
            u.eval();
            if u.get_bool(l1) {
                lines.push(u.get_u64(l1_line));
            }
            u.tick();
        }
        assert_eq!(lines, (0..8).map(|w| (0x81000 + 128 * w) >> 7).collect::<Vec<u64>>());
        let (da, daw, dp, dpw) = (i(u, "deq_addr"), i(u, "deq_addr_warp"), i(u, "deq_pred"), i(u, "deq_pred_warp"));
        u.set_bool(da, true);
        u.set_u64(daw, 0);
        u.set_bool(dp, true);
        u.set_u64(dpw, 2);
        u.eval();
        assert_eq!(Record::unpack(u.get_u64(addr_rec)), full_line(0x81000 >> 7));
        assert_eq!(u.get_u64(pred_mask), 0x3f);
        u.tick();
        u.set_bool(da, false);
        u.set_bool(dp, false);
        u.eval();
        assert!(u.get_bool(addr_empty) && u.get_bool(pred_empty));
        assert_eq!(cnt.map(|x| u.get_u64(x)), [0, 7, 1]);
    }
}

// ---------------------------------------------------------------------------
// Co-simulation of the emitted Verilog
// ---------------------------------------------------------------------------

/// 100,000 driver cycles at the paper's size under Verilator; the same
/// stimulus through the reference model.
fn verilator_100k(block: &str, seed: u64) {
    let (m, p) = elaborate(block, &[]);
    let stim = driven(block, &p, seed, 100_000);
    let t = std::time::Instant::now();
    let r = cosim(&m, None, &stim, Simulator::Verilator, &work(&format!("{block}-verilator"))).unwrap();
    println!("{block}: Verilator co-simulation of {} cycles, {} outputs, harness built: {}, {:.1} s", r.cycles, r.outputs, r.built, t.elapsed().as_secs_f64());
    assert!(r.mismatch.is_none(), "{}", r.mismatch.unwrap());
    assert_eq!(r.cycles, 100_000);
    same_as_model(block, &m, &p, &stim).unwrap();
}

#[test]
fn verilator_cosim_atq() {
    verilator_100k("atq", 2026);
}

#[test]
fn verilator_cosim_pwaq() {
    verilator_100k("pwaq", 2026);
}

#[test]
fn verilator_cosim_pwpq() {
    verilator_100k("pwpq", 2027);
}

#[test]
fn verilator_cosim_aeu() {
    verilator_100k("aeu", 2026);
}

#[test]
fn verilator_cosim_peu() {
    verilator_100k("peu", 2026);
}

#[test]
fn verilator_cosim_affine_simt_stack() {
    verilator_100k("affine_simt_stack", 2026);
}

#[test]
fn verilator_cosim_dac_unit() {
    verilator_100k("dac_unit", 2026);
}

/// A second opinion: iverilog on a few thousand cycles of every block at
/// small sizes.
#[test]
fn iverilog_cosim_every_block() {
    for (block, ov) in [
        ("atq", ATQ_SMALL),
        ("pwaq", PWAQ_SMALL),
        ("pwpq", PWPQ_SMALL),
        ("aeu", AEU_SMALL),
        ("peu", PEU_SMALL),
        ("affine_simt_stack", STACK_SMALL),
        ("dac_unit", UNIT_SMALL),
    ] {
        let (m, p) = elaborate(block, ov);
        let stim = driven(block, &p, 11, 3000);
        let r = cosim(&m, None, &stim, Simulator::Iverilog, &work(&format!("{block}-iverilog"))).unwrap();
        assert!(r.mismatch.is_none(), "{block}: {}", r.mismatch.unwrap());
    }
}

/// A wrong two-compare rule in the emitted Verilog (`eq`/`ne` decided by
/// the ends alone) is caught by co-simulation against the netlist.
#[test]
fn injected_verilog_fault_is_caught() {
    let (m, p) = elaborate("peu", PEU_SMALL);
    let mut files = hw::verilog::emit(&m);
    let f = files.iter_mut().find(|f| f.module == m.name).unwrap();
    let needle = "assign case_uniform = ";
    let start = f.text.find(needle).expect("named wire present");
    let end = start + f.text[start..].find(';').unwrap();
    let line = f.text[start..end].to_string();
    f.text = f.text.replacen(&line, "assign case_uniform = case_decide & (cmp_first == cmp_last)", 1);
    let stim = driven("peu", &p, 5, 5000);
    let r = cosim(&m, Some(&files), &stim, Simulator::Verilator, &work("peu-fault")).unwrap();
    let mm = r.mismatch.expect("the injected fault must be caught");
    assert!(mm.rust_vcd.exists() && mm.rtl_vcd.exists(), "{mm}");
}
