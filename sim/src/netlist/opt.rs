//! Netlist optimisation passes on the flattened graph, shared by both RTL
//! engines (the interpreter runs them too):
//!
//! - **copy/alias removal**: every operand points at the node that computes
//!   the value (wires, ports and instance pins disappear);
//! - **constant propagation and folding**, including registers that can never
//!   change (no next value, holding themselves, or fed their reset value)
//!   and memories that are never written;
//! - **algebraic simplification** (`x & 0`, `x | x`, `mux(s, a, a)`, slices of
//!   slices, extensions and concatenations, shifts by constants, ...);
//! - **known bits**: per value, the bits known to be 0 or 1 — an AND whose
//!   mask clears nothing, a compare decided by value ranges, a select whose
//!   condition is known all disappear;
//! - **common-subexpression merging** (hash-consing, commutative operands in
//!   a canonical order);
//! - **dead-node removal** happens in the engines' schedulers, which emit
//!   only what their roots (outputs, state, visible signals) need.
//!
//! Named signals stay exact: a node is only ever replaced by another node
//! computing the same value (it becomes an alias) or by that value as a
//! constant, so every signal, port and register reads what it read before.

use super::flatten::{FOp, Flat, FlatId};
use super::wide;
use crate::component::{top_mask, words_for};
use hw::ir::{BinOp, Bits, ShiftOp, UnOp};
use std::cmp::Ordering;
use std::collections::HashMap;

/// What the passes did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptStats {
    /// Nodes replaced by a constant.
    pub folded: usize,
    /// Nodes replaced by an operand or rewritten to a cheaper operation.
    pub simplified: usize,
    /// Nodes merged into an identical one.
    pub merged: usize,
    /// Registers that can never change, now constants.
    pub const_regs: usize,
    /// Memory write ports that can never write, removed.
    pub dead_writes: usize,
    /// Forward passes run.
    pub rounds: usize,
}

/// Bits known to be 0 or 1 (single-word values only).
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    zero: u64,
    one: u64,
}

enum Rewrite {
    Alias(FlatId),
    Const(Bits),
    Op(FOp),
}

struct Opt<'a> {
    flat: &'a mut Flat,
    known: Vec<Known>,
    cse: HashMap<(u32, FOp), FlatId>,
    stats: OptStats,
}

/// Run every pass to a fixed point (a few rounds: constant registers found
/// in one round feed the next).
pub fn optimize(flat: &mut Flat) -> OptStats {
    let mut o = Opt { flat, known: Vec::new(), cse: HashMap::new(), stats: OptStats::default() };
    for _ in 0..6 {
        o.stats.rounds += 1;
        o.forward();
        if !o.state_pass() {
            break;
        }
    }
    o.stats
}

fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn bit_len(x: u128) -> u32 {
    128 - x.leading_zeros()
}

