//! Affine SIMT stack (DAC): the generated hardware against the reference
//! model (arbitrary inputs, random divergence), the two-level form against a
//! flat stack on both engines, Figure 13, the writes saved, a corrupted mask
//! caught, co-simulation.

use crate::common::{arbitrary_small, cond_value, driven, engines, matches_model, ports_of, top_of, typed, Corrupt, Ov};
use hw::blocks::dac::affine_simt_stack::AffineSimtStackParams;
use hw::iface::InterfaceExt;
use models::dac::affine_simt_stack::{AffineSimtStack, OP_ADV, OP_BRANCH, OP_INIT, OP_NOP};
use proptest::prelude::*;
use sim::{Bind, Component, ComponentExt, NetlistSim};
use verif::dac::affine_simt_stack::{check_against_flat, StackDriver};
use verif::stimulus::Stimulus;

pub const SMALL: Ov = &[("warps", 3), ("depth", 3), ("pc_bits", 8)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn hardware_matches_reference(stim in arbitrary_small(&ports_of("affine_simt_stack", SMALL), 60, |q| {
        (*q == typed::<AffineSimtStackParams>("affine_simt_stack", SMALL).decls().cond).then(|| cond_value(3))
    })) {
        prop_assert_eq!(matches_model("affine_simt_stack", SMALL, &stim), Ok(()));
        let sp: AffineSimtStackParams = typed("affine_simt_stack", SMALL);
        prop_assert!(check_against_flat(&mut NetlistSim::new(&top_of("affine_simt_stack", SMALL)), &sp, &stim).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Random shapes and seeds: the two-level stack equals the flat one, on
    /// the model.
    #[test]
    fn two_level_equals_flat_on_the_model(warps in 1u32..=64, depth in 2u32..=12, pc_bits in 8u32..=64, seed in any::<u64>()) {
        let p = AffineSimtStackParams { warps, depth, pc_bits };
        let stim = Stimulus::record(&mut StackDriver::new(&p, seed), 6_000);
        let r = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}

fn saving(flat: u64, two_level: u64) -> f64 {
    100.0 * (flat - two_level) as f64 / flat.max(1) as f64
}

#[test]
fn two_level_equals_flat_on_random_divergence() {
    for (ov, seed) in [(&[][..], 1), (&[("warps", 3), ("depth", 2), ("pc_bits", 8)][..], 2), (&[("warps", 64), ("depth", 5), ("pc_bits", 20)][..], 3)] {
        let p: AffineSimtStackParams = typed("affine_simt_stack", ov);
        let stim = driven("affine_simt_stack", ov, seed, 30_000);
        let rep = check_against_flat(&mut NetlistSim::new(&top_of("affine_simt_stack", ov)), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!("stack netlist {p:?}: {rep:?}; per-warp mask writes: flat {flat}, two-level {} (saves {:.1}%)", rep.pws_writes, saving(flat, rep.pws_writes));
        assert!(rep.divergent > 500 && rep.reconvergences > 500 && rep.overflows > 5, "{rep:?}");
        matches_model("affine_simt_stack", ov, &stim).unwrap();
    }
    for (p, seed, cycles) in [
        (AffineSimtStackParams::default(), 1, 50_000),
        (AffineSimtStackParams { warps: 3, depth: 2, pc_bits: 8 }, 2, 30_000),
        (AffineSimtStackParams { warps: 64, depth: 5, pc_bits: 20 }, 3, 30_000),
    ] {
        let stim = Stimulus::record(&mut StackDriver::new(&p, seed), cycles);
        let rep = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!("stack model {p:?}: {rep:?}; per-warp mask writes: flat {flat}, two-level {} (saves {:.1}%)", rep.pws_writes, saving(flat, rep.pws_writes));
        assert!(rep.divergent > 1000 && rep.reconvergences > 1000 && rep.overflows > 10, "{rep:?}");
        assert_eq!(rep.max_depth, p.depth as usize);
    }
}

/// The saving on the kinds of divergence decoupled code has (§4.5: bound
/// checks and warp-uniform conditions), reported in the block doc.
#[test]
fn writes_saved_on_bound_checks() {
    let p = AffineSimtStackParams::default();
    for (name, styles) in [("tid < bound", &[2u32][..]), ("bound checks and warp-uniform", &[0, 1, 2, 4]), ("random", &[5])] {
        let stim = Stimulus::record(&mut StackDriver::with_styles(&p, 9, styles), 30_000);
        let rep = check_against_flat(&mut NetlistSim::new(&top_of("affine_simt_stack", &[])), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!("stack netlist writes, {name}: {} entries; flat per-warp mask writes {flat}, two-level {} (saves {:.1}%)", rep.entry_writes, rep.pws_writes, saving(flat, rep.pws_writes));
        let stim = Stimulus::record(&mut StackDriver::with_styles(&p, 9, styles), 50_000);
        let rep = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim).unwrap();
        let flat = rep.entry_writes * p.warps as u64;
        println!("stack model writes, {name}: {} entries pushed; flat per-warp mask writes {flat}, two-level {} (saves {:.1}%)", rep.entry_writes, rep.pws_writes, saving(flat, rep.pws_writes));
    }
}

/// Figure 13: an if/else where warps 0, 1 take the branch, warp 3 does not
/// and only warp 2 diverges: only warp 2 writes its per-warp stack (once per
/// pushed entry); the others live in the codes.
#[test]
fn figure_13_only_the_mixed_warp_writes_its_stack() {
    let p = AffineSimtStackParams { warps: 4, depth: 8, pc_bits: 32 };
    for mut s in engines("affine_simt_stack", &[("warps", 4), ("depth", 8), ("pc_bits", 32)]) {
        let s = s.as_mut();
        let io = p.bind(s).unwrap();
        s.set_bool(io.rst, true);
        s.step();
        s.set_bool(io.rst, false);
        s.set_u64(io.op, OP_INIT);
        s.set_u64(io.pc, 0xa);
        s.set(io.cond, &models::dac::warp_words(&[!0; 4]));
        s.step();
        // BB_a: branch to BB_c (taken) / BB_b (fall-through), reconverge at BB_d.
        s.set_u64(io.op, OP_BRANCH);
        s.set_u64(io.pc, 0xc);
        s.set_u64(io.pc_fall, 0xb);
        s.set_u64(io.rpc, 0xd);
        s.set(io.cond, &models::dac::warp_words(&[!0, !0, 0x0000_ffff, 0]));
        s.step();
        s.set_u64(io.op, OP_NOP);
        s.set_u64(io.rd_warp, 2);
        s.eval();
        // Top: BB_c for the taken threads: w0, w1 all (11), w2 mixed (10), w3 none (00).
        assert_eq!((s.get_u64(io.depth), s.get_u64(io.top_pc), s.get_u64(io.codes)), (3, 0xc, 0b00_10_11_11));
        assert_eq!(s.get_u64(io.rd_mask), 0x0000_ffff);
        assert_eq!(s.get_u64(io.pws_writes), 2, "warp 2 writes its stack for BB_b and BB_c, nobody else");
        // Finish BB_c, reconverge: advance to BB_d pops to BB_b.
        s.set_u64(io.op, OP_ADV);
        s.set_u64(io.pc, 0xd);
        s.step();
        s.set_u64(io.op, OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(io.depth), s.get_u64(io.top_pc), s.get_u64(io.codes), s.get_u64(io.rd_mask)), (2, 0xb, 0b11_10_00_00, 0xffff_0000));
        s.set_u64(io.op, OP_ADV);
        s.step();
        s.set_u64(io.op, OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(io.depth), s.get_u64(io.top_pc), s.get_u64(io.codes)), (1, 0xd, 0xff));
    }
}

/// The flat-stack comparison rejects a mixed mask with one thread flipped.
#[test]
fn flat_comparison_rejects_a_wrong_mask() {
    let p = AffineSimtStackParams::default();
    let stim = Stimulus::record(&mut StackDriver::new(&p, 1), 5_000);
    let rd = p.ids().rd_mask;
    let mut d = Corrupt::new(Box::new(AffineSimtStack::new(&p)), rd, 200, move |a: &dyn Component| {
        let m = a.get_u64(rd);
        (m != 0 && m != 0xffff_ffff).then(|| vec![m ^ 1])
    });
    assert!(check_against_flat(&mut d, &p, &stim).is_err());
}

cosim_tests!("affine_simt_stack", seed 2026, small SMALL, and_model);
