//! Local scheduling (section 4.3): upward code motion along a trace, from
//! each block toward the trace's root, one edge at a time, never downward.
//!
//! What may move (the paper's "deviant" model, Table 3): arithmetic and
//! global loads; never stores, atomics, shared/const/local/texture
//! accesses, barriers, warp-collective or clock-reading instructions.
//! Arithmetic cannot fault on a GPU, so it moves above a conditional
//! branch speculatively, provided what it writes is dead on the other
//! path. A global load can fault where the branch would have skipped it,
//! and the functional model reports every out-of-bounds access; so above a
//! conditional branch it is predicated on the branch's own condition
//! (`@%p` / `@!%p`): it runs for exactly the threads that would have run
//! it, which keeps the pass recovery-free without a bounds proof.
//! A block with a side entrance (more than one predecessor) is not crossed:
//! that would need compensation copies in the other predecessors.
//! On hardware, ptxas then schedules each block; the warpforge SM issues PTX
//! as written, so the pass does that step too ([`list_schedule`] of every
//! block, by latency-weighted critical path), or leaves the moved
//! statements where [`super::Placement`] says.

use crate::cfg::Cfg;
use crate::inst::{Guard, Inst, Op, Opnd, RegWidth, Space};
use crate::ptx::VRegInfo;
use crate::regalloc::vreg;

/// One PTX statement (a source line) and the instructions it parsed to.
#[derive(Clone, Debug)]
pub struct Unit {
    pub line: u32,
    /// Its last line (a nested scope spans several).
    pub last_line: u32,
    pub insts: Vec<Inst>,
    /// The predicate the pass added (a load moved above a branch).
    pub added_guard: Option<Guard>,
    pub kind: Kind,
}

/// What a statement may do under motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Stays where it is.
    Fixed,
    /// Moves, speculatively above a branch.
    Arith,
    /// A global load: moves, predicated above a branch.
    Load,
}

impl Unit {
    pub fn new(line: u32, last_line: u32, insts: Vec<Inst>, text: &str) -> Unit {
        let kind = if last_line > line { Kind::Fixed } else { classify(&insts, text) };
        Unit { line, last_line, insts, added_guard: None, kind }
    }

    fn uses(&self) -> impl Iterator<Item = usize> + '_ {
        self.insts.iter().flat_map(|i| i.reg_uses().filter_map(vreg))
    }
    fn defs(&self) -> impl Iterator<Item = usize> + '_ {
        self.insts.iter().flat_map(|i| i.reg_defs().filter_map(vreg))
    }
    fn guarded(&self) -> bool {
        self.insts.iter().any(|i| i.guard.is_some())
    }
    fn writes_memory_or_syncs(&self) -> bool {
        self.insts.iter().any(|i| matches!(i.op, Op::St { .. } | Op::Atom { .. } | Op::Call { .. } | Op::Ret) || syncs(i))
    }
    fn terminator(&self) -> Option<&Inst> {
        self.insts.last().filter(|i| matches!(i.op, Op::Bra { .. } | Op::Exit | Op::Ret))
    }
}

/// Barriers and memory fences: nothing moves across them (section 4.2's
/// extra edges for synchronisation).
pub fn syncs(i: &Inst) -> bool {
    matches!(i.op, Op::Bar { .. } | Op::Membar)
}

fn classify(insts: &[Inst], text: &str) -> Kind {
    let [inst] = insts else { return Kind::Fixed };
    // One statement on the line, nothing before it but a guard.
    let t = text.trim();
    let opcode_first = t.starts_with(&*inst.opcode) || t.starts_with('@');
    if !opcode_first || t.matches(';').count() != 1 || !t.ends_with(';') {
        return Kind::Fixed;
    }
    let clock = inst.src.iter().any(|o| matches!(o, Opnd::Sreg(s) if s.is_clock()));
    if clock {
        return Kind::Fixed;
    }
    match inst.op {
        Op::Alu { f, .. } if f.carry != 0 => Kind::Fixed,
        Op::Mov(_) | Op::Pack(_) | Op::Unpack(_) | Op::Cvta { .. } | Op::Alu { .. } | Op::Setp { .. } | Op::Set { .. } | Op::Selp(_) | Op::Slct { .. } | Op::Cvt { .. } => Kind::Arith,
        // Kernel parameters are read-only and always in bounds.
        Op::Ld { space: Space::Param, .. } => Kind::Arith,
        Op::Ld { space: Space::Global, .. } if !["volatile", "relaxed", "acquire", "mmio"].iter().any(|q| inst.opcode.contains(q)) => Kind::Load,
        _ => Kind::Fixed,
    }
}

/// Per-block liveness of virtual registers (a guarded definition does not
/// end a range: the lanes whose guard is false keep the old value).
pub struct Liveness {
    live_in: Vec<Vec<u64>>,
}

