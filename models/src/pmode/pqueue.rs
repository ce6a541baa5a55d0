//! Reference model of `pqueue` (specification: `hw::blocks::pmode::pqueue`).

use crate::bits::mask;
use super::PortFeeds;
use crate::Reference;
use hw::blocks::pmode::pqueue::{PqueueIo, PqueueParams};
use sim::{Bind, Component, PortFrame, PortId};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    offset: u64,
    src0: u64,
    src1: u64,
    /// Per destination: (architected, physical) ids.
    dst: [(u64, u64); 4],
    reuse_rdy: bool,
    valid: bool,
}

#[derive(Clone, Debug)]
struct WarpQ {
    base: u64,
    head: usize,
    tail: usize,
    e: Vec<Entry>,
}

impl WarpQ {
    fn new(entries: usize) -> Self {
        WarpQ { base: 0, head: 0, tail: 0, e: vec![Entry::default(); entries] }
    }
    fn clear(&mut self, base: u64) {
        self.base = base;
        self.head = 0;
        self.tail = 0;
        self.e.fill(Entry::default());
    }
}

/// What one port sees this cycle (from the state at the start of the cycle).
#[derive(Clone, Copy, Debug, Default)]
struct View {
    empty: bool,
    full: bool,
    ok: bool,
    idx: u64,
    hit: bool,
    rdy: bool,
    head: Entry,
    offset: u64,
}

/// Cycle-accurate reference model of `pqueue`.
pub struct PqueueModel {
    p: PqueueParams,
    pub(crate) frame: PortFrame,
    io: std::sync::Arc<PqueueIo<PortId>>,
    q: Vec<WarpQ>,
    /// A warp in reset state, read for warp ids `>= warps`.
    idle: WarpQ,
    views: Vec<View>,
    /// The port whose view an input feeds (its `warp` or `pc`; the views
    /// depend on nothing else but the state); the ports whose view `eval`
    /// must compute again.
    pub(crate) feeds: PortFeeds,
}

impl PqueueModel {
    pub fn new(p: &PqueueParams) -> Self {
        let (frame, io) = (p.frame(), p.ids());
        let mut feeds = PortFeeds::new(&frame, PortFeeds::NONE);
        for (k, ids) in io.iss.iter().enumerate() {
            feeds.feed(ids.warp, k);
            feeds.feed(ids.pc, k);
        }
        PqueueModel {
            frame,
            io: sim::shared::shared(io),
            feeds,
            q: vec![WarpQ::new(p.entries as usize); p.warps as usize],
            idle: WarpQ::new(p.entries as usize),
            views: vec![View::default(); p.issue_ports as usize],
            p: p.clone(),
        }
    }

    /// Set an input; whether its value changed.
    pub(crate) fn set_changed(&mut self, port: PortId, value: &[u64]) -> bool {
        self.feeds.set(&mut self.frame, port, value)
    }

    fn warp(&self, w: u64) -> &WarpQ {
        self.q.get(w as usize).unwrap_or(&self.idle)
    }

    /// Offset of `pc` from `base` if it fits in `offset_bits` (signed).
    fn offset(&self, pc: u64, base: u64) -> Option<u64> {
        let pb = self.p.pc_bits;
        let d = pc.wrapping_sub(base) & mask(pb);
        let sd: i128 = if (d >> (pb - 1)) & 1 == 1 { d as i128 - (1i128 << pb) } else { d as i128 };
        let half = 1i128 << (self.p.offset_bits - 1);
        (-half..half).contains(&sd).then_some(d & mask(self.p.offset_bits))
    }

    /// The PC an entry's offset stands for.
    fn entry_pc(&self, base: u64, offset: u64) -> u64 {
        let ob = self.p.offset_bits;
        let sext = if (offset >> (ob - 1)) & 1 == 1 { offset | !mask(ob) } else { offset };
        base.wrapping_add(sext) & mask(self.p.pc_bits)
    }

    fn view(&self, k: usize) -> View {
        let ids = &self.io.iss[k];
        let w = self.frame.get_u64(ids.warp);
        let pc = self.frame.get_u64(ids.pc);
        let q = self.warp(w);
        if q.e.is_empty() {
            // No P-queue: empty and full at once, nothing recorded or matched.
            return View { empty: true, full: true, ..View::default() };
        }
        let head = q.e[q.head];
        let full = q.e[q.tail].valid;
        let off = self.offset(pc, q.base);
        View {
            empty: !head.valid,
            full,
            ok: !full && off.is_some(),
            idx: q.tail as u64,
            hit: head.valid && self.entry_pc(q.base, head.offset) == pc,
            rdy: head.valid && head.reuse_rdy,
            head: if head.valid { head } else { Entry::default() },
            offset: off.unwrap_or(0),
        }
    }
}

