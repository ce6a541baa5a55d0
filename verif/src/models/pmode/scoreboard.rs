//! Reference model of the dual-mode scoreboard
//! (`hw::blocks::pmode::scoreboard`; Warped-Preexecution, HPCA 2016, section 4),
//! written from the block's port specification, and its stimulus driver.

use crate::stimulus::{Driver, Frame, InputLayout, Slot};
use bitvec::prelude::*;
use hw::blocks::pmode::scoreboard::{dst_name, ScoreboardParams};
use hw::params::{clog2, BlockParams};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, PortFrame, PortId, PortSpec};
use std::sync::Arc;

/// The scoreboard's ports, in order (`rst` first).
pub fn ports(p: &ScoreboardParams) -> Vec<PortSpec> {
    let (ww, rw) = (clog2(p.warps as u64), clog2(p.regs as u64));
    let mut v = vec![PortSpec::input("rst", 1)];
    for k in 0..p.issue_ports {
        v.push(PortSpec::input(format!("iss{k}_warp"), ww));
        v.push(PortSpec::input(format!("iss{k}_pmode"), 1));
        for s in 0..p.srcs {
            v.push(PortSpec::input(format!("iss{k}_src{s}"), rw));
            v.push(PortSpec::input(format!("iss{k}_src{s}_vld"), 1));
        }
        for d in 0..p.dsts {
            v.push(PortSpec::input(format!("iss{k}_{}", dst_name(d)), rw));
            v.push(PortSpec::input(format!("iss{k}_{}_vld", dst_name(d)), 1));
        }
        for (n, w) in [("fire", 1), ("long", 1), ("skip", 1)] {
            v.push(PortSpec::input(format!("iss{k}_{n}"), w));
        }
    }
    for j in 0..p.wb_ports {
        for (n, w) in [("en", 1), ("warp", ww), ("reg", rw), ("n", 1), ("p", 1)] {
            v.push(PortSpec::input(format!("wb{j}_{n}"), w));
        }
    }
    v.push(PortSpec::input("copy_en", 1));
    v.push(PortSpec::input("copy_warp", ww));
    for k in 0..p.issue_ports {
        for n in ["src_pending", "dst_pending", "stall", "long_dep"] {
            v.push(PortSpec::output(format!("iss{k}_{n}"), 1));
        }
        for s in 0..p.srcs {
            v.push(PortSpec::output(format!("iss{k}_src{s}_long"), 1));
        }
    }
    v
}

struct IssueIds {
    warp: PortId,
    pmode: PortId,
    srcs: Vec<(PortId, PortId)>,
    dsts: Vec<(PortId, PortId)>,
    fire: PortId,
    long: PortId,
    skip: PortId,
    out_src_pending: PortId,
    out_dst_pending: PortId,
    out_stall: PortId,
    out_long_dep: PortId,
    out_src_long: Vec<PortId>,
}

struct WbIds {
    en: PortId,
    warp: PortId,
    reg: PortId,
    n: PortId,
    p: PortId,
}

/// Boards: index `[board][array]`, board 0 = N, 1 = P; array 0 = pending,
/// 1 = long; bit `warp * regs + reg`.
pub struct ScoreboardModel {
    p: ScoreboardParams,
    frame: PortFrame,
    rst: PortId,
    iss: Vec<IssueIds>,
    wbs: Vec<WbIds>,
    copy_en: PortId,
    copy_warp: PortId,
    boards: [[BitVec; 2]; 2],
}

