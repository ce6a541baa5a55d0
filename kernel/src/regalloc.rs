//! Register allocation by liveness, as ptxas does it: PTX virtual registers
//! onto at most [`crate::inst::MAX_REGS`] architected 32-bit registers per thread (a
//! 64-bit value takes an aligned pair `R2k`, `R2k+1`) and [`crate::inst::MAX_PREDS`]
//! predicate registers.
//!
//! Liveness is per thread, computed on the CFG by the usual backward
//! dataflow. That is sound under SIMT execution because every write is
//! masked to the lanes that execute it: a lane that skips a definition
//! keeps its own value. A guarded definition (`@p mov %r1, ...`) does not
//! end the old value's range (the lanes whose guard is false keep it).
//! Two values interfere when one is defined where the other is live after
//! the instruction; the destinations of one instruction interfere with each
//! other; a source and a destination of one instruction may share a
//! register (every instruction reads all its sources before writing).
//!
//! Coloring is greedy (lowest free register, lowest free even pair) over a
//! few orders — first appearance, 64-bit values first, most-constrained
//! first — keeping the order that needs the fewest registers.

use crate::inst::{Inst, Opnd, RegWidth};
use crate::ptx::VRegInfo;

/// The result of allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// Architected register (first of the pair for 64-bit values) of each
    /// virtual register; `u32::MAX` for registers never used.
    pub map: Vec<u32>,
    /// 32-bit registers used (highest index + 1).
    pub regs_used: u32,
    /// Predicate registers used.
    pub preds_used: u32,
}

/// Why allocation failed: (32-bit registers needed, predicates needed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    pub regs: u32,
    pub preds: u32,
}

struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    fn new(n: usize) -> BitSet {
        BitSet { words: vec![0; n.div_ceil(64)] }
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn clear(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }
    fn union_with(&mut self, o: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let t = b.trailing_zeros() as usize;
                b &= b - 1;
                Some(w * 64 + t)
            })
        })
    }
}

/// The virtual register an operand names, if any.
pub(crate) fn vreg(o: Opnd) -> Option<usize> {
    match o {
        Opnd::R(v) | Opnd::D(v) | Opnd::P(v) => Some(v as usize),
        _ => None,
    }
}

/// Per-instruction liveness: the set live after each instruction, computed
/// from block live-out sets. `blocks` = (start, end, successors).
fn live_out_blocks(insts: &[Inst], nv: usize, blocks: &[(usize, usize, Vec<usize>)]) -> Vec<BitSet> {
    let nb = blocks.len();
    // use (upward-exposed) and def (killed) per block.
    let mut uses = Vec::with_capacity(nb);
    let mut kills = Vec::with_capacity(nb);
    for &(s, e, _) in blocks {
        let mut u = BitSet::new(nv);
        let mut k = BitSet::new(nv);
        for inst in insts[s..e].iter().rev() {
            if inst.guard.is_none() {
                for d in inst.reg_defs().filter_map(vreg) {
                    k.set(d);
                    u.clear(d);
                }
            }
            for x in inst.reg_uses().filter_map(vreg) {
                u.set(x);
            }
        }
        uses.push(u);
        kills.push(k);
    }
    let mut live_in: Vec<BitSet> = (0..nb).map(|_| BitSet::new(nv)).collect();
    let mut live_out: Vec<BitSet> = (0..nb).map(|_| BitSet::new(nv)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            for &s in &blocks[b].2 {
                let (lo, li) = (&mut live_out[b], &live_in[s]);
                lo.union_with(li);
            }
            // in = use | (out & !kill)
            let mut new_in = BitSet::new(nv);
            for w in 0..new_in.words.len() {
                new_in.words[w] = uses[b].words[w] | (live_out[b].words[w] & !kills[b].words[w]);
            }
            if new_in.words != live_in[b].words {
                live_in[b] = new_in;
                changed = true;
            }
        }
    }
    live_out
}

