//! Reference model of `mode_ctrl` (specification:
//! `hw::blocks::pmode::mode_ctrl`).

use super::PortFeeds;
use crate::Reference;
use hw::blocks::pmode::mode_ctrl::{action as act, op, ModeCtrlIo, ModeCtrlParams};
use sim::{Bind, Component, PortFrame, PortId};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WarpState {
    mode: bool,
    halted: bool,
    sst: bool,
    bar: bool,
    /// A PREEXEC re-defined `trig` in this episode.
    tredef: bool,
    trig: u64,
    /// P-mode results not yet written back (outlives the episode).
    flight: u64,
}

/// Inputs of one issue port for one cycle (up to 8 sources, 4 destinations).
#[derive(Clone, Copy, Debug, Default)]
struct In {
    valid: bool,
    warp: u64,
    pc: u64,
    op: u64,
    src: [u64; 8],
    src_vld: [bool; 8],
    dst: [u64; 4],
    dst_vld: [bool; 4],
    src_pending: bool,
    /// Bit d: destination d is pending (the scoreboard's report).
    dst_pending: u64,
    src_long: [bool; 8],
    pq_ok: bool,
    pq_full: bool,
    pq_hit: bool,
    pq_rdy: bool,
    rn_free: bool,
    dst_long: bool,
    diverged: bool,
}

/// Where one issue port's inputs (`In`, each of one word) are in the
/// frame's words: (register, valid, long) per source, (register, valid) per
/// destination, then the rest in `In`'s order; and its outputs: `action`
/// (with its mask), then the strobes in `Dec`'s order.
#[derive(Clone, Copy, Debug, Default)]
struct InAt {
    src: [[u32; 3]; 8],
    dst: [[u32; 2]; 4],
    rest: [u32; 13],
    action: (u32, u64),
    strobes: [u32; 11],
    pmode: u32,
}

/// One port's decision with its strobes (`sb_fire` .. `st_br`, `rn_moved`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Dec {
    action: u64,
    strobes: [bool; 11],
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
const MOVED: usize = 10;

/// `feeds` bit of the inputs every port's decision reads (writebacks,
/// launch) and of the state's change at the edge: every decision is made
/// again. Without it, the ports from the lowest one whose inputs changed.
const EVERY: usize = 63;

/// Which groups of outputs changed (`ModeCtrlModel::since_edge`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fresh {
    pub pmode: bool,
    pub commands: bool,
    pub start: bool,
}

/// Cycle-accurate reference model of `mode_ctrl`.
pub struct ModeCtrlModel {
    p: ModeCtrlParams,
    pub(crate) frame: PortFrame,
    io: std::sync::Arc<ModeCtrlIo<PortId>>,
    st: Vec<WarpState>,
    ins: Vec<In>,
    /// Where each port's inputs are, as of `PortFrame::moves` `located`.
    at: Vec<InAt>,
    located: Option<u32>,
    decs: Vec<Dec>,
    exited: Vec<bool>,
    /// The warps `exited` marks (to clear them without a sweep).
    exits: Vec<usize>,
    /// Some warp is in P-mode (none: no writeback ends an episode).
    any_pmode: bool,
    /// The issue port whose inputs (`ins`) an input is; the ports read
    /// again at the next decision.
    pub(crate) feeds: PortFeeds,
    /// `mode` and `halted`: the state's (computed at the edge).
    mode_bits: (u64, u64),
    /// `decs` hold for the inputs and state: no input changed since the
    /// last decision (a composition that stores inputs in place clears it).
    pub(crate) decided: bool,
    /// Bit k: port k's decision differs from the one its outputs show.
    changed: u64,
    /// Every valid port's warp is in N-mode (`n_mode_only`).
    n_only: bool,
    /// A `pmode` output changed since a composition last took this.
    pub(crate) pm_changed: bool,
    /// Since a composition last took them at its edge (`Fresh`): a `pmode`
    /// output, a command output (action, strobes), an episode-start output
    /// changed.
    pub(crate) since_edge: Fresh,
}

