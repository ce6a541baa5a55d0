//! Verification of the address expansion unit (AEU) (specification
//! `hw/src/blocks/dac/aeu.rs`, model `models::dac::aeu`): its driver, the
//! expansion property against the per-thread reference of `models::dac::affine`,
//! and a one-tuple harness for directed tests.

use super::stim::{self, Expansion, ExpansionDriver, ExpansionPorts};
use crate::stimulus::{Frame, Stimulus};
use hw::blocks::dac::aeu::AeuParams;
use hw::blocks::dac::tuple;
use hw::iface::InterfaceExt;
use models::dac::{affine, CtaConfig, Record, TupleCmd};
use sim::{Bind, Component, ComponentExt};
use std::collections::BTreeSet;

/// Registry entry: the driver of `aeu`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "aeu",
    driver: |p, seed| Ok(Box::new(driver(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Constrained-random AEU traffic: address tuples (see [`ExpansionDriver`]).
pub fn driver(p: &AeuParams, seed: u64) -> ExpansionDriver {
    let io = p.ids();
    let ports =
        ExpansionPorts { rst: io.rst, in_valid: io.in_valid, in_tuple: io.in_tuple, cta: io.cta, full: io.pwaq_full, lanes: io.lane_mask, hold: Some(io.cta_hold) };
    ExpansionDriver::new(Expansion::Addr, &p.ports(), ports, &p.expansion(), seed)
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// What a run of [`check_expansion`] saw.
#[derive(Clone, Debug, Default)]
pub struct AeuReport {
    pub tuples: u64,
    pub warps: u64,
    pub records: u64,
    /// Cycles from accepting a tuple to being ready again, summed.
    pub busy_cycles: u64,
}

/// Run `stim` through `dut` (any engine with the AEU's ports) and check, for
/// every tuple the unit accepted and finished:
/// - the records pushed for each warp with active threads cover exactly the
///   access units the per-thread reference expansion gives for those
///   threads ([`affine::warp_units`]), records carry the tuple's
///   granularity, and the last record of each warp, and only it, has `last`
///   set; a warp with none gets no record,
/// - nothing is pushed for a warp whose `pwaq_full` is set in that cycle, nor
///   for a warp of a CTA whose `cta_hold` is set, nor for warps outside the
///   tuple's valid CTAs,
/// - `push_data` is set exactly for non-empty records of `enq.data` tuples.
///
/// The CTA configuration and `lane_mask` inputs must change only in reset
/// cycles.
pub fn check_expansion(dut: &mut dyn Component, p: &AeuParams, stim: &Stimulus) -> Result<AeuReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (in_ready, push, push_warp, push_rec, push_data) = (io.in_ready, io.push, io.push_warp, io.push_rec, io.push_data);
    let (s_rst, s_valid, s_tuple, s_full) = (io.rst, io.in_valid, io.in_tuple, io.pwaq_full);
    let mut frame = Frame::new(layout.clone());
    let mut rep = AeuReport::default();
    // The tuple being expanded: command, config, per-warp (units, saw_last), start cycle.
    struct Cur {
        t: TupleCmd,
        cfg: CtaConfig,
        lanes: Vec<u32>,
        got: Vec<(BTreeSet<u32>, bool, u64)>,
        start: usize,
    }
    let mut cur: Option<Cur> = None;
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let rst = frame.get(s_rst)[0] & 1 != 0;
        let ready = dut.get_bool(in_ready);
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        if rst {
            cur = None;
        } else {
            if dut.get_bool(push) {
                let w = dut.get_u64(push_warp) as u32;
                let rec = Record::unpack(dut.get_u64(push_rec));
                let Some(k) = cur.as_mut() else { return err(format!("push for warp {w} with no tuple")) };
                if frame.get(s_full)[0] >> w & 1 != 0 {
                    return err(format!("push into the full queue of warp {w}"));
                }
                let held = frame.get(io.cta_hold)[0];
                if let Some(ci) = stim::targets(&k.cfg, &k.t).into_iter().find(|&ci| (k.cfg.warp0[ci]..k.cfg.warp0[ci] + k.cfg.geom(ci).warps()).contains(&w)) {
                    if held >> ci & 1 != 0 {
                        return err(format!("push for warp {w} of CTA slot {ci}, which is held"));
                    }
                }
                if w >= p.warps || k.got[w as usize].2 == 0 {
                    return err(format!("push for warp {w}, which no target CTA owns"));
                }
                if k.lanes[w as usize] == 0 {
                    return err(format!("push for warp {w}, which has no active thread"));
                }
                let g = k.t.op & 3;
                if rec.gran as u64 != g.min(2) {
                    return err(format!("record granularity {} for tuple granularity {g}", rec.gran));
                }
                if dut.get_bool(push_data) != (k.t.kind == tuple::KIND_DATA && rec.mask != 0) {
                    return err("push_data does not match the tuple kind and record".into());
                }
                let e = &mut k.got[w as usize];
                if e.1 {
                    return err(format!("record for warp {w} after its last record"));
                }
                e.0.extend(rec.units());
                e.1 = rec.last;
                rep.records += 1;
            }
            if ready {
                if let Some(k) = cur.take() {
                    // finished: compare every warp of every target CTA
                    for ci in stim::targets(&k.cfg, &k.t) {
                        let g = k.cfg.geom(ci);
                        for wi in 0..g.warps() {
                            let slot = (k.cfg.warp0[ci] + wi) as usize;
                            let lanes = k.lanes.get(slot).copied().unwrap_or(0);
                            let want = affine::warp_units(&k.t.aff, &g, wi, k.t.op & 3, lanes);
                            let (units, last, _) = &k.got[slot];
                            if units != &want || *last != (lanes != 0) {
                                return err(format!(
                                    "tuple {:?} gran {} dims {:?} cta {ci} bid {:?} warp {wi} (slot {slot}) lanes {lanes:08x}: records cover {:x?} (last seen {last}), reference {:x?}",
                                    k.t.aff, k.t.op & 3, k.cfg.dims, g.bid, units, want
                                ));
                            }
                            rep.warps += 1;
                        }
                    }
                    rep.tuples += 1;
                    rep.busy_cycles += (c - k.start) as u64;
                }
                if frame.get(s_valid)[0] & 1 != 0 {
                    let t = TupleCmd::unpack(frame.get(s_tuple));
                    let cfg = stim::config_from_frame(&frame, &io.cta, p.ctas, p.warp_bits());
                    let lanes = (0..p.warps as usize).map(|w| models::dac::warp_mask(frame.get(io.lane_mask), w)).collect();
                    let mut got = vec![(BTreeSet::new(), false, 0u64); p.warps as usize];
                    for ci in stim::targets(&cfg, &t) {
                        for wi in 0..cfg.geom(ci).warps() {
                            got[(cfg.warp0[ci] + wi) as usize].2 = 1;
                        }
                    }
                    cur = Some(Cur { t, cfg, lanes, got, start: c });
                }
            }
        }
        dut.tick();
    }
    Ok(rep)
}

/// Drive one tuple through `dut` (an AEU of parameters `p`, any engine) from
/// reset with no backpressure, every thread active; return the records
/// pushed per warp slot and the cycles from accepting the tuple to being
/// ready again.
pub fn expand_one(dut: &mut dyn Component, p: &AeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Vec<Record>>, u64) {
    expand_masked(dut, p, cfg, t, &vec![u32::MAX; p.warps as usize])
}

/// [`expand_one`] with `lanes` (per warp slot) as the active threads.
pub fn expand_masked(dut: &mut dyn Component, p: &AeuParams, cfg: &CtaConfig, t: TupleCmd, lanes: &[u32]) -> (Vec<Vec<Record>>, u64) {
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
    let (ready, push, pw, pr) = (io.in_ready, io.push, io.push_warp, io.push_rec);
    let mut out = vec![Vec::new(); p.warps as usize];
    let mut cycles = 1;
    loop {
        dut.eval();
        if dut.get_bool(ready) {
            break;
        }
        if dut.get_bool(push) {
            out[dut.get_u64(pw) as usize].push(Record::unpack(dut.get_u64(pr)));
        }
        dut.tick();
        cycles += 1;
        assert!(cycles < 100_000, "the AEU does not finish");
    }
    (out, cycles)
}