impl ScoreboardModel {
    pub fn new(p: &ScoreboardParams) -> Self {
        let frame = PortFrame::new(ports(p));
        let id = |n: &str| frame.id(n);
        let iss = (0..p.issue_ports)
            .map(|k| IssueIds {
                warp: id(&format!("iss{k}_warp")),
                pmode: id(&format!("iss{k}_pmode")),
                srcs: (0..p.srcs).map(|s| (id(&format!("iss{k}_src{s}")), id(&format!("iss{k}_src{s}_vld")))).collect(),
                dsts: (0..p.dsts).map(|d| (id(&format!("iss{k}_{}", dst_name(d))), id(&format!("iss{k}_{}_vld", dst_name(d))))).collect(),
                fire: id(&format!("iss{k}_fire")),
                long: id(&format!("iss{k}_long")),
                skip: id(&format!("iss{k}_skip")),
                out_src_pending: id(&format!("iss{k}_src_pending")),
                out_dst_pending: id(&format!("iss{k}_dst_pending")),
                out_stall: id(&format!("iss{k}_stall")),
                out_long_dep: id(&format!("iss{k}_long_dep")),
                out_src_long: (0..p.srcs).map(|s| id(&format!("iss{k}_src{s}_long"))).collect(),
            })
            .collect();
        let wbs = (0..p.wb_ports)
            .map(|j| WbIds {
                en: id(&format!("wb{j}_en")),
                warp: id(&format!("wb{j}_warp")),
                reg: id(&format!("wb{j}_reg")),
                n: id(&format!("wb{j}_n")),
                p: id(&format!("wb{j}_p")),
            })
            .collect();
        let bits = (p.warps * p.regs) as usize;
        let empty = || bitvec![0; bits];
        ScoreboardModel {
            p: p.clone(),
            rst: id("rst"),
            copy_en: id("copy_en"),
            copy_warp: id("copy_warp"),
            iss,
            wbs,
            frame,
            boards: [[empty(), empty()], [empty(), empty()]],
        }
    }

    /// Bit index of (warp, reg), if both are in range.
    fn at(&self, warp: u64, reg: u64) -> Option<usize> {
        (warp < self.p.warps as u64 && reg < self.p.regs as u64).then(|| (warp * self.p.regs as u64 + reg) as usize)
    }

    /// Is (warp, reg) written back on `board` this cycle?
    fn written_back(&self, board: usize, warp: u64, reg: u64) -> bool {
        self.wbs.iter().any(|wb| {
            let f = &self.frame;
            f.get_bool(wb.en)
                && f.get_bool(if board == 1 { wb.p } else { wb.n })
                && f.get_u64(wb.warp) == warp
                && f.get_u64(wb.reg) == reg
        })
    }

    /// A bit as a query sees it this cycle (writeback bypass).
    fn query(&self, board: usize, array: usize, warp: u64, reg: u64) -> bool {
        match self.at(warp, reg) {
            Some(i) => self.boards[board][array][i] && !self.written_back(board, warp, reg),
            None => false,
        }
    }

    /// Pending/long bits of one register (for tests).
    pub fn bits(&self, pmode: bool, warp: u32, reg: u32) -> (bool, bool) {
        let b = pmode as usize;
        match self.at(warp as u64, reg as u64) {
            Some(i) => (self.boards[b][0][i], self.boards[b][1][i]),
            None => (false, false),
        }
    }
}

impl Component for ScoreboardModel {
    fn name(&self) -> &str {
        "scoreboard"
    }

    sim::frame_ports!(frame);

    fn eval(&mut self) {
        for k in 0..self.iss.len() {
            let ip = &self.iss[k];
            let f = &self.frame;
            let board = f.get_bool(ip.pmode) as usize;
            let warp = f.get_u64(ip.warp);
            let mut src_pending = false;
            let mut long_dep = false;
            // Up to the block's largest `srcs` (8).
            let mut src_long = [false; 8];
            for (s, &(src, vld)) in ip.srcs.iter().enumerate() {
                if f.get_bool(vld) {
                    src_pending |= self.query(board, 0, warp, f.get_u64(src));
                    src_long[s] = self.query(board, 1, warp, f.get_u64(src));
                    long_dep |= src_long[s];
                }
            }
            let dst_pending = ip.dsts.iter().any(|&(r, v)| f.get_bool(v) && self.query(board, 0, warp, f.get_u64(r)));
            let (a, b, c, d) = (ip.out_src_pending, ip.out_dst_pending, ip.out_stall, ip.out_long_dep);
            self.frame.set_bool(a, src_pending);
            self.frame.set_bool(b, dst_pending);
            self.frame.set_bool(c, src_pending || dst_pending);
            self.frame.set_bool(d, long_dep);
            for (s, &long) in src_long.iter().enumerate().take(self.iss[k].out_src_long.len()) {
                let id = self.iss[k].out_src_long[s];
                self.frame.set_bool(id, long);
            }
        }
    }

