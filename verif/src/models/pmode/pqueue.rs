//! Reference model of `pqueue` (specification: `hw::blocks::pmode::pqueue`),
//! its constrained-random driver and its property checks.

use super::common::{mask, out, slot, InView};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::pmode::pqueue::PqueueParams;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, PortFrame, PortId, PortSpec};
use std::collections::VecDeque;
use std::sync::Arc;

/// Every port of `pqueue`, inputs first (`rst` first), in declaration order.
pub fn ports(p: &PqueueParams) -> Vec<PortSpec> {
    let (w, a, r, i, pc) = (p.warp_bits(), p.reg_bits(), p.phys_bits(), p.idx_bits(), p.pc_bits);
    let mut v = vec![
        PortSpec::input("rst", 1),
        PortSpec::input("start_en", 1),
        PortSpec::input("start_warp", w),
        PortSpec::input("start_pc", pc),
    ];
    for k in 0..p.issue_ports {
        v.push(PortSpec::input(format!("iss{k}_warp"), w));
        v.push(PortSpec::input(format!("iss{k}_pc"), pc));
        v.push(PortSpec::input(format!("iss{k}_push"), 1));
        v.push(PortSpec::input(format!("iss{k}_src0"), a));
        v.push(PortSpec::input(format!("iss{k}_src1"), a));
        v.push(PortSpec::input(format!("iss{k}_dst"), a));
        v.push(PortSpec::input(format!("iss{k}_pdst"), r));
        v.push(PortSpec::input(format!("iss{k}_pop"), 1));
    }
    for j in 0..p.wb_ports {
        v.push(PortSpec::input(format!("wb{j}_en"), 1));
        v.push(PortSpec::input(format!("wb{j}_warp"), w));
        v.push(PortSpec::input(format!("wb{j}_idx"), i));
    }
    for k in 0..p.issue_ports {
        v.push(PortSpec::output(format!("iss{k}_empty"), 1));
        v.push(PortSpec::output(format!("iss{k}_full"), 1));
        v.push(PortSpec::output(format!("iss{k}_ok"), 1));
        v.push(PortSpec::output(format!("iss{k}_idx"), i));
        v.push(PortSpec::output(format!("iss{k}_hit"), 1));
        v.push(PortSpec::output(format!("iss{k}_rdy"), 1));
        v.push(PortSpec::output(format!("iss{k}_head_src0"), a));
        v.push(PortSpec::output(format!("iss{k}_head_src1"), a));
        v.push(PortSpec::output(format!("iss{k}_head_dst"), a));
        v.push(PortSpec::output(format!("iss{k}_head_pdst"), r));
    }
    v
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    offset: u64,
    src0: u64,
    src1: u64,
    dst: u64,
    pdst: u64,
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

struct IssIds {
    warp: PortId,
    pc: PortId,
    push: PortId,
    src0: PortId,
    src1: PortId,
    dst: PortId,
    pdst: PortId,
    pop: PortId,
    o_empty: PortId,
    o_full: PortId,
    o_ok: PortId,
    o_idx: PortId,
    o_hit: PortId,
    o_rdy: PortId,
    o_src0: PortId,
    o_src1: PortId,
    o_dst: PortId,
    o_pdst: PortId,
}

struct WbIds {
    en: PortId,
    warp: PortId,
    idx: PortId,
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
    io: PortFrame,
    rst: PortId,
    start_en: PortId,
    start_warp: PortId,
    start_pc: PortId,
    iss: Vec<IssIds>,
    wb: Vec<WbIds>,
    q: Vec<WarpQ>,
    /// A warp in reset state, read for warp ids `>= warps`.
    idle: WarpQ,
    views: Vec<View>,
}

impl PqueueModel {
    pub fn new(p: &PqueueParams) -> Self {
        let io = PortFrame::new(ports(p));
        let iss = (0..p.issue_ports)
            .map(|k| {
                let n = |s: &str| io.id(&format!("iss{k}_{s}"));
                IssIds {
                    warp: n("warp"),
                    pc: n("pc"),
                    push: n("push"),
                    src0: n("src0"),
                    src1: n("src1"),
                    dst: n("dst"),
                    pdst: n("pdst"),
                    pop: n("pop"),
                    o_empty: n("empty"),
                    o_full: n("full"),
                    o_ok: n("ok"),
                    o_idx: n("idx"),
                    o_hit: n("hit"),
                    o_rdy: n("rdy"),
                    o_src0: n("head_src0"),
                    o_src1: n("head_src1"),
                    o_dst: n("head_dst"),
                    o_pdst: n("head_pdst"),
                }
            })
            .collect();
        let wb = (0..p.wb_ports)
            .map(|j| WbIds {
                en: io.id(&format!("wb{j}_en")),
                warp: io.id(&format!("wb{j}_warp")),
                idx: io.id(&format!("wb{j}_idx")),
            })
            .collect();
        PqueueModel {
            rst: io.id("rst"),
            start_en: io.id("start_en"),
            start_warp: io.id("start_warp"),
            start_pc: io.id("start_pc"),
            iss,
            wb,
            q: vec![WarpQ::new(p.entries as usize); p.warps as usize],
            idle: WarpQ::new(p.entries as usize),
            views: vec![View::default(); p.issue_ports as usize],
            p: p.clone(),
            io,
        }
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
        let ids = &self.iss[k];
        let w = self.io.get_u64(ids.warp);
        let pc = self.io.get_u64(ids.pc);
        let q = self.warp(w);
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
    sim::frame_ports!(io);

    fn eval(&mut self) {
        for k in 0..self.iss.len() {
            let v = self.view(k);
            self.views[k] = v;
            let ids = &self.iss[k];
            self.io.set_bool(ids.o_empty, v.empty);
            self.io.set_bool(ids.o_full, v.full);
            self.io.set_bool(ids.o_ok, v.ok);
            self.io.set_u64(ids.o_idx, v.idx);
            self.io.set_bool(ids.o_hit, v.hit);
            self.io.set_bool(ids.o_rdy, v.rdy);
            self.io.set_u64(ids.o_src0, v.head.src0);
            self.io.set_u64(ids.o_src1, v.head.src1);
            self.io.set_u64(ids.o_dst, v.head.dst);
            self.io.set_u64(ids.o_pdst, v.head.pdst);
        }
    }

    fn tick(&mut self) {
        if self.io.get_bool(self.rst) {
            for q in &mut self.q {
                q.clear(0);
            }
            return;
        }
        // Decisions from the state at the start of the cycle.
        for k in 0..self.iss.len() {
            self.views[k] = self.view(k);
        }
        let warps = self.q.len() as u64;
        let start = self.io.get_bool(self.start_en);
        let sw = self.io.get_u64(self.start_warp);
        let started = |w: u64| start && w == sw;
        // Writebacks: only entries valid at the start of the cycle.
        for j in 0..self.wb.len() {
            let ids = &self.wb[j];
            let (w, idx) = (self.io.get_u64(ids.warp), self.io.get_u64(ids.idx) as usize);
            if !self.io.get_bool(ids.en) || w >= warps || started(w) {
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
        for k in 0..self.iss.len() {
            let ids = &self.iss[k];
            let w = self.io.get_u64(ids.warp);
            let (push, pop) = (self.io.get_bool(ids.push), self.io.get_bool(ids.pop));
            let blocked = (0..k).any(|j| {
                let o = &self.iss[j];
                self.io.get_u64(o.warp) == w && (self.io.get_bool(o.push) || self.io.get_bool(o.pop))
            });
            if w >= warps || started(w) || blocked {
                continue;
            }
            let v = self.views[k];
            let e = Entry {
                offset: v.offset,
                src0: self.io.get_u64(ids.src0),
                src1: self.io.get_u64(ids.src1),
                dst: self.io.get_u64(ids.dst),
                pdst: self.io.get_u64(ids.pdst),
                reuse_rdy: false,
                valid: true,
            };
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
            let base = self.io.get_u64(self.start_pc);
            self.q[sw as usize].clear(base);
        }
    }
}

/// Registry entry: reference model and driver of `pqueue`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pqueue",
    model: |p| Ok(Box::new(PqueueModel::new(&<PqueueParams as hw::BlockParams>::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(PqueueDriver::new(&<PqueueParams as hw::BlockParams>::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// Driver

/// Per-warp shadow the driver keeps to produce protocol-like traffic: a
/// P-mode phase that pushes instructions near the base PC, then an N-mode
/// phase that presents the recorded PCs in order and pops.
#[derive(Clone, Debug, Default)]
struct DrvWarp {
    base: u64,
    pushing: bool,
    pushes_left: u32,
    /// (pc, idx, ready) of entries the driver believes are queued.
    queue: VecDeque<(u64, u64, bool)>,
    tail: u64,
    /// Next PC the "program" would present.
    pc: u64,
}

/// Constrained-random stimulus for `pqueue`.
pub struct PqueueDriver {
    p: PqueueParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    rst: Slot,
    start: [Slot; 3],
    iss: Vec<[Slot; 8]>,
    wb: Vec<[Slot; 3]>,
    warps: Vec<DrvWarp>,
    /// Scheduled writebacks: (cycle, warp, idx).
    pending_wb: Vec<(u64, u64, u64)>,
    cycle: u64,
}

impl PqueueDriver {
    pub fn new(p: &PqueueParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let s = |n: &str| layout.expect(n);
        let iss = (0..p.issue_ports)
            .map(|k| {
                ["warp", "pc", "push", "src0", "src1", "dst", "pdst", "pop"].map(|f| s(&format!("iss{k}_{f}")))
            })
            .collect();
        let wb = (0..p.wb_ports).map(|j| ["en", "warp", "idx"].map(|f| s(&format!("wb{j}_{f}")))).collect();
        PqueueDriver {
            rst: s("rst"),
            start: [s("start_en"), s("start_warp"), s("start_pc")],
            iss,
            wb,
            warps: vec![DrvWarp::default(); p.warps as usize],
            pending_wb: Vec::new(),
            cycle: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            layout,
            p: p.clone(),
        }
    }

    fn pick_warp(&mut self) -> u64 {
        let w = self.p.warps as u64;
        match self.rng.random_range(0..100) {
            0..70 => self.rng.random_range(0..w.min(4)),
            70..98 => self.rng.random_range(0..w),
            _ => self.rng.random_range(0..=mask(self.p.warp_bits())),
        }
    }
}

impl Driver for PqueueDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let c = self.cycle;
        self.cycle += 1;
        let p = self.p.clone();
        let pcm = mask(p.pc_bits);
        if c == 0 || self.rng.random_range(0..4000) == 0 {
            f.set_bool(self.rst, true);
            for w in &mut self.warps {
                *w = DrvWarp::default();
            }
            self.pending_wb.clear();
            return;
        }
        // Episode start: usually on a drained queue, sometimes not.
        let mut started = u64::MAX;
        if self.rng.random_range(0..12) == 0 {
            let w = self.pick_warp();
            if (w as usize) < self.warps.len() {
                let d = &mut self.warps[w as usize];
                if d.queue.is_empty() || self.rng.random_range(0..8) == 0 {
                    let base = if self.rng.random_bool(0.1) {
                        pcm.wrapping_sub(self.rng.random_range(0..64u64) * 8) & pcm
                    } else {
                        (self.rng.random_range(0..0x4000u64) * 8) & pcm
                    };
                    *d = DrvWarp {
                        base,
                        pushing: true,
                        pushes_left: self.rng.random_range(1..=p.entries + 3),
                        queue: VecDeque::new(),
                        tail: 0,
                        pc: base,
                    };
                    self.pending_wb.retain(|x| x.1 != w);
                    started = w;
                    f.set_bool(self.start[0], true);
                    f.set(self.start[1], w);
                    f.set(self.start[2], base);
                }
            } else {
                f.set_bool(self.start[0], true);
                f.set(self.start[1], w);
                f.set(self.start[2], self.rng.random::<u64>());
            }
        }
        // Issue ports.
        let mut used = [u64::MAX; 8];
        for k in 0..self.iss.len() {
            let mut w = self.pick_warp();
            if used[..k].contains(&w) && self.rng.random_range(0..10) != 0 {
                w = self.pick_warp();
            }
            used[k] = w;
            let s = self.iss[k];
            f.set(s[0], w);
            f.set(s[3], self.rng.random_range(0..=p.regs as u64));
            f.set(s[4], self.rng.random_range(0..=p.regs as u64));
            f.set(s[5], self.rng.random_range(0..p.regs as u64));
            f.set(s[6], self.rng.random::<u64>());
            let Some(d) = self.warps.get_mut(w as usize) else {
                f.set(s[1], self.rng.random::<u64>());
                f.set_bool(s[2], self.rng.random_bool(0.5));
                f.set_bool(s[7], self.rng.random_bool(0.5));
                continue;
            };
            if w == started {
                f.set(s[1], d.base);
                f.set_bool(s[2], true);
                continue;
            }
            if d.pushing {
                // Program order: mostly forward by one instruction, sometimes a
                // loop back, sometimes a far jump (offset out of range).
                let step: i64 = match self.rng.random_range(0..20) {
                    0 => -(self.rng.random_range(1..40) * 8),
                    1 => self.rng.random_range(60..200) * 8,
                    2 => -(self.rng.random_range(60..200) * 8),
                    _ => 8,
                };
                d.pc = (d.pc as i64).wrapping_add(step) as u64 & pcm;
                f.set(s[1], d.pc);
                let push = self.rng.random_range(0..6) != 0;
                f.set_bool(s[2], push);
                f.set_bool(s[7], self.rng.random_range(0..10) == 0);
                let dist = d.pc.wrapping_sub(d.base) & pcm;
                let sd = if dist >> (p.pc_bits - 1) & 1 == 1 { dist as i128 - (1i128 << p.pc_bits) } else { dist as i128 };
                let fits = sd.abs() < (1i128 << (p.offset_bits - 1)) - 8;
                if push && fits && d.queue.len() < p.entries as usize {
                    let idx = d.tail;
                    d.queue.push_back((d.pc, idx, false));
                    d.tail = (d.tail + 1) % p.entries as u64;
                    let lat = if self.rng.random_bool(0.8) { self.rng.random_range(1..12) } else { self.rng.random_range(12..200) };
                    self.pending_wb.push((c + lat, w, idx));
                }
                if push {
                    d.pushes_left = d.pushes_left.saturating_sub(1);
                }
                if d.pushes_left == 0 {
                    d.pushing = false;
                }
            } else {
                // N-mode: present the head's PC (a reuse), or a skipped one.
                let head = d.queue.front().copied();
                let pc = match head {
                    Some((hpc, _, _)) if self.rng.random_range(0..4) != 0 => hpc,
                    _ => (self.rng.random_range(0..0x4000u64) * 8) & pcm,
                };
                f.set(s[1], pc);
                let pop = self.rng.random_range(0..8) != 0;
                f.set_bool(s[7], pop);
                f.set_bool(s[2], self.rng.random_range(0..30) == 0);
                if let Some((hpc, _, rdy)) = head {
                    if pop && pc == hpc && rdy {
                        d.queue.pop_front();
                    }
                }
            }
        }
        // Writebacks due this cycle (plus occasional stale ones).
        let mut j = 0;
        let mut i = 0;
        while j < self.wb.len() && i < self.pending_wb.len() {
            let (due, w, idx) = self.pending_wb[i];
            if due <= c {
                self.pending_wb.swap_remove(i);
                let s = self.wb[j];
                f.set_bool(s[0], true);
                f.set(s[1], w);
                f.set(s[2], idx);
                if let Some(e) = self.warps[w as usize].queue.iter_mut().find(|e| e.1 == idx) {
                    e.2 = true;
                }
                j += 1;
            } else {
                i += 1;
            }
        }
        if j < self.wb.len() && self.rng.random_range(0..40) == 0 {
            let s = self.wb[j];
            f.set_bool(s[0], true);
            f.set(s[1], self.pick_warp());
            f.set(s[2], self.rng.random::<u64>());
        }
    }
}

// ---------------------------------------------------------------------------
// Property checks (run against any component with the pqueue ports)

/// An entry as the checker tracks it: by its PC, not its offset.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rec {
    pc: u64,
    src0: u64,
    src1: u64,
    dst: u64,
    pdst: u64,
    idx: u64,
    ready: bool,
}

/// Run `st` through `dut` and check the P-queue properties every cycle:
/// - **entries leave in push order**: a pop returns the oldest recorded entry
///   of the warp (fields and PC), and `hit` is true exactly for the PC of the
///   oldest entry;
/// - **a reused entry was reuse-ready**: `rdy` (and so a pop) only for an entry
///   whose writeback arrived after it was pushed;
/// - **nothing is recorded when full**: with `entries` entries queued `full` is
///   set and `ok` clear, and a push changes nothing; an offset that does not
///   fit in `offset_bits` is never recorded either;
/// - `empty`, `idx` and the episode start / reset behave as specified.
///
/// The checker's own bookkeeping is a queue of PCs per warp (no offsets, no
/// ring buffer), written from the specification.
pub fn check(p: &PqueueParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    let layout = st.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let li = |n: &str| slot(&layout, n);
    let (rst, sen, sw, spc) = (li("rst")?, li("start_en")?, li("start_warp")?, li("start_pc")?);
    struct K {
        i: [Slot; 8],
        o: [PortId; 10],
    }
    let mut ks = Vec::new();
    for k in 0..p.issue_ports {
        let mut i = [Slot(0); 8];
        for (n, f) in ["warp", "pc", "push", "src0", "src1", "dst", "pdst", "pop"].iter().enumerate() {
            i[n] = li(&format!("iss{k}_{f}"))?;
        }
        let mut o = [PortId(0); 10];
        for (n, f) in ["empty", "full", "ok", "idx", "hit", "rdy", "head_src0", "head_src1", "head_dst", "head_pdst"]
            .iter()
            .enumerate()
        {
            o[n] = out(dut, &format!("iss{k}_{f}"))?;
        }
        ks.push(K { i, o });
    }
    let mut wbs = Vec::new();
    for j in 0..p.wb_ports {
        wbs.push([li(&format!("wb{j}_en"))?, li(&format!("wb{j}_warp"))?, li(&format!("wb{j}_idx"))?]);
    }
    let n = p.entries as usize;
    let pcm = mask(p.pc_bits);
    let mut base = vec![0u64; p.warps as usize];
    let mut q: Vec<VecDeque<Rec>> = vec![VecDeque::new(); p.warps as usize];
    let mut tail = vec![0u64; p.warps as usize];
    let fits = |pc: u64, base: u64| {
        let d = pc.wrapping_sub(base) & pcm;
        let signed = if d >> (p.pc_bits - 1) & 1 == 1 { d as i128 - (1i128 << p.pc_bits) } else { d as i128 };
        let lim = 1i128 << (p.offset_bits - 1);
        signed >= -lim && signed < lim
    };
    for c in 0..st.cycles() {
        let iv = InView::new(st, c);
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        // Outputs against the checker's queues.
        for (k, kk) in ks.iter().enumerate() {
            let w = iv.u(kk.i[0]) as usize;
            let pc = iv.u(kk.i[1]);
            let g = |o: usize| dut.get(kk.o[o])[0];
            let (empty, full, ok, idx, hit, rdy) = (g(0) == 1, g(1) == 1, g(2) == 1, g(3), g(4) == 1, g(5) == 1);
            let Some(wq) = q.get(w) else {
                if !empty || full || hit || rdy {
                    return err(format!("port {k}: warp {w} >= warps must read as an empty queue"));
                }
                continue;
            };
            if empty != wq.is_empty() {
                return err(format!("port {k} warp {w}: empty = {empty}, {} entries queued", wq.len()));
            }
            if full != (wq.len() == n) {
                return err(format!("port {k} warp {w}: full = {full} with {} of {n} entries", wq.len()));
            }
            let want_ok = wq.len() < n && fits(pc, base[w]);
            if ok != want_ok {
                return err(format!(
                    "port {k} warp {w}: ok = {ok}, expected {want_ok} ({} queued, pc {pc:#x}, base {:#x})",
                    wq.len(),
                    base[w]
                ));
            }
            if idx != tail[w] {
                return err(format!("port {k} warp {w}: idx = {idx}, expected tail {}", tail[w]));
            }
            let front = wq.front();
            let want_hit = front.is_some_and(|e| e.pc == pc);
            if hit != want_hit {
                return err(format!("port {k} warp {w}: hit = {hit} for pc {pc:#x}, oldest entry {front:?}"));
            }
            if rdy != front.is_some_and(|e| e.ready) {
                return err(format!("port {k} warp {w}: rdy = {rdy}, oldest entry {front:?}"));
            }
            let fields = front.map_or([0; 4], |e| [e.src0, e.src1, e.dst, e.pdst]);
            if [g(6), g(7), g(8), g(9)] != fields {
                return err(format!("port {k} warp {w}: head fields {:?}, oldest entry {front:?}", [g(6), g(7), g(8), g(9)]));
            }
        }
        // Next state of the checker's queues.
        if iv.b(rst) {
            for w in 0..q.len() {
                q[w].clear();
                tail[w] = 0;
                base[w] = 0;
            }
        } else {
            let start = iv.b(sen).then(|| iv.u(sw) as usize);
            let snap: Vec<Option<(u64, bool)>> = ks
                .iter()
                .map(|kk| {
                    let w = iv.u(kk.i[0]) as usize;
                    q.get(w).map(|wq| (iv.u(kk.i[1]), wq.front().is_some_and(|e| e.pc == iv.u(kk.i[1]) && e.ready)))
                })
                .collect();
            for s in &wbs {
                let w = iv.u(s[1]) as usize;
                if iv.b(s[0]) && Some(w) != start {
                    if let Some(e) = q.get_mut(w).and_then(|wq| wq.iter_mut().find(|e| e.idx == iv.u(s[2]))) {
                        e.ready = true;
                    }
                }
            }
            let mut busy: Vec<usize> = Vec::new();
            for (k, kk) in ks.iter().enumerate() {
                let w = iv.u(kk.i[0]) as usize;
                let (push, pop) = (iv.b(kk.i[2]), iv.b(kk.i[7]));
                let blocked = busy.contains(&w);
                if push || pop {
                    busy.push(w);
                }
                if w >= q.len() || Some(w) == start || blocked {
                    continue;
                }
                let (pc, reusable) = snap[k].unwrap_or((0, false));
                let was_full = q[w].len() == n;
                if pop && reusable {
                    let e = q[w].pop_front().unwrap_or_else(|| unreachable!());
                    if !e.ready {
                        return err(format!("port {k} warp {w}: reused an entry that was not reuse-ready"));
                    }
                }
                if push && !was_full && fits(pc, base[w]) {
                    q[w].push_back(Rec {
                        pc,
                        src0: iv.u(kk.i[3]),
                        src1: iv.u(kk.i[4]),
                        dst: iv.u(kk.i[5]),
                        pdst: iv.u(kk.i[6]),
                        idx: tail[w],
                        ready: false,
                    });
                    tail[w] = (tail[w] + 1) % n as u64;
                }
            }
            if let Some(w) = start.filter(|&w| w < q.len()) {
                q[w].clear();
                tail[w] = 0;
                base[w] = iv.u(spc);
            }
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests written against the ports only, run on the reference model
/// here and on the generated hardware in `verif/tests/pmode.rs`.
pub mod golden {
    use super::*;
    use crate::poke::reset;
    use sim::ComponentExt;

    /// Small parameters of the directed tests: 6 warps, 4 entries, 6-bit
    /// offsets, 12-bit PCs.
    pub fn small() -> PqueueParams {
        PqueueParams { warps: 6, entries: 4, offset_bits: 6, pc_bits: 12, ..PqueueParams::default() }
    }

    /// Figure 5 of the paper: the trigger is `mul` at 0x90; P-mode records
    /// `sub` (0x98), `set.lt` (0xA0) and, after the loop branch, the second
    /// `add` (0x88). N-mode then skips 0x90, reuses 0x98 and 0xA0, skips
    /// 0xA8 and 0x80, and reuses 0x88.
    pub fn figure5_queue(m: &mut dyn Component) {
        reset(m);
        let i = |m: &dyn Component, n: &str| m.input(n).unwrap();
        let o = |m: &dyn Component, n: &str| m.output(n).unwrap();
        let (sen, spc) = (i(m, "start_en"), i(m, "start_pc"));
        let (pc, push, pop, dst, pdst) = (i(m, "iss0_pc"), i(m, "iss0_push"), i(m, "iss0_pop"), i(m, "iss0_dst"), i(m, "iss0_pdst"));
        let (hit, rdy, ok, idx, hpdst, empty) =
            (o(m, "iss0_hit"), o(m, "iss0_rdy"), o(m, "iss0_ok"), o(m, "iss0_idx"), o(m, "iss0_head_pdst"), o(m, "iss0_empty"));
        let (wben, wbidx) = (i(m, "wb0_en"), i(m, "wb0_idx"));
        m.set_bool(sen, true);
        m.set_u64(spc, 0x90);
        m.step();
        m.set_bool(sen, false);
        // (pc, dst, pdst): sub $r1, set.lt $r4, add $r2.
        for (n, (a, d, r)) in [(0x98u64, 1u64, 5u64), (0xA0, 4, 9), (0x88, 2, 13)].into_iter().enumerate() {
            m.set_u64(pc, a);
            m.set_u64(dst, d);
            m.set_u64(pdst, r);
            m.set_bool(push, true);
            m.eval();
            assert!(m.get_bool(ok));
            assert_eq!(m.get_u64(idx), n as u64);
            m.tick();
        }
        m.set_bool(push, false);
        // Results of sub and set.lt written back; add still in flight.
        for n in 0..2 {
            m.set_bool(wben, true);
            m.set_u64(wbidx, n);
            m.step();
        }
        m.set_bool(wben, false);
        // N-mode: (pc, expect hit, expect reuse).
        for (a, h, r) in [(0x90u64, false, false), (0x98, true, true), (0xA0, true, true), (0xA8, false, false), (0x80, false, false), (0x88, true, false)] {
            m.set_u64(pc, a);
            m.set_bool(pop, true);
            m.eval();
            assert_eq!((m.get_bool(hit), m.get_bool(hit) && m.get_bool(rdy)), (h, r), "pc {a:#x}");
            if r {
                assert_eq!(m.get_u64(hpdst), if a == 0x98 { 5 } else { 9 });
            }
            m.tick();
        }
        // 0x88 waits for its writeback, then is reused.
        m.set_bool(wben, true);
        m.set_u64(wbidx, 2);
        m.set_bool(pop, false);
        m.step();
        m.set_bool(wben, false);
        m.set_bool(pop, true);
        m.eval();
        assert!(m.get_bool(hit) && m.get_bool(rdy));
        assert_eq!(m.get_u64(hpdst), 13);
        m.tick();
        m.eval();
        assert!(m.get_bool(empty));
    }

    /// At [`small`] parameters: offsets -32..=31 fit; pushes past 4 entries
    /// are refused.
    pub fn full_and_out_of_range(m: &mut dyn Component) {
        reset(m);
        let (sen, spc, pc, push) =
            (m.input("start_en").unwrap(), m.input("start_pc").unwrap(), m.input("iss0_pc").unwrap(), m.input("iss0_push").unwrap());
        let (ok, full, idx) = (m.output("iss0_ok").unwrap(), m.output("iss0_full").unwrap(), m.output("iss0_idx").unwrap());
        m.set_bool(sen, true);
        m.set_u64(spc, 0x100);
        m.step();
        m.set_bool(sen, false);
        // offset_bits = 6: offsets -32..=31 fit.
        for (a, fit) in [(0x100 + 31, true), (0x100 + 32, false), (0x100 - 32, true), (0x100 - 33, false)] {
            m.set_u64(pc, a);
            m.eval();
            assert_eq!(m.get_bool(ok), fit, "pc {a:#x}");
        }
        m.set_bool(push, true);
        for n in 0..6u64 {
            m.set_u64(pc, 0x100 + n);
            m.eval();
            assert_eq!(m.get_bool(full), n >= 4);
            assert_eq!(m.get_u64(idx), n.min(4) % 4);
            m.tick();
        }
    }

}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::ComponentExt;

    fn small() -> PqueueParams {
        PqueueParams { warps: 6, entries: 4, offset_bits: 6, pc_bits: 12, ..PqueueParams::default() }
    }

    #[test]
    fn figure5_queue() {
        golden::figure5_queue(&mut PqueueModel::new(&PqueueParams::default()));
    }

    #[test]
    fn full_and_out_of_range_record_nothing() {
        golden::full_and_out_of_range(&mut PqueueModel::new(&golden::small()));
    }

    #[test]
    fn random_traffic_satisfies_properties() {
        for (p, seed) in [(PqueueParams::default(), 1u64), (small(), 2), (PqueueParams { issue_ports: 1, wb_ports: 1, entries: 3, warps: 5, ..small() }, 3)] {
            let st = Stimulus::record(&mut PqueueDriver::new(&p, seed), 20_000);
            let mut m = PqueueModel::new(&p);
            check(&p, &mut m, &st).unwrap();
        }
    }

    #[test]
    fn driver_exercises_the_interesting_cases() {
        let p = small();
        let st = Stimulus::record(&mut PqueueDriver::new(&p, 7), 20_000);
        let mut m = PqueueModel::new(&p);
        crate::run::check_inputs(&m, st.layout()).unwrap();
        let ids: Vec<_> = ["iss0_push", "iss0_pop"].iter().map(|n| st.layout().expect(n)).collect();
        let (ok, full, hit, rdy) =
            (m.output("iss0_ok").unwrap(), m.output("iss0_full").unwrap(), m.output("iss0_hit").unwrap(), m.output("iss0_rdy").unwrap());
        let mut n = [0u32; 5];
        for c in 0..st.cycles() {
            m.set_inputs(st.cycle(c));
            m.eval();
            let iv = InView::new(&st, c);
            let (push, pop) = (iv.b(ids[0]), iv.b(ids[1]));
            n[0] += (push && m.get_bool(ok)) as u32;
            n[1] += (push && m.get_bool(full)) as u32;
            n[2] += (push && !m.get_bool(full) && !m.get_bool(ok)) as u32;
            n[3] += (pop && m.get_bool(hit) && m.get_bool(rdy)) as u32;
            n[4] += (pop && m.get_bool(hit) && !m.get_bool(rdy)) as u32;
            m.tick();
        }
        // recorded, refused when full, refused out of range, reused, waiting
        assert!(n.iter().all(|&x| x > 20), "{n:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]
        #[test]
        fn prop_random_params(seed in 0u64..1_000_000, entries in 1u32..9, ports in 1u32..4, ob in 3u32..11) {
            let p = PqueueParams { warps: 5, entries, offset_bits: ob, pc_bits: 16, issue_ports: ports, wb_ports: ports, ..PqueueParams::default() };
            let st = Stimulus::record(&mut PqueueDriver::new(&p, seed), 3_000);
            let mut m = PqueueModel::new(&p);
            proptest::prop_assert_eq!(check(&p, &mut m, &st), Ok(()));
        }
    }
}