impl Liveness {
    pub fn of(blocks: &[Vec<Unit>], cfg: &Cfg, nv: usize) -> Liveness {
        let words = nv.div_ceil(64).max(1);
        let nb = blocks.len();
        let mut uses = vec![vec![0u64; words]; nb];
        let mut kills = vec![vec![0u64; words]; nb];
        for (b, units) in blocks.iter().enumerate() {
            for inst in units.iter().rev().flat_map(|u| u.insts.iter().rev()) {
                if inst.guard.is_none() {
                    for d in inst.reg_defs().filter_map(vreg) {
                        kills[b][d / 64] |= 1 << (d % 64);
                        uses[b][d / 64] &= !(1 << (d % 64));
                    }
                }
                for x in inst.reg_uses().filter_map(vreg) {
                    uses[b][x / 64] |= 1 << (x % 64);
                }
            }
        }
        let mut live_in = uses.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..nb).rev() {
                let mut out = vec![0u64; words];
                for &s in &cfg.blocks[b].succs {
                    for (o, x) in out.iter_mut().zip(&live_in[s as usize]) {
                        *o |= x;
                    }
                }
                let new: Vec<u64> = (0..words).map(|w| uses[b][w] | (out[w] & !kills[b][w])).collect();
                if new != live_in[b] {
                    live_in[b] = new;
                    changed = true;
                }
            }
        }
        Liveness { live_in }
    }

    fn live_in(&self, b: usize, v: usize) -> bool {
        self.live_in[b][v / 64] >> (v % 64) & 1 != 0
    }

    /// The most 32-bit registers (pairs count two) and predicates live at
    /// once anywhere in the kernel: what an allocation needs at least.
    pub fn pressure(&self, blocks: &[Vec<Unit>], cfg: &Cfg, vregs: &[VRegInfo]) -> (u32, u32) {
        let words = self.live_in.first().map_or(1, Vec::len);
        let weight = |v: usize| match vregs[v].width {
            RegWidth::W32 => (1, 0),
            RegWidth::W64 => (2, 0),
            RegWidth::Pred => (0, 1),
        };
        let count = |live: &[u64]| {
            let mut c = (0u32, 0u32);
            for (w, &bits) in live.iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    let (r, p) = weight(w * 64 + b.trailing_zeros() as usize);
                    c = (c.0 + r, c.1 + p);
                    b &= b - 1;
                }
            }
            c
        };
        let mut best = (0, 0);
        for (b, units) in blocks.iter().enumerate() {
            let mut live = vec![0u64; words];
            for &s in &cfg.blocks[b].succs {
                for (o, x) in live.iter_mut().zip(&self.live_in[s as usize]) {
                    *o |= x;
                }
            }
            for inst in units.iter().rev().flat_map(|u| u.insts.iter().rev()) {
                // Just after the instruction: what is live and what it writes.
                let mut after = live.clone();
                for d in inst.reg_defs().filter_map(vreg) {
                    after[d / 64] |= 1 << (d % 64);
                }
                let c = count(&after);
                best = (best.0.max(c.0), best.1.max(c.1));
                if inst.guard.is_none() {
                    for d in inst.reg_defs().filter_map(vreg) {
                        live[d / 64] &= !(1 << (d % 64));
                    }
                }
                for x in inst.reg_uses().filter_map(vreg) {
                    live[x / 64] |= 1 << (x % 64);
                }
                let c = count(&live);
                best = (best.0.max(c.0), best.1.max(c.1));
            }
        }
        best
    }
}

/// One accepted step of a statement: from block `from` to block `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: usize,
    pub to: usize,
    /// Above a conditional branch or a guarded exit.
    pub speculative: bool,
}

/// The edge `y -> x` of a trace: speculative when `y` ends in a guarded
/// branch or exit; then the predicate under which control goes to `x`, and
/// the other successor (`None`: the exit).
fn edge(cfg: &Cfg, blocks: &[Vec<Unit>], y: usize, x: usize) -> Option<(Guard, Option<usize>)> {
    let t = blocks[y].last()?.terminator()?;
    let g = t.guard?;
    let fb = cfg.fallthrough(y);
    match t.op {
        Op::Bra { target, .. } => {
            let tb = cfg.block_of[target as usize] as usize;
            if fb == Some(tb) {
                None // both ways lead to x
            } else if x == tb {
                Some((g, fb))
            } else {
                Some((Guard { pred: g.pred, neg: !g.neg }, Some(tb)))
            }
        }
        _ => Some((Guard { pred: g.pred, neg: !g.neg }, None)),
    }
}

