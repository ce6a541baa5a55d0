//! Reference model of the composed DAC unit (ATQ + AEU + PEU + PWAQ + PWPQ,
//! Figure 9), built from the sub-block models and wired through their port
//! descriptions as specified in `hw/src/blocks/dac/dac_unit.rs`.

use super::aeu::Aeu;
use super::atq::Atq;
use super::peu::Peu;
use super::pwaq::PerWarpQueue;
use crate::bits::get_field;
use crate::Reference;
use hw::blocks::dac::aeu::AeuIo;
use hw::blocks::dac::atq::AtqIo;
use hw::blocks::dac::dac_unit::{DacUnitIo, DacUnitParams};
use hw::blocks::dac::peu::PeuIo;
use hw::blocks::dac::pwaq::PerWarpQueueIo;
use hw::blocks::dac::{record, tuple};
use crate::compose::{block_comb, SubIn};
use sim::{Bind, Component, PortFrame, PortId};
use std::sync::Arc;

/// Ports of an expansion unit, resolved once.
struct UPorts {
    rst: PortId,
    in_valid: PortId,
    in_tuple: PortId,
    cfg: [PortId; 6],
    full: PortId,
    lanes: PortId,
    in_ready: PortId,
    push: PortId,
    push_warp: PortId,
    /// `push_rec` or `push_mask`.
    push_val: PortId,
}

impl UPorts {
    fn aeu(u: &AeuIo<PortId>) -> Self {
        UPorts {
            rst: u.rst,
            in_valid: u.in_valid,
            in_tuple: u.in_tuple,
            cfg: u.cta.as_array().map(|x| *x),
            full: u.pwaq_full,
            lanes: u.lane_mask,
            in_ready: u.in_ready,
            push: u.push,
            push_warp: u.push_warp,
            push_val: u.push_rec,
        }
    }

    fn peu(u: &PeuIo<PortId>) -> Self {
        UPorts {
            rst: u.rst,
            in_valid: u.in_valid,
            in_tuple: u.in_tuple,
            cfg: u.cta.as_array().map(|x| *x),
            full: u.pwpq_full,
            lanes: u.lane_mask,
            in_ready: u.in_ready,
            push: u.push,
            push_warp: u.push_warp,
            push_val: u.push_mask,
        }
    }
}

pub struct DacUnit {
    frame: PortFrame,
    own: DacUnitIo<PortId>,
    atq: Atq,
    atq_p: AtqIo<PortId>,
    aeu: Aeu,
    aeu_p: UPorts,
    /// The AEU's `push_data`: the record belongs to an `enq.data` tuple.
    aeu_push_data: PortId,
    /// The AEU's `cta_hold`.
    aeu_hold: PortId,
    peu: Peu,
    peu_p: UPorts,
    peu_cnt: [PortId; 4],
    pwaq: PerWarpQueue,
    pwaq_p: PerWarpQueueIo<PortId>,
    pwpq: PerWarpQueue,
    pwpq_p: PerWarpQueueIo<PortId>,
    /// The CTA configuration or a lane mask changed since the units last
    /// got them.
    held_dirty: bool,
    /// The outputs are those of the present inputs and state.
    settled: bool,
    /// By sub-block (`QA` .. `PEU`): its combinational inputs, whether it
    /// must be evaluated again, and whether the next state its last `eval`
    /// computed is stale ([`SubIn`]).
    comb: [Arc<Vec<bool>>; 5],
    dirty: [bool; 5],
    stale: [bool; 5],
}

const QA: usize = 0;
const QP: usize = 1;
const ATQ: usize = 2;
const AEU: usize = 3;
const PEU: usize = 4;

impl DacUnit {
    pub fn new(p: &DacUnitParams) -> Self {
        let (aeu_io, peu_io) = (p.aeu().ids(), p.peu().ids());
        let (pwaq, pwpq, atq, aeu, peu) = (p.pwaq().model(), p.pwpq().model(), Atq::new(&p.atq()), Aeu::new(&p.aeu()), Peu::new(&p.peu()));
        let comb = [
            block_comb(&p.pwaq(), pwaq.ports()),
            block_comb(&p.pwpq(), pwpq.ports()),
            block_comb(&p.atq(), atq.ports()),
            block_comb(&p.aeu(), aeu.ports()),
            block_comb(&p.peu(), peu.ports()),
        ];
        DacUnit {
            frame: p.frame(),
            own: p.ids(),
            atq,
            atq_p: p.atq().ids(),
            aeu,
            aeu_p: UPorts::aeu(&aeu_io),
            aeu_push_data: aeu_io.push_data,
            aeu_hold: aeu_io.cta_hold,
            peu,
            peu_p: UPorts::peu(&peu_io),
            peu_cnt: [peu_io.cnt_scalar, peu_io.cnt_uniform, peu_io.cnt_serial, peu_io.cnt_cmp],
            pwaq,
            pwaq_p: p.pwaq().ids(),
            pwpq,
            pwpq_p: p.pwpq().ids(),
            held_dirty: true,
            settled: false,
            comb,
            dirty: [true; 5],
            stale: [true; 5],
        }
    }

