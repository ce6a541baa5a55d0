//! Address expansion unit (DAC): the generated hardware against the reference
//! model (arbitrary tuples, driver traffic at random sizes), the coverage
//! property on both engines, the paper's figures, the edge cases and the
//! cycle counts, a corrupted record caught, co-simulation.

use crate::common::{arbitrary_small, two_ctas_of_128, MASKED_UNIT, driven, engines, matches_model, ports_of, top_of, tuple_value, typed, Corrupt, Ov};
use hw::blocks::dac::aeu::AeuParams;
use hw::blocks::dac::tuple::*;
use hw::iface::InterfaceExt;
use models::dac::aeu::Aeu;
use models::dac::affine::{warp_units, Aff, CtaGeom};
use models::dac::{CtaConfig, Record, TupleCmd};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use std::collections::BTreeSet;
use verif::dac::aeu::{check_expansion, driver, expand_masked, expand_one};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 5), ("ctas", 3)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("aeu", SMALL), 120, |q| {
        (*q == typed::<AeuParams>("aeu", SMALL).decls().in_tuple).then(tuple_value)
    })) {
        prop_assert_eq!(matches_model("aeu", SMALL, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Constrained traffic at random small sizes: the expansion property holds
    /// on the netlist and it equals the model.
    #[test]
    fn hardware_at_random_sizes(warps in 1u64..=20, ctas in 1u64..=5, seed in any::<u64>()) {
        let ov = [("warps", warps), ("ctas", ctas)];
        let p: AeuParams = typed("aeu", &ov);
        let stim = driven("aeu", &ov, seed, 4_000);
        let r = check_expansion(&mut NetlistSim::new(&top_of("aeu", &ov)), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
        prop_assert_eq!(matches_model("aeu", &ov, &stim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Random parameters and seeds: the coverage property holds on the model.
    #[test]
    fn records_cover_exactly_on_the_model(warps in 1u32..=64, ctas in 1u32..=16, seed in any::<u64>()) {
        let p = AeuParams { warps, ctas };
        let stim = Stimulus::record(&mut driver(&p, seed), 8_000);
        let r = check_expansion(&mut Aeu::new(&p), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn protocol_traffic_expands_exactly() {
    for (ov, seed, cycles) in [(&[][..], 1, 60_000), (&[("warps", 12), ("ctas", 3)][..], 2, 30_000), (&[("warps", 1), ("ctas", 1)][..], 3, 10_000)] {
        let p: AeuParams = typed("aeu", ov);
        let stim = driven("aeu", ov, seed, cycles);
        let rep = check_expansion(&mut NetlistSim::new(&top_of("aeu", ov)), &p, &stim).unwrap();
        println!("AEU netlist {p:?}: {rep:?}");
        assert!(rep.tuples > 20 && rep.records > 1000, "{rep:?}");
        matches_model("aeu", ov, &stim).unwrap();
    }
    for (p, seed, cycles) in [(AeuParams::default(), 1, 60_000), (AeuParams { warps: 12, ctas: 3 }, 2, 40_000), (AeuParams { warps: 1, ctas: 1 }, 3, 20_000)] {
        let stim = Stimulus::record(&mut driver(&p, seed), cycles);
        let rep = check_expansion(&mut Aeu::new(&p), &p, &stim).unwrap();
        println!("AEU model {p:?}: {rep:?}");
        assert!(rep.tuples > 50 && rep.records > 1000, "{rep:?}");
    }
}

fn one_cta(dims: [u32; 3]) -> CtaConfig {
    CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
}

fn word(base: u32, otx: u32) -> TupleCmd {
    TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs: 0, kind: KIND_DATA, op: GRAN_WORD, ctas: TupleCmd::ALL_CTAS }
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
fn paper_figures() {
    for ov in [&[("warps", 32), ("ctas", 4)][..], &[][..]] {
        let p: AeuParams = typed("aeu", ov);
        for mut dut in engines("aeu", ov) {
            let dut = dut.as_mut();
            // Figure 1.
            let (recs, _) = expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x100, 4));
            assert_eq!(recs[0], vec![full_line(2)]);
            let (recs, _) = expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x300, 4));
            assert_eq!(recs[0], vec![full_line(6)]);
            // Figure 10: consecutive lines for consecutive warps.
            let (recs, _) = expand_one(dut, &p, &one_cta([128, 1, 1]), word(0x80000, 4));
            for (w, rec) in recs.iter().enumerate().take(4) {
                assert_eq!(*rec, vec![full_line((0x80000 >> 7) + w as u32)]);
            }
            // §4.2: offset 8 is every other word, two lines per warp.
            let (recs, _) = expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x1000, 8));
            let half = |line, last| Record { mask: 0x5555_5555, line, sect: 0, gran: 2, last };
            assert_eq!(recs[0], vec![half(0x20, false), half(0x21, true)]);
            // Unaligned start: split at the line boundary.
            let (recs, _) = expand_one(dut, &p, &one_cta([32, 1, 1]), word(0x108, 4));
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
            let (recs, cycles) = expand_one(dut, &p, &cfg, fig5);
            for b in 0..4u32 {
                for w in 0..8u32 {
                    assert_eq!(recs[(8 * b + w) as usize], vec![full_line((0x81000 + 1024 * b + 128 * w) >> 7)]);
                }
            }
            assert_eq!(cycles, 1 + 2 + 4 + 32);
        }
    }
}

/// Cycles per warp for the common cases (reported in the block's doc), on
/// both engines.
#[test]
fn cycles_per_warp() {
    let p = AeuParams::default();
    // 8 CTAs of 192 threads (6 warps each) = 48 warps.
    let cfg = CtaConfig {
        dims: [192, 1, 1],
        valid: vec![true; 8],
        bid: (0..8).map(|c| [c, 0, 0]).collect(),
        warp0: (0..8).map(|c| 6 * c).collect(),
    };
    let with_block = |t: TupleCmd| TupleCmd { aff: Aff { off: [t.aff.off[0], 0, 0, 192 * t.aff.off[0], 0, 0], ..t.aff }, ..t };
    let cases = [
        ("offset 4 word, line-aligned", with_block(word(0x10_0000, 4)), 1 + 2 + 8 + 48),
        ("offset 4 word, unaligned", with_block(word(0x10_0008, 4)), 1 + 2 + 8 + 96),
        ("offset 0 (one address)", with_block(word(0x10_0000, 0)), 1 + 2 + 8 + 48),
        ("offset 8 word", with_block(word(0x10_0000, 8)), 1 + 2 + 8 + 96),
        ("offset 1 byte", TupleCmd { op: GRAN_BYTE, ..with_block(word(0x10_0000, 1)) }, 1 + 2 + 8 + 48),
        ("offset 12 word (serial)", with_block(word(0x10_0000, 12)), 1 + 2 + 8 + 48 * 32),
    ];
    for mut dut in engines("aeu", &[]) {
        for (name, t, want) in cases {
            let (recs, cycles) = expand_one(dut.as_mut(), &p, &cfg, t);
            let n: usize = recs.iter().map(|r| r.len()).sum();
            println!("AEU {} {name}: {cycles} cycles for 48 warps = {:.2} cycles/warp, {n} records", dut.name(), cycles as f64 / 48.0);
            assert_eq!(cycles, want, "{name}");
        }
    }
    // A 2D block whose rows are 32 threads: the tuple of tid.y*32+tid.x is
    // linear (no adjustment cycles), a transposed one is not.
    let p8 = AeuParams { warps: 8, ctas: 1 };
    for mut dut in engines("aeu", &[("warps", 8), ("ctas", 1)]) {
        let cfg2 = one_cta([32, 8, 1]);
        let lin = TupleCmd { aff: Aff::new(0x2000, [4, 128, 0, 0, 0, 0]), ..word(0, 0) };
        let (_, c_lin) = expand_one(dut.as_mut(), &p8, &cfg2, lin);
        let strided = TupleCmd { aff: Aff::new(0x2000, [4, 4096, 0, 0, 0, 0]), ..word(0, 0) };
        let (_, c_str) = expand_one(dut.as_mut(), &p8, &cfg2, strided);
        println!("AEU 32x8 block: linear {c_lin} cycles, row stride 4096: {c_str} cycles (8 warps)");
        assert_eq!(c_lin, 1 + 3 + 1 + 8);
        assert_eq!(c_str, 1 + 3 + 1 + 8 + 7);
    }
}

/// Every edge case the issue lists — unaligned starts, zero and negative
/// offsets, offsets larger than a line, 32-bit wrap-around — at every
/// granularity and for 1-D, 2-D and 3-D blocks: the records of each warp
/// cover exactly the reference's units, none is empty, the last has `last`.
#[test]
fn edge_cases_cover_exactly() {
    let ov = [("warps", 16), ("ctas", 2)];
    let p: AeuParams = typed("aeu", &ov);
    let bases = [0u32, 0x7c, 0xffff_ff80, 0xffff_fff0, 0x8000_0000 - 6, 3];
    let offsets = [
        0u32, 1, 2, 4, 8, 12, 128, 132, 256, 0xffff_fffc, 0xffff_fff8, 0xffff_ff80, 0x8000_0000, 0x4000_0000, 0x1000_0000, 7,
        0xffff_fff9,
    ];
    for mut dut in engines("aeu", &ov) {
        let dut = dut.as_mut();
        let mut warps = 0;
        for dims in [[64, 1, 1], [5, 3, 2], [33, 2, 1], [16, 4, 1]] {
            let cfg = CtaConfig { dims, valid: vec![true, true], bid: vec![[1, 0, 0], [3, 2, 1]], warp0: vec![0, 4] };
            for base in bases {
                for otx in offsets {
                    for gran in 0..4 {
                        let mut t = TupleCmd { kind: KIND_ADDR, op: gran, ..word(base, otx) };
                        t.aff.off[1] = otx.wrapping_mul(dims[0]).wrapping_add(if dims[1] == 3 { 0 } else { 0x40 });
                        t.aff.off[2] = 0x1234;
                        t.aff.off[3] = 0x8000;
                        let (recs, _) = expand_one(dut, &p, &cfg, t);
                        for (ci, b) in [(0usize, [1u32, 0, 0]), (1, [3, 2, 1])] {
                            let g = CtaGeom { dims, bid: b };
                            for wi in 0..g.warps() {
                                let slot = (cfg.warp0[ci] + wi) as usize;
                                let got: BTreeSet<u32> = recs[slot].iter().flat_map(|r| r.units().collect::<Vec<_>>()).collect();
                                assert!(recs[slot].iter().all(|r| r.mask != 0), "{t:?}: empty record");
                                assert!(recs[slot].last().unwrap().last);
                                assert!(recs[slot][..recs[slot].len() - 1].iter().all(|r| !r.last));
                                assert_eq!(got, warp_units(&t.aff, &g, wi, t.op, u32::MAX), "{t:?} {dims:?} cta {ci} warp {wi}");
                                warps += 1;
                            }
                        }
                    }
                }
            }
        }
        println!("AEU {} edge cases: {warps} warp expansions checked", dut.name());
    }
}

#[test]
fn reset_mid_tuple_returns_to_idle() {
    let p = AeuParams { warps: 4, ctas: 1 };
    for mut dut in engines("aeu", &[("warps", 4), ("ctas", 1)]) {
        let dut = dut.as_mut();
        let io = p.bind(dut).unwrap();
        verif::poke::reset(dut);
        dut.set_u64(io.cta.valid, 1);
        dut.set_u64(io.cta.dim_x_m1, 127);
        dut.set_bool(io.in_valid, true);
        dut.set(io.in_tuple, &word(0, 12).pack());
        dut.step();
        dut.set_bool(io.in_valid, false);
        for _ in 0..10 {
            dut.step();
        }
        dut.eval();
        assert!(!dut.get_bool(io.in_ready));
        dut.set_bool(io.rst, true);
        dut.step();
        dut.set_bool(io.rst, false);
        dut.eval();
        assert!(dut.get_bool(io.in_ready));
        assert!(!dut.get_bool(io.push));
    }
}

/// The expansion property rejects a record with one unit dropped, one with
/// a wrong line, and one emptied.
#[test]
fn expansion_property_rejects_corrupted_records() {
    let p = AeuParams::default();
    let stim = Stimulus::record(&mut driver(&p, 1), 20_000);
    let io = p.ids();
    let (push, rec) = (io.push, io.push_rec);
    let mut d = Corrupt::new(Box::new(Aeu::new(&p)), rec, 300, move |a: &dyn Component| {
        let r = a.get_u64(rec);
        (a.get_u64(push) == 1 && (r as u32).count_ones() >= 2).then(|| vec![r & !((r as u32) & (r as u32).wrapping_neg()) as u64])
    });
    assert!(check_expansion(&mut d, &p, &stim).is_err());
    let mut d = Corrupt::new(Box::new(Aeu::new(&p)), rec, 300, move |a: &dyn Component| {
        (a.get_u64(push) == 1).then(|| vec![a.get_u64(rec) ^ 1 << hw::blocks::dac::record::LINE])
    });
    assert!(check_expansion(&mut d, &p, &stim).is_err());
    let mut d = Corrupt::new(Box::new(Aeu::new(&p)), rec, 100, move |a: &dyn Component| {
        let r = a.get_u64(rec);
        (a.get_u64(push) == 1 && r as u32 != 0).then(|| vec![r & !0xffff_ffff])
    });
    let e = check_expansion(&mut d, &p, &stim).unwrap_err();
    assert!(e.contains("records cover") || e.contains("push_data"), "{e}");
}

/// Active threads (§4.5, §4.6) and the CTA set, on every engine: two CTAs
/// of 128 threads, a tuple for the second only, `a[tid]` under an
/// `if (tid < 70)` that also dropped some threads of the last warp. The
/// records name only active threads' words: none for the first CTA or for
/// a warp with no active thread, one empty record where a step covers only
/// inactive threads; a stride-8 tuple spreads the lanes over every other
/// word.
#[test]
fn active_threads_and_the_cta_set() {
    let p: AeuParams = typed("aeu", MASKED_UNIT);
    let cfg = two_ctas_of_128();
    let lanes = [u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, 0, 0x3f, 0x00ff_00f0];
    for mut dut in engines("aeu", MASKED_UNIT) {
        let t = TupleCmd { ctas: 0b10, ..word(0x4000, 4) };
        let (recs, _) = expand_masked(dut.as_mut(), &p, &cfg, t, &lanes);
        assert!(recs[..4].iter().all(|r| r.is_empty()), "the first CTA is not the tuple's: {recs:x?}");
        let line = |w: u32| (0x4000 + 128 * w) >> 7;
        assert_eq!(recs[4], vec![Record { mask: !0, line: line(0), sect: 0, gran: 2, last: true }]);
        assert!(recs[5].is_empty(), "a warp with no active thread");
        assert_eq!(recs[6], vec![Record { mask: 0x3f, line: line(2), sect: 0, gran: 2, last: true }]);
        assert_eq!(recs[7], vec![Record { mask: 0x00ff_00f0, line: line(3), sect: 0, gran: 2, last: true }]);
        // Stride 8: lanes 0..16 in one line, 16..32 in the next.
        let (recs, _) = expand_masked(dut.as_mut(), &p, &cfg, TupleCmd { ctas: 0b10, ..word(0x4000, 8) }, &lanes);
        let spread = |m: u32| (0..16).filter(|i| m >> i & 1 != 0).fold(0u32, |a, i| a | 1 << (2 * i));
        let l7 = 0x00ff_00f0u32;
        assert_eq!(
            recs[7],
            vec![
                Record { mask: spread(l7 & 0xffff), line: (0x4000 + 256 * 3) >> 7, sect: 0, gran: 2, last: false },
                Record { mask: spread(l7 >> 16), line: (0x4000 + 256 * 3 + 128) >> 7, sect: 0, gran: 2, last: true },
            ]
        );
        // Lanes 0..6 only: the warp's second line has no active thread; its
        // record is pushed empty so that `last` stays on the warp's last one.
        assert_eq!(recs[6], vec![
            Record { mask: spread(0x3f), line: (0x4000 + 256 * 2) >> 7, sect: 0, gran: 2, last: false },
            Record { mask: 0, line: (0x4000 + 256 * 2 + 128) >> 7, sect: 0, gran: 2, last: true },
        ]);
        // Negative stride and a serial one, against the reference.
        for otx in [(-4i32) as u32, 12, 0] {
            let t = TupleCmd { ctas: 0b10, ..word(0x8000, otx) };
            let (recs, _) = expand_masked(dut.as_mut(), &p, &cfg, t, &lanes);
            for wi in 0..4u32 {
                let g = CtaGeom { dims: cfg.dims, bid: [1, 0, 0] };
                let got: BTreeSet<u32> = recs[4 + wi as usize].iter().flat_map(|r| r.units().collect::<Vec<_>>()).collect();
                assert_eq!(got, warp_units(&t.aff, &g, wi, t.op, lanes[4 + wi as usize]), "otx {otx} warp {wi}");
            }
        }
    }
}

cosim_tests!("aeu", seed 2026, small SMALL, and_model);

/// §4.2: a CTA held at a barrier (`cta_hold`) gets no record while it is
/// held; the unit expands the tuple for its other CTA meanwhile, then for
/// the held one once it is released, and the records are those of an
/// unheld expansion.
#[test]
fn a_held_cta_waits_and_the_other_goes_on() {
    let p: AeuParams = typed("aeu", MASKED_UNIT);
    let cfg = two_ctas_of_128();
    let t = TupleCmd { ctas: 0b11, ..word(0x4000, 4) };
    let all = vec![u32::MAX; p.warps as usize];
    for mut dut in engines("aeu", MASKED_UNIT) {
        let (want, _) = expand_masked(dut.as_mut(), &p, &cfg, t, &all);
        let io = p.bind(dut.as_ref()).unwrap();
        dut.set_bool(io.rst, true);
        dut.step();
        dut.set_bool(io.rst, false);
        dut.set_u64(io.cta_hold, 0b01);
        dut.set_bool(io.in_valid, true);
        dut.set(io.in_tuple, &t.pack());
        dut.step();
        dut.set_bool(io.in_valid, false);
        let mut got = vec![Vec::new(); p.warps as usize];
        let mut first_of_cta0 = None;
        for c in 0..200 {
            if c == 60 {
                dut.set_u64(io.cta_hold, 0);
            }
            dut.eval();
            if dut.get_bool(io.push) {
                let w = dut.get_u64(io.push_warp) as usize;
                if w < 4 {
                    first_of_cta0.get_or_insert(c);
                }
                got[w].push(Record::unpack(dut.get_u64(io.push_rec)));
            }
            dut.tick();
        }
        assert!(first_of_cta0.is_some_and(|c| c >= 60), "CTA slot 0 expanded while held: {first_of_cta0:?}");
        assert!(got[4..8].iter().all(|r| !r.is_empty()), "CTA slot 1 went on meanwhile");
        assert_eq!(got, want);
    }
}
