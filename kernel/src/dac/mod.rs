//! Decoupled affine computation (Wang and Lin, ISCA 2017; seed 003): the
//! compiler pass that splits a kernel into an affine and a non-affine
//! instruction stream (sections 3, 4.5 and 4.7; Figure 7).
//!
//! 1. [`analysis`] classifies every definition as scalar, affine or
//!    non-affine over reaching definitions and control dependence.
//! 2. *Candidates* are memory instructions whose address is scalar or
//!    affine and the comparisons the predicate expansion unit can make (a
//!    32-bit integer `setp` of a scalar or affine value against a scalar,
//!    `peu_expands`). A candidate is *eligible* when
//!    everything it needs — the definitions of its operands, recursively,
//!    and the branches (with their predicates) that decide whether any of
//!    them runs — is scalar or affine: then the affine warp can follow it.
//! 3. The **affine stream** keeps the eligible candidates' predecessors,
//!    the branches they depend on, unconditional control flow, exits and
//!    barriers (section 4.2: the timing model holds expansion past one);
//!    an eligible load becomes `enq.data`, another memory instruction
//!    `enq.addr`, and an eligible `setp` is followed by `enq.pred`. A
//!    conditional branch nothing eligible depends on jumps straight to its
//!    reconvergence point (nothing the affine warp needs lies between).
//! 4. The **non-affine stream** is the kernel with each eligible memory
//!    instruction taking its address from the queue (`[deq.data]`,
//!    `[deq.addr]`), each eligible `setp` replaced by `deq.pred`, and the
//!    predecessors no remaining instruction reads removed.
//!
//! The result is the non-affine [`Kernel`] with the affine one attached
//! ([`Kernel::affine`]): every runner executes it unchanged, each warp's
//! `deq`s served by the affine stream run over the same threads
//! ([`crate::exec::AffineLanes`]). The timing SM runs one affine warp per
//! CTA instead ([`warp::AffineWarp`]), which yields the same records. Not modelled, so such values stay
//! non-affine and their users in the non-affine stream: divergent affine
//! tuples (the DCRF of section 4.6), mod-type tuples (section 4.4), and
//! non-affine warps providing branch bit-vectors to the affine warp.

pub mod analysis;
pub mod warp;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;

use analysis::{Analysis, Class};

use crate::cfg::Cfg;
use crate::inst::{Addr, Cmp, DacQueue, Inst, Op, Opnd, Space, Ty, INST_BYTES};
use crate::kernel::Kernel;

/// Where one instruction of the original kernel went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A decoupled memory access: `enq.data`/`enq.addr` in the affine
    /// stream, `[deq.*]` in the non-affine stream.
    Access(DacQueue),
    /// A decoupled predicate: `setp` + `enq.pred` / `deq.pred`.
    Predicate,
    /// Computes for the affine stream only (removed from the non-affine one).
    AffineOnly,
    /// In both streams: the affine warp needs it, and so does a non-affine
    /// instruction (or it is control flow or a barrier both follow).
    Both,
    /// Non-affine stream only.
    NonAffine,
    /// A candidate that stays in the non-affine stream, and why.
    Rejected(String),
}

/// The pass's result for one kernel.
#[derive(Clone, Debug)]
pub struct Decoupled {
    /// The kernel to run: the non-affine stream with its affine stream
    /// attached, or the input unchanged when nothing was decoupled.
    pub kernel: Kernel,
    /// Per original instruction.
    pub decisions: Vec<Decision>,
    /// Why the kernel runs unchanged (`None`: it was decoupled).
    pub unchanged: Option<String>,
}

