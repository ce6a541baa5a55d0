//! Affine analysis (seed 003, section 4.7, "Identifying Affine Operands"):
//! reaching definitions over the allocated registers, control dependence,
//! and each definition's class — scalar, affine or non-affine — propagated
//! to a fixpoint.

use std::collections::BTreeSet;

use crate::cfg::Cfg;
use crate::inst::{AluOp, ArchReg, Inst, Op, Opnd, Space, Sreg};
use crate::kernel::Kernel;

/// What a value is across the threads of a CTA, most specific first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// The same for every thread (kernel parameters, block indices, sizes).
    Scalar,
    /// `base + offsets . thread index`: an affine tuple.
    Affine,
    /// Anything else (memory, unsupported operations, divergent definitions).
    NonAffine,
}

/// Register key: R0..R63 then P0..P7.
pub(crate) fn key(r: ArchReg) -> Option<usize> {
    match r {
        ArchReg::R(n) => Some(n as usize),
        ArchReg::P(n) => Some(64 + n as usize),
        _ => None,
    }
}
const KEYS: usize = 72;

/// The registers of an operand.
pub(crate) fn regs_of(o: Opnd) -> Vec<usize> {
    match o {
        Opnd::R(n) => vec![n as usize],
        Opnd::D(n) => vec![n as usize, n as usize + 1],
        Opnd::P(n) => vec![64 + n as usize],
        _ => Vec::new(),
    }
}

pub struct Analysis {
    /// Class of each instruction's result (a branch or guarded exit: of its predicate).
    pub class: Vec<Class>,
    /// `reaching[i]`: for each register instruction `i` reads, the
    /// instructions whose definitions reach it (empty: none, the register
    /// is read before any write).
    reaching: Vec<Vec<(usize, Vec<u32>)>>,
    /// Per block, the blocks ending in a conditional branch or guarded exit
    /// that decide whether it runs (control dependence, transitively closed).
    pub controls: Vec<BTreeSet<u32>>,
    pub cfg: Cfg,
}