    /// Sub-block `c`'s input side (see [`SubIn`]).
    fn input(&mut self, c: usize) -> SubIn<'_> {
        let frame = match c {
            QA => &mut self.pwaq.frame,
            QP => &mut self.pwpq.frame,
            ATQ => &mut self.atq.frame,
            AEU => &mut self.aeu.frame,
            _ => &mut self.peu.frame,
        };
        SubIn { frame, comb: &self.comb[c], dirty: &mut self.dirty[c], stale: &mut self.stale[c] }
    }

    /// Evaluate sub-block `c` if an input its outputs depend on changed, or
    /// it ticked, since its last `eval`.
    fn eval_sub(&mut self, c: usize) {
        if std::mem::take(&mut self.dirty[c]) {
            self.stale[c] = false;
            match c {
                QA => self.pwaq.eval(),
                QP => self.pwpq.eval(),
                ATQ => self.atq.eval(),
                AEU => self.aeu.eval(),
                _ => self.peu.eval(),
            }
        }
    }

    fn compute(&mut self) {
        let o = self.own.clone();
        let ap = self.atq_p.clone();
        let rst = self.frame.get(o.rst)[0];
        // 1. Per-warp queues: their outputs depend on state and the deq side.
        for (c, qp, deq, warp) in [(QA, self.pwaq_p.clone(), o.deq_addr, o.deq_addr_warp), (QP, self.pwpq_p.clone(), o.deq_pred, o.deq_pred_warp)] {
            let (d, w) = (self.frame.get_u64(deq), self.frame.get_u64(warp));
            let mut q = self.input(c);
            q.put(qp.rst, &[rst]);
            q.put(qp.deq, &[d]);
            q.put(qp.deq_warp, &[w]);
            self.eval_sub(c);
        }
        // 2. ATQ, with backpressure from the queues; deq decided below.
        let (aq_full, pq_full) = (self.pwaq.frame.get_u64(self.pwaq_p.any_full), self.pwpq.frame.get_u64(self.pwpq_p.any_full));
        let (ev, et) = (self.frame.get_u64(o.enq_valid), self.frame.get(o.enq_tuple));
        let mut t = [0u64; tuple::WORDS];
        t.copy_from_slice(et);
        let mut a = self.input(ATQ);
        a.put(ap.rst, &[rst]);
        a.put(ap.enq_valid, &[ev]);
        a.put(ap.enq_tuple, &t);
        a.put(ap.pwaq_any_full, &[aq_full]);
        a.put(ap.pwpq_any_full, &[pq_full]);
        self.eval_sub(ATQ);
        // 3. Dispatch the head by kind; both units see the head tuple.
        let head_valid = self.atq.frame.get_bool(ap.head_valid);
        t.copy_from_slice(self.atq.frame.get(ap.head_tuple));
        let kind = get_field(&t, tuple::KIND as usize, 2);
        let to_aeu = head_valid && (kind == tuple::KIND_ADDR || kind == tuple::KIND_DATA);
        let to_peu = head_valid && kind == tuple::KIND_PRED;
        let drop = head_valid && kind == tuple::KIND_RSVD;
        let held = std::mem::take(&mut self.held_dirty);
        let hold = self.frame.get_u64(o.aeu_cta_hold);
        let aeu_hold = self.aeu_hold;
        self.input(AEU).put(aeu_hold, &[hold]);
        for (c, valid, lanes) in [(AEU, to_aeu, o.aeu_lane_mask), (PEU, to_peu, o.peu_lane_mask)] {
            let (up, full) = if c == AEU {
                (&self.aeu_p, self.pwaq.frame.get_u64(self.pwaq_p.full_vec))
            } else {
                (&self.peu_p, self.pwpq.frame.get_u64(self.pwpq_p.full_vec))
            };
            let (rst_p, valid_p, tuple_p, full_p, lanes_p, cfg_p) = (up.rst, up.in_valid, up.in_tuple, up.full, up.lanes, up.cfg);
            let mut u = self.input(c);
            u.put(rst_p, &[rst]);
            u.put(valid_p, &[valid as u64]);
            u.put(tuple_p, &t);
            u.put(full_p, &[full]);
            if held {
                let DacUnit { frame, aeu, peu, comb, dirty, stale, .. } = self;
                let frame_u = if c == AEU { &mut aeu.frame } else { &mut peu.frame };
                let mut u = SubIn { frame: frame_u, comb: &comb[c], dirty: &mut dirty[c], stale: &mut stale[c] };
                u.put(lanes_p, frame.get(lanes));
                for (k, id) in o.cta.as_array().into_iter().enumerate() {
                    u.put(cfg_p[k], frame.get(*id));
                }
            }
            self.eval_sub(c);
        }
        let aeu_ready = self.aeu.frame.get_bool(self.aeu_p.in_ready);
        let peu_ready = self.peu.frame.get_bool(self.peu_p.in_ready);
        // 4. Pop the head when its unit takes it, or drop a reserved one.
        let pop = (to_aeu && aeu_ready) || (to_peu && peu_ready) || drop;
        self.input(ATQ).put(ap.deq, &[pop as u64]);
        self.eval_sub(ATQ);
        // 5. Expansion results into the per-warp queues.
        for (c, qp, u, up) in [(QA, self.pwaq_p.clone(), &self.aeu.frame, &self.aeu_p), (QP, self.pwpq_p.clone(), &self.peu.frame, &self.peu_p)] {
            let (push, warp, val) = (u.get_u64(up.push), u.get_u64(up.push_warp), u.get_u64(up.push_val));
            let q = if c == QA { &mut self.pwaq.frame } else { &mut self.pwpq.frame };
            let mut q = SubIn { frame: q, comb: &self.comb[c], dirty: &mut self.dirty[c], stale: &mut self.stale[c] };
            q.put(qp.enq, &[push]);
            q.put(qp.enq_warp, &[warp]);
            q.put(qp.enq_data, &[val]);
        }
        self.eval_sub(QA);
        self.eval_sub(QP);
        // 6. Outputs.
        let aeu = &self.aeu.frame;
        let (peu, qa, qp, atq) = (&self.peu.frame, &self.pwaq.frame, &self.pwpq.frame, &self.atq.frame);
        let (up, pp, qap, qpp) = (&self.aeu_p, &self.peu_p, &self.pwaq_p, &self.pwpq_p);
        let l1 = aeu.get_bool(up.push) && aeu.get_bool(self.aeu_push_data);
        let line = if l1 { get_field(aeu.get(up.push_val), record::LINE as usize, record::LINE_BITS) } else { 0 };
        let f = &mut self.frame;
        f.set_u64(o.enq_ready, atq.get_u64(ap.enq_ready));
        f.set_u64(o.atq_count, atq.get_u64(ap.count));
        f.set_u64(o.addr_rec, qa.get_u64(qap.deq_data));
        f.set_u64(o.addr_empty, qa.get_u64(qap.deq_empty));
        f.set_u64(o.pred_mask, qp.get_u64(qpp.deq_data));
        f.set_u64(o.pred_empty, qp.get_u64(qpp.deq_empty));
        f.set(o.pwaq_empty_vec, qa.get(qap.empty_vec));
        f.set(o.pwpq_empty_vec, qp.get(qpp.empty_vec));
        f.set_bool(o.l1_req, l1);
        f.set_u64(o.l1_req_line, line);
        f.set_u64(o.aeu_push, aeu.get_u64(up.push));
        f.set_u64(o.aeu_push_warp, aeu.get_u64(up.push_warp));
        f.set_u64(o.aeu_push_last, get_field(aeu.get(up.push_val), record::LAST as usize, 1));
        f.set_u64(o.peu_push, peu.get_u64(pp.push));
        f.set_u64(o.peu_push_warp, peu.get_u64(pp.push_warp));
        f.set_bool(o.aeu_idle, aeu_ready);
        f.set_bool(o.peu_idle, peu_ready);
        for (id, k) in [o.peu_cnt_scalar, o.peu_cnt_uniform, o.peu_cnt_serial, o.peu_cnt_cmp].into_iter().zip(self.peu_cnt) {
            f.set_u64(id, peu.get_u64(k));
        }
    }
}

