//! Lowering a finished module for the Verilog emitter: rewrites that make the
//! emitted hardware small on an FPGA without changing what it computes. The
//! simulator runs the module as built; co-simulation against the emitted
//! Verilog checks that the two agree.
//!
//! Rules:
//! - **Rebuild through the node table** (`ir::graph`): commutative
//!   operands share one node and constants fold (also where the rules below
//!   made operands constant).
//! - **Register-array writes per word** (`Lower::specialize`): a write port of a
//!   register array writes word `i` only when its address is `i`, so its data
//!   may be computed with the address replaced by the constant `i`. Where the
//!   data depends on the address through cheap logic (bitwise operators,
//!   multiplexers, equality comparisons, reads of any array at that address),
//!   that logic is copied per word with the address replaced (an adder or a
//!   shifter on the address stays shared: the replacement is optional), and
//!   each word gets its own write with that data: a read of the
//!   array at the address becomes the word itself (no read multiplexer), a
//!   comparison with the address becomes a shared decoder output, and the
//!   ports that write a word with the same value (a row touched by several
//!   ports, each rebuilding the same merged row) merge into one write under
//!   the OR of their enables. What is left per bit is the update an RTL
//!   engineer writes by hand, `q & ~clear | set` from a decoded strobe.
//!   A generator that writes each port's row as the same function of a warp
//!   id compares the port's own warp with itself (`w == w`); the builder
//!   keeps that comparison (`Graph::keep_self_compare`) and the
//!   substitution replaces one side only (`w == i`, true wherever the write
//!   happens), which makes every port's row at word `i` the same node.
//! - **Zero-arm multiplexers as AND gates** in modules with resettable
//!   register arrays: `s ? x : 0` is emitted as `x & {w{s}}`; yosys's
//!   resource sharing (`share`) follows multiplexers and spent minutes on
//!   the masks the per-word writes gate. Elsewhere the multiplexers stay
//!   (ABC maps them a little smaller).
//! - **Narrow event sums** (`Lower::narrow_sums`): a wide value plus and
//!   minus one- or two-bit events (a counter moved by several events in one
//!   cycle) sums the events in a few bits first and adds the result once,
//!   one wide adder instead of one per event.
//! - **Reset last** (in the emitter): a register array's reset is the last
//!   assignment of its process, so yosys sees `rst ? reset : ...` at every
//!   flip-flop and maps it to a synchronous-reset cell.

use super::graph::Graph;
use super::module::*;
use super::Bits;
use std::collections::HashMap;

/// At most this many nodes are created per array by per-word writes.
const BUDGET: usize = 200_000;

/// The module as the Verilog emitter should see it.
pub fn for_verilog(m: &Module) -> Module {
    let mut l = Lower {
        m,
        g: Graph::keeping_self_compare(),
        map: Vec::new(),
        old: Vec::new(),
        mems: m.mems.clone(),
        drivers: m.signals.iter().map(|s| s.driver).collect(),
        reads: HashMap::new(),
    };
    l.rebuild(m.nodes.clone());
    for k in 0..l.mems.len() {
        if l.mems[k].reset.is_some() {
            l.specialize(k);
        }
    }
    // Fold what the specialization left (self-comparisons of other logic)
    // and narrow the sums of single-bit events.
    let sums = l.narrow_sums();
    let nodes = std::mem::take(&mut l.g.nodes);
    l.g = Graph::default();
    // Zero-arm multiplexers become AND gates only where per-word writes made
    // them (modules with resettable arrays): elsewhere ABC maps the
    // multiplexers smaller (aeu 4322 vs 4337 LUT4, peu 4314 vs 4337).
    let gate = m.mems.iter().any(|mem| mem.reset.is_some());
    l.rebuild_with(nodes, &sums, gate);
    let mut signals = m.signals.clone();
    for (s, d) in signals.iter_mut().zip(&l.drivers) {
        s.driver = *d;
    }
    Module {
        name: m.name.clone(),
        doc: m.doc.clone(),
        nodes: l.g.nodes,
        signals,
        mems: l.mems,
        instances: m.instances.clone(),
        ports: m.ports.clone(),
        uses_clock: m.uses_clock,
        uses_reset: m.uses_reset,
        comb_deps: m.comb_deps.clone(),
        fingerprint: m.fingerprint,
    }
}

