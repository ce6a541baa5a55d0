//! Reference model of the per-warp address queue (PWAQ), written from the
//! specification in `hw/src/blocks/dac/pwaq.rs` (paper §4.1 ⑤⑥, §4.8).
//!
//! The PWAQ and the PWPQ are the same structure with different entries (a
//! 62-bit warp address record, a 32-bit predicate mask), so the model, driver
//! and property here are generic in the entry width and the data port names;
//! `pwpq.rs` instantiates them for masks.

use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::dac::pwaq::PwaqParams;
use hw::clog2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::VecDeque;
use std::sync::Arc;

/// Shape of a per-warp queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueShape {
    pub name: &'static str,
    pub warps: u32,
    pub entries: u32,
    pub width: u32,
    /// Data port names: `enq_rec`/`deq_rec` or `enq_mask`/`deq_mask`.
    pub enq_data: &'static str,
    pub deq_data: &'static str,
}

impl QueueShape {
    pub fn depth(&self) -> u32 {
        self.entries / self.warps
    }
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }

    pub fn ports(&self) -> Vec<PortSpec> {
        vec![
            PortSpec::input("rst", 1),
            PortSpec::input("enq", 1),
            PortSpec::input("enq_warp", self.warp_bits()),
            PortSpec::input(self.enq_data, self.width),
            PortSpec::input("deq", 1),
            PortSpec::input("deq_warp", self.warp_bits()),
            PortSpec::output(self.deq_data, self.width),
            PortSpec::output("deq_empty", 1),
            PortSpec::output("full_vec", self.warps),
            PortSpec::output("empty_vec", self.warps),
            PortSpec::output("any_full", 1),
        ]
    }
}

pub fn shape(p: &PwaqParams) -> QueueShape {
    QueueShape {
        name: "pwaq",
        warps: p.warps,
        entries: p.entries,
        width: hw::blocks::dac::pwaq::ENTRY_BITS,
        enq_data: "enq_rec",
        deq_data: "deq_rec",
    }
}

pub fn ports(p: &PwaqParams) -> Vec<PortSpec> {
    shape(p).ports()
}

/// One memory of `entries` words, warp `w`'s partition at `w*depth ..`, and
/// per-warp head, tail and count registers.
pub struct PerWarpQueue {
    q: QueueShape,
    io: PortFrame,
    id: [PortId; 11],
    mem: Vec<u64>,
    head: Vec<u32>,
    tail: Vec<u32>,
    count: Vec<u32>,
}

impl PerWarpQueue {
    pub fn new(q: QueueShape) -> Self {
        let io = PortFrame::new(q.ports());
        let id = [
            "rst",
            "enq",
            "enq_warp",
            q.enq_data,
            "deq",
            "deq_warp",
            q.deq_data,
            "deq_empty",
            "full_vec",
            "empty_vec",
            "any_full",
        ]
        .map(|n| io.id(n));
        let w = q.warps as usize;
        PerWarpQueue {
            mem: vec![0; q.entries as usize],
            head: vec![0; w],
            tail: vec![0; w],
            count: vec![0; w],
            q,
            io,
            id,
        }
    }
}

impl Component for PerWarpQueue {
    fn name(&self) -> &str {
        self.q.name
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        let d = self.q.depth();
        let dw = self.io.get_u64(self.id[5]) as u32;
        let empty = dw >= self.q.warps || self.count[dw as usize] == 0;
        let data = if empty { 0 } else { self.mem[(dw * d + self.head[dw as usize]) as usize] };
        self.io.set_u64(self.id[6], data);
        self.io.set_bool(self.id[7], empty);
        let (mut full_v, mut empty_v) = (0u64, 0u64);
        for w in 0..self.q.warps as usize {
            full_v |= ((self.count[w] == d) as u64) << w;
            empty_v |= ((self.count[w] == 0) as u64) << w;
        }
        self.io.set_u64(self.id[8], full_v);
        self.io.set_u64(self.id[9], empty_v);
        self.io.set_bool(self.id[10], full_v != 0);
    }
    fn tick(&mut self) {
        if self.io.get_bool(self.id[0]) {
            self.head.fill(0);
            self.tail.fill(0);
            self.count.fill(0);
            return;
        }
        let d = self.q.depth();
        let ew = self.io.get_u64(self.id[2]) as u32;
        let dw = self.io.get_u64(self.id[5]) as u32;
        // Both decisions use the state before the edge.
        let enq = self.io.get_bool(self.id[1]) && ew < self.q.warps && self.count[ew as usize] < d;
        let deq = self.io.get_bool(self.id[4]) && dw < self.q.warps && self.count[dw as usize] > 0;
        if enq {
            let e = ew as usize;
            self.mem[(ew * d + self.tail[e]) as usize] = self.io.get_u64(self.id[3]);
            self.tail[e] = (self.tail[e] + 1) % d;
            self.count[e] += 1;
        }
        if deq {
            let e = dw as usize;
            self.head[e] = (self.head[e] + 1) % d;
            self.count[e] -= 1;
        }
    }
}

