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
use sim::{Bind, Component, ComponentExt, PortFrame, PortId};

/// Copy an output of one sub-model to an input of another.
fn wire(dst: &mut dyn Component, dp: PortId, src: &dyn Component, sp: PortId) {
    // Both ports carry the same signal, so the same width.
    dst.set(dp, src.get(sp));
}

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
}

impl DacUnit {
    pub fn new(p: &DacUnitParams) -> Self {
        let (aeu_io, peu_io) = (p.aeu().ids(), p.peu().ids());
        DacUnit {
            frame: p.frame(),
            own: p.ids(),
            atq: Atq::new(&p.atq()),
            atq_p: p.atq().ids(),
            aeu: Aeu::new(&p.aeu()),
            aeu_p: UPorts::aeu(&aeu_io),
            aeu_push_data: aeu_io.push_data,
            aeu_hold: aeu_io.cta_hold,
            peu: Peu::new(&p.peu()),
            peu_p: UPorts::peu(&peu_io),
            peu_cnt: [peu_io.cnt_scalar, peu_io.cnt_uniform, peu_io.cnt_serial, peu_io.cnt_cmp],
            pwaq: p.pwaq().model(),
            pwaq_p: p.pwaq().ids(),
            pwpq: p.pwpq().model(),
            pwpq_p: p.pwpq().ids(),
            held_dirty: true,
            settled: false,
        }
    }

