//! A hash-consed node table: every node is built once (common
//! subexpressions, with commutative operands in either order), constants and
//! identities are folded as nodes are added. Used by the builder while a
//! generator runs and by the Verilog lowering ([`super::lower`]) when it
//! rewrites a finished module.

use super::bits::{top_mask, words_for};
use super::module::*;
use super::Bits;
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Graph {
    pub nodes: Vec<Node>,
    cse: HashMap<(u32, Op), NodeId>,
    consts: HashMap<Bits, NodeId>,
    /// Keep `x == x` and `x != x` as nodes instead of folding them: a
    /// generator that builds a row update as a function of a warp id and
    /// applies it to each port's own warp compares that warp with itself,
    /// and the Verilog lowering needs to see which comparison that was to
    /// turn each port's row into the same per-word update (see
    /// [`super::lower`]). The lowering folds them at the end.
    pub keep_self_compare: bool,
}

fn commutative(op: BinOp) -> bool {
    matches!(op, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Mul | BinOp::Eq | BinOp::Ne)
}

/// The key under which a node is shared: commutative operands in id order,
/// so `a == b` and `b == a` are one comparator.
fn cse_key(width: u32, op: &Op) -> (u32, Op) {
    match *op {
        Op::Binary(o, a, b) if commutative(o) && b < a => (width, Op::Binary(o, b, a)),
        _ => (width, op.clone()),
    }
}

