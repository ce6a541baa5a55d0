//! Verification of `simt_stack` (specification
//! `hw::blocks::pmode::simt_stack`, model `models::pmode::simt_stack`): a
//! structured-program IPDOM reference, the constrained-random driver, the
//! property check and the directed (golden) scenarios.

use super::InView;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::simt_stack::{SimtStackIo, SimtStackParams};
use hw::iface::InterfaceExt;
use models::bits::mask;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, PortId};
use std::collections::HashMap;
use std::sync::Arc;

/// Registry entry: the driver of `simt_stack`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "simt_stack",
    driver: |p, seed| Ok(Box::new(SimtStackDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// Structured programs and the recursive IPDOM reference

/// A structured program with its instruction addresses.
#[derive(Clone, Debug)]
pub enum Node {
    /// A non-branch instruction.
    Plain(u64),
    /// `br c -> end; body; end:`
    If { br: u64, body: Vec<Node>, end: u64 },
    /// `br c -> else; a; jmp -> end; else: b; end:`
    IfElse { br: u64, a: Vec<Node>, jmp: u64, els: u64, b: Vec<Node>, end: u64 },
    /// `top: body; br c -> top`
    Loop { top: u64, body: Vec<Node>, br: u64 },
}

/// What a warp does at one step: the instruction at `pc` runs for `mask`;
/// a branch carries its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub pc: u64,
    pub mask: u64,
    /// (taken threads, target, reconvergence PC)
    pub br: Option<(u64, u64, u64)>,
}

/// A generated program: its steps as the per-thread IPDOM reference executes
/// them, and where it ends.
#[derive(Clone, Debug)]
pub struct Program {
    pub nodes: Vec<Node>,
    pub base: u64,
    pub end: u64,
    pub launch_mask: u64,
    pub steps: Vec<Step>,
    /// Every conditional branch outcome: (thread, PC, n-th execution) -> taken.
    pub decisions: HashMap<(u32, u64, u64), bool>,
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Random structured code needing at most `budget` stack entries above the
/// base entry (If and Loop need one, IfElse two).
fn gen_block(rng: &mut ChaCha8Rng, budget: u32, pc: &mut u64, ib: u64, len: u32) -> Vec<Node> {
    let mut v = Vec::new();
    for _ in 0..len {
        let kind = rng.random_range(0..10);
        let inner = rng.random_range(0..4);
        match kind {
            0..4 => {
                v.push(Node::Plain(*pc));
                *pc += ib;
            }
            4 | 5 if budget >= 1 => {
                let br = *pc;
                *pc += ib;
                let body = gen_block(rng, budget - 1, pc, ib, inner);
                v.push(Node::If { br, body, end: *pc });
            }
            6 | 7 if budget >= 2 => {
                let br = *pc;
                *pc += ib;
                let a = gen_block(rng, budget - 2, pc, ib, inner);
                let jmp = *pc;
                *pc += ib;
                let els = *pc;
                let blen = rng.random_range(0..4);
                let b = gen_block(rng, budget - 2, pc, ib, blen);
                v.push(Node::IfElse { br, a, jmp, els, b, end: *pc });
            }
            8 | 9 if budget >= 1 => {
                let top = *pc;
                let body = gen_block(rng, budget - 1, pc, ib, inner.max(1));
                let br = *pc;
                *pc += ib;
                v.push(Node::Loop { top, body, br });
            }
            _ => {
                v.push(Node::Plain(*pc));
                *pc += ib;
            }
        }
    }
    v
}

/// The reference: each construct run recursively with the threads that reach
/// it, in the order an IPDOM stack runs them (taken side of a divergent branch
/// first), reconverging at the end of every construct. Branch outcomes are per
/// thread and per dynamic instance (a hash of the seed, thread, PC and count).
struct Exec {
    seed: u64,
    lanes: u32,
    ib: u64,
    counts: HashMap<(u32, u64), u64>,
    steps: Vec<Step>,
    decisions: HashMap<(u32, u64, u64), bool>,
}

impl Exec {
    fn outcome(&mut self, m: u64, pc: u64, f: impl Fn(u64, u64) -> bool) -> u64 {
        let mut taken = 0;
        for t in 0..self.lanes {
            if m >> t & 1 == 1 {
                let n = self.counts.entry((t, pc)).or_insert(0);
                let h = mix(self.seed ^ mix((t as u64) << 40 ^ pc ^ (*n << 20)));
                let d = f(h, t as u64);
                self.decisions.insert((t, pc, *n), d);
                *n += 1;
                if d {
                    taken |= 1 << t;
                }
            }
        }
        taken
    }

    fn run(&mut self, nodes: &[Node], m: u64) {
        for node in nodes {
            match node {
                Node::Plain(pc) => self.steps.push(Step { pc: *pc, mask: m, br: None }),
                Node::If { br, body, end } => {
                    let bias = [0, 30, 50, 80, 100][(mix(self.seed ^ br) % 5) as usize];
                    let t = self.outcome(m, *br, |h, _| h % 100 < bias);
                    self.steps.push(Step { pc: *br, mask: m, br: Some((t, *end, *end)) });
                    if m & !t != 0 {
                        self.run(body, m & !t);
                    }
                }
                Node::IfElse { br, a, jmp, els, b, end } => {
                    let bias = [0, 30, 50, 80, 100][(mix(self.seed ^ br) % 5) as usize];
                    let t = self.outcome(m, *br, |h, _| h % 100 < bias);
                    self.steps.push(Step { pc: *br, mask: m, br: Some((t, *els, *end)) });
                    if t != 0 {
                        self.run(b, t);
                    }
                    if m & !t != 0 {
                        self.run(a, m & !t);
                        self.steps.push(Step { pc: *jmp, mask: m & !t, br: Some((u64::MAX, *end, *end)) });
                    }
                }
                Node::Loop { top, body, br } => {
                    let uniform = mix(self.seed ^ top).is_multiple_of(3);
                    let mut cur = m;
                    let mut it = 0u64;
                    loop {
                        self.run(body, cur);
                        let seed = self.seed;
                        let t = self.outcome(cur, *br, |h, t| {
                            let cap = if uniform { mix(seed ^ top ^ it << 8) % 4 } else { mix(h ^ t) % 4 };
                            it < cap
                        });
                        self.steps.push(Step { pc: *br, mask: cur, br: Some((t, *top, *br + self.ib)) });
                        if t == 0 {
                            break;
                        }
                        cur = t;
                        it += 1;
                    }
                }
            }
        }
    }
}

impl Program {
    /// A random program at `base` whose nesting fits in `depth` entries.
    pub fn generate(rng: &mut ChaCha8Rng, p: &SimtStackParams, base: u64) -> Program {
        let ib = p.inst_bytes as u64;
        let mut pc = base;
        let budget = (p.depth - 1).min(rng.random_range(1..8));
        let len = rng.random_range(1..7);
        let nodes = gen_block(rng, budget, &mut pc, ib, len);
        let full = mask(p.lanes);
        let launch_mask = if rng.random_bool(0.7) { full } else { (rng.random::<u64>() & full).max(1) };
        let mut ex =
            Exec { seed: rng.random(), lanes: p.lanes, ib, counts: HashMap::new(), steps: Vec::new(), decisions: HashMap::new() };
        ex.run(&nodes, launch_mask);
        Program { nodes, base, end: pc, launch_mask, steps: ex.steps, decisions: ex.decisions }
    }
}

// ---------------------------------------------------------------------------
// Driver

/// What a port of the component must read in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect {
    pub cycle: usize,
    pub port: usize,
    pub pc: u64,
    pub mask: u64,
}

#[derive(Clone, Debug)]
struct Job {
    warp: u64,
    prog: Option<Program>,
    pos: usize,
    /// P-mode excursion: (position, steps left).
    p: Option<(usize, usize)>,
}

/// Constrained-random stimulus for `simt_stack`: every port runs a checked
/// warp through random structured programs (branch outcomes per thread), with
/// P-mode excursions (copy, run ahead on the P stack, come back to the N stack
/// where it was), idle cycles and relaunches; interleaved with noise on other
/// warps (random commands, same-warp port conflicts, launches and copies).
/// It records what every port must read for its checked warp, computed by the
/// recursive reference ([`Program`]), never by the model.
pub struct SimtStackDriver {
    p: SimtStackParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    jobs: Vec<Job>,
    cycle: usize,
    expect: Vec<Expect>,
    io: SimtStackIo<PortId>,
    /// Probability of a noise command on a port in one cycle.
    pub noise: f64,
}

impl SimtStackDriver {
    pub fn new(p: &SimtStackParams, seed: u64) -> Self {
        let layout = InputLayout::of(&p.ports());
        SimtStackDriver {
            io: p.ids(),
            jobs: (0..p.issue_ports.min(p.warps)).map(|k| Job { warp: k as u64, prog: None, pos: 0, p: None }).collect(),
            p: p.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            cycle: 0,
            expect: Vec::new(),
            layout,
            noise: 0.05,
        }
    }

    /// Expected reads so far (one entry per checked port and cycle).
    pub fn expectations(&self) -> &[Expect] {
        &self.expect
    }

    fn noise_warp(&mut self) -> Option<u64> {
        let k = self.jobs.len() as u64;
        let top = mask(self.p.warp_bits());
        if k > top {
            return None;
        }
        Some(if self.rng.random_range(0..10) == 0 { self.rng.random_range(k..=top) } else { self.rng.random_range(k..(self.p.warps as u64).max(k + 1)).min(top) })
    }

    fn command(&self, f: &mut Frame, k: usize, step: &Step) {
        let d = &self.io.iss[k];
        match step.br {
            Some((taken, target, reconv)) => {
                f.set_bool(d.br, true);
                f.set(d.taken, taken);
                f.set(d.target, target);
                f.set(d.reconv, reconv);
            }
            None => f.set_bool(d.adv, true),
        }
    }
}

impl Driver for SimtStackDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let c = self.cycle;
        self.cycle += 1;
        if c == 0 || self.rng.random_range(0..50_000) == 0 {
            f.set_bool(self.io.rst, true);
            for j in &mut self.jobs {
                j.prog = None;
                j.p = None;
            }
            return;
        }
        let (mut launch_busy, mut copy_busy) = (false, false);
        let mut noise_warps: Vec<u64> = Vec::new();
        for k in 0..self.jobs.len() {
            let d = self.io.iss[k].clone();
            // Noise on another warp (the checked warp idles this cycle).
            if self.rng.random_bool(self.noise) || (self.jobs[k].prog.is_none() && self.rng.random_bool(0.5)) {
                if let Some(mut w) = self.noise_warp() {
                    if !noise_warps.is_empty() && self.rng.random_bool(0.3) {
                        w = noise_warps[0];
                    }
                    noise_warps.push(w);
                    let pcm = mask(self.p.pc_bits);
                    f.set(d.warp, w);
                    f.set_bool(d.pmode, self.rng.random_bool(0.5));
                    f.set_bool(d.adv, self.rng.random_bool(0.5));
                    f.set_bool(d.br, self.rng.random_bool(0.4));
                    f.set(d.taken, self.rng.random::<u64>());
                    let near = self.rng.random_range(0..64u64) * self.p.inst_bytes as u64;
                    f.set(d.target, near & pcm);
                    f.set(d.reconv, if self.rng.random_bool(0.1) { pcm } else { (near + 8 * self.rng.random_range(0..8u64)) & pcm });
                    if !launch_busy && self.rng.random_range(0..20) == 0 {
                        launch_busy = true;
                        f.set_bool(self.io.launch_en, true);
                        f.set(self.io.launch_warp, w);
                        f.set(self.io.launch_pc, (self.rng.random_range(0..64u64) * 8) & pcm);
                        f.set(self.io.launch_mask, self.rng.random::<u64>());
                    }
                    if !copy_busy && self.rng.random_range(0..20) == 0 {
                        copy_busy = true;
                        f.set_bool(self.io.copy_en, true);
                        f.set(self.io.copy_warp, w);
                    }
                    continue;
                }
            }
            let warp = self.jobs[k].warp;
            f.set(d.warp, warp);
            // Launch a new program.
            if self.jobs[k].prog.is_none() {
                if !launch_busy {
                    launch_busy = true;
                    let base = (0x1000 * (k as u64 + 1) + self.rng.random_range(0..256u64) * self.p.inst_bytes as u64)
                        & mask(self.p.pc_bits);
                    let prog = Program::generate(&mut self.rng, &self.p, base);
                    f.set_bool(self.io.launch_en, true);
                    f.set(self.io.launch_warp, warp);
                    f.set(self.io.launch_pc, base);
                    f.set(self.io.launch_mask, prog.launch_mask);
                    let job = &mut self.jobs[k];
                    job.prog = Some(prog);
                    job.pos = 0;
                    job.p = None;
                }
                continue;
            }
            let (pos, pex) = (self.jobs[k].pos, self.jobs[k].p);
            let (len, step_at) = {
                let Some(prog) = self.jobs[k].prog.as_ref() else { continue };
                let at = |i: usize| {
                    prog.steps.get(i).map_or((prog.end, prog.launch_mask, None), |s| (s.pc, s.mask, Some(*s)))
                };
                (prog.steps.len(), [at(pos), at(pex.map_or(0, |x| x.0))])
            };
            if let Some((pp, left)) = pex {
                // P-mode excursion step.
                f.set_bool(d.pmode, true);
                let (pc, m, step) = step_at[1];
                self.expect.push(Expect { cycle: c, port: k, pc, mask: m });
                if let (true, Some(step)) = (self.rng.random_range(0..8) != 0, step) {
                    self.command(f, k, &step);
                    self.jobs[k].p = (left > 1).then_some((pp + 1, left - 1));
                }
                continue;
            }
            let (pc, m, step) = step_at[0];
            self.expect.push(Expect { cycle: c, port: k, pc, mask: m });
            let Some(step) = step else {
                // Reached the end: reconverged with the launch mask.
                self.jobs[k].prog = None;
                continue;
            };
            let idle = self.rng.random_range(0..10) == 0;
            let excursion = !copy_busy && self.rng.random_range(0..15) == 0;
            if excursion {
                copy_busy = true;
                f.set_bool(self.io.copy_en, true);
                f.set(self.io.copy_warp, warp);
            }
            if !idle {
                self.command(f, k, &step);
                self.jobs[k].pos += 1;
            }
            if excursion {
                let from = self.jobs[k].pos;
                let room = len - from;
                if room > 0 {
                    let left = self.rng.random_range(1..=room.min(24));
                    self.jobs[k].p = Some((from, left));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Property check

/// Run `st` through `dut` and check that every checked read in `expect`
/// (top-of-stack PC and active mask of the port's warp in its mode) equals the
/// recursive per-thread IPDOM reference: N-mode progress is unaffected by
/// P-mode excursions (P branches touch only the P stack), a copy reproduces
/// the N stack exactly, every construct reconverges, and a finished program
/// is back at its end with the launch mask.
pub fn check_ipdom(p: &SimtStackParams, dut: &mut dyn Component, st: &Stimulus, expect: &[Expect]) -> Result<(), String> {
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let pcs: Vec<PortId> = io.iss.iter().map(|d| d.pc).collect();
    let masks: Vec<PortId> = io.iss.iter().map(|d| d.mask).collect();
    let warp: Vec<PortId> = io.iss.iter().map(|d| d.warp).collect();
    let pmode: Vec<PortId> = io.iss.iter().map(|d| d.pmode).collect();
    let mut e = 0;
    for c in 0..st.cycles() {
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let iv = InView::new(st, c);
        while e < expect.len() && expect[e].cycle == c {
            let x = expect[e];
            let got = (dut.get(pcs[x.port])[0], dut.get(masks[x.port])[0]);
            if got != (x.pc, x.mask) {
                return Err(format!(
                    "cycle {c}: port {} warp {} ({}): top of stack (pc {:#x}, mask {:#x}), reference (pc {:#x}, mask {:#x})",
                    x.port,
                    iv.u(warp[x.port]),
                    if iv.b(pmode[x.port]) { "P" } else { "N" },
                    got.0,
                    got.1,
                    x.pc,
                    x.mask
                ));
            }
            e += 1;
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests written against the ports only, run on the reference model
/// and on the generated hardware (`verif/tests/blocks/simt_stack.rs`).
pub mod golden {
    use super::*;
    use sim::ComponentExt;

    /// Parameters of the slides' walk-through: 4 threads per warp.
    pub fn slides_params() -> SimtStackParams {
        SimtStackParams { lanes: 4, ..SimtStackParams::default() }
    }

    /// A 2-entry stack of 4 threads.
    pub fn overflow_params() -> SimtStackParams {
        SimtStackParams { depth: 2, lanes: 4, ..SimtStackParams::default() }
    }

    crate::poke_harness!(T, SimtStackIo<PortId>);

    impl<'a> T<'a> {
        /// (pc, rpc, mask) of port 0's view of `warp` in a mode.
        fn top(&mut self, warp: u64, pmode: bool) -> (u64, u64, u64) {
            let d = self.1.iss[0].clone();
            self.set(d.warp, warp);
            self.set(d.pmode, pmode as u64);
            self.m.eval();
            let r = (self.m.get_u64(d.pc), self.m.get_u64(d.rpc), self.m.get_u64(d.mask));
            self.set(d.warp, 0);
            self.set(d.pmode, 0);
            r
        }
        fn branch(&mut self, port: usize, warp: u64, pmode: bool, taken: u64, target: u64, reconv: u64) {
            let d = self.1.iss[port].clone();
            self.set(d.warp, warp);
            self.set(d.pmode, pmode as u64);
            self.set(d.br, 1);
            self.set(d.taken, taken);
            self.set(d.target, target);
            self.set(d.reconv, reconv);
        }
    }

    /// The slides' walk-through (lanes shown as 4 threads): the N stack holds
    /// 1111; on mode entry it is copied; a divergent branch in P-mode leaves the
    /// P stack as 1111 / 1100 / 0011 (reconvergence entry, not-taken, taken on
    /// top) and the N stack untouched; back in N-mode the same branch gives the
    /// N stack the same three entries.
    pub fn slides_p_stack(m: &mut dyn Component, p: &SimtStackParams) {
        let io = p.bind(m).unwrap();
        let none = p.rpc_none();
        let mut t = T::new(m, io.clone());
        t.set(io.launch_en, 1);
        t.set(io.launch_warp, 2);
        t.set(io.launch_pc, 0x80);
        t.set(io.launch_mask, 0b1111);
        t.step();
        assert_eq!(t.top(2, false), (0x80, none, 0b1111));
        t.set(io.copy_en, 1);
        t.set(io.copy_warp, 2);
        t.step();
        assert_eq!(t.top(2, true), (0x80, none, 0b1111));
        // Threads 0 and 1 take the branch at 0x80 to 0xC0; reconverge at 0xE0.
        t.branch(0, 2, true, 0b0011, 0xC0, 0xE0);
        t.step();
        assert_eq!(t.top(2, true), (0xC0, 0xE0, 0b0011));
        assert_eq!(t.top(2, false), (0x80, none, 0b1111));
        // Run the taken side to the reconvergence point: pops to 1100.
        for _ in 0..4 {
            t.set(io.iss[1].warp, 2);
            t.set(io.iss[1].pmode, 1);
            t.set(io.iss[1].adv, 1);
            t.step();
        }
        assert_eq!(t.top(2, true), (0x88, 0xE0, 0b1100));
        // Not-taken side jumps to 0xE0: pops to the reconvergence entry 1111.
        t.branch(0, 2, true, 0b1111, 0xE0, 0xE0);
        t.step();
        assert_eq!(t.top(2, true), (0xE0, none, 0b1111));
        assert_eq!(t.top(2, false), (0x80, none, 0b1111));
        // N-mode runs the same branch itself.
        t.branch(1, 2, false, 0b0011, 0xC0, 0xE0);
        t.step();
        assert_eq!(t.top(2, false), (0xC0, 0xE0, 0b0011));
    }

    pub fn overflow_leaves_the_stack_unchanged(m: &mut dyn Component, p: &SimtStackParams) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.set(io.launch_en, 1);
        t.set(io.launch_pc, 0x100);
        t.set(io.launch_mask, 0xF);
        t.step();
        // if/else from the base entry needs 3 entries.
        t.branch(0, 0, false, 0b0101, 0x140, 0x180);
        t.step();
        t.m.eval();
        assert!(t.m.get_bool(io.overflow));
        assert_eq!(t.top(0, false), (0x100, p.rpc_none(), 0xF));
        // A plain `if` (taken side = reconvergence PC) needs 2: fine.
        t.branch(0, 0, false, 0b0101, 0x180, 0x180);
        t.step();
        assert_eq!(t.top(0, false), (0x108, 0x180, 0b1010));
        // Reset clears the sticky flag.
        t.set(io.rst, 1);
        t.step();
        t.m.eval();
        assert!(!t.m.get_bool(io.overflow));
    }

    /// GPGPU-Sim's rule for unstructured code: a path whose PC is the top
    /// entry's own reconvergence PC is dropped (its threads wait in the entry
    /// below), even when the branch's reconvergence PC is elsewhere.
    pub fn path_to_the_enclosing_reconvergence_pc_is_dropped(m: &mut dyn Component, _p: &SimtStackParams) {
        let io = _p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.set(io.launch_en, 1);
        t.set(io.launch_pc, 0x000);
        t.set(io.launch_mask, 0xF);
        t.step();
        // if at 0x000 (all threads fall through) to build an entry with R = 0x100.
        t.branch(0, 0, false, 0b0000, 0x100, 0x100);
        t.step();
        t.branch(0, 0, false, 0b0101, 0x100, 0x100);
        t.step();
        assert_eq!(t.top(0, false), (0x010, 0x100, 0b1010));
        // Threads 0b0010 jump to 0x100 (= R), the rest fall through; r = 0x200.
        t.branch(0, 0, false, 0b0010, 0x100, 0x200);
        t.step();
        assert_eq!(t.top(0, false), (0x018, 0x200, 0b1000));
        // Reaching 0x200 pops to the reconvergence entry (0x200, R = 0x100).
        t.branch(0, 0, false, 0b1000, 0x200, 0x200);
        t.step();
        assert_eq!(t.top(0, false), (0x200, 0x100, 0b1010));
    }

    pub fn same_cycle_conflicts(m: &mut dyn Component, p: &SimtStackParams) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        for w in [1, 2] {
            t.set(io.launch_en, 1);
            t.set(io.launch_warp, w);
            t.set(io.launch_pc, 0x40);
            t.set(io.launch_mask, 0xFF);
            t.step();
        }
        // Launch wins over an N-mode update of the same warp.
        t.set(io.iss[0].warp, 1);
        t.set(io.iss[0].adv, 1);
        t.set(io.launch_en, 1);
        t.set(io.launch_warp, 1);
        t.set(io.launch_pc, 0x200);
        t.set(io.launch_mask, 0x3);
        t.step();
        assert_eq!(t.top(1, false), (0x200, p.rpc_none(), 0x3));
        // The copy takes the N stack's next value and wins over a P update.
        t.set(io.iss[0].warp, 2);
        t.set(io.iss[0].adv, 1);
        t.set(io.iss[1].warp, 2);
        t.set(io.iss[1].pmode, 1);
        t.branch(1, 2, true, 0xF, 0x400, 0x500);
        t.set(io.iss[0].warp, 2);
        t.set(io.copy_en, 1);
        t.set(io.copy_warp, 2);
        t.step();
        // Port 1 named the same warp as port 0 (which had a command): ignored anyway.
        assert_eq!(t.top(2, true), (0x48, p.rpc_none(), 0xFF));
        assert_eq!(t.top(2, false), (0x48, p.rpc_none(), 0xFF));
        // Two ports, same warp, the lower one idle: the higher one acts.
        t.set(io.iss[0].warp, 2);
        t.set(io.iss[1].warp, 2);
        t.set(io.iss[1].adv, 1);
        t.step();
        assert_eq!(t.top(2, false).0, 0x50);
    }

}