impl Opt<'_> {
    fn width(&self, x: FlatId) -> u32 {
        self.flat.nodes[x as usize].width
    }

    fn r(&self, x: FlatId) -> FlatId {
        self.flat.resolve(x)
    }

    fn konst(&self, x: FlatId) -> Option<&Bits> {
        match &self.flat.nodes[x as usize].op {
            FOp::Const(b) => Some(b),
            _ => None,
        }
    }

    fn is_zero(&self, x: FlatId) -> bool {
        self.konst(x).is_some_and(|b| b.is_zero())
    }

    fn is_ones(&self, x: FlatId) -> bool {
        self.konst(x).is_some_and(|b| *b == Bits::ones(b.width()))
    }

    fn known(&self, x: FlatId) -> Known {
        self.known.get(x as usize).copied().unwrap_or_default()
    }

    /// Bits of a single-word value that may be 1.
    fn maybe(&self, x: FlatId) -> u64 {
        top_mask(self.width(x)) & !self.known(x).zero
    }

    /// One pass over every node in topological order.
    fn forward(&mut self) {
        self.cse.clear();
        self.known = vec![Known::default(); self.flat.nodes.len()];
        let order = self.flat.post_order(0..self.flat.nodes.len() as FlatId);
        for x in order {
            self.process(x);
        }
    }

    /// A new node (processed at once); returns the node holding its value.
    fn add(&mut self, width: u32, op: FOp) -> FlatId {
        self.flat.nodes.push(super::flatten::FNode { width, op });
        self.known.push(Known::default());
        let x = self.flat.nodes.len() as FlatId - 1;
        self.process(x);
        self.r(x)
    }

    fn process(&mut self, x: FlatId) {
        let i = x as usize;
        if matches!(self.flat.nodes[i].op, FOp::Alias(_) | FOp::Input | FOp::Reg) {
            return;
        }
        for _ in 0..8 {
            // Operands at the nodes that compute them.
            let op = map_operands(&self.flat.nodes[i].op, |d| self.flat.resolve(d));
            self.flat.nodes[i].op = op;
            match self.simplify(x) {
                None => break,
                Some(Rewrite::Alias(y)) => {
                    debug_assert_ne!(y, x);
                    self.flat.nodes[i].op = FOp::Alias(y);
                    self.stats.simplified += 1;
                    return;
                }
                Some(Rewrite::Const(b)) => {
                    debug_assert_eq!(b.width(), self.width(x));
                    if !matches!(self.flat.nodes[i].op, FOp::Const(_)) {
                        self.stats.folded += 1;
                    }
                    self.flat.nodes[i].op = FOp::Const(b);
                    break;
                }
                Some(Rewrite::Op(op)) => {
                    self.flat.nodes[i].op = op;
                    self.stats.simplified += 1;
                }
            }
        }
        self.known[i] = self.transfer(x);
        let w = self.width(x);
        let k = self.known[i];
        if w <= 64 && (k.zero | k.one) == top_mask(w) && !matches!(self.flat.nodes[i].op, FOp::Const(_)) {
            self.flat.nodes[i].op = FOp::Const(Bits::from_u64(k.one, w).expect("known bits within width"));
            self.stats.folded += 1;
        }
        // Common subexpressions.
        let key = (w, canonical(&self.flat.nodes[i].op));
        match self.cse.get(&key) {
            Some(&y) if y != x => {
                if !matches!(self.flat.nodes[i].op, FOp::Const(_)) {
                    self.stats.merged += 1;
                }
                self.flat.nodes[i].op = FOp::Alias(y);
            }
            Some(_) => {}
            None => {
                self.cse.insert(key, x);
            }
        }
    }

    /// Registers that can never change become constants; memory write ports
    /// whose enable is constant 0 go. True if anything changed.
    fn state_pass(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.flat.regs.len() {
            let node = self.flat.regs[k].node;
            if !matches!(self.flat.nodes[node as usize].op, FOp::Reg) {
                continue;
            }
            let reset = self.flat.regs[k].reset.clone();
            let constant = match self.flat.regs[k].next.map(|n| self.r(n)) {
                None => true,
                Some(n) if n == node => true,
                Some(n) => self.konst(n) == Some(&reset),
            };
            if constant {
                self.flat.nodes[node as usize].op = FOp::Const(reset);
                self.stats.const_regs += 1;
                changed = true;
            }
        }
        for m in 0..self.flat.mems.len() {
            let before = self.flat.mems[m].writes.len();
            let writes = std::mem::take(&mut self.flat.mems[m].writes);
            let kept: Vec<_> = writes.into_iter().filter(|&(_, _, e)| !self.is_zero(self.r(e))).collect();
            self.stats.dead_writes += before - kept.len();
            changed |= kept.len() != before;
            self.flat.mems[m].writes = kept;
        }
        changed
    }

    // ---- simplification ---------------------------------------------------

    fn simplify(&mut self, x: FlatId) -> Option<Rewrite> {
        let w = self.width(x);
        let op = self.flat.nodes[x as usize].op.clone();
        // Everything constant: fold.
        let ops = op.operands();
        if !ops.is_empty() && ops.iter().all(|&d| self.konst(d).is_some()) && !matches!(op, FOp::MemRead { .. }) {
            return Some(Rewrite::Const(self.fold(&op, w)));
        }
        match op {
            FOp::Unary(u, a) => self.unary(u, a),
            FOp::Binary(b, p, q) => self.binary(b, p, q, w),
            FOp::Shift(s, a, b) => self.shift(s, a, b, w),
            FOp::Mux(s, t, f) => {
                if let Some(c) = self.konst(s) {
                    return Some(Rewrite::Alias(if c.is_zero() { f } else { t }));
                }
                let ks = self.known(s);
                if ks.one & 1 == 1 {
                    return Some(Rewrite::Alias(t));
                }
                if ks.zero & 1 == 1 {
                    return Some(Rewrite::Alias(f));
                }
                if t == f {
                    return Some(Rewrite::Alias(t));
                }
                if w == 1 && self.is_ones(t) && self.is_zero(f) {
                    return Some(Rewrite::Alias(s));
                }
                // mux(s, mux(s, a, b), c) = mux(s, a, c), and on the other arm.
                if let FOp::Mux(s2, a, _) = self.flat.nodes[t as usize].op {
                    if self.r(s2) == s {
                        return Some(Rewrite::Op(FOp::Mux(s, self.r(a), f)));
                    }
                }
                if let FOp::Mux(s2, _, b) = self.flat.nodes[f as usize].op {
                    if self.r(s2) == s {
                        return Some(Rewrite::Op(FOp::Mux(s, t, self.r(b))));
                    }
                }
                None
            }
            FOp::Cat(parts) => self.cat(parts),
            FOp::Slice(a, lo) => self.slice(a, lo, w),
            FOp::Ext(a, signed) => {
                let wa = self.width(a);
                if wa == w {
                    return Some(Rewrite::Alias(a));
                }
                match self.flat.nodes[a as usize].op {
                    // An extension of an extension is one extension (a zero
                    // extension's top bit is 0, so sign-extending it is a
                    // zero extension).
                    FOp::Ext(b, s2) if s2 == signed || !s2 => return Some(Rewrite::Op(FOp::Ext(self.r(b), s2))),
                    _ => {}
                }
                if signed && wa <= 64 && (self.known(a).zero >> (wa - 1)) & 1 == 1 {
                    return Some(Rewrite::Op(FOp::Ext(a, false)));
                }
                None
            }
            FOp::MemRead { mem, .. } => {
                let m = &self.flat.mems[mem as usize];
                if m.writes.is_empty() && m.reset.as_ref().is_none_or(|r| r.is_zero()) {
                    return Some(Rewrite::Const(Bits::zero(w)));
                }
                None
            }
            FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => None,
        }
    }

    fn unary(&mut self, u: UnOp, a: FlatId) -> Option<Rewrite> {
        let wa = self.width(a);
        match u {
            UnOp::Not => {
                if let FOp::Unary(UnOp::Not, b) = self.flat.nodes[a as usize].op {
                    return Some(Rewrite::Alias(self.r(b)));
                }
            }
            UnOp::RedOr | UnOp::RedAnd | UnOp::RedXor if wa == 1 => return Some(Rewrite::Alias(a)),
            UnOp::RedOr | UnOp::RedXor => {
                // Reductions ignore zero-extension bits.
                if let FOp::Ext(b, false) = self.flat.nodes[a as usize].op {
                    return Some(Rewrite::Op(FOp::Unary(u, self.r(b))));
                }
            }
            _ => {}
        }
        None
    }

    fn binary(&mut self, op: BinOp, a: FlatId, b: FlatId, w: u32) -> Option<Rewrite> {
        let wa = self.width(a);
        let narrow = wa <= 64;
        let zero = || Some(Rewrite::Const(Bits::zero(w)));
        let one = || Some(Rewrite::Const(Bits::from_u64(1, 1).expect("1 fits")));
        let (ka, kb) = (self.known(a), self.known(b));
        match op {
            BinOp::And => {
                if a == b {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_zero(a) || self.is_zero(b) {
                    return zero();
                }
                if self.is_ones(b) {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_ones(a) {
                    return Some(Rewrite::Alias(b));
                }
                // A mask that clears nothing a may hold.
                if narrow && self.maybe(a) & !kb.one == 0 {
                    return Some(Rewrite::Alias(a));
                }
                if narrow && self.maybe(b) & !ka.one == 0 {
                    return Some(Rewrite::Alias(b));
                }
            }
            BinOp::Or => {
                if a == b || self.is_zero(b) {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_zero(a) {
                    return Some(Rewrite::Alias(b));
                }
                if self.is_ones(a) {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_ones(b) {
                    return Some(Rewrite::Alias(b));
                }
                if narrow && self.maybe(b) & !ka.one == 0 {
                    return Some(Rewrite::Alias(a));
                }
                if narrow && self.maybe(a) & !kb.one == 0 {
                    return Some(Rewrite::Alias(b));
                }
            }
            BinOp::Xor => {
                if a == b {
                    return zero();
                }
                if self.is_zero(b) {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_zero(a) {
                    return Some(Rewrite::Alias(b));
                }
            }
            BinOp::Add => {
                if self.is_zero(b) {
                    return Some(Rewrite::Alias(a));
                }
                if self.is_zero(a) {
                    return Some(Rewrite::Alias(b));
                }
            }
            BinOp::Sub => {
                if self.is_zero(b) {
                    return Some(Rewrite::Alias(a));
                }
                if a == b {
                    return zero();
                }
            }
            BinOp::Mul if self.is_zero(a) || self.is_zero(b) => return zero(),
            BinOp::Eq | BinOp::Le | BinOp::Les if a == b => return one(),
            BinOp::Ne | BinOp::Lt | BinOp::Lts if a == b => return zero(),
            BinOp::Eq | BinOp::Ne if wa == 1 => {
                // eq(a, 1) = a, ne(a, 0) = a; eq(a, 0) = ne(a, 1) = !a.
                for (x, y) in [(a, b), (b, a)] {
                    if let Some(c) = self.konst(y) {
                        let same = (op == BinOp::Eq) == (c.words()[0] == 1);
                        return Some(if same { Rewrite::Alias(x) } else { Rewrite::Op(FOp::Unary(UnOp::Not, x)) });
                    }
                }
            }
            _ => {}
        }
        None
    }

    fn shift(&mut self, op: ShiftOp, a: FlatId, b: FlatId, w: u32) -> Option<Rewrite> {
        if self.is_zero(a) {
            return Some(Rewrite::Const(Bits::zero(w)));
        }
        let amt = wide::amount(self.konst(b)?.words());
        if amt == 0 {
            return Some(Rewrite::Alias(a));
        }
        if amt >= w as u64 && op != ShiftOp::Sra {
            return Some(Rewrite::Const(Bits::zero(w)));
        }
        if op == ShiftOp::Sra && w == 1 {
            return Some(Rewrite::Alias(a));
        }
        None
    }

    fn cat(&mut self, parts: Vec<FlatId>) -> Option<Rewrite> {
        if parts.len() == 1 {
            return Some(Rewrite::Alias(parts[0]));
        }
        // Merge neighbours: two constants, or two adjacent slices of one value.
        for i in 0..parts.len() - 1 {
            let (hi, lo) = (parts[i], parts[i + 1]);
            let (wh, wl) = (self.width(hi), self.width(lo));
            let merged = match (&self.flat.nodes[hi as usize].op, &self.flat.nodes[lo as usize].op) {
                (FOp::Const(_), FOp::Const(_)) => {
                    let v = self.fold(&FOp::Cat(vec![hi, lo]), wh + wl);
                    Some(self.add(wh + wl, FOp::Const(v)))
                }
                (&FOp::Slice(s1, l1), &FOp::Slice(s2, l2)) if self.r(s1) == self.r(s2) && l1 == l2 + wl => {
                    let src = self.r(s1);
                    Some(self.add(wh + wl, FOp::Slice(src, l2)))
                }
                _ => None,
            };
            if let Some(m) = merged {
                let mut p = parts.clone();
                p.splice(i..i + 2, [m]);
                return Some(if p.len() == 1 { Rewrite::Alias(p[0]) } else { Rewrite::Op(FOp::Cat(p)) });
            }
        }
        // {0, x} is a zero extension.
        if parts.len() == 2 && self.is_zero(parts[0]) {
            return Some(Rewrite::Op(FOp::Ext(parts[1], false)));
        }
        None
    }

    fn slice(&mut self, a: FlatId, lo: u32, w: u32) -> Option<Rewrite> {
        let wa = self.width(a);
        if lo == 0 && w == wa {
            return Some(Rewrite::Alias(a));
        }
        match self.flat.nodes[a as usize].op.clone() {
            FOp::Slice(b, l2) => return Some(Rewrite::Op(FOp::Slice(self.r(b), l2 + lo))),
            FOp::Ext(b, signed) => {
                let b = self.r(b);
                let wb = self.width(b);
                if lo + w <= wb {
                    return Some(Rewrite::Op(FOp::Slice(b, lo)));
                }
                if !signed && lo >= wb {
                    return Some(Rewrite::Const(Bits::zero(w)));
                }
                if !signed && lo == 0 {
                    // The low part of a zero extension: a shorter extension.
                    return Some(Rewrite::Op(FOp::Ext(b, false)));
                }
            }
            FOp::Cat(parts) => {
                // Bits lo..lo+w inside one part: slice that part.
                let mut pos = wa;
                for p in parts {
                    let p = self.r(p);
                    let pw = self.width(p);
                    pos -= pw;
                    if lo >= pos && lo + w <= pos + pw {
                        return Some(Rewrite::Op(FOp::Slice(p, lo - pos)));
                    }
                }
            }
            _ => {}
        }
        None
    }

    // ---- constant evaluation ----------------------------------------------

    /// Value of `op` over constant operands (the interpreter's semantics).
    fn fold(&self, op: &FOp, w: u32) -> Bits {
        let k = |x: FlatId| self.konst(self.r(x)).expect("constant operand").words().to_vec();
        let n = words_for(w);
        let mut d = vec![0u64; n];
        match op {
            FOp::Unary(u, a) => {
                let x = k(*a);
                let wa = self.width(*a);
                d[0] = match u {
                    UnOp::Not => {
                        for (o, v) in d.iter_mut().zip(&x) {
                            *o = !v;
                        }
                        wide::mask_top(&mut d, w);
                        return Bits::from_words(&d, w).expect("masked");
                    }
                    UnOp::RedAnd => wide::red_and(&x, wa) as u64,
                    UnOp::RedOr => wide::red_or(&x) as u64,
                    UnOp::RedXor => wide::popcount(&x) & 1,
                    UnOp::Ffs => wide::ffs(&x),
                    UnOp::Popcount => wide::popcount(&x),
                };
            }
            FOp::Binary(op, a, b) => {
                let (x, y) = (k(*a), k(*b));
                let wa = self.width(*a);
                match op {
                    BinOp::And => d.iter_mut().zip(x.iter().zip(&y)).for_each(|(o, (p, q))| *o = p & q),
                    BinOp::Or => d.iter_mut().zip(x.iter().zip(&y)).for_each(|(o, (p, q))| *o = p | q),
                    BinOp::Xor => d.iter_mut().zip(x.iter().zip(&y)).for_each(|(o, (p, q))| *o = p ^ q),
                    BinOp::Add => wide::add(&mut d, &x, &y, w),
                    BinOp::Sub => wide::sub(&mut d, &x, &y, w),
                    BinOp::Mul => {
                        let (mut xa, mut xb) = (vec![0u64; n], vec![0u64; n]);
                        wide::ext(&mut xa, &x, wa, w, false);
                        wide::ext(&mut xb, &y, self.width(*b), w, false);
                        wide::mul(&mut d, &xa, &xb, w);
                    }
                    BinOp::Eq => d[0] = (x == y) as u64,
                    BinOp::Ne => d[0] = (x != y) as u64,
                    BinOp::Lt => d[0] = (wide::cmp_u(&x, &y) == Ordering::Less) as u64,
                    BinOp::Le => d[0] = (wide::cmp_u(&x, &y) != Ordering::Greater) as u64,
                    BinOp::Lts => d[0] = (wide::cmp_s(&x, &y, wa) == Ordering::Less) as u64,
                    BinOp::Les => d[0] = (wide::cmp_s(&x, &y, wa) != Ordering::Greater) as u64,
                }
            }
            FOp::Shift(op, a, b) => {
                let (x, y) = (k(*a), k(*b));
                let amt = wide::amount(&y);
                match op {
                    ShiftOp::Shl => wide::shl(&mut d, &x, amt, w),
                    ShiftOp::Shr => wide::shr(&mut d, &x, amt, w),
                    ShiftOp::Sra => wide::sra(&mut d, &x, amt, w),
                }
            }
            FOp::Mux(s, t, f) => d = if k(*s)[0] != 0 { k(*t) } else { k(*f) },
            FOp::Cat(parts) => {
                let mut pos = w;
                for p in parts {
                    let pw = self.width(*p);
                    pos -= pw;
                    wide::copy_bits(&mut d, pos, &k(*p), 0, pw);
                }
            }
            FOp::Slice(a, lo) => wide::copy_bits(&mut d, 0, &k(*a), *lo, w),
            FOp::Ext(a, signed) => wide::ext(&mut d, &k(*a), self.width(*a), w, *signed),
            FOp::Const(b) => return b.clone(),
            FOp::Input | FOp::Reg | FOp::Alias(_) | FOp::MemRead { .. } => unreachable!("not foldable"),
        }
        Bits::from_words(&d, w).expect("folded value within its width")
    }

    // ---- known bits -------------------------------------------------------

    fn transfer(&self, x: FlatId) -> Known {
        let w = self.width(x);
        if w > 64 {
            return Known::default();
        }
        let m = top_mask(w);
        let kn = |y: FlatId| if self.width(y) <= 64 { self.known(y) } else { Known::default() };
        let maxv = |y: FlatId| if self.width(y) <= 64 { self.maybe(y) as u128 } else { u128::MAX };
        let minv = |y: FlatId| if self.width(y) <= 64 { self.known(y).one as u128 } else { 0 };
        let upto = |max: u128| if max >> w == 0 { m & !low_bits(bit_len(max)) } else { 0 };
        let k = match &self.flat.nodes[x as usize].op {
            FOp::Const(b) => Known { zero: !b.words()[0] & m, one: b.words()[0] },
            FOp::Input | FOp::Reg | FOp::MemRead { .. } | FOp::Alias(_) => Known::default(),
            FOp::Unary(u, a) => {
                let ka = kn(*a);
                let wa = self.width(*a);
                match u {
                    UnOp::Not => Known { zero: ka.one, one: ka.zero },
                    UnOp::RedOr if wa <= 64 => {
                        if ka.one != 0 {
                            Known { zero: 0, one: 1 }
                        } else if self.maybe(*a) == 0 {
                            Known { zero: 1, one: 0 }
                        } else {
                            Known::default()
                        }
                    }
                    UnOp::RedAnd if wa <= 64 => {
                        if ka.zero != 0 {
                            Known { zero: 1, one: 0 }
                        } else if ka.one == top_mask(wa) {
                            Known { zero: 0, one: 1 }
                        } else {
                            Known::default()
                        }
                    }
                    UnOp::Popcount if wa <= 64 => Known { zero: upto(self.maybe(*a).count_ones() as u128), one: 0 },
                    _ => Known::default(),
                }
            }
            FOp::Binary(op, a, b) => {
                let (ka, kb) = (kn(*a), kn(*b));
                match op {
                    BinOp::And => Known { zero: ka.zero | kb.zero, one: ka.one & kb.one },
                    BinOp::Or => Known { zero: ka.zero & kb.zero, one: ka.one | kb.one },
                    BinOp::Xor => Known { zero: (ka.zero & kb.zero) | (ka.one & kb.one), one: (ka.one & kb.zero) | (ka.zero & kb.one) },
                    BinOp::Add => {
                        let tz = (ka.zero | !m).trailing_ones().min((kb.zero | !m).trailing_ones());
                        Known { zero: upto(maxv(*a) + maxv(*b)) | (low_bits(tz) & m), one: 0 }
                    }
                    BinOp::Mul => Known { zero: upto(maxv(*a).saturating_mul(maxv(*b))), one: 0 },
                    BinOp::Eq | BinOp::Ne if self.width(*a) <= 64 => {
                        let differ = (ka.one & kb.zero) | (ka.zero & kb.one) != 0;
                        match (differ, op) {
                            (true, BinOp::Eq) => Known { zero: 1, one: 0 },
                            (true, _) => Known { zero: 0, one: 1 },
                            _ => Known::default(),
                        }
                    }
                    BinOp::Lt | BinOp::Le if self.width(*a) <= 64 => {
                        let (amax, amin, bmax, bmin) = (maxv(*a), minv(*a), maxv(*b), minv(*b));
                        let (yes, no) = if *op == BinOp::Lt { (amax < bmin, amin >= bmax) } else { (amax <= bmin, amin > bmax) };
                        if yes {
                            Known { zero: 0, one: 1 }
                        } else if no {
                            Known { zero: 1, one: 0 }
                        } else {
                            Known::default()
                        }
                    }
                    _ => Known::default(),
                }
            }
            FOp::Shift(op, a, b) => {
                let ka = kn(*a);
                match (op, self.konst(*b).map(|c| wide::amount(c.words()))) {
                    (ShiftOp::Shl, Some(s)) if s < w as u64 => Known { zero: ((ka.zero << s) | low_bits(s as u32)) & m, one: (ka.one << s) & m },
                    (ShiftOp::Shr, Some(s)) if s < w as u64 => Known { zero: (ka.zero >> s) | (m & !(m >> s)), one: ka.one >> s },
                    (ShiftOp::Shr, None) => {
                        // Leading zeros only grow.
                        let lz = ((ka.zero | !m) << (64 - w)).leading_ones().min(w);
                        Known { zero: m & !low_bits(w - lz), one: 0 }
                    }
                    _ => Known::default(),
                }
            }
            FOp::Mux(_, t, f) => {
                let (kt, kf) = (kn(*t), kn(*f));
                Known { zero: kt.zero & kf.zero, one: kt.one & kf.one }
            }
            FOp::Cat(parts) => {
                let mut k = Known::default();
                let mut pos = w;
                for p in parts {
                    let pw = self.width(*p);
                    pos -= pw;
                    let kp = kn(*p);
                    k.zero |= kp.zero << pos;
                    k.one |= kp.one << pos;
                }
                k
            }
            FOp::Slice(a, lo) if self.width(*a) <= 64 => {
                let ka = kn(*a);
                Known { zero: (ka.zero >> lo) & m, one: (ka.one >> lo) & m }
            }
            FOp::Slice(..) => Known::default(),
            FOp::Ext(a, signed) => {
                let ka = kn(*a);
                let wa = self.width(*a);
                let ma = top_mask(wa);
                let high = m & !ma;
                if !signed || (ka.zero >> (wa - 1)) & 1 == 1 {
                    Known { zero: ka.zero | high, one: ka.one }
                } else if (ka.one >> (wa - 1)) & 1 == 1 {
                    Known { zero: ka.zero, one: ka.one | high }
                } else {
                    Known { zero: ka.zero, one: ka.one }
                }
            }
        };
        Known { zero: k.zero & m, one: k.one & m & !k.zero }
    }
}

fn map_operands(op: &FOp, f: impl Fn(FlatId) -> FlatId) -> FOp {
    match op {
        FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => op.clone(),
        FOp::Unary(u, a) => FOp::Unary(*u, f(*a)),
        FOp::Binary(b, x, y) => FOp::Binary(*b, f(*x), f(*y)),
        FOp::Shift(s, x, y) => FOp::Shift(*s, f(*x), f(*y)),
        FOp::Mux(s, t, e) => FOp::Mux(f(*s), f(*t), f(*e)),
        FOp::Cat(p) => FOp::Cat(p.iter().map(|&x| f(x)).collect()),
        FOp::Slice(a, lo) => FOp::Slice(f(*a), *lo),
        FOp::Ext(a, s) => FOp::Ext(f(*a), *s),
        FOp::MemRead { mem, addr } => FOp::MemRead { mem: *mem, addr: f(*addr) },
    }
}

/// The operation with commutative operands in a fixed order (the CSE key).
fn canonical(op: &FOp) -> FOp {
    match op {
        FOp::Binary(b @ (BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Mul | BinOp::Eq | BinOp::Ne), x, y) if x > y => {
            FOp::Binary(*b, *y, *x)
        }
        _ => op.clone(),
    }
}
