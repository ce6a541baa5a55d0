//! C code generation: a flattened, optimised netlist becomes two C functions
//! over one flat arena of 64-bit words, `wf_eval` (settle combinational
//! logic) and `wf_tick` (the clock edge).
//!
//! - **Arena**: `rst`, the inputs in port order (one copy per stimulus
//!   frame), the registers, the memories, then every stored value. A value
//!   is stored when something outside its function needs it: a port, a
//!   signal kept visible, a register's next value or a memory write (`wf_tick`
//!   reads them), or a later function.
//! - **Temporaries** are C locals (`const u64 nX = ...`), so the C compiler
//!   keeps them in registers; values above 64 bits are word arrays, and a
//!   memory read or a select of wide values is a pointer, not a copy.
//! - **Functions** are cut every `chunk_cost` units of work, so the C
//!   compiler's time stays about linear in the design.
//! - **Cost-based mux lowering**: a mux whose arm has enough logic of its own
//!   (used by nothing else) becomes an `if`, and the untaken arm is never
//!   computed; cheap muxes stay branch-free selects.
//! - Every value keeps the interpreter's invariant: bits above its width are
//!   zero.

use super::CompileOptions;
use crate::component::{top_mask, words_for, Dir, PortSpec};
use crate::engine::Visibility;
use crate::inspect::{Scope, SimMem, SimSignal};
use crate::netlist::flatten::{FOp, Flat, FlatId};
use hw::ir::{BinOp, Module, ShiftOp, SigKind, UnOp};
use std::fmt::Write as _;

const NONE: u32 = u32::MAX;

/// Figures about the generated code, for `--verbose` output and the bench.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeStats {
    /// Computed nodes in the generated code.
    pub nodes: usize,
    /// Of those, stored in the arena.
    pub stored: usize,
    /// Muxes lowered to branches.
    pub branches: usize,
    /// Functions `wf_eval` is split into.
    pub functions: usize,
    /// Words of state (the arena).
    pub arena_words: usize,
    /// Lines of C.
    pub lines: usize,
}

/// The generated model: C source plus everything the Rust side needs to run
/// and inspect it.
pub(crate) struct Generated {
    pub source: String,
    pub init: Vec<u64>,
    pub ports: Vec<PortSpec>,
    /// Per port: (slot, words).
    pub locs: Vec<(u32, u32)>,
    pub inputs_base: u32,
    pub inputs_words: u32,
    pub signals: Vec<SimSignal>,
    pub mems: Vec<SimMem>,
    pub scopes: Vec<Scope>,
    pub stats: CodeStats,
    /// `wf_eval` / `wf_tick` do nothing (a block of wires, or without state):
    /// the engine need not call them.
    pub eval_empty: bool,
    pub tick_empty: bool,
}

/// How a value is referred to in C.
#[derive(Clone)]
enum Rep {
    /// A 64-bit expression (a local, `v[slot]` or a literal).
    Narrow(String),
    /// A `const u64 *` expression and its word count.
    Wide(String, usize),
}

struct Gen<'a> {
    flat: &'a Flat,
    opts: &'a CompileOptions,
    live: Vec<bool>,
    /// Register index of a `Reg` node.
    reg_of: Vec<u32>,
    reg_live: Vec<bool>,
    mem_live: Vec<bool>,
    /// Must be computed unconditionally and stored (ports, visible signals,
    /// what `wf_tick` reads).
    forced: Vec<bool>,
    /// Topological order of the live computed nodes.
    order: Vec<FlatId>,
    /// Position of each node in `order`.
    pos: Vec<u32>,
    /// Users of each node (live computed nodes; repeated per operand).
    users: Vec<Vec<FlatId>>,
    /// Lowered muxes.
    lowered: Vec<bool>,
    /// Region of each node: 0 is the top level, `2k+1`/`2k+2` the true/false
    /// arm of lowered mux number k.
    region: Vec<u32>,
    region_parent: Vec<u32>,
    /// Lowered mux of each arm region (index = region id; NONE for 0).
    region_mux: Vec<FlatId>,
    /// Nodes of each region in topological order.
    region_nodes: Vec<Vec<FlatId>>,
    /// First arm region of each lowered mux (the other is the next id).
    arm_of: Vec<u32>,
    /// Wide constants already emitted as static arrays.
    kdone: Vec<bool>,
    /// Function of each emitted node.
    chunk: Vec<u32>,
    stored: Vec<bool>,
    slot: Vec<u32>,
    mem_base: Vec<u32>,
    nwords: u32,
    init: Vec<u64>,
    /// File-scope constant arrays.
    statics: String,
    /// Per-function declarations of wide local arrays.
    decls: String,
    tmp: u32,
    miscompile_left: Option<usize>,
    cur_chunk: u32,
    max_stride: usize,
}

fn lit(x: u64) -> String {
    format!("0x{x:x}ull")
}

impl<'a> Gen<'a> {
    fn width(&self, x: FlatId) -> u32 {
        self.flat.nodes[x as usize].width
    }

    fn op(&self, x: FlatId) -> &FOp {
        &self.flat.nodes[x as usize].op
    }

    fn r(&self, x: FlatId) -> FlatId {
        self.flat.resolve(x)
    }

    fn is_source(&self, x: FlatId) -> bool {
        matches!(self.op(x), FOp::Input | FOp::Reg | FOp::Const(_))
    }