/// Virtual registers live across a `call` (live after it): a recursive
/// call's body reuses every register, so these are saved in the caller's
/// frame (spilled) around it.
pub fn live_across_calls(insts: &[Inst], nv: usize, blocks: &[(usize, usize, Vec<usize>)]) -> Vec<usize> {
    let live_out = live_out_blocks(insts, nv, blocks);
    let mut across = BitSet::new(nv);
    for (b, &(s, e, _)) in blocks.iter().enumerate() {
        let mut live = BitSet { words: live_out[b].words.clone() };
        for inst in insts[s..e].iter().rev() {
            if matches!(inst.op, crate::inst::Op::Call { .. }) {
                across.union_with(&live);
            }
            if inst.guard.is_none() {
                for d in inst.reg_defs().filter_map(vreg) {
                    live.clear(d);
                }
            }
            for x in inst.reg_uses().filter_map(vreg) {
                live.set(x);
            }
        }
    }
    across.iter().collect()
}

/// Allocate. `blocks` = (first instruction, one past the last, successor blocks).
pub fn allocate(insts: &[Inst], vregs: &[VRegInfo], blocks: &[(usize, usize, Vec<usize>)], max_regs: u32, max_preds: u32) -> Result<Allocation, Needs> {
    let nv = vregs.len();
    let live_out = live_out_blocks(insts, nv, blocks);
    // Interference graph as adjacency lists (built from a bit matrix row per
    // register touched, to keep memory proportional to the edges).
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); nv];
    let mut used = vec![false; nv];
    let mut first_seen = vec![usize::MAX; nv];
    for (i, inst) in insts.iter().enumerate() {
        for v in inst.reg_uses().chain(inst.reg_defs()).filter_map(vreg) {
            used[v] = true;
            first_seen[v] = first_seen[v].min(i);
        }
    }
    {
        let mut rows: Vec<BitSet> = Vec::new();
        let mut row_of = vec![usize::MAX; nv];
        let mut edge = |a: usize, b: usize, rows: &mut Vec<BitSet>| {
            if a == b
                || vregs[a].width == RegWidth::Pred && vregs[b].width != RegWidth::Pred
                || vregs[a].width != RegWidth::Pred && vregs[b].width == RegWidth::Pred
            {
                return;
            }
            for (x, y) in [(a, b), (b, a)] {
                if row_of[x] == usize::MAX {
                    row_of[x] = rows.len();
                    rows.push(BitSet::new(nv));
                }
                let r = &mut rows[row_of[x]];
                if !r.get(y) {
                    r.set(y);
                    adj[x].push(y as u32);
                }
            }
        };
        for (b, &(s, e, _)) in blocks.iter().enumerate() {
            let mut live = BitSet { words: live_out[b].words.clone() };
            for inst in insts[s..e].iter().rev() {
                let defs: Vec<usize> = inst.reg_defs().filter_map(vreg).collect();
                for &d in &defs {
                    for l in live.iter() {
                        edge(d, l, &mut rows);
                    }
                }
                for (k, &d) in defs.iter().enumerate() {
                    for &d2 in &defs[k + 1..] {
                        edge(d, d2, &mut rows);
                    }
                }
                if inst.guard.is_none() {
                    for &d in &defs {
                        live.clear(d);
                    }
                }
                for x in inst.reg_uses().filter_map(vreg) {
                    live.set(x);
                }
            }
        }
    }
    let by_first: Vec<usize> = {
        let mut v: Vec<usize> = (0..nv).filter(|&v| used[v]).collect();
        v.sort_by_key(|&x| (first_seen[x], x));
        v
    };
    let wide_first: Vec<usize> = {
        let mut v = by_first.clone();
        v.sort_by_key(|&x| (vregs[x].width != RegWidth::W64, first_seen[x], x));
        v
    };
    let constrained: Vec<usize> = {
        let mut v = by_first.clone();
        v.sort_by_key(|&x| (std::cmp::Reverse(adj[x].len() * if vregs[x].width == RegWidth::W64 { 2 } else { 1 }), first_seen[x], x));
        v
    };
    let mut best: Option<Allocation> = None;
    for order in [&by_first, &wide_first, &constrained] {
        let a = color(order, vregs, &adj, nv);
        let better = match &best {
            None => true,
            Some(b) => (a.regs_used, a.preds_used) < (b.regs_used, b.preds_used),
        };
        if better {
            best = Some(a);
        }
    }
    let best = best.unwrap_or(Allocation { map: vec![u32::MAX; nv], regs_used: 0, preds_used: 0 });
    if best.regs_used > max_regs || best.preds_used > max_preds {
        return Err(Needs { regs: best.regs_used, preds: best.preds_used });
    }
    Ok(best)
}

