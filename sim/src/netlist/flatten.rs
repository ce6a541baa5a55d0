//! Flatten a module hierarchy into one graph of nodes, keeping every named
//! signal with its instance path for the waves.

use crate::inspect::Scope;
use hw::ir::{BinOp, Bits, Module, Op, ShiftOp, SigKind, UnOp};

pub type FlatId = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FOp {
    Input,
    /// Output of register `k`.
    Reg,
    Const(Bits),
    /// Same value as another node (wires, ports, instance pins).
    Alias(FlatId),
    Unary(UnOp, FlatId),
    Binary(BinOp, FlatId, FlatId),
    Shift(ShiftOp, FlatId, FlatId),
    Mux(FlatId, FlatId, FlatId),
    Cat(Vec<FlatId>),
    Slice(FlatId, u32),
    Ext(FlatId, bool),
    MemRead { mem: u32, addr: FlatId },
}

impl FOp {
    /// Operand nodes, in order (an alias's target too).
    pub fn operands(&self) -> Vec<FlatId> {
        match self {
            FOp::Input | FOp::Reg | FOp::Const(_) => vec![],
            FOp::Alias(t) => vec![*t],
            FOp::Unary(_, a) | FOp::Slice(a, _) | FOp::Ext(a, _) => vec![*a],
            FOp::Binary(_, a, b) | FOp::Shift(_, a, b) => vec![*a, *b],
            FOp::Mux(s, t, f) => vec![*s, *t, *f],
            FOp::Cat(p) => p.clone(),
            FOp::MemRead { addr, .. } => vec![*addr],
        }
    }
}

#[derive(Clone, Debug)]
pub struct FNode {
    pub width: u32,
    pub op: FOp,
}

#[derive(Clone, Debug)]
pub struct FReg {
    pub node: FlatId,
    pub width: u32,
    pub reset: Bits,
    pub next: Option<FlatId>,
}

#[derive(Clone, Debug)]
pub struct FMem {
    pub scope: u32,
    pub name: String,
    pub depth: u32,
    pub width: u32,
    pub reset: Option<Bits>,
    /// (addr, data, en), in port order.
    pub writes: Vec<(FlatId, FlatId, FlatId)>,
}

/// A named signal somewhere in the hierarchy.
#[derive(Clone, Debug)]
pub struct FSignal {
    pub scope: u32,
    pub name: String,
    pub width: u32,
    pub node: FlatId,
    pub is_port: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Flat {
    pub nodes: Vec<FNode>,
    pub regs: Vec<FReg>,
    pub mems: Vec<FMem>,
    pub scopes: Vec<Scope>,
    pub signals: Vec<FSignal>,
    /// Top-level inputs (node of `FOp::Input`) and outputs, by name.
    pub inputs: Vec<(String, u32, FlatId)>,
    pub outputs: Vec<(String, u32, FlatId)>,
}

impl Flat {
    pub fn new(top: &Module) -> Flat {
        let mut f = Flat::default();
        f.scopes.push(Scope { name: top.name.clone(), module: top.name.clone(), parent: None });
        let mut ins = Vec::new();
        for s in top.inputs() {
            f.nodes.push(FNode { width: s.width, op: FOp::Input });
            let id = f.nodes.len() as FlatId - 1;
            f.inputs.push((s.name.clone(), s.width, id));
            ins.push(id);
        }
        let outs = f.add(top, 0, &ins);
        for (s, id) in top.outputs().zip(outs) {
            f.outputs.push((s.name.clone(), s.width, id));
        }
        f
    }

