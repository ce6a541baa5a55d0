//! A second, deliberately naive implementation of the IR's semantics: every
//! value is a `BitVec` and every operator works bit by bit (ripple-carry
//! add, shift-and-add multiply, most-significant-bit-first compare). It shares
//! no code with the word-based netlist simulator, so agreement between the two
//! on random netlists is evidence for both. Flat modules only (no instances).

use bitvec::prelude::*;
use hw::ir::{BinOp, Module, Op, ShiftOp, SigKind, UnOp};
use sim::{Component, Dir, PortFrame, PortId, PortSpec};

type Bv = BitVec<u64, Lsb0>;

fn from_words(words: &[u64], width: u32) -> Bv {
    let mut v: Bv = words.view_bits::<Lsb0>().to_bitvec();
    v.resize(width as usize, false);
    v
}

fn to_words(v: &Bv) -> Vec<u64> {
    let mut w = vec![0u64; v.len().div_ceil(64).max(1)];
    for (i, b) in v.iter().enumerate() {
        if *b {
            w[i / 64] |= 1 << (i % 64);
        }
    }
    w
}

fn add(a: &Bv, b: &Bv, carry_in: bool) -> Bv {
    let mut c = carry_in;
    let mut out = Bv::with_capacity(a.len());
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        out.push(x ^ y ^ c);
        c = (x & y) | (c & (x ^ y));
    }
    out
}

/// Unsigned compare from the most significant bit.
fn less(a: &Bv, b: &Bv, or_equal: bool) -> bool {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return b[i];
        }
    }
    or_equal
}

/// A shift amount as a number, saturated when bits above 32 are set.
fn amount(v: &Bv) -> usize {
    if v.iter().skip(32).any(|b| *b) {
        usize::MAX
    } else {
        v.iter().take(32).enumerate().filter(|(_, b)| **b).map(|(i, _)| 1usize << i).sum()
    }
}

/// The bit-serial evaluator as a component.
pub struct BitRef {
    m: std::sync::Arc<Module>,
    frame: PortFrame,
    regs: Vec<Option<Bv>>,
    mems: Vec<Vec<Bv>>,
    vals: Vec<Option<Bv>>,
}

impl BitRef {
    pub fn new(m: &std::sync::Arc<Module>) -> Self {
        assert!(m.instances.is_empty(), "BitRef evaluates flat modules");
        let mut specs = Vec::new();
        if m.uses_reset {
            specs.push(PortSpec::input("rst", 1));
        }
        for &p in &m.ports {
            let s = &m.signals[p as usize];
            specs.push(if s.kind == SigKind::Input { PortSpec::input(s.name.clone(), s.width) } else { PortSpec::output(s.name.clone(), s.width) });
        }
        let regs = m
            .signals
            .iter()
            .map(|s| match &s.kind {
                SigKind::Reg { reset } => Some(from_words(reset.words(), s.width)),
                _ => None,
            })
            .collect();
        let mems = m
            .mems
            .iter()
            .map(|x| {
                let init = match &x.reset {
                    Some(r) => from_words(r.words(), x.width),
                    None => bitvec![u64, Lsb0; 0; x.width as usize],
                };
                vec![init; x.depth as usize]
            })
            .collect();
        BitRef { m: m.clone(), frame: PortFrame::new(specs), regs, mems, vals: vec![None; m.nodes.len()] }
    }

    fn input(&self, name: &str) -> Bv {
        let id = self.frame.id(name);
        let w = self.frame.specs()[id.0 as usize].width;
        from_words(self.frame.get(id), w)
    }

    fn mem_read(&mut self, mem: u32, addr: &Bv) -> Bv {
        let a = amount(addr);
        let m = &self.mems[mem as usize];
        match m.get(a) {
            Some(v) => v.clone(),
            None => bitvec![u64, Lsb0; 0; self.m.mems[mem as usize].width as usize],
        }
    }