    fn tick(&mut self) {
        if self.frame.get_bool(self.rst) {
            for board in &mut self.boards {
                for array in board.iter_mut() {
                    array.fill(false);
                }
            }
            return;
        }
        // 1. Writebacks clear both bits on the boards they name.
        for j in 0..self.wbs.len() {
            let wb = &self.wbs[j];
            let f = &self.frame;
            if !f.get_bool(wb.en) {
                continue;
            }
            if let Some(i) = self.at(f.get_u64(wb.warp), f.get_u64(wb.reg)) {
                for (board, sel) in [(0, wb.n), (1, wb.p)] {
                    if f.get_bool(sel) {
                        self.boards[board][0].set(i, false);
                        self.boards[board][1].set(i, false);
                    }
                }
            }
        }
        // 2. Issues: every issuing port first clears `long` of its destination,
        //    then sets pending (and long for long-latency ops); skips set long.
        for pass in 0..2 {
            for k in 0..self.iss.len() {
                let ip = &self.iss[k];
                let f = &self.frame;
                let board = f.get_bool(ip.pmode) as usize;
                let (fire, long, skip) = (f.get_bool(ip.fire), f.get_bool(ip.long), f.get_bool(ip.skip));
                for d in 0..ip.dsts.len() {
                    let (r, v) = self.iss[k].dsts[d];
                    let f = &self.frame;
                    if !f.get_bool(v) {
                        continue;
                    }
                    let Some(i) = self.at(f.get_u64(self.iss[k].warp), f.get_u64(r)) else { continue };
                    if pass == 0 && fire {
                        self.boards[board][1].set(i, false);
                    }
                    if pass == 1 {
                        if fire {
                            self.boards[board][0].set(i, true);
                        }
                        if (fire && long) || skip {
                            self.boards[board][1].set(i, true);
                        }
                    }
                }
            }
        }
        // 3. Mode entry: the P board of the warp becomes its (updated) N board.
        let cw = self.frame.get_u64(self.copy_warp);
        if self.frame.get_bool(self.copy_en) && cw < self.p.warps as u64 {
            let regs = self.p.regs as usize;
            let r = cw as usize * regs..(cw as usize + 1) * regs;
            for array in 0..2 {
                let row: BitVec = self.boards[0][array][r.clone()].to_bitvec();
                self.boards[1][array][r.clone()].copy_from_bitslice(&row);
            }
        }
    }
}

struct IssueSlots {
    warp: Slot,
    pmode: Slot,
    srcs: Vec<(Slot, Slot)>,
    dsts: Vec<(Slot, Slot)>,
    fire: Slot,
    long: Slot,
    skip: Slot,
}

struct WbSlots {
    en: Slot,
    warp: Slot,
    reg: Slot,
    n: Slot,
    p: Slot,
}

/// A register write in flight: (warp, reg, clears N, clears P).
type InFlight = (u64, u64, bool, bool);

/// Constrained-random scoreboard traffic: issues on random warps (P board for
/// warps the driver has put in P-mode), writebacks mostly of registers the
/// driver knows are in flight, occasional mode entries, exits and resets,
/// and out-of-range register and warp ids.
pub struct ScoreboardDriver {
    p: ScoreboardParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    rst: Slot,
    iss: Vec<IssueSlots>,
    wbs: Vec<WbSlots>,
    copy_en: Slot,
    copy_warp: Slot,
    in_flight: Vec<InFlight>,
    pmode: Vec<bool>,
}

impl ScoreboardDriver {
    pub fn new(p: &ScoreboardParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let s = |n: &str| layout.expect(n);
        let iss = (0..p.issue_ports)
            .map(|k| IssueSlots {
                warp: s(&format!("iss{k}_warp")),
                pmode: s(&format!("iss{k}_pmode")),
                srcs: (0..p.srcs).map(|j| (s(&format!("iss{k}_src{j}")), s(&format!("iss{k}_src{j}_vld")))).collect(),
                dsts: (0..p.dsts).map(|d| (s(&format!("iss{k}_{}", dst_name(d))), s(&format!("iss{k}_{}_vld", dst_name(d))))).collect(),
                fire: s(&format!("iss{k}_fire")),
                long: s(&format!("iss{k}_long")),
                skip: s(&format!("iss{k}_skip")),
            })
            .collect();
        let wbs = (0..p.wb_ports)
            .map(|j| WbSlots {
                en: s(&format!("wb{j}_en")),
                warp: s(&format!("wb{j}_warp")),
                reg: s(&format!("wb{j}_reg")),
                n: s(&format!("wb{j}_n")),
                p: s(&format!("wb{j}_p")),
            })
            .collect();
        ScoreboardDriver {
            p: p.clone(),
            rst: s("rst"),
            copy_en: s("copy_en"),
            copy_warp: s("copy_warp"),
            iss,
            wbs,
            layout,
            rng: ChaCha8Rng::seed_from_u64(seed),
            in_flight: Vec::new(),
            pmode: vec![false; p.warps as usize],
        }
    }

