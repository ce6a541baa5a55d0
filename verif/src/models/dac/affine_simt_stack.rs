//! Reference model of the two-level affine SIMT stack, written from the
//! specification in `hw/src/blocks/dac/affine_simt_stack.rs` (paper §4.5,
//! Figure 13), and the flat per-thread SIMT stack it must agree with.

use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::dac::affine_simt_stack::AffineSimtStackParams;
use hw::blocks::dac::WARP_SIZE;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

pub const OP_NOP: u64 = 0;
pub const OP_INIT: u64 = 1;
pub const OP_ADV: u64 = 2;
pub const OP_BRANCH: u64 = 3;

/// Warp codes (§4.5).
pub const CODE_NONE: u128 = 0b00;
pub const CODE_MIXED: u128 = 0b10;
pub const CODE_ALL: u128 = 0b11;

pub fn ports(p: &AffineSimtStackParams) -> Vec<PortSpec> {
    vec![
        PortSpec::input("rst", 1),
        PortSpec::input("op", 2),
        PortSpec::input("pc", p.pc_bits),
        PortSpec::input("pc_fall", p.pc_bits),
        PortSpec::input("rpc", p.pc_bits),
        PortSpec::input("cond", WARP_SIZE * p.warps),
        PortSpec::input("rd_warp", p.warp_bits()),
        PortSpec::output("depth", p.depth_bits()),
        PortSpec::output("top_pc", p.pc_bits),
        PortSpec::output("top_rpc", p.pc_bits),
        PortSpec::output("codes", 2 * p.warps),
        PortSpec::output("rd_mask", WARP_SIZE),
        PortSpec::output("overflow", 1),
        PortSpec::output("entry_writes", 32),
        PortSpec::output("pws_writes", 32),
    ]
}

/// The "no reconvergence" RPC of the base entry: all ones.
pub fn no_rpc(p: &AffineSimtStackParams) -> u64 {
    if p.pc_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << p.pc_bits) - 1
    }
}

pub fn code_of(m: u32) -> u128 {
    match m {
        0 => CODE_NONE,
        u32::MAX => CODE_ALL,
        _ => CODE_MIXED,
    }
}

/// Thread mask of warp `w` in the condition port words.
fn cond_of(words: &[u64], w: usize) -> u32 {
    (words[w / 2] >> (32 * (w % 2))) as u32
}

/// The two-level stack: a warp-level stack (PC, RPC, 2-bit code per warp) and
/// per-warp mask stacks written only for mixed warps.
pub struct AffineSimtStack {
    p: AffineSimtStackParams,
    io: PortFrame,
    id: [PortId; 15],
    depth: u32,
    wls_pc: Vec<u64>,
    wls_rpc: Vec<u64>,
    wls_codes: Vec<u128>,
    /// Per-warp stacks, warp `w` level `l` at `w*depth + l`.
    pws: Vec<u32>,
    overflow: bool,
    entry_writes: u32,
    pws_writes: u32,
}

impl AffineSimtStack {
    pub fn new(p: &AffineSimtStackParams) -> Self {
        let io = PortFrame::new(ports(p));
        let id = [
            "rst",
            "op",
            "pc",
            "pc_fall",
            "rpc",
            "cond",
            "rd_warp",
            "depth",
            "top_pc",
            "top_rpc",
            "codes",
            "rd_mask",
            "overflow",
            "entry_writes",
            "pws_writes",
        ]
        .map(|n| io.id(n));
        let n = p.depth as usize;
        AffineSimtStack {
            p: p.clone(),
            io,
            id,
            depth: 0,
            wls_pc: vec![0; n],
            wls_rpc: vec![0; n],
            wls_codes: vec![0; n],
            pws: vec![0; n * p.warps as usize],
            overflow: false,
            entry_writes: 0,
            pws_writes: 0,
        }
    }

