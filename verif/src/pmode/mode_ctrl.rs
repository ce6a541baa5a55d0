//! Verification of `mode_ctrl` (specification `hw::blocks::pmode::mode_ctrl`,
//! model `models::pmode::mode_ctrl`): its constrained-random driver, its
//! property check and its directed (golden) scenarios.

use super::InView;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::mode_ctrl::{action as act, op, ModeCtrlIo, ModeCtrlParams};
use hw::iface::InterfaceExt;
use models::bits::mask;
use models::pmode::mode_ctrl::ModeCtrlModel;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, PortId};
use std::sync::Arc;

/// Registry entry: the driver of `mode_ctrl`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "mode_ctrl",
    driver: |p, seed| Ok(Box::new(ModeCtrlDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// Positions of the strobes (`sb_fire` .. `st_br`) in a strobe array.
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

// ---------------------------------------------------------------------------
// Driver

/// Constrained-random stimulus for `mode_ctrl`. The status inputs normally
/// come from the scoreboard, P-queue and rename blocks; here they are drawn
/// with biases that make every rule fire (long sources, pending operands, a
/// queue with results in flight or full, a hit that is or is not ready, no free register),
/// per mode. A private shadow copy of the model tells the driver each warp's
/// mode and triggering register so that exits (writeback of the triggering
/// load) happen at realistic rates; it never looks at the component under
/// test.
pub struct ModeCtrlDriver {
    p: ModeCtrlParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    shadow: ModeCtrlModel,
    io: ModeCtrlIo<PortId>,
    cycle: u64,
}

impl ModeCtrlDriver {
    pub fn new(p: &ModeCtrlParams, seed: u64) -> Self {
        let layout = InputLayout::of(&p.ports());
        let shadow = ModeCtrlModel::new(p);
        ModeCtrlDriver { p: p.clone(), rng: ChaCha8Rng::seed_from_u64(seed), shadow, io: p.ids(), cycle: 0, layout }
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
            f.set_bool(self.io.rst, true);
            self.feed_shadow(f);
            return;
        }
        if self.rng.random_range(0..300) == 0 {
            f.set_bool(self.io.launch_en, true);
            f.set(self.io.launch_warp, self.rng.random_range(0..nw));
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
            // Several destinations: a pair or all of them, now and then.
            let ndst = match (has_dst, self.rng.random_range(0..6)) {
                (false, _) => 0,
                (true, 0..3) => 1,
                (true, 3..5) => 2.min(p.dsts),
                _ => p.dsts,
            };
            let nsrc = match opc {
                op::BARRIER | op::EXIT => 0,
                op::BRANCH => 1,
                _ if self.rng.random_range(0..4) == 0 => self.rng.random_range(0..=p.srcs),
                _ => self.rng.random_range(0..=2.min(p.srcs)),
            };
            let dst = match trig {
                Some(t) if self.rng.random_range(0..6) == 0 => t,
                _ => self.reg(regs),
            };
            // Status biases: long sources are common in N-mode (to trigger) and
            // in P-mode (to skip); most other conditions are occasional.
            let long_p = if trig.is_some() { 0.25 } else { 0.15 };
            let d = self.io.iss[k as usize].clone();
            let v = [
                (d.valid, (self.rng.random_range(0..8) != 0) as u64),
                (d.warp, w),
                (d.pc, self.rng.random::<u64>()),
                (d.op, opc),
                (d.src_pending, self.rng.random_bool(0.2) as u64),
                (d.pq_ok, self.rng.random_bool(0.8) as u64),
                (d.pq_full, self.rng.random_bool(0.3) as u64),
                (d.pq_hit, self.rng.random_bool(0.3) as u64),
                (d.pq_rdy, self.rng.random_bool(0.7) as u64),
                (d.rn_free, self.rng.random_bool(0.9) as u64),
                (d.dst_long, self.rng.random_bool(0.3) as u64),
                (d.diverged, self.rng.random_bool(0.3) as u64),
            ];
            for (id, val) in v {
                f.set(id, val);
            }
            for (s, o) in d.src.iter().enumerate() {
                f.set(o.reg, self.reg(regs));
                f.set_bool(o.vld, (s as u32) < nsrc);
                f.set_bool(d.src_long[s], self.rng.random_bool(long_p));
            }
            let mut pend = 0u64;
            for (x, o) in d.dst.iter().enumerate() {
                // Destination x > 0: the next register (a pair, a vector) or any.
                let r = if x == 0 {
                    dst
                } else if self.rng.random_range(0..4) == 0 {
                    self.reg(regs)
                } else {
                    (dst + x as u64) % regs
                };
                f.set(o.reg, r);
                f.set_bool(o.vld, (x as u32) < ndst);
                pend |= (self.rng.random_bool(0.2) as u64) << x;
            }
            f.set(d.dst_pending, pend);
        }
        // Writebacks: the triggering load of a P-mode warp now and then, plus
        // other N-mode results and P-mode results of warps that have some in
        // flight (a new episode waits for them).
        let mut taken = vec![0u64; hot as usize];
        for j in 0..p.wb_ports {
            if !self.rng.random_bool(0.3) {
                continue;
            }
            let w = self.rng.random_range(0..hot);
            let p_left = self.shadow.flight(w as usize) > taken[w as usize];
            let (reg, pm) = match self.shadow.trig_reg(w as usize) {
                Some(t) if self.rng.random_range(0..6) == 0 => (t, false),
                _ => (self.reg(regs), p_left && self.rng.random_bool(0.6)),
            };
            taken[w as usize] += pm as u64;
            let d = &self.io.wb[j as usize];
            f.set_bool(d.en, true);
            f.set(d.warp, w);
            f.set(d.reg, reg);
            f.set_bool(d.pmode, pm);
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
///   dependence in N-mode, no P-mode result of the warp in flight, one per
///   cycle), P → N only by the
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
///   strobes follow the action; a PREEXEC is recorded (`pq_push`) only when
///   the queue takes it, and executes unrecorded when the queue is full.
pub fn check(p: &ModeCtrlParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (rst, len, lw) = (io.rst, io.launch_en, io.launch_warp);
    // Per port, the outputs in port order: pmode action and the ten strobes
    // sb_fire .. st_br.
    let ko: Vec<Vec<PortId>> = io
        .iss
        .iter()
        .map(|d| {
            vec![
                d.pmode, d.action, d.sb_fire, d.sb_long, d.sb_skip, d.pq_push, d.pq_pop, d.rn_alloc, d.rn_reuse, d.rn_write,
                d.st_adv, d.st_br, d.rn_moved,
            ]
        })
        .collect();
    let wbs: Vec<[PortId; 4]> = io.wb.iter().map(|d| [d.en, d.warp, d.reg, d.pmode]).collect();
    let (o_mode, o_halted) = (io.mode, io.halted);
    let o_start = [io.start_en, io.start_warp, io.start_pc];
    let nw = p.warps as usize;
    // Checker books: Some(trig) = P-mode; halted; shared store skipped; barrier passed.
    let mut trig: Vec<Option<u64>> = vec![None; nw];
    let mut halted = vec![false; nw];
    let mut sst = vec![false; nw];
    let mut bar = vec![false; nw];
    let mut tredef = vec![false; nw];
    // P-mode results in flight per warp (modulo the counter's width).
    let mut flight = vec![0u64; nw];
    let fmask = (1u64 << p.flight_bits) - 1;
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
        // Exits at this edge, from the books at the start of the cycle.
        let mut exited = vec![false; nw];
        for s in &wbs {
            let w = iv.u(s[1]) as usize;
            if iv.b(s[0]) && !iv.b(s[3]) && w < nw && trig[w] == Some(iv.u(s[2])) {
                exited[w] = true;
            }
        }
        let mut actions = Vec::new();
        let mut results = Vec::new();
        let mut trig_port = None;
        for (k, d) in io.iss.iter().enumerate() {
            let (valid, w, opc) = (iv.b(d.valid), iv.u(d.warp) as usize, iv.u(d.op));
            let (src_pending, dst_pending) = (iv.b(d.src_pending), iv.u(d.dst_pending));
            let (pq_ok, pq_full, pq_hit, pq_rdy, rn_free) = (iv.b(d.pq_ok), iv.b(d.pq_full), iv.b(d.pq_hit), iv.b(d.pq_rdy), iv.b(d.rn_free));
            let partial_redef = iv.b(d.dst_long) && iv.b(d.diverged);
            // The first valid long source, and whether there is one.
            let first_long = d.src.iter().zip(&d.src_long).find(|(o, &l)| iv.b(o.vld) && iv.b(l)).map(|(o, _)| iv.u(o.reg));
            let long_dep = first_long.is_some();
            let dv = d.dst.iter().any(|o| iv.b(o.vld));
            let blocked = io.iss[..k].iter().any(|q| iv.b(q.valid) && iv.u(q.warp) as usize == w);
            let pmode = w < nw && trig[w].is_some();
            let table: Vec<(bool, u64)> = if !valid || w >= nw || blocked {
                vec![(true, act::STALL)]
            } else if !pmode {
                vec![
                    (long_dep && flight[w] == 0 && trig_port.is_none() && !iv.b(io.launch_en), act::TRIGGER),
                    (long_dep, act::STALL),
                    (src_pending || dst_pending != 0, act::STALL),
                    (pq_hit && pq_rdy, act::REUSE),
                    (pq_hit, act::STALL),
                    (true, act::ISSUE),
                ]
            } else {
                // WAW: a valid destination is pending; the triggering register
                // is exempt until P-mode re-defines it.
                let waw = d
                    .dst
                    .iter()
                    .enumerate()
                    .any(|(x, o)| iv.b(o.vld) && (dst_pending >> x) & 1 == 1 && (Some(iv.u(o.reg)) != trig[w] || tredef[w]));
                let forced = [op::SSTORE, op::GSTORE, op::BARRIER].contains(&opc) || (opc == op::SLOAD && (sst[w] || bar[w]));
                vec![
                    (halted[w] || exited[w], act::STALL),
                    (!rn_free, act::STALL),
                    (opc == op::EXIT, act::HALT),
                    (long_dep && opc == op::BRANCH, act::HALT),
                    ((long_dep || forced) && waw, act::STALL),
                    (long_dep || forced, act::SKIP),
                    (src_pending || waw, act::STALL),
                    (opc == op::GLOAD, act::PRELOAD),
                    (opc == op::BRANCH, act::PREEXEC),
                    ((opc == op::ALU || opc == op::SLOAD) && dv && (pq_ok || pq_full) && !partial_redef, act::PREEXEC),
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
            if w < nw && valid && dut.get(ko[k][0])[0] != pmode as u64 {
                return err(format!("port {k}: pmode output disagrees with the mode of warp {w}"));
            }
            // Strobes follow the action.
            let mut s = [false; 11];
            match got {
                act::ISSUE => {
                    s[FIRE] = dv;
                    s[LONG] = dv && opc == op::GLOAD;
                    s[WRITE] = dv;
                    s[BR] = opc == op::BRANCH;
                    s[ADV] = opc != op::BRANCH;
                }
                act::REUSE if p.release == 0 => (s[POP], s[REUSE], s[ADV]) = (true, dv, true),
                act::REUSE => (s[POP], s[WRITE], s[MOVED], s[ADV]) = (true, dv, dv, true),
                act::PREEXEC if opc == op::BRANCH => s[BR] = true,
                act::PREEXEC => (s[ALLOC], s[PUSH], s[FIRE], s[ADV]) = (true, pq_ok, true, true),
                act::PRELOAD | act::SKIP => (s[SKIPS], s[ADV]) = (dv, true),
                _ => {}
            }
            let gs: Vec<bool> = (0..11).map(|n| dut.get(ko[k][2 + n])[0] == 1).collect();
            if gs != s {
                return err(format!("port {k}: strobes {gs:?} for action {}, expected {s:?}", name(got)));
            }
            if got == act::TRIGGER {
                trig_port = Some(k);
            }
            // The register a trigger waits on: the first valid long source.
            let t = first_long.unwrap_or(0);
            let redef = pmode && d.dst.iter().any(|o| iv.b(o.vld) && Some(iv.u(o.reg)) == trig[w]);
            let mut dsts: Vec<u64> = Vec::new();
            for o in d.dst.iter().filter(|o| iv.b(o.vld)) {
                if !dsts.contains(&iv.u(o.reg)) {
                    dsts.push(iv.u(o.reg));
                }
            }
            if got == act::PREEXEC && opc != op::BRANCH && w < nw {
                results.push((w, dsts.len() as u64));
            }
            actions.push((w, got, opc, t, redef));
        }
        let want_start = trig_port.map_or([0, 0, 0], |k| [1, iv.u(io.iss[k].warp), iv.u(io.iss[k].pc)]);
        let got_start = o_start.map(|o| dut.get(o)[0]);
        if got_start != want_start {
            return err(format!("start {got_start:?}, expected {want_start:?}"));
        }
        // Books.
        if iv.b(rst) {
            trig.fill(None);
            halted.fill(false);
            flight.fill(0);
        } else {
            for &(w, n) in &results {
                flight[w] = (flight[w] + n) & fmask;
            }
            for s in &wbs {
                let w = iv.u(s[1]) as usize;
                if iv.b(s[0]) && iv.b(s[3]) && w < nw {
                    flight[w] = flight[w].wrapping_sub(1) & fmask;
                }
            }
            let launched = iv.b(len).then(|| iv.u(lw) as usize);
            for &(w, a, opc, t, redef) in &actions {
                if w >= nw || exited[w] || launched == Some(w) {
                    continue;
                }
                match a {
                    act::TRIGGER => {
                        (trig[w], halted[w], sst[w], bar[w], tredef[w]) = (Some(t), false, false, false, false);
                    }
                    act::HALT => halted[w] = true,
                    act::SKIP if opc == op::SSTORE => sst[w] = true,
                    act::SKIP if opc == op::BARRIER => bar[w] = true,
                    act::PREEXEC if opc != op::BRANCH && redef => tredef[w] = true,
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
                (trig[w], halted[w], sst[w], bar[w], tredef[w], flight[w]) = (None, false, false, false, false, 0);
            }
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests at the default parameters, written against the ports only,
/// run on the reference model and on the generated hardware
/// (`verif/tests/blocks/mode_ctrl.rs`).
pub mod golden {
    use super::*;

    crate::poke_harness!(T, ModeCtrlIo<PortId>);

    impl<'a> T<'a> {
        /// Offer an instruction on port k with healthy status (nothing
        /// pending, queue accepting, a free register).
        fn offer(&mut self, k: usize, warp: u64, opc: u64, srcs: &[(u64, bool)], dst: Option<u64>) {
            let n = self.1.iss[k].clone();
            self.set(n.valid, 1);
            self.set(n.warp, warp);
            self.set(n.pc, 0x100);
            self.set(n.op, opc);
            for (j, &(r, long)) in srcs.iter().enumerate() {
                self.set(n.src[j].reg, r);
                self.set(n.src[j].vld, 1);
                self.set(n.src_long[j], long as u64);
            }
            if let Some(d) = dst {
                self.set(n.dst[0].reg, d);
                self.set(n.dst[0].vld, 1);
            }
            self.set(n.pq_ok, 1);
            self.set(n.rn_free, 1);
        }
        fn action(&mut self, k: usize) -> &'static str {
            let id = self.1.iss[k].action;
            act::NAMES[self.get(id) as usize]
        }
    }

    /// §5.1's skip rules in one episode, and a second episode that starts
    /// clean.
    pub fn skip_rules(p: &ModeCtrlParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        // N-mode: mul $r3, $r0(long) triggers; $r0 becomes the triggering register.
        t.offer(0, 5, op::ALU, &[(2, false), (0, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        assert_eq!((t.get(io.start_en), t.get(io.start_warp), t.get(io.start_pc)), (1, 5, 0x100));
        t.step();
        assert_eq!(t.get(io.mode), 1 << 5);
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
        assert_eq!(t.get(io.halted), 1 << 5);
        // The three pre-executed results come back in P-mode ($r4, $r4, $r7):
        // the episode goes on; the N-mode writeback of $r0 ends it.
        for (reg, pm) in [(4, 1), (4, 1), (7, 1), (0, 0)] {
            assert_eq!(t.get(io.mode), 1 << 5);
            t.set(io.wb[1].en, 1);
            t.set(io.wb[1].warp, 5);
            t.set(io.wb[1].reg, reg);
            t.set(io.wb[1].pmode, pm);
            t.step();
        }
        assert_eq!((t.get(io.mode), t.get(io.halted)), (0, 0));
        // New episode (src1 is the long one this time): flags are clear again.
        t.offer(0, 5, op::ALU, &[(2, false), (9, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        t.step();
        t.offer(0, 5, op::SLOAD, &[(1, false)], Some(4));
        assert_eq!(t.action(0), "preexec");
        // WAW on a pending destination stalls, except on the triggering register.
        t.set(io.iss[0].dst_pending, 1);
        assert_eq!(t.action(0), "stall");
        t.set(io.iss[0].dst[0].reg, 9);
        assert_eq!(t.action(0), "preexec");
        // No free rename register: every P-mode instruction stalls.
        t.set(io.iss[0].rn_free, 0);
        assert_eq!(t.action(0), "stall");
        // The P-queue full: executed without being recorded (no push); an
        // offset out of range with room left: skipped.
        t.set(io.iss[0].rn_free, 1);
        t.set(io.iss[0].pq_ok, 0);
        t.set(io.iss[0].pq_full, 1);
        assert_eq!((t.action(0), t.get(io.iss[0].pq_push), t.get(io.iss[0].rn_alloc)), ("preexec", 0, 1));
        t.set(io.iss[0].pq_full, 0);
        assert_eq!(t.action(0), "skip");
        // A re-definition of a skipped (long) register: pre-executed on the
        // warp's whole path, skipped on one side of a divergent branch.
        t.set(io.iss[0].pq_ok, 1);
        t.set(io.iss[0].dst_long, 1);
        assert_eq!(t.action(0), "preexec");
        t.set(io.iss[0].diverged, 1);
        assert_eq!(t.action(0), "skip");
        t.step();
        t.offer(0, 5, op::GLOAD, &[(1, false)], Some(4));
        t.set(io.iss[0].dst_long, 1);
        t.set(io.iss[0].diverged, 1);
        assert_eq!(t.action(0), "preload");
    }

    /// Once a pre-executed instruction re-defines the triggering register,
    /// that register loses its WAW exemption until the next episode: the
    /// P-mode write in flight would otherwise wipe the `long` mark a later
    /// skipped re-definition sets, and a dependent would pre-execute with the
    /// stale value.
    pub fn trigger_register_redefined(p: &ModeCtrlParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.offer(0, 2, op::ALU, &[(0, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        t.step();
        // Pending $r0 (the triggering load): exempt, so `add $r0` pre-executes.
        t.offer(0, 2, op::ALU, &[(1, false)], Some(0));
        t.set(io.iss[0].dst_pending, 1);
        assert_eq!(t.action(0), "preexec");
        t.step();
        // Its P-mode write is in flight: a long-dependent re-definition of $r0
        // stalls instead of being skipped, and so does an independent one.
        t.offer(0, 2, op::ALU, &[(5, true)], Some(0));
        t.set(io.iss[0].dst_pending, 1);
        assert_eq!(t.action(0), "stall");
        t.set(io.iss[0].src_long[0], 0);
        assert_eq!(t.action(0), "stall");
        t.set(io.iss[0].dst_pending, 0);
        assert_eq!(t.action(0), "preexec");
        t.step();
        // The episode ends at this edge: P-mode stops in this cycle already
        // (the writeback clears $r0 on the P board now, also the long mark a
        // skipped re-definition set). The next episode restores the exemption.
        t.offer(0, 2, op::ALU, &[(0, false)], Some(6));
        assert_eq!(t.action(0), "preexec");
        t.set(io.wb[0].en, 1);
        t.set(io.wb[0].warp, 2);
        t.set(io.wb[0].reg, 0);
        assert_eq!(t.action(0), "stall");
        t.step();
        assert_eq!(t.get(io.mode), 0);
        // Two P-mode results ($r0 and $r6) are still in flight: no new
        // episode until they are written back (their rename registers are
        // freed by the next start).
        t.offer(0, 2, op::ALU, &[(0, true)], Some(3));
        assert_eq!(t.action(0), "stall");
        for (j, reg) in [(0, 0), (1, 6)] {
            t.set(io.wb[j].en, 1);
            t.set(io.wb[j].warp, 2);
            t.set(io.wb[j].reg, reg);
            t.set(io.wb[j].pmode, 1);
        }
        assert_eq!(t.action(0), "stall"); // counted at the edge
        t.step();
        t.offer(0, 2, op::ALU, &[(0, true)], Some(3));
        assert_eq!(t.action(0), "trigger");
        t.step();
        t.offer(0, 2, op::ALU, &[(5, true)], Some(0));
        t.set(io.iss[0].dst_pending, 1);
        assert_eq!(t.action(0), "skip");
    }

    pub fn one_trigger_per_cycle_and_exit_wins(p: &ModeCtrlParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m, io.clone());
        t.offer(0, 1, op::ALU, &[(0, true)], Some(3));
        t.offer(1, 2, op::ALU, &[(4, true)], Some(3));
        assert_eq!((t.action(0), t.action(1)), ("trigger", "stall"));
        t.step();
        t.offer(1, 2, op::ALU, &[(4, true)], Some(3));
        assert_eq!(t.action(1), "trigger");
        t.step();
        assert_eq!(t.get(io.mode), 0b110);
        // Warp 1 halts in the cycle its triggering load returns: exit wins.
        t.offer(0, 1, op::EXIT, &[], None);
        assert_eq!(t.action(0), "halt");
        t.set(io.wb[0].en, 1);
        t.set(io.wb[0].warp, 1);
        t.set(io.wb[0].reg, 0);
        t.step();
        assert_eq!((t.get(io.mode), t.get(io.halted)), (0b100, 0));
        // Launch resets a P-mode warp.
        t.set(io.launch_en, 1);
        t.set(io.launch_warp, 2);
        t.step();
        assert_eq!(t.get(io.mode), 0);
        // Same warp on both ports: the higher one stalls.
        t.offer(0, 3, op::ALU, &[], Some(1));
        t.offer(1, 3, op::ALU, &[], Some(2));
        assert_eq!((t.action(0), t.action(1)), ("issue", "stall"));
    }

}

