//! Predicate expansion unit (DAC): the generated hardware against the
//! reference model (arbitrary tuples, driver traffic at random sizes), the
//! mask property for every operator on both engines, the paper's figures and
//! the two-compare rule, corrupted outputs caught, co-simulation with a fault
//! injected into the emitted Verilog.

use crate::common::{arbitrary_small, two_ctas_of_128, MASKED_UNIT, driven, engines, matches_model, ports_of, top_of, tuple_value, typed, work, Corrupt, Ov};
use hw::blocks::dac::peu::PeuParams;
use hw::blocks::dac::tuple::*;
use hw::iface::InterfaceExt;
use models::dac::affine::{compare, warp_pred_mask, Aff, CtaGeom};
use models::dac::peu::{last_of, shortcut, Peu};
use models::dac::{CtaConfig, TupleCmd};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::cosim::{cosim, Simulator};
use verif::dac::peu::{check_masks, driver, expand_masked, expand_one, PeuReport};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 5), ("ctas", 3)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("peu", SMALL), 120, |q| {
        (*q == typed::<PeuParams>("peu", SMALL).decls().in_tuple).then(tuple_value)
    })) {
        prop_assert_eq!(matches_model("peu", SMALL, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Constrained traffic at random small sizes: the mask property holds on
    /// the netlist and it equals the model.
    #[test]
    fn hardware_at_random_sizes(warps in 1u64..=20, ctas in 1u64..=5, seed in any::<u64>()) {
        let ov = [("warps", warps), ("ctas", ctas)];
        let p: PeuParams = typed("peu", &ov);
        let stim = driven("peu", &ov, seed, 4_000);
        let r = check_masks(&mut NetlistSim::new(&top_of("peu", &ov)), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
        prop_assert_eq!(matches_model("peu", &ov, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Random parameters and seeds: masks equal the per-thread reference, on
    /// the model.
    #[test]
    fn masks_match_on_the_model(warps in 1u32..=64, ctas in 1u32..=16, seed in any::<u64>()) {
        let p = PeuParams { warps, ctas };
        let stim = Stimulus::record(&mut driver(&p, seed), 8_000);
        let r = check_masks(&mut Peu::new(&p), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// The two-comparison rule in isolation: whenever it answers for a
    /// non-wrapping progression, every thread agrees with it; the 38-bit
    /// last value is the 32-bit progression's last value.
    #[test]
    fn shortcut_is_sound(
        acc in prop_oneof![any::<u32>(), 0x7fff_ff00u32..0x8000_0100, 0u32..256, 0xffff_ff00u32..=u32::MAX],
        s in prop_oneof![-8i32..8, -300i32..300, any::<i32>()],
        n in 1u32..=32,
        j in 0u32..40,
        d in -2i32..=2,
        far in any::<bool>(),
        r in any::<u32>(),
        op in 0u64..16,
    ) {
        let s = s as u32;
        let rhs = if far { r } else { acc.wrapping_add(s.wrapping_mul(j)).wrapping_add(d as u32) };
        let (last, wrap) = last_of(op, acc, s, n);
        prop_assert_eq!(last, acc.wrapping_add(s.wrapping_mul(n - 1)));
        if !wrap {
            if let Some(res) = shortcut(op, acc, last, s, n, rhs) {
                for t in 0..n {
                    prop_assert_eq!(compare(op, acc.wrapping_add(s.wrapping_mul(t)), rhs), res, "thread {}", t);
                }
            }
        }
    }
}

/// Without the care taken above, the rule is wrong: `c0 == c1` alone for
/// eq/ne, or ignoring wrap-around, gives masks that differ from the
/// per-thread reference (examples the unit must, and does, handle).
#[test]
fn naive_two_compare_rule_would_be_wrong() {
    // eq, offset 4: ends 100 and 224 differ from 136, thread 9 equals it.
    let (acc, s, n, rhs) = (100u32, 4u32, 32u32, 136u32);
    let last = acc + s * (n - 1);
    assert_eq!(compare(CMP_EQ, acc, rhs), compare(CMP_EQ, last, rhs));
    assert!(compare(CMP_EQ, acc + 9 * s, rhs));
    assert_eq!(shortcut(CMP_EQ, acc, last, s, n, rhs), None);
    // unsigned wrap: ends 0xffffff00 and 0xf0 both > 0x10, thread 16 is 0.
    let (acc, s) = (0xffff_ff00u32, 16u32);
    let (last, wrap) = last_of(CMP_GT, acc, s, 32);
    assert!(wrap && compare(CMP_GT, acc, 0x10) && compare(CMP_GT, last, 0x10));
    assert!(!compare(CMP_GT, acc.wrapping_add(16 * s), 0x10));
}

fn add(total: &mut PeuReport, rep: &PeuReport) {
    for i in 0..4 {
        total.paths[i] += rep.paths[i];
    }
    for i in 0..16 {
        total.per_op[i] += rep.per_op[i];
    }
    total.warps += rep.warps;
    total.tuples += rep.tuples;
}

fn report(engine: &str, total: &PeuReport) {
    let names = ["lt", "le", "gt", "ge", "eq", "ne", "never", "always"];
    for (op, n) in total.per_op.iter().enumerate() {
        let sign = if op & 8 != 0 { "signed" } else { "unsigned" };
        println!("PEU {engine}: {:>6} {sign:<8} {n} warp masks checked", names[op & 7]);
        assert!(*n > 200, "operator {op} checked only {n} times");
    }
    let [sc, un, se, cmp] = total.paths;
    let masks = (sc + un + se) as f64;
    println!(
        "PEU {engine} path counters over {} tuples, {} masks: scalar {sc} ({:.1}%), two-compare {un} ({:.1}%), full {se} ({:.1}%); {cmp} comparisons ({:.2} per mask)",
        total.tuples,
        sc + un + se,
        100.0 * sc as f64 / masks,
        100.0 * un as f64 / masks,
        100.0 * se as f64 / masks,
        cmp as f64 / masks
    );
    assert!(sc > 1000 && un > 1000 && se > 1000);
}

/// The mask property for every comparison operator, signed and unsigned,
/// on the netlist and on the model; the path counters it reports.
#[test]
fn protocol_traffic_every_operator() {
    let mut total = PeuReport::default();
    for (ov, seed, cycles) in [(&[][..], 11, 80_000), (&[("warps", 12), ("ctas", 3)][..], 12, 40_000), (&[("warps", 1), ("ctas", 1)][..], 13, 20_000)] {
        let p: PeuParams = typed("peu", ov);
        let stim = driven("peu", ov, seed, cycles);
        let rep = check_masks(&mut NetlistSim::new(&top_of("peu", ov)), &p, &stim).unwrap();
        matches_model("peu", ov, &stim).unwrap();
        add(&mut total, &rep);
    }
    report("netlist", &total);
    let mut total = PeuReport::default();
    for (p, seed, cycles) in [(PeuParams::default(), 11, 80_000), (PeuParams { warps: 12, ctas: 3 }, 12, 40_000), (PeuParams { warps: 1, ctas: 1 }, 13, 20_000)] {
        let stim = Stimulus::record(&mut driver(&p, seed), cycles);
        let rep = check_masks(&mut Peu::new(&p), &p, &stim).unwrap();
        add(&mut total, &rep);
    }
    report("model", &total);
}

fn one_cta(dims: [u32; 3]) -> CtaConfig {
    CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
}

/// Active threads and the CTA set, on every engine: `tid < 70` for the
/// second of two CTAs of 128 threads. A warp with no active thread gets no
/// mask and is not counted; the others' masks are 0 at inactive threads.
#[test]
fn active_threads_and_the_cta_set() {
    let p: PeuParams = typed("peu", MASKED_UNIT);
    let cfg = two_ctas_of_128();
    let lanes = [u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, 0, 0xffff_0fff, 0x00ff_00f0];
    for mut dut in engines("peu", MASKED_UNIT) {
        let t = TupleCmd { ctas: 0b10, ..pred(0, 1, 70, CMP_LT) };
        let (masks, _, cnt) = expand_masked(dut.as_mut(), &p, &cfg, t, &lanes);
        assert_eq!(masks, vec![None, None, None, None, Some(!0), None, Some(0x0000_003f & 0xffff_0fff), Some(0)]);
        assert_eq!(cnt[0] + cnt[1] + cnt[2], 3, "one count per pushed mask");
    }
}

fn pred(base: u32, otx: u32, rhs: u32, op: u64) -> TupleCmd {
    TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs, kind: KIND_PRED, op, ctas: TupleCmd::ALL_CTAS }
}

/// Figure 7 line 15 (`setp.ne p0, dim, i`: scalar vs scalar, one comparison
/// per CTA), a bound check `tid < 70` (two-compare shortcut except the warp
/// holding the bound), `eq` with a hit between the ends, an `eq` rhs between
/// the ends but off the progression, and a progression that wraps inside the
/// warp (both need the full comparison).
#[test]
fn paper_figures() {
    let p = PeuParams { warps: 8, ctas: 1 };
    for mut dut in engines("peu", &[("warps", 8), ("ctas", 1)]) {
        let dut = dut.as_mut();
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([256, 1, 1]), pred(7, 0, 10, CMP_NE));
        assert_eq!((m, cnt), (vec![Some(!0); 8], [8, 0, 0, 1]));
        let (m, cycles, cnt) = expand_one(dut, &p, &one_cta([256, 1, 1]), pred(0, 1, 70, CMP_LT));
        let want: Vec<Option<u32>> = (0..8).map(|w| Some([!0, !0, 0x3f, 0, 0, 0, 0, 0][w])).collect();
        assert_eq!(m, want);
        assert_eq!(cnt, [0, 7, 1, 7 * 2 + 2 + 31]);
        // accept, 2 setup (the thread count), 1 start, 7 x 2 shortcut, 1 + 32 fallback
        assert_eq!(cycles, 1 + 2 + 1 + 7 * 2 + 1 + 32);
        for (op, want) in [(CMP_EQ, 1u32 << 9), (CMP_NE, !(1u32 << 9))] {
            let (m, _, cnt) = expand_one(dut, &p, &one_cta([32, 1, 1]), pred(100, 4, 136, op));
            assert_eq!((m[0], cnt[2]), (Some(want), 1), "must take the serial path");
        }
        // ... while an rhs outside the range is uniform with two compares.
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([32, 1, 1]), pred(100, 4, 99, CMP_EQ));
        assert_eq!((m[0], cnt[1]), (Some(0), 1));
        // ... and an rhs between the ends but not on the progression (odd) is
        // not provable with two compares: serial, and the mask is all false.
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([32, 1, 1]), pred(100, 4, 137, CMP_EQ));
        assert_eq!((m[0], cnt[2]), (Some(0), 1));
        // Unsigned 0xffffff00 + 16·t wraps to 0 at thread 16: both ends are
        // greater than 0x10, thread 16 is not.
        let t = pred(0xffff_ff00, 16, 0x10, CMP_GT);
        let want = warp_pred_mask(&t.aff, t.rhs, t.op, &CtaGeom { dims: [32, 1, 1], bid: [0; 3] }, 0);
        assert_ne!(want, !0);
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([32, 1, 1]), t);
        assert_eq!((m[0], cnt[2]), (Some(want), 1));
        // The same values compared signed do not wrap (-256 .. 240): with
        // rhs = -1000 both ends are greater: uniform true.
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([32, 1, 1]), pred(0xffff_ff00, 16, -1000i32 as u32, CMP_GT | CMP_SIGNED));
        assert_eq!((m[0], cnt[1]), (Some(!0), 1));
        // `eq`/`ne` where rhs is exactly a warp's first or last value: the
        // ends are not strictly on one side, so not uniform.
        for (t, dims, want) in [
            (pred(0, 1, 32, CMP_EQ), [64, 1, 1], [Some(0), Some(1)]),
            (pred(0, 1, 32, CMP_NE), [64, 1, 1], [Some(!0), Some(!1)]),
            (pred(100, u32::MAX, 69, CMP_EQ), [32, 1, 1], [Some(1 << 31), None]),
            (pred(100, u32::MAX, 69, CMP_NE | CMP_SIGNED), [32, 1, 1], [Some(!(1 << 31)), None]),
        ] {
            let (m, _, _) = expand_one(dut, &p, &one_cta(dims), t);
            assert_eq!(m[..2], want, "{t:?}");
        }
    }
}

/// A warp of a 16×16 block spans two rows: each row is a progression of its
/// own, decided by two comparisons (`tid.x + 100·tid.y < 250`: rows 0–2
/// true, row 3 false, so warp 1's mask is its first row), so the warp takes
/// two segments of 2 cycles and a row adjustment each, not 32 serial comparisons;
/// a row the ends do not decide (`tid.x == 5`) falls back to serial for
/// the rest of the warp. On every engine, against the per-thread reference.
#[test]
fn a_warp_over_two_rows_is_two_segments() {
    let p = PeuParams { warps: 8, ctas: 1 };
    for mut dut in engines("peu", &[("warps", 8), ("ctas", 1)]) {
        let dut = dut.as_mut();
        let g = CtaGeom { dims: [16, 16, 1], bid: [0; 3] };
        let rows = TupleCmd { aff: Aff::new(0, [1, 100, 0, 0, 0, 0]), ..pred(0, 1, 250, CMP_LT) };
        let (m, cycles, cnt) = expand_one(dut, &p, &one_cta([16, 16, 1]), rows);
        for (w, got) in m.iter().enumerate() {
            assert_eq!(*got, Some(warp_pred_mask(&rows.aff, rows.rhs, rows.op, &g, w as u32)), "warp {w}");
        }
        assert_eq!(m[..3], [Some(!0), Some(0xffff), Some(0)]);
        assert_eq!(cnt, [0, 8, 0, 32], "{cnt:?}");
        // accept + 3 setup (row adjustment, thread count) + start + per row: last, decide, and the row
        // adjustment (none after the CTA's last row).
        println!("PEU {}: a 16x16 block, 8 warps over two rows each: {cycles} cycles", dut.name());
        assert_eq!(cycles, 1 + 3 + 1 + 16 * 3 - 1, "{cycles}");
        let eq = pred(0, 1, 5, CMP_EQ);
        let (m, _, cnt) = expand_one(dut, &p, &one_cta([16, 16, 1]), eq);
        assert_eq!(m[3], Some(1 << 5 | 1 << 21));
        assert_eq!((cnt[1], cnt[2]), (0, 8), "{cnt:?}");
    }
}

/// The mask property rejects a flipped thread and a wrong counter.
#[test]
fn mask_property_rejects_a_flipped_thread() {
    let p = PeuParams::default();
    let stim = Stimulus::record(&mut driver(&p, 1), 20_000);
    let io = p.ids();
    let (push, mask, uniform) = (io.push, io.push_mask, io.cnt_uniform);
    let mut d = Corrupt::new(Box::new(Peu::new(&p)), mask, 100, move |a: &dyn Component| {
        (a.get_u64(push) == 1).then(|| vec![a.get_u64(mask) ^ 1])
    });
    assert!(check_masks(&mut d, &p, &stim).unwrap_err().contains("reference"));
    let mut d = Corrupt::new(Box::new(Peu::new(&p)), uniform, 300, move |a: &dyn Component| Some(vec![a.get_u64(uniform) + 1]));
    assert!(check_masks(&mut d, &p, &stim).unwrap_err().contains("counters"));
}

cosim_tests!("peu", seed 2026, small SMALL, and_model);

/// A wrong two-compare rule in the emitted Verilog (`eq`/`ne` decided by
/// the ends alone) is caught by co-simulation against the netlist.
#[test]
fn injected_verilog_fault_is_caught() {
    let m = top_of("peu", SMALL);
    let mut files = hw::verilog::emit(&m);
    let f = files.iter_mut().find(|f| f.module == m.name).unwrap();
    let needle = "assign case_uniform = ";
    let start = f.text.find(needle).expect("named wire present");
    let end = start + f.text[start..].find(';').unwrap();
    let line = f.text[start..end].to_string();
    f.text = f.text.replacen(&line, "assign case_uniform = case_decide & (cmp_first == cmp_last)", 1);
    let stim = driven("peu", SMALL, 5, 5000);
    let r = cosim(&m, Some(&files), &stim, Simulator::Verilator, &work("peu-fault")).unwrap();
    let mm = r.mismatch.expect("the injected fault must be caught");
    assert!(mm.rust_vcd.exists() && mm.rtl_vcd.exists(), "{mm}");
}
