//! Verification of the affine warp's two-level SIMT stack (specification
//! `hw/src/blocks/dac/affine_simt_stack.rs`, model
//! `models::dac::affine_simt_stack`): a flat reference stack, a driver and the
//! comparison.
//!
//! [`FlatStack`] is a second formulation kept on purpose: a plain SIMT stack
//! of per-warp thread masks, with none of the two-level encoding (codes and
//! per-warp stacks written only for mixed warps) that the model and the
//! hardware share; it checks that the paper's encoding loses nothing, which
//! the model cannot check about itself.

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::dac::affine_simt_stack::AffineSimtStackParams;
use hw::iface::InterfaceExt;
use models::dac::affine_simt_stack::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::sync::Arc;

/// Registry entry: the driver of `affine_simt_stack`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "affine_simt_stack",
    driver: |p, seed| Ok(Box::new(StackDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// The flat per-thread reference
// ---------------------------------------------------------------------------

/// A plain SIMT reconvergence stack over all threads of all warps: each entry
/// holds PC, RPC and one 32-bit mask per warp. Same commands and the same
/// reconvergence rules (GPGPU-sim's post-dominator stack), no encoding.
#[derive(Clone, Debug)]
pub struct FlatStack {
    pub warps: usize,
    pub cap: usize,
    pub no_rpc: u64,
    pub entries: Vec<(u64, u64, Vec<u32>)>,
    pub overflow: bool,
    /// Entries written (pushes and init).
    pub entry_writes: u32,
    /// Per-warp masks of written entries that are neither all-ones nor zero:
    /// the only ones the two-level form must store per warp.
    pub mixed_writes: u32,
}

impl FlatStack {
    pub fn new(p: &AffineSimtStackParams) -> Self {
        FlatStack {
            warps: p.warps as usize,
            cap: p.depth as usize,
            no_rpc: no_rpc(p),
            entries: vec![],
            overflow: false,
            entry_writes: 0,
            mixed_writes: 0,
        }
    }

    pub fn reset(&mut self) {
        self.entries.clear();
        self.overflow = false;
        self.entry_writes = 0;
        self.mixed_writes = 0;
    }

    fn count(&mut self, m: &[u32]) {
        self.entry_writes = self.entry_writes.wrapping_add(1);
        self.mixed_writes =
            self.mixed_writes.wrapping_add(m.iter().filter(|&&x| x != 0 && x != u32::MAX).count() as u32);
    }

    pub fn top(&self) -> Option<&(u64, u64, Vec<u32>)> {
        self.entries.last()
    }

    pub fn apply(&mut self, op: u64, pc: u64, pc_fall: u64, rpc: u64, cond: &[u32]) {
        match op {
            OP_INIT => {
                self.entries.clear();
                self.entries.push((pc, self.no_rpc, cond.to_vec()));
                self.count(cond);
                self.overflow = false;
            }
            OP_ADV if !self.entries.is_empty() => {
                let n = self.entries.len();
                self.entries[n - 1].0 = pc;
                if n >= 2 && pc == self.entries[n - 1].1 {
                    self.entries.pop();
                }
            }
            OP_BRANCH if !self.entries.is_empty() => {
                let n = self.entries.len();
                let (_, top_rpc, act) = self.entries[n - 1].clone();
                let taken: Vec<u32> = act.iter().zip(cond).map(|(a, c)| a & c).collect();
                let fall: Vec<u32> = act.iter().zip(cond).map(|(a, c)| a & !c).collect();
                if taken.iter().all(|&m| m == 0) {
                    self.entries[n - 1].0 = pc_fall;
                } else if fall.iter().all(|&m| m == 0) {
                    self.entries[n - 1].0 = pc;
                } else {
                    // The top becomes the reconvergence entry, unless it already
                    // reconverges at the same point (then it is replaced).
                    let replace = n >= 2 && rpc == top_rpc;
                    let mut new: Vec<(u64, u64, Vec<u32>)> = vec![];
                    if pc_fall != rpc {
                        new.push((pc_fall, rpc, fall));
                    }
                    if pc != rpc {
                        new.push((pc, rpc, taken));
                    }
                    let keep = if replace { n - 1 } else { n };
                    if keep + new.len() > self.cap {
                        self.overflow = true;
                        return;
                    }
                    if replace {
                        self.entries.pop();
                    } else {
                        self.entries[n - 1].0 = rpc;
                    }
                    for e in new {
                        self.count(&e.2);
                        self.entries.push(e);
                    }
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Constrained-random control flow for the affine warp: a kernel start
/// (`init`, with absent and partial warps), straight-line advances, branches
/// whose conditions are uniform per warp, uniform over all warps, thread
/// prefixes (`tid < bound`) or random, reconvergence by advancing to the top
/// RPC, nested divergence up to and past the stack depth, branches that
/// reconverge at the target or fall-through, and resets. The driver keeps a
/// flat shadow stack to aim its advances at real reconvergence points; it
/// never reads the model.
pub struct StackDriver {
    p: AffineSimtStackParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    sl: [PortId; 7],
    shadow: FlatStack,
    cycle: u64,
    next_pc: u64,
    styles: Vec<u32>,
}

impl StackDriver {
    pub fn new(p: &AffineSimtStackParams, seed: u64) -> Self {
        Self::with_styles(p, seed, &[0, 1, 2, 3, 4, 5])
    }

    /// Restrict branch conditions to some styles: 0 all taken, 1 none, 2
    /// `tid < bound` over the whole SM, 3 one random mask for every warp, 4
    /// per-warp all/none/random, 5 random per warp.
    pub fn with_styles(p: &AffineSimtStackParams, seed: u64, styles: &[u32]) -> Self {
        let layout = InputLayout::of(&p.ports());
        let io = p.ids();
        // rst op pc pc_fall rpc cond rd_warp
        let sl = [io.rst, io.op, io.pc, io.pc_fall, io.rpc, io.cond, io.rd_warp];
        StackDriver {
            p: p.clone(),
            layout,
            rng: ChaCha8Rng::seed_from_u64(seed),
            sl,
            shadow: FlatStack::new(p),
            cycle: 0,
            next_pc: 0x100,
            styles: styles.to_vec(),
        }
    }

    fn fresh_pc(&mut self) -> u64 {
        self.next_pc = (self.next_pc + self.rng.random_range(1..40)) & no_rpc(&self.p) >> 1;
        self.next_pc
    }

    fn masks(&mut self, init: bool) -> Vec<u32> {
        let r = &mut self.rng;
        let nw = self.p.warps as usize;
        let style = self.styles[r.random_range(0..self.styles.len())];
        let bound = r.random_range(0..nw as u32 * 32 + 1);
        let same: u32 = r.random();
        (0..nw)
            .map(|w| {
                let base = w as u32 * 32;
                match (init, style) {
                    (true, _) => match r.random_range(0..10) {
                        0 => 0,
                        1 => (1u32 << r.random_range(1..32)) - 1,
                        _ => u32::MAX,
                    },
                    (_, 0) => u32::MAX,
                    (_, 1) => 0,
                    (_, 2) => {
                        if bound <= base {
                            0
                        } else if bound >= base + 32 {
                            u32::MAX
                        } else {
                            (1u32 << (bound - base)) - 1
                        }
                    }
                    (_, 3) => same,
                    (_, 4) => [0, u32::MAX, r.random()][r.random_range(0..3)],
                    _ => r.random(),
                }
            })
            .collect()
    }
}

impl Driver for StackDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let rst = self.cycle == 0 || self.rng.random_bool(0.001);
        self.cycle += 1;
        f.set_bool(self.sl[0], rst);
        let rw = self.rng.random_range(0..1u64 << self.p.warp_bits());
        f.set(self.sl[6], rw);
        if rst {
            self.shadow.reset();
            return;
        }
        let top = self.shadow.top().map(|t| (t.0, t.1));
        let depth = self.shadow.entries.len();
        let roll = self.rng.random_range(0..100);
        let (op, pc, pc_fall, rpc, cond) = match top {
            _ if roll < 2 || top.is_none() && roll < 30 => {
                let pc = self.fresh_pc();
                (OP_INIT, pc, 0, 0, self.masks(true))
            }
            None => (
                self.rng.random_range(0..4),
                self.rng.random(),
                self.rng.random(),
                self.rng.random(),
                self.masks(false),
            ),
            Some((tpc, trpc)) => match roll {
                2..8 => (OP_NOP, 0, 0, 0, vec![0; self.p.warps as usize]),
                r if r < 40 + 6 * depth as u32 => {
                    // advance: reconverge if the top has somewhere to go
                    let pc = if depth >= 2 && self.rng.random_bool(0.7) {
                        trpc
                    } else {
                        tpc.wrapping_add(1) & no_rpc(&self.p)
                    };
                    (OP_ADV, pc, 0, 0, vec![0; self.p.warps as usize])
                }
                _ => {
                    let target = self.fresh_pc();
                    let fall = tpc.wrapping_add(1) & no_rpc(&self.p);
                    let rpc = match self.rng.random_range(0..10) {
                        0 => trpc,
                        1 => target,
                        2 => fall,
                        _ => self.fresh_pc(),
                    };
                    (OP_BRANCH, target, fall, rpc, self.masks(false))
                }
            },
        };
        f.set(self.sl[1], op);
        f.set(self.sl[2], pc);
        f.set(self.sl[3], pc_fall);
        f.set(self.sl[4], rpc);
        f.set_wide(self.sl[5], &models::dac::warp_words(&cond));
        let masked = |x: u64| x & no_rpc(&self.p);
        self.shadow.apply(op, masked(pc), masked(pc_fall), masked(rpc), &cond);
    }
}

// ---------------------------------------------------------------------------
// Property
// ---------------------------------------------------------------------------

/// What a run of [`check_against_flat`] saw.
#[derive(Clone, Debug, Default)]
pub struct StackReport {
    pub branches: u64,
    pub divergent: u64,
    pub reconvergences: u64,
    pub overflows: u64,
    pub max_depth: usize,
    /// Entries written (per-warp mask words a flat stack writes = warps x this).
    pub entry_writes: u64,
    /// Per-warp stack writes of the two-level form.
    pub pws_writes: u64,
}

/// Run `stim` through `dut` and a [`FlatStack`] side by side; every cycle the
/// two-level form must show the flat stack's depth, top PC and RPC, the codes
/// of the top masks (`11` all, `00` none, `10` mixed), the top mask of
/// `rd_warp`, the overflow flag, the entries written, and as many per-warp
/// stack writes as the flat stack wrote mixed masks.
pub fn check_against_flat(
    dut: &mut dyn Component,
    p: &AffineSimtStackParams,
    stim: &Stimulus,
) -> Result<StackReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    // depth top_pc top_rpc codes rd_mask overflow entry_writes pws_writes
    let outs = [io.depth, io.top_pc, io.top_rpc, io.codes, io.rd_mask, io.overflow, io.entry_writes, io.pws_writes];
    // rst op pc pc_fall rpc cond rd_warp
    let s = [io.rst, io.op, io.pc, io.pc_fall, io.rpc, io.cond, io.rd_warp];
    let mut frame = Frame::new(layout.clone());
    let mut flat = FlatStack::new(p);
    let mut rep = StackReport::default();
    let nw = p.warps as usize;
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let g = |i: usize| dut.get_u64(outs[i]);
        let (pc, rpc, m) = match flat.top() {
            Some(t) => (t.0, t.1, t.2.clone()),
            None => (0, 0, vec![0; nw]),
        };
        let mut codes = 0u128;
        for w in 0..nw {
            codes |= code_of(m[w]) << (2 * w);
        }
        let cw = dut.get(outs[3]);
        let got_codes = cw[0] as u128 | (cw.get(1).copied().unwrap_or(0) as u128) << 64;
        let rw = frame.get(s[6])[0] as usize;
        let want_rd = if rw < nw { m[rw] } else { 0 };
        let want = [
            flat.entries.len() as u64,
            pc,
            rpc,
            0,
            want_rd as u64,
            flat.overflow as u64,
            flat.entry_writes as u64,
            flat.mixed_writes as u64,
        ];
        for i in [0, 1, 2, 4, 5, 6, 7] {
            if g(i) != want[i] {
                let names =
                    ["depth", "top_pc", "top_rpc", "codes", "rd_mask", "overflow", "entry_writes", "pws_writes"];
                return Err(format!("cycle {c}: {} = {:x}, flat reference {:x}", names[i], g(i), want[i]));
            }
        }
        if got_codes != codes {
            return Err(format!("cycle {c}: codes {got_codes:x}, flat reference {codes:x}"));
        }
        let v = |i: usize| frame.get(s[i])[0];
        if v(0) & 1 != 0 {
            rep.entry_writes += flat.entry_writes as u64;
            rep.pws_writes += flat.mixed_writes as u64;
            flat.reset();
        } else {
            let mask = no_rpc(p);
            let cond: Vec<u32> = (0..nw).map(|w| models::dac::warp_mask(frame.get(s[5]), w)).collect();
            let d0 = flat.entries.len();
            if v(1) == OP_BRANCH && d0 > 0 {
                let act = &flat.top().unwrap().2;
                let any_t = act.iter().zip(&cond).any(|(a, c)| a & c != 0);
                let any_f = act.iter().zip(&cond).any(|(a, c)| a & !c != 0);
                rep.branches += 1;
                rep.divergent += (any_t && any_f) as u64;
            }
            let o0 = flat.overflow;
            flat.apply(v(1), v(2) & mask, v(3) & mask, v(4) & mask, &cond);
            rep.overflows += (!o0 && flat.overflow) as u64;
            if v(1) == OP_ADV && flat.entries.len() < d0 {
                rep.reconvergences += 1;
            }
            rep.max_depth = rep.max_depth.max(flat.entries.len());
        }
        dut.tick();
    }
    rep.entry_writes += flat.entry_writes as u64;
    rep.pws_writes += flat.mixed_writes as u64;
    Ok(rep)
}