/// Decouple `k` (an allocated kernel).
pub fn decouple(k: &Kernel) -> Decoupled {
    let n = k.insts.len();
    let unchanged = |why: &str| Decoupled { kernel: k.clone(), decisions: vec![Decision::NonAffine; n], unchanged: Some(why.into()) };
    if k.affine.is_some() {
        return unchanged("the kernel is already decoupled");
    }
    if k.insts.iter().any(|i| matches!(i.op, Op::Call { .. } | Op::Ret)) {
        return unchanged("recursive calls: the affine warp has no call stack");
    }
    let a = Analysis::new(k);
    let mut decisions = vec![Decision::NonAffine; n];
    let mut eligible: Vec<usize> = Vec::new();
    let mut needed: BTreeSet<usize> = BTreeSet::new();
    for (i, decision) in decisions.iter_mut().enumerate() {
        let Some(queue) = candidate(k, &a, i) else { continue };
        if queue == DacQueue::Pred {
            if let Err(why) = peu_expands(k, &a, i) {
                *decision = Decision::Rejected(why);
                continue;
            }
        }
        match closure(k, &a, i) {
            Ok(c) => {
                eligible.push(i);
                needed.extend(c);
                *decision = match queue {
                    DacQueue::Pred => Decision::Predicate,
                    q => Decision::Access(q),
                };
            }
            Err(why) => *decision = Decision::Rejected(why),
        }
    }
    if eligible.is_empty() {
        let d = Decoupled { decisions, ..unchanged("no memory access or predicate with a scalar or affine operand the affine warp can follow") };
        return d;
    }
    let elig: BTreeSet<usize> = eligible.iter().copied().collect();

    // The non-affine stream: rewrite the candidates, then keep every other
    // needed instruction some kept instruction still reads.
    let mut non: Vec<Option<Inst>> = k.insts.iter().cloned().map(Some).collect();
    for &i in &eligible {
        let inst = &k.insts[i];
        let mut new = inst.clone();
        if decisions[i] == Decision::Predicate {
            new = Inst::new(Op::Deq(DacQueue::Pred), "deq.pred", inst.line, inst.col);
            new.guard = inst.guard;
            new.dst[0] = inst.dst[0];
        } else {
            new.addr = Some(Addr { base: Opnd::Deq, off: 0 });
        }
        new.finish();
        non[i] = Some(new);
    }
    let removable = |i: usize| needed.contains(&i) && !elig.contains(&i) && !k.insts[i].is_branch() && !k.insts[i].is_exit();
    let mut kept: Vec<bool> = (0..n).map(|i| !removable(i)).collect();
    // A kept instruction keeps the definitions it reads.
    let mut work: Vec<usize> = (0..n).filter(|&i| kept[i]).collect();
    while let Some(j) = work.pop() {
        let inst = non[j].as_ref().expect("kept");
        for r in inst.reads.as_slice().iter().filter_map(|&r| analysis::key(r)) {
            for &d in a.defs(j, r) {
                if !kept[d as usize] {
                    kept[d as usize] = true;
                    work.push(d as usize);
                }
            }
        }
    }
    for i in (0..n).filter(|i| needed.contains(i) && !elig.contains(i)) {
        if kept[i] {
            decisions[i] = Decision::Both;
        } else {
            non[i] = None;
            decisions[i] = Decision::AffineOnly;
        }
    }

    // The affine stream.
    let mut aff: Vec<Option<Inst>> = vec![None; n];
    let mut extra: Vec<Option<Inst>> = vec![None; n];
    for i in 0..n {
        let inst = &k.insts[i];
        if elig.contains(&i) {
            if decisions[i] == Decision::Predicate {
                aff[i] = Some(inst.clone());
                let mut e = Inst::new(Op::Enq(DacQueue::Pred), "enq.pred", inst.line, inst.col);
                e.guard = inst.guard;
                e.src[0] = inst.dst[0];
                e.finish();
                extra[i] = Some(e);
            } else {
                let q = if matches!(inst.op, Op::Ld { space: Space::Global, .. }) { DacQueue::Data } else { DacQueue::Addr };
                let mut e = Inst::new(Op::Enq(q), if q == DacQueue::Data { "enq.data" } else { "enq.addr" }, inst.line, inst.col);
                e.guard = inst.guard;
                e.addr = inst.addr;
                e.mem = inst.mem;
                e.finish();
                aff[i] = Some(e);
            }
        } else if needed.contains(&i) {
            aff[i] = Some(inst.clone());
        } else if let Op::Bra { .. } = inst.op {
            if inst.guard.is_none() {
                aff[i] = Some(inst.clone());
            } else {
                // Nothing the affine warp needs lies before the reconvergence point.
                let b = a.cfg.block_of[i] as usize;
                aff[i] = Some(match a.cfg.blocks[b].ipdom {
                    Some(p) => {
                        let mut j = Inst::new(Op::Bra { target: a.cfg.blocks[p as usize].start, uni: true, reconv: 0 }, "bra.uni", inst.line, inst.col);
                        j.finish();
                        j
                    }
                    None => exit_at(inst),
                });
            }
        } else if inst.is_exit() && inst.guard.is_none() {
            aff[i] = Some(inst.clone());
        } else if matches!(inst.op, Op::Bar { red: None, wait: true }) && inst.guard.is_none() && inst.src.iter().all(|o| matches!(o, Opnd::Imm(_) | Opnd::None)) {
            // Section 4.2: barriers are replicated to the affine warp, so
            // that expansion past one waits for the CTA's warps to pass it.
            aff[i] = Some(inst.clone());
            decisions[i] = Decision::Both;
        }
    }
    let mut affine = rebuild(k, interleave(aff, extra), &format!("{}.affine", k.name));
    affine.base_name = format!("{}.affine", k.base_name);
    let mut non_affine = rebuild(k, non.into_iter().map(|i| vec![i]).collect(), &k.name);
    non_affine.affine = Some(Arc::new(affine));
    Decoupled { kernel: non_affine, decisions, unchanged: None }
}

