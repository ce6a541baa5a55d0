//! Verification of the dual-mode scoreboard (`hw::blocks::pmode::scoreboard`,
//! model `models::pmode::scoreboard`): its constrained-random driver and its
//! properties stated over the ports, checkable on any engine.

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::scoreboard::{ScoreboardIo, ScoreboardParams};
use hw::iface::InterfaceExt;
use hw::params::clog2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, PortId};
use std::sync::Arc;

/// A register write in flight: (warp, reg, clears N, clears P).
type InFlight = (u64, u64, bool, bool);

/// Constrained-random scoreboard traffic: issues on random warps (P board for
/// warps the driver has put in P-mode), writebacks mostly of registers the
/// driver knows are in flight, occasional mode entries, exits and resets,
/// and out-of-range register and warp ids.
pub struct ScoreboardDriver {
    p: ScoreboardParams,
    layout: Arc<InputLayout>,
    io: ScoreboardIo<PortId>,
    rng: ChaCha8Rng,
    in_flight: Vec<InFlight>,
    pmode: Vec<bool>,
}

impl ScoreboardDriver {
    pub fn new(p: &ScoreboardParams, seed: u64) -> Self {
        ScoreboardDriver {
            p: p.clone(),
            layout: InputLayout::of(&p.ports()),
            io: p.ids(),
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
        f.set_bool(self.io.rst, reset);
        if reset {
            self.in_flight.clear();
            self.pmode.fill(false);
        }
        for k in 0..self.io.iss.len() {
            let warp = self.warp();
            let pm = self.in_pmode(warp) ^ self.rng.random_bool(0.05);
            let srcs: Vec<(u64, bool)> = (0..self.io.iss[k].src.len()).map(|_| (self.reg(), self.rng.random_bool(0.8))).collect();
            // Destination 0, then (dsts > 1) the others: often the next
            // registers (a 64-bit pair, a vector load), sometimes any.
            let mut dsts: Vec<(u64, bool)> = Vec::new();
            for d in 0..self.io.iss[k].dst.len() as u64 {
                let r = if d > 0 && self.rng.random_bool(0.5) { dsts[0].0 + d } else { self.reg() };
                dsts.push((r, self.rng.random_bool(0.85)));
            }
            let fire = self.rng.random_bool(0.4);
            let long = self.rng.random_bool(0.3);
            let skip = pm && !fire && self.rng.random_bool(0.2);
            let ip = &self.io.iss[k];
            f.set(ip.warp, warp);
            f.set_bool(ip.pmode, pm);
            for (s, &(r, v)) in ip.src.iter().zip(&srcs) {
                f.set(s.reg, r);
                f.set_bool(s.vld, v);
            }
            for (d, &(r, v)) in ip.dst.iter().zip(&dsts) {
                f.set(d.reg, r);
                f.set_bool(d.vld, v);
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
        for j in 0..self.io.wb.len() {
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
            let wb = &self.io.wb[j];
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
        f.set_bool(self.io.copy_en, copy);
        f.set(self.io.copy_warp, cw);
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
    driver: |p, seed| Ok(Box::new(ScoreboardDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Properties of the scoreboard stated over its ports, checkable on any
/// engine (the netlist simulation or the reference model).
pub mod props {
    use super::*;
    use crate::run::{check_inputs, reset_cycle};
    use sim::{Component, ComponentExt};
    use std::collections::HashSet;

    /// One issue port's inputs of a recorded cycle.
    struct Issue {
        warp: u64,
        board: usize,
        srcs: Vec<(u64, bool)>,
        /// (register, valid) per destination.
        dsts: Vec<(u64, bool)>,
        fire: bool,
        long: bool,
        skip: bool,
    }

    /// One writeback port's inputs: (en, warp, reg, n, p).
    type Wb = (bool, u64, u64, bool, bool);

    /// Per-cycle port values the properties need.
    struct Cycle {
        rst: bool,
        iss: Vec<Issue>,
        wbs: Vec<Wb>,
        copy: Option<u64>,
    }

    fn decode(io: &ScoreboardIo<PortId>, st: &Stimulus, c: usize) -> Cycle {
        let (u, b) = (|id| st.u64(c, id), |id| st.bit(c, id));
        Cycle {
            rst: b(io.rst),
            iss: io
                .iss
                .iter()
                .map(|ip| Issue {
                    warp: u(ip.warp),
                    board: u(ip.pmode) as usize,
                    srcs: ip.src.iter().map(|s| (u(s.reg), b(s.vld))).collect(),
                    dsts: ip.dst.iter().map(|d| (u(d.reg), b(d.vld))).collect(),
                    fire: b(ip.fire),
                    long: b(ip.long),
                    skip: b(ip.skip),
                })
                .collect(),
            wbs: io.wb.iter().map(|w| (b(w.en), u(w.warp), u(w.reg), b(w.n), b(w.p))).collect(),
            copy: b(io.copy_en).then(|| u(io.copy_warp)),
        }
    }

    /// "A register is pending from issue until its writeback" and "a
    /// long-latency dependence is reported exactly when a source's long bit is
    /// set", tracked as sets of (board, warp, reg) built only from issue,
    /// writeback, mode-entry and reset events.
    pub fn pending_and_long(comp: &mut dyn Component, p: &ScoreboardParams, stim: &Stimulus) -> Result<(), String> {
        check_inputs(comp, stim.layout())?;
        let out = p.bind(comp).map_err(|e| e.to_string())?;
        let ids = p.ids();
        let in_range = |w: u64, r: u64| w < p.warps as u64 && r < p.regs as u64;
        let mut pending: HashSet<(usize, u64, u64)> = HashSet::new();
        let mut long: HashSet<(usize, u64, u64)> = HashSet::new();
        reset_cycle(comp);
        for c in 0..stim.cycles() {
            let cy = decode(&ids, stim, c);
            crate::run::apply(comp, stim.cycle(c));
            comp.eval();
            let cleared = |b: usize, w: u64, r: u64| cy.wbs.iter().any(|&(en, ww, wr, n, pp)| en && ww == w && wr == r && if b == 1 { pp } else { n });
            for (k, is) in cy.iss.iter().enumerate() {
                let has = |set: &HashSet<(usize, u64, u64)>, r: u64| set.contains(&(is.board, is.warp, r)) && !cleared(is.board, is.warp, r);
                let want_src = is.srcs.iter().any(|&(r, v)| v && has(&pending, r));
                let want_dst = is.dsts.iter().any(|&(r, v)| v && has(&pending, r));
                let want_long = is.srcs.iter().any(|&(r, v)| v && has(&long, r));
                let o = &out.iss[k];
                let mut checks =
                    vec![(o.src_pending, want_src), (o.dst_pending, want_dst), (o.long_dep, want_long), (o.stall, want_src || want_dst)];
                for (s, &(r, v)) in is.srcs.iter().enumerate() {
                    checks.push((o.src_long[s], v && has(&long, r)));
                }
                for (id, want) in checks {
                    if comp.get_bool(id) != want {
                        let name = &comp.ports()[id.0 as usize].name;
                        return Err(format!("cycle {c}: {name} = {} but the issue/writeback history says {want}", !want));
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
            for is in &cy.iss {
                for &(dst, v) in &is.dsts {
                    if v && is.fire && in_range(is.warp, dst) {
                        long.remove(&(is.board, is.warp, dst));
                    }
                }
            }
            for is in &cy.iss {
                for &(dst, v) in &is.dsts {
                    if !v || !in_range(is.warp, dst) {
                        continue;
                    }
                    if is.fire {
                        pending.insert((is.board, is.warp, dst));
                    }
                    if (is.fire && is.long) || is.skip {
                        long.insert((is.board, is.warp, dst));
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
        let ids = p.ids();
        let mem = |sim: &sim::NetlistSim, name: &str| sim.memories().iter().position(|m| m.name == name).expect("array");
        let arrays = [mem(sim, "n_pending"), mem(sim, "n_long"), mem(sim, "p_pending"), mem(sim, "p_long")];
        let row = |sim: &sim::NetlistSim, a: usize, w: u32| sim.mem_word(&sim.memories()[arrays[a]], w).to_vec();
        reset_cycle(sim);
        for c in 0..stim.cycles() {
            let cy = decode(&ids, stim, c);
            let before: Vec<Vec<u64>> = (0..p.warps).flat_map(|w| [row(sim, 0, w), row(sim, 1, w)]).collect();
            crate::run::apply(sim, stim.cycle(c));
            sim.eval();
            sim.tick();
            if cy.rst {
                continue;
            }
            for w in 0..p.warps as u64 {
                let n_activity = cy.iss.iter().any(|i| i.warp == w && i.board == 0 && i.dsts.iter().any(|d| d.1) && (i.fire || i.skip))
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