    /// Active mask of warp `w` at level `l`: from the code, or its per-warp
    /// stack for a mixed warp.
    fn mask(&self, l: usize, w: usize) -> u32 {
        match (self.wls_codes[l] >> (2 * w)) & 3 {
            CODE_ALL => u32::MAX,
            CODE_MIXED => self.pws[w * self.p.depth as usize + l],
            _ => 0,
        }
    }

    /// Write entry `l` with per-warp masks `m(w)`.
    fn write_entry(&mut self, l: usize, pc: u64, rpc: u64, m: impl Fn(usize) -> u32) {
        let mut codes = 0u128;
        for w in 0..self.p.warps as usize {
            let mw = m(w);
            let c = code_of(mw);
            codes |= c << (2 * w);
            if c == CODE_MIXED {
                self.pws[w * self.p.depth as usize + l] = mw;
                self.pws_writes = self.pws_writes.wrapping_add(1);
            }
        }
        self.wls_pc[l] = pc;
        self.wls_rpc[l] = rpc;
        self.wls_codes[l] = codes;
        self.entry_writes = self.entry_writes.wrapping_add(1);
    }
}

impl Component for AffineSimtStack {
    fn name(&self) -> &str {
        "affine_simt_stack"
    }
    sim::frame_ports!(io);

    fn eval(&mut self) {
        let (pc, rpc, codes) = if self.depth > 0 {
            let t = self.depth as usize - 1;
            (self.wls_pc[t], self.wls_rpc[t], self.wls_codes[t])
        } else {
            (0, 0, 0)
        };
        let rw = self.io.get_u64(self.id[6]) as usize;
        let rd = if self.depth > 0 && rw < self.p.warps as usize { self.mask(self.depth as usize - 1, rw) } else { 0 };
        self.io.set_u64(self.id[7], self.depth as u64);
        self.io.set_u64(self.id[8], pc);
        self.io.set_u64(self.id[9], rpc);
        self.io.set(self.id[10], &[codes as u64, (codes >> 64) as u64]);
        self.io.set_u64(self.id[11], rd as u64);
        self.io.set_bool(self.id[12], self.overflow);
        self.io.set_u64(self.id[13], self.entry_writes as u64);
        self.io.set_u64(self.id[14], self.pws_writes as u64);
    }

