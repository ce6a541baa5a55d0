//! Verification of `pmode_unit` (specification
//! `hw::blocks::pmode::pmode_unit`, model `models::pmode::pmode_unit`): an
//! SM-like driver running generated kernels, the unit's property check and
//! the Figure 5 walk-through.

use super::simt_stack::{Node, Program};
use super::InView;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::mode_ctrl::{action as act, op};
use hw::blocks::pmode::pmode_unit::{PmodeUnitIo, PmodeUnitParams};
use hw::iface::InterfaceExt;
use models::bits::{bit, mask};
use models::pmode::pmode_unit::PmodeUnitModel;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{words_for, Bind, Component, PortId};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// Registry entry: the driver of `pmode_unit`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pmode_unit",
    driver: |p, seed| Ok(Box::new(PmodeUnitDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// SM-like driver

/// One decoded instruction of a generated kernel: up to 8 sources and 4
/// destinations (the unit's `srcs` and `dsts` limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: u64,
    pub src: [Option<u64>; 8],
    pub dst: [Option<u64>; 4],
}

impl Inst {
    /// `op` reading `srcs` and writing `dsts` (at most 8 and 4).
    pub fn new(op: u64, srcs: &[u64], dsts: &[u64]) -> Inst {
        let mut i = Inst { op, src: [None; 8], dst: [None; 4] };
        for (x, &r) in i.src.iter_mut().zip(srcs) {
            *x = Some(r);
        }
        for (x, &r) in i.dst.iter_mut().zip(dsts) {
            *x = Some(r);
        }
        i
    }
    /// Valid sources, in order.
    pub fn srcs(&self) -> Vec<u64> {
        self.src.iter().flatten().copied().collect()
    }
    /// Valid destinations, in order, each register once (as the SM writes
    /// them back).
    pub fn dsts(&self) -> Vec<u64> {
        let mut v: Vec<u64> = Vec::new();
        for &r in self.dst.iter().flatten() {
            if !v.contains(&r) {
                v.push(r);
            }
        }
        v
    }
}

/// A warp's kernel: control structure from [`Program`] (with its per-thread
/// branch outcomes), instruction classes and registers chosen at random from a
/// small register set so that dependences, long-latency chains and
/// long-dependent branches occur; an EXIT at the end. With more than two
/// sources or one destination, as in the SM's PTX: 3-source `fma`, 64-bit
/// arithmetic on aligned register pairs (`mul.wide`, `add.s64`: a pair
/// written, pairs read), 64-bit addresses, pair and 4-vector loads.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub prog: Program,
    pub code: HashMap<u64, Inst>,
}

impl Kernel {
    pub fn generate(rng: &mut ChaCha8Rng, p: &PmodeUnitParams, base: u64) -> Kernel {
        let prog = Program::generate(rng, &p.simt_stack(), base);
        let nregs = p.regs.min(8) as u64;
        let (ns, nd) = (p.srcs as usize, p.dsts as usize);
        let mut code = HashMap::new();
        // An aligned group of `n` registers containing r (one if they do not fit).
        let group = move |r: u64, n: usize| -> Vec<u64> {
            let n = n as u64;
            if n <= 1 || nregs < n {
                return vec![r];
            }
            let b = r / n * n;
            (b..b + n).collect()
        };
        // Up to `n` sources: registers, or pairs when the operands are 64-bit.
        let reads = move |regs: &[u64], wide: bool| -> Vec<u64> {
            let mut v: Vec<u64> = regs.iter().flat_map(|&r| if wide { group(r, 2) } else { vec![r] }).collect();
            v.truncate(ns);
            v
        };
        let gen = move |rng: &mut ChaCha8Rng| -> Inst {
            let r = |rng: &mut ChaCha8Rng| rng.random_range(0..nregs);
            let (a, b, c, e) = (r(rng), r(rng), r(rng), r(rng));
            let wide = nd > 1 && rng.random_range(0..3) == 0;
            let width = |rng: &mut ChaCha8Rng| match rng.random_range(0..6) {
                _ if nd == 1 => 1,
                0..2 => 2.min(nd),
                2 => nd,
                _ => 1,
            };
            match rng.random_range(0..24) {
                0..12 => match rng.random_range(0..4) {
                    // fma d, a, b, c (three sources).
                    0 if ns >= 3 => Inst::new(op::ALU, &reads(&[a, b, e], wide), &group(c, if wide { 2 } else { 1 })),
                    // mul.wide d:d+1, a, b (32-bit sources, a pair written).
                    1 if nd >= 2 => Inst::new(op::ALU, &reads(&[a, b], false), &group(c, 2)),
                    _ => Inst::new(op::ALU, &reads(&if b % 2 == 0 { vec![a, b] } else { vec![a] }, wide), &group(c, if wide { 2 } else { 1 })),
                },
                12..16 => {
                    let n = width(rng);
                    Inst::new(op::GLOAD, &reads(&[a], ns >= 2 && nd > 1), &group(c, n))
                }
                16..18 => {
                    let n = width(rng);
                    Inst::new(op::SLOAD, &reads(&[a], false), &group(c, n))
                }
                18 => Inst::new(op::SSTORE, &reads(&[a, b], false), &[]),
                19 => Inst::new(op::GSTORE, &reads(&[a, b], wide), &[]),
                20 => Inst::new(op::BARRIER, &[], &[]),
                _ => Inst::new(op::ALU, &[a], &group(c, 1)),
            }
        };
        fn walk(nodes: &[Node], rng: &mut ChaCha8Rng, nregs: u64, code: &mut HashMap<u64, Inst>, gen: &dyn Fn(&mut ChaCha8Rng) -> Inst) {
            let r = |rng: &mut ChaCha8Rng| rng.random_range(0..nregs);
            for n in nodes {
                match n {
                    Node::Plain(pc) => {
                        code.insert(*pc, gen(rng));
                    }
                    Node::If { br, body, .. } => {
                        code.insert(*br, Inst::new(op::BRANCH, &[r(rng)], &[]));
                        walk(body, rng, nregs, code, gen);
                    }
                    Node::IfElse { br, a, jmp, b, .. } => {
                        code.insert(*br, Inst::new(op::BRANCH, &[r(rng)], &[]));
                        code.insert(*jmp, Inst::new(op::BRANCH, &[], &[]));
                        walk(a, rng, nregs, code, gen);
                        walk(b, rng, nregs, code, gen);
                    }
                    Node::Loop { body, br, .. } => {
                        walk(body, rng, nregs, code, gen);
                        code.insert(*br, Inst::new(op::BRANCH, &[r(rng)], &[]));
                    }
                }
            }
        }
        walk(&prog.nodes, rng, nregs, &mut code, &gen);
        code.insert(prog.end, Inst::new(op::EXIT, &[], &[]));
        Kernel { prog, code }
    }

