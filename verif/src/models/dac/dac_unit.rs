//! Reference model of the composed DAC unit (ATQ + AEU + PEU + PWAQ + PWPQ,
//! Figure 9), built from the sub-block models and wired as specified in
//! `hw/src/blocks/dac/dac_unit.rs`.

use super::aeu::Aeu;
use super::atq::{self, Atq};
use super::peu::Peu;
use super::pwaq::{self, PerWarpQueue};
use super::pwpq;
use super::stim::{self, TupleGen};
use super::walk::{config_inputs, CtaPorts, CONFIG_INPUTS};
use super::{get_bits, CtaConfig, Record, TupleCmd};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::dac::dac_unit::DacUnitParams;
use hw::blocks::dac::{record, tuple, WARP_SIZE};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

pub fn ports(p: &DacUnitParams) -> Vec<PortSpec> {
    let wb = p.warp_bits();
    let mut v =
        vec![PortSpec::input("rst", 1), PortSpec::input("enq_valid", 1), PortSpec::input("enq_tuple", tuple::BITS)];
    v.extend(CtaPorts::specs(p.ctas, wb));
    v.extend([
        PortSpec::input("deq_addr", 1),
        PortSpec::input("deq_addr_warp", wb),
        PortSpec::input("deq_pred", 1),
        PortSpec::input("deq_pred_warp", wb),
        PortSpec::output("enq_ready", 1),
        PortSpec::output("atq_count", p.atq().count_bits()),
        PortSpec::output("addr_rec", record::BITS),
        PortSpec::output("addr_empty", 1),
        PortSpec::output("pred_mask", WARP_SIZE),
        PortSpec::output("pred_empty", 1),
        PortSpec::output("pwaq_empty_vec", p.warps),
        PortSpec::output("pwpq_empty_vec", p.warps),
        PortSpec::output("l1_req", 1),
        PortSpec::output("l1_req_line", record::LINE_BITS),
        PortSpec::output("aeu_idle", 1),
        PortSpec::output("peu_idle", 1),
        PortSpec::output("peu_cnt_scalar", 32),
        PortSpec::output("peu_cnt_uniform", 32),
        PortSpec::output("peu_cnt_serial", 32),
        PortSpec::output("peu_cnt_cmp", 32),
    ]);
    v
}

/// Copy an output of one sub-model to an input of another.
fn wire(dst: &mut dyn Component, dp: PortId, src: &dyn Component, sp: PortId) {
    let mut buf = [0u64; 32];
    let v = src.get(sp);
    buf[..v.len()].copy_from_slice(v);
    dst.set(dp, &buf);
}

fn port(c: &dyn Component, n: &str) -> PortId {
    let i = c
        .ports()
        .iter()
        .position(|p| p.name == n)
        .unwrap_or_else(|| panic!("internal: `{}` has no port `{n}`", c.name()));
    PortId(i as u32)
}

/// Ports of a per-warp queue, resolved once.
struct QPorts {
    rst: PortId,
    enq: PortId,
    enq_warp: PortId,
    enq_data: PortId,
    deq: PortId,
    deq_warp: PortId,
    deq_data: PortId,
    deq_empty: PortId,
    full_vec: PortId,
    empty_vec: PortId,
    any_full: PortId,
}

impl QPorts {
    fn of(q: &PerWarpQueue, data: &str) -> Self {
        let g = |n: &str| port(q, n);
        QPorts {
            rst: g("rst"),
            enq: g("enq"),
            enq_warp: g("enq_warp"),
            enq_data: g(&format!("enq_{data}")),
            deq: g("deq"),
            deq_warp: g("deq_warp"),
            deq_data: g(&format!("deq_{data}")),
            deq_empty: g("deq_empty"),
            full_vec: g("full_vec"),
            empty_vec: g("empty_vec"),
            any_full: g("any_full"),
        }
    }
}