impl Graph {
    /// An empty table that keeps self-comparisons (see the field).
    pub fn keeping_self_compare() -> Self {
        Graph { keep_self_compare: true, ..Graph::default() }
    }

    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n as usize]
    }

    pub fn width(&self, n: NodeId) -> u32 {
        self.nodes[n as usize].width
    }

    /// Add a node (or find it, or fold it to a simpler one).
    pub fn push(&mut self, width: u32, op: Op) -> NodeId {
        if let Some(n) = self.fold(width, &op) {
            return n;
        }
        if let Op::Const(b) = &op {
            return self.constant(b.clone());
        }
        if matches!(op, Op::Sig(_) | Op::MemRead { .. }) {
            return self.push_unique(width, op);
        }
        let key = cse_key(width, &op);
        if let Some(&n) = self.cse.get(&key) {
            return n;
        }
        let n = self.push_unique(width, op);
        self.cse.insert(key, n);
        n
    }

    /// Add a node that is never shared (a signal reference, a memory read).
    pub fn push_unique(&mut self, width: u32, op: Op) -> NodeId {
        self.nodes.push(Node { width, op });
        self.nodes.len() as NodeId - 1
    }

    pub fn constant(&mut self, b: Bits) -> NodeId {
        if let Some(&n) = self.consts.get(&b) {
            return n;
        }
        let n = self.push_unique(b.width(), Op::Const(b.clone()));
        self.consts.insert(b, n);
        n
    }

    pub fn konst(&self, n: NodeId) -> Option<&Bits> {
        match &self.nodes[n as usize].op {
            Op::Const(b) => Some(b),
            _ => None,
        }
    }

    /// Is node `n` the constant most negative (or, with `max`, most positive)
    /// two's complement value of its width?
    fn is_signed_extreme(&self, n: NodeId, max: bool) -> bool {
        let Some(b) = self.konst(n) else { return false };
        let top = b.width() - 1;
        (0..b.width()).all(|i| b.bit(i) == if i == top { !max } else { max })
    }

    /// Simplifications that need no analysis: constant operands and
    /// identities. Keeps generated Verilog and the simulator's program small.
    /// (Merging `s ? x : (s2 ? x : y)` into `(s | s2) ? x : y` was tried:
    /// yosys and ABC map the merged form to more LUTs in `peu` and `aeu`.)
    fn fold(&mut self, width: u32, op: &Op) -> Option<NodeId> {
        if let Some(b) = self.evaluate(width, op) {
            return Some(self.constant(b));
        }
        let zero = |b: Option<&Bits>| b.is_some_and(|b| b.is_zero());
        let ones = |b: Option<&Bits>| b.is_some_and(|b| *b == Bits::ones(b.width()));
        match *op {
            Op::Binary(o, a, b) => {
                let (ka, kb) = (self.konst(a), self.konst(b));
                match o {
                    BinOp::And if zero(ka) || zero(kb) => Some(self.constant(Bits::zero(width))),
                    BinOp::And if ones(ka) || a == b => Some(b),
                    BinOp::And if ones(kb) => Some(a),
                    BinOp::Or if ones(ka) || ones(kb) => Some(self.constant(Bits::ones(width))),
                    BinOp::Or if zero(ka) || a == b => Some(b),
                    BinOp::Or | BinOp::Xor | BinOp::Add | BinOp::Sub if zero(kb) => Some(a),
                    BinOp::Xor | BinOp::Add if zero(ka) => Some(b),
                    BinOp::Xor | BinOp::Sub if a == b => Some(self.constant(Bits::zero(width))),
                    BinOp::Eq | BinOp::Ne if a == b && self.keep_self_compare => None,
                    BinOp::Eq | BinOp::Le | BinOp::Les if a == b => Some(self.constant(Bits::ones(1))),
                    BinOp::Ne | BinOp::Lt | BinOp::Lts if a == b => Some(self.constant(Bits::zero(1))),
                    // Comparisons decided by the range alone (Verilator's CMPCONST).
                    BinOp::Lt if zero(kb) || ones(ka) => Some(self.constant(Bits::zero(1))),
                    BinOp::Le if zero(ka) || ones(kb) => Some(self.constant(Bits::ones(1))),
                    BinOp::Lts if self.is_signed_extreme(b, false) || self.is_signed_extreme(a, true) => Some(self.constant(Bits::zero(1))),
                    BinOp::Les if self.is_signed_extreme(a, false) || self.is_signed_extreme(b, true) => Some(self.constant(Bits::ones(1))),
                    _ => None,
                }
            }
            Op::Mux { sel, t, f } => match self.konst(sel) {
                Some(s) => Some(if s.is_zero() { f } else { t }),
                None if t == f => Some(t),
                None => None,
            },
            Op::Unary(UnOp::Not, a) => match &self.nodes[a as usize].op {
                Op::Unary(UnOp::Not, x) => Some(*x),
                _ => None,
            },
            Op::Shift(_, a, b) if zero(self.konst(b)) => Some(a),
            _ => None,
        }
    }

    /// The value of `op` when all its operands are constants (any width for
    /// bit selection; up to 64 bits for arithmetic), with the simulator's
    /// semantics.
    fn evaluate(&self, width: u32, op: &Op) -> Option<Bits> {
        let k = |n: NodeId| self.konst(n);
        let small = |n: NodeId| k(n).filter(|b| b.width() <= 64).map(|b| b.words()[0]);
        let mask = |w: u32| if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        let out = |v: u64| Bits::from_u64(v & mask(width), width);
        match *op {
            Op::Unary(UnOp::Not, a) => {
                let b = k(a)?;
                let mut words: Vec<u64> = b.words().iter().map(|w| !w).collect();
                let n = words.len();
                words[n - 1] &= top_mask(width);
                Bits::from_words(&words, width)
            }
            Op::Unary(u, a) => {
                let b = k(a)?;
                let w = b.width();
                let ones = (0..w).filter(|&i| b.bit(i)).count() as u64;
                match u {
                    UnOp::RedAnd => out((ones == w as u64) as u64),
                    UnOp::RedOr => out((ones > 0) as u64),
                    UnOp::RedXor => out(ones & 1),
                    UnOp::Popcount => out(ones),
                    UnOp::Ffs => out((0..w).find(|&i| b.bit(i)).unwrap_or(0) as u64),
                    UnOp::Not => None,
                }
            }
            Op::Binary(o, a, b) => {
                let wa = self.width(a);
                let (x, y) = (small(a)?, small(b)?);
                let sx = |v: u64| if wa >= 64 { v as i64 } else { ((v << (64 - wa)) as i64) >> (64 - wa) };
                match o {
                    BinOp::And => out(x & y),
                    BinOp::Or => out(x | y),
                    BinOp::Xor => out(x ^ y),
                    BinOp::Add => out(x.wrapping_add(y)),
                    BinOp::Sub => out(x.wrapping_sub(y)),
                    BinOp::Mul if width <= 64 => out(x.wrapping_mul(y)),
                    BinOp::Mul => None,
                    BinOp::Eq => out((x == y) as u64),
                    BinOp::Ne => out((x != y) as u64),
                    BinOp::Lt => out((x < y) as u64),
                    BinOp::Le => out((x <= y) as u64),
                    BinOp::Lts => out((sx(x) < sx(y)) as u64),
                    BinOp::Les => out((sx(x) <= sx(y)) as u64),
                }
            }
            Op::Shift(s, a, b) => {
                let (x, amt) = (small(a)?, k(b)?);
                // An amount that does not fit in 64 bits is past any width.
                let amt = if amt.to_u64().is_some() { amt.words()[0] } else { u64::MAX };
                let neg = width > 0 && (x >> (width - 1)) & 1 == 1;
                match s {
                    ShiftOp::Shl => out(if amt >= width as u64 { 0 } else { x << amt }),
                    ShiftOp::Shr => out(if amt >= width as u64 { 0 } else { x >> amt }),
                    ShiftOp::Sra => {
                        let fill = if neg { mask(width) } else { 0 };
                        out(if amt >= width as u64 { fill } else { (x >> amt) | (fill & !(mask(width) >> amt)) })
                    }
                }
            }
            Op::Cat(ref parts) if width <= 64 => {
                let mut v = 0u64;
                for &p in parts {
                    let w = self.width(p);
                    v = if w >= 64 { small(p)? } else { (v << w) | small(p)? };
                }
                out(v)
            }
            Op::Ext { src, signed } if width <= 64 => {
                let (x, w) = (small(src)?, self.width(src));
                let neg = signed && (x >> (w - 1)) & 1 == 1;
                out(if neg { x | (mask(width) & !mask(w)) } else { x })
            }
            Op::Slice { src, lo } => {
                let b = k(src)?;
                let mut words = vec![0u64; words_for(width)];
                for i in 0..width {
                    if b.bit(lo + i) {
                        words[(i / 64) as usize] |= 1 << (i % 64);
                    }
                }
                Bits::from_words(&words, width)
            }
            _ => None,
        }
    }
}