/// The PWAQ: a [`PerWarpQueue`] of warp address records.
pub fn new(p: &PwaqParams) -> PerWarpQueue {
    PerWarpQueue::new(shape(p))
}

/// Constrained-random traffic for a per-warp queue: enqueues and dequeues
/// concentrated on a few warps per phase (so partitions fill and drain),
/// same-cycle enq and deq of one warp, out-of-range warp ids, resets.
pub struct QueueDriver {
    q: QueueShape,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    sl: [Slot; 6],
    cycle: u64,
    hot: [u32; 3],
    p_enq: f64,
    p_deq: f64,
}

impl QueueDriver {
    pub fn new(q: QueueShape, seed: u64) -> Self {
        let layout = InputLayout::of(&q.ports());
        let sl = ["rst", "enq", "enq_warp", q.enq_data, "deq", "deq_warp"].map(|n| layout.expect(n));
        QueueDriver {
            q,
            layout,
            rng: ChaCha8Rng::seed_from_u64(seed),
            sl,
            cycle: 0,
            hot: [0; 3],
            p_enq: 0.5,
            p_deq: 0.5,
        }
    }

    fn warp(&mut self) -> u32 {
        let r = &mut self.rng;
        match r.random_range(0..100) {
            0..80 => self.hot[r.random_range(0..3)],
            80..97 => r.random_range(0..self.q.warps),
            // out of range (when the index width allows it)
            _ => r.random_range(0..1u32 << self.q.warp_bits()),
        }
    }
}

impl Driver for QueueDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        if self.cycle.is_multiple_of(64) {
            let r = &mut self.rng;
            self.hot = [0; 3].map(|_| r.random_range(0..self.q.warps));
            self.p_enq = [0.2, 0.6, 0.95][r.random_range(0..3)];
            self.p_deq = [0.05, 0.4, 0.9][r.random_range(0..3)];
        }
        let rst = self.cycle == 0 || self.rng.random_bool(0.001);
        self.cycle += 1;
        f.set_bool(self.sl[0], rst);
        let (pe, pd) = (self.p_enq, self.p_deq);
        let e = self.rng.random_bool(pe);
        f.set_bool(self.sl[1], e);
        let ew = self.warp();
        f.set(self.sl[2], ew as u64);
        let data: u64 = self.rng.random();
        f.set(self.sl[3], data);
        let d = self.rng.random_bool(pd);
        f.set_bool(self.sl[4], d);
        let dw = if self.rng.random_bool(0.2) { ew } else { self.warp() };
        f.set(self.sl[5], dw as u64);
    }
}

/// Coverage of a [`check_queues`] run.
#[derive(Clone, Debug, Default)]
pub struct QueueReport {
    pub enqueued: u64,
    pub dequeued: u64,
    pub refused_full: u64,
    pub deq_of_empty: u64,
    pub same_warp_enq_deq: u64,
}