/// A sum rebuilt narrow first (see [`Lower::narrow_sums`]): its terms (old
/// nodes, `true` if subtracted) and the width the events are summed in.
struct Sum {
    terms: Vec<(NodeId, bool)>,
    bits: u32,
}

struct Lower<'a> {
    m: &'a Module,
    g: Graph,
    /// The nodes of the table being rebuilt from (during a rebuild).
    old: Vec<Node>,
    /// Node id before the current rebuild to node id after it.
    map: Vec<NodeId>,
    mems: Vec<Mem>,
    /// Every signal's driver (in `g`).
    drivers: Vec<Option<NodeId>>,
    /// (memory, address) to its read node in `g`.
    reads: HashMap<(usize, NodeId), NodeId>,
}

impl Lower<'_> {
    /// Put `nodes` through the node table `self.g`, operands first (a node's
    /// operands always have smaller ids; signal references are leaves), and
    /// move memory ports and signal drivers along.
    fn rebuild(&mut self, nodes: Vec<Node>) {
        self.rebuild_with(nodes, &HashMap::new(), false);
    }

    /// [`Self::rebuild`], with the sums in `sums` built narrow first and,
    /// with `gate`, multiplexers with a zero arm built as AND gates.
    fn rebuild_with(&mut self, nodes: Vec<Node>, sums: &HashMap<NodeId, Sum>, gate: bool) {
        self.map = vec![NodeId::MAX; nodes.len()];
        self.reads.clear();
        self.old = nodes;
        for i in 0..self.old.len() {
            let n = self.old[i].clone();
            if let Some(sum) = sums.get(&(i as NodeId)) {
                self.map[i] = self.build_sum(n.width, sum);
                continue;
            }
            let op = match &n.op {
                Op::Sig(_) | Op::MemRead { .. } => {
                    self.map[i] = self.g.push_unique(n.width, n.op.clone());
                    continue;
                }
                op => self.remap(op),
            };
            if gate {
                if let Some(g) = self.gate_zero_mux(n.width, &op) {
                    self.map[i] = g;
                    continue;
                }
            }
            self.map[i] = self.g.push(n.width, op);
        }
        for mem in &mut self.mems {
            for r in &mut mem.read_ports {
                r.addr = self.map[r.addr as usize];
            }
            for w in &mut mem.write_ports {
                w.addr = self.map[w.addr as usize];
                w.data = self.map[w.data as usize];
                w.en = self.map[w.en as usize];
            }
        }
        for d in self.drivers.iter_mut().flatten() {
            *d = self.map[*d as usize];
        }
    }

    /// `sel ? x : 0` as `x & {w{sel}}` (and `sel ? 0 : x` as `x & {w{~sel}}`):
    /// the same gates after mapping, but yosys's `share` pass follows only
    /// multiplexers, and per-word writes put hundreds of them after each
    /// decoded mask, which made it run minutes on pmode_unit.
    fn gate_zero_mux(&mut self, width: u32, op: &Op) -> Option<NodeId> {
        let Op::Mux { sel, t, f } = *op else { return None };
        let zero = |g: &Graph, n: NodeId| g.konst(n).is_some_and(|b| b.is_zero());
        let (cond, x) = if zero(&self.g, f) {
            (sel, t)
        } else if zero(&self.g, t) {
            (self.g.push(1, Op::Unary(UnOp::Not, sel)), f)
        } else {
            return None;
        };
        let mask = if width == 1 { cond } else { self.g.push(width, Op::Ext { src: cond, signed: true }) };
        Some(self.g.push(width, Op::Binary(BinOp::And, x, mask)))
    }

    /// How often each node is used by live logic (from signal drivers and
    /// memory write ports).
    fn live_uses(&self) -> Vec<u32> {
        let mut uses = vec![0u32; self.g.nodes.len()];
        let mut seen = vec![false; self.g.nodes.len()];
        let mut stack: Vec<NodeId> = self.drivers.iter().flatten().copied().collect();
        for mem in &self.mems {
            for w in &mem.write_ports {
                stack.extend([w.addr, w.data, w.en]);
            }
        }
        for &r in &stack {
            uses[r as usize] += 1;
        }
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut seen[n as usize], true) {
                continue;
            }
            let mut ops = self.g.node(n).op.operands();
            if let Op::MemRead { mem, port } = self.g.node(n).op {
                ops.push(self.mems[mem as usize].read_ports[port as usize].addr);
            }
            for o in ops {
                uses[o as usize] += 1;
                stack.push(o);
            }
        }
        uses
    }

    /// Sums of a wide value and three or more one- or two-bit events (a
    /// counter that goes up and down by single events: `pool - take + ret -
    /// virt + free`): the events are summed first in a few bits, then added
    /// to the wide value once, instead of one wide adder per event. (With two
    /// events the narrow adder costs about what it saves.) Keyed by the
    /// root of each sum (an adder tree whose inner nodes have no other use).
    fn narrow_sums(&self) -> HashMap<NodeId, Sum> {
        let uses = self.live_uses();
        let is_sum = |n: NodeId| matches!(self.g.node(n).op, Op::Binary(BinOp::Add | BinOp::Sub, _, _));
        // Inner nodes: sums used once, by a sum of the same width.
        let mut inner = std::collections::HashSet::new();
        for (i, n) in self.g.nodes.iter().enumerate() {
            if uses[i] == 0 || !is_sum(i as NodeId) {
                continue;
            }
            for c in n.op.operands() {
                if is_sum(c) && uses[c as usize] == 1 && self.g.width(c) == n.width {
                    inner.insert(c);
                }
            }
        }
        let mut out = HashMap::new();
        for (i, n) in self.g.nodes.iter().enumerate() {
            let r = i as NodeId;
            if uses[i] == 0 || !is_sum(r) || inner.contains(&r) || n.width < 4 {
                continue;
            }
            let mut terms: Vec<(NodeId, bool)> = Vec::new();
            let mut stack = vec![(r, false)];
            while let Some((x, neg)) = stack.pop() {
                match self.g.node(x).op {
                    Op::Binary(o @ (BinOp::Add | BinOp::Sub), a, b) if x == r || inner.contains(&x) => {
                        stack.push((a, neg));
                        stack.push((b, neg ^ (o == BinOp::Sub)));
                    }
                    _ => terms.push((x, neg)),
                }
            }
            // An event: a zero-extended one- or two-bit value, or a small constant.
            let event = |x: NodeId| -> Option<u64> {
                match &self.g.node(x).op {
                    Op::Ext { src, signed: false } if self.g.width(*src) <= 2 => Some((1u64 << self.g.width(*src)) - 1),
                    Op::Const(b) => b.to_u64().filter(|&v| v <= 3),
                    _ => None,
                }
            };
            let (mut up, mut down, mut events) = (0u64, 0u64, 0);
            let mut wide = Vec::new();
            for &(x, neg) in &terms {
                match event(x) {
                    Some(m) => {
                        events += 1;
                        if neg {
                            down += m
                        } else {
                            up += m
                        }
                    }
                    None => wide.push((x, neg)),
                }
            }
            // Two's complement bits holding -down ..= up.
            let bits = 1 + 64 - up.max(down.saturating_sub(1)).leading_zeros();
            if events < 3 || !wide.iter().any(|w| !w.1) || bits + 1 >= n.width {
                continue;
            }
            out.insert(r, Sum { terms, bits });
        }
        out
    }

    /// The sum `sum` (of old nodes) in the new table: events summed in
    /// `sum.bits` bits, sign-extended, added to the wide terms.
    fn build_sum(&mut self, width: u32, sum: &Sum) -> NodeId {
        let k = sum.bits;
        // Events added up by sign, then one subtraction: (up) - (down).
        let (mut up, mut down): (Option<NodeId>, Option<NodeId>) = (None, None);
        let mut pending_wide = Vec::new();
        for &(x, neg) in &sum.terms {
            let old = &self.old[x as usize];
            let narrow = match &old.op {
                Op::Ext { src, signed: false } if self.old[*src as usize].width <= 2 => {
                    let s = self.map[*src as usize];
                    Some(if self.g.width(s) == k { s } else { self.g.push(k, Op::Ext { src: s, signed: false }) })
                }
                Op::Const(b) if b.to_u64().is_some_and(|v| v <= 3) => {
                    Some(self.g.constant(Bits::from_u64(b.to_u64().unwrap_or(0), k).expect("small constant fits")))
                }
                _ => None,
            };
            match narrow {
                Some(v) => {
                    let side = if neg { &mut down } else { &mut up };
                    *side = Some(match *side {
                        None => v,
                        Some(d) => self.g.push(k, Op::Binary(BinOp::Add, d, v)),
                    });
                }
                None => pending_wide.push((self.map[x as usize], neg)),
            }
        }
        let zero = self.g.constant(Bits::zero(k));
        let delta = self.g.push(k, Op::Binary(BinOp::Sub, up.unwrap_or(zero), down.unwrap_or(zero)));
        // The first positive wide term starts the sum.
        let first = pending_wide.iter().position(|w| !w.1).expect("checked: a positive wide term");
        let (mut acc, _) = pending_wide.remove(first);
        for (w, neg) in pending_wide {
            acc = self.g.push(width, Op::Binary(if neg { BinOp::Sub } else { BinOp::Add }, acc, w));
        }
        let d = self.g.push(width, Op::Ext { src: delta, signed: true });
        self.g.push(width, Op::Binary(BinOp::Add, acc, d))
    }

    fn remap(&self, op: &Op) -> Op {
        let f = |n: &NodeId| self.map[*n as usize];
        match op {
            Op::Unary(u, a) => Op::Unary(*u, f(a)),
            Op::Binary(b, x, y) => Op::Binary(*b, f(x), f(y)),
            Op::Shift(s, x, y) => Op::Shift(*s, f(x), f(y)),
            Op::Mux { sel, t, f: e } => Op::Mux { sel: f(sel), t: f(t), f: f(e) },
            Op::Cat(parts) => Op::Cat(parts.iter().map(f).collect()),
            Op::Slice { src, lo } => Op::Slice { src: f(src), lo: *lo },
            Op::Ext { src, signed } => Op::Ext { src: f(src), signed: *signed },
            other => other.clone(),
        }
    }

    /// What a rebuilt node reads: operands, a wire's driver, a read's address.
    fn inputs(&self, n: NodeId) -> Vec<NodeId> {
        match &self.g.node(n).op {
            Op::Sig(s) => {
                let sig = &self.m.signals[*s as usize];
                match sig.kind {
                    SigKind::Wire | SigKind::Output | SigKind::InstIn { .. } => self.drivers[*s as usize].into_iter().collect(),
                    _ => vec![],
                }
            }
            Op::MemRead { mem, port } => vec![self.mems[*mem as usize].read_ports[*port as usize].addr],
            op => op.operands(),
        }
    }

    /// The nodes of `root`'s cone to copy per word: those that depend on
    /// `addr` (through wires) through cheap logic only, operands before
    /// users. A node that is not worth copying (an adder, a shifter, a read
    /// at another address: see [`Self::copyable`]) is kept as it is, shared
    /// by every word, even if it depends on the address: replacing the
    /// address by the word is valid anywhere in the data, and optional.
    fn dependent_cone(&self, root: NodeId, addr: NodeId) -> Vec<NodeId> {
        // Iterative post-order DFS; `dep` memoizes "is copied", `reads` holds
        // the copied nodes computed from a copied read (the word's data).
        let mut dep: HashMap<NodeId, bool> = HashMap::new();
        let mut reads: std::collections::HashSet<NodeId> = std::collections::HashSet::new();
        let mut started: std::collections::HashSet<NodeId> = std::collections::HashSet::new();
        let mut order = Vec::new();
        let mut stack = vec![(root, false)];
        while let Some((n, expanded)) = stack.pop() {
            if !expanded {
                if n == addr {
                    dep.insert(n, true);
                    continue;
                }
                if !started.insert(n) {
                    continue;
                }
                if !self.copyable(n, addr) {
                    dep.insert(n, false);
                    continue;
                }
                stack.push((n, true));
                for i in self.inputs(n) {
                    if !dep.contains_key(&i) {
                        stack.push((i, false));
                    }
                }
                continue;
            }
            let ins = self.inputs(n);
            let mut d = ins.iter().any(|i| dep.get(i).copied().unwrap_or(false));
            // A multiplexer whose select is computed from the word's own data
            // (a stack's top-of-stack pick) stays shared: per word it would be
            // a wide multiplexer tree copied `depth` times.
            if let Op::Mux { sel, .. } = self.g.node(n).op {
                if d && reads.contains(&sel) {
                    d = false;
                }
            }
            dep.insert(n, d);
            if d {
                if matches!(self.g.node(n).op, Op::MemRead { .. }) || ins.iter().any(|i| reads.contains(i)) {
                    reads.insert(n);
                }
                order.push(n);
            }
        }
        order
    }

    /// Does logic in `root`'s cone that is not in `copied` read node `target`?
    fn shared_use(&self, root: NodeId, target: NodeId, copied: &[NodeId]) -> bool {
        let copied: std::collections::HashSet<NodeId> = copied.iter().copied().collect();
        let mut seen = std::collections::HashSet::new();
        // (node, inside a shared node)
        let mut stack = vec![(root, !copied.contains(&root))];
        while let Some((n, shared)) = stack.pop() {
            if n == target {
                if shared {
                    return true;
                }
                continue;
            }
            if !seen.insert((n, shared)) {
                continue;
            }
            for i in self.inputs(n) {
                stack.push((i, shared || !copied.contains(&i) && i != target));
            }
        }
        false
    }

    /// May address-dependent node `n` be copied per word?
    fn copyable(&self, n: NodeId, addr: NodeId) -> bool {
        let node = self.g.node(n);
        match &node.op {
            Op::Sig(s) => !matches!(self.m.signals[*s as usize].kind, SigKind::InstOut { .. }),
            Op::MemRead { mem, port } => self.mems[*mem as usize].read_ports[*port as usize].addr == addr,
            Op::Unary(UnOp::Not | UnOp::RedAnd | UnOp::RedOr | UnOp::RedXor, _) => true,
            Op::Unary(UnOp::Ffs | UnOp::Popcount, _) => false,
            Op::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Eq | BinOp::Ne, _, _) => true,
            // Adders and ordered comparisons per word (an incrementer of the
            // word's count) came out larger than one shared copy after the
            // read multiplexer (mshr_table, pqueue).
            Op::Binary(..) => false,
            Op::Shift(..) => false,
            Op::Mux { .. } | Op::Cat(_) | Op::Slice { .. } | Op::Ext { .. } | Op::Const(_) => true,
        }
    }

    /// Rebuild the cone `order` (from [`Self::dependent_cone`]) with `addr`
    /// replaced by the constant `word`; returns the new node for each.
    fn substitute(&mut self, order: &[NodeId], addr: NodeId, word: u64) -> HashMap<NodeId, NodeId> {
        let aw = self.g.width(addr);
        let mut sub: HashMap<NodeId, NodeId> = HashMap::new();
        sub.insert(addr, self.g.constant(Bits::from_u64(word, aw).expect("word fits the address")));
        for &n in order {
            let s = |x: NodeId, sub: &HashMap<NodeId, NodeId>| sub.get(&x).copied().unwrap_or(x);
            let node = self.g.node(n).clone();
            let new = match &node.op {
                Op::Sig(_) => {
                    let d = self.inputs(n)[0];
                    s(d, &sub)
                }
                Op::MemRead { mem, .. } => {
                    let a = s(addr, &sub);
                    self.read(*mem as usize, a, node.width)
                }
                Op::Unary(u, a) => self.g.push(node.width, Op::Unary(*u, s(*a, &sub))),
                // The port's own address compared with itself (a row update
                // written as a function of a warp id, applied to this port's
                // warp): substitute one side only, `a == i`, which is what the
                // same update applied to another port's warp computes, so the
                // ports' per-word writes become one node and merge.
                Op::Binary(b @ (BinOp::Eq | BinOp::Ne), x, y) if *x == addr && *y == addr => {
                    let i = s(addr, &sub);
                    self.g.push(node.width, Op::Binary(*b, addr, i))
                }
                Op::Binary(b, x, y) => self.g.push(node.width, Op::Binary(*b, s(*x, &sub), s(*y, &sub))),
                Op::Shift(k, x, y) => self.g.push(node.width, Op::Shift(*k, s(*x, &sub), s(*y, &sub))),
                Op::Mux { sel, t, f } => self.g.push(node.width, Op::Mux { sel: s(*sel, &sub), t: s(*t, &sub), f: s(*f, &sub) }),
                Op::Cat(parts) => self.g.push(node.width, Op::Cat(parts.iter().map(|&p| s(p, &sub)).collect())),
                Op::Slice { src, lo } => self.g.push(node.width, Op::Slice { src: s(*src, &sub), lo: *lo }),
                Op::Ext { src, signed } => self.g.push(node.width, Op::Ext { src: s(*src, &sub), signed: *signed }),
                Op::Const(_) => n,
            };
            sub.insert(n, new);
        }
        sub
    }

    /// A read of memory `mem` at (rebuilt) address `addr`, sharing the node
    /// of an earlier read of the same address.
    fn read(&mut self, mem: usize, addr: NodeId, width: u32) -> NodeId {
        if self.reads.is_empty() {
            for (i, n) in self.g.nodes.iter().enumerate() {
                if let Op::MemRead { mem, port } = n.op {
                    let a = self.mems[mem as usize].read_ports[port as usize].addr;
                    self.reads.entry((mem as usize, a)).or_insert(i as NodeId);
                }
            }
        }
        if let Some(&n) = self.reads.get(&(mem, addr)) {
            return n;
        }
        self.mems[mem].read_ports.push(ReadPort { addr });
        let port = self.mems[mem].read_ports.len() as u32 - 1;
        let n = self.g.push_unique(width, Op::MemRead { mem: mem as MemId, port });
        self.reads.insert((mem, addr), n);
        n
    }

    /// Per-word writes for register array `k` (see the module documentation),
    /// if at least one of its write ports benefits.
    fn specialize(&mut self, k: usize) {
        let ports = self.mems[k].write_ports.clone();
        let depth = self.mems[k].depth as u64;
        let cones: Vec<Option<(Vec<NodeId>, Vec<NodeId>)>> = ports
            .iter()
            .map(|w| {
                if self.g.konst(w.addr).is_some() {
                    return None;
                }
                Some((self.dependent_cone(w.data, w.addr), self.dependent_cone(w.en, w.addr)))
            })
            .collect();
        // Worth it when some port reads the array itself at its address and
        // every use of that read in its data is copied (the read multiplexer
        // goes away and the row update becomes per bit); a read still needed
        // by shared logic (an incrementer of the word) saves nothing.
        let useful = ports.iter().zip(&cones).any(|(w, c)| {
            c.as_ref().is_some_and(|(data, _)| {
                data.iter().any(|&n| {
                    matches!(self.g.node(n).op, Op::MemRead { mem, .. } if mem as usize == k && self.inputs(n)[0] == w.addr)
                        && !self.shared_use(w.data, n, data)
                })
            })
        });
        let size: usize = cones.iter().flatten().map(|(d, e)| d.len() + e.len() + 2).sum();
        if !useful || size.saturating_mul(depth as usize) > BUDGET {
            return;
        }
        let aw = self.mems[k].addr_width();
        let mut writes = Vec::new();
        for word in 0..depth {
            let at = self.g.constant(Bits::from_u64(word, aw).expect("word fits the address"));
            let mut group: Option<(NodeId, NodeId)> = None; // (enable, data)
            for (w, cone) in ports.iter().zip(&cones) {
                let hit = self.g.push(1, Op::Binary(BinOp::Eq, w.addr, at));
                let (data, en) = match cone {
                    Some((data, en)) => {
                        let sd = self.substitute(data, w.addr, word);
                        let se = self.substitute(en, w.addr, word);
                        (sd.get(&w.data).copied().unwrap_or(w.data), se.get(&w.en).copied().unwrap_or(w.en))
                    }
                    None => (w.data, w.en),
                };
                let en = self.g.push(1, Op::Binary(BinOp::And, en, hit));
                if self.g.konst(en).is_some_and(|b| b.is_zero()) {
                    continue;
                }
                group = match group {
                    Some((ge, gd)) if gd == data => Some((self.g.push(1, Op::Binary(BinOp::Or, ge, en)), gd)),
                    Some(g) => {
                        writes.push(WritePort { addr: at, data: g.1, en: g.0 });
                        Some((en, data))
                    }
                    None => Some((en, data)),
                };
            }
            if let Some((en, data)) = group {
                writes.push(WritePort { addr: at, data, en });
            }
        }
        self.mems[k].write_ports = writes;
    }
}