/// Ports of an expansion unit, resolved once.
struct UPorts {
    rst: PortId,
    in_valid: PortId,
    in_tuple: PortId,
    cfg: [PortId; 6],
    full: PortId,
    in_ready: PortId,
    push: PortId,
    push_warp: PortId,
    /// `push_rec` or `push_mask`.
    push_val: PortId,
}

impl UPorts {
    fn of(u: &dyn Component, full: &str, data: &str) -> Self {
        let g = |n: &str| port(u, n);
        UPorts {
            rst: g("rst"),
            in_valid: g("in_valid"),
            in_tuple: g("in_tuple"),
            cfg: CONFIG_INPUTS.map(g),
            full: g(full),
            in_ready: g("in_ready"),
            push: g("push"),
            push_warp: g("push_warp"),
            push_val: g(data),
        }
    }
}

/// Input and output ports of the unit itself.
struct Own {
    rst: PortId,
    enq_valid: PortId,
    enq_tuple: PortId,
    cfg: [PortId; 6],
    deq_addr: PortId,
    deq_addr_warp: PortId,
    deq_pred: PortId,
    deq_pred_warp: PortId,
    out: [PortId; 16],
}

const OUTS: [&str; 16] = [
    "enq_ready",
    "atq_count",
    "addr_rec",
    "addr_empty",
    "pred_mask",
    "pred_empty",
    "pwaq_empty_vec",
    "pwpq_empty_vec",
    "l1_req",
    "l1_req_line",
    "aeu_idle",
    "peu_idle",
    "peu_cnt_scalar",
    "peu_cnt_uniform",
    "peu_cnt_serial",
    "peu_cnt_cmp",
];

pub struct DacUnit {
    io: PortFrame,
    own: Own,
    atq: Atq,
    atq_p: [PortId; 11],
    aeu: Aeu,
    aeu_p: UPorts,
    /// The AEU's `push_data`: the record belongs to an `enq.data` tuple.
    aeu_push_data: PortId,
    peu: Peu,
    peu_p: UPorts,
    peu_cnt: [PortId; 4],
    pwaq: PerWarpQueue,
    pwaq_p: QPorts,
    pwpq: PerWarpQueue,
    pwpq_p: QPorts,
}

impl DacUnit {
    pub fn new(p: &DacUnitParams) -> Self {
        let io = PortFrame::new(ports(p));
        let own = Own {
            rst: io.id("rst"),
            enq_valid: io.id("enq_valid"),
            enq_tuple: io.id("enq_tuple"),
            cfg: CONFIG_INPUTS.map(|n| io.id(n)),
            deq_addr: io.id("deq_addr"),
            deq_addr_warp: io.id("deq_addr_warp"),
            deq_pred: io.id("deq_pred"),
            deq_pred_warp: io.id("deq_pred_warp"),
            out: OUTS.map(|n| io.id(n)),
        };
        let atq = Atq::new(&p.atq());
        let atq_p = atq::ports(&p.atq()).iter().map(|q| port(&atq, &q.name)).collect::<Vec<_>>().try_into().unwrap();
        let aeu = Aeu::new(&p.aeu());
        let peu = Peu::new(&p.peu());
        let pwaq = pwaq::new(&p.pwaq());
        let pwpq = pwpq::new(&p.pwpq());
        DacUnit {
            io,
            own,
            atq,
            atq_p,
            aeu_p: UPorts::of(&aeu, "pwaq_full", "push_rec"),
            aeu_push_data: port(&aeu, "push_data"),
            peu_p: UPorts::of(&peu, "pwpq_full", "push_mask"),
            peu_cnt: ["cnt_scalar", "cnt_uniform", "cnt_serial", "cnt_cmp"].map(|n| port(&peu, n)),
            pwaq_p: QPorts::of(&pwaq, "rec"),
            pwpq_p: QPorts::of(&pwpq, "mask"),
            aeu,
            peu,
            pwaq,
            pwpq,
        }
    }

