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

/// One decoded instruction of a generated kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: u64,
    pub src: [Option<u64>; 2],
    pub dst: Option<u64>,
}

/// A warp's kernel: control structure from [`Program`] (with its per-thread
/// branch outcomes), instruction classes and registers chosen at random from a
/// small register set so that dependences, long-latency chains and
/// long-dependent branches occur; an EXIT at the end.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub prog: Program,
    pub code: HashMap<u64, Inst>,
}

impl Kernel {
    pub fn generate(rng: &mut ChaCha8Rng, p: &PmodeUnitParams, base: u64) -> Kernel {
        let prog = Program::generate(rng, &p.simt_stack(), base);
        let nregs = p.regs.min(8) as u64;
        let mut code = HashMap::new();
        fn walk(nodes: &[Node], rng: &mut ChaCha8Rng, nregs: u64, code: &mut HashMap<u64, Inst>) {
            let r = |rng: &mut ChaCha8Rng| rng.random_range(0..nregs);
            for n in nodes {
                match n {
                    Node::Plain(pc) => {
                        let (a, b, c) = (r(rng), r(rng), r(rng));
                        let inst = match rng.random_range(0..24) {
                            0..12 => Inst { op: op::ALU, src: [Some(a), (b % 2 == 0).then_some(b)], dst: Some(c) },
                            12..16 => Inst { op: op::GLOAD, src: [Some(a), None], dst: Some(c) },
                            16..18 => Inst { op: op::SLOAD, src: [Some(a), None], dst: Some(c) },
                            18 => Inst { op: op::SSTORE, src: [Some(a), Some(b)], dst: None },
                            19 => Inst { op: op::GSTORE, src: [Some(a), Some(b)], dst: None },
                            20 => Inst { op: op::BARRIER, src: [None, None], dst: None },
                            _ => Inst { op: op::ALU, src: [Some(a), None], dst: Some(c) },
                        };
                        code.insert(*pc, inst);
                    }
                    Node::If { br, body, .. } => {
                        code.insert(*br, Inst { op: op::BRANCH, src: [Some(r(rng)), None], dst: None });
                        walk(body, rng, nregs, code);
                    }
                    Node::IfElse { br, a, jmp, b, .. } => {
                        code.insert(*br, Inst { op: op::BRANCH, src: [Some(r(rng)), None], dst: None });
                        code.insert(*jmp, Inst { op: op::BRANCH, src: [None, None], dst: None });
                        walk(a, rng, nregs, code);
                        walk(b, rng, nregs, code);
                    }
                    Node::Loop { body, br, .. } => {
                        walk(body, rng, nregs, code);
                        code.insert(*br, Inst { op: op::BRANCH, src: [Some(r(rng)), None], dst: None });
                    }
                }
            }
        }
        walk(&prog.nodes, rng, nregs, &mut code);
        code.insert(prog.end, Inst { op: op::EXIT, src: [None, None], dst: None });
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
}

/// A scheduled writeback.
#[derive(Clone, Copy, Debug)]
struct Wb {
    due: u64,
    warp: u64,
    reg: u64,
    pmode: bool,
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
        for j in 0..2 {
            f.set(d.src[j].reg, inst.src[j].unwrap_or(0));
            f.set_bool(d.src[j].vld, inst.src[j].is_some());
        }
        f.set(d.dst.reg, inst.dst.unwrap_or(0));
        f.set_bool(d.dst.vld, inst.dst.is_some());
        let (taken, target, reconv) = br.unwrap_or((0, 0, 0));
        f.set(d.taken, taken);
        f.set(d.target, target);
        f.set(d.reconv, reconv);
    }