/// The largest number of 32-bit registers live at once (pairs count two):
/// a lower bound on what any allocation needs.
pub fn max_pressure(insts: &[Inst], vregs: &[VRegInfo], blocks: &[(usize, usize, Vec<usize>)]) -> u32 {
    let nv = vregs.len();
    let live_out = live_out_blocks(insts, nv, blocks);
    let weight = |v: usize| match vregs[v].width {
        RegWidth::W32 => 1,
        RegWidth::W64 => 2,
        RegWidth::Pred => 0,
    };
    let mut best = 0;
    for (b, &(s, e, _)) in blocks.iter().enumerate() {
        let mut live = BitSet { words: live_out[b].words.clone() };
        for inst in insts[s..e].iter().rev() {
            let defs: Vec<usize> = inst.reg_defs().filter_map(vreg).collect();
            // Just after the instruction: what is live plus what it defines.
            let mut here: u32 = live.iter().map(weight).sum();
            here += defs.iter().filter(|&&d| !live.get(d)).map(|&d| weight(d)).sum::<u32>();
            best = best.max(here);
            if inst.guard.is_none() {
                for &d in &defs {
                    live.clear(d);
                }
            }
            for x in inst.reg_uses().filter_map(vreg) {
                live.set(x);
            }
            best = best.max(live.iter().map(weight).sum());
        }
    }
    best
}

fn color(order: &[usize], vregs: &[VRegInfo], adj: &[Vec<u32>], nv: usize) -> Allocation {
    let mut map = vec![u32::MAX; nv];
    let (mut regs_used, mut preds_used) = (0u32, 0u32);
    let mut taken: Vec<bool> = Vec::new();
    for &v in order {
        taken.clear();
        let w = vregs[v].width;
        for &n in &adj[v] {
            let c = map[n as usize];
            if c == u32::MAX {
                continue;
            }
            let span = if vregs[n as usize].width == RegWidth::W64 { 2 } else { 1 };
            for k in c..c + span {
                if taken.len() <= k as usize {
                    taken.resize(k as usize + 1, false);
                }
                taken[k as usize] = true;
            }
        }
        let free = |k: usize| taken.get(k).is_none_or(|t| !t);
        let c = match w {
            RegWidth::W64 => (0..).step_by(2).find(|&k| free(k) && free(k + 1)).unwrap_or(0),
            _ => (0..).find(|&k| free(k)).unwrap_or(0),
        } as u32;
        map[v] = c;
        match w {
            RegWidth::Pred => preds_used = preds_used.max(c + 1),
            RegWidth::W32 => regs_used = regs_used.max(c + 1),
            RegWidth::W64 => regs_used = regs_used.max(c + 2),
        }
    }
    Allocation { map, regs_used, preds_used }
}

/// Rewrite virtual operands to architected ones.
pub fn rewrite(insts: &mut [Inst], map: &[u32]) {
    let m = |o: &mut Opnd| match o {
        Opnd::R(v) | Opnd::D(v) | Opnd::P(v) => *v = map[*v as usize],
        _ => {}
    };
    for inst in insts {
        if let Some(g) = &mut inst.guard {
            g.pred = map[g.pred as usize];
        }
        inst.dst.iter_mut().for_each(m);
        inst.src.iter_mut().for_each(m);
        if let Some(a) = &mut inst.addr {
            m(&mut a.base);
        }
    }
}