    fn deps(&self, x: FlatId) -> Vec<FlatId> {
        self.flat.deps(x)
    }

    /// Work of one node, in rough units of a simple 64-bit operation.
    fn cost(&self, x: FlatId) -> u32 {
        let w = words_for(self.width(x)) as u32;
        let wa = self.deps(x).iter().map(|&d| words_for(self.width(d)) as u32).max().unwrap_or(1);
        let k = w.max(wa);
        match self.op(x) {
            FOp::MemRead { .. } => 2,
            FOp::Mux(..) if k > 1 => 1,
            FOp::Binary(BinOp::Mul, ..) => 3 * k * k,
            FOp::Cat(p) => p.len() as u32,
            _ => 2 * k - 1,
        }
    }

    // ---- analysis -------------------------------------------------------

    fn liveness(&mut self, vis: Visibility) {
        let flat = self.flat;
        let mut stack: Vec<FlatId> = flat.outputs.iter().map(|o| o.2).collect();
        if vis == Visibility::Full {
            stack.extend(flat.signals.iter().map(|s| s.node));
            for k in 0..flat.regs.len() {
                stack.push(flat.regs[k].node);
            }
            for m in 0..flat.mems.len() {
                self.mark_mem(m, &mut stack);
            }
        }
        while let Some(x) = stack.pop() {
            let x = self.r(x);
            if self.live[x as usize] {
                continue;
            }
            self.live[x as usize] = true;
            match self.op(x) {
                FOp::Reg => {
                    let k = self.reg_of[x as usize] as usize;
                    if k != NONE as usize && !self.reg_live[k] {
                        self.reg_live[k] = true;
                        if let Some(n) = flat.regs[k].next {
                            stack.push(n);
                        }
                    }
                }
                FOp::MemRead { mem, addr } => {
                    stack.push(*addr);
                    self.mark_mem(*mem as usize, &mut stack);
                }
                _ => stack.extend(self.deps(x)),
            }
        }
    }

    fn mark_mem(&mut self, m: usize, stack: &mut Vec<FlatId>) {
        if !self.mem_live[m] {
            self.mem_live[m] = true;
            for &(a, d, e) in &self.flat.mems[m].writes {
                stack.extend([a, d, e]);
            }
        }
    }

    /// Nodes that must be computed every time and stored.
    fn roots(&self, vis: Visibility) -> Vec<FlatId> {
        let flat = self.flat;
        let mut roots: Vec<FlatId> = flat.outputs.iter().map(|o| o.2).collect();
        if vis == Visibility::Full {
            roots.extend(flat.signals.iter().map(|s| s.node));
        }
        for (k, reg) in flat.regs.iter().enumerate() {
            if self.reg_live[k] {
                if let Some(n) = reg.next {
                    roots.push(n);
                }
            }
        }
        for (m, mem) in flat.mems.iter().enumerate() {
            if self.mem_live[m] {
                for &(a, d, e) in &mem.writes {
                    roots.extend([a, d, e]);
                }
            }
        }
        roots.into_iter().map(|x| self.r(x)).collect()
    }

    /// The live computed nodes in topological order, and their users.
    fn topo(&mut self, roots: &[FlatId]) {
        for x in self.flat.post_order(roots.iter().copied()) {
            if !self.is_source(x) {
                self.pos[x as usize] = self.order.len() as u32;
                self.order.push(x);
            }
        }
        for i in 0..self.order.len() {
            let x = self.order[i];
            for d in self.deps(x) {
                self.users[d as usize].push(x);
            }
        }
    }

