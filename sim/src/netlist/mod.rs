//! The netlist simulator: a block's IR, flattened and compiled into a
//! levelized program over 64-bit words, stepped one clock cycle at a time.
//!
//! `eval` runs the program once in topological order (every combinational
//! value settles in one pass; loops were rejected at elaboration), as runs of
//! one instruction kind: one dispatch per run, then a straight-line loop over
//! the run's operands, so the interpreter's indirect branch does not
//! dominate. `tick`
//! applies memory writes in port order, then copies every register's settled
//! next value (or its reset value while `rst` is high). Values of up to 64
//! bits take one word and run on a specialised instruction; wider values use
//! the generic word-slice routines in [`wide`]. Nothing allocates and nothing
//! is looked up by name after construction.

pub(crate) mod flatten;
pub mod opt;
pub mod wide;

use crate::component::{top_mask, words_for, Component, PortId, PortSpec};
use flatten::{FOp, Flat, FlatId};
use hw::ir::{BinOp, Module, ShiftOp, UnOp};
use std::cmp::Ordering;

pub use crate::inspect::{Scope, SimMem, SimSignal};
use crate::inspect::Inspect;

/// Narrow (single-word) instructions; `d`, `a`, `b`... are word offsets.
#[derive(Clone, Copy, Debug)]
enum Ins {
    And { d: u32, a: u32, b: u32 },
    Or { d: u32, a: u32, b: u32 },
    Xor { d: u32, a: u32, b: u32 },
    Not { d: u32, a: u32, m: u64 },
    Add { d: u32, a: u32, b: u32, m: u64 },
    Sub { d: u32, a: u32, b: u32, m: u64 },
    Mul { d: u32, a: u32, b: u32, m: u64 },
    Eq { d: u32, a: u32, b: u32 },
    Ne { d: u32, a: u32, b: u32 },
    Lt { d: u32, a: u32, b: u32 },
    Le { d: u32, a: u32, b: u32 },
    /// Signed compares: `sh = 64 - width` moves the sign bit to bit 63.
    Lts { d: u32, a: u32, b: u32, sh: u32 },
    Les { d: u32, a: u32, b: u32, sh: u32 },
    Shl { d: u32, a: u32, b: u32, w: u32 },
    Shr { d: u32, a: u32, b: u32, w: u32 },
    Sra { d: u32, a: u32, b: u32, w: u32 },
    Mux { d: u32, s: u32, t: u32, f: u32 },
    Slice { d: u32, a: u32, lo: u32, m: u64 },
    Sext { d: u32, a: u32, sh: u32, m: u64 },
    RedOr { d: u32, a: u32 },
    RedAnd { d: u32, a: u32, m: u64 },
    RedXor { d: u32, a: u32 },
    Ffs { d: u32, a: u32 },
    Pop { d: u32, a: u32 },
    /// Fused forms of common pairs (see `Compiler::plan_fusion`).
    AndNot { d: u32, a: u32, b: u32 },
    And3 { d: u32, a: u32, b: u32, c: u32 },
    /// `d = a | (c ? t : 0)`.
    OrIf { d: u32, a: u32, c: u32, t: u32 },
    /// `d = bit b of a` (0 past the width `w`).
    BitAt { d: u32, a: u32, b: u32, w: u32 },
    /// `d = OR of parts[start..start+len]`, each `(slot, shift)`.
    Cat { d: u32, start: u32, len: u32 },
    /// Single-word memory read: word `base + addr` of `mem_words` if `addr < depth`.
    MemRd { d: u32, addr: u32, base: u32, depth: u32 },
    Copy { d: u32, a: u32 },
    /// Index into the wide instruction table.
    Wide(u32),
}

/// Instructions over multi-word values.
#[derive(Clone, Debug)]
enum WideIns {
    Bit { op: BinOp, d: u32, a: u32, b: u32, n: u32, wa: u32 },
    Not { d: u32, a: u32, n: u32, w: u32 },
    Shift { op: ShiftOp, d: u32, a: u32, b: u32, n: u32, nb: u32, w: u32 },
    Mux { d: u32, s: u32, t: u32, f: u32, n: u32 },
    Cat { d: u32, n: u32, parts: Vec<(u32, u32, u32)> },
    Slice { d: u32, a: u32, na: u32, lo: u32, w: u32 },
    Ext { d: u32, a: u32, na: u32, wa: u32, w: u32, signed: bool },
    Red { op: UnOp, d: u32, a: u32, na: u32, wa: u32 },
    MemRd { d: u32, mem: u32, addr: u32 },
    Copy { d: u32, a: u32, n: u32 },
}

#[derive(Clone, Debug)]
struct CMem {
    base: usize,
    stride: usize,
    depth: u64,
    reset: Option<Vec<u64>>,
    /// (addr, data, en) slots.
    writes: Vec<(u32, u32, u32)>,
}

#[derive(Clone, Copy, Debug)]
struct PortLoc {
    slot: u32,
    words: u32,
}

/// A compiled, runnable block.
#[derive(Clone, Debug)]
pub struct NetlistSim {
    name: String,
    ports: Vec<PortSpec>,
    locs: Vec<PortLoc>,
    vals: Vec<u64>,
    mem_words: Vec<u64>,
    prog: Vec<Ins>,
    /// `prog` cut into maximal runs of one instruction kind, `(start, end)`:
    /// `run` dispatches once per run and loops over the run's operands.
    runs: Vec<(u32, u32)>,
    wide: Vec<WideIns>,
    cat_parts: Vec<(u32, u32)>,
    mems: Vec<CMem>,
    /// Single-word registers: (q, next).
    regs1: Vec<(u32, u32)>,
    /// Multi-word registers: (q, next, words).
    regsn: Vec<(u32, u32, u32)>,
    /// Every register's reset value: (q, words of the value).
    resets: Vec<(u32, Vec<u64>)>,
    rst: u32,
    /// First slot of the input frame (`rst`, then the inputs) and its length.
    inputs_base: u32,
    inputs_words: u32,
    scopes: Vec<Scope>,
    signals: Vec<SimSignal>,
    mem_info: Vec<SimMem>,
    cycle: u64,
}

