//! Spilling, as ptxas does when a kernel needs more registers than the
//! register file holds: a 32- or 64-bit virtual register is kept in the
//! thread's local memory (a load into a short-lived temporary before every
//! use, a store after every definition, guarded like the definition), and a
//! predicate is kept in a 32-bit register (`selp` after every definition,
//! `setp.ne` before every use), which may in turn be spilled. The loads and
//! stores are ordinary `.local` accesses, so the timing SM sees the spill
//! traffic as local-memory traffic.
//!
//! Which register: the one with the longest span (first to last
//! appearance) per appearance among those not introduced by spilling —
//! ptxas's own heuristics are not published; this one frees the most
//! register-cycles per inserted instruction.

use crate::inst::{Addr, Guard, Inst, Op, Opnd, RegWidth, Space, Ty};
use crate::ptx::VRegInfo;
use crate::regalloc::vreg;

/// Names of the temporaries spilling introduces (never spilled again).
const TEMP: &str = "%spill.";

fn opnd(v: usize, w: RegWidth) -> Opnd {
    match w {
        RegWidth::W32 => Opnd::R(v as u32),
        RegWidth::W64 => Opnd::D(v as u32),
        RegWidth::Pred => Opnd::P(v as u32),
    }
}

/// The register to spill next, of the class that overflowed (`preds`:
/// predicates), or `None` if no candidate is left.
pub fn choose(insts: &[Inst], vregs: &[VRegInfo], preds: bool) -> Option<usize> {
    let n = vregs.len();
    let (mut first, mut last, mut count) = (vec![usize::MAX; n], vec![0usize; n], vec![0usize; n]);
    for (i, inst) in insts.iter().enumerate() {
        let g = inst.guard.map(|g| Opnd::P(g.pred));
        for v in inst.reg_uses().chain(inst.reg_defs()).chain(g).filter_map(vreg) {
            first[v] = first[v].min(i);
            last[v] = last[v].max(i);
            count[v] += 1;
        }
    }
    (0..n)
        .filter(|&v| count[v] > 0 && !vregs[v].name.starts_with(TEMP) && (vregs[v].width == RegWidth::Pred) == preds)
        .max_by_key(|&v| ((last[v] - first[v] + 1) * 1000 / count[v], std::cmp::Reverse(v)))
}

/// Rewrite `insts` with virtual register `v` spilled; new temporaries are
/// added to `vregs`, a local slot to `local_bytes`; branch targets and
/// `labels` follow the moved instructions.
pub fn spill(insts: &[Inst], vregs: &mut Vec<VRegInfo>, v: usize, local_bytes: &mut u32, labels: &mut [(String, u32)]) -> Vec<Inst> {
    let w = vregs[v].width;
    // Where the value lives: a local slot, or (a predicate) a 32-bit register.
    let (slot, home) = match w {
        RegWidth::Pred => {
            vregs.push(VRegInfo { name: format!("{TEMP}p{v}"), width: RegWidth::W32, bits: 32 });
            (0, vregs.len() - 1)
        }
        _ => {
            let size = if w == RegWidth::W64 { 8 } else { 4 };
            let slot = local_bytes.div_ceil(size) * size;
            *local_bytes = slot + size;
            (slot, usize::MAX)
        }
    };
    let ty = if w == RegWidth::W64 { Ty::U64 } else { Ty::U32 };
    let temp = |vregs: &mut Vec<VRegInfo>| {
        vregs.push(VRegInfo { name: format!("{TEMP}{}", vregs.len()), width: w, bits: if w == RegWidth::Pred { 1 } else { ty.bits() } });
        vregs.len() - 1
    };
    let mut out = Vec::with_capacity(insts.len() + 16);
    let mut start = Vec::with_capacity(insts.len());
    for inst in insts {
        start.push(out.len() as u32);
        let mut i = inst.clone();
        let (line, col) = (i.line, i.col);
        let reads = i.reg_uses().any(|o| vreg(o) == Some(v)) || i.guard.is_some_and(|g| g.pred as usize == v && w == RegWidth::Pred);
        if reads {
            let t = temp(vregs);
            let to = opnd(t, w);
            out.push(if w == RegWidth::Pred {
                let mut r = Inst::new(Op::Setp { cmp: crate::inst::Cmp::Ne, bop: None, ty: Ty::U32, ftz: false }, "setp.ne.u32", line, col);
                r.dst[0] = to;
                r.src[0] = Opnd::R(home as u32);
                r.src[1] = Opnd::Imm(0);
                r
            } else {
                let mut r = Inst::new(Op::Ld { space: Space::Local, ty, vec: 1 }, if ty == Ty::U64 { "ld.local.u64" } else { "ld.local.u32" }, line, col);
                r.dst[0] = to;
                r.addr = Some(Addr { base: Opnd::None, off: slot as i64 });
                r
            });
            for o in i.src.iter_mut() {
                if vreg(*o) == Some(v) {
                    *o = to;
                }
            }
            if let Some(a) = &mut i.addr {
                if vreg(a.base) == Some(v) {
                    a.base = to;
                }
            }
            if let Some(g) = &mut i.guard {
                if g.pred as usize == v && w == RegWidth::Pred {
                    g.pred = t as u32;
                }
            }
        }
        let writes = i.reg_defs().any(|o| vreg(o) == Some(v));
        let mut after = None;
        if writes {
            let t = temp(vregs);
            let to = opnd(t, w);
            for o in i.dst.iter_mut() {
                if vreg(*o) == Some(v) {
                    *o = to;
                }
            }
            // Guarded like the definition: lanes that skip it keep the old value.
            let guard: Option<Guard> = i.guard;
            let mut s = if w == RegWidth::Pred {
                let mut s = Inst::new(Op::Selp(Ty::U32), "selp.u32", line, col);
                s.dst[0] = Opnd::R(home as u32);
                s.src = [Opnd::Imm(1), Opnd::Imm(0), to, Opnd::None];
                s
            } else {
                let mut s = Inst::new(Op::St { space: Space::Local, ty, vec: 1 }, if ty == Ty::U64 { "st.local.u64" } else { "st.local.u32" }, line, col);
                s.src[0] = to;
                s.addr = Some(Addr { base: Opnd::None, off: slot as i64 });
                s
            };
            s.guard = guard;
            after = Some(s);
        }
        out.push(i);
        out.extend(after);
    }
    let end = out.len() as u32;
    for i in out.iter_mut() {
        if let Op::Bra { target, .. } | Op::Call { target } = &mut i.op {
            *target = start.get(*target as usize).copied().unwrap_or(end);
        }
    }
    for (_, at) in labels.iter_mut() {
        *at = start.get(*at as usize).copied().unwrap_or(*at);
    }
    out
}