    /// The i-th dynamic instruction: (pc, instruction, branch outcome).
    pub fn step(&self, i: usize) -> (u64, Inst, Option<(u64, u64, u64)>) {
        match self.prog.steps.get(i) {
            Some(s) => (s.pc, self.code[&s.pc], s.br),
            None => (self.prog.end, self.code[&self.prog.end], None),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct DWarp {
    kernel: Option<Kernel>,
    /// Next N-mode dynamic instruction.
    n_pos: usize,
    /// Next P-mode dynamic instruction.
    p_pos: usize,
    pmode: bool,
    /// Release walk after EXIT: next register.
    releasing: Option<u64>,
    done: bool,
    /// N-mode instructions whose P-queue entry moved at fetch (§5.2), in
    /// order: dynamic position and rename registers (the instruction
    /// buffer's `Reuse.Rdy` entries).
    moved: VecDeque<(usize, Vec<u64>)>,
}

/// A scheduled writeback: every destination of one instruction, written
/// back in one cycle (the unit's protocol).
#[derive(Clone, Debug)]
struct Wb {
    due: u64,
    warp: u64,
    regs: Vec<u64>,
    pmode: bool,
    /// Recorded in the P-queue (entry `idx`).
    rec: bool,
    idx: u64,
}

/// SM-like constrained-random stimulus for `pmode_unit`: every warp runs
/// generated kernels; each port schedules among its warp group (N-mode warps
/// first, P-mode warps round-robin, up to three tries per cycle); results come
/// back after ALU, shared or global latencies (global loads hit or miss),
/// limited by the writeback ports; exited warps release their registers and
/// are relaunched; the kernel starts with a random share of the rename
/// registers taken by the compiler.
///
/// The driver learns what happened to each offered instruction from a
/// private copy of the unit's reference model (its shadow); it never looks at
/// the component under test, and the recorded stimulus replays unchanged.
pub struct PmodeUnitDriver {
    p: PmodeUnitParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    shadow: PmodeUnitModel,
    io: PmodeUnitIo<PortId>,
    warps: Vec<DWarp>,
    wbq: Vec<Wb>,
    rr: Vec<usize>,
    cycle: u64,
    need_init: bool,
    /// Share of rename registers the compiler uses at kernel start.
    pub compiler_share: f64,
    /// Warps that get kernels (the others stay idle): fewer warps leave more
    /// issue slots to P-mode.
    pub active_warps: usize,
}

impl PmodeUnitDriver {
    pub fn new(p: &PmodeUnitParams, seed: u64) -> Self {
        let layout = InputLayout::of(&p.ports());
        let shadow = PmodeUnitModel::new(p);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let compiler_share = [0.0, 0.5, 0.9, 0.97][rng.random_range(0..4)];
        let active_warps = [p.warps, 16, 8, 4][rng.random_range(0..4)].min(p.warps) as usize;
        PmodeUnitDriver {
            warps: vec![DWarp::default(); p.warps as usize],
            wbq: Vec::new(),
            rr: vec![0; p.issue_ports as usize],
            cycle: 0,
            need_init: true,
            p: p.clone(),
            rng,
            shadow,
            io: p.ids(),
            layout,
            compiler_share,
            active_warps,
        }
    }

    fn feed_shadow(&mut self, f: &Frame) {
        self.shadow.set_inputs(f.words());
        self.shadow.eval();
    }

    /// An output of the shadow (its handles are the description's).
    fn sh(&self, id: PortId) -> u64 {
        self.shadow.get(id)[0]
    }

    fn offer(&self, f: &mut Frame, k: usize, w: usize) {
        let d = &self.warps[w];
        let Some(kern) = d.kernel.as_ref() else { return };
        let (pc, inst, br) = kern.step(if d.pmode { d.p_pos } else { d.n_pos });
        let d = &self.io.iss[k];
        f.set_bool(d.valid, true);
        f.set(d.warp, w as u64);
        f.set(d.pc, pc);
        f.set(d.op, inst.op);
        for (o, x) in d.src.iter().zip(inst.src) {
            f.set(o.reg, x.unwrap_or(0));
            f.set_bool(o.vld, x.is_some());
        }
        for (o, x) in d.dst.iter().zip(inst.dst) {
            f.set(o.reg, x.unwrap_or(0));
            f.set_bool(o.vld, x.is_some());
        }
        let (taken, target, reconv) = br.unwrap_or((0, 0, 0));
        f.set(d.taken, taken);
        f.set(d.target, target);
        f.set(d.reconv, reconv);
        let w = &self.warps[w];
        let moved = w.moved.front().filter(|m| !w.pmode && m.0 == w.n_pos);
        f.set_bool(d.reuse, moved.is_some());
        for (i, &id) in d.reuse_pdst.iter().enumerate() {
            f.set(id, moved.and_then(|m| m.1.get(i)).copied().unwrap_or(0));
        }
    }

    fn clear_port(&self, f: &mut Frame, k: usize) {
        let d = &self.io.iss[k];
        let ops = d.src.iter().chain(&d.dst).flat_map(|o| [o.reg, o.vld]).chain(d.reuse_pdst.iter().copied());
        for id in [d.valid, d.warp, d.pc, d.op, d.taken, d.target, d.reconv, d.reuse].into_iter().chain(ops) {
            f.set(id, 0);
        }
    }

    /// Fetch ports (§5.2): N-mode warps in turn, each at its next
    /// instruction not yet moved, while its instruction buffer has room; a
    /// ready match of the P-queue head moves to the buffer. Now and then a
    /// fetch does not pop (it only looks).
    fn fetch(&mut self, f: &mut Frame, mode: u64) {
        let nw = self.warps.len();
        let mut taken = Vec::new();
        for fe in self.io.fe.clone() {
            let start = self.rng.random_range(0..nw.max(1));
            let pick = (0..nw).map(|i| (start + i) % nw).find(|&w| {
                let d = &self.warps[w];
                d.kernel.is_some() && !d.pmode && mode >> w & 1 == 0 && d.releasing.is_none() && d.moved.len() < 2 && !taken.contains(&w)
            });
            let Some(w) = pick else { continue };
            taken.push(w);
            let d = &self.warps[w];
            let pos = d.n_pos + d.moved.len();
            let Some(kern) = d.kernel.as_ref() else { continue };
            let (pc, _, _) = kern.step(pos);
            let pop = self.rng.random_bool(0.9);
            f.set(fe.warp, w as u64);
            f.set(fe.pc, pc);
            f.set_bool(fe.pop, pop);
            self.feed_shadow(f);
            if pop && self.sh(fe.hit) == 1 && self.sh(fe.rdy) == 1 {
                let pdst = fe.pdst.iter().map(|&id| self.sh(id)).collect();
                self.warps[w].moved.push_back((pos, pdst));
            }
        }
    }

    fn latency(&mut self, opc: u64) -> u64 {
        match opc {
            op::GLOAD if self.rng.random_bool(0.3) => self.rng.random_range(20..40),
            op::GLOAD => self.rng.random_range(150..450),
            op::SLOAD => self.rng.random_range(15..35),
            _ => self.rng.random_range(4..12),
        }
    }
}

impl Driver for PmodeUnitDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    #[allow(clippy::needless_range_loop)] // k is a port number, not just an index
    fn next(&mut self, f: &mut Frame) {
        let c = self.cycle;
        self.cycle += 1;
        let p = self.p.clone();
        let nw = p.warps as usize;
        let kp = p.issue_ports as usize;
        // Reset, then kernel start: compiler-used rename registers.
        if c == 0 || self.rng.random_range(0..100_000) == 0 {
            f.set_bool(self.io.rst, true);
            self.warps.iter_mut().for_each(|d| *d = DWarp::default());
            self.wbq.clear();
            self.need_init = true;
            self.feed_shadow(f);
            self.shadow.tick();
            return;
        }
        let initialising = self.need_init;
        if self.need_init {
            self.need_init = false;
            let mut words = vec![0u64; words_for(p.rename_regs)];
            for i in 0..p.rename_regs as usize {
                if self.rng.random_bool(self.compiler_share) {
                    words[i / 64] |= 1 << (i % 64);
                }
            }
            f.set_bool(self.io.init_en, true);
            f.set_wide(self.io.init_used, &words);
        }
        // Modes as the unit sees them now (state only).
        self.feed_shadow(f);
        let mode = self.sh(self.io.mode);
        let halted = self.sh(self.io.halted);
        for (w, d) in self.warps.iter_mut().enumerate() {
            let pm = mode >> w & 1 == 1;
            if d.pmode && !pm {
                d.pmode = false; // episode ended
            }
        }
        // Launch one idle warp per cycle (a warp retires only when none of its
        // results is still in flight).
        if !initialising {
            let idle = |w: usize, me: &Self| {
                me.warps[w].kernel.is_none() && me.warps[w].releasing.is_none() && !me.wbq.iter().any(|x| x.warp == w as u64)
            };
            if let Some(w) = (0..self.active_warps.min(nw)).find(|&w| idle(w, self)) {
                let base = (0x1_0000 * (w as u64 + 1)) & mask(p.pc_bits) & !7;
                let k = Kernel::generate(&mut self.rng, &p, base);
                f.set_bool(self.io.launch_en, true);
                f.set(self.io.launch_warp, w as u64);
                f.set(self.io.launch_pc, base);
                f.set(self.io.launch_mask, k.prog.launch_mask);
                self.warps[w] = DWarp { kernel: Some(k), ..DWarp::default() };
                self.warps[w].done = true; // not schedulable in its launch cycle
            }
        }
        // Release walk of one exited warp, once none of its results (P-mode
        // ones included) is in flight.
        if let Some(w) = (0..nw).find(|&w| self.warps[w].releasing.is_some() && !self.wbq.iter().any(|x| x.warp == w as u64)) {
            let r = self.warps[w].releasing.unwrap_or(0);
            f.set_bool(self.io.rel_en, true);
            f.set(self.io.rel_warp, w as u64);
            f.set(self.io.rel_reg, r);
            self.warps[w].releasing = (r + 1 < p.regs as u64).then_some(r + 1);
        }
        // Writebacks due: all destinations of an instruction in one cycle
        // (`wb_ports >= dsts`), oldest first while they fit.
        self.wbq.sort_by_key(|x| x.due);
        let mut j = 0;
        while !self.wbq.is_empty() && self.wbq[0].due <= c && j + self.wbq[0].regs.len() <= p.wb_ports as usize {
            let x = self.wbq.remove(0);
            for &reg in &x.regs {
                let n = self.io.wb[j].clone();
                f.set_bool(n.en, true);
                f.set(n.warp, x.warp);
                f.set(n.reg, reg);
                f.set_bool(n.pmode, x.pmode);
                f.set_bool(n.rec, x.rec);
                f.set(n.idx, x.idx);
                j += 1;
            }
        }
        // Issue: each port serves warps w with w % ports == k; N-mode first.
        let mut chosen: Vec<Option<usize>> = vec![None; kp];
        for k in 0..kp {
            let group: Vec<usize> = (k..nw).step_by(kp).collect();
            if group.is_empty() {
                continue;
            }
            let start = self.rr[k] % group.len();
            let order: Vec<usize> = (0..group.len()).map(|i| group[(start + i) % group.len()]).collect();
            let ready = |d: &DWarp| d.kernel.is_some() && !d.done && d.releasing.is_none();
            // Up to three N-mode warps, then up to two P-mode warps.
            let mut cands: Vec<usize> =
                order.iter().copied().filter(|&w| ready(&self.warps[w]) && mode >> w & 1 == 0).take(3).collect();
            cands.extend(
                order.iter().copied().filter(|&w| ready(&self.warps[w]) && mode >> w & 1 == 1 && halted >> w & 1 == 0).take(2),
            );
            for &w in &cands {
                self.offer(f, k, w);
                self.feed_shadow(f);
                if self.sh(self.io.iss[k].action) != act::STALL {
                    chosen[k] = Some(w);
                    break;
                }
                self.clear_port(f, k);
            }
            if chosen[k].is_none() {
                if let Some(&w) = cands.first() {
                    self.offer(f, k, w); // offered and stalls
                }
            }
            self.rr[k] += 1;
        }
        self.feed_shadow(f);
        // Consequences of this cycle's actions.
        for k in 0..kp {
            let Some(w) = chosen[k] else { continue };
            let a = self.sh(self.io.iss[k].action);
            let (idx, rec) = (self.sh(self.io.iss[k].pq_idx), self.sh(self.io.iss[k].recorded) == 1);
            let d = &self.warps[w];
            let Some(kern) = d.kernel.as_ref() else { continue };
            let (_, inst, _) = kern.step(if d.pmode { d.p_pos } else { d.n_pos });
            let lat = self.latency(inst.op);
            let d = &mut self.warps[w];
            match a {
                act::ISSUE => {
                    if !inst.dsts().is_empty() {
                        self.wbq.push(Wb { due: c + lat, warp: w as u64, regs: inst.dsts(), pmode: false, rec: false, idx: 0 });
                    }
                    if inst.op == op::EXIT {
                        d.kernel = None;
                        d.releasing = Some(0);
                    } else {
                        d.n_pos += 1;
                    }
                }
                act::REUSE => {
                    d.moved.pop_front();
                    d.n_pos += 1;
                }
                act::TRIGGER => {
                    d.pmode = true;
                    d.p_pos = d.n_pos;
                    d.moved.clear(); // the instruction buffer is flushed
                }
                act::PREEXEC => {
                    if !inst.dsts().is_empty() {
                        self.wbq.push(Wb { due: c + lat, warp: w as u64, regs: inst.dsts(), pmode: true, rec, idx });
                    }
                    d.p_pos += 1;
                }
                act::PRELOAD | act::SKIP => d.p_pos += 1,
                _ => {}
            }
        }
        self.fetch(f, mode);
        for d in &mut self.warps {
            if d.kernel.is_some() {
                d.done = false;
            }
        }
        self.shadow.tick();
    }
}

// ---------------------------------------------------------------------------
// Property checks

/// Run `st` through `dut` and check the unit-level properties every cycle,
/// against the checker's own books (a scoreboard of what was issued and not
/// yet written back, and the P-queue contents by PC):
/// - **N-mode never issues or reuses with a pending operand**, and never
///   triggers without a source waiting on a global load;
/// - **P-mode never executes a long-dependent instruction**: a PREEXEC or
///   PRELOAD has no source pending or marked long on the P side (the N board
///   as of the trigger, then P-mode issues, skips, pre-loads and writebacks);
/// - **a register is never handed to two live mappings**: a PREEXEC's
///   destination register is free in `used` and differs from every other
///   port's this cycle;
/// - **no free register means a P-mode warp may not issue**;
/// - **entries leave in push order, at fetch, ready** (§5.2): a fetch port
///   hits exactly when the warp's oldest recorded PREEXEC has its PC, is
///   ready exactly when that result has been written back, and moves it with
///   its registers; a REUSE consumes the oldest moved entry and renames to
///   its registers, and a moved instruction is never executed again;
/// - **an episode start drops the entries left and frees their registers**:
///   a trigger waits until every entry's result is written back, and the
///   registers of the entries it drops are free in `used` after the edge;
/// - mode changes only by
///   TRIGGER, the N-mode writeback of a source the trigger waited on, or
///   launch; actions match the mode; a halted warp only stalls.
pub fn check(p: &PmodeUnitParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (rst, len, lw) = (io.rst, io.launch_en, io.launch_warp);
    let (o_mode, o_halted, o_used) = (io.mode, io.halted, io.used);
    let nw = p.warps as usize;
    // Books: per warp N and P (pending, long) register sets, P-queue by PC.
    #[derive(Clone, Default)]
    struct Books {
        n_pend: HashSet<u64>,
        n_long: HashSet<u64>,
        p_pend: HashSet<u64>,
        p_long: HashSet<u64>,
        queue: VecDeque<(u64, u64, Vec<u64>, bool)>, // (pc, idx, pdst per destination, ready)
        /// Entries moved to the instruction buffer at fetch: (pc, pdst).
        moved: VecDeque<(u64, Vec<u64>)>,
        /// Registers of results pre-executed without being recorded.
        unrecorded: Vec<u64>,
        /// P-mode results (registers) not yet written back.
        flight: usize,
        pmode: bool,
        waits_on: Vec<u64>,
    }
    let mut b: Vec<Books> = vec![Books::default(); nw];
    let mut prev_mode = 0u64;
    // Registers of the entries the last cycle's triggers dropped.
    let mut dropped: Vec<u64> = Vec::new();
    for c in 0..st.cycles() {
        let iv = InView::new(st, c);
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let mode = dut.get(o_mode)[0];
        let halted = dut.get(o_halted)[0];
        let used = dut.get(o_used).to_vec();
        if mode != prev_mode {
            return err(format!("mode changed to {mode:#x} from {prev_mode:#x} outside a trigger, exit or launch"));
        }
        if let Some(r) = dropped.iter().find(|&&r| bit(&used, r as usize)) {
            return err(format!("rename register {r} of a dropped P-queue entry is still in use"));
        }
        dropped.clear();
        // Writebacks this cycle (they bypass into this cycle's checks).
        let wb_now: Vec<(usize, u64, bool, bool, u64)> = io
            .wb
            .iter()
            .filter(|s| iv.b(s.en))
            .map(|s| (iv.u(s.warp) as usize, iv.u(s.reg), iv.b(s.pmode), iv.b(s.rec), iv.u(s.idx)))
            .collect();
        let cleared = |w: usize, r: u64, pside: bool| wb_now.iter().any(|x| x.0 == w && x.1 == r && (pside || !x.2));
        let free = (0..p.rename_regs as usize).filter(|&i| !bit(&used, i)).count();
        // Registers the rename search reserves for lower ports: one per
        // destination they name (one per port at dsts = 1).
        let mut reserved = 0usize;
        let mut handed = Vec::new();
        let mut next_mode = mode;
        let mut actions = Vec::new();
        for (k, d) in io.iss.iter().enumerate() {
            let srcs: Vec<u64> = d.src.iter().filter(|o| iv.b(o.vld)).map(|o| iv.u(o.reg)).collect();
            let mut dsts: Vec<u64> = Vec::new();
            for o in d.dst.iter().filter(|o| iv.b(o.vld)) {
                if !dsts.contains(&iv.u(o.reg)) {
                    dsts.push(iv.u(o.reg));
                }
            }
            let need = if p.dsts == 1 { 1 } else { dsts.len() };
            let before = reserved;
            reserved += need;
            if !iv.b(d.valid) {
                continue;
            }
            let a = dut.get(d.action)[0];
            let w = iv.u(d.warp) as usize;
            if w >= nw {
                continue;
            }
            let (pc, opc) = (iv.u(d.pc), iv.u(d.op));
            let pm = mode >> w & 1 == 1;
            let bk = &b[w];
            let name = act::NAMES[a as usize & 7];
            let n_actions = [act::STALL, act::ISSUE, act::REUSE, act::TRIGGER];
            if pm == n_actions.contains(&a) && a != act::STALL {
                return err(format!("port {k} warp {w}: {name} in {} mode", if pm { "P" } else { "N" }));
            }
            if pm && halted >> w & 1 == 1 && a != act::STALL {
                return err(format!("port {k} warp {w}: halted warp did {name}"));
            }
            if pm && a != act::STALL && free < before + need.max(1) {
                return err(format!(
                    "port {k} warp {w}: P-mode {name} needing {} rename registers with {free} free, {before} reserved by lower ports",
                    need.max(1)
                ));
            }
            let n_pending = |r: &u64| bk.n_pend.contains(r) && !cleared(w, *r, false);
            let n_long = |r: &u64| bk.n_long.contains(r) && !cleared(w, *r, false);
            match a {
                act::ISSUE | act::REUSE => {
                    if let Some(r) = srcs.iter().chain(dsts.iter()).find(|r| n_pending(r)) {
                        return err(format!("port {k} warp {w} pc {pc:#x}: {name} with $r{r} pending"));
                    }
                    if a == act::ISSUE && iv.b(d.reuse) {
                        return err(format!("port {k} warp {w} pc {pc:#x}: a reused instruction executed again"));
                    }
                }
                act::TRIGGER => {
                    if !srcs.iter().any(n_long) {
                        return err(format!("port {k} warp {w} pc {pc:#x}: trigger without a source waiting on a global load"));
                    }
                    if bk.flight > 0 {
                        return err(format!("port {k} warp {w}: trigger with {} P-mode results in flight", bk.flight));
                    }
                }
                act::PREEXEC | act::PRELOAD => {
                    let bad = srcs.iter().find(|r| (bk.p_pend.contains(r) || bk.p_long.contains(r)) && !cleared(w, **r, true));
                    if let Some(r) = bad {
                        return err(format!("port {k} warp {w} pc {pc:#x}: {name} reads $r{r}, pending or long-dependent"));
                    }
                    if a == act::PREEXEC && [op::SSTORE, op::GSTORE, op::BARRIER, op::GLOAD, op::EXIT].contains(&opc) {
                        return err(format!("port {k}: {} pre-executed", op::NAMES[opc as usize]));
                    }
                }
                _ => {}
            }
            // Per valid destination (in slot order), the rename register the unit names.
            let pdsts: Vec<u64> = d.dst.iter().zip(&d.pdst).filter(|(o, _)| iv.b(o.vld)).map(|(_, &x)| dut.get(x)[0]).collect();
            if a == act::PREEXEC && !dsts.is_empty() {
                for &x in &pdsts {
                    if bit(&used, x as usize) || handed.contains(&x) {
                        return err(format!("port {k} warp {w}: rename register {x} handed out while live"));
                    }
                    handed.push(x);
                }
            }
            if a == act::REUSE {
                let Some((qpc, qpdst)) = bk.moved.front().filter(|_| iv.b(d.reuse)) else {
                    return err(format!("port {k} warp {w} pc {pc:#x}: reuse of an instruction that did not come from the P-queue"));
                };
                if *qpc != pc || &pdsts != qpdst {
                    return err(format!(
                        "port {k} warp {w} pc {pc:#x}: reused (moved at fetch: pc {qpc:#x}, registers {qpdst:?}), got registers {pdsts:?}"
                    ));
                }
            }
            actions.push((k, w, a, pc, opc, srcs, dsts, pdsts));
        }
        // Fetch ports (§5.2): the head is matched, and a ready match moves
        // (unless an episode starts for the warp, or a lower port acts on it).
        let mut moves = Vec::new();
        for (f, fe) in io.fe.iter().enumerate() {
            let w = iv.u(fe.warp) as usize;
            if w >= nw {
                continue;
            }
            let pc = iv.u(fe.pc);
            let (hit, rdy) = (dut.get(fe.hit)[0] == 1, dut.get(fe.rdy)[0] == 1);
            let head = b[w].queue.front();
            if hit != head.is_some_and(|e| e.0 == pc) {
                return err(format!("fetch port {f} warp {w} pc {pc:#x}: hit {hit}, P-queue head {:?}", head.map(|e| e.0)));
            }
            if hit && rdy != head.is_some_and(|e| e.3) {
                return err(format!("fetch port {f} warp {w} pc {pc:#x}: ready {rdy}, the head's result back {}", !rdy));
            }
            if !(hit && rdy && iv.b(fe.pop)) {
                continue;
            }
            let pdsts: Vec<u64> = fe.pdst.iter().map(|&x| dut.get(x)[0]).collect();
            let n = head.map_or(0, |e| e.2.len());
            if head.is_some_and(|e| e.2[..] != pdsts[..n]) {
                return err(format!("fetch port {f} warp {w} pc {pc:#x}: moved registers {pdsts:?}, recorded {:?}", head.map(|e| &e.2)));
            }
            let started = actions.iter().any(|x| x.1 == w && x.2 == act::TRIGGER);
            let pushed = io.iss.iter().any(|d| iv.b(d.valid) && iv.u(d.warp) as usize == w && dut.get(d.recorded)[0] == 1);
            let lower = io.fe[..f].iter().any(|x| iv.b(x.pop) && iv.u(x.warp) as usize == w);
            if !(started || pushed || lower) {
                moves.push((w, pc, pdsts[..n].to_vec()));
            }
        }
        // Books: next state (writebacks clear first, then issue effects).
        if iv.b(rst) {
            b.iter_mut().for_each(|x| *x = Books::default());
            next_mode = 0;
        } else {
            let mut exits = Vec::new();
            for &(w, r, pside, rec, idx) in &wb_now {
                if w >= nw {
                    continue;
                }
                let x = &mut b[w];
                x.p_pend.remove(&r);
                x.p_long.remove(&r);
                if pside {
                    x.flight -= 1;
                    if let Some(e) = x.queue.iter_mut().find(|e| rec && e.1 == idx) {
                        e.3 = true;
                    }
                } else {
                    x.n_pend.remove(&r);
                    x.n_long.remove(&r);
                    if x.pmode && x.waits_on.contains(&r) {
                        exits.push(w);
                    }
                }
            }
            for (k, w, a, pc, opc, srcs, dsts, pdsts) in actions {
                let x = &mut b[w];
                match a {
                    act::ISSUE => {
                        for r in dsts {
                            x.n_pend.insert(r);
                            if opc == op::GLOAD {
                                x.n_long.insert(r);
                            } else {
                                x.n_long.remove(&r);
                            }
                        }
                    }
                    act::REUSE => {
                        x.moved.pop_front();
                    }
                    act::TRIGGER => {
                        dropped.extend(x.queue.drain(..).flat_map(|e| e.2));
                        dropped.extend(x.moved.drain(..).flat_map(|e| e.1));
                        dropped.append(&mut x.unrecorded);
                        x.pmode = true;
                        x.p_pend = x.n_pend.clone();
                        x.p_long = x.n_long.clone();
                        // The triggering register: the first source waiting on a load.
                        x.waits_on = srcs.iter().copied().find(|r| x.n_long.contains(r)).into_iter().collect();
                        next_mode |= 1 << w;
                    }
                    act::PREEXEC if !dsts.is_empty() => {
                        for &r in &dsts {
                            x.p_pend.insert(r);
                            x.p_long.remove(&r);
                        }
                        x.flight += dsts.len();
                        if dut.get(io.iss[k].recorded)[0] == 1 {
                            let idx = dut.get(io.iss[k].pq_idx)[0];
                            x.queue.push_back((pc, idx, pdsts, false));
                        } else {
                            x.unrecorded.extend(pdsts);
                        }
                    }
                    act::PRELOAD | act::SKIP => {
                        for r in dsts {
                            x.p_long.insert(r);
                        }
                    }
                    _ => {}
                }
            }
            // A warp's release walk returns what its episodes still own.
            if iv.b(io.rel_en) && (iv.u(io.rel_warp) as usize) < nw {
                let x = &mut b[iv.u(io.rel_warp) as usize];
                dropped.extend(x.queue.drain(..).flat_map(|e| e.2));
                dropped.extend(x.moved.drain(..).flat_map(|e| e.1));
                dropped.append(&mut x.unrecorded);
            }
            for (w, pc, pdst) in moves {
                b[w].queue.pop_front();
                b[w].moved.push_back((pc, pdst));
            }
            for w in exits {
                b[w].pmode = false;
                next_mode &= !(1u64 << w);
            }
            if iv.b(len) && (iv.u(lw) as usize) < nw {
                let w = iv.u(lw) as usize;
                b[w].pmode = false;
                next_mode &= !(1u64 << w);
            }
        }
        prev_mode = next_mode;
        dut.tick();
    }
    Ok(())
}

/// The Figure 5 walk-through written against the unit's ports only, run on
/// the reference model and on the generated hardware
/// (`verif/tests/blocks/pmode_unit.rs`).
pub mod golden {
    use super::*;

    crate::poke_harness!(T, PmodeUnitIo<PortId>);

    impl<'a> T<'a> {
        /// Offer `pc: op dst, srcs` of warp 0 on port 0.
        fn offer(&mut self, pc: u64, opc: u64, dst: Option<u64>, srcs: &[u64]) {
            let n = self.1.iss[0].clone();
            self.set(n.valid, 1);
            self.set(n.pc, pc);
            self.set(n.op, opc);
            if let Some(d) = dst {
                self.set(n.dst[0].reg, d);
                self.set(n.dst[0].vld, 1);
            }
            for (j, s) in srcs.iter().enumerate() {
                self.set(n.src[j].reg, *s);
                self.set(n.src[j].vld, 1);
            }
        }
        fn wb(&mut self, reg: u64, pmode: bool, idx: u64) {
            let n = self.1.wb[0].clone();
            self.set(n.en, 1);
            self.set(n.reg, reg);
            self.set(n.pmode, pmode as u64);
            self.set(n.rec, pmode as u64);
            self.set(n.idx, idx);
        }
        /// Warp 0's kernel start at `pc` with `mask`, the compiler's rename
        /// registers `used` marked taken; one cycle.
        fn launch(&mut self, used: &[u64], pc: u64, mask: u64) {
            let io = self.1.clone();
            self.m.set(io.init_used, used);
            self.set(io.init_en, 1);
            self.set(io.launch_en, 1);
            self.set(io.launch_pc, pc);
            self.set(io.launch_mask, mask);
            self.step();
        }
        fn action(&mut self) -> &'static str {
            let id = self.1.iss[0].action;
            act::NAMES[self.get(id) as usize]
        }
        /// Fetch `pc` of warp 0 on fetch port 0 (§5.2): (hit, ready) of its
        /// P-queue head; a ready match leaves the queue at the edge.
        fn fetch(&mut self, pc: u64) -> (u64, u64) {
            let fe = self.1.fe[0].clone();
            self.set(fe.pc, pc);
            self.set(fe.pop, 1);
            (self.get(fe.hit), self.get(fe.rdy))
        }
        /// `fetch` of a ready match: the rename registers of its first `n`
        /// destinations, which the instruction carries to issue.
        fn fetch_reused(&mut self, pc: u64, n: usize) -> Vec<u64> {
            assert_eq!(self.fetch(pc), (1, 1), "fetch at {pc:#x}: the P-queue head matches, ready");
            let ids: Vec<PortId> = self.1.fe[0].pdst[..n].to_vec();
            ids.into_iter().map(|id| self.get(id)).collect()
        }
        /// Port 0's offer is a reused instruction carrying `pdsts`.
        fn reuse(&mut self, pdsts: &[u64]) {
            let n = self.1.iss[0].clone();
            self.set(n.reuse, 1);
            for (&id, &r) in n.reuse_pdst.iter().zip(pdsts) {
                self.set(id, r);
            }
        }
    }

    /// Figure 5 of the paper (and the slides' walk-through), one warp:
    /// ```text
    /// 0x80 ld.global $r0, [$r1]   0x98 sub    $r1, $r2, $r5
    /// 0x88 add $r2, $r2, #1       0xA0 set.lt $r4, $r1, $r2
    /// 0x90 mul $r3, $r0, $r2      0xA8 @$r4 br 0x80
    /// ```
    /// N-mode issues the load and the add; `mul` depends on the load and
    /// switches the warp to P-mode; P-mode skips `mul`, pre-executes `sub`
    /// and `set.lt` (renamed), follows the loop branch on the P stack, turns the
    /// second `ld` into a pre-load, pre-executes the second `add` and skips the
    /// second `mul`. The load returns: N-mode resumes at `mul` (executed),
    /// reuses `sub` and `set.lt`, executes the branch and the load, reuses the
    /// second `add` once its result is back, and triggers again at `mul`.
    /// Rename registers: the compiler uses 0–3; bank = (warp + reg) mod 4 and the
    /// first free register of that bank is taken.
    /// At the default parameters.
    pub fn figure5_single_warp(p: &PmodeUnitParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.launch(&[0b1111, 0], 0x80, 0xFFFF_FFFF);
        let (ld, add, mul, sub, set, br) = (0x80, 0x88, 0x90, 0x98, 0xA0, 0xA8);
        // N-mode.
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("issue", ld));
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!(t.action(), "issue");
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        t.wb(2, false, 0); // the add completes in the trigger cycle
        assert_eq!((t.action(), t.get(io.mode)), ("trigger", 0));
        t.step();
        // P-mode.
        assert_eq!(t.get(io.mode), 1);
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("skip", mul));
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0]), t.get(io.iss[0].pq_idx)), ("preexec", 5, 0));
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[1].renamed)), (0, 0));
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        assert_eq!(t.action(), "stall"); // $r1 (sub) in flight
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        t.wb(1, true, 0); // sub's result arrives and bypasses
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0]), t.get(io.iss[0].pq_idx)), ("preexec", 4, 1));
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 5));
        t.step();
        t.offer(br, op::BRANCH, None, &[4]);
        t.set(io.iss[0].taken, 0xFFFF_FFFF);
        t.set(io.iss[0].target, ld);
        t.set(io.iss[0].reconv, 0xB0);
        t.wb(4, true, 1);
        assert_eq!(t.action(), "preexec");
        t.step();
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("preload", ld));
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 5));
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0]), t.get(io.iss[0].pq_idx)), ("preexec", 6, 2));
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!(t.action(), "skip");
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        t.wb(0, false, 0); // the first load returns: back to N-mode
        assert_eq!(t.action(), "stall"); // $r2 (second add) still in flight
        t.step();
        // N-mode again, at the first blocked instruction, N stack untouched.
        assert_eq!(t.get(io.mode), 0);
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("issue", mul));
        // The next instruction matches the P-queue head at fetch and leaves
        // the queue for the instruction buffer with its register (§5.2).
        let r = t.fetch_reused(sub, 1);
        assert_eq!(r, [5]);
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        t.reuse(&r);
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0])), ("reuse", 5));
        let r = t.fetch_reused(set, 1);
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        t.reuse(&r);
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0])), ("reuse", 4));
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 5));
        t.step();
        t.offer(br, op::BRANCH, None, &[4]);
        t.set(io.iss[0].taken, 0xFFFF_FFFF);
        t.set(io.iss[0].target, ld);
        t.set(io.iss[0].reconv, 0xB0);
        assert_eq!((t.action(), t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), ("issue", 1, 4));
        t.step();
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc), t.get(io.iss[0].lookup[0].phys)), ("issue", ld, 5));
        t.step();
        assert_eq!(t.fetch(add), (1, 0)); // pre-executed, result not back yet: the fetch waits
        t.step();
        t.wb(2, true, 2);
        t.step();
        let r = t.fetch_reused(add, 1);
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        t.reuse(&r);
        assert_eq!((t.action(), t.get(io.iss[0].pdst[0])), ("reuse", 6));
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!(t.action(), "trigger");
        // Rename registers: compiler's 0-3 plus the reused 4, 5, 6.
        let id = io.used;
        t.m.eval();
        assert_eq!(t.m.get(id), &[0b111_1111, 0]);
    }

    /// The parameters of [`sm_loop_wide`]: the SM's operand counts
    /// (`srcs = 8`, `dsts = 4`, register ids 0..71 with the predicates at
    /// 64..70, eight writeback ports) at a small size.
    pub fn wide() -> PmodeUnitParams {
        PmodeUnitParams {
            warps: 4,
            regs: 72,
            rename_regs: 16,
            entries: 4,
            depth: 4,
            lanes: 8,
            wb_ports: 8,
            srcs: 8,
            dsts: 4,
            ..PmodeUnitParams::default()
        }
    }

    impl<'a> T<'a> {
        /// Offer `pc: op dsts, srcs` of warp 0 on port 0 (any operand count).
        fn offer_ops(&mut self, pc: u64, opc: u64, dsts: &[u64], srcs: &[u64]) {
            let n = self.1.iss[0].clone();
            self.set(n.valid, 1);
            self.set(n.pc, pc);
            self.set(n.op, opc);
            for (o, &r) in n.dst.iter().zip(dsts) {
                self.set(o.reg, r);
                self.set(o.vld, 1);
            }
            for (o, &r) in n.src.iter().zip(srcs) {
                self.set(o.reg, r);
                self.set(o.vld, 1);
            }
        }
        /// Write back every destination of one instruction of warp 0, one
        /// writeback port each, in this cycle.
        fn wb_all(&mut self, regs: &[u64], pmode: bool, idx: u64) {
            for (j, &r) in regs.iter().enumerate() {
                let n = self.1.wb[j].clone();
                self.set(n.en, 1);
                self.set(n.reg, r);
                self.set(n.pmode, pmode as u64);
                self.set(n.rec, pmode as u64);
                self.set(n.idx, idx);
            }
        }
        /// The rename registers of port 0's valid destinations.
        fn pdsts(&mut self, n: usize) -> Vec<u64> {
            let ids: Vec<PortId> = self.1.iss[0].pdst[..n].to_vec();
            ids.into_iter().map(|id| self.get(id)).collect()
        }
        /// (renamed, phys) of port 0's source `s`.
        fn src_reads(&mut self, s: usize) -> (u64, u64) {
            let l = self.1.iss[0].lookup[s].clone();
            (self.get(l.renamed), self.get(l.phys))
        }
    }

    /// The Figure 5 loop as the SM's PTX has it (the `pmode_loop` kernel):
    /// 64-bit addresses in register pairs, a 3-source `fma`, a predicate
    /// register, at [`wide`] parameters, one warp:
    /// ```text
    /// 0x80 ld.global r0 <- [r2:r3]          0xA0 add.s64 r2:r3 <- r10:r11, r6:r7
    /// 0x88 add r4 <- r4, 1                  0xA8 setp.lt p64 <- r4, r9  (register 64)
    /// 0x90 fma r5 <- r12, r0, r5            0xB0 @p64 bra 0x80
    /// 0x98 mul.wide r6:r7 <- r4, r8
    /// ```
    /// `fma` triggers P-mode waiting on r0 (its second source, the first
    /// long one); P-mode pre-executes the 64-bit address arithmetic (two
    /// rename registers per instruction, each in its destination's bank), so
    /// the next iteration's load address is known and the load is pre-loaded
    /// — the paper's main effect; N-mode then reuses both halves of each pair
    /// and reads the reused pairs through the N table. Rename registers: the
    /// compiler uses 0–3; bank = (warp + reg) mod 4.
    pub fn sm_loop_wide(p: &PmodeUnitParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.launch(&[0b1111], 0x80, 0xFF);
        let (ld, add, fma, mulw, add64, setp, br) = (0x80, 0x88, 0x90, 0x98, 0xA0, 0xA8, 0xB0);
        let branch = |t: &mut T| {
            t.offer_ops(br, op::BRANCH, &[], &[64]);
            t.set(io.iss[0].taken, 0xFF);
            t.set(io.iss[0].target, ld);
            t.set(io.iss[0].reconv, 0xB8);
        };
        // N-mode: the load, the counter, then fma waits on the load: trigger.
        t.offer_ops(ld, op::GLOAD, &[0], &[2, 3]);
        assert_eq!(t.action(), "issue");
        t.step();
        t.offer_ops(add, op::ALU, &[4], &[4]);
        assert_eq!(t.action(), "issue");
        t.step();
        t.offer_ops(fma, op::ALU, &[5], &[12, 0, 5]);
        t.wb_all(&[4], false, 0);
        assert_eq!(t.action(), "trigger");
        t.step();
        // P-mode.
        assert_eq!(t.get(io.mode), 1);
        t.offer_ops(fma, op::ALU, &[5], &[12, 0, 5]);
        assert_eq!(t.action(), "skip");
        t.step();
        // mul.wide: one rename register per half, each in its own bank (r6: 2, r7: 3).
        t.offer_ops(mulw, op::ALU, &[6, 7], &[4, 8]);
        assert_eq!((t.action(), t.pdsts(2), t.get(io.iss[0].pq_idx)), ("preexec", vec![6, 7], 0));
        t.step();
        t.offer_ops(add64, op::ALU, &[2, 3], &[10, 11, 6, 7]);
        assert_eq!(t.action(), "stall"); // r6:r7 in flight
        t.step();
        t.offer_ops(add64, op::ALU, &[2, 3], &[10, 11, 6, 7]);
        t.wb_all(&[6, 7], true, 0); // both halves in one cycle
        assert_eq!((t.action(), t.pdsts(2), t.get(io.iss[0].pq_idx)), ("preexec", vec![10, 11], 1));
        assert_eq!((t.src_reads(0), t.src_reads(2), t.src_reads(3)), ((0, 0), (1, 6), (1, 7)));
        t.step();
        t.offer_ops(setp, op::ALU, &[64], &[4, 9]);
        assert_eq!((t.action(), t.pdsts(1), t.get(io.iss[0].pq_idx)), ("preexec", vec![4], 2));
        t.step();
        branch(&mut t);
        assert_eq!(t.action(), "stall"); // p64 in flight
        t.step();
        branch(&mut t);
        t.wb_all(&[64], true, 2);
        assert_eq!((t.action(), t.src_reads(0)), ("preexec", (1, 4)));
        t.step();
        // The next iteration's load: its address pair is being computed.
        t.offer_ops(ld, op::GLOAD, &[0], &[2, 3]);
        assert_eq!(t.action(), "stall");
        t.step();
        t.offer_ops(ld, op::GLOAD, &[0], &[2, 3]);
        t.wb_all(&[2, 3], true, 1);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("preload", ld));
        assert_eq!((t.src_reads(0), t.src_reads(1)), ((1, 10), (1, 11)));
        t.step();
        t.offer_ops(add, op::ALU, &[4], &[4]);
        assert_eq!((t.action(), t.pdsts(1), t.get(io.iss[0].pq_idx)), ("preexec", vec![8], 3));
        t.step();
        t.offer_ops(fma, op::ALU, &[5], &[12, 0, 5]);
        assert_eq!(t.action(), "skip"); // r0: the pre-loaded value
        t.step();
        t.offer_ops(mulw, op::ALU, &[6, 7], &[4, 8]);
        t.wb_all(&[0], false, 0); // the first load returns: back to N-mode
        assert_eq!(t.action(), "stall"); // r4 (second add) in flight
        t.step();
        // N-mode at the blocked fma; the P-queue holds four entries.
        assert_eq!(t.get(io.mode), 0);
        t.offer_ops(fma, op::ALU, &[5], &[12, 0, 5]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("issue", fma));
        let r = t.fetch_reused(mulw, 2);
        t.step();
        t.offer_ops(mulw, op::ALU, &[6, 7], &[4, 8]);
        t.reuse(&r);
        assert_eq!((t.action(), t.pdsts(2)), ("reuse", vec![6, 7]));
        let r = t.fetch_reused(add64, 2);
        t.step();
        t.offer_ops(add64, op::ALU, &[2, 3], &[10, 11, 6, 7]);
        t.reuse(&r);
        assert_eq!((t.action(), t.pdsts(2)), ("reuse", vec![10, 11]));
        assert_eq!((t.src_reads(0), t.src_reads(2), t.src_reads(3)), ((0, 0), (1, 6), (1, 7)));
        let r = t.fetch_reused(setp, 1);
        t.step();
        t.offer_ops(setp, op::ALU, &[64], &[4, 9]);
        t.reuse(&r);
        assert_eq!((t.action(), t.pdsts(1)), ("reuse", vec![4]));
        t.step();
        branch(&mut t);
        assert_eq!((t.action(), t.src_reads(0)), ("issue", (1, 4)));
        t.step();
        t.offer_ops(ld, op::GLOAD, &[0], &[2, 3]);
        assert_eq!((t.action(), t.src_reads(0), t.src_reads(1)), ("issue", (1, 10), (1, 11)));
        t.step();
        assert_eq!(t.fetch(add), (1, 0)); // pre-executed, result not back yet: the fetch waits
        t.step();
        t.wb_all(&[4], true, 3);
        t.step();
        let r = t.fetch_reused(add, 1);
        t.step();
        t.offer_ops(add, op::ALU, &[4], &[4]);
        t.reuse(&r);
        assert_eq!((t.action(), t.pdsts(1)), ("reuse", vec![8]));
        t.step();
        t.offer_ops(fma, op::ALU, &[5], &[12, 0, 5]);
        assert_eq!(t.action(), "trigger");
        // Rename registers: the compiler's 0-3 and the reused 4, 6, 7, 8, 10, 11.
        let id = io.used;
        t.m.eval();
        assert_eq!(t.m.get(id), &[0b1101_1101_1111]);
    }

    /// A four-register result (`ld.shared.v4`) pre-executed and reused, at
    /// [`wide`] parameters, one warp:
    /// ```text
    /// 0x80 ld.global r0 <- [r2:r3]        0x90 ld.shared.v4 r8:r11 <- [r12]
    /// 0x88 add r4 <- r0, r5               0x98 add r13 <- r8, r9, r10, r11
    /// ```
    /// `add` triggers P-mode; P-mode skips it and pre-executes the vector
    /// load with one rename register per destination, each in its
    /// destination's bank (compiler registers 0-3; bank = (warp + reg) mod 4:
    /// r8..r11 -> 4, 5, 6, 7). The load returns; N-mode issues `add`, reuses
    /// all four registers and reads them through the N table.
    pub fn shared_v4_wide(p: &PmodeUnitParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.launch(&[0b1111], 0x80, 0xFF);
        let (ld, add, v4, sum) = (0x80, 0x88, 0x90, 0x98);
        t.offer_ops(ld, op::GLOAD, &[0], &[2, 3]);
        assert_eq!(t.action(), "issue");
        t.step();
        t.offer_ops(add, op::ALU, &[4], &[0, 5]);
        assert_eq!(t.action(), "trigger");
        t.step();
        assert_eq!(t.get(io.mode), 1);
        t.offer_ops(add, op::ALU, &[4], &[0, 5]);
        assert_eq!(t.action(), "skip");
        t.step();
        t.offer_ops(v4, op::SLOAD, &[8, 9, 10, 11], &[12]);
        assert_eq!((t.action(), t.pdsts(4), t.get(io.iss[0].pq_idx)), ("preexec", vec![4, 5, 6, 7], 0));
        t.step();
        t.offer_ops(sum, op::ALU, &[13], &[8, 9, 10, 11]);
        assert_eq!(t.action(), "stall"); // r8..r11 in flight
        t.step();
        t.wb_all(&[8, 9, 10, 11], true, 0); // nothing offered: `add r13` stays unrecorded
        t.step();
        t.wb_all(&[0], false, 0); // the load returns: back to N-mode
        t.step();
        assert_eq!(t.get(io.mode), 0);
        t.offer_ops(add, op::ALU, &[4], &[0, 5]);
        assert_eq!((t.action(), t.get(io.iss[0].stack_pc)), ("issue", add));
        let r = t.fetch_reused(v4, 4);
        t.step();
        t.offer_ops(v4, op::SLOAD, &[8, 9, 10, 11], &[12]);
        t.reuse(&r);
        assert_eq!((t.action(), t.pdsts(4)), ("reuse", vec![4, 5, 6, 7]));
        t.step();
        t.offer_ops(sum, op::ALU, &[13], &[8, 9, 10, 11]);
        assert_eq!(t.action(), "issue");
        assert_eq!((t.src_reads(0), t.src_reads(1), t.src_reads(2), t.src_reads(3)), ((1, 4), (1, 5), (1, 6), (1, 7)));
        let id = io.used;
        t.m.eval();
        assert_eq!(t.m.get(id), &[0b1111_1111]);
    }
}