    fn compute(&mut self) {
        // ATQ port order (atq::ports): rst enq_valid enq_tuple pwaq_any_full
        // pwpq_any_full deq | enq_ready head_valid head_tuple count full
        let ap = self.atq_p;
        let o = &self.own;
        let rst = self.io.get(o.rst)[0];
        // 1. Per-warp queues: their outputs depend on state and the deq side.
        for (q, qp, deq, warp) in [
            (&mut self.pwaq, &self.pwaq_p, o.deq_addr, o.deq_addr_warp),
            (&mut self.pwpq, &self.pwpq_p, o.deq_pred, o.deq_pred_warp),
        ] {
            q.set(qp.rst, &[rst]);
            q.set(qp.deq, self.io.get(deq));
            q.set(qp.deq_warp, self.io.get(warp));
            q.eval();
        }
        // 2. ATQ, with backpressure from the queues; deq decided below.
        let a = &mut self.atq;
        a.set(ap[0], &[rst]);
        a.set(ap[1], self.io.get(o.enq_valid));
        a.set(ap[2], self.io.get(o.enq_tuple));
        wire(a, ap[3], &self.pwaq, self.pwaq_p.any_full);
        wire(a, ap[4], &self.pwpq, self.pwpq_p.any_full);
        a.set(ap[5], &[0]);
        a.eval();
        // 3. Dispatch the head by kind; both units see the head tuple.
        let head_valid = a.get_bool(ap[7]);
        let kind = get_bits(a.get(ap[8]), tuple::KIND, 2);
        let to_aeu = head_valid && (kind == tuple::KIND_ADDR || kind == tuple::KIND_DATA);
        let to_peu = head_valid && kind == tuple::KIND_PRED;
        let drop = head_valid && kind == tuple::KIND_RSVD;
        for (u, up, q, qp, valid) in [
            (&mut self.aeu as &mut dyn Component, &self.aeu_p, &self.pwaq, &self.pwaq_p, to_aeu),
            (&mut self.peu as &mut dyn Component, &self.peu_p, &self.pwpq, &self.pwpq_p, to_peu),
        ] {
            u.set(up.rst, &[rst]);
            u.set(up.in_valid, &[valid as u64]);
            wire(u, up.in_tuple, &self.atq, ap[8]);
            wire(u, up.full, q, qp.full_vec);
            for k in 0..6 {
                let v = self.io.get(o.cfg[k]);
                let mut buf = [0u64; 32];
                buf[..v.len()].copy_from_slice(v);
                u.set(up.cfg[k], &buf);
            }
            u.eval();
        }
        let aeu_ready = self.aeu.get_bool(self.aeu_p.in_ready);
        let peu_ready = self.peu.get_bool(self.peu_p.in_ready);
        // 4. Pop the head when its unit takes it, or drop a reserved one.
        let pop = (to_aeu && aeu_ready) || (to_peu && peu_ready) || drop;
        self.atq.set(ap[5], &[pop as u64]);
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
        // 6. Outputs, in OUTS order.
        let aeu = &self.aeu;
        let l1 = aeu.get_bool(self.aeu_p.push) && aeu.get_bool(self.aeu_push_data);
        let line = if l1 { get_bits(aeu.get(self.aeu_p.push_val), record::LINE, record::LINE_BITS) } else { 0 };
        let srcs: [(&dyn Component, PortId); 8] = [
            (&self.atq, ap[6]),
            (&self.atq, ap[9]),
            (&self.pwaq, self.pwaq_p.deq_data),
            (&self.pwaq, self.pwaq_p.deq_empty),
            (&self.pwpq, self.pwpq_p.deq_data),
            (&self.pwpq, self.pwpq_p.deq_empty),
            (&self.pwaq, self.pwaq_p.empty_vec),
            (&self.pwpq, self.pwpq_p.empty_vec),
        ];
        let mut vals = [[0u64; 2]; 16];
        for (i, (c, id)) in srcs.iter().enumerate() {
            let v = c.get(*id);
            vals[i][..v.len()].copy_from_slice(v);
        }
        vals[8][0] = l1 as u64;
        vals[9][0] = line;
        vals[10][0] = aeu_ready as u64;
        vals[11][0] = peu_ready as u64;
        for k in 0..4 {
            vals[12 + k][0] = self.peu.get_u64(self.peu_cnt[k]);
        }
        for (i, v) in vals.iter().enumerate() {
            self.io.set(self.own.out[i], v);
        }
    }
}