    fn compute(&mut self) {
        let ap = &self.atq_p;
        let o = &self.own;
        let rst = self.frame.get(o.rst)[0];
        // 1. Per-warp queues: their outputs depend on state and the deq side.
        for (q, qp, deq, warp) in [
            (&mut self.pwaq, &self.pwaq_p, o.deq_addr, o.deq_addr_warp),
            (&mut self.pwpq, &self.pwpq_p, o.deq_pred, o.deq_pred_warp),
        ] {
            q.set(qp.rst, &[rst]);
            q.set(qp.deq, self.frame.get(deq));
            q.set(qp.deq_warp, self.frame.get(warp));
            q.eval();
        }
        // 2. ATQ, with backpressure from the queues; deq decided below.
        let a = &mut self.atq;
        a.set(ap.rst, &[rst]);
        a.set(ap.enq_valid, self.frame.get(o.enq_valid));
        a.set(ap.enq_tuple, self.frame.get(o.enq_tuple));
        wire(a, ap.pwaq_any_full, &self.pwaq, self.pwaq_p.any_full);
        wire(a, ap.pwpq_any_full, &self.pwpq, self.pwpq_p.any_full);
        a.set(ap.deq, &[0]);
        a.eval();
        // 3. Dispatch the head by kind; both units see the head tuple.
        let head_valid = a.get_bool(ap.head_valid);
        let kind = get_field(a.get(ap.head_tuple), tuple::KIND as usize, 2);
        let to_aeu = head_valid && (kind == tuple::KIND_ADDR || kind == tuple::KIND_DATA);
        let to_peu = head_valid && kind == tuple::KIND_PRED;
        let drop = head_valid && kind == tuple::KIND_RSVD;
        let held = std::mem::take(&mut self.held_dirty);
        self.aeu.set(self.aeu_hold, self.frame.get(o.aeu_cta_hold));
        for (u, up, q, qp, valid, lanes) in [
            (&mut self.aeu as &mut dyn Component, &self.aeu_p, &self.pwaq, &self.pwaq_p, to_aeu, o.aeu_lane_mask),
            (&mut self.peu as &mut dyn Component, &self.peu_p, &self.pwpq, &self.pwpq_p, to_peu, o.peu_lane_mask),
        ] {
            u.set(up.rst, &[rst]);
            u.set(up.in_valid, &[valid as u64]);
            wire(u, up.in_tuple, &self.atq, ap.head_tuple);
            wire(u, up.full, q, qp.full_vec);
            if held {
                u.set(up.lanes, self.frame.get(lanes));
                for (k, id) in o.cta.as_array().into_iter().enumerate() {
                    let v = self.frame.get(*id);
                    let mut buf = [0u64; 32];
                    buf[..v.len()].copy_from_slice(v);
                    u.set(up.cfg[k], &buf);
                }
            }
            u.eval();
        }
        let aeu_ready = self.aeu.get_bool(self.aeu_p.in_ready);
        let peu_ready = self.peu.get_bool(self.peu_p.in_ready);
        // 4. Pop the head when its unit takes it, or drop a reserved one.
        let pop = (to_aeu && aeu_ready) || (to_peu && peu_ready) || drop;
        self.atq.set(ap.deq, &[pop as u64]);
        self.atq.eval();
        // 5. Expansion results into the per-warp queues.
        for (q, qp, u, up) in [
            (&mut self.pwaq, &self.pwaq_p, &self.aeu as &dyn Component, &self.aeu_p),
            (&mut self.pwpq, &self.pwpq_p, &self.peu as &dyn Component, &self.peu_p),
        ] {
            wire(q, qp.enq, u, up.push);
            wire(q, qp.enq_warp, u, up.push_warp);
            wire(q, qp.enq_data, u, up.push_val);
            q.eval();
        }
        // 6. Outputs.
        let aeu = &self.aeu;
        let l1 = aeu.get_bool(self.aeu_p.push) && aeu.get_bool(self.aeu_push_data);
        let line = if l1 { get_field(aeu.get(self.aeu_p.push_val), record::LINE as usize, record::LINE_BITS) } else { 0 };
        let srcs: [(&dyn Component, PortId); 8] = [
            (&self.atq, ap.enq_ready),
            (&self.atq, ap.count),
            (&self.pwaq, self.pwaq_p.deq_data),
            (&self.pwaq, self.pwaq_p.deq_empty),
            (&self.pwpq, self.pwpq_p.deq_data),
            (&self.pwpq, self.pwpq_p.deq_empty),
            (&self.pwaq, self.pwaq_p.empty_vec),
            (&self.pwpq, self.pwpq_p.empty_vec),
        ];
        let mut vals = [[0u64; 2]; 21];
        for (i, (c, id)) in srcs.iter().enumerate() {
            let v = c.get(*id);
            vals[i][..v.len()].copy_from_slice(v);
        }
        vals[8][0] = l1 as u64;
        vals[9][0] = line;
        let (ap, pp) = (&self.aeu_p, &self.peu_p);
        vals[10][0] = aeu.get_u64(ap.push);
        vals[11][0] = aeu.get_u64(ap.push_warp);
        vals[12][0] = get_field(aeu.get(ap.push_val), record::LAST as usize, 1);
        vals[13][0] = self.peu.get_u64(pp.push);
        vals[14][0] = self.peu.get_u64(pp.push_warp);
        vals[15][0] = aeu_ready as u64;
        vals[16][0] = peu_ready as u64;
        for k in 0..4 {
            vals[17 + k][0] = self.peu.get_u64(self.peu_cnt[k]);
        }
        let o = &self.own;
        let outs = [
            o.enq_ready,
            o.atq_count,
            o.addr_rec,
            o.addr_empty,
            o.pred_mask,
            o.pred_empty,
            o.pwaq_empty_vec,
            o.pwpq_empty_vec,
            o.l1_req,
            o.l1_req_line,
            o.aeu_push,
            o.aeu_push_warp,
            o.aeu_push_last,
            o.peu_push,
            o.peu_push_warp,
            o.aeu_idle,
            o.peu_idle,
            o.peu_cnt_scalar,
            o.peu_cnt_uniform,
            o.peu_cnt_serial,
            o.peu_cnt_cmp,
        ];
        for (id, v) in outs.into_iter().zip(&vals) {
            self.frame.set(id, v);
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
        // The wide inputs the units hold (CTA configuration, lane masks)
        // are passed on only when they change.
        let o = &self.own;
        if port == o.aeu_lane_mask || port == o.peu_lane_mask || o.cta.as_array().contains(&&port) {
            self.held_dirty = true;
        }
        self.settled = false;
        self.frame.set(port, value);
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
        self.aeu.tick();
        self.peu.tick();
        self.pwaq.tick();
        self.pwpq.tick();
    }
}

impl Reference for DacUnitParams {
    type Model = DacUnit;
    fn model(&self) -> DacUnit {
        DacUnit::new(self)
    }
}