impl NetlistSim {
    /// Compile a finished module (and its sub-modules).
    pub fn new(top: &Module) -> NetlistSim {
        let mut flat = Flat::new(top);
        opt::optimize(&mut flat);
        Compiler::new(flat).compile(top)
    }

    /// Number of clock edges since construction.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Instruction mix of one `eval`: (operation, count), most frequent first.
    pub fn program_mix(&self) -> Vec<(String, usize)> {
        let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
        for ins in &self.prog {
            let name = format!("{ins:?}");
            let name = name.split([' ', '(']).next().unwrap_or("").to_string();
            *counts.entry(name).or_default() += 1;
        }
        let mut v: Vec<(String, usize)> = counts.into_iter().collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.1));
        v
    }

    /// Instruction count of one `eval` (a size/speed figure for benchmarks).
    pub fn program_len(&self) -> usize {
        self.prog.len()
    }

    /// Dispatches per `eval`: the program's runs of one instruction kind.
    pub fn program_runs(&self) -> usize {
        self.runs.len()
    }

    pub fn scopes(&self) -> &[Scope] {
        &self.scopes
    }

    /// Every named signal of the hierarchy.
    pub fn signals(&self) -> &[SimSignal] {
        &self.signals
    }

    pub fn memories(&self) -> &[SimMem] {
        &self.mem_info
    }

    /// Current value of a signal (valid after `eval`).
    pub fn value(&self, s: &SimSignal) -> &[u64] {
        Inspect::value(self, s)
    }

    /// `n` words at a slot (see [`SimSignal::slot`]).
    pub fn slot_words(&self, slot: u32, n: usize) -> &[u64] {
        &self.vals[slot as usize..slot as usize + n]
    }

    /// Current contents of word `i` of a memory.
    pub fn mem_word(&self, m: &SimMem, i: u32) -> &[u64] {
        let o = m.base + i as usize * m.stride;
        &self.mem_words[o..o + m.stride]
    }

    /// Value of a named signal by hierarchical path (`sb.pending` or a top-level
    /// name); for tests and debugging, not the hot path.
    pub fn peek_path(&self, path: &str) -> Option<&[u64]> {
        Inspect::peek_path(self, path)
    }

    /// Hierarchical path of a signal below the top scope (`inst.sub.name`).
    pub fn path(&self, s: &SimSignal) -> String {
        Inspect::path(self, s)
    }

    /// Path of a scope below the top (`""` for the top, `inst.sub` below).
    pub fn scope_path(&self, scope: u32) -> String {
        Inspect::scope_path(self, scope)
    }

    /// Check every slot and memory index the program uses (the interpreter
    /// relies on it to skip bounds checks). A failure is a compiler bug.
    fn validate(&self) {
        let n = self.vals.len() as u32;
        let ok = |x: u32| assert!(x < n, "internal: netlist program slot {x} outside {n}");
        let mut next = 0;
        for &(s, e) in &self.runs {
            assert!(s == next && e > s, "internal: netlist runs do not partition the program");
            let kind = std::mem::discriminant(&self.prog[s as usize]);
            assert!(self.prog[s as usize..e as usize].iter().all(|i| std::mem::discriminant(i) == kind), "internal: mixed run");
            next = e;
        }
        assert_eq!(next as usize, self.prog.len(), "internal: netlist runs do not cover the program");
        for ins in &self.prog {
            match *ins {
                Ins::And { d, a, b }
                | Ins::Or { d, a, b }
                | Ins::Xor { d, a, b }
                | Ins::Eq { d, a, b }
                | Ins::Ne { d, a, b }
                | Ins::Lt { d, a, b }
                | Ins::Le { d, a, b }
                | Ins::Add { d, a, b, .. }
                | Ins::Sub { d, a, b, .. }
                | Ins::Mul { d, a, b, .. }
                | Ins::Lts { d, a, b, .. }
                | Ins::Les { d, a, b, .. }
                | Ins::Shl { d, a, b, .. }
                | Ins::Shr { d, a, b, .. }
                | Ins::Sra { d, a, b, .. }
                | Ins::AndNot { d, a, b }
                | Ins::BitAt { d, a, b, .. } => [d, a, b].into_iter().for_each(ok),
                Ins::And3 { d, a, b, c: t } | Ins::OrIf { d, a, c: b, t } => [d, a, b, t].into_iter().for_each(ok),
                Ins::Mux { d, s, t, f } => [d, s, t, f].into_iter().for_each(ok),
                Ins::Not { d, a, .. }
                | Ins::Slice { d, a, .. }
                | Ins::Sext { d, a, .. }
                | Ins::RedOr { d, a }
                | Ins::RedAnd { d, a, .. }
                | Ins::RedXor { d, a }
                | Ins::Ffs { d, a }
                | Ins::Pop { d, a }
                | Ins::Copy { d, a } => [d, a].into_iter().for_each(ok),
                Ins::Cat { d, start, len } => {
                    ok(d);
                    self.cat_parts[start as usize..(start + len) as usize].iter().for_each(|&(x, _)| ok(x));
                }
                Ins::MemRd { d, addr, base, depth } => {
                    ok(d);
                    ok(addr);
                    assert!(base as usize + depth as usize <= self.mem_words.len(), "internal: memory read outside storage");
                }
                Ins::Wide(i) => assert!((i as usize) < self.wide.len(), "internal: wide instruction {i} missing"),
            }
        }
    }

    #[inline(always)]
    fn run(&mut self) {
        let v = &mut self.vals[..];
        // SAFETY: `validate` checked at construction that every slot an
        // instruction names lies inside `vals` (and every memory read stays
        // inside `mem_words`), and nothing resizes them afterwards.
        macro_rules! r {
            ($x:expr) => {
                unsafe { *v.get_unchecked($x as usize) }
            };
        }
        macro_rules! w {
            ($x:expr, $val:expr) => {{
                let val = $val;
                unsafe { *v.get_unchecked_mut($x as usize) = val }
            }};
        }
        for &(start, end) in &self.runs {
            // SAFETY: `validate` checked that the runs partition `prog`.
            let seg = unsafe { self.prog.get_unchecked(start as usize..end as usize) };
            // One dispatch per run; inside it every instruction has the kind
            // of the first (checked by `validate`), so the loop body is
            // straight-line code.
            macro_rules! each {
                ($p:pat => $body:expr) => {
                    for ins in seg {
                        match *ins {
                            $p => $body,
                            // SAFETY: a run holds one instruction kind (`validate`).
                            _ => unsafe { std::hint::unreachable_unchecked() },
                        }
                    }
                };
            }
            match seg[0] {
                Ins::And { .. } => each!(Ins::And { d, a, b } => w!(d, r!(a) & r!(b))),
                Ins::Or { .. } => each!(Ins::Or { d, a, b } => w!(d, r!(a) | r!(b))),
                Ins::Xor { .. } => each!(Ins::Xor { d, a, b } => w!(d, r!(a) ^ r!(b))),
                Ins::Not { .. } => each!(Ins::Not { d, a, m } => w!(d, !r!(a) & m)),
                Ins::Add { .. } => each!(Ins::Add { d, a, b, m } => w!(d, r!(a).wrapping_add(r!(b)) & m)),
                Ins::Sub { .. } => each!(Ins::Sub { d, a, b, m } => w!(d, r!(a).wrapping_sub(r!(b)) & m)),
                Ins::Mul { .. } => each!(Ins::Mul { d, a, b, m } => w!(d, r!(a).wrapping_mul(r!(b)) & m)),
                Ins::Eq { .. } => each!(Ins::Eq { d, a, b } => w!(d, (r!(a) == r!(b)) as u64)),
                Ins::Ne { .. } => each!(Ins::Ne { d, a, b } => w!(d, (r!(a) != r!(b)) as u64)),
                Ins::Lt { .. } => each!(Ins::Lt { d, a, b } => w!(d, (r!(a) < r!(b)) as u64)),
                Ins::Le { .. } => each!(Ins::Le { d, a, b } => w!(d, (r!(a) <= r!(b)) as u64)),
                Ins::Lts { .. } => each!(Ins::Lts { d, a, b, sh } => w!(d, (((r!(a) << sh) as i64) < ((r!(b) << sh) as i64)) as u64)),
                Ins::Les { .. } => each!(Ins::Les { d, a, b, sh } => w!(d, (((r!(a) << sh) as i64) <= ((r!(b) << sh) as i64)) as u64)),
                Ins::Shl { .. } => each!(Ins::Shl { d, a, b, w } => {
                    let s = r!(b);
                    w!(d, if s >= w as u64 { 0 } else { (r!(a) << s) & top_mask(w) });
                }),
                Ins::Shr { .. } => each!(Ins::Shr { d, a, b, w } => {
                    let s = r!(b);
                    w!(d, if s >= w as u64 { 0 } else { r!(a) >> s });
                }),
                Ins::Sra { .. } => each!(Ins::Sra { d, a, b, w } => {
                    let s = r!(b).min(w as u64 - 1) as u32;
                    let x = ((r!(a) << (64 - w)) as i64) >> (64 - w);
                    w!(d, ((x >> s) as u64) & top_mask(w));
                }),
                Ins::Mux { .. } => each!(Ins::Mux { d, s, t, f } => {
                    // Branch-free: a select is data-dependent and would mispredict.
                    let m = ((r!(s) != 0) as u64).wrapping_neg();
                    w!(d, (r!(t) & m) | (r!(f) & !m));
                }),
                Ins::Slice { .. } => each!(Ins::Slice { d, a, lo, m } => w!(d, (r!(a) >> lo) & m)),
                Ins::Sext { .. } => each!(Ins::Sext { d, a, sh, m } => w!(d, ((((r!(a) << sh) as i64) >> sh) as u64) & m)),
                Ins::RedOr { .. } => each!(Ins::RedOr { d, a } => w!(d, (r!(a) != 0) as u64)),
                Ins::RedAnd { .. } => each!(Ins::RedAnd { d, a, m } => w!(d, (r!(a) == m) as u64)),
                Ins::RedXor { .. } => each!(Ins::RedXor { d, a } => w!(d, (r!(a).count_ones() & 1) as u64)),
                Ins::Ffs { .. } => each!(Ins::Ffs { d, a } => {
                    let x = r!(a);
                    w!(d, if x == 0 { 0 } else { x.trailing_zeros() as u64 });
                }),
                Ins::Pop { .. } => each!(Ins::Pop { d, a } => w!(d, r!(a).count_ones() as u64)),
                Ins::Cat { .. } => each!(Ins::Cat { d, start, len } => {
                    let mut x = 0u64;
                    for &(slot, shift) in &self.cat_parts[start as usize..(start + len) as usize] {
                        x |= r!(slot) << shift;
                    }
                    w!(d, x);
                }),
                Ins::AndNot { .. } => each!(Ins::AndNot { d, a, b } => w!(d, r!(a) & !r!(b))),
                Ins::And3 { .. } => each!(Ins::And3 { d, a, b, c } => w!(d, r!(a) & r!(b) & r!(c))),
                Ins::OrIf { .. } => each!(Ins::OrIf { d, a, c, t } => w!(d, r!(a) | if r!(c) != 0 { r!(t) } else { 0 })),
                Ins::BitAt { .. } => each!(Ins::BitAt { d, a, b, w } => {
                    let s = r!(b);
                    w!(d, if s >= w as u64 { 0 } else { (r!(a) >> s) & 1 });
                }),
                Ins::MemRd { .. } => each!(Ins::MemRd { d, addr, base, depth } => {
                    let a = r!(addr);
                    // SAFETY: `validate` checked base + depth <= mem_words.len().
                    w!(d, if a < depth as u64 { unsafe { *self.mem_words.get_unchecked(base as usize + a as usize) } } else { 0 });
                }),
                Ins::Copy { .. } => each!(Ins::Copy { d, a } => w!(d, r!(a))),
                Ins::Wide(_) => each!(Ins::Wide(i) => exec_wide(&self.wide[i as usize], v, &self.mems, &self.mem_words)),
            }
        }
    }
}