/// Try to move the statement at `blocks[x][idx]` to block `y`, the trace's
/// block before `x`. On success it is in `y` and its index there is returned.
pub fn step(cfg: &Cfg, blocks: &mut [Vec<Unit>], live: &Liveness, x: usize, idx: usize, y: usize, placement: super::Placement) -> Option<(usize, bool)> {
    if cfg.blocks[x].preds.as_slice() != [y as u32] {
        return None;
    }
    let u = &blocks[x][idx];
    if u.kind == Kind::Fixed || blocks[x][..idx].iter().any(|a| ordered(a, u)) {
        return None;
    }
    let mut moved = u.clone();
    let spec = edge(cfg, blocks, y, x);
    if let Some((g, other)) = spec {
        match moved.kind {
            Kind::Load => {
                if moved.guarded() {
                    return None;
                }
                moved.added_guard = Some(g);
                moved.insts[0].guard = Some(g);
            }
            _ => {
                if let Some(c) = other {
                    if moved.defs().any(|d| live.live_in(c, d)) {
                        return None;
                    }
                }
            }
        }
    }
    let ys = &blocks[y];
    let limit = ys.len() - ys.last().and_then(Unit::terminator).is_some() as usize;
    if ys[limit..].iter().any(|a| ordered(a, &moved)) {
        return None;
    }
    let q = match placement {
        super::Placement::Bottom | super::Placement::List => limit,
        super::Placement::Earliest => ys[..limit].iter().rposition(|a| ordered(a, &moved)).map_or(0, |k| k + 1),
    };
    blocks[x].remove(idx);
    blocks[y].insert(q, moved);
    Some((q, spec.is_some()))
}

/// Must `a`, before `b`, stay before it (in a block, or when `b` moves up
/// past `a`)? Register dependences, memory order (no load or store passes a
/// store, atomic or call), and barriers, fences and clock reads as walls.
fn ordered(a: &Unit, b: &Unit) -> bool {
    let wall = |u: &Unit| u.insts.iter().any(|i| syncs(i) || i.src.iter().any(|o| matches!(o, Opnd::Sreg(s) if s.is_clock())));
    let mem = |u: &Unit| u.insts.iter().any(|i| i.mem.is_some() || matches!(i.op, Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Tex { .. } | Op::Call { .. }));
    let a_defs: Vec<usize> = a.defs().collect();
    let b_defs: Vec<usize> = b.defs().collect();
    b.uses().any(|x| a_defs.contains(&x))
        || b_defs.iter().any(|d| a_defs.contains(d))
        || a.uses().any(|x| b_defs.contains(&x))
        || wall(a)
        || wall(b)
        || (a.writes_memory_or_syncs() && mem(b))
        || (mem(a) && b.writes_memory_or_syncs())
}

/// Issue-to-use latency for the schedule's priorities (cycles; classes,
/// not a configuration: global memory, other memory, SFU, the rest).
fn latency(u: &Unit) -> u32 {
    match u.insts.last().map(|i| (i.op, Inst::classify_unit(&i.op))) {
        Some((Op::Ld { space: Space::Global | Space::Local | Space::Generic, .. } | Op::Tex { .. }, _)) => 400,
        Some((Op::Ld { .. }, _)) => 30,
        Some((_, crate::inst::Unit::Sfu)) => 20,
        _ => 4,
    }
}

/// Reorder a block's statements (its branch stays last) by list
/// scheduling: among the statements whose predecessors have issued, the one
/// with the longest latency-weighted path to the block's end first, ties in
/// the original order.
pub fn list_schedule(units: &mut Vec<Unit>) {
    let term = units.last().and_then(Unit::terminator).is_some() as usize;
    let n = units.len() - term;
    let mut preds = vec![0usize; n];
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for j in 0..n {
        for i in 0..j {
            if ordered(&units[i], &units[j]) {
                succs[i].push(j);
                preds[j] += 1;
            }
        }
    }
    let mut prio = vec![0u64; n];
    for i in (0..n).rev() {
        prio[i] = latency(&units[i]) as u64 + succs[i].iter().map(|&j| prio[j]).max().unwrap_or(0);
    }
    let mut order = Vec::with_capacity(n);
    let mut ready: Vec<usize> = (0..n).filter(|&i| preds[i] == 0).collect();
    while let Some(k) = ready.iter().enumerate().max_by_key(|(_, &i)| (prio[i], std::cmp::Reverse(i))).map(|(k, _)| k) {
        let i = ready.swap_remove(k);
        order.push(i);
        for &j in &succs[i] {
            preds[j] -= 1;
            if preds[j] == 0 {
                ready.push(j);
            }
        }
    }
    debug_assert_eq!(order.len(), n);
    let mut old: Vec<Option<Unit>> = units.drain(..n).map(Some).collect();
    let scheduled: Vec<Unit> = order.into_iter().map(|i| old[i].take().expect("scheduled once")).collect();
    units.splice(0..0, scheduled);
}
