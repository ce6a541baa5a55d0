//! Reference model of `pmode_unit` (specification:
//! `hw::blocks::pmode::pmode_unit`): the composition of the sub-block
//! reference models — the dual-mode scoreboard's
//! ([`ScoreboardModel`]), the P-queue's, the rename block's, the SIMT
//! stack's and the mode controller's — wired through their ports exactly as
//! the hardware is, plus an SM-like driver and the unit's property checks.

use super::common::{bit, mask, out, slot, InView};
use super::mode_ctrl::ModeCtrlModel;
use super::scoreboard::ScoreboardModel;
use super::pqueue::PqueueModel;
use super::rename::RenameModel;
use super::simt_stack::{Node, Program};
use super::simt_stack::SimtStackModel;
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::pmode::mode_ctrl::{action as act, op};
use hw::blocks::pmode::pmode_unit::PmodeUnitParams;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{words_for, Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// Input fields of a unit issue port, in declaration order.
pub const ISS_IN: [&str; 13] =
    ["valid", "warp", "pc", "op", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld", "taken", "target", "reconv"];
/// Output fields of a unit issue port, in declaration order.
pub const ISS_OUT: [&str; 9] =
    ["action", "src0_renamed", "src0_phys", "src1_renamed", "src1_phys", "pdst", "pq_idx", "stack_pc", "stack_mask"];

/// Every port of `pmode_unit`, inputs first (`rst` first), in declaration order.
pub fn ports(p: &PmodeUnitParams) -> Vec<PortSpec> {
    let (w, a, r, i, pc, l) = (p.warp_bits(), p.reg_bits(), p.phys_bits(), p.idx_bits(), p.pc_bits, p.lanes);
    let mut v = vec![
        PortSpec::input("rst", 1),
        PortSpec::input("init_en", 1),
        PortSpec::input("init_used", p.rename_regs),
        PortSpec::input("launch_en", 1),
        PortSpec::input("launch_warp", w),
        PortSpec::input("launch_pc", pc),
        PortSpec::input("launch_mask", l),
        PortSpec::input("rel_en", 1),
        PortSpec::input("rel_warp", w),
        PortSpec::input("rel_reg", a),
    ];
    for k in 0..p.issue_ports {
        for f in ISS_IN {
            let width = match f {
                "warp" => w,
                "pc" | "target" | "reconv" => pc,
                "op" => 3,
                "src0" | "src1" | "dst" => a,
                "taken" => l,
                _ => 1,
            };
            v.push(PortSpec::input(format!("iss{k}_{f}"), width));
        }
    }
    for j in 0..p.wb_ports {
        v.push(PortSpec::input(format!("wb{j}_en"), 1));
        v.push(PortSpec::input(format!("wb{j}_warp"), w));
        v.push(PortSpec::input(format!("wb{j}_reg"), a));
        v.push(PortSpec::input(format!("wb{j}_pmode"), 1));
        v.push(PortSpec::input(format!("wb{j}_idx"), i));
    }
    v.push(PortSpec::output("mode", p.warps));
    v.push(PortSpec::output("halted", p.warps));
    v.push(PortSpec::output("used", p.rename_regs));
    v.push(PortSpec::output("overflow", 1));
    for k in 0..p.issue_ports {
        for f in ISS_OUT {
            let width = match f {
                "action" => 3,
                "src0_phys" | "src1_phys" | "pdst" => r,
                "pq_idx" => i,
                "stack_pc" => pc,
                "stack_mask" => l,
                _ => 1,
            };
            v.push(PortSpec::output(format!("iss{k}_{f}"), width));
        }
    }
    v
}

// ---------------------------------------------------------------------------
// The composed unit

const SB: usize = 0;
const PQ: usize = 1;
const RN: usize = 2;
const ST: usize = 3;
const MC: usize = 4;

/// Where a wire's value comes from.
#[derive(Clone, Copy, Debug)]
enum Src {
    Unit(PortId),
    Sub(usize, PortId),
}

/// A plain wire into a sub-block input.
#[derive(Clone, Copy, Debug)]
struct Wire {
    from: Src,
    to: (usize, PortId),
}

struct IssGlue {
    warp: PortId,
    dst: PortId,
    rn_bank: PortId,
    pdst_out: PortId,
    action: PortId,
    head_pdst: PortId,
    alloc_phys: PortId,
    rn_reuse_phys: PortId,
    pq_pdst: PortId,
}

struct WbGlue {
    en: PortId,
    pmode: PortId,
    sb_n: PortId,
    sb_p: PortId,
    pq_en: PortId,
}

/// Cycle-accurate reference model of `pmode_unit`: the five sub-block models
/// wired as in the hardware.
pub struct PmodeUnitModel {
    p: PmodeUnitParams,
    io: PortFrame,
    subs: [Box<dyn Component>; 5],
    /// Unit inputs into the sub-blocks: stage 1.
    stage1: Vec<Wire>,
    /// mode_ctrl's `pmode` (the warp's mode) into the other blocks.
    stage_pm: Vec<Wire>,
    /// Sub-block status into mode_ctrl: stage 2.
    stage2: Vec<Wire>,
    /// mode_ctrl commands into the sub-blocks: stage 3.
    stage3: Vec<Wire>,
    /// Sub-block outputs to unit outputs.
    outs: Vec<(Src, PortId)>,
    iss: Vec<IssGlue>,
    wb: Vec<WbGlue>,
    buf: Vec<u64>,
}

fn sid(c: &dyn Component, name: &str, dir: sim::Dir) -> PortId {
    c.port(name, dir).unwrap_or_else(|e| panic!("internal: pmode_unit wiring: {e}"))
}

impl PmodeUnitModel {
    /// The unit of the sub-blocks' reference models.
    pub fn new(p: &PmodeUnitParams) -> Self {
        Self::with_scoreboard(p, Box::new(ScoreboardModel::new(&p.scoreboard())))
    }

    /// The unit with another scoreboard component of the same ports (e.g. a
    /// deliberately broken one, or the netlist simulation of the generator).
    pub fn with_scoreboard(p: &PmodeUnitParams, sb: Box<dyn Component>) -> Self {
        use sim::Dir::{In, Out};
        let io = PortFrame::new(ports(p));
        let subs: [Box<dyn Component>; 5] = [
            sb,
            Box::new(PqueueModel::new(&p.pqueue())),
            Box::new(RenameModel::new(&p.rename())),
            Box::new(SimtStackModel::new(&p.simt_stack())),
            Box::new(ModeCtrlModel::new(&p.mode_ctrl())),
        ];
        let u = |n: &str| Src::Unit(io.id(n));
        let so = |c: usize, n: &str| Src::Sub(c, sid(subs[c].as_ref(), n, Out));
        let si = |c: usize, n: &str| (c, sid(subs[c].as_ref(), n, In));
        let w = |from: Src, to: (usize, PortId)| Wire { from, to };
        let (mut s1, mut spm, mut s2, mut s3, mut outs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for c in 0..5 {
            s1.push(w(u("rst"), si(c, "rst")));
        }
        for n in ["init_en", "init_used", "rel_en", "rel_warp", "rel_reg"] {
            s1.push(w(u(n), si(RN, n)));
        }
        for n in ["launch_en", "launch_warp", "launch_pc", "launch_mask"] {
            s1.push(w(u(n), si(ST, n)));
        }
        for n in ["launch_en", "launch_warp"] {
            s1.push(w(u(n), si(MC, n)));
        }
        for k in 0..p.issue_ports {
            let f = |n: &str| format!("iss{k}_{n}");
            for n in ["valid", "warp", "pc", "op", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld"] {
                s1.push(w(u(&f(n)), si(MC, &f(n))));
            }
            for n in ["warp", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld"] {
                s1.push(w(u(&f(n)), si(SB, &f(n))));
            }
            for n in ["warp", "pc", "src0", "src1", "dst"] {
                s1.push(w(u(&f(n)), si(PQ, &f(n))));
            }
            for n in ["warp", "src0", "src1", "dst"] {
                s1.push(w(u(&f(n)), si(RN, &f(n))));
            }
            for n in ["warp", "taken", "target", "reconv"] {
                s1.push(w(u(&f(n)), si(ST, &f(n))));
            }
            for c in [SB, RN, ST] {
                spm.push(w(so(MC, &f("pmode")), si(c, &f("pmode"))));
            }
            // Status into mode_ctrl.
            for n in ["src_pending", "dst_pending", "src0_long", "src1_long"] {
                s2.push(w(so(SB, &f(n)), si(MC, &f(n))));
            }
            for (from, to) in [("empty", "pq_empty"), ("ok", "pq_ok"), ("hit", "pq_hit"), ("rdy", "pq_rdy")] {
                s2.push(w(so(PQ, &f(from)), si(MC, &f(to))));
            }
            s2.push(w(so(RN, &f("free")), si(MC, &f("rn_free"))));
            // Commands out of mode_ctrl.
            for (from, to) in [("sb_fire", "fire"), ("sb_long", "long"), ("sb_skip", "skip")] {
                s3.push(w(so(MC, &f(from)), si(SB, &f(to))));
            }
            for (from, to) in [("pq_push", "push"), ("pq_pop", "pop")] {
                s3.push(w(so(MC, &f(from)), si(PQ, &f(to))));
            }
            for (from, to) in [("rn_alloc", "alloc"), ("rn_reuse", "reuse"), ("rn_write", "write")] {
                s3.push(w(so(MC, &f(from)), si(RN, &f(to))));
            }
            for (from, to) in [("st_adv", "adv"), ("st_br", "br")] {
                s3.push(w(so(MC, &f(from)), si(ST, &f(to))));
            }
            // Unit outputs.
            outs.push((so(MC, &f("action")), io.id(&f("action"))));
            for n in ["src0_renamed", "src0_phys", "src1_renamed", "src1_phys"] {
                outs.push((so(RN, &f(n)), io.id(&f(n))));
            }
            outs.push((so(PQ, &f("idx")), io.id(&f("pq_idx"))));
            outs.push((so(ST, &f("pc")), io.id(&f("stack_pc"))));
            outs.push((so(ST, &f("mask")), io.id(&f("stack_mask"))));
        }
        for j in 0..p.wb_ports {
            let f = |n: &str| format!("wb{j}_{n}");
            for n in ["en", "warp", "reg"] {
                s1.push(w(u(&f(n)), si(SB, &f(n))));
            }
            for n in ["en", "warp", "reg", "pmode"] {
                s1.push(w(u(&f(n)), si(MC, &f(n))));
            }
            for n in ["warp", "idx"] {
                s1.push(w(u(&f(n)), si(PQ, &f(n))));
            }
        }
        s3.push(w(so(MC, "start_en"), si(SB, "copy_en")));
        s3.push(w(so(MC, "start_warp"), si(SB, "copy_warp")));
        s3.push(w(so(MC, "start_en"), si(ST, "copy_en")));
        s3.push(w(so(MC, "start_warp"), si(ST, "copy_warp")));
        for n in ["start_en", "start_warp", "start_pc"] {
            s3.push(w(so(MC, n), si(PQ, n)));
        }
        for n in ["start_en", "start_warp"] {
            s3.push(w(so(MC, n), si(RN, n)));
        }
        outs.push((so(MC, "mode"), io.id("mode")));
        outs.push((so(MC, "halted"), io.id("halted")));
        outs.push((so(RN, "used"), io.id("used")));
        outs.push((so(ST, "overflow"), io.id("overflow")));
        let iss = (0..p.issue_ports)
            .map(|k| {
                let f = |n: &str| format!("iss{k}_{n}");
                IssGlue {
                    warp: io.id(&f("warp")),
                    dst: io.id(&f("dst")),
                    rn_bank: si(RN, &f("bank")).1,
                    pdst_out: io.id(&f("pdst")),
                    action: sid(subs[MC].as_ref(), &f("action"), Out),
                    head_pdst: sid(subs[PQ].as_ref(), &f("head_pdst"), Out),
                    alloc_phys: sid(subs[RN].as_ref(), &f("alloc_phys"), Out),
                    rn_reuse_phys: si(RN, &f("reuse_phys")).1,
                    pq_pdst: si(PQ, &f("pdst")).1,
                }
            })
            .collect();
        let wb = (0..p.wb_ports)
            .map(|j| {
                let f = |n: &str| format!("wb{j}_{n}");
                WbGlue {
                    en: io.id(&f("en")),
                    pmode: io.id(&f("pmode")),
                    sb_n: si(SB, &f("n")).1,
                    sb_p: si(SB, &f("p")).1,
                    pq_en: si(PQ, &f("en")).1,
                }
            })
            .collect();
        PmodeUnitModel {
            buf: vec![0; words_for(p.rename_regs).max(words_for(p.pc_bits)).max(words_for(p.lanes))],
            p: p.clone(),
            io,
            subs,
            stage1: s1,
            stage_pm: spm,
            stage2: s2,
            stage3: s3,
            outs,
            iss,
            wb,
        }
    }

    fn route(&mut self, wires: usize) {
        let PmodeUnitModel { stage1, stage_pm, stage2, stage3, subs, io, buf, .. } = self;
        let list = match wires {
            0 => stage_pm,
            1 => stage1,
            2 => stage2,
            _ => stage3,
        };
        for wire in list.iter() {
            let v: &[u64] = match wire.from {
                Src::Unit(id) => io.get(id),
                Src::Sub(c, id) => subs[c].get(id),
            };
            let n = v.len();
            buf[..n].copy_from_slice(v);
            subs[wire.to.0].set(wire.to.1, &buf[..n]);
        }
    }

    /// Settle the whole unit for the current inputs.
    fn settle(&mut self) {
        self.route(1);
        self.subs[MC].eval(); // pmode depends on state and warp only
        self.route(0);
        // Glue: register bank of the original destination, writeback board
        // selects, P-queue writeback enable.
        let banks = self.p.banks as u64;
        for g in &self.iss {
            let bank = (self.io.get_u64(g.warp) + self.io.get_u64(g.dst)) & (banks - 1);
            self.subs[RN].set(g.rn_bank, &[bank]);
        }
        for g in &self.wb {
            let (en, pm) = (self.io.get_u64(g.en), self.io.get_u64(g.pmode));
            self.subs[SB].set(g.sb_n, &[1 - pm]);
            self.subs[SB].set(g.sb_p, &[1]);
            self.subs[PQ].set(g.pq_en, &[en & pm]);
        }
        self.subs[RN].eval();
        self.subs[PQ].eval();
        for g in &self.iss {
            let (alloc, head) = (self.subs[RN].get(g.alloc_phys)[0], self.subs[PQ].get(g.head_pdst)[0]);
            self.subs[PQ].set(g.pq_pdst, &[alloc]);
            self.subs[RN].set(g.rn_reuse_phys, &[head]);
        }
        self.subs[SB].eval();
        self.subs[ST].eval();
        self.route(2);
        self.subs[MC].eval();
        self.route(3);
        for c in [SB, PQ, RN, ST] {
            self.subs[c].eval();
        }
        for (from, to) in &self.outs {
            let v: &[u64] = match *from {
                Src::Unit(id) => self.io.get(id),
                Src::Sub(c, id) => self.subs[c].get(id),
            };
            let n = v.len();
            self.buf[..n].copy_from_slice(v);
            self.io.set(*to, &self.buf[..n]);
        }
        for g in &self.iss {
            let a = self.subs[MC].get(g.action)[0];
            let v = if a == act::REUSE { self.subs[PQ].get(g.head_pdst)[0] } else { self.subs[RN].get(g.alloc_phys)[0] };
            self.io.set(g.pdst_out, &[v]);
        }
    }
}

impl Component for PmodeUnitModel {
    fn name(&self) -> &str {
        "pmode_unit"
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        self.settle();
    }
    fn tick(&mut self) {
        self.settle();
        for c in &mut self.subs {
            c.tick();
        }
    }
}

/// Registry entry: reference model and driver of `pmode_unit`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pmode_unit",
    model: |p| Ok(Box::new(PmodeUnitModel::new(&<PmodeUnitParams as hw::BlockParams>::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(PmodeUnitDriver::new(&<PmodeUnitParams as hw::BlockParams>::from_params(p)?, seed))),
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
    s: HashMap<String, Slot>,
    o: HashMap<String, PortId>,
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
        let layout = InputLayout::of(&ports(p));
        let shadow = PmodeUnitModel::new(p);
        let s = layout.ports().iter().enumerate().map(|(i, q)| (q.name.clone(), Slot(i))).collect();
        let o = ports(p)
            .into_iter()
            .filter(|q| q.dir == sim::Dir::Out)
            .map(|q| (q.name.clone(), shadow.output(&q.name).unwrap_or_else(|e| panic!("internal: {e}"))))
            .collect();
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
            s,
            o,
            layout,
            compiler_share,
            active_warps,
        }
    }

    fn feed_shadow(&mut self, f: &Frame) {
        self.shadow.set_inputs(f.words());
        self.shadow.eval();
    }

    fn sh(&self, n: &str) -> u64 {
        self.shadow.get(self.o[n])[0]
    }

    fn offer(&self, f: &mut Frame, k: usize, w: usize) {
        let d = &self.warps[w];
        let Some(kern) = d.kernel.as_ref() else { return };
        let (pc, inst, br) = kern.step(if d.pmode { d.p_pos } else { d.n_pos });
        let sl = |n: &str| self.s[&format!("iss{k}_{n}")];
        f.set_bool(sl("valid"), true);
        f.set(sl("warp"), w as u64);
        f.set(sl("pc"), pc);
        f.set(sl("op"), inst.op);
        for j in 0..2 {
            f.set(sl(&format!("src{j}")), inst.src[j].unwrap_or(0));
            f.set_bool(sl(&format!("src{j}_vld")), inst.src[j].is_some());
        }
        f.set(sl("dst"), inst.dst.unwrap_or(0));
        f.set_bool(sl("dst_vld"), inst.dst.is_some());
        let (taken, target, reconv) = br.unwrap_or((0, 0, 0));
        f.set(sl("taken"), taken);
        f.set(sl("target"), target);
        f.set(sl("reconv"), reconv);
    }

    fn clear_port(&self, f: &mut Frame, k: usize) {
        for n in ISS_IN {
            f.set(self.s[&format!("iss{k}_{n}")], 0);
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
            f.set_bool(self.s["rst"], true);
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
            f.set_bool(self.s["init_en"], true);
            f.set_wide(self.s["init_used"], &words);
        }
        // Modes as the unit sees them now (state only).
        self.feed_shadow(f);
        let mode = self.sh("mode");
        let halted = self.sh("halted");
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
                f.set_bool(self.s["launch_en"], true);
                f.set(self.s["launch_warp"], w as u64);
                f.set(self.s["launch_pc"], base);
                f.set(self.s["launch_mask"], k.prog.launch_mask);
                self.warps[w] = DWarp { kernel: Some(k), ..DWarp::default() };
                self.warps[w].done = true; // not schedulable in its launch cycle
            }
        }
        // Release walk of one exited warp.
        if let Some(w) = (0..nw).find(|&w| self.warps[w].releasing.is_some()) {
            let r = self.warps[w].releasing.unwrap_or(0);
            f.set_bool(self.s["rel_en"], true);
            f.set(self.s["rel_warp"], w as u64);
            f.set(self.s["rel_reg"], r);
            self.warps[w].releasing = (r + 1 < p.regs as u64).then_some(r + 1);
        }
        // Writebacks due.
        self.wbq.sort_by_key(|x| x.due);
        let mut j = 0;
        while j < p.wb_ports as usize && !self.wbq.is_empty() && self.wbq[0].due <= c {
            let x = self.wbq.remove(0);
            let n = |s: &str| self.s[&format!("wb{j}_{s}")];
            f.set_bool(n("en"), true);
            f.set(n("warp"), x.warp);
            f.set(n("reg"), x.reg);
            f.set_bool(n("pmode"), x.pmode);
            f.set(n("idx"), x.idx);
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
                if self.sh(&format!("iss{k}_action")) != act::STALL {
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
            let a = self.sh(&format!("iss{k}_action"));
            let idx = self.sh(&format!("iss{k}_pq_idx"));
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
    let layout = st.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let li = |n: &str| slot(&layout, n);
    let (rst, len, lw) = (li("rst")?, li("launch_en")?, li("launch_warp")?);
    let mut ki = Vec::new();
    let mut ko = Vec::new();
    for k in 0..p.issue_ports {
        ki.push(ISS_IN.iter().map(|f| li(&format!("iss{k}_{f}"))).collect::<Result<Vec<_>, _>>()?);
        ko.push(ISS_OUT.iter().map(|f| out(dut, &format!("iss{k}_{f}"))).collect::<Result<Vec<_>, _>>()?);
    }
    let mut wbs = Vec::new();
    for j in 0..p.wb_ports {
        wbs.push(["en", "warp", "reg", "pmode", "idx"].map(|f| li(&format!("wb{j}_{f}"))).into_iter().collect::<Result<Vec<_>, _>>()?);
    }
    let (o_mode, o_halted, o_used) = (out(dut, "mode")?, out(dut, "halted")?, out(dut, "used")?);
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

/// The Figure 5 walk-through written against the unit's ports only: run on
/// the reference model here and on the generated hardware in
/// `verif/tests/pmode.rs`.
pub mod golden {
    use super::*;

    crate::poke_harness!(T);

    impl<'a> T<'a> {
        /// Offer `pc: op dst, srcs` of warp 0 on port 0.
        fn offer(&mut self, pc: u64, opc: u64, dst: Option<u64>, srcs: &[u64]) {
            self.set("iss0_valid", 1);
            self.set("iss0_pc", pc);
            self.set("iss0_op", opc);
            if let Some(d) = dst {
                self.set("iss0_dst", d);
                self.set("iss0_dst_vld", 1);
            }
            for (j, s) in srcs.iter().enumerate() {
                self.set(&format!("iss0_src{j}"), *s);
                self.set(&format!("iss0_src{j}_vld"), 1);
            }
        }
        fn wb(&mut self, reg: u64, pmode: bool, idx: u64) {
            self.set("wb0_en", 1);
            self.set("wb0_reg", reg);
            self.set("wb0_pmode", pmode as u64);
            self.set("wb0_idx", idx);
        }
        fn action(&mut self) -> &'static str {
            act::NAMES[self.get("iss0_action") as usize]
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
    pub fn figure5_single_warp(m: &mut dyn Component) {
        let mut t = T::new(m);
        let id = t.m.input("init_used").unwrap();
        t.m.set(id, &[0b1111, 0]);
        t.set("init_en", 1);
        t.set("launch_en", 1);
        t.set("launch_pc", 0x80);
        t.set("launch_mask", 0xFFFF_FFFF);
        t.step();
        let (ld, add, mul, sub, set, br) = (0x80, 0x88, 0x90, 0x98, 0xA0, 0xA8);
        // N-mode.
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get("iss0_stack_pc")), ("issue", ld));
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!(t.action(), "issue");
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        t.wb(2, false, 0); // the add completes in the trigger cycle
        assert_eq!((t.action(), t.get("mode")), ("trigger", 0));
        t.step();
        // P-mode.
        assert_eq!(t.get("mode"), 1);
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!((t.action(), t.get("iss0_stack_pc")), ("skip", mul));
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        assert_eq!((t.action(), t.get("iss0_pdst"), t.get("iss0_pq_idx")), ("preexec", 5, 0));
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src1_renamed")), (0, 0));
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        assert_eq!(t.action(), "stall"); // $r1 (sub) in flight
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        t.wb(1, true, 0); // sub's result arrives and bypasses
        assert_eq!((t.action(), t.get("iss0_pdst"), t.get("iss0_pq_idx")), ("preexec", 4, 1));
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 5));
        t.step();
        t.offer(br, op::BRANCH, None, &[4]);
        t.set("iss0_taken", 0xFFFF_FFFF);
        t.set("iss0_target", ld);
        t.set("iss0_reconv", 0xB0);
        t.wb(4, true, 1);
        assert_eq!(t.action(), "preexec");
        t.step();
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get("iss0_stack_pc")), ("preload", ld));
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 5));
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!((t.action(), t.get("iss0_pdst"), t.get("iss0_pq_idx")), ("preexec", 6, 2));
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!(t.action(), "skip");
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        t.wb(0, false, 0); // the first load returns: back to N-mode
        assert_eq!(t.action(), "stall"); // $r2 (second add) still in flight
        t.step();
        // N-mode again, at the first blocked instruction, N stack untouched.
        assert_eq!(t.get("mode"), 0);
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!((t.action(), t.get("iss0_stack_pc")), ("issue", mul));
        t.step();
        t.offer(sub, op::ALU, Some(1), &[2, 5]);
        assert_eq!((t.action(), t.get("iss0_pdst")), ("reuse", 5));
        t.step();
        t.offer(set, op::ALU, Some(4), &[1, 2]);
        assert_eq!((t.action(), t.get("iss0_pdst")), ("reuse", 4));
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 5));
        t.step();
        t.offer(br, op::BRANCH, None, &[4]);
        t.set("iss0_taken", 0xFFFF_FFFF);
        t.set("iss0_target", ld);
        t.set("iss0_reconv", 0xB0);
        assert_eq!((t.action(), t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), ("issue", 1, 4));
        t.step();
        t.offer(ld, op::GLOAD, Some(0), &[1]);
        assert_eq!((t.action(), t.get("iss0_stack_pc"), t.get("iss0_src0_phys")), ("issue", ld, 5));
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!(t.action(), "stall"); // pre-executed, result not back yet
        t.step();
        t.wb(2, true, 2);
        t.step();
        t.offer(add, op::ALU, Some(2), &[2]);
        assert_eq!((t.action(), t.get("iss0_pdst")), ("reuse", 6));
        t.step();
        t.offer(mul, op::ALU, Some(3), &[0, 2]);
        assert_eq!(t.action(), "trigger");
        // Rename registers: compiler's 0-3 plus the reused 4, 5, 6.
        let id = t.m.output("used").unwrap();
        t.m.eval();
        assert_eq!(t.m.get(id), &[0b111_1111, 0]);
    }

}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure5_single_warp() {
        golden::figure5_single_warp(&mut PmodeUnitModel::new(&PmodeUnitParams::default()));
    }

    #[test]
    fn random_kernels_satisfy_properties() {
        for (p, seed, cycles) in [
            (PmodeUnitParams::default(), 1u64, 20_000u64),
            (PmodeUnitParams { warps: 6, rename_regs: 16, entries: 4, issue_ports: 2, ..PmodeUnitParams::default() }, 2, 20_000),
            (PmodeUnitParams { warps: 5, rename_regs: 8, banks: 2, entries: 2, issue_ports: 1, wb_ports: 1, ..PmodeUnitParams::default() }, 3, 20_000),
            (PmodeUnitParams { warps: 9, issue_ports: 3, wb_ports: 3, offset_bits: 6, ..PmodeUnitParams::default() }, 4, 20_000),
        ] {
            let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, seed), cycles);
            let mut m = PmodeUnitModel::new(&p);
            check(&p, &mut m, &st).unwrap_or_else(|e| panic!("{p:?} seed {seed}: {e}"));
        }
    }

    #[test]
    fn driver_exercises_every_action() {
        let p = PmodeUnitParams { warps: 8, rename_regs: 32, ..PmodeUnitParams::default() };
        let st = Stimulus::record(&mut PmodeUnitDriver::new(&p, 11), 30_000);
        let mut m = PmodeUnitModel::new(&p);
        crate::run::check_inputs(&m, st.layout()).unwrap();
        let a: Vec<PortId> = (0..2).map(|k| m.output(&format!("iss{k}_action")).unwrap()).collect();
        let mut n = [0u32; 8];
        for c in 0..st.cycles() {
            m.set_inputs(st.cycle(c));
            m.eval();
            for id in &a {
                n[m.get_u64(*id) as usize] += 1;
            }
            m.tick();
        }
        println!("{:?}", n.iter().zip(act::NAMES).collect::<Vec<_>>());
        assert!(n.iter().all(|&x| x > 20), "{:?}", n.iter().zip(act::NAMES).collect::<Vec<_>>());
    }
}