    fn tick(&mut self) {
        if self.io.get_bool(self.id[0]) {
            self.depth = 0;
            self.overflow = false;
            self.entry_writes = 0;
            self.pws_writes = 0;
            return;
        }
        let g = |i: usize| self.io.get_u64(self.id[i]);
        let (op, pc, pc_fall, rpc) = (g(1), g(2), g(3), g(4));
        let nw = self.p.warps as usize;
        let mut cond = [0u32; 64];
        for (w, c) in cond.iter_mut().enumerate().take(nw) {
            *c = cond_of(self.io.get(self.id[5]), w);
        }
        match op {
            OP_INIT => {
                self.write_entry(0, pc, no_rpc(&self.p), |w| cond[w]);
                self.depth = 1;
                self.overflow = false;
            }
            OP_ADV if self.depth > 0 => {
                let t = self.depth as usize - 1;
                self.wls_pc[t] = pc;
                if self.depth >= 2 && pc == self.wls_rpc[t] {
                    self.depth -= 1;
                }
            }
            OP_BRANCH if self.depth > 0 => {
                let t = self.depth as usize - 1;
                let (mut taken, mut fall) = ([0u32; 64], [0u32; 64]);
                for w in 0..nw {
                    let act = self.mask(t, w);
                    taken[w] = act & cond[w];
                    fall[w] = act & !cond[w];
                }
                let any_t = taken.iter().any(|&m| m != 0);
                let any_f = fall.iter().any(|&m| m != 0);
                if !any_t {
                    self.wls_pc[t] = pc_fall;
                } else if !any_f {
                    self.wls_pc[t] = pc;
                } else {
                    // The top becomes the reconvergence entry, unless it
                    // already reconverges at `rpc` (then it is replaced).
                    let replace = self.depth >= 2 && rpc == self.wls_rpc[t];
                    let base = if replace { t } else { t + 1 };
                    let push_f = pc_fall != rpc;
                    let push_t = pc != rpc;
                    let new_depth = base + push_f as usize + push_t as usize;
                    if new_depth > self.p.depth as usize {
                        self.overflow = true;
                    } else {
                        if !replace {
                            self.wls_pc[t] = rpc;
                        }
                        let mut l = base;
                        if push_f {
                            self.write_entry(l, pc_fall, rpc, |w| fall[w]);
                            l += 1;
                        }
                        if push_t {
                            self.write_entry(l, pc, rpc, |w| taken[w]);
                        }
                        self.depth = new_depth as u32;
                    }
                }
            }
            _ => {}
        }
    }
}

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
    sl: [Slot; 7],
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
        let layout = InputLayout::of(&ports(p));
        let sl = ["rst", "op", "pc", "pc_fall", "rpc", "cond", "rd_warp"].map(|n| layout.expect(n));
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
        let mut words = vec![0u64; cond.len().div_ceil(2)];
        for (w, m) in cond.iter().enumerate() {
            words[w / 2] |= (*m as u64) << (32 * (w % 2));
        }
        f.set_wide(self.sl[5], &words);
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
    let o = |n: &str| dut.output(n).unwrap();
    let outs = ["depth", "top_pc", "top_rpc", "codes", "rd_mask", "overflow", "entry_writes", "pws_writes"].map(o);
    let sl = |n: &str| layout.expect(n);
    let s = ["rst", "op", "pc", "pc_fall", "rpc", "cond", "rd_warp"].map(sl);
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
            let cond: Vec<u32> = (0..nw).map(|w| cond_of(frame.get(s[5]), w)).collect();
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