impl ModeCtrlModel {
    pub fn new(p: &ModeCtrlParams) -> Self {
        let (frame, io) = (p.frame(), p.ids());
        let mut feeds = PortFeeds::new(&frame, PortFeeds::NONE);
        for (k, d) in io.iss.iter().enumerate() {
            let ops = d.src.iter().chain(&d.dst).flat_map(|o| [o.reg, o.vld]);
            let status = [d.valid, d.warp, d.pc, d.op, d.src_pending, d.dst_pending, d.pq_ok, d.pq_full, d.pq_hit, d.pq_rdy, d.rn_free, d.dst_long, d.diverged];
            for id in ops.chain(status).chain(d.src_long.iter().copied()) {
                feeds.feed(id, k);
            }
        }
        for id in io.wb.iter().flat_map(|d| [d.en, d.warp, d.reg, d.pmode]).chain([io.launch_en]) {
            feeds.feed(id, EVERY);
        }
        ModeCtrlModel {
            feeds,
            mode_bits: (0, 0),
            decided: false,
            changed: u64::MAX,
            n_only: false,
            pm_changed: true,
            since_edge: Fresh { pmode: true, commands: true, start: true },
            frame,
            io: sim::shared::shared(io),
            st: vec![WarpState::default(); p.warps as usize],
            ins: vec![In::default(); p.issue_ports as usize],
            at: vec![InAt::default(); p.issue_ports as usize],
            located: None,
            decs: vec![Dec::default(); p.issue_ports as usize],
            exited: vec![false; p.warps as usize],
            exits: Vec::with_capacity(p.wb_ports as usize),
            any_pmode: false,
            p: p.clone(),
        }
    }

    pub fn params(&self) -> &ModeCtrlParams {
        &self.p
    }

    /// Warp `w`'s P-mode results in flight (for drivers' shadows).
    pub fn flight(&self, w: usize) -> u64 {
        self.st.get(w).map_or(0, |s| s.flight)
    }

    /// The triggering register of warp `w` (for drivers' shadows).
    pub fn trig_reg(&self, w: usize) -> Option<u64> {
        self.st.get(w).filter(|s| s.mode).map(|s| s.trig)
    }

    /// Every valid port's warp is in N-mode: the decisions then read no
    /// P-mode status (`pq_ok`, `pq_full`, `rn_free`, `dst_long`,
    /// `diverged`; see `decide`), only the scoreboard's and the unit's
    /// inputs. As of the last `eval` or `eval_modes`.
    pub(crate) fn n_mode_only(&self) -> bool {
        self.n_only
    }

    /// The `pmode` outputs alone, which depend on the state and each port's
    /// `warp` only: what a composition needs of this block before its other
    /// inputs are known. `eval` writes the same values.
    pub fn eval_modes(&mut self) {
        self.locate();
        let (w, mut n_only, mut changed) = (self.frame.words_mut(), true, false);
        for a in &self.at {
            let [valid, warp] = [a.rest[0], a.rest[1]].map(|o| w[o as usize]);
            // The warp's mode, from the state and `warp` alone.
            let pm = self.st.get(warp as usize).is_some_and(|s| s.mode) as u64;
            changed |= w[a.pmode as usize] != pm;
            w[a.pmode as usize] = pm;
            n_only &= pm == 0 || valid & 1 == 0;
        }
        self.n_only = n_only;
        self.pm_changed |= changed;
        self.since_edge.pmode |= changed;
    }

    /// The outputs other than `pmode`, for a composition that called
    /// [`ModeCtrlModel::eval_modes`] after the last change of a port's
    /// `warp` or `valid` and the last edge (`eval` is both).
    pub(crate) fn eval_decisions(&mut self) {
        self.decide_all();
        let mut start = (false, 0, 0);
        let changed = std::mem::take(&mut self.changed);
        self.since_edge.commands |= changed != 0;
        // Located by `decide_all` (`read_inputs`).
        let w = self.frame.words_mut();
        for k in 0..self.ins.len() {
            let (warp, pc, d, a) = (self.ins[k].warp, self.ins[k].pc, &self.decs[k], &self.at[k]);
            if changed >> k & 1 == 1 {
                w[a.action.0 as usize] = d.action & a.action.1;
                for (&o, &b) in a.strobes.iter().zip(&d.strobes) {
                    w[o as usize] = b as u64;
                }
            }
            if d.action == act::TRIGGER {
                start = (true, warp, pc);
            }
        }
        for (id, v) in [(self.io.start_en, start.0 as u64), (self.io.start_warp, start.1), (self.io.start_pc, start.2)] {
            self.since_edge.start |= self.frame.set_changed(id, &[v]);
        }
    }