fn exec_wide(ins: &WideIns, v: &mut [u64], mems: &[CMem], mem_words: &[u64]) {
    // Destinations are allocated after their operands, so `d` is above every
    // operand slot and one split separates them.
    match ins {
        WideIns::Bit { op, d, a, b, n, wa } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            let na = words_for(*wa);
            let (x, y) = (&lo[*a as usize..*a as usize + na], &lo[*b as usize..*b as usize + na]);
            let out = &mut hi[..*n as usize];
            match op {
                BinOp::And => out.iter_mut().zip(x.iter().zip(y)).for_each(|(o, (p, q))| *o = p & q),
                BinOp::Or => out.iter_mut().zip(x.iter().zip(y)).for_each(|(o, (p, q))| *o = p | q),
                BinOp::Xor => out.iter_mut().zip(x.iter().zip(y)).for_each(|(o, (p, q))| *o = p ^ q),
                BinOp::Add => wide::add(out, x, y, *wa),
                BinOp::Sub => wide::sub(out, x, y, *wa),
                BinOp::Mul => wide::mul(out, x, y, *wa),
                BinOp::Eq => out[0] = (x == y) as u64,
                BinOp::Ne => out[0] = (x != y) as u64,
                BinOp::Lt => out[0] = (wide::cmp_u(x, y) == Ordering::Less) as u64,
                BinOp::Le => out[0] = (wide::cmp_u(x, y) != Ordering::Greater) as u64,
                BinOp::Lts => out[0] = (wide::cmp_s(x, y, *wa) == Ordering::Less) as u64,
                BinOp::Les => out[0] = (wide::cmp_s(x, y, *wa) != Ordering::Greater) as u64,
            }
        }
        WideIns::Not { d, a, n, w } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            let out = &mut hi[..*n as usize];
            for (o, x) in out.iter_mut().zip(&lo[*a as usize..]) {
                *o = !x;
            }
            wide::mask_top(out, *w);
        }
        WideIns::Shift { op, d, a, b, n, nb, w } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            let x = &lo[*a as usize..*a as usize + *n as usize];
            let amt = wide::amount(&lo[*b as usize..*b as usize + *nb as usize]);
            let out = &mut hi[..*n as usize];
            match op {
                ShiftOp::Shl => wide::shl(out, x, amt, *w),
                ShiftOp::Shr => wide::shr(out, x, amt, *w),
                ShiftOp::Sra => wide::sra(out, x, amt, *w),
            }
        }
        WideIns::Mux { d, s, t, f, n } => {
            let src = if v[*s as usize] != 0 { *t } else { *f } as usize;
            v.copy_within(src..src + *n as usize, *d as usize);
        }
        WideIns::Cat { d, n, parts } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            let out = &mut hi[..*n as usize];
            out.fill(0);
            for &(slot, shift, w) in parts {
                wide::copy_bits(out, shift, &lo[slot as usize..slot as usize + words_for(w)], 0, w);
            }
        }
        WideIns::Slice { d, a, na, lo: from, w } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            let out = &mut hi[..words_for(*w)];
            out.fill(0);
            wide::copy_bits(out, 0, &lo[*a as usize..(*a + *na) as usize], *from, *w);
        }
        WideIns::Ext { d, a, na, wa, w, signed } => {
            let (lo, hi) = v.split_at_mut(*d as usize);
            wide::ext(&mut hi[..words_for(*w)], &lo[*a as usize..(*a + *na) as usize], *wa, *w, *signed);
        }
        WideIns::Red { op, d, a, na, wa } => {
            let x = &v[*a as usize..(*a + *na) as usize];
            let r = match op {
                UnOp::RedAnd => wide::red_and(x, *wa) as u64,
                UnOp::RedOr => wide::red_or(x) as u64,
                UnOp::RedXor => wide::popcount(x) & 1,
                UnOp::Ffs => wide::ffs(x),
                UnOp::Popcount => wide::popcount(x),
                UnOp::Not => unreachable!("not is WideIns::Not"),
            };
            v[*d as usize] = r;
        }
        WideIns::MemRd { d, mem, addr } => {
            let m = &mems[*mem as usize];
            let a = v[*addr as usize];
            let out = &mut v[*d as usize..*d as usize + m.stride];
            if a < m.depth {
                let o = m.base + a as usize * m.stride;
                out.copy_from_slice(&mem_words[o..o + m.stride]);
            } else {
                out.fill(0);
            }
        }
        WideIns::Copy { d, a, n } => v.copy_within(*a as usize..(*a + *n) as usize, *d as usize),
    }
}