    fn warp(&mut self) -> u64 {
        let span = 1u64 << clog2(self.p.warps as u64);
        if self.rng.random_bool(0.02) {
            self.rng.random_range(0..span)
        } else {
            self.rng.random_range(0..self.p.warps as u64)
        }
    }

    fn reg(&mut self) -> u64 {
        let span = 1u64 << clog2(self.p.regs as u64);
        // A small working set makes dependences (and conflicts) frequent.
        match self.rng.random_range(0..10) {
            0 => self.rng.random_range(0..span),
            _ => self.rng.random_range(0..self.p.regs.min(8) as u64),
        }
    }

    fn in_pmode(&self, warp: u64) -> bool {
        self.pmode.get(warp as usize).copied().unwrap_or(false)
    }
}

impl Driver for ScoreboardDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let reset = self.rng.random_bool(0.0005);
        f.set_bool(self.rst, reset);
        if reset {
            self.in_flight.clear();
            self.pmode.fill(false);
        }
        for k in 0..self.iss.len() {
            let warp = self.warp();
            let pm = self.in_pmode(warp) ^ self.rng.random_bool(0.05);
            let srcs: Vec<(u64, bool)> = (0..self.iss[k].srcs.len()).map(|_| (self.reg(), self.rng.random_bool(0.8))).collect();
            let dsts: Vec<(u64, bool)> = (0..self.iss[k].dsts.len()).map(|_| (self.reg(), self.rng.random_bool(0.85))).collect();
            let fire = self.rng.random_bool(0.4);
            let long = self.rng.random_bool(0.3);
            let skip = pm && !fire && self.rng.random_bool(0.2);
            let ip = &self.iss[k];
            f.set(ip.warp, warp);
            f.set_bool(ip.pmode, pm);
            for (&(rs, vs), &(r, v)) in ip.srcs.iter().zip(&srcs) {
                f.set(rs, r);
                f.set_bool(vs, v);
            }
            for (&(rs, vs), &(r, v)) in ip.dsts.iter().zip(&dsts) {
                f.set(rs, r);
                f.set_bool(vs, v);
            }
            f.set_bool(ip.fire, fire);
            f.set_bool(ip.long, long);
            f.set_bool(ip.skip, skip);
            for &(dst, dst_vld) in &dsts {
                if fire && dst_vld && !reset {
                    self.in_flight.push((warp, dst, !pm, pm));
                }
            }
        }
        for j in 0..self.wbs.len() {
            let en = self.rng.random_bool(0.5);
            let (warp, reg, n, pb) = if !self.in_flight.is_empty() && self.rng.random_bool(0.8) {
                let i = self.rng.random_range(0..self.in_flight.len());
                let mut e = self.in_flight.swap_remove(i);
                // A load issued in N-mode may write back while its warp is in
                // P-mode: then it clears both boards.
                if e.2 && self.in_pmode(e.0) {
                    e.3 = true;
                }
                e
            } else {
                let (w, r) = (self.warp(), self.reg());
                (w, r, self.rng.random_bool(0.5), self.rng.random_bool(0.5))
            };
            let wb = &self.wbs[j];
            f.set_bool(wb.en, en);
            f.set(wb.warp, warp);
            f.set(wb.reg, reg);
            f.set_bool(wb.n, n);
            f.set_bool(wb.p, pb);
            if !en {
                self.in_flight.push((warp, reg, n, pb));
            }
        }
        let copy = self.rng.random_bool(0.03);
        let cw = self.warp();
        f.set_bool(self.copy_en, copy);
        f.set(self.copy_warp, cw);
        if copy && (cw as usize) < self.pmode.len() {
            self.pmode[cw as usize] = true;
        }
        if self.rng.random_bool(0.02) {
            let w = self.rng.random_range(0..self.p.warps as usize);
            self.pmode[w] = false;
        }
        if self.in_flight.len() > 64 {
            self.in_flight.drain(..32);
        }
    }
}

pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "scoreboard",
    model: |p| Ok(Box::new(ScoreboardModel::new(&ScoreboardParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(ScoreboardDriver::new(&ScoreboardParams::from_params(p)?, seed))),
};

/// Properties of the scoreboard stated over its ports, checkable on any
/// engine (the netlist simulation or the reference model).
pub mod props {
    use super::*;
    use crate::run::{check_inputs, reset_cycle};
    use crate::stimulus::Stimulus;
    use sim::ComponentExt;
    use std::collections::HashSet;

    /// One issue port's inputs: warp, board, sources (reg, valid),
    /// destinations (reg, valid), fire, long, skip.
    type Issue = (u64, usize, Vec<(u64, bool)>, Vec<(u64, bool)>, bool, bool, bool);

    /// Per-cycle port values the properties need.
    struct Cycle {
        rst: bool,
        iss: Vec<Issue>,
        wbs: Vec<(bool, u64, u64, bool, bool)>,
        copy: Option<u64>,
    }

    fn decode(p: &ScoreboardParams, l: &InputLayout, w: &[u64]) -> Cycle {
        let g = |n: &str| w[l.range(l.expect(n)).start];
        Cycle {
            rst: g("rst") & 1 == 1,
            iss: (0..p.issue_ports)
                .map(|k| {
                    let srcs = (0..p.srcs).map(|s| (g(&format!("iss{k}_src{s}")), g(&format!("iss{k}_src{s}_vld")) == 1)).collect();
                    (
                        g(&format!("iss{k}_warp")),
                        g(&format!("iss{k}_pmode")) as usize,
                        srcs,
                        (0..p.dsts).map(|d| (g(&format!("iss{k}_{}", dst_name(d))), g(&format!("iss{k}_{}_vld", dst_name(d))) == 1)).collect(),
                        g(&format!("iss{k}_fire")) == 1,
                        g(&format!("iss{k}_long")) == 1,
                        g(&format!("iss{k}_skip")) == 1,
                    )
                })
                .collect(),
            wbs: (0..p.wb_ports)
                .map(|j| {
                    (
                        g(&format!("wb{j}_en")) == 1,
                        g(&format!("wb{j}_warp")),
                        g(&format!("wb{j}_reg")),
                        g(&format!("wb{j}_n")) == 1,
                        g(&format!("wb{j}_p")) == 1,
                    )
                })
                .collect(),
            copy: (g("copy_en") == 1).then(|| g("copy_warp")),
        }
    }

    /// "A register is pending from issue until its writeback" and "a
    /// long-latency dependence is reported exactly when a source's long bit is
    /// set", tracked as sets of (board, warp, reg) built only from issue,
    /// writeback, mode-entry and reset events.
    pub fn pending_and_long(comp: &mut dyn Component, p: &ScoreboardParams, stim: &Stimulus) -> Result<(), String> {
        check_inputs(comp, stim.layout())?;
        let out = |comp: &dyn Component, k: u32, n: &str| comp.get_bool(comp.output(&format!("iss{k}_{n}")).expect("port"));
        let in_range = |w: u64, r: u64| w < p.warps as u64 && r < p.regs as u64;
        let mut pending: HashSet<(usize, u64, u64)> = HashSet::new();
        let mut long: HashSet<(usize, u64, u64)> = HashSet::new();
        reset_cycle(comp);
        for c in 0..stim.cycles() {
            let cy = decode(p, stim.layout(), stim.cycle(c));
            crate::run::apply(comp, stim.cycle(c));
            comp.eval();
            let cleared = |b: usize, w: u64, r: u64| cy.wbs.iter().any(|&(en, ww, wr, n, pp)| en && ww == w && wr == r && if b == 1 { pp } else { n });
            for (k, (w, b, srcs, dsts, ..)) in cy.iss.iter().enumerate() {
                let is = |set: &HashSet<(usize, u64, u64)>, r: u64| set.contains(&(*b, *w, r)) && !cleared(*b, *w, r);
                let want_src = srcs.iter().any(|&(r, v)| v && is(&pending, r));
                let want_dst = dsts.iter().any(|&(r, v)| v && is(&pending, r));
                let want_long = srcs.iter().any(|&(r, v)| v && is(&long, r));
                let k = k as u32;
                let mut checks = vec![
                    ("src_pending".to_string(), want_src),
                    ("dst_pending".to_string(), want_dst),
                    ("long_dep".to_string(), want_long),
                    ("stall".to_string(), want_src || want_dst),
                ];
                for (s, &(r, v)) in srcs.iter().enumerate() {
                    checks.push((format!("src{s}_long"), v && is(&long, r)));
                }
                for (name, want) in checks {
                    if out(comp, k, &name) != want {
                        return Err(format!("cycle {c}: iss{k}_{name} = {} but the issue/writeback history says {want}", !want));
                    }
                }
            }
            comp.tick();
            if cy.rst {
                pending.clear();
                long.clear();
                continue;
            }
            for &(en, w, r, n, pp) in &cy.wbs {
                for (b, sel) in [(0, n), (1, pp)] {
                    if en && sel {
                        pending.remove(&(b, w, r));
                        long.remove(&(b, w, r));
                    }
                }
            }
            for (w, b, _, dsts, fire, _, _) in &cy.iss {
                for &(dst, dst_vld) in dsts {
                    if dst_vld && *fire && in_range(*w, dst) {
                        long.remove(&(*b, *w, dst));
                    }
                }
            }
            for (w, b, _, dsts, fire, is_long, skip) in &cy.iss {
                for &(dst, dst_vld) in dsts {
                    if !dst_vld || !in_range(*w, dst) {
                        continue;
                    }
                    if *fire {
                        pending.insert((*b, *w, dst));
                    }
                    if (*fire && *is_long) || *skip {
                        long.insert((*b, *w, dst));
                    }
                }
            }
            if let Some(cw) = cy.copy {
                for set in [&mut pending, &mut long] {
                    set.retain(|&(b, w, _)| !(b == 1 && w == cw));
                    let n_rows: Vec<u64> = set.iter().filter(|&&(b, w, _)| b == 0 && w == cw).map(|&(_, _, r)| r).collect();
                    for r in n_rows {
                        set.insert((1, cw, r));
                    }
                }
            }
        }
        Ok(())
    }

    /// "Mode switch copies N to P in one cycle and leaves N untouched in
    /// P-mode", on the hardware's own storage: after a cycle with `copy_en`,
    /// the P rows of the warp equal its N rows; a warp's N rows change only in
    /// cycles with N-board activity on that warp (or reset).
    pub fn copy_and_n_untouched(sim: &mut sim::NetlistSim, p: &ScoreboardParams, stim: &Stimulus) -> Result<(), String> {
        check_inputs(sim, stim.layout())?;
        let mem = |sim: &sim::NetlistSim, name: &str| sim.memories().iter().position(|m| m.name == name).expect("array");
        let arrays = [mem(sim, "n_pending"), mem(sim, "n_long"), mem(sim, "p_pending"), mem(sim, "p_long")];
        let row = |sim: &sim::NetlistSim, a: usize, w: u32| sim.mem_word(&sim.memories()[arrays[a]], w).to_vec();
        reset_cycle(sim);
        for c in 0..stim.cycles() {
            let cy = decode(p, stim.layout(), stim.cycle(c));
            let before: Vec<Vec<u64>> = (0..p.warps).flat_map(|w| [row(sim, 0, w), row(sim, 1, w)]).collect();
            crate::run::apply(sim, stim.cycle(c));
            sim.eval();
            sim.tick();
            if cy.rst {
                continue;
            }
            for w in 0..p.warps as u64 {
                let n_activity = cy.iss.iter().any(|i| i.0 == w && i.1 == 0 && i.3.iter().any(|d| d.1) && (i.4 || i.6))
                    || cy.wbs.iter().any(|&(en, ww, _, n, _)| en && n && ww == w);
                let now = [row(sim, 0, w as u32), row(sim, 1, w as u32)];
                if !n_activity && (now[0] != before[2 * w as usize] || now[1] != before[2 * w as usize + 1]) {
                    return Err(format!("cycle {c}: N board of warp {w} changed without N-board activity"));
                }
                if cy.copy == Some(w) && (row(sim, 2, w as u32) != now[0] || row(sim, 3, w as u32) != now[1]) {
                    return Err(format!("cycle {c}: mode entry of warp {w} did not copy the N board to the P board"));
                }
            }
        }
        Ok(())
    }
}