fn exit_at(inst: &Inst) -> Inst {
    let mut e = Inst::new(Op::Exit, "exit", inst.line, inst.col);
    e.finish();
    e
}

/// A candidate's queue: a memory access with a register address that is
/// scalar or affine, or a `setp` of scalar or affine operands.
fn candidate(k: &Kernel, a: &Analysis, i: usize) -> Option<DacQueue> {
    let inst = &k.insts[i];
    let guard_ok = inst.guard.is_none_or(|g| a.operand(i, Opnd::P(g.pred)) != Class::NonAffine);
    match inst.op {
        Op::Ld { space, .. } | Op::St { space, .. } if space != Space::Param && !(space == Space::Const && a.class[i] == Class::Scalar) => {
            inst.addr?.base.is_reg().then_some(if matches!(inst.op, Op::Ld { .. }) && space == Space::Global {
                DacQueue::Data
            } else {
                DacQueue::Addr
            })
        }
        Op::Setp { .. } => (inst.dst[1] == Opnd::None && guard_ok && a.class[i] != Class::NonAffine).then_some(DacQueue::Pred),
        Op::Alu { ty: Ty::Pred, .. } => (guard_ok && a.class[i] != Class::NonAffine).then_some(DacQueue::Pred),
        _ => None,
    }
}

/// Whether the predicate expansion unit can expand predicate candidate `i`:
/// it compares one 32-bit integer affine value with a scalar (section 4.3:
/// "DAC requires that one operand (the scalar operand) be a scalar"), one
/// comparison per `enq.pred`. A compound predicate stays in the non-affine
/// stream, its comparisons decoupled one by one.
fn peu_expands(k: &Kernel, a: &Analysis, i: usize) -> Result<(), String> {
    let inst = &k.insts[i];
    let Op::Setp { cmp, bop, ty, .. } = inst.op else {
        return Err("a compound predicate: the predicate expansion unit makes one comparison (its comparisons are decoupled one by one)".into());
    };
    if bop.is_some() {
        return Err("a comparison combined with a predicate: the predicate expansion unit makes one comparison".into());
    }
    if !matches!(ty, Ty::B32 | Ty::U32 | Ty::S32) {
        return Err(format!("a .{} comparison: the predicate expansion unit compares 32-bit integers", ty.name()));
    }
    if !matches!(cmp, Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge | Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs) {
        return Err("a floating-point comparison: the predicate expansion unit compares integers".into());
    }
    if ![inst.src[0], inst.src[1]].iter().any(|&o| a.operand(i, o) == Class::Scalar) {
        return Err("no scalar operand: the predicate expansion unit compares an affine value with a scalar".into());
    }
    Ok(())
}

/// Everything candidate `c` needs in the affine stream: its operands'
/// definitions, recursively, and the branches deciding whether any of them
/// runs, with their predicates'. `Err` names the first non-affine one.
fn closure(k: &Kernel, a: &Analysis, c: usize) -> Result<BTreeSet<usize>, String> {
    let mut seen = BTreeSet::new();
    let mut work = vec![c];
    while let Some(i) = work.pop() {
        if !seen.insert(i) {
            continue;
        }
        let inst = &k.insts[i];
        // What the affine warp must read to execute `i` (a decoupled
        // store's data stays in the non-affine stream).
        let mut reads: Vec<Opnd> = inst.guard.map(|g| Opnd::P(g.pred)).into_iter().collect();
        if i == c && inst.mem.is_some() {
            reads.extend(inst.addr.map(|x| x.base));
        } else {
            reads.extend(inst.src.iter().copied());
            reads.extend(inst.addr.map(|x| x.base));
        }
        for o in reads.into_iter().filter(|o| *o != Opnd::None) {
            if a.operand(i, o) == Class::NonAffine {
                let why = a.why_not(&k.insts, i, o);
                return Err(if inst.is_branch() || inst.is_exit() {
                    format!("depends on the data-dependent branch at line {} ({why})", inst.line)
                } else {
                    why
                });
            }
            for r in analysis::regs_of(o) {
                work.extend(a.defs(i, r).iter().map(|&d| d as usize));
            }
        }
        let b = a.cfg.block_of[i] as usize;
        work.extend(a.controls[b].iter().map(|&x| a.branch_of(x)));
    }
    Ok(seen)
}