    fn clear_port(&self, f: &mut Frame, k: usize) {
        let d = &self.io.iss[k];
        let (s, t) = (&d.src, &d.dst);
        for id in [d.valid, d.warp, d.pc, d.op, s[0].reg, s[0].vld, s[1].reg, s[1].vld, t.reg, t.vld, d.taken, d.target, d.reconv] {
            f.set(id, 0);
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
        // Release walk of one exited warp.
        if let Some(w) = (0..nw).find(|&w| self.warps[w].releasing.is_some()) {
            let r = self.warps[w].releasing.unwrap_or(0);
            f.set_bool(self.io.rel_en, true);
            f.set(self.io.rel_warp, w as u64);
            f.set(self.io.rel_reg, r);
            self.warps[w].releasing = (r + 1 < p.regs as u64).then_some(r + 1);
        }
        // Writebacks due.
        self.wbq.sort_by_key(|x| x.due);
        let mut j = 0;
        while j < p.wb_ports as usize && !self.wbq.is_empty() && self.wbq[0].due <= c {
            let x = self.wbq.remove(0);
            let n = self.io.wb[j].clone();
            f.set_bool(n.en, true);
            f.set(n.warp, x.warp);
            f.set(n.reg, x.reg);
            f.set_bool(n.pmode, x.pmode);
            f.set(n.idx, x.idx);
            j += 1;
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
            let idx = self.sh(self.io.iss[k].pq_idx);
            let d = &self.warps[w];
            let Some(kern) = d.kernel.as_ref() else { continue };
            let (_, inst, _) = kern.step(if d.pmode { d.p_pos } else { d.n_pos });
            let lat = self.latency(inst.op);
            let d = &mut self.warps[w];
            match a {
                act::ISSUE => {
                    if let Some(r) = inst.dst {
                        self.wbq.push(Wb { due: c + lat, warp: w as u64, reg: r, pmode: false, idx: 0 });
                    }
                    if inst.op == op::EXIT {
                        d.kernel = None;
                        d.releasing = Some(0);
                    } else {
                        d.n_pos += 1;
                    }
                }
                act::REUSE => d.n_pos += 1,
                act::TRIGGER => {
                    d.pmode = true;
                    d.p_pos = d.n_pos;
                }
                act::PREEXEC => {
                    if let Some(r) = inst.dst {
                        self.wbq.push(Wb { due: c + lat, warp: w as u64, reg: r, pmode: true, idx });
                    }
                    d.p_pos += 1;
                }
                act::PRELOAD | act::SKIP => d.p_pos += 1,
                _ => {}
            }
        }
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
/// - **entries leave in push order and a reused entry was reuse-ready**: a
///   REUSE consumes the oldest PREEXEC of the warp, whose P-mode writeback
///   has arrived, and renames to its register;
/// - an episode starts only with no entries left; mode changes only by
///   TRIGGER, the N-mode writeback of a source the trigger waited on, or
///   launch; actions match the mode; a halted warp only stalls.
pub fn check(p: &PmodeUnitParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (rst, len, lw) = (io.rst, io.launch_en, io.launch_warp);
    // Per port, the inputs (valid warp pc op src0 src0_vld src1 src1_vld dst
    // dst_vld taken target reconv) and outputs (action src0_renamed src0_phys
    // src1_renamed src1_phys pdst pq_idx stack_pc stack_mask) in port order.
    let ki: Vec<Vec<PortId>> = io
        .iss
        .iter()
        .map(|d| {
            let (s, t) = (&d.src, &d.dst);
            vec![d.valid, d.warp, d.pc, d.op, s[0].reg, s[0].vld, s[1].reg, s[1].vld, t.reg, t.vld, d.taken, d.target, d.reconv]
        })
        .collect();
    let ko: Vec<Vec<PortId>> = io
        .iss
        .iter()
        .map(|d| {
            let l = &d.lookup;
            vec![d.action, l[0].renamed, l[0].phys, l[1].renamed, l[1].phys, d.pdst, d.pq_idx, d.stack_pc, d.stack_mask]
        })
        .collect();
    let wbs: Vec<Vec<PortId>> = io.wb.iter().map(|d| vec![d.en, d.warp, d.reg, d.pmode, d.idx]).collect();
    let (o_mode, o_halted, o_used) = (io.mode, io.halted, io.used);
    let nw = p.warps as usize;
    // Books: per warp N and P (pending, long) register sets, P-queue by PC.
    #[derive(Clone, Default)]
    struct Books {
        n_pend: HashSet<u64>,
        n_long: HashSet<u64>,
        p_pend: HashSet<u64>,
        p_long: HashSet<u64>,
        queue: VecDeque<(u64, u64, u64, bool)>, // (pc, idx, pdst, ready)
        pmode: bool,
        waits_on: Vec<u64>,
    }
    let mut b: Vec<Books> = vec![Books::default(); nw];
    let mut prev_mode = 0u64;
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
        // Writebacks this cycle (they bypass into this cycle's checks).
        let wb_now: Vec<(usize, u64, bool, u64)> = wbs
            .iter()
            .filter(|s| iv.b(s[0]))
            .map(|s| (iv.u(s[1]) as usize, iv.u(s[2]), iv.b(s[3]), iv.u(s[4])))
            .collect();
        let cleared = |w: usize, r: u64, pside: bool| wb_now.iter().any(|x| x.0 == w && x.1 == r && (pside || !x.2));
        let free = (0..p.rename_regs as usize).filter(|&i| !bit(&used, i)).count();
        let mut handed = Vec::new();
        let mut next_mode = mode;
        let mut actions = Vec::new();
        for k in 0..ki.len() {
            let g = |n: usize| iv.u(ki[k][n]);
            if !iv.b(ki[k][0]) {
                continue;
            }
            let a = dut.get(ko[k][0])[0];
            let w = g(1) as usize;
            if w >= nw {
                continue;
            }
            let (pc, opc) = (g(2), g(3));
            let srcs: Vec<u64> = [(4, 5), (6, 7)].iter().filter(|x| iv.b(ki[k][x.1])).map(|x| g(x.0)).collect();
            let dst = iv.b(ki[k][9]).then(|| g(8));
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
            if pm && a != act::STALL && free <= k {
                return err(format!("port {k} warp {w}: P-mode {name} with {free} free rename registers"));
            }
            let n_pending = |r: &u64| bk.n_pend.contains(r) && !cleared(w, *r, false);
            let n_long = |r: &u64| bk.n_long.contains(r) && !cleared(w, *r, false);
            match a {
                act::ISSUE | act::REUSE => {
                    if let Some(r) = srcs.iter().chain(dst.iter()).find(|r| n_pending(r)) {
                        return err(format!("port {k} warp {w} pc {pc:#x}: {name} with $r{r} pending"));
                    }
                }
                act::TRIGGER => {
                    if !srcs.iter().any(n_long) {
                        return err(format!("port {k} warp {w} pc {pc:#x}: trigger without a source waiting on a global load"));
                    }
                    if !bk.queue.is_empty() {
                        return err(format!("port {k} warp {w}: trigger with {} P-queue entries left", bk.queue.len()));
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
            if a == act::PREEXEC && dst.is_some() {
                let x = dut.get(ko[k][5])[0];
                if bit(&used, x as usize) || handed.contains(&x) {
                    return err(format!("port {k} warp {w}: rename register {x} handed out while live"));
                }
                handed.push(x);
            }
            if a == act::REUSE {
                let Some(&(qpc, _, pdst, ready)) = bk.queue.front() else {
                    return err(format!("port {k} warp {w} pc {pc:#x}: reuse with no pre-executed instruction"));
                };
                if qpc != pc || !ready || dut.get(ko[k][5])[0] != pdst {
                    return err(format!(
                        "port {k} warp {w} pc {pc:#x}: reused (pc {qpc:#x}, ready {ready}, register {pdst}), got register {}",
                        dut.get(ko[k][5])[0]
                    ));
                }
            }
            actions.push((k, w, a, pc, opc, srcs, dst));
        }
        // Books: next state (writebacks clear first, then issue effects).
        if iv.b(rst) {
            b.iter_mut().for_each(|x| *x = Books::default());
            next_mode = 0;
        } else {
            let mut exits = Vec::new();
            for &(w, r, pside, idx) in &wb_now {
                if w >= nw {
                    continue;
                }
                let x = &mut b[w];
                x.p_pend.remove(&r);
                x.p_long.remove(&r);
                if pside {
                    if let Some(e) = x.queue.iter_mut().find(|e| e.1 == idx) {
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
            for (k, w, a, pc, opc, srcs, dst) in actions {
                let x = &mut b[w];
                match a {
                    act::ISSUE => {
                        if let Some(r) = dst {
                            x.n_pend.insert(r);
                            if opc == op::GLOAD {
                                x.n_long.insert(r);
                            } else {
                                x.n_long.remove(&r);
                            }
                        }
                    }
                    act::REUSE => {
                        x.queue.pop_front();
                    }
                    act::TRIGGER => {
                        x.pmode = true;
                        x.p_pend = x.n_pend.clone();
                        x.p_long = x.n_long.clone();
                        // The triggering register: the first source waiting on a load.
                        x.waits_on = srcs.iter().copied().find(|r| x.n_long.contains(r)).into_iter().collect();
                        next_mode |= 1 << w;
                    }
                    act::PREEXEC => {
                        if let Some(r) = dst {
                            x.p_pend.insert(r);
                            x.p_long.remove(&r);
                            let idx = dut.get(ko[k][6])[0];
                            x.queue.push_back((pc, idx, dut.get(ko[k][5])[0], false));
                        }
                    }
                    act::PRELOAD | act::SKIP => {
                        if let Some(r) = dst {
                            x.p_long.insert(r);
                        }
                    }
                    _ => {}
                }
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
                self.set(n.dst.reg, d);
                self.set(n.dst.vld, 1);
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
            self.set(n.idx, idx);
        }
        fn action(&mut self) -> &'static str {
            let id = self.1.iss[0].action;
            act::NAMES[self.get(id) as usize]
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
        let id = io.init_used;
        t.m.set(id, &[0b1111, 0]);
        t.set(io.init_en, 1);
        t.set(io.launch_en, 1);
        t.set(io.launch_pc, 0x80);
        t.set(io.launch_mask, 0xFFFF_FFFF);
        t.step();
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
        assert_eq!((t.action(), t.get(io.iss[0].pdst), t.get(io.iss[0].pq_idx)), ("preexec", 5, 0));
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[1].renamed)), (0, 0));
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        assert_eq!(t.action(), "stall"); // $r1 (sub) in flight
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        t.wb(1, true, 0); // sub's result arrives and bypasses
        assert_eq!((t.action(), t.get(io.iss[0].pdst), t.get(io.iss[0].pq_idx)), ("preexec", 4, 1));
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
        assert_eq!((t.action(), t.get(io.iss[0].pdst), t.get(io.iss[0].pq_idx)), ("preexec", 6, 2));
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
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        assert_eq!((t.action(), t.get(io.iss[0].pdst)), ("reuse", 5));
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        assert_eq!((t.action(), t.get(io.iss[0].pdst)), ("reuse", 4));
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
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!(t.action(), "stall"); // pre-executed, result not back yet
        t.step();
        t.wb(2, true, 2);
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!((t.action(), t.get(io.iss[0].pdst)), ("reuse", 6));
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!(t.action(), "trigger");
        // Rename registers: compiler's 0-3 plus the reused 4, 5, 6.
        let id = io.used;
        t.m.eval();
        assert_eq!(t.m.get(id), &[0b111_1111, 0]);
    }

}

