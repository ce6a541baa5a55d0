//! Verification of `pqueue` (specification `hw::blocks::pmode::pqueue`,
//! model `models::pmode::pqueue`): its constrained-random driver, its
//! property check and its directed (golden) scenarios.

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::pqueue::{PqueueIo, PqueueParams};
use hw::iface::InterfaceExt;
use models::bits::mask;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, PortId};
use std::collections::VecDeque;
use std::sync::Arc;

/// Registry entry: the driver of `pqueue`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pqueue",
    driver: |p, seed| Ok(Box::new(PqueueDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

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
    io: PqueueIo<PortId>,
    warps: Vec<DrvWarp>,
    /// Scheduled writebacks: (cycle, warp, idx).
    pending_wb: Vec<(u64, u64, u64)>,
    cycle: u64,
}

impl PqueueDriver {
    pub fn new(p: &PqueueParams, seed: u64) -> Self {
        PqueueDriver {
            io: p.ids(),
            warps: vec![DrvWarp::default(); p.warps as usize],
            pending_wb: Vec::new(),
            cycle: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            layout: InputLayout::of(&p.ports()),
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
            f.set_bool(self.io.rst, true);
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
                    f.set_bool(self.io.start_en, true);
                    f.set(self.io.start_warp, w);
                    f.set(self.io.start_pc, base);
                }
            } else {
                f.set_bool(self.io.start_en, true);
                f.set(self.io.start_warp, w);
                f.set(self.io.start_pc, self.rng.random::<u64>());
            }
        }
        // Issue ports.
        let mut used = [u64::MAX; 8];
        for k in 0..self.io.iss.len() {
            let mut w = self.pick_warp();
            if used[..k].contains(&w) && self.rng.random_range(0..10) != 0 {
                w = self.pick_warp();
            }
            used[k] = w;
            let s = self.io.iss[k].clone();
            f.set(s.warp, w);
            f.set(s.src0, self.rng.random_range(0..=p.regs as u64));
            f.set(s.src1, self.rng.random_range(0..=p.regs as u64));
            for x in &s.dst {
                f.set(x.dst, self.rng.random_range(0..p.regs as u64));
                f.set(x.pdst, self.rng.random::<u64>());
            }
            let Some(d) = self.warps.get_mut(w as usize) else {
                f.set(s.pc, self.rng.random::<u64>());
                f.set_bool(s.push, self.rng.random_bool(0.5));
                f.set_bool(s.pop, self.rng.random_bool(0.5));
                continue;
            };
            if w == started {
                f.set(s.pc, d.base);
                f.set_bool(s.push, true);
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
                f.set(s.pc, d.pc);
                let push = self.rng.random_range(0..6) != 0;
                f.set_bool(s.push, push);
                f.set_bool(s.pop, self.rng.random_range(0..10) == 0);
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
                f.set(s.pc, pc);
                let pop = self.rng.random_range(0..8) != 0;
                f.set_bool(s.pop, pop);
                f.set_bool(s.push, self.rng.random_range(0..30) == 0);
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
        while j < self.io.wb.len() && i < self.pending_wb.len() {
            let (due, w, idx) = self.pending_wb[i];
            if due <= c {
                self.pending_wb.swap_remove(i);
                let s = self.io.wb[j].clone();
                f.set_bool(s.en, true);
                f.set(s.warp, w);
                f.set(s.idx, idx);
                if let Some(e) = self.warps[w as usize].queue.iter_mut().find(|e| e.1 == idx) {
                    e.2 = true;
                }
                j += 1;
            } else {
                i += 1;
            }
        }
        if j < self.io.wb.len() && self.rng.random_range(0..40) == 0 {
            let s = self.io.wb[j].clone();
            f.set_bool(s.en, true);
            f.set(s.warp, self.pick_warp());
            f.set(s.idx, self.rng.random::<u64>());
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
    /// Per destination: (architected, physical).
    dst: Vec<(u64, u64)>,
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
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let ks = &io.iss;
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
        let (u, b) = (|id| st.u64(c, id), |id| st.bit(c, id));
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        // Outputs against the checker's queues.
        for (k, kk) in ks.iter().enumerate() {
            let w = u(kk.warp) as usize;
            let pc = u(kk.pc);
            let g = |id| dut.get(id)[0];
            let (empty, full, ok, idx, hit, rdy) = (g(kk.empty) == 1, g(kk.full) == 1, g(kk.ok) == 1, g(kk.idx), g(kk.hit) == 1, g(kk.rdy) == 1);
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
            let fields: Vec<u64> = match front {
                Some(e) => [e.src0, e.src1].into_iter().chain(e.dst.iter().flat_map(|&(a, b)| [a, b])).collect(),
                None => vec![0; 2 + 2 * kk.head.len()],
            };
            let head: Vec<u64> = [g(kk.head_src0), g(kk.head_src1)].into_iter().chain(kk.head.iter().flat_map(|h| [g(h.dst), g(h.pdst)])).collect();
            if head != fields {
                return err(format!("port {k} warp {w}: head fields {head:?}, oldest entry {front:?}"));
            }
        }
        // Next state of the checker's queues.
        if b(io.rst) {
            for w in 0..q.len() {
                q[w].clear();
                tail[w] = 0;
                base[w] = 0;
            }
        } else {
            let start = b(io.start_en).then(|| u(io.start_warp) as usize);
            let snap: Vec<Option<(u64, bool)>> = ks
                .iter()
                .map(|kk| {
                    let w = u(kk.warp) as usize;
                    q.get(w).map(|wq| (u(kk.pc), wq.front().is_some_and(|e| e.pc == u(kk.pc) && e.ready)))
                })
                .collect();
            for s in &io.wb {
                let w = u(s.warp) as usize;
                if b(s.en) && Some(w) != start {
                    if let Some(e) = q.get_mut(w).and_then(|wq| wq.iter_mut().find(|e| e.idx == u(s.idx))) {
                        e.ready = true;
                    }
                }
            }
            let mut busy: Vec<usize> = Vec::new();
            for (k, kk) in ks.iter().enumerate() {
                let w = u(kk.warp) as usize;
                let (push, pop) = (b(kk.push), b(kk.pop));
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
                        src0: u(kk.src0),
                        src1: u(kk.src1),
                        dst: kk.dst.iter().map(|x| (u(x.dst), u(x.pdst))).collect(),
                        idx: tail[w],
                        ready: false,
                    });
                    tail[w] = (tail[w] + 1) % n as u64;
                }
            }
            if let Some(w) = start.filter(|&w| w < q.len()) {
                q[w].clear();
                tail[w] = 0;
                base[w] = u(io.start_pc);
            }
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests written against the ports only, run on the reference model
/// and on the generated hardware (`verif/tests/blocks/pqueue.rs`).
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
    pub fn figure5_queue(p: &PqueueParams, m: &mut dyn Component) {
        reset(m);
        let io = p.bind(m).unwrap();
        let (sen, spc) = (io.start_en, io.start_pc);
        let d = &io.iss[0];
        let (pc, push, pop, dst, pdst) = (d.pc, d.push, d.pop, d.dst[0].dst, d.dst[0].pdst);
        let (hit, rdy, ok, idx, hpdst, empty) = (d.hit, d.rdy, d.ok, d.idx, d.head[0].pdst, d.empty);
        let (wben, wbidx) = (io.wb[0].en, io.wb[0].idx);
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
    pub fn full_and_out_of_range(p: &PqueueParams, m: &mut dyn Component) {
        reset(m);
        let io = p.bind(m).unwrap();
        let d = &io.iss[0];
        let (sen, spc, pc, push) = (io.start_en, io.start_pc, d.pc, d.push);
        let (ok, full, idx) = (d.ok, d.full, d.idx);
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

