//! Reference model of the affine warp's two-level SIMT stack, written from
//! the specification in `hw/src/blocks/dac/affine_simt_stack.rs` (paper §4.5).

use crate::Reference;
use hw::blocks::dac::affine_simt_stack::{AffineSimtStackIo, AffineSimtStackParams};
use sim::{Bind, Component, PortFrame, PortId};

/// Stack operations (the `op` input).
pub const OP_NOP: u64 = 0;
pub const OP_INIT: u64 = 1;
pub const OP_ADV: u64 = 2;
pub const OP_BRANCH: u64 = 3;

/// Warp codes (§4.5).
pub const CODE_NONE: u128 = 0b00;
pub const CODE_MIXED: u128 = 0b10;
pub const CODE_ALL: u128 = 0b11;

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


/// The two-level stack: a warp-level stack (PC, RPC, 2-bit code per warp) and
/// per-warp mask stacks written only for mixed warps.
pub struct AffineSimtStack {
    p: AffineSimtStackParams,
    frame: PortFrame,
    io: AffineSimtStackIo<PortId>,
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
        let n = p.depth as usize;
        AffineSimtStack {
            p: p.clone(),
            frame: p.frame(),
            io: p.ids(),
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
    sim::frame_ports!(frame);

    fn eval(&mut self) {
        let (pc, rpc, codes) = if self.depth > 0 {
            let t = self.depth as usize - 1;
            (self.wls_pc[t], self.wls_rpc[t], self.wls_codes[t])
        } else {
            (0, 0, 0)
        };
        let rw = self.frame.get_u64(self.io.rd_warp) as usize;
        let rd = if self.depth > 0 && rw < self.p.warps as usize { self.mask(self.depth as usize - 1, rw) } else { 0 };
        self.frame.set_u64(self.io.depth, self.depth as u64);
        self.frame.set_u64(self.io.top_pc, pc);
        self.frame.set_u64(self.io.top_rpc, rpc);
        self.frame.set(self.io.codes, &[codes as u64, (codes >> 64) as u64]);
        self.frame.set_u64(self.io.rd_mask, rd as u64);
        self.frame.set_bool(self.io.overflow, self.overflow);
        self.frame.set_u64(self.io.entry_writes, self.entry_writes as u64);
        self.frame.set_u64(self.io.pws_writes, self.pws_writes as u64);
    }

    fn tick(&mut self) {
        if self.frame.get_bool(self.io.rst) {
            self.depth = 0;
            self.overflow = false;
            self.entry_writes = 0;
            self.pws_writes = 0;
            return;
        }
        let g = |id| self.frame.get_u64(id);
        let (op, pc, pc_fall, rpc) = (g(self.io.op), g(self.io.pc), g(self.io.pc_fall), g(self.io.rpc));
        let nw = self.p.warps as usize;
        let mut cond = [0u32; 64];
        for (w, c) in cond.iter_mut().enumerate().take(nw) {
            *c = super::warp_mask(self.frame.get(self.io.cond), w);
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

impl Reference for AffineSimtStackParams {
    type Model = AffineSimtStack;
    fn model(&self) -> AffineSimtStack {
        AffineSimtStack::new(self)
    }
}
