//! The affine warp of one CTA (seed 003, sections 4.1 and 4.5): one
//! instruction stream for all the CTA's threads, with a SIMT stack whose
//! entries hold a mask per non-affine warp (the two-level affine SIMT
//! stack: a warp's mask all ones, all zeros or mixed). An `enq` yields one
//! record per warp that has executing threads, in the order that warp's
//! `deq`s take them.
//!
//! Values are computed per thread by the functional model (one
//! [`WarpState`] of the affine stream per non-affine warp, executed under
//! the CTA-wide mask); the hardware computes the same values once per CTA
//! on affine tuples.

use crate::cfg::RPC_NONE;
use crate::error::ExecError;
use crate::exec::{exec, DacRecord, ExecCtx, StackEntry, WarpState};
use crate::inst::{Op, Opnd, INST_BYTES};
use crate::kernel::Kernel;

/// An entry of the CTA-wide stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub rpc: u32,
    /// Per non-affine warp, its threads on this path.
    pub masks: Vec<u32>,
}

/// What one affine-warp instruction did.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// Its index in the affine stream.
    pub inst: u32,
    /// An `enq`'s records: (warp of the CTA, record).
    pub records: Vec<(u32, DacRecord)>,
    /// Its first destination's value in the first thread that executed it.
    pub value: Option<u64>,
    /// Per warp, the threads on the path it executed on.
    pub masks: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct AffineWarp {
    /// The affine stream over each non-affine warp's threads.
    pub lanes: Vec<WarpState>,
    pub stack: Vec<Entry>,
    pub max_depth: u32,
}

fn zero(m: &[u32]) -> bool {
    m.iter().all(|&x| x == 0)
}

impl AffineWarp {
    /// The affine warp of a CTA of `ntid` threads running `affine`.
    pub fn new(affine: &Kernel, ntid: [u32; 3]) -> AffineWarp {
        let threads = ntid.iter().map(|&d| d.max(1) as u64).product::<u64>();
        let nwarps = threads.div_ceil(32) as u32;
        let lanes: Vec<WarpState> = (0..nwarps).map(|w| WarpState::new(affine, w, ntid)).collect();
        let masks = lanes.iter().map(|l| l.lanes).collect();
        AffineWarp { lanes, stack: vec![Entry { pc: 0, rpc: RPC_NONE, masks }], max_depth: 1 }
    }

    /// The next instruction's index (`None`: the affine warp is done).
    pub fn next(&self) -> Option<u32> {
        self.stack.last().map(|e| e.pc / INST_BYTES)
    }

    pub fn done(&self) -> bool {
        self.stack.is_empty()
    }

    /// Execute the next instruction for every warp with threads on the
    /// current path.
    pub fn step(&mut self, k: &Kernel, ctx: &mut ExecCtx) -> Result<Step, ExecError> {
        let top = self.stack.last().expect("a running affine warp").clone();
        let idx = top.pc / INST_BYTES;
        let inst = &k.insts[idx as usize];
        let mut step = Step { inst: idx, ..Step::default() };
        // Each warp's guard over its threads on this path.
        let guarded = |l: &WarpState, m: u32| match inst.guard {
            None => m,
            Some(g) => m & if g.neg { !l.preds[g.pred as usize] } else { l.preds[g.pred as usize] },
        };
        match inst.op {
            Op::Bra { target, reconv, .. } => {
                let taken: Vec<u32> = self.lanes.iter().zip(&top.masks).map(|(l, &m)| guarded(l, m)).collect();
                self.branch(&taken, target * INST_BYTES, reconv);
            }
            Op::Exit => {
                let gone: Vec<u32> = self.lanes.iter().zip(&top.masks).map(|(l, &m)| guarded(l, m)).collect();
                for e in &mut self.stack {
                    for (m, g) in e.masks.iter_mut().zip(&gone) {
                        *m &= !g;
                    }
                }
                self.advance();
            }
            _ => {
                step.masks = top.masks.clone();
                for (w, (l, &m)) in self.lanes.iter_mut().zip(&top.masks).enumerate() {
                    if m == 0 {
                        continue;
                    }
                    l.stack = vec![StackEntry { pc: top.pc, rpc: RPC_NONE, mask: m }];
                    l.done = false;
                    let (a, p) = (l.pwaq.len(), l.pwpq.len());
                    let ex = exec(k, l, ctx)?;
                    if let Some(r) = l.pwaq.drain(a..).next().or_else(|| l.pwpq.drain(p..).next()) {
                        step.records.push((w as u32, r));
                    }
                    if step.value.is_none() && ex.exec_mask != 0 {
                        let lane = ex.exec_mask.trailing_zeros() as usize;
                        step.value = match inst.dst[0] {
                            Opnd::R(n) => Some(l.regs[n as usize][lane] as u64),
                            Opnd::D(n) => Some(l.regs[n as usize][lane] as u64 | (l.regs[n as usize + 1][lane] as u64) << 32),
                            Opnd::P(n) => Some((l.preds[n as usize] >> lane & 1) as u64),
                            _ => None,
                        };
                    }
                }
                self.advance();
            }
        }
        self.max_depth = self.max_depth.max(self.stack.len() as u32);
        Ok(step)
    }

    fn advance(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.pc = top.pc.wrapping_add(INST_BYTES);
            if top.pc == top.rpc && self.stack.len() > 1 {
                self.stack.pop();
            }
        }
        self.drop_empty();
    }

    fn drop_empty(&mut self) {
        while self.stack.last().is_some_and(|t| zero(&t.masks)) {
            self.stack.pop();
        }
    }

    /// The SIMT stack's branch rule (as `WarpState`'s, over every warp's mask).
    fn branch(&mut self, taken: &[u32], target: u32, reconv: u32) {
        let top_i = self.stack.len() - 1;
        let tos = self.stack[top_i].clone();
        let fall = tos.pc.wrapping_add(INST_BYTES);
        let t: Vec<u32> = taken.iter().zip(&tos.masks).map(|(a, m)| a & m).collect();
        let n: Vec<u32> = taken.iter().zip(&tos.masks).map(|(a, m)| m & !a).collect();
        if zero(&t) || zero(&n) || target == fall {
            let next = if !zero(&t) { target } else { fall };
            self.stack[top_i].pc = next;
            if next == tos.rpc && self.stack.len() > 1 {
                self.stack.pop();
            }
            return;
        }
        let (big_r, r) = (tos.rpc, reconv);
        let mut writes: Vec<(usize, Entry)> = Vec::new();
        let mut cur = top_i;
        let mut started = false;
        for (pc, m) in [(fall, n), (target, t)] {
            if pc == big_r {
                continue;
            }
            if !started {
                started = true;
                if r != big_r {
                    writes.push((cur, Entry { pc: r, ..tos.clone() }));
                    cur += 1;
                }
            }
            if pc == r {
                continue;
            }
            writes.push((cur, Entry { pc, rpc: r, masks: m }));
            cur += 1;
        }
        if writes.is_empty() {
            self.stack.pop();
            if self.stack.is_empty() {
                self.stack.push(Entry { pc: big_r, ..tos });
            }
            return;
        }
        self.stack.resize(cur.max(top_i + 1), tos);
        for (i, e) in writes {
            self.stack[i] = e;
        }
        self.stack.truncate(cur);
    }
}
