//! Verification of the composed DAC unit (specification
//! `hw/src/blocks/dac/dac_unit.rs`, model `models::dac::dac_unit`): an affine
//! warp's traffic and the end-to-end check against the per-thread reference.

use super::stim::{self, TupleGen};
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::dac::dac_unit::DacUnitParams;
use hw::blocks::dac::tuple;
use hw::iface::InterfaceExt;
use models::dac::{affine, CtaConfig, Record, TupleCmd};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// Registry entry: the driver of `dac_unit`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "dac_unit",
    driver: |p, seed| Ok(Box::new(DacUnitDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Constrained-random traffic for the whole unit, as an affine warp and its
/// non-affine warps would make it: a CTA configuration and active threads
/// (both units' `lane_mask`) per reset epoch, a
/// stream of `enq` tuples (address, data, predicate, a few reserved), and
/// `deq.addr` / `deq.pred` from the warps of the valid CTAs at varying rates
/// (slow phases fill the per-warp queues and throttle the affine warp), and
/// now and then a CTA's barrier hold on the AEU (`aeu_cta_hold`).
/// With `drain_after`, it stops enqueueing after that many cycles and only
/// dequeues, round robin, with no hold, so that every expansion is
/// eventually consumed.
pub struct DacUnitDriver {
    p: DacUnitParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    sl: [PortId; 15],
    cycle: u64,
    cfg: CtaConfig,
    lanes: Vec<u32>,
    gen: TupleGen,
    warps_used: Vec<u32>,
    p_enq: f64,
    p_deq: f64,
    drain_after: Option<u64>,
    resets: bool,
    rr: usize,
    hold: u64,
    hold_port: PortId,
}

impl DacUnitDriver {
    pub fn new(p: &DacUnitParams, seed: u64) -> Self {
        Self::build(p, seed, None, true)
    }

    /// No resets after the first cycle; enqueue for `cycles`, then only drain.
    pub fn draining(p: &DacUnitParams, seed: u64, cycles: u64) -> Self {
        Self::build(p, seed, Some(cycles), false)
    }

    fn build(p: &DacUnitParams, seed: u64, drain_after: Option<u64>, resets: bool) -> Self {
        let layout = InputLayout::of(&p.ports());
        let io = p.ids();
        let c = &io.cta;
        // rst enq_valid enq_tuple, the six CTA inputs, deq_addr deq_addr_warp deq_pred deq_pred_warp,
        // the two lane masks
        let sl = [
            io.rst, io.enq_valid, io.enq_tuple, c.valid, c.bidx, c.warp0, c.dim_x_m1, c.dim_y_m1, c.dim_z_m1, io.deq_addr,
            io.deq_addr_warp, io.deq_pred, io.deq_pred_warp, io.aeu_lane_mask, io.peu_lane_mask,
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cfg = stim::random_config(&mut rng, p.ctas, p.warps);
        let lanes = stim::random_lanes(&mut rng, p.warps);
        let mut d = DacUnitDriver {
            p: p.clone(),
            layout,
            gen: TupleGen::for_config(&cfg),
            rng,
            sl,
            cycle: 0,
            cfg,
            lanes,
            warps_used: vec![],
            p_enq: 0.3,
            p_deq: 0.5,
            drain_after,
            resets,
            rr: 0,
            hold: 0,
            hold_port: io.aeu_cta_hold,
        };
        d.used();
        d
    }

    fn used(&mut self) {
        self.warps_used.clear();
        for c in 0..self.p.ctas as usize {
            if self.cfg.valid[c] {
                for w in 0..self.cfg.geom(c).warps() {
                    self.warps_used.push(self.cfg.warp0[c] + w);
                }
            }
        }
    }

    fn pick(&mut self) -> u32 {
        if self.warps_used.is_empty() || self.rng.random_bool(0.05) {
            self.rng.random_range(0..1u32 << self.p.warp_bits())
        } else {
            self.warps_used[self.rng.random_range(0..self.warps_used.len())]
        }
    }
}

impl Driver for DacUnitDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let rst = self.cycle == 0 || (self.resets && self.rng.random_bool(0.0003));
        if rst && self.cycle != 0 {
            self.cfg = stim::random_config(&mut self.rng, self.p.ctas, self.p.warps);
            self.lanes = stim::random_lanes(&mut self.rng, self.p.warps);
            self.gen = TupleGen::for_config(&self.cfg);
            self.used();
        }
        if self.cycle.is_multiple_of(1024) {
            self.p_enq = [0.05, 0.3, 1.0][self.rng.random_range(0..3)];
            self.p_deq = [0.2, 0.6, 1.0][self.rng.random_range(0..3)];
        }
        let draining = self.drain_after.is_some_and(|n| self.cycle >= n);
        self.cycle += 1;
        let r = &mut self.rng;
        f.set_bool(self.sl[0], rst);
        f.set_bool(self.sl[1], !draining && r.random_bool(self.p_enq));
        let t = match r.random_range(0..100) {
            0..50 => self.gen.addr(r),
            50..97 => self.gen.pred(r),
            _ => TupleCmd { kind: tuple::KIND_RSVD, ..self.gen.addr(r) },
        };
        f.set_wide(self.sl[2], &t.pack());
        self.cfg.write(&self.p.ids().cta, self.p.warp_bits(), |id, v| f.set_wide(id, v));
        let lanes = models::dac::warp_words(&self.lanes);
        f.set_wide(self.sl[13], &lanes);
        f.set_wide(self.sl[14], &lanes);
        let (da, dp, wa, wp) = if draining && !self.warps_used.is_empty() {
            self.rr = (self.rr + 1) % self.warps_used.len();
            let w = self.warps_used[self.rr];
            (true, true, w, w)
        } else {
            let pd = self.p_deq;
            let da = self.rng.random_bool(pd);
            let dp = self.rng.random_bool(pd);
            (da, dp, self.pick(), self.pick())
        };
        f.set_bool(self.sl[9], da);
        f.set(self.sl[10], wa as u64);
        f.set_bool(self.sl[11], dp);
        f.set(self.sl[12], wp as u64);
        self.hold = stim::step_holds(&mut self.rng, self.hold, self.p.ctas, 0.002);
        if draining {
            self.hold = 0;
        }
        f.set(self.hold_port, self.hold);
    }
}

// ---------------------------------------------------------------------------
// Property
// ---------------------------------------------------------------------------

/// What a run of [`check_end_to_end`] saw.
#[derive(Clone, Debug, Default)]
pub struct DacReport {
    pub tuples: u64,
    pub addr_expansions: u64,
    pub records: u64,
    pub masks: u64,
    pub l1_requests: u64,
    pub throttled_cycles: u64,
    pub peu_paths: [u64; 3],
}

/// Run `stim` through `dut` (any engine with the unit's ports) and check the
/// whole unit against the per-thread reference: every `enq` the unit accepted
/// (`enq_valid` and the `enq_ready_*` of its kind), in order, must reach each warp with active
/// threads of each of the tuple's valid CTAs as exactly the reference's
/// expansion over those threads — for address/data tuples a run of records
/// ending in `last` whose units equal [`affine::warp_units`], for predicate
/// tuples one mask equal to [`affine::warp_pred_mask`] at those threads and
/// 0 elsewhere, and reserved tuples nothing. Every dequeued non-empty record
/// of an `enq.data` tuple must have been requested from L1 (`l1_req` with
/// its line) when it was pushed. With `complete`, every expected expansion
/// must have been dequeued by the end, every `l1_req` matched by one such
/// record, and the queue writes reported (`aeu_push*`, `peu_push*`) must
/// be the entries dequeued, warp by warp. The CTA configuration and lane masks must change only in reset
/// cycles (both units get the same lane masks).
pub fn check_end_to_end(
    dut: &mut dyn Component,
    p: &DacUnitParams,
    stim: &Stimulus,
    complete: bool,
) -> Result<DacReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (addr_rec, addr_empty, pred_mask, pred_empty, l1, l1_line) =
        (io.addr_rec, io.addr_empty, io.pred_mask, io.pred_empty, io.l1_req, io.l1_req_line);
    let cnt = [io.peu_cnt_scalar, io.peu_cnt_uniform, io.peu_cnt_serial];
    // rst enq_valid enq_tuple deq_addr deq_addr_warp deq_pred deq_pred_warp
    let s = [io.rst, io.enq_valid, io.enq_tuple, io.deq_addr, io.deq_addr_warp, io.deq_pred, io.deq_pred_warp];
    let nw = p.warps as usize;
    let mut frame = Frame::new(layout.clone());
    let mut rep = DacReport::default();
    // per warp: expected address expansions (units, is enq.data)
    let mut exp_addr: Vec<VecDeque<(BTreeSet<u32>, bool)>> = vec![VecDeque::new(); nw];
    let mut exp_pred: Vec<VecDeque<u32>> = vec![VecDeque::new(); nw];
    let mut partial: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); nw];
    // lines requested from L1 and not yet matched by a dequeued data record
    let mut requested: std::collections::BTreeMap<u32, u64> = Default::default();
    let mut last_cnt = [0u64; 3];
    // Per unit (AEU, PEU) and warp: queue writes seen and entries dequeued.
    let mut pushes = [vec![0u64; nw], vec![0u64; nw]];
    let mut taken = [vec![0u64; nw], vec![0u64; nw]];
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let v = |i: usize| frame.get(s[i])[0];
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        if v(0) & 1 != 0 {
            exp_addr.iter_mut().for_each(|q| q.clear());
            exp_pred.iter_mut().for_each(|q| q.clear());
            partial.iter_mut().for_each(|q| q.clear());
            requested.clear();
            pushes.iter_mut().chain(taken.iter_mut()).for_each(|v| v.fill(0));
            for (i, id) in cnt.iter().enumerate() {
                rep.peu_paths[i] += dut.get_u64(*id).wrapping_sub(last_cnt[i]) & 0xffff_ffff;
            }
            last_cnt = [0; 3];
            dut.tick();
            continue;
        }
        // The queue-write outputs: a data line goes with an AEU record; each
        // write is counted and must match what is dequeued.
        if dut.get_bool(io.aeu_push) {
            pushes[0][dut.get_u64(io.aeu_push_warp) as usize % nw] += 1;
        }
        if dut.get_bool(io.peu_push) {
            pushes[1][dut.get_u64(io.peu_push_warp) as usize % nw] += 1;
        }
        if dut.get_bool(l1) && !dut.get_bool(io.aeu_push) {
            return err("l1_req without an AEU record".into());
        }
        if dut.get_bool(l1) {
            rep.l1_requests += 1;
            *requested.entry(dut.get_u64(l1_line) as u32).or_default() += 1;
        }
        if v(3) & 1 != 0 && !dut.get_bool(addr_empty) {
            let w = v(4) as usize;
            if w >= nw {
                return err(format!("deq.addr of warp {w} reported a record"));
            }
            let rec = Record::unpack(dut.get_u64(addr_rec));
            taken[0][w] += 1;
            partial[w].extend(rec.units());
            rep.records += 1;
            let Some((_, data)) = exp_addr[w].front() else {
                return err(format!("warp {w}: unexpected record {rec:x?}"));
            };
            if *data && rec.mask != 0 {
                // a non-empty enq.data record: its line was requested from L1 when pushed
                match requested.get_mut(&rec.line) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => return err(format!("warp {w}: enq.data record for line {:x} without an l1_req", rec.line)),
                }
            }
            if rec.last {
                let got = std::mem::take(&mut partial[w]);
                let (want, _) = exp_addr[w].pop_front().unwrap();
                if got != want {
                    return err(format!("warp {w}: records cover {got:x?}, reference {want:x?}"));
                }
                rep.addr_expansions += 1;
            }
        }
        if v(5) & 1 != 0 && !dut.get_bool(pred_empty) {
            let w = v(6) as usize;
            if w >= nw {
                return err(format!("deq.pred of warp {w} reported a mask"));
            }
            let m = dut.get_u64(pred_mask) as u32;
            taken[1][w] += 1;
            match exp_pred[w].pop_front() {
                Some(want) if want == m => rep.masks += 1,
                want => return err(format!("warp {w}: mask {m:08x}, reference {want:x?}")),
            }
        }
        let t = TupleCmd::unpack(frame.get(s[2]));
        let enq_ready = dut.get_bool(if t.kind == tuple::KIND_PRED { io.enq_ready_pred } else { io.enq_ready_addr });
        if v(1) & 1 != 0 && enq_ready {
            let cfg = stim::config_from_frame(&frame, &io.cta, p.ctas, p.warp_bits());
            rep.tuples += 1;
            for ci in stim::targets(&cfg, &t) {
                let g = cfg.geom(ci);
                for wi in 0..g.warps() {
                    let slot = (cfg.warp0[ci] + wi) as usize;
                    let lanes = models::dac::warp_mask(frame.get(io.aeu_lane_mask), slot);
                    if lanes == 0 {
                        continue;
                    }
                    match t.kind {
                        tuple::KIND_ADDR | tuple::KIND_DATA => {
                            let u = affine::warp_units(&t.aff, &g, wi, t.op & 3, lanes);
                            exp_addr[slot].push_back((u, t.kind == tuple::KIND_DATA));
                        }
                        tuple::KIND_PRED => {
                            exp_pred[slot].push_back(affine::warp_pred_mask(&t.aff, t.rhs, t.op, &g, wi) & lanes)
                        }
                        _ => {}
                    }
                }
            }
        }
        if v(1) & 1 != 0 && !enq_ready {
            rep.throttled_cycles += 1;
        }
        for (i, id) in cnt.iter().enumerate() {
            let now = dut.get_u64(*id);
            rep.peu_paths[i] += now.wrapping_sub(last_cnt[i]) & 0xffff_ffff;
            last_cnt[i] = now;
        }
        dut.tick();
    }
    if complete {
        for w in 0..nw {
            if !exp_addr[w].is_empty() || !exp_pred[w].is_empty() || !partial[w].is_empty() {
                return Err(format!(
                    "end: warp {w} still expects {} address and {} predicate expansions",
                    exp_addr[w].len(),
                    exp_pred[w].len()
                ));
            }
        }
        if pushes != taken {
            return Err(format!("end: queue writes reported per warp {pushes:?}, entries dequeued {taken:?}"));
        }
        if let Some((l, _)) = requested.iter().find(|(_, n)| **n > 0) {
            return Err(format!("end: l1_req for line {l:x} matches no enq.data record"));
        }
    }
    Ok(rep)
}