    /// Set an input; whether its value changed.
    pub(crate) fn set_changed(&mut self, port: PortId, value: &[u64]) -> bool {
        let changed = self.feeds.set(&mut self.frame, port, value);
        self.decided &= !changed;
        changed
    }

    /// Find where the ports' inputs are (`InAt`), unless the frame's ports
    /// have not moved since.
    fn locate(&mut self) {
        if self.located == Some(self.frame.moves()) {
            return;
        }
        let at = |id: PortId| self.frame.span(id).0;
        for (k, d) in self.io.iss.iter().enumerate() {
            let a = &mut self.at[k];
            for (s, o) in d.src.iter().enumerate() {
                a.src[s] = [at(o.reg), at(o.vld), at(d.src_long[s])];
            }
            for (x, o) in d.dst.iter().enumerate() {
                a.dst[x] = [at(o.reg), at(o.vld)];
            }
            let rest = [d.valid, d.warp, d.pc, d.op, d.src_pending, d.dst_pending, d.pq_ok, d.pq_full, d.pq_hit, d.pq_rdy, d.rn_free, d.dst_long, d.diverged];
            a.rest = rest.map(at);
            a.action = self.frame.word(d.action).expect("action is one word");
            let strobes = [d.sb_fire, d.sb_long, d.sb_skip, d.pq_push, d.pq_pop, d.rn_alloc, d.rn_reuse, d.rn_write, d.st_adv, d.st_br, d.rn_moved];
            a.strobes = strobes.map(at);
            a.pmode = at(d.pmode);
        }
        self.located = Some(self.frame.moves());
    }

    /// The issue ports' inputs, of the ports whose inputs changed; what
    /// changed (`feeds` bits).
    fn read_inputs(&mut self) -> u64 {
        let dirty = self.feeds.take();
        self.locate();
        let ModeCtrlModel { frame, at, io, ins, .. } = self;
        let w = frame.words();
        let b = |o: u32| w[o as usize] & 1 == 1;
        for k in (0..ins.len()).filter(|&k| dirty >> k & 1 == 1) {
            let (a, d, i) = (&at[k], &io.iss[k], &mut ins[k]);
            for s in 0..d.src.len() {
                let [r, v, l] = a.src[s];
                (i.src[s], i.src_vld[s], i.src_long[s]) = (w[r as usize], b(v), b(l));
            }
            for x in 0..d.dst.len() {
                let [r, v] = a.dst[x];
                (i.dst[x], i.dst_vld[x]) = (w[r as usize], b(v));
            }
            let [valid, warp, pc, op, src_pending, dst_pending, pq_ok, pq_full, pq_hit, pq_rdy, rn_free, dst_long, diverged] = a.rest;
            (i.valid, i.warp, i.pc, i.op) = (b(valid), w[warp as usize], w[pc as usize], w[op as usize]);
            (i.src_pending, i.dst_pending) = (b(src_pending), w[dst_pending as usize]);
            (i.pq_ok, i.pq_full, i.pq_hit, i.pq_rdy) = (b(pq_ok), b(pq_full), b(pq_hit), b(pq_rdy));
            (i.rn_free, i.dst_long, i.diverged) = (b(rn_free), b(dst_long), b(diverged));
        }
        dirty
    }