impl Component for NetlistSim {
    fn name(&self) -> &str {
        &self.name
    }

    fn ports(&self) -> &[PortSpec] {
        &self.ports
    }

    fn set(&mut self, port: PortId, value: &[u64]) {
        let spec = &self.ports[port.0 as usize];
        let PortLoc { slot, words } = self.locs[port.0 as usize];
        let (s, n) = (slot as usize, words as usize);
        for k in 0..n {
            self.vals[s + k] = value.get(k).copied().unwrap_or(0);
        }
        self.vals[s + n - 1] &= top_mask(spec.width);
    }

    fn get(&self, port: PortId) -> &[u64] {
        let PortLoc { slot, words } = self.locs[port.0 as usize];
        &self.vals[slot as usize..(slot + words) as usize]
    }

    /// Inputs occupy consecutive slots in port order (`rst` first): one copy.
    fn set_inputs(&mut self, words: &[u64]) {
        let base = self.inputs_base as usize;
        debug_assert!(words.len() == self.inputs_words as usize);
        self.vals[base..base + words.len()].copy_from_slice(words);
    }

    fn eval(&mut self) {
        self.run();
    }

    fn tick(&mut self) {
        let rst = self.vals[self.rst as usize] != 0;
        for m in &self.mems {
            match (&m.reset, rst) {
                (Some(r), true) => {
                    for i in 0..m.depth as usize {
                        let o = m.base + i * m.stride;
                        self.mem_words[o..o + m.stride].copy_from_slice(r);
                    }
                }
                (None, true) => {} // no writes while in reset
                (_, false) => {
                    for &(addr, data, en) in &m.writes {
                        if self.vals[en as usize] == 0 {
                            continue;
                        }
                        let a = self.vals[addr as usize];
                        if a < m.depth {
                            let o = m.base + a as usize * m.stride;
                            let d = data as usize;
                            self.mem_words[o..o + m.stride].copy_from_slice(&self.vals[d..d + m.stride]);
                        }
                    }
                }
            }
        }
        if rst {
            for (q, r) in &self.resets {
                let q = *q as usize;
                self.vals[q..q + r.len()].copy_from_slice(r);
            }
        } else {
            for &(q, next) in &self.regs1 {
                self.vals[q as usize] = self.vals[next as usize];
            }
            for &(q, next, n) in &self.regsn {
                self.vals.copy_within(next as usize..(next + n) as usize, q as usize);
            }
        }
        self.cycle += 1;
    }
}

