//! Reference model of the per-warp queues: the PWAQ (warp address records)
//! and the PWPQ (predicate masks), written from the specification in
//! `hw/src/blocks/dac/pwaq.rs` (paper §4.1, §4.8).

use crate::Reference;
use hw::blocks::dac::pwaq::{PerWarpQueueIo, PwaqParams, QueueShape};
use hw::blocks::dac::pwpq::PwpqParams;
use hw::iface::Interface;
use hw::registry::Block;
use sim::{Bind, Component, PortFrame, PortId};

/// One memory of `entries` words, warp `w`'s partition at `w*depth ..`, and
/// per-warp head, tail and count registers.
pub struct PerWarpQueue {
    name: &'static str,
    q: QueueShape,
    pub(crate) frame: PortFrame,
    io: PerWarpQueueIo<PortId>,
    mem: Vec<u64>,
    head: Vec<u32>,
    tail: Vec<u32>,
    count: Vec<u32>,
    /// The per-warp full and empty flags (registers in the hardware, kept
    /// with the counts).
    full_v: u64,
    empty_v: u64,
}

impl PerWarpQueue {
    /// A queue of block `P` (the PWAQ or the PWPQ) of this shape.
    pub fn new<P: Block + Interface<Io<PortId> = PerWarpQueueIo<PortId>>>(p: &P, q: QueueShape) -> Self {
        let w = q.warps as usize;
        PerWarpQueue {
            mem: vec![0; q.entries as usize],
            head: vec![0; w],
            tail: vec![0; w],
            count: vec![0; w],
            full_v: 0,
            empty_v: if w == 64 { u64::MAX } else { (1u64 << w) - 1 },
            name: P::NAME,
            frame: p.frame(),
            io: p.ids(),
            q,
        }
    }
}

impl PerWarpQueue {
    /// The clock edge would change the state (a reset, or a write or read
    /// the queue takes).
    pub(crate) fn edge_changes(&self) -> bool {
        let (f, io, d) = (&self.frame, &self.io, self.q.depth());
        let takes = |en: PortId, warp: PortId, ok: fn(u32, u32) -> bool| {
            let w = f.get_u64(warp) as u32;
            f.get_bool(en) && w < self.q.warps && ok(self.count[w as usize], d)
        };
        f.get_bool(io.rst) || takes(io.enq, io.enq_warp, |c, d| c < d) || takes(io.deq, io.deq_warp, |c, _| c > 0)
    }
}

impl Component for PerWarpQueue {
    fn name(&self) -> &str {
        self.name
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        let d = self.q.depth();
        let dw = self.frame.get_u64(self.io.deq_warp) as u32;
        let empty = dw >= self.q.warps || self.count[dw as usize] == 0;
        let data = if empty { 0 } else { self.mem[(dw * d + self.head[dw as usize]) as usize] };
        self.frame.set_u64(self.io.deq_data, data);
        self.frame.set_bool(self.io.deq_empty, empty);
        self.frame.set_u64(self.io.full_vec, self.full_v);
        self.frame.set_u64(self.io.empty_vec, self.empty_v);
        self.frame.set_bool(self.io.any_full, self.full_v != 0);
    }
    fn tick(&mut self) {
        if self.frame.get_bool(self.io.rst) {
            self.head.fill(0);
            self.tail.fill(0);
            self.count.fill(0);
            self.full_v = 0;
            self.empty_v = if self.q.warps == 64 { u64::MAX } else { (1u64 << self.q.warps) - 1 };
            return;
        }
        let d = self.q.depth();
        let ew = self.frame.get_u64(self.io.enq_warp) as u32;
        let dw = self.frame.get_u64(self.io.deq_warp) as u32;
        // Both decisions use the state before the edge.
        let enq = self.frame.get_bool(self.io.enq) && ew < self.q.warps && self.count[ew as usize] < d;
        let deq = self.frame.get_bool(self.io.deq) && dw < self.q.warps && self.count[dw as usize] > 0;
        if enq {
            let e = ew as usize;
            self.mem[(ew * d + self.tail[e]) as usize] = self.frame.get_u64(self.io.enq_data);
            self.tail[e] = (self.tail[e] + 1) % d;
            self.count[e] += 1;
        }
        if deq {
            let e = dw as usize;
            self.head[e] = (self.head[e] + 1) % d;
            self.count[e] -= 1;
        }
        for w in [ew, dw].into_iter().filter(|&w| w < self.q.warps) {
            let (bit, c) = (1u64 << w, self.count[w as usize]);
            self.full_v = if c == d { self.full_v | bit } else { self.full_v & !bit };
            self.empty_v = if c == 0 { self.empty_v | bit } else { self.empty_v & !bit };
        }
    }
}

impl Reference for PwaqParams {
    type Model = PerWarpQueue;
    fn model(&self) -> PerWarpQueue {
        PerWarpQueue::new(self, self.shape())
    }
}

impl Reference for PwpqParams {
    type Model = PerWarpQueue;
    fn model(&self) -> PerWarpQueue {
        PerWarpQueue::new(self, self.shape())
    }
}