impl Analysis {
    pub fn new(k: &Kernel) -> Analysis {
        let cfg = k.cfg.clone();
        let reaching = reaching_definitions(&k.insts, &cfg);
        let controls = control_dependence(&k.insts, &cfg);
        let mut a = Analysis { class: vec![Class::Scalar; k.insts.len()], reaching, controls, cfg };
        // Classes only rise; iterate to the least fixpoint.
        loop {
            let mut changed = false;
            for i in 0..k.insts.len() {
                let c = a.inst_class(&k.insts, i);
                if c > a.class[i] {
                    a.class[i] = c;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        a
    }

    /// The instructions defining register `r` that reach instruction `i`.
    pub fn defs(&self, i: usize, r: usize) -> &[u32] {
        self.reaching[i].iter().find(|(x, _)| *x == r).map_or(&[], |(_, d)| d.as_slice())
    }

    /// The branch instruction ending block `b`.
    pub fn branch_of(&self, b: u32) -> usize {
        self.cfg.blocks[b as usize].end as usize - 1
    }

    /// Class of operand `o` as instruction `i` reads it. A definition made
    /// under a divergent condition that does not also decide whether `i`
    /// runs makes the operand non-affine: some threads see it and some do
    /// not (a divergent affine tuple; the paper's DCRF is not modelled).
    pub fn operand(&self, i: usize, o: Opnd) -> Class {
        match o {
            Opnd::Imm(_) => Class::Scalar,
            Opnd::Sreg(s) => match s {
                Sreg::Tid(_) => Class::Affine,
                Sreg::Ntid(_) | Sreg::Ctaid(_) | Sreg::Nctaid(_) | Sreg::WarpSize => Class::Scalar,
                _ => Class::NonAffine,
            },
            Opnd::R(_) | Opnd::D(_) | Opnd::P(_) => {
                let mut c = Class::Scalar;
                let bi = self.cfg.block_of[i] as usize;
                for r in regs_of(o) {
                    let defs = self.defs(i, r);
                    if defs.is_empty() {
                        return Class::NonAffine;
                    }
                    for &d in defs {
                        c = c.max(self.class[d as usize]);
                        if self.divergent_def(d as usize, bi).is_some() {
                            return Class::NonAffine;
                        }
                    }
                }
                c
            }
            _ => Class::NonAffine,
        }
    }

    /// The divergent branch (its instruction) that decides whether
    /// definition `d` runs but not whether block `use_block` does.
    pub fn divergent_def(&self, d: usize, use_block: usize) -> Option<usize> {
        let bd = self.cfg.block_of[d] as usize;
        self.controls[bd].difference(&self.controls[use_block]).map(|&x| self.branch_of(x)).find(|&b| self.class[b] != Class::Scalar)
    }

    /// Why operand `o` of instruction `i` is not affine, traced back to
    /// where it starts.
    pub fn why_not(&self, insts: &[Inst], i: usize, o: Opnd) -> String {
        self.cause(insts, i, o, 0)
    }

    fn cause(&self, insts: &[Inst], i: usize, o: Opnd, depth: u32) -> String {
        if let Opnd::Sreg(s) = o {
            return format!("{s} is not affine");
        }
        let bi = self.cfg.block_of[i] as usize;
        for r in regs_of(o) {
            let defs = self.defs(i, r);
            if defs.is_empty() {
                return format!("line {} reads a register before any write", insts[i].line);
            }
            for &d in defs {
                if let Some(b) = self.divergent_def(d as usize, bi) {
                    return format!(
                        "line {} is defined under the divergent branch at line {} (a divergent affine tuple)",
                        insts[d as usize].line, insts[b].line
                    );
                }
                if self.class[d as usize] == Class::NonAffine {
                    let def = &insts[d as usize];
                    let ops = def.guard.map(|g| Opnd::P(g.pred)).into_iter().chain(def.src.iter().copied()).chain(def.addr.map(|a| a.base));
                    for x in ops.filter(|x| *x != Opnd::None && *x != Opnd::Deq) {
                        if depth < 16 && self.operand(d as usize, x) == Class::NonAffine {
                            return self.cause(insts, d as usize, x, depth + 1);
                        }
                    }
                    return format!("{} at line {} is not affine", def.opcode, def.line);
                }
            }
        }
        format!("line {}", insts[i].line)
    }

    fn inst_class(&self, insts: &[Inst], i: usize) -> Class {
        transfer(&insts[i], |o| self.operand(i, o))
    }
}

/// The class of an instruction's result from its operands' classes (a
/// branch or guarded exit: of its predicate): the affine rules shared by the
/// decoupling pass (operands by reaching definitions) and CAE's run-time
/// tags (operands by the tags of the registers read).
pub fn transfer(inst: &Inst, operand: impl Fn(Opnd) -> Class) -> Class {
    let src = |n: usize| operand(inst.src[n]);
    let srcs = || inst.src.iter().filter(|o| **o != Opnd::None).map(|&o| operand(o)).max().unwrap_or(Class::Scalar);
    let scalar_only = |c: Class| if c == Class::Scalar { Class::Scalar } else { Class::NonAffine };
    let guard = inst.guard.map_or(Class::Scalar, |g| operand(Opnd::P(g.pred)));
    if inst.is_branch() || inst.is_exit() {
        return guard;
    }
    // A definition some threads skip is not one tuple.
    if guard != Class::Scalar {
        return Class::NonAffine;
    }
    match inst.op {
        Op::Mov(ty) if !ty.is_float() => src(0),
        Op::Cvt { dty, sty, .. } if dty.is_int() && sty.is_int() && (sty.bits() >= 32 || dty.bits() <= sty.bits()) => src(0),
        // Parameters and the constant bank are read-only during a launch:
        // a scalar address reads one value for every thread.
        Op::Ld { space: Space::Param | Space::Const, .. } => match inst.addr.map(|a| a.base) {
            Some(Opnd::None) => Class::Scalar,
            Some(b) => scalar_only(operand(b)),
            None => Class::NonAffine,
        },
        Op::Cvta { space: Space::Global, .. } => src(0),
        Op::Alu { op, ty, f } if ty.is_int() && f.carry == 0 => match op {
            AluOp::Add | AluOp::Sub | AluOp::Neg => srcs(),
            AluOp::Mul | AluOp::MulWide if src(0) == Class::Scalar || src(1) == Class::Scalar => srcs(),
            AluOp::Mad | AluOp::MadWide if src(0) == Class::Scalar || src(1) == Class::Scalar => srcs(),
            AluOp::Shl if src(1) == Class::Scalar => src(0),
            _ => scalar_only(srcs()),
        },
        Op::Setp { ty, .. } if ty.is_int() => srcs(),
        // Predicate logic on expanded predicates: per-thread bits either way.
        Op::Alu { op: AluOp::And | AluOp::Or | AluOp::Xor | AluOp::Not, ty: crate::inst::Ty::Pred, .. } => srcs(),
        Op::Mov(_) | Op::Cvt { .. } | Op::Alu { .. } | Op::Setp { .. } | Op::Selp(_) | Op::Set { .. } | Op::Slct { .. } => scalar_only(srcs()),
        _ => Class::NonAffine,
    }
}

/// For every instruction, the definitions reaching each register it reads.
/// A guarded definition does not kill the ones before it.
fn reaching_definitions(insts: &[Inst], cfg: &Cfg) -> Vec<Vec<(usize, Vec<u32>)>> {
    let n = insts.len();
    let words = n.div_ceil(64).max(1);
    // Bitset per register over defining instructions, per block entry.
    type Sets = Vec<Vec<u64>>;
    let empty = || vec![vec![0u64; words]; KEYS];
    let transfer = |b: usize, sets: &mut Sets| {
        let blk = &cfg.blocks[b];
        for i in blk.start as usize..blk.end as usize {
            for r in insts[i].writes.as_slice().iter().filter_map(|&r| key(r)) {
                if insts[i].guard.is_none() {
                    sets[r].iter_mut().for_each(|w| *w = 0);
                }
                sets[r][i / 64] |= 1 << (i % 64);
            }
        }
    };
    let nb = cfg.blocks.len();
    let mut ins: Vec<Sets> = vec![empty(); nb];
    let mut outs: Vec<Sets> = vec![empty(); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let mut s = empty();
            for &p in &cfg.blocks[b].preds {
                for (r, set) in s.iter_mut().enumerate() {
                    for (w, x) in set.iter_mut().zip(&outs[p as usize][r]) {
                        *w |= x;
                    }
                }
            }
            ins[b] = s.clone();
            transfer(b, &mut s);
            if s != outs[b] {
                outs[b] = s;
                changed = true;
            }
        }
    }
    let mut out = vec![Vec::new(); n];
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let mut s = ins[b].clone();
        for i in blk.start as usize..blk.end as usize {
            let mut reads: Vec<usize> = insts[i].reads.as_slice().iter().filter_map(|&r| key(r)).collect();
            reads.dedup();
            out[i] = reads
                .into_iter()
                .map(|r| {
                    let mut defs = Vec::new();
                    for (wi, &word) in s[r].iter().enumerate() {
                        let mut x = word;
                        while x != 0 {
                            defs.push((wi * 64) as u32 + x.trailing_zeros());
                            x &= x - 1;
                        }
                    }
                    (r, defs)
                })
                .collect();
            for r in insts[i].writes.as_slice().iter().filter_map(|&r| key(r)) {
                if insts[i].guard.is_none() {
                    s[r].iter_mut().for_each(|w| *w = 0);
                }
                s[r][i / 64] |= 1 << (i % 64);
            }
        }
    }
    out
}

/// Per block, the blocks whose conditional branch (or guarded exit)
/// decides whether it runs, transitively: a block depends on branch block
/// `x` if it post-dominates a successor of `x` but not `x` itself.
fn control_dependence(insts: &[Inst], cfg: &Cfg) -> Vec<BTreeSet<u32>> {
    let nb = cfg.blocks.len();
    let mut cd: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); nb];
    for (x, blk) in cfg.blocks.iter().enumerate() {
        let Some(last) = insts.get((blk.end as usize).wrapping_sub(1)) else { continue };
        if last.guard.is_none() || !(last.is_branch() || last.is_exit()) {
            continue;
        }
        for &s in &blk.succs {
            let mut runner = Some(s);
            let mut steps = 0;
            while runner != blk.ipdom && steps <= nb {
                let Some(r) = runner else { break };
                cd[r as usize].insert(x as u32);
                runner = cfg.blocks[r as usize].ipdom;
                steps += 1;
            }
        }
    }
    let mut all = cd.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nb {
            let more: Vec<u32> = all[b].iter().flat_map(|&x| all[x as usize].iter().copied()).collect();
            for m in more {
                changed |= all[b].insert(m);
            }
        }
    }
    all
}