impl Inspect for NetlistSim {
    fn scopes(&self) -> &[Scope] {
        &self.scopes
    }
    fn signals(&self) -> &[SimSignal] {
        &self.signals
    }
    fn memories(&self) -> &[SimMem] {
        &self.mem_info
    }
    fn slot_words(&self, slot: u32, n: usize) -> &[u64] {
        NetlistSim::slot_words(self, slot, n)
    }
    fn mem_word(&self, m: &SimMem, i: u32) -> &[u64] {
        NetlistSim::mem_word(self, m, i)
    }
}

/// A fused instruction chosen for a node (operands are flat nodes).
#[derive(Clone, Copy, Debug)]
enum Fuse {
    AndNot(FlatId, FlatId),
    And3(FlatId, FlatId, FlatId),
    OrIf(FlatId, FlatId, FlatId),
    BitAt(FlatId, FlatId),
}

impl Fuse {
    /// Which fused instruction, for grouping a level's instructions by kind.
    fn kind(self) -> usize {
        match self {
            Fuse::AndNot(..) => 0,
            Fuse::And3(..) => 1,
            Fuse::OrIf(..) => 2,
            Fuse::BitAt(..) => 3,
        }
    }
}

/// Turns a flat graph into slots and instructions.
struct Compiler {
    flat: Flat,
    mem_base: Vec<usize>,
    fuse: Vec<Option<Fuse>>,
    skip: Vec<bool>,
    slot: Vec<u32>,
    nwords: u32,
    init: Vec<u64>,
    prog: Vec<Ins>,
    wide: Vec<WideIns>,
    cat_parts: Vec<(u32, u32)>,
}

impl Compiler {
    fn new(flat: Flat) -> Self {
        let n = flat.nodes.len();
        let mut mem_base = Vec::new();
        let mut total = 0;
        for m in &flat.mems {
            mem_base.push(total);
            total += words_for(m.width) * m.depth as usize;
        }
        Compiler { flat, mem_base, fuse: vec![None; n], skip: vec![false; n], slot: vec![u32::MAX; n], nwords: 0, init: Vec::new(), prog: Vec::new(), wide: Vec::new(), cat_parts: Vec::new() }
    }

    fn alloc(&mut self, width: u32) -> u32 {
        let s = self.nwords;
        self.nwords += words_for(width) as u32;
        self.init.resize(self.nwords as usize, 0);
        s
    }

    fn width(&self, n: FlatId) -> u32 {
        self.flat.nodes[n as usize].width
    }

    /// Slot of a (resolved) node.
    fn s(&self, n: FlatId) -> u32 {
        let r = self.flat.resolve(n);
        self.slot[r as usize]
    }