    fn eval_node(&mut self, n: u32) -> Bv {
        if let Some(v) = &self.vals[n as usize] {
            return v.clone();
        }
        let m = self.m.clone();
        let node = &m.nodes[n as usize];
        let w = node.width as usize;
        let v: Bv = match &node.op {
            Op::Const(b) => from_words(b.words(), node.width),
            Op::Sig(s) => {
                let sig = &m.signals[*s as usize];
                match &sig.kind {
                    SigKind::Input => self.input(&sig.name),
                    SigKind::Reg { .. } => self.regs[*s as usize].clone().expect("register"),
                    _ => self.eval_node(sig.driver.expect("driven")),
                }
            }
            Op::Unary(u, a) => {
                let a = self.eval_node(*a);
                match u {
                    UnOp::Not => !a,
                    UnOp::RedAnd => bitvec![u64, Lsb0; a.all() as u8; 1],
                    UnOp::RedOr => bitvec![u64, Lsb0; a.any() as u8; 1],
                    UnOp::RedXor => bitvec![u64, Lsb0; (a.count_ones() % 2) as u8; 1],
                    UnOp::Ffs => {
                        let i = a.first_one().unwrap_or(0) as u64;
                        from_words(&[i], w as u32)
                    }
                    UnOp::Popcount => from_words(&[a.count_ones() as u64], w as u32),
                }
            }
            Op::Binary(o, a, b) => {
                let (a, b) = (self.eval_node(*a), self.eval_node(*b));
                let bit = |x: bool| bitvec![u64, Lsb0; x as u8; 1];
                match o {
                    BinOp::And => a & b,
                    BinOp::Or => a | b,
                    BinOp::Xor => a ^ b,
                    BinOp::Add => add(&a, &b, false),
                    BinOp::Sub => add(&a, &!b, true),
                    BinOp::Mul => {
                        let mut acc = bitvec![u64, Lsb0; 0; w];
                        let mut x = a.clone();
                        x.resize(w, false);
                        for i in 0..b.len() {
                            if b[i] {
                                let mut shifted = bitvec![u64, Lsb0; 0; w];
                                for j in 0..w.saturating_sub(i) {
                                    shifted.set(j + i, x[j]);
                                }
                                acc = add(&acc, &shifted, false);
                            }
                        }
                        acc
                    }
                    BinOp::Eq => bit(a == b),
                    BinOp::Ne => bit(a != b),
                    BinOp::Lt => bit(less(&a, &b, false)),
                    BinOp::Le => bit(less(&a, &b, true)),
                    BinOp::Lts | BinOp::Les => {
                        // Flip the sign bits: signed order becomes unsigned order.
                        let (mut x, mut y) = (a.clone(), b.clone());
                        let top = x.len() - 1;
                        let (sx, sy) = (!x[top], !y[top]);
                        x.set(top, sx);
                        y.set(top, sy);
                        bit(less(&x, &y, *o == BinOp::Les))
                    }
                }
            }
            Op::Shift(o, a, b) => {
                let (a, b) = (self.eval_node(*a), self.eval_node(*b));
                let s = amount(&b);
                let sign = a[w - 1];
                (0..w)
                    .map(|i| match o {
                        ShiftOp::Shl => i >= s && a[i - s],
                        ShiftOp::Shr => s < w && i + s < w && a[i + s],
                        ShiftOp::Sra => if s < w && i + s < w { a[i + s] } else { sign },
                    })
                    .collect()
            }
            Op::Mux { sel, t, f } => {
                if self.eval_node(*sel)[0] {
                    self.eval_node(*t)
                } else {
                    self.eval_node(*f)
                }
            }
            Op::Cat(parts) => {
                let mut out = Bv::new();
                for &p in parts.iter().rev() {
                    out.extend_from_bitslice(&self.eval_node(p));
                }
                out
            }
            Op::Slice { src, lo } => self.eval_node(*src)[*lo as usize..*lo as usize + w].to_bitvec(),
            Op::Ext { src, signed } => {
                let mut a = self.eval_node(*src);
                let fill = *signed && a[a.len() - 1];
                a.resize(w, fill);
                a
            }
            Op::MemRead { mem, port } => {
                let addr = self.eval_node(m.mems[*mem as usize].read_ports[*port as usize].addr);
                self.mem_read(*mem, &addr)
            }
        };
        debug_assert_eq!(v.len(), w, "width of node {n}");
        self.vals[n as usize] = Some(v.clone());
        v
    }
}

impl Component for BitRef {
    fn name(&self) -> &str {
        &self.m.name
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        self.vals.fill(None);
        let m = self.m.clone();
        for (i, p) in self.frame.specs().to_vec().iter().enumerate() {
            if p.dir == Dir::Out {
                let s = m.signals.iter().position(|s| s.name == p.name && s.kind == SigKind::Output).expect("output");
                let v = self.eval_node(m.signals[s].driver.expect("driven"));
                self.frame.set(PortId(i as u32), &to_words(&v));
            }
        }
    }
    fn tick(&mut self) {
        let m = self.m.clone();
        let rst = m.uses_reset && self.frame.get_bool(self.frame.id("rst"));
        // Everything is computed from the values before the edge.
        let mut writes = Vec::new();
        for (k, mem) in m.mems.iter().enumerate() {
            for w in &mem.write_ports {
                if self.eval_node(w.en)[0] {
                    writes.push((k, amount(&self.eval_node(w.addr)), self.eval_node(w.data)));
                }
            }
        }
        let nexts: Vec<Option<Bv>> =
            m.signals.iter().map(|s| if s.is_reg() { s.driver.map(|d| self.eval_node(d)) } else { None }).collect();
        for (k, mem) in m.mems.iter().enumerate() {
            match (&mem.reset, rst) {
                (Some(r), true) => self.mems[k].fill(from_words(r.words(), mem.width)),
                (None, true) => {}
                (_, false) => {
                    for (wk, a, d) in &writes {
                        if *wk == k && *a < mem.depth as usize {
                            self.mems[k][*a] = d.clone();
                        }
                    }
                }
            }
        }
        for (i, s) in m.signals.iter().enumerate() {
            if let SigKind::Reg { reset } = &s.kind {
                if rst {
                    self.regs[i] = Some(from_words(reset.words(), s.width));
                } else if let Some(v) = &nexts[i] {
                    self.regs[i] = Some(v.clone());
                }
            }
        }
    }
}