    /// Add `m` in `scope` with its inputs bound to `inputs`; returns its
    /// outputs' nodes.
    fn add(&mut self, m: &Module, scope: u32, inputs: &[FlatId]) -> Vec<FlatId> {
        let base = self.nodes.len() as FlatId;
        let map = |n: u32| base + n;
        // Placeholders first so any node can refer to any other.
        for n in &m.nodes {
            self.nodes.push(FNode { width: n.width, op: FOp::Alias(FlatId::MAX) });
        }
        let mut input_k = 0usize;
        let mut sig_node = vec![FlatId::MAX; m.signals.len()];
        for (i, n) in m.nodes.iter().enumerate() {
            let op = match &n.op {
                Op::Const(b) => FOp::Const(b.clone()),
                Op::Sig(s) => {
                    sig_node[*s as usize] = map(i as u32);
                    FOp::Alias(FlatId::MAX) // resolved below
                }
                Op::Unary(o, a) => FOp::Unary(*o, map(*a)),
                Op::Binary(o, a, b) => FOp::Binary(*o, map(*a), map(*b)),
                Op::Shift(o, a, b) => FOp::Shift(*o, map(*a), map(*b)),
                Op::Mux { sel, t, f } => FOp::Mux(map(*sel), map(*t), map(*f)),
                Op::Cat(p) => FOp::Cat(p.iter().map(|&x| map(x)).collect()),
                Op::Slice { src, lo } => FOp::Slice(map(*src), *lo),
                Op::Ext { src, signed } => FOp::Ext(map(*src), *signed),
                Op::MemRead { mem, port } => {
                    let addr = m.mems[*mem as usize].read_ports[*port as usize].addr;
                    FOp::MemRead { mem: self.mems.len() as u32 + *mem, addr: map(addr) }
                }
            };
            self.nodes[(base + i as u32) as usize].op = op;
        }
        for mem in &m.mems {
            self.mems.push(FMem {
                scope,
                name: mem.name.clone(),
                depth: mem.depth,
                width: mem.width,
                reset: mem.reset.clone(),
                writes: mem.write_ports.iter().map(|w| (map(w.addr), map(w.data), map(w.en))).collect(),
            });
        }
        // Instances (their outputs feed this module's instance-output pins).
        let mut inst_outputs: Vec<Vec<FlatId>> = Vec::new();
        for inst in &m.instances {
            let child = self.scopes.len() as u32;
            self.scopes.push(Scope { name: inst.name.clone(), module: inst.module.name.clone(), parent: Some(scope) });
            let pins: Vec<FlatId> = inst.inputs.iter().map(|&s| sig_node[s as usize]).collect();
            inst_outputs.push(self.add(&inst.module, child, &pins));
        }
        // Named signals.
        for (id, s) in m.signals.iter().enumerate() {
            let node = sig_node[id];
            let op = match &s.kind {
                SigKind::Input => {
                    input_k += 1;
                    FOp::Alias(inputs[input_k - 1])
                }
                SigKind::Reg { reset } => {
                    self.regs.push(FReg { node, width: s.width, reset: reset.clone(), next: s.driver.map(map) });
                    FOp::Reg
                }
                SigKind::Output | SigKind::Wire | SigKind::InstIn { .. } => {
                    FOp::Alias(map(s.driver.expect("checked: driven")))
                }
                SigKind::InstOut { inst, port } => {
                    let sub = &m.instances[*inst as usize].module;
                    let k = sub.ports[..*port as usize]
                        .iter()
                        .filter(|&&q| sub.signals[q as usize].kind == SigKind::Output)
                        .count();
                    FOp::Alias(inst_outputs[*inst as usize][k])
                }
            };
            self.nodes[node as usize].op = op;
            self.signals.push(FSignal {
                scope,
                name: s.name.clone(),
                width: s.width,
                node,
                is_port: matches!(s.kind, SigKind::Input | SigKind::Output),
            });
        }
        m.ports.iter().filter(|&&p| m.signals[p as usize].kind == SigKind::Output).map(|&p| sig_node[p as usize]).collect()
    }

    /// Operands of node `n`, each at the node that computes it.
    pub fn deps(&self, n: FlatId) -> Vec<FlatId> {
        self.nodes[n as usize].op.operands().into_iter().map(|d| self.resolve(d)).collect()
    }

    /// Every node the `roots` depend on combinationally (roots included, at
    /// the nodes computing them), each once, after its operands.
    pub fn post_order(&self, roots: impl IntoIterator<Item = FlatId>) -> Vec<FlatId> {
        let mut done = vec![false; self.nodes.len()];
        let mut order = Vec::new();
        for root in roots {
            let root = self.resolve(root);
            if done[root as usize] {
                continue;
            }
            let mut stack: Vec<(FlatId, bool)> = vec![(root, false)];
            while let Some((x, expanded)) = stack.pop() {
                if done[x as usize] {
                    continue;
                }
                if expanded {
                    done[x as usize] = true;
                    order.push(x);
                    continue;
                }
                stack.push((x, true));
                // Reversed, so operands are placed in order.
                for d in self.deps(x).into_iter().rev() {
                    if !done[d as usize] {
                        stack.push((d, false));
                    }
                }
            }
        }
        order
    }

    /// Follow aliases to the node that computes the value.
    pub fn resolve(&self, mut n: FlatId) -> FlatId {
        while let FOp::Alias(t) = self.nodes[n as usize].op {
            n = t;
        }
        n
    }
}
