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
use crate::compose::{block_comb, Reads, SubIn};
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
    /// The outputs are those of the present inputs and state.
    settled: bool,
    /// By sub-block (`QA` .. `PEU`): its combinational inputs, whether it
    /// must be evaluated again, and whether the next state its last `eval`
    /// computed is stale ([`SubIn`]).
    comb: [Arc<Vec<bool>>; 5],
    dirty: [bool; 5],
    stale: [bool; 5],
    /// What each wire group (`G_*`) has not read since.
    reads: Reads<5, 4>,
    /// The unit inputs that changed since the last `compute` (bit per
    /// port).
    unit_in: u64,
    /// By unit port: an input with a combinational path to an output (the
    /// generator's); a change of another one needs no `compute` before the
    /// edge (`edge_in`).
    unit_comb: Arc<Vec<bool>>,
    edge_in: bool,
}

/// Wire groups reading sub-block outputs: into the ATQ, into the expansion
/// units, into the per-warp queues, to the unit's outputs.
const G_ATQ: usize = 0;
const G_UNITS: usize = 1;
const G_QUEUES: usize = 2;
const G_OUT: usize = 3;

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
        let frame = p.frame();
        assert!(frame.specs().len() <= 64, "dac_unit: unit_in keeps a bit per port");
        let unit_comb = block_comb(p, frame.specs());
        DacUnit {
            frame,
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
            settled: false,
            comb,
            dirty: [true; 5],
            stale: [true; 5],
            reads: Reads::default(),
            unit_in: u64::MAX,
            unit_comb,
            edge_in: false,
        }
    }

    /// Evaluate sub-block `c` if an input its outputs depend on changed, or
    /// it ticked, since its last `eval`.
    fn eval_sub(&mut self, c: usize) {
        if std::mem::take(&mut self.dirty[c]) {
            self.stale[c] = false;
            self.reads.evaluated(c);
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
        let (o, qap, qpp) = (&self.own, &self.pwaq_p, &self.pwpq_p);
        let changed = std::mem::take(&mut self.unit_in);
        let new = |id: PortId| changed >> id.0 & 1 == 1;
        let rst = self.frame.get_u64(o.rst);
        // 1. Per-warp queues: their outputs depend on state and the deq side.
        let f = &self.frame;
        for (c, qp, deq, warp) in [(QA, qap, o.deq_addr, o.deq_addr_warp), (QP, qpp, o.deq_pred, o.deq_pred_warp)] {
            let q = if c == QA { &mut self.pwaq.frame } else { &mut self.pwpq.frame };
            let mut q = SubIn { frame: q, comb: &self.comb[c], dirty: &mut self.dirty[c], stale: &mut self.stale[c] };
            for (from, to) in [(o.rst, qp.rst), (deq, qp.deq), (warp, qp.deq_warp)] {
                if new(from) {
                    q.put(to, f.get(from));
                }
            }
        }
        self.eval_sub(QA);
        self.eval_sub(QP);
        // 2. ATQ, with backpressure from the queues; deq decided below.
        let fresh = self.reads.unseen(G_ATQ);
        let (o, ap, qap, qpp) = (&self.own, &self.atq_p, &self.pwaq_p, &self.pwpq_p);
        let mut a = SubIn { frame: &mut self.atq.frame, comb: &self.comb[ATQ], dirty: &mut self.dirty[ATQ], stale: &mut self.stale[ATQ] };
        for (from, to) in [(o.rst, ap.rst), (o.enq_valid, ap.enq_valid), (o.enq_tuple, ap.enq_tuple)] {
            if new(from) {
                a.put(to, self.frame.get(from));
            }
        }
        if fresh[QA] {
            a.put(ap.pwaq_any_full, &[self.pwaq.frame.get_u64(qap.any_full)]);
        }
        if fresh[QP] {
            a.put(ap.pwpq_any_full, &[self.pwpq.frame.get_u64(qpp.any_full)]);
        }
        self.eval_sub(ATQ);
        // 3. Dispatch the head by kind; both units see the head tuple.
        let fresh = self.reads.unseen(G_UNITS);
        let DacUnit { frame, own: o, atq, atq_p: ap, aeu, aeu_p, peu, peu_p, pwaq, pwaq_p, pwpq, pwpq_p, comb, dirty, stale, .. } = self;
        let head_valid = atq.frame.get_bool(ap.head_valid);
        let head = atq.frame.get(ap.head_tuple);
        let kind = get_field(head, tuple::KIND as usize, 2);
        let to_aeu = head_valid && (kind == tuple::KIND_ADDR || kind == tuple::KIND_DATA);
        let to_peu = head_valid && kind == tuple::KIND_PRED;
        let drop = head_valid && kind == tuple::KIND_RSVD;
        let units = [
            (AEU, &mut aeu.frame, &*aeu_p, to_aeu, QA, &pwaq.frame, &*pwaq_p, o.aeu_lane_mask),
            (PEU, &mut peu.frame, &*peu_p, to_peu, QP, &pwpq.frame, &*pwpq_p, o.peu_lane_mask),
        ];
        for (c, u, up, valid, qc, q, qp, lanes) in units {
            let mut u = SubIn { frame: u, comb: &comb[c], dirty: &mut dirty[c], stale: &mut stale[c] };
            if new(o.rst) {
                u.put(up.rst, &[rst]);
            }
            if c == AEU && new(o.aeu_cta_hold) {
                u.put(self.aeu_hold, frame.get(o.aeu_cta_hold));
            }
            if fresh[ATQ] {
                u.put(up.in_valid, &[valid as u64]);
                u.put(up.in_tuple, head);
            }
            if fresh[qc] {
                u.put(up.full, &[q.get_u64(qp.full_vec)]);
            }
            // The wide inputs the units hold (lane masks, CTA
            // configuration) go in only when they change.
            if new(lanes) {
                u.put(up.lanes, frame.get(lanes));
            }
            for (k, &id) in o.cta.as_array().into_iter().enumerate() {
                if new(id) {
                    u.put(up.cfg[k], frame.get(id));
                }
            }
        }
        self.eval_sub(AEU);
        self.eval_sub(PEU);
        let aeu_ready = self.aeu.frame.get_bool(self.aeu_p.in_ready);
        let peu_ready = self.peu.frame.get_bool(self.peu_p.in_ready);
        // 4. Pop the head when its unit takes it, or drop a reserved one.
        let pop = (to_aeu && aeu_ready) || (to_peu && peu_ready) || drop;
        let ap = &self.atq_p;
        SubIn { frame: &mut self.atq.frame, comb: &self.comb[ATQ], dirty: &mut self.dirty[ATQ], stale: &mut self.stale[ATQ] }.put(ap.deq, &[pop as u64]);
        self.eval_sub(ATQ);
        // 5. Expansion results into the per-warp queues.
        let fresh = self.reads.unseen(G_QUEUES);
        let DacUnit { aeu, aeu_p, peu, peu_p, pwaq, pwaq_p, pwpq, pwpq_p, comb, dirty, stale, .. } = self;
        for (c, q, qp, uc, u, up) in [(QA, &mut pwaq.frame, &*pwaq_p, AEU, &aeu.frame, &*aeu_p), (QP, &mut pwpq.frame, &*pwpq_p, PEU, &peu.frame, &*peu_p)] {
            if fresh[uc] {
                let mut q = SubIn { frame: q, comb: &comb[c], dirty: &mut dirty[c], stale: &mut stale[c] };
                q.put(qp.enq, &[u.get_u64(up.push)]);
                q.put(qp.enq_warp, &[u.get_u64(up.push_warp)]);
                q.put(qp.enq_data, &[u.get_u64(up.push_val)]);
            }
        }
        self.eval_sub(QA);
        self.eval_sub(QP);
        // 6. Outputs.
        let fresh = self.reads.unseen(G_OUT);
        let (o, ap) = (&self.own, &self.atq_p);
        let (aeu, peu, qa, qp, atq) = (&self.aeu.frame, &self.peu.frame, &self.pwaq.frame, &self.pwpq.frame, &self.atq.frame);
        let (up, pp, qap, qpp) = (&self.aeu_p, &self.peu_p, &self.pwaq_p, &self.pwpq_p);
        let f = &mut self.frame;
        if fresh[ATQ] {
            f.set_u64(o.enq_ready_addr, atq.get_u64(ap.enq_ready_addr));
            f.set_u64(o.enq_ready_pred, atq.get_u64(ap.enq_ready_pred));
            f.set_u64(o.atq_count, atq.get_u64(ap.count));
        }
        if fresh[QA] {
            f.set_u64(o.addr_rec, qa.get_u64(qap.deq_data));
            f.set_u64(o.addr_empty, qa.get_u64(qap.deq_empty));
            f.set(o.pwaq_empty_vec, qa.get(qap.empty_vec));
        }
        if fresh[QP] {
            f.set_u64(o.pred_mask, qp.get_u64(qpp.deq_data));
            f.set_u64(o.pred_empty, qp.get_u64(qpp.deq_empty));
            f.set(o.pwpq_empty_vec, qp.get(qpp.empty_vec));
        }
        if fresh[AEU] {
            let l1 = aeu.get_bool(up.push) && aeu.get_bool(self.aeu_push_data);
            let line = if l1 { get_field(aeu.get(up.push_val), record::LINE as usize, record::LINE_BITS) } else { 0 };
            f.set_bool(o.l1_req, l1);
            f.set_u64(o.l1_req_line, line);
            f.set_u64(o.aeu_push, aeu.get_u64(up.push));
            f.set_u64(o.aeu_push_warp, aeu.get_u64(up.push_warp));
            f.set_u64(o.aeu_push_last, get_field(aeu.get(up.push_val), record::LAST as usize, 1));
            f.set_bool(o.aeu_idle, aeu_ready);
        }
        if fresh[PEU] {
            f.set_u64(o.peu_push, peu.get_u64(pp.push));
            f.set_u64(o.peu_push_warp, peu.get_u64(pp.push_warp));
            f.set_bool(o.peu_idle, peu_ready);
            for (id, k) in [o.peu_cnt_scalar, o.peu_cnt_uniform, o.peu_cnt_serial, o.peu_cnt_cmp].into_iter().zip(self.peu_cnt) {
                f.set_u64(id, peu.get_u64(k));
            }
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
            self.unit_in |= 1 << port.0;
            if self.unit_comb[port.0 as usize] {
                self.settled = false;
            } else {
                self.edge_in = true;
            }
        }
    }
    fn get(&self, port: PortId) -> &[u64] {
        self.frame.get(port)
    }
    fn eval(&mut self) {
        if !self.settled {
            self.compute();
            self.settled = true;
            self.edge_in = false;
        }
    }
    fn tick(&mut self) {
        if self.edge_in {
            self.settled = false;
        }
        self.eval();
        // Clock gating: an edge that changes no sub-block's state is
        // skipped, and with the inputs unchanged the outputs stand (a unit
        // waiting on full queues costs nothing until a dequeue).
        let unit_changes = |c: usize, changes: bool| changes || (c >= AEU && self.stale[c]);
        let changes = unit_changes(ATQ, self.atq.edge_changes())
            || unit_changes(QA, self.pwaq.edge_changes())
            || unit_changes(QP, self.pwpq.edge_changes())
            || unit_changes(AEU, self.aeu.r.edge_changes())
            || unit_changes(PEU, self.peu.r.edge_changes());
        if !changes {
            return;
        }
        self.settled = false;
        self.atq.tick();
        // The expansion units' edge takes the next state their `eval`
        // computed, unless an input changed since.
        if self.stale[AEU] {
            self.aeu.tick()
        } else {
            self.aeu.r.commit()
        }
        if self.stale[PEU] {
            self.peu.tick()
        } else {
            self.peu.r.commit()
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