    /// Place every node in a region: the innermost lowered-mux arm that
    /// holds all its uses. Then un-lower muxes whose arms do too little work
    /// to pay for a branch, and place again.
    fn lower_muxes(&mut self) {
        for &x in &self.order {
            if self.opts.lower_muxes && matches!(self.op(x), FOp::Mux(..)) {
                self.lowered[x as usize] = true;
            }
        }
        loop {
            self.place();
            // Work inside each arm (nested arms included).
            let nreg = self.region_parent.len();
            let mut work = vec![0u32; nreg];
            for &x in &self.order {
                let r = self.region[x as usize];
                if r != 0 {
                    work[r as usize] += self.cost(x);
                }
            }
            // Children have larger ids than their parents: add bottom-up.
            for r in (1..nreg).rev() {
                let p = self.region_parent[r] as usize;
                if p != 0 {
                    work[p] += work[r];
                }
            }
            let mut changed = false;
            for r in (1..nreg).step_by(2) {
                let m = self.region_mux[r];
                let most = work[r].max(work[r + 1]);
                if most < self.opts.branch_cost {
                    self.lowered[m as usize] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn place(&mut self) {
        self.region.iter_mut().for_each(|r| *r = 0);
        self.region_parent = vec![NONE];
        self.region_mux = vec![NONE];
        let mut depth: Vec<u32> = vec![0];
        let mut arm_of = std::mem::take(&mut self.arm_of);
        arm_of.iter_mut().for_each(|a| *a = NONE);
        for i in (0..self.order.len()).rev() {
            let x = self.order[i];
            let region = if self.forced[x as usize] {
                0
            } else {
                let mut acc: Option<u32> = None;
                for &u in &self.users[x as usize] {
                    let need = match *self.op(u) {
                        FOp::Mux(s, t, f) if self.lowered[u as usize] => {
                            let (s, t, f) = (self.r(s), self.r(t), self.r(f));
                            if x == t && x != s && x != f {
                                arm_of[u as usize]
                            } else if x == f && x != s && x != t {
                                arm_of[u as usize] + 1
                            } else {
                                self.region[u as usize]
                            }
                        }
                        _ => self.region[u as usize],
                    };
                    acc = Some(match acc {
                        None => need,
                        Some(a) => lca(a, need, &self.region_parent, &depth),
                    });
                }
                acc.unwrap_or(0)
            };
            self.region[x as usize] = region;
            if self.lowered[x as usize] {
                let t = self.region_parent.len() as u32;
                arm_of[x as usize] = t;
                for _ in 0..2 {
                    self.region_parent.push(region);
                    self.region_mux.push(x);
                    depth.push(depth[region as usize] + 1);
                }
            }
        }
        self.arm_of = arm_of;
        self.region_nodes = vec![Vec::new(); self.region_parent.len()];
        for &x in &self.order {
            self.region_nodes[self.region[x as usize] as usize].push(x);
        }
    }

    /// Work of a top-level node with everything in its arms.
    fn item_cost(&self, x: FlatId) -> u32 {
        let mut c = self.cost(x);
        if self.lowered[x as usize] {
            for arm in self.arms(x) {
                for &y in &self.region_nodes[arm as usize] {
                    c += self.item_cost(y);
                }
            }
        }
        c
    }

    fn arms(&self, m: FlatId) -> [u32; 2] {
        let r = self.arm_of[m as usize];
        debug_assert!(r != NONE, "internal: lowered mux without arms");
        [r, r + 1]
    }

    fn chunks(&mut self) -> usize {
        let mut c = 0u32;
        let mut acc = 0u32;
        let top: Vec<FlatId> = self.region_nodes[0].clone();
        for &x in &top {
            let k = self.item_cost(x);
            if acc > 0 && acc + k > self.opts.chunk_cost {
                c += 1;
                acc = 0;
            }
            acc += k;
            self.set_chunk(x, c);
        }
        (c + 1) as usize
    }

    fn set_chunk(&mut self, x: FlatId, c: u32) {
        self.chunk[x as usize] = c;
        if self.lowered[x as usize] {
            for arm in self.arms(x) {
                for y in self.region_nodes[arm as usize].clone() {
                    self.set_chunk(y, c);
                }
            }
        }
    }

    // ---- layout ---------------------------------------------------------

    fn alloc(&mut self, width: u32) -> u32 {
        let s = self.nwords;
        self.nwords += words_for(width) as u32;
        self.init.resize(self.nwords as usize, 0);
        s
    }

    /// Slot of a node that has one (inputs, registers, stored values, and
    /// constants given one because something reads them from the arena).
    fn slot_of(&mut self, x: FlatId) -> u32 {
        let x = self.r(x);
        if self.slot[x as usize] == NONE {
            if let FOp::Const(b) = self.op(x).clone() {
                let s = self.alloc(b.width());
                self.init[s as usize..s as usize + b.words().len()].copy_from_slice(b.words());
                self.slot[x as usize] = s;
            } else {
                panic!("internal: compiled engine: node {x} has no arena slot");
            }
        }
        self.slot[x as usize]
    }

    // ---- C emission -----------------------------------------------------

    /// How node `x` is read from the current function.
    fn rep(&mut self, x: FlatId) -> Rep {
        let x = self.r(x);
        let w = self.width(x);
        let k = words_for(w);
        match self.op(x).clone() {
            FOp::Const(b) => {
                if w <= 64 {
                    Rep::Narrow(lit(b.words()[0]))
                } else {
                    if !self.kdone[x as usize] {
                        self.kdone[x as usize] = true;
                        let words: Vec<String> = b.words().iter().map(|&q| lit(q)).collect();
                        let _ = writeln!(self.statics, "static const u64 K{x}[{k}] = {{{}}};", words.join(", "));
                    }
                    Rep::Wide(format!("K{x}"), k)
                }
            }
            FOp::Input | FOp::Reg => {
                let s = self.slot[x as usize];
                if w <= 64 {
                    Rep::Narrow(format!("v[{s}]"))
                } else {
                    Rep::Wide(format!("(v + {s})"), k)
                }
            }
            _ => {
                if self.chunk[x as usize] == self.cur_chunk && !(self.stored[x as usize] && w > 64) {
                    if w <= 64 {
                        Rep::Narrow(format!("n{x}"))
                    } else {
                        Rep::Wide(format!("n{x}"), k)
                    }
                } else {
                    let s = self.slot[x as usize];
                    debug_assert!(self.stored[x as usize]);
                    if w <= 64 {
                        Rep::Narrow(format!("v[{s}]"))
                    } else {
                        Rep::Wide(format!("(v + {s})"), k)
                    }
                }
            }
        }
    }

    fn narrow(&mut self, x: FlatId) -> String {
        match self.rep(x) {
            Rep::Narrow(s) => s,
            Rep::Wide(..) => panic!("internal: compiled engine: wide value used as narrow"),
        }
    }

    /// A pointer to `x`'s words (a narrow value is spilled to a local word).
    fn ptr(&mut self, x: FlatId, out: &mut String) -> (String, usize) {
        match self.rep(x) {
            Rep::Wide(p, k) => (p, k),
            Rep::Narrow(e) => {
                self.tmp += 1;
                let t = format!("w{}", self.tmp);
                let _ = writeln!(out, "const u64 {t}[1] = {{{e}}};");
                (t, 1)
            }
        }
    }

    /// A shift amount as one word (saturated when wider).
    fn amount(&mut self, b: FlatId, out: &mut String) -> String {
        let amt = if self.width(b) <= 64 {
            self.narrow(b)
        } else {
            let (p, k) = self.ptr(b, out);
            format!("wf_amount({p}, {k})")
        };
        self.tmp += 1;
        let t = format!("s{}", self.tmp);
        let _ = writeln!(out, "const u64 {t} = {amt};");
        t
    }

    /// The C expression of a narrow (<= 64-bit) node.
    fn narrow_expr(&mut self, x: FlatId, out: &mut String) -> String {
        let w = self.width(x);
        let m = top_mask(w);
        let mask = |e: String| if w == 64 { e } else { format!("({e}) & {}", lit(m)) };
        match self.op(x).clone() {
            FOp::Unary(op, a) => {
                let wa = self.width(a);
                if wa <= 64 {
                    let a = self.narrow(a);
                    match op {
                        UnOp::Not => mask(format!("~{a}")),
                        UnOp::RedOr => format!("(u64)({a} != 0)"),
                        UnOp::RedAnd => format!("(u64)({a} == {})", lit(top_mask(wa))),
                        UnOp::RedXor => format!("(u64)__builtin_parityll({a})"),
                        UnOp::Ffs => format!("({a} ? (u64)__builtin_ctzll({a}) : 0)"),
                        UnOp::Popcount => format!("(u64)__builtin_popcountll({a})"),
                    }
                } else {
                    let (p, k) = self.ptr(a, out);
                    match op {
                        UnOp::Not => unreachable!("a wide not is wide"),
                        UnOp::RedOr => format!("(u64)wf_any({p}, {k})"),
                        UnOp::RedAnd => format!("(u64)wf_all({p}, {k}, {})", lit(top_mask(wa))),
                        UnOp::RedXor => format!("wf_parity({p}, {k})"),
                        UnOp::Ffs => format!("wf_ffs({p}, {k})"),
                        UnOp::Popcount => format!("wf_pop({p}, {k})"),
                    }
                }
            }
            FOp::Binary(op, a, b) => {
                let wa = self.width(a);
                if op == BinOp::Mul {
                    // The product of a wa- and a wb-bit value fits wa + wb bits.
                    let (a, b) = (self.narrow(a), self.narrow(b));
                    return format!("{a} * {b}");
                }
                if wa <= 64 {
                    let (a, b) = (self.narrow(a), self.narrow(b));
                    let sh = 64 - wa;
                    match op {
                        BinOp::And => {
                            if let Some(left) = self.miscompile_left.as_mut() {
                                if *left == 0 {
                                    self.miscompile_left = None;
                                    return format!("{a} | {b}");
                                }
                                *left -= 1;
                            }
                            format!("{a} & {b}")
                        }
                        BinOp::Or => format!("{a} | {b}"),
                        BinOp::Xor => format!("{a} ^ {b}"),
                        BinOp::Add => mask(format!("{a} + {b}")),
                        BinOp::Sub => mask(format!("{a} - {b}")),
                        BinOp::Eq => format!("(u64)({a} == {b})"),
                        BinOp::Ne => format!("(u64)({a} != {b})"),
                        BinOp::Lt => format!("(u64)({a} < {b})"),
                        BinOp::Le => format!("(u64)({a} <= {b})"),
                        BinOp::Lts => format!("(u64)((i64)({a} << {sh}) < (i64)({b} << {sh}))"),
                        BinOp::Les => format!("(u64)((i64)({a} << {sh}) <= (i64)({b} << {sh}))"),
                        BinOp::Mul => unreachable!(),
                    }
                } else {
                    let (pa, k) = self.ptr(a, out);
                    let (pb, _) = self.ptr(b, out);
                    match op {
                        BinOp::Eq => format!("(u64)wf_eq({pa}, {pb}, {k})"),
                        BinOp::Ne => format!("(u64)!wf_eq({pa}, {pb}, {k})"),
                        BinOp::Lt => format!("(u64)(wf_cmpu({pa}, {pb}, {k}) < 0)"),
                        BinOp::Le => format!("(u64)(wf_cmpu({pa}, {pb}, {k}) <= 0)"),
                        BinOp::Lts => format!("(u64)(wf_cmps({pa}, {pb}, {k}, {wa}) < 0)"),
                        BinOp::Les => format!("(u64)(wf_cmps({pa}, {pb}, {k}, {wa}) <= 0)"),
                        _ => unreachable!("a wide bitwise or arithmetic result is wide"),
                    }
                }
            }
            FOp::Shift(op, a, b) => {
                let s = self.amount(b, out);
                let a = self.narrow(a);
                match op {
                    ShiftOp::Shl => format!("({s} < {w} ? {} : 0)", mask(format!("{a} << {s}"))),
                    ShiftOp::Shr => format!("({s} < {w} ? {a} >> {s} : 0)"),
                    ShiftOp::Sra => {
                        let sh = 64 - w;
                        mask(format!("(u64)(((i64)({a} << {sh}) >> {sh}) >> ({s} < {w} ? {s} : {}))", w - 1))
                    }
                }
            }
            FOp::Mux(s, t, f) => {
                let (s, t, f) = (self.narrow(s), self.narrow(t), self.narrow(f));
                format!("({s} ? {t} : {f})")
            }
            FOp::Cat(parts) => {
                let mut shift = w;
                let mut terms = Vec::new();
                for p in parts {
                    shift -= self.width(p);
                    let e = self.narrow(p);
                    terms.push(if shift == 0 { e } else { format!("({e} << {shift})") });
                }
                terms.join(" | ")
            }
            FOp::Slice(a, lo) => {
                let wa = self.width(a);
                if wa <= 64 {
                    let a = self.narrow(a);
                    let e = if lo == 0 { a } else { format!("({a} >> {lo})") };
                    if lo + w == wa {
                        e
                    } else {
                        mask(e)
                    }
                } else {
                    let (p, _) = self.ptr(a, out);
                    let (i, o) = (lo / 64, lo % 64);
                    let e = if o == 0 {
                        format!("{p}[{i}]")
                    } else if o + w <= 64 {
                        format!("({p}[{i}] >> {o})")
                    } else {
                        format!("(({p}[{i}] >> {o}) | ({p}[{}] << {}))", i + 1, 64 - o)
                    };
                    mask(e)
                }
            }
            FOp::Ext(a, signed) => {
                let wa = self.width(a);
                let a = self.narrow(a);
                if signed {
                    let sh = 64 - wa;
                    mask(format!("(u64)((i64)({a} << {sh}) >> {sh})"))
                } else {
                    a
                }
            }
            FOp::MemRead { mem, addr } => {
                let a = self.narrow(addr);
                let (base, depth) = (self.mem_base[mem as usize], self.flat.mems[mem as usize].depth);
                format!("({a} < {depth} ? v[{base} + {a}] : 0)")
            }
            FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => unreachable!("sources are not computed"),
        }
    }

    /// Statements computing a wide node into `d` (`k` words, zeroed or not).
    fn wide_into(&mut self, x: FlatId, d: &str, out: &mut String) {
        let w = self.width(x);
        let k = words_for(w);
        let tm = lit(top_mask(w));
        match self.op(x).clone() {
            FOp::Unary(UnOp::Not, a) => {
                let (p, _) = self.ptr(a, out);
                let _ = writeln!(out, "for (unsigned i = 0; i < {k}; i++) {d}[i] = ~{p}[i];\n{d}[{}] &= {tm};", k - 1);
            }
            FOp::Binary(op, a, b) => {
                let (pa, na) = self.ptr(a, out);
                let (pb, nb) = self.ptr(b, out);
                match op {
                    BinOp::And | BinOp::Or | BinOp::Xor => {
                        let c = match op {
                            BinOp::And => "&",
                            BinOp::Or => "|",
                            _ => "^",
                        };
                        let _ = writeln!(out, "for (unsigned i = 0; i < {k}; i++) {d}[i] = {pa}[i] {c} {pb}[i];");
                    }
                    BinOp::Add => {
                        let _ = writeln!(out, "wf_add({d}, {pa}, {pb}, {k}, {tm});");
                    }
                    BinOp::Sub => {
                        let _ = writeln!(out, "wf_sub({d}, {pa}, {pb}, {k}, {tm});");
                    }
                    BinOp::Mul => {
                        let _ = writeln!(out, "wf_mul({d}, {k}, {pa}, {na}, {pb}, {nb}, {tm});");
                    }
                    _ => unreachable!("a comparison is narrow"),
                }
            }
            FOp::Shift(op, a, b) => {
                let s = self.amount(b, out);
                let (pa, _) = self.ptr(a, out);
                let _ = match op {
                    ShiftOp::Shl => writeln!(out, "wf_shl({d}, {pa}, {s}, {w}, {k}, {tm});"),
                    ShiftOp::Shr => writeln!(out, "wf_shr({d}, {pa}, {s}, {w}, {k});"),
                    ShiftOp::Sra => writeln!(out, "wf_sra({d}, {pa}, {s}, {w}, {k});"),
                };
            }
            FOp::Mux(s, t, f) => {
                let s = self.narrow(s);
                let (pt, _) = self.ptr(t, out);
                let (pf, _) = self.ptr(f, out);
                let _ = writeln!(out, "wf_copy({d}, {s} ? {pt} : {pf}, {k});");
            }
            FOp::Cat(parts) => {
                let _ = writeln!(out, "wf_zero({d}, {k});");
                let mut pos = w;
                for p in parts {
                    let pw = self.width(p);
                    pos -= pw;
                    if pw <= 64 {
                        let e = self.narrow(p);
                        let (i, o) = (pos / 64, pos % 64);
                        if o == 0 {
                            let _ = writeln!(out, "{d}[{i}] |= {e};");
                        } else {
                            let _ = writeln!(out, "{d}[{i}] |= {e} << {o};");
                            if o + pw > 64 {
                                let _ = writeln!(out, "{d}[{}] |= {e} >> {};", i + 1, 64 - o);
                            }
                        }
                    } else {
                        let (pp, np) = self.ptr(p, out);
                        let _ = writeln!(out, "wf_copy_bits({d}, {pos}, {pp}, {np}, 0, {pw});");
                    }
                }
            }
            FOp::Slice(a, lo) => {
                let (pa, na) = self.ptr(a, out);
                if lo % 64 == 0 {
                    let i = lo / 64;
                    let _ = writeln!(out, "for (unsigned i = 0; i < {k}; i++) {d}[i] = {pa}[{i} + i];\n{d}[{}] &= {tm};", k - 1);
                } else {
                    let _ = writeln!(out, "wf_zero({d}, {k});\nwf_copy_bits({d}, 0, {pa}, {na}, {lo}, {w});");
                }
            }
            FOp::Ext(a, signed) => {
                let wa = self.width(a);
                let (pa, na) = self.ptr(a, out);
                let _ = writeln!(out, "wf_ext({d}, {k}, {pa}, {na}, {wa}, {w}, {});", signed as u32);
            }
            FOp::MemRead { mem, addr } => {
                let p = self.mem_ptr(mem, addr);
                let _ = writeln!(out, "wf_copy({d}, {p}, {k});");
            }
            FOp::Unary(..) => unreachable!("reductions are narrow"),
            FOp::Input | FOp::Reg | FOp::Const(_) | FOp::Alias(_) => unreachable!("sources are not computed"),
        }
    }

    fn mem_ptr(&mut self, mem: u32, addr: FlatId) -> String {
        let a = self.narrow(addr);
        let m = &self.flat.mems[mem as usize];
        let (base, depth, stride) = (self.mem_base[mem as usize], m.depth, words_for(m.width));
        format!("({a} < {depth} ? v + {base} + {a} * {stride} : wf_zeros)")
    }

    /// Emit node `x` (and, for a lowered mux, its arms) into `out`.
    fn emit(&mut self, x: FlatId, out: &mut String) {
        let w = self.width(x);
        let k = words_for(w);
        let stored = self.stored[x as usize];
        let slot = self.slot[x as usize];
        if self.lowered[x as usize] {
            let FOp::Mux(s, t, f) = self.op(x).clone() else { unreachable!() };
            let s = self.narrow(s);
            let [ta, fa] = self.arms(x);
            if w <= 64 {
                let _ = writeln!(out, "u64 n{x};\nif ({s}) {{");
                self.emit_region(ta, out);
                let t = self.narrow(t);
                let _ = writeln!(out, "n{x} = {t};\n}} else {{");
                self.emit_region(fa, out);
                let f = self.narrow(f);
                let _ = writeln!(out, "n{x} = {f};\n}}");
                if stored {
                    let _ = writeln!(out, "v[{slot}] = n{x};");
                }
            } else {
                if !stored {
                    let _ = writeln!(out, "const u64 *n{x};");
                }
                let _ = writeln!(out, "if ({s}) {{");
                self.emit_region(ta, out);
                let (pt, _) = self.ptr(t, out);
                if stored {
                    let _ = writeln!(out, "wf_copy(v + {slot}, {pt}, {k});\n}} else {{");
                } else {
                    let _ = writeln!(out, "n{x} = {pt};\n}} else {{");
                }
                self.emit_region(fa, out);
                let (pf, _) = self.ptr(f, out);
                if stored {
                    let _ = writeln!(out, "wf_copy(v + {slot}, {pf}, {k});\n}}");
                } else {
                    let _ = writeln!(out, "n{x} = {pf};\n}}");
                }
            }
            return;
        }
        if w <= 64 {
            let e = self.narrow_expr(x, out);
            let _ = writeln!(out, "const u64 n{x} = {e};");
            if stored {
                let _ = writeln!(out, "v[{slot}] = n{x};");
            }
            return;
        }
        // Wide: a pointer where no copy is needed, else words.
        match (self.op(x).clone(), stored) {
            (FOp::MemRead { mem, addr }, false) => {
                let p = self.mem_ptr(mem, addr);
                let _ = writeln!(out, "const u64 *n{x} = {p};");
            }
            (FOp::Mux(s, t, f), false) => {
                let s = self.narrow(s);
                let (pt, _) = self.ptr(t, out);
                let (pf, _) = self.ptr(f, out);
                let _ = writeln!(out, "const u64 *n{x} = {s} ? {pt} : {pf};");
            }
            (_, false) => {
                let _ = writeln!(self.decls, "u64 n{x}[{k}];");
                self.wide_into(x, &format!("n{x}"), out);
            }
            (_, true) => self.wide_into(x, &format!("(v + {slot})"), out),
        }
    }

    fn emit_region(&mut self, r: u32, out: &mut String) {
        for x in self.region_nodes[r as usize].clone() {
            self.emit(x, out);
        }
    }
}

/// Lowest common ancestor of two regions.
fn lca(mut a: u32, mut b: u32, parent: &[u32], depth: &[u32]) -> u32 {
    while depth[a as usize] > depth[b as usize] {
        a = parent[a as usize];
    }
    while depth[b as usize] > depth[a as usize] {
        b = parent[b as usize];
    }
    while a != b {
        a = parent[a as usize];
        b = parent[b as usize];
    }
    a
}

/// Generate the C model of `flat` (the flattened `top`).
pub(crate) fn generate(flat: &Flat, top: &Module, vis: Visibility, opts: &CompileOptions) -> Generated {
    let n = flat.nodes.len();
    let mut reg_of = vec![NONE; n];
    for (k, r) in flat.regs.iter().enumerate() {
        if matches!(flat.nodes[r.node as usize].op, FOp::Reg) {
            reg_of[r.node as usize] = k as u32;
        }
    }
    let mut g = Gen {
        flat,
        opts,
        live: vec![false; n],
        reg_of,
        reg_live: vec![false; flat.regs.len()],
        mem_live: vec![false; flat.mems.len()],
        forced: vec![false; n],
        order: Vec::new(),
        pos: vec![NONE; n],
        users: vec![Vec::new(); n],
        lowered: vec![false; n],
        region: vec![0; n],
        region_parent: vec![NONE],
        region_mux: vec![NONE],
        region_nodes: Vec::new(),
        arm_of: vec![NONE; n],
        kdone: vec![false; n],
        chunk: vec![NONE; n],
        stored: vec![false; n],
        slot: vec![NONE; n],
        mem_base: Vec::new(),
        nwords: 0,
        init: Vec::new(),
        statics: String::new(),
        decls: String::new(),
        tmp: 0,
        miscompile_left: opts.miscompile,
        cur_chunk: 0,
        max_stride: 1,
    };
    g.liveness(vis);
    let roots = g.roots(vis);
    for &x in &roots {
        g.forced[x as usize] = true;
    }
    g.topo(&roots);
    g.lower_muxes();
    let nchunks = g.chunks();
    // Stored: forced, or read by a later function.
    for &x in &g.order.clone() {
        let c = g.chunk[x as usize];
        if g.forced[x as usize] || g.users[x as usize].iter().any(|&u| g.chunk[u as usize] != c) {
            g.stored[x as usize] = true;
        }
    }

    // Arena: rst, inputs in port order, registers, memories, stored values.
    let rst = g.alloc(1);
    for &(_, w, node) in &flat.inputs {
        g.slot[node as usize] = g.alloc(w);
    }
    for (k, r) in flat.regs.iter().enumerate() {
        if g.reg_live[k] && g.reg_of[r.node as usize] == k as u32 {
            let s = g.alloc(r.width);
            g.init[s as usize..s as usize + r.reset.words().len()].copy_from_slice(r.reset.words());
            g.slot[r.node as usize] = s;
        }
    }
    let mut mems = Vec::new();
    for (k, m) in flat.mems.iter().enumerate() {
        let stride = words_for(m.width);
        g.max_stride = g.max_stride.max(stride);
        if !g.mem_live[k] {
            g.mem_base.push(NONE);
            continue;
        }
        let base = g.nwords;
        g.nwords += (stride * m.depth as usize) as u32;
        g.init.resize(g.nwords as usize, 0);
        if let Some(r) = &m.reset {
            for i in 0..m.depth as usize {
                let o = base as usize + i * stride;
                g.init[o..o + stride].copy_from_slice(r.words());
            }
        }
        g.mem_base.push(base);
        mems.push(SimMem { scope: m.scope, name: m.name.clone(), depth: m.depth, width: m.width, base: base as usize, stride });
    }
    for &x in &g.order.clone() {
        if g.stored[x as usize] {
            g.slot[x as usize] = g.alloc(g.width(x));
        }
    }

    // eval: one function per chunk.
    let mut body = String::new();
    let mut stats = CodeStats { nodes: g.order.len(), functions: nchunks, ..CodeStats::default() };
    stats.stored = g.stored.iter().filter(|&&s| s).count();
    stats.branches = g.lowered.iter().filter(|&&l| l).count();
    let top_items = g.region_nodes[0].clone();
    let mut i = 0;
    for c in 0..nchunks as u32 {
        g.cur_chunk = c;
        g.decls.clear();
        let mut code = String::new();
        while i < top_items.len() && g.chunk[top_items[i] as usize] == c {
            g.emit(top_items[i], &mut code);
            i += 1;
        }
        let _ = write!(body, "static void __attribute__((noinline)) wf_eval_{c}(u64 *restrict v) {{\n{}{code}}}\n\n", g.decls);
    }

    // Registers fed directly by another register read it before any changes:
    // stage a copy during eval.
    g.cur_chunk = NONE;
    let mut stage = String::new();
    let mut reg_copies = Vec::new();
    for (k, r) in flat.regs.iter().enumerate() {
        if !g.reg_live[k] || g.reg_of[r.node as usize] != k as u32 {
            continue;
        }
        let Some(next) = r.next else { continue };
        let next = g.r(next);
        if next == r.node {
            continue; // holds forever
        }
        let q = g.slot[r.node as usize];
        let src = if matches!(g.op(next), FOp::Reg) {
            let from = g.slot[next as usize];
            let s = g.alloc(r.width);
            let _ = writeln!(stage, "for (unsigned i = 0; i < {}; i++) v[{s} + i] = v[{from} + i];", words_for(r.width));
            Some(s)
        } else {
            None
        };
        reg_copies.push((q, r.width, next, src));
    }

    // tick: memory writes in port order, then registers; reset instead.
    let mut tick = String::new();
    if top.uses_reset {
        let _ = writeln!(tick, "if (v[{rst}]) {{");
        for (k, r) in flat.regs.iter().enumerate() {
            if g.reg_live[k] && g.reg_of[r.node as usize] == k as u32 {
                let q = g.slot[r.node as usize];
                for (j, &word) in r.reset.words().iter().enumerate() {
                    let _ = writeln!(tick, "v[{}] = {};", q as usize + j, lit(word));
                }
            }
        }
        for (k, m) in flat.mems.iter().enumerate() {
            if let (true, Some(r)) = (g.mem_live[k], &m.reset) {
                let stride = words_for(m.width);
                let base = g.mem_base[k];
                for (j, &word) in r.words().iter().enumerate() {
                    let _ = writeln!(tick, "for (unsigned i = 0; i < {}; i++) v[{base} + i * {stride} + {j}] = {};", m.depth, lit(word));
                }
            }
        }
        let _ = writeln!(tick, "return;\n}}");
    }
    for (k, m) in flat.mems.iter().enumerate() {
        if !g.mem_live[k] {
            continue;
        }
        let stride = words_for(m.width);
        let base = g.mem_base[k];
        for &(a, d, e) in &m.writes {
            let en = g.tick_narrow(e);
            let addr = g.tick_narrow(a);
            let data = g.tick_ptr(d);
            let _ = writeln!(
                tick,
                "if ({en}) {{ const u64 a = {addr}; if (a < {}) for (unsigned i = 0; i < {stride}; i++) v[{base} + a * {stride} + i] = {data}[i]; }}",
                m.depth
            );
        }
    }
    for (q, width, next, staged) in reg_copies {
        let k = words_for(width);
        match staged {
            Some(s) => {
                let _ = writeln!(tick, "for (unsigned i = 0; i < {k}; i++) v[{q} + i] = v[{s} + i];");
            }
            None if width <= 64 => {
                let e = g.tick_narrow(next);
                let _ = writeln!(tick, "v[{q}] = {e};");
            }
            None => {
                let p = g.tick_ptr(next);
                let _ = writeln!(tick, "for (unsigned i = 0; i < {k}; i++) v[{q} + i] = {p}[i];");
            }
        }
    }

    // Ports: rst first, then the declared ports in order.
    let mut ports = Vec::new();
    let mut locs = Vec::new();
    let mut signals = Vec::new();
    if top.uses_reset {
        ports.push(PortSpec::input("rst", 1));
        locs.push((rst, 1));
        signals.push(SimSignal { scope: 0, name: "rst".into(), width: 1, slot: rst, is_port: true });
    }
    let (mut ii, mut oi) = (0, 0);
    for &p in &top.ports {
        let s = &top.signals[p as usize];
        let node = if s.kind == SigKind::Input {
            ii += 1;
            flat.inputs[ii - 1].2
        } else {
            oi += 1;
            flat.outputs[oi - 1].2
        };
        let slot = g.slot_of(node);
        ports.push(if s.kind == SigKind::Input { PortSpec::input(s.name.clone(), s.width) } else { PortSpec::output(s.name.clone(), s.width) });
        locs.push((slot, words_for(s.width) as u32));
    }
    for s in &flat.signals {
        let x = g.r(s.node);
        let has_slot = match g.op(x) {
            FOp::Const(_) => vis == Visibility::Full || g.slot[x as usize] != NONE,
            _ => g.slot[x as usize] != NONE,
        };
        if has_slot {
            let slot = g.slot_of(x);
            signals.push(SimSignal { scope: s.scope, name: s.name.clone(), width: s.width, slot, is_port: s.is_port });
        }
    }
    let inputs_words = ports.iter().filter(|p| p.dir == Dir::In).map(|p| p.words() as u32).sum();

    let mut src = String::new();
    let _ = writeln!(src, "/* warpforge compiled model of `{}` */", top.name);
    src.push_str(include_str!("prelude.h"));
    let _ = writeln!(src, "static const u64 wf_zeros[{}] = {{0}};", g.max_stride);
    src.push_str(&g.statics);
    src.push('\n');
    src.push_str(&body);
    src.push_str("void wf_eval(u64 *restrict v) {\n");
    for c in 0..nchunks {
        let _ = writeln!(src, "wf_eval_{c}(v);");
    }
    src.push_str(&stage);
    src.push_str("}\n\nvoid wf_tick(u64 *restrict v) {\n");
    src.push_str(&tick);
    src.push_str("}\n\n");
    let _ = writeln!(src, "const u64 wf_arena_words = {};", g.nwords);
    stats.arena_words = g.nwords as usize;
    stats.lines = src.lines().count();
    let eval_empty = g.order.is_empty() && stage.is_empty();
    let tick_empty = tick.is_empty();
    Generated {
        source: src,
        init: g.init,
        ports,
        locs,
        inputs_base: if top.uses_reset { rst } else { rst + 1 },
        inputs_words,
        signals,
        mems,
        scopes: flat.scopes.clone(),
        stats,
        eval_empty,
        tick_empty,
    }
}

impl Gen<'_> {
    /// A narrow value as `wf_tick` reads it (from the arena or a literal).
    fn tick_narrow(&mut self, x: FlatId) -> String {
        let x = self.r(x);
        match self.op(x) {
            FOp::Const(b) => lit(b.words()[0]),
            _ => format!("v[{}]", self.slot_of(x)),
        }
    }

    fn tick_ptr(&mut self, x: FlatId) -> String {
        let x = self.r(x);
        match self.op(x).clone() {
            FOp::Const(b) if b.width() > 64 => {
                let _ = self.rep(x);
                format!("K{x}")
            }
            FOp::Const(b) => {
                self.tmp += 1;
                let _ = writeln!(self.statics, "static const u64 T{}[1] = {{{}}};", self.tmp, lit(b.words()[0]));
                format!("T{}", self.tmp)
            }
            _ => format!("(v + {})", self.slot_of(x)),
        }
    }
}