    fn decide(&self, k: usize, lower_trigger: bool) -> Dec {
        let i = &self.ins[k];
        let stall = Dec::default();
        let blocked = (0..k).any(|j| self.ins[j].valid && self.ins[j].warp == i.warp);
        let Some(s) = self.st.get(i.warp as usize).copied() else { return stall };
        if !i.valid || blocked {
            return stall;
        }
        let (ns, nd) = (self.p.srcs as usize, self.p.dsts as usize);
        let long_dep = (0..ns).any(|s| i.src_vld[s] && i.src_long[s]);
        let dst_vld = i.dst_vld[..nd].iter().any(|&v| v);
        let dst_pending = i.dst_pending != 0;
        let mut d = Dec::default();
        if !s.mode {
            d.action = if long_dep {
                if s.flight == 0 && !lower_trigger {
                    act::TRIGGER
                } else {
                    act::STALL
                }
            } else if i.src_pending || dst_pending {
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
            let waw = (0..nd).any(|x| i.dst_vld[x] && (i.dst_pending >> x) & 1 == 1 && (i.dst[x] != s.trig || s.tredef));
            let forced = matches!(i.op, op::SSTORE | op::GSTORE | op::BARRIER) || (i.op == op::SLOAD && (s.sst || s.bar));
            d.action = if s.halted || self.exited[i.warp as usize] || !i.rn_free {
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
                    // A partial re-definition of a skipped value is skipped.
                    // Recorded with room in the queue, unrecorded when it is full.
                    op::ALU | op::SLOAD if dst_vld && (i.pq_ok || i.pq_full) && !(i.dst_long && i.diverged) => act::PREEXEC,
                    op::GLOAD => act::PRELOAD,
                    op::BRANCH => act::PREEXEC,
                    _ => act::SKIP,
                }
            };
        }
        let sb = &mut d.strobes;
        match d.action {
            act::ISSUE => {
                sb[FIRE] = dst_vld;
                sb[LONG] = dst_vld && i.op == op::GLOAD;
                sb[WRITE] = dst_vld;
                sb[BR] = i.op == op::BRANCH;
                sb[ADV] = i.op != op::BRANCH;
            }
            act::REUSE => {
                sb[POP] = true;
                if self.p.release == 0 {
                    sb[REUSE] = dst_vld;
                } else {
                    (sb[WRITE], sb[MOVED]) = (dst_vld, dst_vld);
                }
                sb[ADV] = true;
            }
            act::PREEXEC if i.op == op::BRANCH => sb[BR] = true,
            act::PREEXEC => {
                sb[ALLOC] = true;
                sb[PUSH] = i.pq_ok;
                sb[FIRE] = true;
                sb[ADV] = true;
            }
            act::PRELOAD | act::SKIP => {
                sb[SKIPS] = dst_vld;
                sb[ADV] = true;
            }
            _ => {}
        }
        d
    }

    /// The decisions of the ports whose inputs or lower ports' inputs
    /// changed (every port's when the state or a writeback did).
    fn decide_all(&mut self) {
        let dirty = self.read_inputs();
        let n = self.ins.len();
        let from = if dirty >> EVERY & 1 == 1 {
            self.find_exits();
            0
        } else {
            (dirty.trailing_zeros() as usize).min(n)
        };
        // A launch takes the cycle's one episode start (see the generator).
        let mut trig = self.frame.get_bool(self.io.launch_en) || self.decs[..from].iter().any(|d| d.action == act::TRIGGER);
        for k in from..n {
            let d = self.decide(k, trig);
            trig |= d.action == act::TRIGGER;
            if self.decs[k] != d {
                self.decs[k] = d;
                self.changed |= 1 << k;
            }
        }
        self.decided = true;
    }

    /// The warps whose episode a writeback of their triggering register
    /// ends this cycle, from the state at the start of the cycle.
    fn find_exits(&mut self) {
        let nw = self.st.len() as u64;
        for w in self.exits.drain(..) {
            self.exited[w] = false;
        }
        for j in (0..self.io.wb.len()).filter(|_| self.any_pmode) {
            let (f, d) = (&self.frame, &self.io.wb[j]);
            let (en, w, reg, pm) = (f.get_bool(d.en), f.get_u64(d.warp), f.get_u64(d.reg), f.get_bool(d.pmode));
            if en && !pm && w < nw && self.st[w as usize].mode && self.st[w as usize].trig == reg && !self.exited[w as usize] {
                self.exited[w as usize] = true;
                self.exits.push(w as usize);
            }
        }
    }
}

impl Component for ModeCtrlModel {
    fn name(&self) -> &str {
        "mode_ctrl"
    }
    sim::frame_ports!(frame, set_changed);

    fn eval(&mut self) {
        self.eval_modes();
        self.eval_decisions();
    }