fn interleave(main: Vec<Option<Inst>>, extra: Vec<Option<Inst>>) -> Vec<Vec<Option<Inst>>> {
    main.into_iter().zip(extra).map(|(m, e)| vec![m, e]).collect()
}

/// A kernel of `k`'s registers and memory with the instructions in
/// `slots` (per original instruction, what replaces it, possibly nothing):
/// branch targets and labels move to the first instruction kept at or after
/// theirs, and the CFG and reconvergence points are rebuilt.
fn rebuild(k: &Kernel, slots: Vec<Vec<Option<Inst>>>, name: &str) -> Kernel {
    let n = slots.len();
    let mut at = vec![0u32; n + 1];
    let mut insts: Vec<Inst> = Vec::new();
    for (i, s) in slots.into_iter().enumerate() {
        at[i] = insts.len() as u32;
        insts.extend(s.into_iter().flatten());
    }
    at[n] = insts.len() as u32;
    // Control must not fall off the end.
    if insts.last().is_none_or(|l| !((l.is_exit() || matches!(l.op, Op::Bra { .. })) && l.guard.is_none())) {
        let line = insts.last().map_or(k.line, |l| l.line);
        let mut e = Inst::new(Op::Exit, "exit", line, 0);
        e.finish();
        insts.push(e);
    }
    for inst in &mut insts {
        if let Op::Bra { target, .. } = &mut inst.op {
            *target = at[*target as usize];
        }
    }
    let cfg = Cfg::build(&insts);
    for (i, inst) in insts.iter_mut().enumerate() {
        if let Op::Bra { reconv, .. } = &mut inst.op {
            *reconv = cfg.reconv_pc(i);
        }
        inst.finish();
    }
    let mut out = k.clone();
    out.name = name.to_string();
    out.labels = k.labels.iter().map(|(l, t)| (l.clone(), at[(*t as usize).min(n)])).collect();
    out.insts = insts;
    out.cfg = cfg;
    out
}

impl Decoupled {
    /// The decision per instruction, then both streams.
    pub fn report(&self, original: &Kernel) -> String {
        let mut s = String::new();
        let k = &self.kernel;
        match &self.unchanged {
            Some(why) => {
                let _ = writeln!(s, "kernel {}: not decoupled ({why}); it runs unchanged", original.base_name);
            }
            None => {
                let count = |f: &dyn Fn(&Decision) -> bool| self.decisions.iter().filter(|d| f(d)).count();
                let aff = k.affine.as_ref().expect("decoupled");
                let _ = writeln!(
                    s,
                    "kernel {}: decoupled. {} accesses ({} prefetched loads) and {} predicates; {} instructions only in the affine stream. Non-affine stream {} instructions (was {}), affine stream {}",
                    original.base_name,
                    count(&|d| matches!(d, Decision::Access(_))),
                    count(&|d| matches!(d, Decision::Access(DacQueue::Data))),
                    count(&|d| matches!(d, Decision::Predicate)),
                    count(&|d| matches!(d, Decision::AffineOnly)),
                    k.insts.len(),
                    original.insts.len(),
                    aff.insts.len()
                );
            }
        }
        let _ = writeln!(s, "\ndecisions:");
        for (i, (inst, d)) in original.insts.iter().zip(&self.decisions).enumerate() {
            let what = match d {
                Decision::Access(q) => format!("decoupled: enq.{0} / [deq.{0}]", q.name()),
                Decision::Predicate => "decoupled: enq.pred / deq.pred".to_string(),
                Decision::AffineOnly => "affine stream only".to_string(),
                Decision::Both => "both streams".to_string(),
                Decision::NonAffine => "non-affine stream".to_string(),
                Decision::Rejected(why) => format!("not decoupled: {why}"),
            };
            let _ = writeln!(s, "  {:#06x}  {:<44} line {:<5} {what}", i as u32 * INST_BYTES, inst.text(true), inst.line);
        }
        if let Some(aff) = &k.affine {
            let _ = write!(s, "\naffine stream:\n{}", aff.listing());
            let _ = write!(s, "\nnon-affine stream:\n{}", k.listing());
        }
        s
    }
}