impl Component for DacUnit {
    fn name(&self) -> &str {
        "dac_unit"
    }
    fn ports(&self) -> &[sim::PortSpec] {
        self.frame.specs()
    }
    fn set(&mut self, port: PortId, value: &[u64]) {
        if self.frame.set_changed(port, value) {
            // The wide inputs the units hold (CTA configuration, lane
            // masks) are passed on only when they change.
            let o = &self.own;
            if port == o.aeu_lane_mask || port == o.peu_lane_mask || o.cta.as_array().contains(&&port) {
                self.held_dirty = true;
            }
            self.settled = false;
        }
    }
    fn get(&self, port: PortId) -> &[u64] {
        self.frame.get(port)
    }
    fn eval(&mut self) {
        if !self.settled {
            self.compute();
            self.settled = true;
        }
    }
    fn tick(&mut self) {
        self.eval();
        self.settled = false;
        self.atq.tick();
        // The expansion units' edge takes the next state their `eval`
        // computed, unless an input changed since.
        if self.stale[AEU] {
            self.aeu.tick()
        } else {
            self.aeu.commit()
        }
        if self.stale[PEU] {
            self.peu.tick()
        } else {
            self.peu.commit()
        }
        self.pwaq.tick();
        self.pwpq.tick();
        self.dirty = [true; 5];
        self.stale = [true; 5];
    }
}

impl Reference for DacUnitParams {
    type Model = DacUnit;
    fn model(&self) -> DacUnit {
        DacUnit::new(self)
    }
}