    fn compile(mut self, top: &Module) -> NetlistSim {
        // Sources first: reset, inputs (in port order, so a stimulus frame is
        // one contiguous copy), registers, constants.
        let rst = self.alloc(1);
        let n = self.flat.nodes.len();
        for i in 0..n {
            let w = self.flat.nodes[i].width;
            match self.flat.nodes[i].op.clone() {
                FOp::Input | FOp::Reg => self.slot[i] = self.alloc(w),
                FOp::Const(b) => {
                    let s = self.alloc(w);
                    let words = b.words().to_vec();
                    self.init[s as usize..s as usize + words.len()].copy_from_slice(&words);
                    self.slot[i] = s;
                }
                _ => {}
            }
        }
        // Live computed nodes in topological order, from every root.
        let mut roots: Vec<FlatId> = self.flat.signals.iter().map(|s| s.node).collect();
        roots.extend(self.flat.regs.iter().filter(|r| matches!(self.flat.nodes[r.node as usize].op, FOp::Reg)).filter_map(|r| r.next));
        for m in &self.flat.mems {
            for &(a, d, e) in &m.writes {
                roots.extend([a, d, e]);
            }
        }
        // Fusion decisions are the same in any topological order; planned
        // first, they let the schedule group fused instructions too.
        let order = self.flat.post_order(roots.iter().copied());
        self.plan_fusion(&order, &roots);
        let order = self.schedule(order);
        for node in order {
            self.emit(node);
        }

        // Registers whose next value is another register's output must read
        // it before any register changes: stage a copy during eval.
        let mut regs1 = Vec::new();
        let mut regsn = Vec::new();
        let mut resets = Vec::new();
        // Slots holding register outputs (a narrow zero-extension aliases one).
        let reg_slots: std::collections::HashSet<u32> = self.flat.regs.iter().map(|r| self.slot[r.node as usize]).collect();
        for k in 0..self.flat.regs.len() {
            let r = self.flat.regs[k].clone();
            if !matches!(self.flat.nodes[r.node as usize].op, FOp::Reg) {
                continue; // never changes: a constant now (netlist::opt)
            }
            let q = self.slot[r.node as usize];
            resets.push((q, r.reset.words().to_vec()));
            let Some(next) = r.next else { continue };
            let rn = self.flat.resolve(next);
            if rn == r.node {
                continue; // holds forever
            }
            let mut src = self.slot[rn as usize];
            if reg_slots.contains(&src) {
                let staged = self.alloc(r.width);
                self.copy(staged, src, r.width);
                src = staged;
            }
            if r.width <= 64 {
                regs1.push((q, src));
            } else {
                regsn.push((q, src, words_for(r.width) as u32));
            }
        }

        // Memories.
        let mut mems = Vec::new();
        let mut mem_words_len = 0usize;
        let mut mem_info = Vec::new();
        for (k, m) in self.flat.mems.iter().enumerate() {
            let stride = words_for(m.width);
            let writes = m.writes.iter().map(|&(a, d, e)| (self.s(a), self.s(d), self.s(e))).collect();
            debug_assert_eq!(self.mem_base[k], mem_words_len);
            mems.push(CMem {
                base: mem_words_len,
                stride,
                depth: m.depth as u64,
                reset: m.reset.as_ref().map(|b| b.words().to_vec()),
                writes,
            });
            mem_info.push(SimMem { scope: m.scope, name: m.name.clone(), depth: m.depth, width: m.width, base: mem_words_len, stride });
            mem_words_len += stride * m.depth as usize;
        }
        let mut mem_words = vec![0u64; mem_words_len];
        for m in &mems {
            if let Some(r) = &m.reset {
                for i in 0..m.depth as usize {
                    mem_words[m.base + i * m.stride..m.base + (i + 1) * m.stride].copy_from_slice(r);
                }
            }
        }

        // Ports: rst first, then the declared ports in order.
        let mut ports = Vec::new();
        let mut locs = Vec::new();
        let mut signals: Vec<SimSignal> = Vec::new();
        if top.uses_reset {
            ports.push(PortSpec::input("rst", 1));
            locs.push(PortLoc { slot: rst, words: 1 });
            signals.push(SimSignal { scope: 0, name: "rst".into(), width: 1, slot: rst, is_port: true });
        }
        let (mut ii, mut oi) = (0, 0);
        for &p in &top.ports {
            let s = &top.signals[p as usize];
            let node = if s.kind == hw::ir::SigKind::Input {
                ii += 1;
                self.flat.inputs[ii - 1].2
            } else {
                oi += 1;
                self.flat.outputs[oi - 1].2
            };
            let slot = self.s(node);
            ports.push(if s.kind == hw::ir::SigKind::Input {
                PortSpec::input(s.name.clone(), s.width)
            } else {
                PortSpec::output(s.name.clone(), s.width)
            });
            locs.push(PortLoc { slot, words: words_for(s.width) as u32 });
        }

        signals.extend(
            self.flat
                .signals
                .iter()
                .map(|s| SimSignal { scope: s.scope, name: s.name.clone(), width: s.width, slot: self.s(s.node), is_port: s.is_port }),
        );
        let mut vals = self.init.clone();
        for (q, r) in &resets {
            vals[*q as usize..*q as usize + r.len()].copy_from_slice(r);
        }
        let inputs_words = ports.iter().filter(|p| p.dir == crate::component::Dir::In).map(|p| p.words() as u32).sum();
        let sim = NetlistSim {
            name: top.name.clone(),
            ports,
            locs,
            vals,
            mem_words,
            runs: runs_of(&self.prog),
            prog: self.prog,
            wide: self.wide,
            cat_parts: self.cat_parts,
            mems,
            regs1,
            regsn,
            resets,
            rst,
            inputs_base: if top.uses_reset { rst } else { rst + 1 },
            inputs_words,
            scopes: self.flat.scopes.clone(),
            signals,
            mem_info,
            cycle: 0,
        };
        sim.validate();
        sim
    }