impl Component for PqueueModel {
    fn name(&self) -> &str {
        "pqueue"
    }
    sim::frame_ports!(frame, set_changed);

    fn eval(&mut self) {
        let dirty = self.feeds.take();
        for k in (0..self.io.iss.len()).filter(|&k| dirty >> k & 1 == 1) {
            let v = self.view(k);
            self.views[k] = v;
            let ids = &self.io.iss[k];
            self.frame.set_bool(ids.empty, v.empty);
            self.frame.set_bool(ids.full, v.full);
            self.frame.set_bool(ids.ok, v.ok);
            self.frame.set_u64(ids.idx, v.idx);
            self.frame.set_bool(ids.hit, v.hit);
            self.frame.set_bool(ids.rdy, v.rdy);
            self.frame.set_u64(ids.head_src0, v.head.src0);
            self.frame.set_u64(ids.head_src1, v.head.src1);
            for (h, &(dst, pdst)) in ids.head.iter().zip(&v.head.dst) {
                self.frame.set_u64(h.dst, dst);
                self.frame.set_u64(h.pdst, pdst);
            }
        }
    }

    fn tick(&mut self) {
        // The views of ports whose inputs changed since the last `eval`.
        let stale = self.feeds.take();
        self.feeds.all();
        if self.frame.get_bool(self.io.rst) {
            for q in &mut self.q {
                q.clear(0);
            }
            return;
        }
        // Decisions from the state at the start of the cycle (the views of
        // ports that push or pop).
        for k in (0..self.io.iss.len()).filter(|&k| stale >> k & 1 == 1) {
            let ids = &self.io.iss[k];
            if self.frame.get_bool(ids.push) || self.frame.get_bool(ids.pop) {
                self.views[k] = self.view(k);
            }
        }
        let warps = self.q.len() as u64;
        let start = self.frame.get_bool(self.io.start_en);
        let sw = self.frame.get_u64(self.io.start_warp);
        let started = |w: u64| start && w == sw;
        // Writebacks: only entries valid at the start of the cycle.
        for j in 0..self.io.wb.len() {
            let ids = &self.io.wb[j];
            let (w, idx) = (self.frame.get_u64(ids.warp), self.frame.get_u64(ids.idx) as usize);
            if !self.frame.get_bool(ids.en) || w >= warps || started(w) {
                continue;
            }
            if let Some(e) = self.q[w as usize].e.get_mut(idx) {
                if e.valid {
                    e.reuse_rdy = true;
                }
            }
        }
        // Ports in order.
        let n = self.p.entries as usize;
        for k in 0..self.io.iss.len() {
            let ids = &self.io.iss[k];
            let w = self.frame.get_u64(ids.warp);
            let (push, pop) = (self.frame.get_bool(ids.push), self.frame.get_bool(ids.pop));
            // A port that neither pushes nor pops changes nothing.
            if !(push || pop) {
                continue;
            }
            let blocked = (0..k).any(|j| {
                let o = &self.io.iss[j];
                self.frame.get_u64(o.warp) == w && (self.frame.get_bool(o.push) || self.frame.get_bool(o.pop))
            });
            if w >= warps || started(w) || blocked {
                continue;
            }
            let v = self.views[k];
            let mut e = Entry {
                offset: v.offset,
                src0: self.frame.get_u64(ids.src0),
                src1: self.frame.get_u64(ids.src1),
                dst: [(0, 0); 4],
                reuse_rdy: false,
                valid: true,
            };
            for (x, d) in e.dst.iter_mut().zip(&ids.dst) {
                *x = (self.frame.get_u64(d.dst), self.frame.get_u64(d.pdst));
            }
            if n == 0 {
                continue; // no P-queue: nothing is recorded or matched
            }
            let q = &mut self.q[w as usize];
            if pop && v.hit && v.rdy {
                q.e[q.head] = Entry::default();
                q.head = (q.head + 1) % n;
            }
            if push && v.ok {
                q.e[q.tail] = e;
                q.tail = (q.tail + 1) % n;
            }
        }
        if start && sw < warps {
            let base = self.frame.get_u64(self.io.start_pc);
            self.q[sw as usize].clear(base);
        }
    }
}

impl Reference for PqueueParams {
    type Model = PqueueModel;
    fn model(&self) -> PqueueModel {
        PqueueModel::new(self)
    }
}
