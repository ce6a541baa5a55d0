//! Verification of the per-warp queues, the PWAQ and the PWPQ (specification
//! `hw/src/blocks/dac/pwaq.rs`, model `models::dac::pwaq`): a constrained-random
//! driver and the per-warp FIFO property check, for either queue.

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::dac::pwaq::{PerWarpQueueIo, PwaqParams, QueueShape};
use hw::blocks::dac::pwpq::PwpqParams;
use hw::iface::{Interface, InterfaceExt};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::collections::VecDeque;
use std::sync::Arc;

/// A per-warp queue block: the PWAQ or the PWPQ.
pub trait Queue: Interface<Io<PortId> = PerWarpQueueIo<PortId>> {}
impl Queue for PwaqParams {}
impl Queue for PwpqParams {}

/// Registry entry: the driver of `pwaq`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pwaq",
    driver: |p, seed| {
        let p: PwaqParams = hw::params::BlockParams::from_params(p)?;
        Ok(Box::new(QueueDriver::new(&p, p.shape(), seed)))
    },
};

/// Registry entry: the driver of `pwpq`.
pub static VERIF_PWPQ: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pwpq",
    driver: |p, seed| {
        let p: PwpqParams = hw::params::BlockParams::from_params(p)?;
        Ok(Box::new(QueueDriver::new(&p, p.shape(), seed)))
    },
};

/// Constrained-random traffic for a per-warp queue: enqueues and dequeues
/// concentrated on a few warps per phase (so partitions fill and drain),
/// same-cycle enq and deq of one warp, out-of-range warp ids, resets.
pub struct QueueDriver {
    q: QueueShape,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    io: PerWarpQueueIo<PortId>,
    cycle: u64,
    hot: [u32; 3],
    p_enq: f64,
    p_deq: f64,
}

impl QueueDriver {
    /// A driver for queue block `p` (the PWAQ or the PWPQ) of shape `q`.
    pub fn new<P: Queue>(p: &P, q: QueueShape, seed: u64) -> Self {
        QueueDriver {
            q,
            layout: InputLayout::of(&p.ports()),
            rng: ChaCha8Rng::seed_from_u64(seed),
            io: p.ids(),
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
        f.set_bool(self.io.rst, rst);
        let (pe, pd) = (self.p_enq, self.p_deq);
        let e = self.rng.random_bool(pe);
        f.set_bool(self.io.enq, e);
        let ew = self.warp();
        f.set(self.io.enq_warp, ew as u64);
        let data: u64 = self.rng.random();
        f.set(self.io.enq_data, data);
        let d = self.rng.random_bool(pd);
        f.set_bool(self.io.deq, d);
        let dw = if self.rng.random_bool(0.2) { ew } else { self.warp() };
        f.set(self.io.deq_warp, dw as u64);
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
pub fn check_queues<P: Queue>(dut: &mut dyn Component, p: &P, q: &QueueShape, stim: &Stimulus) -> Result<QueueReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (data, empty, fullv, emptyv, anyf) = (io.deq_data, io.deq_empty, io.full_vec, io.empty_vec, io.any_full);
    let (s_rst, s_enq, s_ew, s_ed, s_deq, s_dw) = (io.rst, io.enq, io.enq_warp, io.enq_data, io.deq, io.deq_warp);
    let mut frame = Frame::new(layout.clone());
    let mut fifo: Vec<VecDeque<u64>> = vec![VecDeque::new(); q.warps as usize];
    let d = q.depth() as usize;
    let mut rep = QueueReport::default();
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let v = |s: PortId| frame.get(s)[0];
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