impl Component for DacUnit {
    fn name(&self) -> &str {
        "dac_unit"
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        self.compute();
    }
    fn tick(&mut self) {
        self.compute();
        self.atq.tick();
        self.aeu.tick();
        self.peu.tick();
        self.pwaq.tick();
        self.pwpq.tick();
    }
}

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Constrained-random traffic for the whole unit, as an affine warp and its
/// non-affine warps would make it: a CTA configuration per reset epoch, a
/// stream of `enq` tuples (address, data, predicate, a few reserved), and
/// `deq.addr` / `deq.pred` from the warps of the valid CTAs at varying rates
/// (slow phases fill the per-warp queues and throttle the affine warp).
/// With `drain_after`, it stops enqueueing after that many cycles and only
/// dequeues, round robin, so that every expansion is eventually consumed.
pub struct DacUnitDriver {
    p: DacUnitParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    sl: [Slot; 13],
    cycle: u64,
    cfg: CtaConfig,
    gen: TupleGen,
    warps_used: Vec<u32>,
    p_enq: f64,
    p_deq: f64,
    drain_after: Option<u64>,
    resets: bool,
    rr: usize,
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
        let layout = InputLayout::of(&ports(p));
        let [c0, c1, c2, c3, c4, c5] = CONFIG_INPUTS;
        let names = ["rst", "enq_valid", "enq_tuple", c0, c1, c2, c3, c4, c5, "deq_addr", "deq_addr_warp", "deq_pred", "deq_pred_warp"];
        let sl = names.map(|n| layout.expect(n));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cfg = stim::random_config(&mut rng, p.ctas, p.warps);
        let mut d = DacUnitDriver {
            p: p.clone(),
            layout,
            gen: TupleGen::for_config(&cfg),
            rng,
            sl,
            cycle: 0,
            cfg,
            warps_used: vec![],
            p_enq: 0.3,
            p_deq: 0.5,
            drain_after,
            resets,
            rr: 0,
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
        for (s, v) in self.sl[3..9].iter().zip(config_inputs(&self.cfg, self.p.warp_bits())) {
            f.set_wide(*s, &v);
        }
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
/// (`enq_valid && enq_ready`), in order, must reach each warp of each valid
/// CTA as exactly the reference's expansion — for address/data tuples a run
/// of non-empty records ending in `last` whose units equal
/// [`super::affine::warp_units`], for predicate tuples one mask equal to
/// [`super::affine::warp_pred_mask`], and reserved tuples nothing. Every
/// dequeued record of an `enq.data` tuple must have been requested from L1
/// (`l1_req` with its line) when it was pushed. With `complete`, every
/// expected expansion must have been dequeued by the end and every `l1_req`
/// matched by one such record. CTA configuration
/// inputs must change only in reset cycles.
pub fn check_end_to_end(
    dut: &mut dyn Component,
    p: &DacUnitParams,
    stim: &Stimulus,
    complete: bool,
) -> Result<DacReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let o = |n: &str| dut.output(n).unwrap();
    let (enq_ready, addr_rec, addr_empty, pred_mask, pred_empty, l1, l1_line) = (
        o("enq_ready"),
        o("addr_rec"),
        o("addr_empty"),
        o("pred_mask"),
        o("pred_empty"),
        o("l1_req"),
        o("l1_req_line"),
    );
    let cnt = ["peu_cnt_scalar", "peu_cnt_uniform", "peu_cnt_serial"].map(o);
    let sl = |n: &str| layout.expect(n);
    let s = ["rst", "enq_valid", "enq_tuple", "deq_addr", "deq_addr_warp", "deq_pred", "deq_pred_warp"].map(sl);
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
            for (i, id) in cnt.iter().enumerate() {
                rep.peu_paths[i] += dut.get_u64(*id).wrapping_sub(last_cnt[i]) & 0xffff_ffff;
            }
            last_cnt = [0; 3];
            dut.tick();
            continue;
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
            if rec.mask == 0 {
                return err(format!("empty record for warp {w}"));
            }
            partial[w].extend(rec.units());
            rep.records += 1;
            let Some((_, data)) = exp_addr[w].front() else {
                return err(format!("warp {w}: unexpected record {rec:x?}"));
            };
            if *data {
                // an enq.data record: its line was requested from L1 when pushed
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
            match exp_pred[w].pop_front() {
                Some(want) if want == m => rep.masks += 1,
                want => return err(format!("warp {w}: mask {m:08x}, reference {want:x?}")),
            }
        }
        if v(1) & 1 != 0 && dut.get_bool(enq_ready) {
            let t = TupleCmd::unpack(frame.get(s[2]));
            let cfg = stim::config_from_frame(&frame, p.ctas, p.warp_bits());
            rep.tuples += 1;
            for ci in (0..p.ctas as usize).filter(|&ci| cfg.valid[ci]) {
                let g = cfg.geom(ci);
                for wi in 0..g.warps() {
                    let slot = (cfg.warp0[ci] + wi) as usize;
                    match t.kind {
                        tuple::KIND_ADDR | tuple::KIND_DATA => {
                            let u = super::affine::warp_units(&t.aff, &g, wi, t.op & 3);
                            exp_addr[slot].push_back((u, t.kind == tuple::KIND_DATA));
                        }
                        tuple::KIND_PRED => {
                            exp_pred[slot].push_back(super::affine::warp_pred_mask(&t.aff, t.rhs, t.op, &g, wi))
                        }
                        _ => {}
                    }
                }
            }
        }
        if v(1) & 1 != 0 && !dut.get_bool(enq_ready) {
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
        if let Some((l, _)) = requested.iter().find(|(_, n)| **n > 0) {
            return Err(format!("end: l1_req for line {l:x} matches no enq.data record"));
        }
    }
    Ok(rep)
}

/// Registry entry: the reference model and the driver of `dac_unit`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "dac_unit",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(DacUnit::new(&DacUnitParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(DacUnitDriver::new(&DacUnitParams::from_params(p)?, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_to_end_random_with_resets() {
        for (p, seed) in [
            (DacUnitParams::default(), 1),
            (DacUnitParams { warps: 6, ctas: 2, atq_entries: 3, pwaq_entries: 6, pwpq_entries: 12 }, 2),
        ] {
            let mut d = DacUnitDriver::new(&p, seed);
            let stim = Stimulus::record(&mut d, 60_000);
            let rep = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, false).unwrap();
            println!("dac_unit {p:?}: {rep:?}");
            assert!(rep.addr_expansions > 500 && rep.masks > 1000 && rep.throttled_cycles > 100, "{rep:?}");
        }
    }

    #[test]
    fn end_to_end_drains_completely() {
        let p = DacUnitParams::default();
        let mut d = DacUnitDriver::draining(&p, 7, 40_000);
        let stim = Stimulus::record(&mut d, 80_000);
        let rep = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, true).unwrap();
        println!("dac_unit drained: {rep:?}");
        assert!(rep.tuples > 50 && rep.l1_requests > 1000, "{rep:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]
        /// Random shapes and seeds: the whole unit matches the reference.
        #[test]
        fn prop_end_to_end(warps in 1u32..=48, ctas in 1u32..=8, atq in 1u32..=24, da in 1u32..=4, dp in 1u32..=4, seed in proptest::prelude::any::<u64>()) {
            let p = DacUnitParams { warps, ctas, atq_entries: atq, pwaq_entries: warps * da, pwpq_entries: warps * dp };
            // depth-1 partitions fed serial expansions drain slowly: allow for it
            let stim = Stimulus::record(&mut DacUnitDriver::draining(&p, seed, 4_000), 100_000);
            let r = check_end_to_end(&mut DacUnit::new(&p), &p, &stim, true);
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