/// Registry entry: the reference model and the driver of `affine_simt_stack`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "affine_simt_stack",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(AffineSimtStack::new(&AffineSimtStackParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(StackDriver::new(&AffineSimtStackParams::from_params(p)?, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn cond_words(masks: &[u32]) -> Vec<u64> {
        let mut w = vec![0u64; masks.len().div_ceil(2)];
        for (i, m) in masks.iter().enumerate() {
            w[i / 2] |= (*m as u64) << (32 * (i % 2));
        }
        w
    }

    /// Figure 13: an if/else where only warp 2 diverges inside; warps 0, 1
    /// take the branch entirely and warp 3 not at all. Only warp 2 writes its
    /// per-warp stack (once per pushed entry); the others live in the codes.
    #[test]
    fn figure_13_only_the_mixed_warp_writes_its_stack() {
        let p = AffineSimtStackParams { warps: 4, depth: 8, pc_bits: 32 };
        let mut s = AffineSimtStack::new(&p);
        let i = |n: &str| s.input(n).unwrap();
        let (op, pc, pcf, rpc, cond, rd) = (i("op"), i("pc"), i("pc_fall"), i("rpc"), i("cond"), i("rd_warp"));
        let o = |n: &str| s.output(n).unwrap();
        let (depth, tpc, codes, rdm, pw) = (o("depth"), o("top_pc"), o("codes"), o("rd_mask"), o("pws_writes"));
        s.set_u64(op, OP_INIT);
        s.set_u64(pc, 0xa);
        s.set(cond, &cond_words(&[!0; 4]));
        s.step();
        // BB_a: branch to BB_c (taken) / BB_b (fall-through), reconverge at BB_d.
        s.set_u64(op, OP_BRANCH);
        s.set_u64(pc, 0xc);
        s.set_u64(pcf, 0xb);
        s.set_u64(rpc, 0xd);
        s.set(cond, &cond_words(&[!0, !0, 0x0000_ffff, 0]));
        s.step();
        s.set_u64(op, OP_NOP);
        s.set_u64(rd, 2);
        s.eval();
        // Top: BB_c for the taken threads: w0, w1 all (11), w2 mixed (10), w3 none (00).
        assert_eq!(s.get_u64(depth), 3);
        assert_eq!(s.get_u64(tpc), 0xc);
        assert_eq!(s.get_u64(codes), 0b00_10_11_11);
        assert_eq!(s.get_u64(rdm), 0x0000_ffff);
        assert_eq!(s.get_u64(pw), 2, "warp 2 writes its stack for BB_b and BB_c, nobody else");
        // Finish BB_c, reconverge: advance to BB_d pops to BB_b.
        s.set_u64(op, OP_ADV);
        s.set_u64(pc, 0xd);
        s.step();
        s.set_u64(op, OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(depth), s.get_u64(tpc), s.get_u64(codes)), (2, 0xb, 0b11_10_00_00));
        assert_eq!(s.get_u64(rdm), 0xffff_0000);
        s.set_u64(op, OP_ADV);
        s.set_u64(pc, 0xd);
        s.step();
        s.set_u64(op, OP_NOP);
        s.eval();
        assert_eq!((s.get_u64(depth), s.get_u64(tpc), s.get_u64(codes)), (1, 0xd, 0xff));
    }

    #[test]
    fn two_level_equals_flat_on_random_divergence() {
        for (p, seed, cycles) in [
            (AffineSimtStackParams::default(), 1, 50_000),
            (AffineSimtStackParams { warps: 3, depth: 2, pc_bits: 8 }, 2, 30_000),
            (AffineSimtStackParams { warps: 64, depth: 5, pc_bits: 20 }, 3, 30_000),
        ] {
            let mut d = StackDriver::new(&p, seed);
            let stim = Stimulus::record(&mut d, cycles);
            let rep = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim).unwrap();
            let flat_words = rep.entry_writes * p.warps as u64;
            println!(
                "stack {p:?}: {rep:?}; per-warp mask writes: flat {flat_words}, two-level {} (saves {:.1}%)",
                rep.pws_writes,
                100.0 * (flat_words - rep.pws_writes) as f64 / flat_words.max(1) as f64
            );
            assert!(rep.divergent > 1000 && rep.reconvergences > 1000 && rep.overflows > 10, "{rep:?}");
            assert_eq!(rep.max_depth, p.depth as usize);
        }
    }

    /// The saving on the kinds of divergence decoupled code has (§4.5:
    /// bound checks and warp-uniform conditions), reported in the block doc.
    #[test]
    fn writes_saved_on_bound_checks() {
        let p = AffineSimtStackParams::default();
        for (name, styles) in
            [("tid < bound", &[2u32][..]), ("bound checks and warp-uniform", &[0, 1, 2, 4]), ("random", &[5])]
        {
            let mut d = StackDriver::with_styles(&p, 9, styles);
            let stim = Stimulus::record(&mut d, 50_000);
            let rep = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim).unwrap();
            let flat_words = rep.entry_writes * p.warps as u64;
            println!(
                "stack writes, {name}: {} entries pushed; flat per-warp mask writes {flat_words}, two-level {} (saves {:.1}%)",
                rep.entry_writes,
                rep.pws_writes,
                100.0 * (flat_words - rep.pws_writes) as f64 / flat_words.max(1) as f64
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
        /// Random shapes and seeds: the two-level stack equals the flat one.
        #[test]
        fn prop_two_level_equals_flat(warps in 1u32..=64, depth in 2u32..=12, pc_bits in 8u32..=64, seed in proptest::prelude::any::<u64>()) {
            let p = AffineSimtStackParams { warps, depth, pc_bits };
            let stim = Stimulus::record(&mut StackDriver::new(&p, seed), 6_000);
            let r = check_against_flat(&mut AffineSimtStack::new(&p), &p, &stim);
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