    /// Pick fused instructions for common single-word pairs — `a & !b`,
    /// `a & b & c`, `a | (c ? t : 0)`, `(a >> b)[0]` — and skip emitting an
    /// inner node when every reader fused it and no signal shows it.
    fn plan_fusion(&mut self, order: &[FlatId], roots: &[FlatId]) {
        let n = self.flat.nodes.len();
        let mut uses = vec![0u32; n];
        let mut observed = vec![false; n];
        for &r in roots {
            observed[self.flat.resolve(r) as usize] = true;
        }
        for &node in order {
            for d in self.deps(node) {
                uses[self.flat.resolve(d) as usize] += 1;
            }
        }
        let narrow = |c: &Compiler, x: FlatId| c.flat.nodes[x as usize].width <= 64;
        let mut fused_uses = vec![0u32; n];
        for &node in order {
            let r = |x: FlatId| self.flat.resolve(x);
            if !narrow(self, node) {
                continue;
            }
            let plain = |c: &Compiler, x: FlatId| c.fuse[x as usize].is_none() && !observed[x as usize] && uses[x as usize] == 1;
            let choice = match self.flat.nodes[node as usize].op {
                FOp::Binary(BinOp::And, a, b) => {
                    let (a, b) = (r(a), r(b));
                    match (&self.flat.nodes[a as usize].op, &self.flat.nodes[b as usize].op) {
                        (_, FOp::Unary(UnOp::Not, x)) => Some((Fuse::AndNot(a, r(*x)), b)),
                        (FOp::Unary(UnOp::Not, x), _) => Some((Fuse::AndNot(b, r(*x)), a)),
                        (FOp::Binary(BinOp::And, p, q), _) if plain(self, a) => Some((Fuse::And3(r(*p), r(*q), b), a)),
                        (_, FOp::Binary(BinOp::And, p, q)) if plain(self, b) => Some((Fuse::And3(a, r(*p), r(*q)), b)),
                        _ => None,
                    }
                }
                FOp::Binary(BinOp::Or, a, b) => {
                    let (a, b) = (r(a), r(b));
                    let zero = |c: &Compiler, x: FlatId| matches!(&c.flat.nodes[c.flat.resolve(x) as usize].op, FOp::Const(k) if k.is_zero());
                    match (&self.flat.nodes[a as usize].op, &self.flat.nodes[b as usize].op) {
                        (_, FOp::Mux(c, t, f)) if zero(self, *f) && plain(self, b) => Some((Fuse::OrIf(a, r(*c), r(*t)), b)),
                        (FOp::Mux(c, t, f), _) if zero(self, *f) && plain(self, a) => Some((Fuse::OrIf(b, r(*c), r(*t)), a)),
                        _ => None,
                    }
                }
                FOp::Slice(src, 0) if self.flat.nodes[node as usize].width == 1 => {
                    let s = r(src);
                    match self.flat.nodes[s as usize].op {
                        FOp::Shift(ShiftOp::Shr, a, b) if narrow(self, r(a)) && narrow(self, r(b)) => Some((Fuse::BitAt(r(a), r(b)), s)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((f, inner)) = choice {
                self.fuse[node as usize] = Some(f);
                fused_uses[inner as usize] += 1;
                if !observed[inner as usize] && fused_uses[inner as usize] == uses[inner as usize] {
                    self.skip[inner as usize] = true;
                }
            }
        }
    }

    /// Levelize: a node's level is one more than its deepest operand's.
    /// Nodes of one level are independent, so within a level they are grouped
    /// by the instruction they become: long runs of one kind mean few
    /// dispatches (`NetlistSim::run` dispatches once per run), and the
    /// independent instructions of a level keep the processor busy.
    fn schedule(&self, order: Vec<FlatId>) -> Vec<FlatId> {
        let mut level = vec![0u32; self.flat.nodes.len()];
        for &n in &order {
            let l = self.deps(n).iter().map(|&d| level[self.flat.resolve(d) as usize] + 1).max().unwrap_or(0);
            level[n as usize] = l;
        }
        let mut sorted = order;
        sorted.sort_by_key(|&n| (level[n as usize], self.kind(n)));
        sorted
    }

    /// The kind of instruction `emit` gives a node, or `None` when it gives
    /// none (a source, an operand fused into its reader, a narrow zero
    /// extension).
    fn kind(&self, x: FlatId) -> Option<usize> {
        let i = x as usize;
        let node = &self.flat.nodes[i];
        if self.slot[i] != u32::MAX || self.skip[i] || (matches!(node.op, FOp::Ext(_, false)) && node.width <= 64) {
            return None;
        }
        if let Some(f) = self.fuse[i] {
            return Some(60 + f.kind());
        }
        if node.width > 64 || self.deps(x).iter().any(|&d| self.width(d) > 64) {
            return Some(70); // a wide instruction
        }
        Some(match &node.op {
            FOp::Binary(o, ..) => 10 + *o as usize,
            FOp::Unary(o, _) => 30 + *o as usize,
            FOp::Shift(o, ..) => 40 + *o as usize,
            FOp::Mux(..) => 50,
            FOp::Cat(_) => 51,
            FOp::Slice(..) => 52,
            FOp::Ext(..) => 53,
            FOp::MemRead { .. } => 54,
            FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => 0,
        })
    }

    fn deps(&self, n: FlatId) -> Vec<FlatId> {
        self.flat.nodes[n as usize].op.operands()
    }

    fn copy(&mut self, d: u32, a: u32, width: u32) {
        if width <= 64 {
            self.prog.push(Ins::Copy { d, a });
        } else {
            self.wide_ins(WideIns::Copy { d, a, n: words_for(width) as u32 });
        }
    }

    fn wide_ins(&mut self, w: WideIns) {
        self.wide.push(w);
        self.prog.push(Ins::Wide(self.wide.len() as u32 - 1));
    }

    fn emit(&mut self, node: FlatId) {
        let i = node as usize;
        if self.slot[i] != u32::MAX {
            return; // a source
        }
        if self.skip[i] {
            return; // folded into the instruction of its only reader
        }
        let w = self.flat.nodes[i].width;
        let op = self.flat.nodes[i].op.clone();
        if let Some(f) = self.fuse[i] {
            let d = self.alloc(w);
            self.slot[i] = d;
            self.prog.push(match f {
                Fuse::AndNot(a, b) => Ins::AndNot { d, a: self.s(a), b: self.s(b) },
                Fuse::And3(a, b, c) => Ins::And3 { d, a: self.s(a), b: self.s(b), c: self.s(c) },
                Fuse::OrIf(a, c, t) => Ins::OrIf { d, a: self.s(a), c: self.s(c), t: self.s(t) },
                Fuse::BitAt(a, b) => Ins::BitAt { d, a: self.s(a), b: self.s(b), w: self.width(a) },
            });
            return;
        }
        // Zero-extension within one word needs no instruction.
        if let FOp::Ext(a, false) = op {
            if w <= 64 {
                self.slot[i] = self.s(a);
                return;
            }
        }
        let d = self.alloc(w);
        self.slot[i] = d;
        let m = top_mask(w);
        match op {
            FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => unreachable!("sources and aliases have slots"),
            FOp::Unary(u, a) => {
                let wa = self.width(a);
                let sa = self.s(a);
                if wa <= 64 {
                    self.prog.push(match u {
                        UnOp::Not => Ins::Not { d, a: sa, m },
                        UnOp::RedOr => Ins::RedOr { d, a: sa },
                        UnOp::RedAnd => Ins::RedAnd { d, a: sa, m: top_mask(wa) },
                        UnOp::RedXor => Ins::RedXor { d, a: sa },
                        UnOp::Ffs => Ins::Ffs { d, a: sa },
                        UnOp::Popcount => Ins::Pop { d, a: sa },
                    });
                } else if u == UnOp::Not {
                    self.wide_ins(WideIns::Not { d, a: sa, n: words_for(w) as u32, w });
                } else {
                    self.wide_ins(WideIns::Red { op: u, d, a: sa, na: words_for(wa) as u32, wa });
                }
            }
            FOp::Binary(op, a, b) => {
                let (wa, wb) = (self.width(a), self.width(b));
                let (sa, sb) = (self.s(a), self.s(b));
                if op == BinOp::Mul {
                    if w <= 64 {
                        self.prog.push(Ins::Mul { d, a: sa, b: sb, m });
                    } else {
                        // Widen both operands to the product width, then multiply
                        // into a slot allocated after them.
                        let xa = self.alloc(w);
                        self.wide_ins(WideIns::Ext { d: xa, a: sa, na: words_for(wa) as u32, wa, w, signed: false });
                        let xb = self.alloc(w);
                        self.wide_ins(WideIns::Ext { d: xb, a: sb, na: words_for(wb) as u32, wa: wb, w, signed: false });
                        let p = self.alloc(w);
                        self.wide_ins(WideIns::Bit { op: BinOp::Mul, d: p, a: xa, b: xb, n: words_for(w) as u32, wa: w });
                        self.slot[i] = p;
                    }
                    return;
                }
                if wa <= 64 {
                    let sh = 64 - wa;
                    self.prog.push(match op {
                        BinOp::And => Ins::And { d, a: sa, b: sb },
                        BinOp::Or => Ins::Or { d, a: sa, b: sb },
                        BinOp::Xor => Ins::Xor { d, a: sa, b: sb },
                        BinOp::Add => Ins::Add { d, a: sa, b: sb, m },
                        BinOp::Sub => Ins::Sub { d, a: sa, b: sb, m },
                        BinOp::Eq => Ins::Eq { d, a: sa, b: sb },
                        BinOp::Ne => Ins::Ne { d, a: sa, b: sb },
                        BinOp::Lt => Ins::Lt { d, a: sa, b: sb },
                        BinOp::Le => Ins::Le { d, a: sa, b: sb },
                        BinOp::Lts => Ins::Lts { d, a: sa, b: sb, sh },
                        BinOp::Les => Ins::Les { d, a: sa, b: sb, sh },
                        BinOp::Mul => unreachable!(),
                    });
                } else {
                    self.wide_ins(WideIns::Bit { op, d, a: sa, b: sb, n: words_for(w) as u32, wa });
                }
            }
            FOp::Shift(op, a, b) => {
                let wb = self.width(b);
                let (sa, sb) = (self.s(a), self.s(b));
                if w <= 64 && wb <= 64 {
                    self.prog.push(match op {
                        ShiftOp::Shl => Ins::Shl { d, a: sa, b: sb, w },
                        ShiftOp::Shr => Ins::Shr { d, a: sa, b: sb, w },
                        ShiftOp::Sra => Ins::Sra { d, a: sa, b: sb, w },
                    });
                } else {
                    let (n, nb) = (words_for(w) as u32, words_for(wb) as u32);
                    self.wide_ins(WideIns::Shift { op, d, a: sa, b: sb, n, nb, w });
                }
            }
            FOp::Mux(s, t, f) => {
                let (ss, st, sf) = (self.s(s), self.s(t), self.s(f));
                if w <= 64 {
                    self.prog.push(Ins::Mux { d, s: ss, t: st, f: sf });
                } else {
                    self.wide_ins(WideIns::Mux { d, s: ss, t: st, f: sf, n: words_for(w) as u32 });
                }
            }
            FOp::Cat(parts) => {
                // Parts are most significant first.
                let mut shift = w;
                let mut list = Vec::new();
                for &p in &parts {
                    let pw = self.width(p);
                    shift -= pw;
                    list.push((self.s(p), shift, pw));
                }
                if w <= 64 {
                    let start = self.cat_parts.len() as u32;
                    self.cat_parts.extend(list.iter().map(|&(s, sh, _)| (s, sh)));
                    self.prog.push(Ins::Cat { d, start, len: list.len() as u32 });
                } else {
                    self.wide_ins(WideIns::Cat { d, n: words_for(w) as u32, parts: list });
                }
            }
            FOp::Slice(a, lo) => {
                let wa = self.width(a);
                let sa = self.s(a);
                if wa <= 64 {
                    self.prog.push(Ins::Slice { d, a: sa, lo, m });
                } else {
                    self.wide_ins(WideIns::Slice { d, a: sa, na: words_for(wa) as u32, lo, w });
                }
            }
            FOp::Ext(a, signed) => {
                let wa = self.width(a);
                let sa = self.s(a);
                if w <= 64 {
                    debug_assert!(signed);
                    self.prog.push(Ins::Sext { d, a: sa, sh: 64 - wa, m });
                } else {
                    self.wide_ins(WideIns::Ext { d, a: sa, na: words_for(wa) as u32, wa, w, signed });
                }
            }
            FOp::MemRead { mem, addr } => {
                let sa = self.s(addr);
                if w <= 64 {
                    let (base, depth) = (self.mem_base[mem as usize] as u32, self.flat.mems[mem as usize].depth);
                    self.prog.push(Ins::MemRd { d, addr: sa, base, depth });
                } else {
                    self.wide_ins(WideIns::MemRd { d, mem, addr: sa });
                }
            }
        }
    }
}

/// Maximal runs of one instruction kind in `prog`, as `(start, end)`.
fn runs_of(prog: &[Ins]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for (i, ins) in prog.iter().enumerate() {
        let i = i as u32;
        match runs.last_mut() {
            Some((s, e)) if std::mem::discriminant(&prog[*s as usize]) == std::mem::discriminant(ins) => *e = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    runs
}

/// What the optimisation passes do to a module's flattened netlist, and how
/// many nodes the engines compute before and after (a report for tools).
pub fn optimisation_report(top: &Module) -> (opt::OptStats, usize, usize) {
    let mut flat = Flat::new(top);
    let count = |f: &Flat| f.nodes.iter().filter(|n| !matches!(n.op, FOp::Alias(_) | FOp::Input | FOp::Reg | FOp::Const(_))).count();
    let before = count(&flat);
    let stats = opt::optimize(&mut flat);
    (stats, before, count(&flat))
}
