//! Verification of the predicate expansion unit (PEU) (specification
//! `hw/src/blocks/dac/peu.rs`, model `models::dac::peu`): its driver, the mask
//! property against the per-thread reference of `models::dac::affine`, and a
//! one-tuple harness for directed tests.

use super::stim::{self, Expansion, ExpansionDriver, ExpansionPorts};
use crate::stimulus::{Frame, Stimulus};
use hw::blocks::dac::peu::PeuParams;
use hw::iface::InterfaceExt;
use models::dac::{affine, CtaConfig, TupleCmd};
use sim::{Bind, Component, ComponentExt};

/// Registry entry: the driver of `peu`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "peu",
    driver: |p, seed| Ok(Box::new(driver(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Constrained-random PEU traffic: predicate tuples (see [`ExpansionDriver`]).
pub fn driver(p: &PeuParams, seed: u64) -> ExpansionDriver {
    let io = p.ids();
    let ports =
        ExpansionPorts { rst: io.rst, in_valid: io.in_valid, in_tuple: io.in_tuple, cta: io.cta, full: io.pwpq_full, lanes: io.lane_mask, hold: None };
    ExpansionDriver::new(Expansion::Pred, &p.ports(), ports, &p.expansion(), seed)
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// What a run of [`check_masks`] saw: warps per path and per operator.
#[derive(Clone, Debug, Default)]
pub struct PeuReport {
    pub tuples: u64,
    pub warps: u64,
    /// Increments of cnt_scalar, cnt_uniform, cnt_serial, cnt_cmp.
    pub paths: [u64; 4],
    /// Warps checked per operator code (0..16).
    pub per_op: [u64; 16],
    pub busy_cycles: u64,
}

/// Run `stim` through `dut` (any engine with the PEU's ports) and check, for
/// every tuple the unit accepted and finished, that each warp of each of the
/// tuple's valid CTAs with active threads got exactly one mask, equal to the
/// per-thread reference ([`affine::warp_pred_mask`]) at those threads and 0
/// elsewhere, and a warp with none no mask; that nothing is pushed into a
/// full queue or to a warp outside those CTAs; and that the path counters
/// advance by exactly one per pushed mask. The CTA
/// configuration and `lane_mask` inputs must change only in reset cycles.
pub fn check_masks(dut: &mut dyn Component, p: &PeuParams, stim: &Stimulus) -> Result<PeuReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (in_ready, push, push_warp, push_mask) = (io.in_ready, io.push, io.push_warp, io.push_mask);
    let cnt = [io.cnt_scalar, io.cnt_uniform, io.cnt_serial, io.cnt_cmp];
    let (s_rst, s_valid, s_tuple, s_full) = (io.rst, io.in_valid, io.in_tuple, io.pwpq_full);
    let mut frame = Frame::new(layout.clone());
    let mut rep = PeuReport::default();
    struct Cur {
        t: TupleCmd,
        cfg: CtaConfig,
        lanes: Vec<u32>,
        /// Per warp slot: owned by a valid CTA, mask received.
        got: Vec<(bool, Option<u32>)>,
        start: usize,
    }
    let mut cur: Option<Cur> = None;
    // Counters of the previous cycle (None after a reset) and its push.
    let mut prev: Option<([u32; 4], bool)> = None;
    let mut after_rst = false;
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let counts = cnt.map(|id| dut.get_u64(id) as u32);
        let pushed = dut.get_bool(push);
        if after_rst && counts != [0; 4] {
            return err(format!("counters {counts:?} not cleared by reset"));
        }
        if let Some((pc, pushed_before)) = prev {
            let d: Vec<u32> = (0..4).map(|i| counts[i].wrapping_sub(pc[i])).collect();
            if d[0] + d[1] + d[2] != pushed_before as u32 {
                return err(format!("path counters advanced by {d:?} for {} pushed masks", pushed_before as u32));
            }
            for i in 0..4 {
                rep.paths[i] += d[i] as u64;
            }
        }
        let rst = frame.get(s_rst)[0] & 1 != 0;
        if rst {
            cur = None;
        } else {
            if pushed {
                let w = dut.get_u64(push_warp) as u32;
                let m = dut.get_u64(push_mask) as u32;
                let Some(k) = cur.as_mut() else { return err(format!("push for warp {w} with no tuple")) };
                if frame.get(s_full)[0] >> w & 1 != 0 {
                    return err(format!("push into the full queue of warp {w}"));
                }
                if w >= p.warps || !k.got[w as usize].0 {
                    return err(format!("push for warp {w}, which no target CTA owns"));
                }
                if k.lanes[w as usize] == 0 {
                    return err(format!("push for warp {w}, which has no active thread"));
                }
                if k.got[w as usize].1.replace(m).is_some() {
                    return err(format!("second mask for warp {w}"));
                }
            }
            if dut.get_bool(in_ready) {
                if let Some(k) = cur.take() {
                    for ci in stim::targets(&k.cfg, &k.t) {
                        let g = k.cfg.geom(ci);
                        for wi in 0..g.warps() {
                            let slot = (k.cfg.warp0[ci] + wi) as usize;
                            let lanes = k.lanes[slot];
                            let want = (lanes != 0).then(|| affine::warp_pred_mask(&k.t.aff, k.t.rhs, k.t.op, &g, wi) & lanes);
                            if k.got[slot].1 != want {
                                return err(format!(
                                    "tuple {:?} {} op {} dims {:?} cta {ci} bid {:?} warp {wi} (slot {slot}) lanes {lanes:08x}: mask {:x?}, reference {want:x?}",
                                    k.t.aff, k.t.rhs, k.t.op, k.cfg.dims, g.bid, k.got[slot].1
                                ));
                            }
                            rep.warps += 1;
                            rep.per_op[k.t.op as usize] += 1;
                        }
                    }
                    rep.tuples += 1;
                    rep.busy_cycles += (c - k.start) as u64;
                }
                if frame.get(s_valid)[0] & 1 != 0 {
                    let t = TupleCmd::unpack(frame.get(s_tuple));
                    let cfg = stim::config_from_frame(&frame, &io.cta, p.ctas, p.warp_bits());
                    let lanes = (0..p.warps as usize).map(|w| models::dac::warp_mask(frame.get(io.lane_mask), w)).collect();
                    let mut got = vec![(false, None); p.warps as usize];
                    for ci in stim::targets(&cfg, &t) {
                        for wi in 0..cfg.geom(ci).warps() {
                            got[(cfg.warp0[ci] + wi) as usize].0 = true;
                        }
                    }
                    cur = Some(Cur { t, cfg, lanes, got, start: c });
                }
            }
        }
        let rst_now = frame.get(s_rst)[0] & 1 != 0;
        prev = if rst_now { None } else { Some((counts, pushed)) };
        after_rst = rst_now;
        dut.tick();
    }
    Ok(rep)
}

/// Run one tuple through `dut` (a PEU of parameters `p`, any engine) from
/// reset with no backpressure, every thread active; the mask pushed per warp slot, the cycles
/// from accepting the tuple to being ready again, and the counters
/// (`cnt_scalar`, `cnt_uniform`, `cnt_serial`, `cnt_cmp`) at the end.
pub fn expand_one(dut: &mut dyn Component, p: &PeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Option<u32>>, u64, [u64; 4]) {
    expand_masked(dut, p, cfg, t, &vec![u32::MAX; p.warps as usize])
}

/// [`expand_one`] with `lanes` (per warp slot) as the active threads.
pub fn expand_masked(
    dut: &mut dyn Component,
    p: &PeuParams,
    cfg: &CtaConfig,
    t: TupleCmd,
    lanes: &[u32],
) -> (Vec<Option<u32>>, u64, [u64; 4]) {
    let io = p.bind(dut).unwrap();
    crate::poke::clear_inputs(dut);
    cfg.write(&io.cta, p.warp_bits(), |id, v| dut.set(id, v));
    dut.set(io.lane_mask, &models::dac::warp_words(lanes));
    let (rst, iv, it) = (io.rst, io.in_valid, io.in_tuple);
    dut.set_bool(rst, true);
    dut.step();
    dut.set_bool(rst, false);
    dut.set_bool(iv, true);
    dut.set(it, &t.pack());
    dut.step();
    dut.set_bool(iv, false);
    let (ready, push, pw, pm) = (io.in_ready, io.push, io.push_warp, io.push_mask);
    let cnt = [io.cnt_scalar, io.cnt_uniform, io.cnt_serial, io.cnt_cmp];
    let mut out = vec![None; p.warps as usize];
    let mut cycles = 1;
    loop {
        dut.eval();
        if dut.get_bool(ready) {
            break;
        }
        if dut.get_bool(push) {
            assert!(out[dut.get_u64(pw) as usize].replace(dut.get_u64(pm) as u32).is_none(), "two masks for one warp");
        }
        dut.tick();
        cycles += 1;
        assert!(cycles < 100_000, "the PEU does not finish");
    }
    (out, cycles, cnt.map(|id| dut.get_u64(id)))
}

