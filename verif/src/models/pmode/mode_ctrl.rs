//! Reference model of `mode_ctrl` (specification:
//! `hw::blocks::pmode::mode_ctrl`), its constrained-random driver and its
//! property checks.

use super::common::{mask, out, slot, InView};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::pmode::mode_ctrl::{action as act, op, ModeCtrlParams};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, PortFrame, PortId, PortSpec};
use std::collections::HashMap;
use std::sync::Arc;

/// Input fields of an issue port, in declaration order.
pub const ISS_IN: [&str; 19] = [
    "valid", "warp", "pc", "op", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld", "src_pending", "dst_pending",
    "src0_long", "src1_long", "pq_empty", "pq_ok", "pq_hit", "pq_rdy", "rn_free",
];
/// Output fields of an issue port, in declaration order.
pub const ISS_OUT: [&str; 12] = [
    "pmode", "action", "sb_fire", "sb_long", "sb_skip", "pq_push", "pq_pop", "rn_alloc", "rn_reuse", "rn_write", "st_adv",
    "st_br",
];

/// Every port of `mode_ctrl`, inputs first (`rst` first), in declaration order.
pub fn ports(p: &ModeCtrlParams) -> Vec<PortSpec> {
    let (w, a, pc) = (p.warp_bits(), p.reg_bits(), p.pc_bits);
    let mut v = vec![PortSpec::input("rst", 1), PortSpec::input("launch_en", 1), PortSpec::input("launch_warp", w)];
    for k in 0..p.issue_ports {
        for f in ISS_IN {
            let width = match f {
                "warp" => w,
                "pc" => pc,
                "op" => 3,
                "src0" | "src1" | "dst" => a,
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
    }
    v.push(PortSpec::output("mode", p.warps));
    v.push(PortSpec::output("halted", p.warps));
    for k in 0..p.issue_ports {
        for f in ISS_OUT {
            v.push(PortSpec::output(format!("iss{k}_{f}"), if f == "action" { 3 } else { 1 }));
        }
    }
    v.push(PortSpec::output("start_en", 1));
    v.push(PortSpec::output("start_warp", w));
    v.push(PortSpec::output("start_pc", pc));
    v
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WarpState {
    mode: bool,
    halted: bool,
    sst: bool,
    bar: bool,
    trig: u64,
}

/// Inputs of one issue port for one cycle.
#[derive(Clone, Copy, Debug, Default)]
struct In {
    valid: bool,
    warp: u64,
    pc: u64,
    op: u64,
    src: [u64; 2],
    src_vld: [bool; 2],
    dst: u64,
    dst_vld: bool,
    src_pending: bool,
    dst_pending: bool,
    src_long: [bool; 2],
    pq_empty: bool,
    pq_ok: bool,
    pq_hit: bool,
    pq_rdy: bool,
    rn_free: bool,
}

/// One port's decision with its strobes (in `ISS_OUT` order from `sb_fire`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Dec {
    action: u64,
    strobes: [bool; 10],
}

const FIRE: usize = 0;
const LONG: usize = 1;
const SKIPS: usize = 2;
const PUSH: usize = 3;
const POP: usize = 4;
const ALLOC: usize = 5;
const REUSE: usize = 6;
const WRITE: usize = 7;
const ADV: usize = 8;
const BR: usize = 9;

/// Cycle-accurate reference model of `mode_ctrl`.
pub struct ModeCtrlModel {
    p: ModeCtrlParams,
    io: PortFrame,
    rst: PortId,
    launch: [PortId; 2],
    iss_in: Vec<[PortId; 19]>,
    iss_out: Vec<[PortId; 12]>,
    wb: Vec<[PortId; 4]>,
    o_mode: PortId,
    o_halted: PortId,
    o_start: [PortId; 3],
    st: Vec<WarpState>,
    ins: Vec<In>,
    decs: Vec<Dec>,
    exited: Vec<bool>,
}

impl ModeCtrlModel {
    pub fn new(p: &ModeCtrlParams) -> Self {
        let io = PortFrame::new(ports(p));
        let iss_in = (0..p.issue_ports).map(|k| ISS_IN.map(|f| io.id(&format!("iss{k}_{f}")))).collect();
        let iss_out = (0..p.issue_ports).map(|k| ISS_OUT.map(|f| io.id(&format!("iss{k}_{f}")))).collect();
        let wb = (0..p.wb_ports).map(|j| ["en", "warp", "reg", "pmode"].map(|f| io.id(&format!("wb{j}_{f}")))).collect();
        ModeCtrlModel {
            rst: io.id("rst"),
            launch: [io.id("launch_en"), io.id("launch_warp")],
            iss_in,
            iss_out,
            wb,
            o_mode: io.id("mode"),
            o_halted: io.id("halted"),
            o_start: [io.id("start_en"), io.id("start_warp"), io.id("start_pc")],
            st: vec![WarpState::default(); p.warps as usize],
            ins: vec![In::default(); p.issue_ports as usize],
            decs: vec![Dec::default(); p.issue_ports as usize],
            exited: vec![false; p.warps as usize],
            p: p.clone(),
            io,
        }
    }

    pub fn params(&self) -> &ModeCtrlParams {
        &self.p
    }

    /// The triggering register of warp `w` (for drivers' shadows).
    pub fn trig_reg(&self, w: usize) -> Option<u64> {
        self.st.get(w).filter(|s| s.mode).map(|s| s.trig)
    }

    fn read_inputs(&mut self) {
        for k in 0..self.ins.len() {
            let g = |i: usize| self.io.get_u64(self.iss_in[k][i]);
            let b = |i: usize| g(i) & 1 == 1;
            self.ins[k] = In {
                valid: b(0),
                warp: g(1),
                pc: g(2),
                op: g(3),
                src: [g(4), g(6)],
                src_vld: [b(5), b(7)],
                dst: g(8),
                dst_vld: b(9),
                src_pending: b(10),
                dst_pending: b(11),
                src_long: [b(12), b(13)],
                pq_empty: b(14),
                pq_ok: b(15),
                pq_hit: b(16),
                pq_rdy: b(17),
                rn_free: b(18),
            };
        }
    }

    fn decide(&self, k: usize, lower_trigger: bool) -> Dec {
        let i = self.ins[k];
        let stall = Dec::default();
        let blocked = (0..k).any(|j| self.ins[j].valid && self.ins[j].warp == i.warp);
        let Some(s) = self.st.get(i.warp as usize).copied() else { return stall };
        if !i.valid || blocked {
            return stall;
        }
        let long_dep = (i.src_vld[0] && i.src_long[0]) || (i.src_vld[1] && i.src_long[1]);
        let mut d = Dec::default();
        if !s.mode {
            d.action = if long_dep {
                if i.pq_empty && !lower_trigger {
                    act::TRIGGER
                } else {
                    act::STALL
                }
            } else if i.src_pending || i.dst_pending {
                act::STALL
            } else if i.pq_hit {
                if i.pq_rdy {
                    act::REUSE
                } else {
                    act::STALL
                }
            } else {
                act::ISSUE
            };
        } else {
            let waw = i.dst_vld && i.dst_pending && i.dst != s.trig;
            let forced = matches!(i.op, op::SSTORE | op::GSTORE | op::BARRIER) || (i.op == op::SLOAD && (s.sst || s.bar));
            d.action = if s.halted || !i.rn_free {
                act::STALL
            } else if i.op == op::EXIT || (long_dep && i.op == op::BRANCH) {
                act::HALT
            } else if long_dep || forced {
                if waw {
                    act::STALL
                } else {
                    act::SKIP
                }
            } else if i.src_pending || waw {
                act::STALL
            } else {
                match i.op {
                    op::ALU | op::SLOAD if i.dst_vld && i.pq_ok => act::PREEXEC,
                    op::GLOAD => act::PRELOAD,
                    op::BRANCH => act::PREEXEC,
                    _ => act::SKIP,
                }
            };
        }
        let sb = &mut d.strobes;
        match d.action {
            act::ISSUE => {
                sb[FIRE] = i.dst_vld;
                sb[LONG] = i.dst_vld && i.op == op::GLOAD;
                sb[WRITE] = i.dst_vld;
                sb[BR] = i.op == op::BRANCH;
                sb[ADV] = i.op != op::BRANCH;
            }
            act::REUSE => {
                sb[POP] = true;
                sb[REUSE] = i.dst_vld;
                sb[ADV] = true;
            }
            act::PREEXEC if i.op == op::BRANCH => sb[BR] = true,
            act::PREEXEC => {
                sb[ALLOC] = true;
                sb[PUSH] = true;
                sb[FIRE] = true;
                sb[ADV] = true;
            }
            act::PRELOAD | act::SKIP => {
                sb[SKIPS] = i.dst_vld;
                sb[ADV] = true;
            }
            _ => {}
        }
        d
    }

    fn decide_all(&mut self) {
        self.read_inputs();
        let mut trig = false;
        for k in 0..self.ins.len() {
            let d = self.decide(k, trig);
            trig |= d.action == act::TRIGGER;
            self.decs[k] = d;
        }
    }
}

impl Component for ModeCtrlModel {
    fn name(&self) -> &str {
        "mode_ctrl"
    }
    sim::frame_ports!(io);

    fn eval(&mut self) {
        self.decide_all();
        let (mut mode, mut halted) = (0u64, 0u64);
        for (w, s) in self.st.iter().enumerate() {
            mode |= (s.mode as u64) << w;
            halted |= ((s.mode && s.halted) as u64) << w;
        }
        self.io.set_u64(self.o_mode, mode);
        self.io.set_u64(self.o_halted, halted);
        let mut start = (false, 0, 0);
        for k in 0..self.ins.len() {
            let i = self.ins[k];
            let d = self.decs[k];
            let pm = self.st.get(i.warp as usize).is_some_and(|s| s.mode);
            self.io.set_bool(self.iss_out[k][0], pm);
            self.io.set_u64(self.iss_out[k][1], d.action);
            for (n, &b) in d.strobes.iter().enumerate() {
                self.io.set_bool(self.iss_out[k][2 + n], b);
            }
            if d.action == act::TRIGGER {
                start = (true, i.warp, i.pc);
            }
        }
        self.io.set_bool(self.o_start[0], start.0);
        self.io.set_u64(self.o_start[1], start.1);
        self.io.set_u64(self.o_start[2], start.2);
    }

    fn tick(&mut self) {
        if self.io.get_bool(self.rst) {
            self.st.fill(WarpState::default());
            return;
        }
        self.decide_all();
        let nw = self.st.len() as u64;
        // Exits, from the state at the start of the cycle.
        self.exited.fill(false);
        for j in 0..self.wb.len() {
            let g = |i: usize| self.io.get_u64(self.wb[j][i]);
            let (en, w, reg, pm) = (g(0) == 1, g(1), g(2), g(3) == 1);
            if en && !pm && w < nw && self.st[w as usize].mode && self.st[w as usize].trig == reg {
                self.exited[w as usize] = true;
            }
        }
        let (len, lw) = (self.io.get_bool(self.launch[0]), self.io.get_u64(self.launch[1]));
        for k in 0..self.ins.len() {
            let (i, d) = (self.ins[k], self.decs[k]);
            let w = i.warp as usize;
            if w >= self.st.len() || self.exited[w] || (len && lw == i.warp) {
                continue;
            }
            let s = &mut self.st[w];
            match d.action {
                act::TRIGGER => {
                    let trig = if i.src_vld[0] && i.src_long[0] { i.src[0] } else { i.src[1] };
                    *s = WarpState { mode: true, halted: false, sst: false, bar: false, trig };
                }
                act::HALT => s.halted = true,
                act::SKIP if i.op == op::SSTORE => s.sst = true,
                act::SKIP if i.op == op::BARRIER => s.bar = true,
                _ => {}
            }
        }
        for w in 0..self.st.len() {
            if self.exited[w] {
                self.st[w].mode = false;
                self.st[w].halted = false;
            }
        }
        if len && lw < nw {
            self.st[lw as usize] = WarpState::default();
        }
    }
}

/// Registry entry: reference model and driver of `mode_ctrl`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "mode_ctrl",
    model: |p| Ok(Box::new(ModeCtrlModel::new(&<ModeCtrlParams as hw::BlockParams>::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(ModeCtrlDriver::new(&<ModeCtrlParams as hw::BlockParams>::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// Driver

/// Constrained-random stimulus for `mode_ctrl`. The status inputs normally
/// come from the scoreboard, P-queue and rename blocks; here they are drawn
/// with biases that make every rule fire (long sources, pending operands, an
/// empty or full queue, a hit that is or is not ready, no free register),
/// per mode. A private shadow copy of the model tells the driver each warp's
/// mode and triggering register so that exits (writeback of the triggering
/// load) happen at realistic rates; it never looks at the component under
/// test.
pub struct ModeCtrlDriver {
    p: ModeCtrlParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    shadow: ModeCtrlModel,
    s: HashMap<String, Slot>,
    cycle: u64,
}

impl ModeCtrlDriver {
    pub fn new(p: &ModeCtrlParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let shadow = ModeCtrlModel::new(p);
        let s = layout.ports().iter().enumerate().map(|(i, q)| (q.name.clone(), Slot(i))).collect();
        ModeCtrlDriver { p: p.clone(), rng: ChaCha8Rng::seed_from_u64(seed), shadow, s, cycle: 0, layout }
    }
}

impl Driver for ModeCtrlDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let c = self.cycle;
        self.cycle += 1;
        let p = self.p.clone();
        let nw = p.warps as u64;
        let regs = p.regs as u64;
        if c == 0 || self.rng.random_range(0..20_000) == 0 {
            f.set_bool(self.s["rst"], true);
            self.feed_shadow(f);
            return;
        }
        if self.rng.random_range(0..300) == 0 {
            f.set_bool(self.s["launch_en"], true);
            f.set(self.s["launch_warp"], self.rng.random_range(0..nw));
        }
        // A few hot warps; registers mostly from a small set so that
        // dependences and triggering registers meet.
        let hot = nw.min(6);
        for k in 0..p.issue_ports {
            let w = if self.rng.random_range(0..50) == 0 {
                self.rng.random_range(0..=mask(p.warp_bits()))
            } else {
                self.rng.random_range(0..hot)
            };
            let trig = self.shadow.trig_reg(w as usize);
            let opc = match self.rng.random_range(0..20) {
                0..8 => op::ALU,
                8..10 => op::SLOAD,
                10..13 => op::GLOAD,
                13 => op::SSTORE,
                14 => op::GSTORE,
                15..18 => op::BRANCH,
                18 => op::BARRIER,
                _ if self.rng.random_range(0..4) == 0 => op::EXIT,
                _ => op::ALU,
            };
            let has_dst = matches!(opc, op::ALU | op::SLOAD | op::GLOAD) && self.rng.random_range(0..20) != 0;
            let nsrc = match opc {
                op::BARRIER | op::EXIT => 0,
                op::BRANCH => 1,
                _ => self.rng.random_range(0..3),
            };
            let dst = match trig {
                Some(t) if self.rng.random_range(0..6) == 0 => t,
                _ => self.reg(regs),
            };
            let (src0, src1) = (self.reg(regs), self.reg(regs));
            // Status biases: long sources are common in N-mode (to trigger) and
            // in P-mode (to skip); most other conditions are occasional.
            let long_p = if trig.is_some() { 0.25 } else { 0.15 };
            let v = [
                ("valid", (self.rng.random_range(0..8) != 0) as u64),
                ("warp", w),
                ("pc", self.rng.random::<u64>()),
                ("op", opc),
                ("src0", src0),
                ("src0_vld", (nsrc >= 1) as u64),
                ("src1", src1),
                ("src1_vld", (nsrc >= 2) as u64),
                ("dst", dst),
                ("dst_vld", has_dst as u64),
                ("src_pending", self.rng.random_bool(0.2) as u64),
                ("dst_pending", self.rng.random_bool(0.2) as u64),
                ("src0_long", self.rng.random_bool(long_p) as u64),
                ("src1_long", self.rng.random_bool(long_p) as u64),
                ("pq_empty", self.rng.random_bool(0.8) as u64),
                ("pq_ok", self.rng.random_bool(0.8) as u64),
                ("pq_hit", self.rng.random_bool(0.3) as u64),
                ("pq_rdy", self.rng.random_bool(0.7) as u64),
                ("rn_free", self.rng.random_bool(0.9) as u64),
            ];
            for (name, val) in v {
                f.set(self.s[&format!("iss{k}_{name}")], val);
            }
        }
        // Writebacks: the triggering load of a P-mode warp now and then, plus
        // other N- and P-mode results.
        for j in 0..p.wb_ports {
            if !self.rng.random_bool(0.3) {
                continue;
            }
            let w = self.rng.random_range(0..hot);
            let (reg, pm) = match self.shadow.trig_reg(w as usize) {
                Some(t) if self.rng.random_range(0..6) == 0 => (t, self.rng.random_range(0..10) == 0),
                _ => (self.reg(regs), self.rng.random_bool(0.5)),
            };
            f.set_bool(self.s[&format!("wb{j}_en")], true);
            f.set(self.s[&format!("wb{j}_warp")], w);
            f.set(self.s[&format!("wb{j}_reg")], reg);
            f.set_bool(self.s[&format!("wb{j}_pmode")], pm);
        }
        self.feed_shadow(f);
    }
}

impl ModeCtrlDriver {
    fn reg(&mut self, regs: u64) -> u64 {
        if self.rng.random_range(0..8) == 0 {
            self.rng.random_range(0..regs)
        } else {
            self.rng.random_range(0..regs.min(6))
        }
    }

    fn feed_shadow(&mut self, f: &Frame) {
        self.shadow.set_inputs(f.words());
        self.shadow.eval();
        self.shadow.tick();
    }
}

// ---------------------------------------------------------------------------
// Property checks

/// Run `st` through `dut` and check every cycle, with the checker's own mode
/// bookkeeping:
/// - the `mode` / `halted` vectors and `iss{k}_pmode` follow exactly the
///   transitions of the specification: N → P only by TRIGGER (a long-latency
///   dependence in N-mode, empty P-queue, one per cycle), P → N only by the
///   N-mode writeback of the triggering register, `launch` resets;
/// - an N-mode warp only stalls, issues, reuses or triggers; a P-mode warp only
///   stalls, pre-executes, pre-loads, skips or halts;
/// - **halt** exactly on EXIT or a branch with a long-latency source;
/// - no free rename register (or a halted warp) → a P-mode instruction
///   stalls;
/// - **skip rules**: stores and barriers are never executed in P-mode; a
///   global load becomes a pre-load; a shared load after a skipped shared
///   store or a barrier in the same episode is skipped;
/// - every action and strobe equals a flat priority table of the rules;
///   strobes follow the action.
pub fn check(p: &ModeCtrlParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    let layout = st.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let li = |n: &str| slot(&layout, n);
    let (rst, len, lw) = (li("rst")?, li("launch_en")?, li("launch_warp")?);
    let mut ki = Vec::new();
    let mut ko = Vec::new();
    for k in 0..p.issue_ports {
        let i: Vec<Slot> = ISS_IN.iter().map(|f| li(&format!("iss{k}_{f}"))).collect::<Result<_, _>>()?;
        let o: Vec<PortId> = ISS_OUT.iter().map(|f| out(dut, &format!("iss{k}_{f}"))).collect::<Result<_, _>>()?;
        ki.push(i);
        ko.push(o);
    }
    let mut wbs = Vec::new();
    for j in 0..p.wb_ports {
        wbs.push([li(&format!("wb{j}_en"))?, li(&format!("wb{j}_warp"))?, li(&format!("wb{j}_reg"))?, li(&format!("wb{j}_pmode"))?]);
    }
    let (o_mode, o_halted) = (out(dut, "mode")?, out(dut, "halted")?);
    let o_start = [out(dut, "start_en")?, out(dut, "start_warp")?, out(dut, "start_pc")?];
    let nw = p.warps as usize;
    // Checker books: Some(trig) = P-mode; halted; shared store skipped; barrier passed.
    let mut trig: Vec<Option<u64>> = vec![None; nw];
    let mut halted = vec![false; nw];
    let mut sst = vec![false; nw];
    let mut bar = vec![false; nw];
    for c in 0..st.cycles() {
        let iv = InView::new(st, c);
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let want_mode: u64 = (0..nw).filter(|&w| trig[w].is_some()).map(|w| 1u64 << w).sum();
        let want_halted: u64 = (0..nw).filter(|&w| trig[w].is_some() && halted[w]).map(|w| 1u64 << w).sum();
        if dut.get(o_mode)[0] != want_mode || dut.get(o_halted)[0] != want_halted {
            return err(format!(
                "mode {:#x} halted {:#x}, expected mode {want_mode:#x} halted {want_halted:#x}",
                dut.get(o_mode)[0],
                dut.get(o_halted)[0]
            ));
        }
        let mut actions = Vec::new();
        let mut trig_port = None;
        for k in 0..ki.len() {
            let g = |n: usize| iv.u(ki[k][n]);
            let b = |n: usize| iv.b(ki[k][n]);
            let (valid, w, opc) = (b(0), g(1) as usize, g(3));
            let (s0v, s1v, dv) = (b(5), b(7), b(9));
            let long_dep = (s0v && b(12)) || (s1v && b(13));
            let blocked = (0..k).any(|j| iv.b(ki[j][0]) && iv.u(ki[j][1]) as usize == w);
            let pmode = w < nw && trig[w].is_some();
            let table: Vec<(bool, u64)> = if !valid || w >= nw || blocked {
                vec![(true, act::STALL)]
            } else if !pmode {
                vec![
                    (long_dep && b(14) && trig_port.is_none(), act::TRIGGER),
                    (long_dep, act::STALL),
                    (b(10) || b(11), act::STALL),
                    (b(16) && b(17), act::REUSE),
                    (b(16), act::STALL),
                    (true, act::ISSUE),
                ]
            } else {
                let waw = dv && b(11) && Some(g(8)) != trig[w];
                let forced = [op::SSTORE, op::GSTORE, op::BARRIER].contains(&opc) || (opc == op::SLOAD && (sst[w] || bar[w]));
                vec![
                    (halted[w], act::STALL),
                    (!b(18), act::STALL),
                    (opc == op::EXIT, act::HALT),
                    (long_dep && opc == op::BRANCH, act::HALT),
                    ((long_dep || forced) && waw, act::STALL),
                    (long_dep || forced, act::SKIP),
                    (b(10) || waw, act::STALL),
                    (opc == op::GLOAD, act::PRELOAD),
                    (opc == op::BRANCH, act::PREEXEC),
                    ((opc == op::ALU || opc == op::SLOAD) && dv && b(15), act::PREEXEC),
                    (true, act::SKIP),
                ]
            };
            let want = table.iter().find(|x| x.0).map_or(act::STALL, |x| x.1);
            let got = dut.get(ko[k][1])[0];
            let name = |a: u64| act::NAMES[a as usize & 7];
            if got != want {
                return err(format!(
                    "port {k} warp {w} ({} mode, {}): action {}, expected {}",
                    if pmode { "P" } else { "N" },
                    op::NAMES[opc as usize & 7],
                    name(got),
                    name(want)
                ));
            }
            // Named properties (implied by the table; kept for clear failures).
            let n_actions = [act::STALL, act::ISSUE, act::REUSE, act::TRIGGER];
            if valid && w < nw && (pmode == n_actions.contains(&got)) && got != act::STALL {
                return err(format!("port {k}: action {} in the wrong mode", name(got)));
            }
            if pmode && [op::SSTORE, op::GSTORE, op::BARRIER].contains(&opc) && [act::PREEXEC, act::PRELOAD].contains(&got) {
                return err(format!("port {k}: a store or barrier was executed in P-mode"));
            }
            if pmode && opc == op::SLOAD && (sst[w] || bar[w]) && got == act::PREEXEC {
                return err(format!("port {k}: shared load pre-executed after a skipped shared store or a barrier"));
            }
            if w < nw && iv.b(ki[k][0]) && dut.get(ko[k][0])[0] != pmode as u64 {
                return err(format!("port {k}: pmode output disagrees with the mode of warp {w}"));
            }
            // Strobes follow the action.
            let mut s = [false; 10];
            match got {
                act::ISSUE => {
                    s[FIRE] = dv;
                    s[LONG] = dv && opc == op::GLOAD;
                    s[WRITE] = dv;
                    s[BR] = opc == op::BRANCH;
                    s[ADV] = opc != op::BRANCH;
                }
                act::REUSE => (s[POP], s[REUSE], s[ADV]) = (true, dv, true),
                act::PREEXEC if opc == op::BRANCH => s[BR] = true,
                act::PREEXEC => (s[ALLOC], s[PUSH], s[FIRE], s[ADV]) = (true, true, true, true),
                act::PRELOAD | act::SKIP => (s[SKIPS], s[ADV]) = (dv, true),
                _ => {}
            }
            let gs: Vec<bool> = (0..10).map(|n| dut.get(ko[k][2 + n])[0] == 1).collect();
            if gs != s {
                return err(format!("port {k}: strobes {gs:?} for action {}, expected {s:?}", name(got)));
            }
            if got == act::TRIGGER {
                trig_port = Some(k);
            }
            actions.push((w, got, opc, if s0v && b(12) { g(4) } else { g(6) }));
        }
        let want_start = trig_port.map_or([0, 0, 0], |k| [1, iv.u(ki[k][1]), iv.u(ki[k][2])]);
        let got_start = o_start.map(|o| dut.get(o)[0]);
        if got_start != want_start {
            return err(format!("start {got_start:?}, expected {want_start:?}"));
        }
        // Books.
        if iv.b(rst) {
            trig.fill(None);
            halted.fill(false);
        } else {
            let mut exited = vec![false; nw];
            for s in &wbs {
                let w = iv.u(s[1]) as usize;
                if iv.b(s[0]) && !iv.b(s[3]) && w < nw && trig[w] == Some(iv.u(s[2])) {
                    exited[w] = true;
                }
            }
            let launched = iv.b(len).then(|| iv.u(lw) as usize);
            for &(w, a, opc, t) in &actions {
                if w >= nw || exited[w] || launched == Some(w) {
                    continue;
                }
                match a {
                    act::TRIGGER => {
                        (trig[w], halted[w], sst[w], bar[w]) = (Some(t), false, false, false);
                    }
                    act::HALT => halted[w] = true,
                    act::SKIP if opc == op::SSTORE => sst[w] = true,
                    act::SKIP if opc == op::BARRIER => bar[w] = true,
                    _ => {}
                }
            }
            for w in 0..nw {
                if exited[w] {
                    trig[w] = None;
                    halted[w] = false;
                }
            }
            if let Some(w) = launched.filter(|&w| w < nw) {
                (trig[w], halted[w], sst[w], bar[w]) = (None, false, false, false);
            }
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests at the default parameters, written against the ports only:
/// run on the reference model here and on the generated hardware in
/// `verif/tests/pmode.rs`.
pub mod golden {
    use super::*;

    crate::poke_harness!(T);

    impl<'a> T<'a> {
        /// Offer an instruction on port k with healthy status (nothing
        /// pending, queue empty and accepting, a free register).
        fn offer(&mut self, k: usize, warp: u64, opc: u64, srcs: &[(u64, bool)], dst: Option<u64>) {
            let n = |x: &str| format!("iss{k}_{x}");
            self.set(&n("valid"), 1);
            self.set(&n("warp"), warp);
            self.set(&n("pc"), 0x100);
            self.set(&n("op"), opc);
            for (j, &(r, long)) in srcs.iter().enumerate() {
                self.set(&n(&format!("src{j}")), r);
                self.set(&n(&format!("src{j}_vld")), 1);
                self.set(&n(&format!("src{j}_long")), long as u64);
            }
            if let Some(d) = dst {
                self.set(&n("dst"), d);
                self.set(&n("dst_vld"), 1);
            }
            self.set(&n("pq_empty"), 1);
            self.set(&n("pq_ok"), 1);
            self.set(&n("rn_free"), 1);
        }
        fn action(&mut self, k: usize) -> &'static str {
            act::NAMES[self.get(&format!("iss{k}_action")) as usize]
        }
    }

    /// §5.1's skip rules in one episode, and a second episode that starts
    /// clean.
    pub fn skip_rules(m: &mut dyn Component) {
        let mut t = T::new(m);
        // N-mode: mul $r3, $r0(long) triggers; $r0 becomes the triggering register.
        t.offer(0, 5, op::ALU, &[(2, false), (0, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        assert_eq!((t.get("start_en"), t.get("start_warp"), t.get("start_pc")), (1, 5, 0x100));
        t.step();
        assert_eq!(t.get("mode"), 1 << 5);
        type Case = (u64, &'static [(u64, bool)], Option<u64>, &'static str);
        let seq: [Case; 12] = [
            (op::ALU, &[(0, true)], Some(3), "skip"),      // depends on the load
            (op::SLOAD, &[(1, false)], Some(4), "preexec"), // shared load before any store
            (op::GLOAD, &[(1, false)], Some(6), "preload"), // global load -> pre-load
            (op::GSTORE, &[(1, false)], None, "skip"),
            (op::SLOAD, &[(1, false)], Some(4), "preexec"), // global store does not block shared loads
            (op::SSTORE, &[(1, false)], None, "skip"),
            (op::SLOAD, &[(1, false)], Some(4), "skip"), // after a skipped shared store
            (op::ALU, &[(1, false)], Some(7), "preexec"),
            (op::BARRIER, &[], None, "skip"),
            (op::BRANCH, &[(7, false)], None, "preexec"), // independent branch: P stack
            (op::BRANCH, &[(0, true)], None, "halt"),     // depends on the load
            (op::ALU, &[(1, false)], Some(8), "stall"),   // halted
        ];
        for (opc, srcs, dst, want) in seq {
            t.offer(0, 5, opc, srcs, dst);
            assert_eq!(t.action(0), want, "{}", op::NAMES[opc as usize]);
            t.step();
        }
        assert_eq!(t.get("halted"), 1 << 5);
        // A P-mode writeback of $r0 does not end the episode; the N-mode one does.
        for pm in [1, 0] {
            t.set("wb1_en", 1);
            t.set("wb1_warp", 5);
            t.set("wb1_reg", 0);
            t.set("wb1_pmode", pm);
            t.step();
        }
        assert_eq!((t.get("mode"), t.get("halted")), (0, 0));
        // New episode (src1 is the long one this time): flags are clear again.
        t.offer(0, 5, op::ALU, &[(2, false), (9, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        t.step();
        t.offer(0, 5, op::SLOAD, &[(1, false)], Some(4));
        assert_eq!(t.action(0), "preexec");
        // WAW on a pending destination stalls, except on the triggering register.
        t.set("iss0_dst_pending", 1);
        assert_eq!(t.action(0), "stall");
        t.set("iss0_dst", 9);
        assert_eq!(t.action(0), "preexec");
        // No free rename register: every P-mode instruction stalls.
        t.set("iss0_rn_free", 0);
        assert_eq!(t.action(0), "stall");
        // Out of P-queue room: not recorded, so skipped.
        t.set("iss0_rn_free", 1);
        t.set("iss0_pq_ok", 0);
        assert_eq!(t.action(0), "skip");
    }

    pub fn one_trigger_per_cycle_and_exit_wins(m: &mut dyn Component) {
        let mut t = T::new(m);
        t.offer(0, 1, op::ALU, &[(0, true)], Some(3));
        t.offer(1, 2, op::ALU, &[(4, true)], Some(3));
        assert_eq!((t.action(0), t.action(1)), ("trigger", "stall"));
        t.step();
        t.offer(1, 2, op::ALU, &[(4, true)], Some(3));
        t.set("iss1_pq_empty", 0);
        assert_eq!(t.action(1), "stall"); // leftover entries: no new episode
        t.set("iss1_pq_empty", 1);
        assert_eq!(t.action(1), "trigger");
        t.step();
        assert_eq!(t.get("mode"), 0b110);
        // Warp 1 halts in the cycle its triggering load returns: exit wins.
        t.offer(0, 1, op::EXIT, &[], None);
        assert_eq!(t.action(0), "halt");
        t.set("wb0_en", 1);
        t.set("wb0_warp", 1);
        t.set("wb0_reg", 0);
        t.step();
        assert_eq!((t.get("mode"), t.get("halted")), (0b100, 0));
        // Launch resets a P-mode warp.
        t.set("launch_en", 1);
        t.set("launch_warp", 2);
        t.step();
        assert_eq!(t.get("mode"), 0);
        // Same warp on both ports: the higher one stalls.
        t.offer(0, 3, op::ALU, &[], Some(1));
        t.offer(1, 3, op::ALU, &[], Some(2));
        assert_eq!((t.action(0), t.action(1)), ("issue", "stall"));
    }

}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::ComponentExt;

    #[test]
    fn skip_rules() {
        golden::skip_rules(&mut ModeCtrlModel::new(&ModeCtrlParams::default()));
    }

    #[test]
    fn one_trigger_per_cycle_and_exit_wins() {
        golden::one_trigger_per_cycle_and_exit_wins(&mut ModeCtrlModel::new(&ModeCtrlParams::default()));
    }

    #[test]
    fn random_traffic_satisfies_properties() {
        for (p, seed) in [
            (ModeCtrlParams::default(), 1u64),
            (ModeCtrlParams { warps: 5, regs: 8, issue_ports: 3, wb_ports: 1, ..ModeCtrlParams::default() }, 2),
            (ModeCtrlParams { warps: 64, issue_ports: 1, wb_ports: 3, ..ModeCtrlParams::default() }, 3),
        ] {
            let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, seed), 20_000);
            let mut m = ModeCtrlModel::new(&p);
            check(&p, &mut m, &st).unwrap();
        }
    }

    #[test]
    fn driver_exercises_every_action() {
        let p = ModeCtrlParams::default();
        let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, 4), 20_000);
        let mut m = ModeCtrlModel::new(&p);
        crate::run::check_inputs(&m, st.layout()).unwrap();
        let a = m.output("iss0_action").unwrap();
        let mut n = [0u32; 8];
        for c in 0..st.cycles() {
            m.set_inputs(st.cycle(c));
            m.eval();
            n[m.get_u64(a) as usize] += 1;
            m.tick();
        }
        assert!(n.iter().all(|&x| x > 50), "{n:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]
        #[test]
        fn prop_random_params(seed in 0u64..1_000_000, warps in 1u32..20, regs in 2u32..70, ports in 1u32..5, wbp in 1u32..5) {
            let p = ModeCtrlParams { warps, regs, issue_ports: ports, wb_ports: wbp, ..ModeCtrlParams::default() };
            let st = Stimulus::record(&mut ModeCtrlDriver::new(&p, seed), 3_000);
            let mut m = ModeCtrlModel::new(&p);
            proptest::prop_assert_eq!(check(&p, &mut m, &st), Ok(()));
        }
    }
}