/// Run `stim` through `dut` and compare with one FIFO per warp of
/// `entries/warps` slots: `deq_*` data and `deq_empty` for the addressed warp,
/// `full_vec`, `empty_vec`, `any_full`; an enq into a full partition or an
/// out-of-range warp is dropped, a deq of an empty one does nothing.
pub fn check_queues(dut: &mut dyn Component, q: &QueueShape, stim: &Stimulus) -> Result<QueueReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let o = |n: &str| dut.output(n).unwrap();
    let (data, empty, fullv, emptyv, anyf) =
        (o(q.deq_data), o("deq_empty"), o("full_vec"), o("empty_vec"), o("any_full"));
    let sl = |n: &str| layout.expect(n);
    let (s_rst, s_enq, s_ew, s_ed, s_deq, s_dw) =
        (sl("rst"), sl("enq"), sl("enq_warp"), sl(q.enq_data), sl("deq"), sl("deq_warp"));
    let mut frame = Frame::new(layout.clone());
    let mut fifo: Vec<VecDeque<u64>> = vec![VecDeque::new(); q.warps as usize];
    let d = q.depth() as usize;
    let mut rep = QueueReport::default();
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let v = |s: Slot| frame.get(s)[0];
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let (ew, dw) = (v(s_ew) as usize, v(s_dw) as usize);
        let head = fifo.get(dw).and_then(|f| f.front().copied());
        if dut.get_bool(empty) != head.is_none() || dut.get_u64(data) != head.unwrap_or(0) {
            return err(format!(
                "warp {dw}: deq_empty {} data {:x}, expected {head:x?}",
                dut.get_bool(empty),
                dut.get_u64(data)
            ));
        }
        let (mut fv, mut ev) = (0u64, 0u64);
        for (w, f) in fifo.iter().enumerate() {
            fv |= ((f.len() == d) as u64) << w;
            ev |= (f.is_empty() as u64) << w;
        }
        if dut.get_u64(fullv) != fv || dut.get_u64(emptyv) != ev || dut.get_bool(anyf) != (fv != 0) {
            return err(format!(
                "full_vec {:x} empty_vec {:x}, expected {fv:x} {ev:x}",
                dut.get_u64(fullv),
                dut.get_u64(emptyv)
            ));
        }
        if v(s_rst) & 1 != 0 {
            fifo.iter_mut().for_each(|f| f.clear());
        } else {
            let enq = v(s_enq) & 1 != 0 && ew < fifo.len();
            let deq = v(s_deq) & 1 != 0 && dw < fifo.len();
            let can_enq = enq && fifo[ew].len() < d;
            let can_deq = deq && !fifo[dw].is_empty();
            if enq && !can_enq {
                rep.refused_full += 1;
            }
            if deq && !can_deq {
                rep.deq_of_empty += 1;
            }
            if can_enq && can_deq && ew == dw {
                rep.same_warp_enq_deq += 1;
            }
            if can_deq {
                fifo[dw].pop_front();
                rep.dequeued += 1;
            }
            if can_enq {
                let mask = if q.width >= 64 { !0 } else { (1u64 << q.width) - 1 };
                fifo[ew].push_back(v(s_ed) & mask);
                rep.enqueued += 1;
            }
        }
        dut.tick();
    }
    Ok(rep)
}

/// Registry entry: the reference model and the driver of `pwaq`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pwaq",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(new(&PwaqParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(QueueDriver::new(shape(&PwaqParams::from_params(p)?), seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_behave_as_fifos() {
        for (p, seed) in [
            (PwaqParams::default(), 1),
            (PwaqParams { warps: 4, entries: 4 }, 2),
            (PwaqParams { warps: 3, entries: 21 }, 3),
            (PwaqParams { warps: 64, entries: 128 }, 4),
        ] {
            let q = shape(&p);
            let mut d = QueueDriver::new(q.clone(), seed);
            let stim = Stimulus::record(&mut d, 30_000);
            let rep = check_queues(&mut new(&p), &q, &stim).unwrap();
            println!("PWAQ {p:?}: {rep:?}");
            assert!(
                rep.refused_full > 100 && rep.deq_of_empty > 100 && (rep.same_warp_enq_deq > 50 || q.depth() == 1),
                "{rep:?}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
        #[test]
        fn prop_partitions(warps in 1u32..=64, depth in 1u32..=8, seed in proptest::prelude::any::<u64>()) {
            let p = PwaqParams { warps, entries: warps * depth };
            let q = shape(&p);
            let stim = Stimulus::record(&mut QueueDriver::new(q.clone(), seed), 4_000);
            let r = check_queues(&mut new(&p), &q, &stim);
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