    fn tick(&mut self) {
        if self.tick_state() {
            let (mut mode, mut halted) = (0u64, 0u64);
            for (w, s) in self.st.iter().enumerate() {
                mode |= (s.mode as u64) << w;
                halted |= ((s.mode && s.halted) as u64) << w;
            }
            self.mode_bits = (mode, halted);
            self.any_pmode = self.st.iter().any(|s| s.mode);
        }
        self.write_state_outputs();
        self.feeds.mark(1 << EVERY);
    }
}

impl ModeCtrlModel {
    /// Write the outputs that depend on the state alone (`mode`,
    /// `halted`), at the edge: they are valid without an `eval`.
    fn write_state_outputs(&mut self) {
        let (mode, halted) = self.mode_bits;
        self.frame.set_u64(self.io.mode, mode);
        self.frame.set_u64(self.io.halted, halted);
    }

    /// The edge: the warps' states after this cycle's decisions; whether a
    /// warp's mode or halted bit may have changed.
    fn tick_state(&mut self) -> bool {
        // The state changes: the next decisions are new.
        let decided = std::mem::take(&mut self.decided);
        if self.frame.get_bool(self.io.rst) {
            self.st.fill(WarpState::default());
            return true;
        }
        let mut modes = false;
        if !decided {
            self.decide_all();
            self.decided = false;
        }
        let nw = self.st.len() as u64;
        let (len, lw) = (self.frame.get_bool(self.io.launch_en), self.frame.get_u64(self.io.launch_warp));
        for k in 0..self.ins.len() {
            let (i, d) = (&self.ins[k], self.decs[k]);
            let w = i.warp as usize;
            if w >= self.st.len() || self.exited[w] || (len && lw == i.warp) {
                continue;
            }
            let s = &mut self.st[w];
            modes |= matches!(d.action, act::TRIGGER | act::HALT);
            match d.action {
                act::TRIGGER => {
                    // The first valid long source (the last source if none).
                    let ns = self.p.srcs as usize;
                    let first = (0..ns).find(|&j| i.src_vld[j] && i.src_long[j]).unwrap_or(ns - 1);
                    // Read here: the sources' registers reach no output, so
                    // a composition may store them after the decisions.
                    let trig = self.frame.get_u64(self.io.iss[k].src[first].reg);
                    *s = WarpState { mode: true, trig, flight: s.flight, ..WarpState::default() };
                }
                act::HALT => s.halted = true,
                act::SKIP if i.op == op::SSTORE => s.sst = true,
                act::SKIP if i.op == op::BARRIER => s.bar = true,
                act::PREEXEC if i.op != op::BRANCH && (0..4).any(|x| i.dst_vld[x] && i.dst[x] == s.trig) => s.tredef = true,
                _ => {}
            }
        }
        // P-mode results in flight: each PREEXEC adds its distinct valid
        // destinations, each P-mode writeback takes one (modulo the counter).
        let fmask = (1u64 << self.p.flight_bits) - 1;
        let nd = self.p.dsts as usize;
        for k in 0..self.ins.len() {
            let (i, d) = (&self.ins[k], self.decs[k]);
            if d.action == act::PREEXEC && i.op != op::BRANCH && (i.warp as usize) < self.st.len() {
                let n = (0..nd).filter(|&x| i.dst_vld[x] && !(0..x).any(|e| i.dst_vld[e] && i.dst[e] == i.dst[x])).count() as u64;
                let f = &mut self.st[i.warp as usize].flight;
                *f = (*f + n) & fmask;
            }
        }
        for j in 0..self.io.wb.len() {
            let d = &self.io.wb[j];
            let (en, w, pm) = (self.frame.get_bool(d.en), self.frame.get_u64(d.warp), self.frame.get_bool(d.pmode));
            if en && pm && w < nw {
                let f = &mut self.st[w as usize].flight;
                *f = f.wrapping_sub(1) & fmask;
            }
        }
        for &w in &self.exits {
            self.st[w].mode = false;
            self.st[w].halted = false;
            modes = true;
        }
        if len && lw < nw {
            self.st[lw as usize] = WarpState::default();
            modes = true;
        }
        modes
    }
}

impl Reference for ModeCtrlParams {
    type Model = ModeCtrlModel;
    fn model(&self) -> ModeCtrlModel {
        ModeCtrlModel::new(self)
    }
}
