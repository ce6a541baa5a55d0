//! Elaboration: block generators are ordinary Rust that runs once and builds a
//! [`Module`] through a [`ModuleBuilder`].
//!
//! Values are [`Sig`] handles (small and `Copy`) combined with Rust operators
//! (`&`, `|`, `^`, `!`, `+`, `-`, `*`, `<<`, `>>`) and methods (`eq`, `lt`,
//! `bits`, `zext`, `any`, `ffs`, ...). The module under construction lives in a
//! thread-local stack, the way Chisel's builder does, so handles need no
//! back-pointer; a generator may build sub-modules while building its own
//! module (they stack).
//!
//! Width rules are strict: operands of bitwise, arithmetic and comparison
//! operators have equal widths, assignments match exactly, and an integer
//! literal takes the width of the other operand (it must fit). Nothing is
//! silently extended or truncated. A violation does not panic: it is recorded
//! with the module name, the signals involved and the generator's source line,
//! elaboration continues, and [`ModuleBuilder::finish`] returns the first error.

use super::graph::Graph;
use super::module::*;
use super::Bits;
use crate::params::clog2;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::panic::Location;
use std::sync::Arc;

/// Largest width of any signal.
pub const MAX_WIDTH: u32 = 1 << 16;

/// An elaboration error: names the module, the signal(s) and the generator line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("module `{module}`: {message} ({location})")]
pub struct HwError {
    pub module: String,
    pub message: String,
    pub location: String,
}

/// A combinational value in the module being built.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sig {
    ctx: u32,
    node: NodeId,
    width: u32,
}

impl fmt::Debug for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sig(n{}:{})", self.node, self.width)
    }
}

/// A memory or register array in the module being built.
#[derive(Clone, Copy, Debug)]
pub struct MemHandle {
    ctx: u32,
    id: MemId,
    depth: u32,
    width: u32,
}

/// An instance of a sub-module in the module being built.
#[derive(Clone, Copy, Debug)]
pub struct InstHandle {
    ctx: u32,
    id: InstId,
}

struct Driver {
    node: NodeId,
    at: &'static Location<'static>,
}

struct State {
    ctx: u32,
    name: String,
    doc: String,
    g: Graph,
    signals: Vec<Signal>,
    sig_node: Vec<NodeId>,
    default_driver: Vec<Option<Driver>>,
    cond_drivers: Vec<Vec<(NodeId, NodeId)>>,
    declared_at: Vec<&'static Location<'static>>,
    mems: Vec<Mem>,
    instances: Vec<Instance>,
    ports: Vec<SigId>,
    names: HashMap<String, &'static Location<'static>>,
    mem_reads: HashMap<(MemId, NodeId), NodeId>,
    keep_reset: bool,
    errors: Vec<HwError>,
}

thread_local! {
    static STACK: RefCell<Vec<State>> = const { RefCell::new(Vec::new()) };
    static NEXT_CTX: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// Verilog (2005 and SystemVerilog) keywords and names warpforge reserves.
const RESERVED: &[&str] = &[
    "always", "and", "assign", "automatic", "begin", "buf", "case", "casex", "casez", "cell", "cmos", "config",
    "deassign", "default", "defparam", "design", "disable", "edge", "else", "end", "endcase", "endconfig",
    "endfunction", "endgenerate", "endmodule", "endprimitive", "endspecify", "endtable", "endtask", "event", "for",
    "force", "forever", "fork", "function", "generate", "genvar", "highz0", "highz1", "if", "ifnone", "incdir",
    "include", "initial", "inout", "input", "instance", "integer", "join", "large", "liblist", "library",
    "localparam", "macromodule", "medium", "module", "nand", "negedge", "nmos", "nor", "noshowcancelled", "not",
    "notif0", "notif1", "or", "output", "parameter", "pmos", "posedge", "primitive", "pull0", "pull1", "pulldown",
    "pullup", "pulsestyle_onevent", "pulsestyle_ondetect", "rcmos", "real", "realtime", "reg", "release", "repeat",
    "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "scalared", "showcancelled", "signed", "small", "specify",
    "specparam", "strong0", "strong1", "supply0", "supply1", "table", "task", "time", "tran", "tranif0", "tranif1",
    "tri", "tri0", "tri1", "triand", "trior", "trireg", "unsigned", "use", "uwire", "vectored", "wait", "wand",
    "weak0", "weak1", "while", "wire", "wor", "xnor", "xor", "bit", "byte", "int", "logic", "longint", "shortint",
    "string", "type", "var", "void", "clk", "rst", "TOP",
];

/// Is `name` usable as a designer name (a Verilog identifier, not reserved,
/// not starting with `_`, which marks generated names)?
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STACK.with(|s| {
        let mut stack = s.borrow_mut();
        let st = stack.last_mut().expect("warpforge: hardware built outside ModuleBuilder::new .. finish");
        f(st)
    })
}

impl State {
    fn error(&mut self, at: &'static Location<'static>, message: String) {
        self.errors.push(HwError { module: self.name.clone(), message, location: format!("{}:{}", at.file(), at.line()) });
    }

    /// Add a node (structurally identical nodes are built once; constants
    /// and identities fold).
    fn push(&mut self, width: u32, op: Op) -> Sig {
        let node = self.g.push(width, op);
        Sig { ctx: self.ctx, node, width }
    }

    fn constant(&mut self, b: Bits) -> Sig {
        let width = b.width();
        Sig { ctx: self.ctx, node: self.g.constant(b), width }
    }

    /// A placeholder after an error, so elaboration can go on.
    fn poison(&mut self, width: u32) -> Sig {
        self.constant(Bits::zero(width.clamp(1, MAX_WIDTH)))
    }

    /// Describe a node for error messages: the signal name if it is one.
    fn describe(&self, s: Sig) -> String {
        match self.g.nodes.get(s.node as usize).map(|n| &n.op) {
            Some(Op::Sig(id)) => format!("`{}` ({} bits)", self.signals[*id as usize].name, s.width),
            Some(Op::Const(b)) => format!("literal {:?}", b),
            _ => format!("a {}-bit expression", s.width),
        }
    }

    fn check(&mut self, at: &'static Location<'static>, s: Sig) -> bool {
        if s.ctx != self.ctx {
            self.error(at, "a signal of another module is used here (connect it through a port)".into());
            return false;
        }
        true
    }

    fn claim_name(&mut self, at: &'static Location<'static>, name: &str) -> bool {
        if !valid_name(name) {
            self.error(
                at,
                format!("`{name}` is not a valid name (a Verilog identifier starting with a letter, not a keyword, not clk/rst)"),
            );
            return false;
        }
        if let Some(prev) = self.names.get(name) {
            let prev = format!("{}:{}", prev.file(), prev.line());
            self.error(at, format!("name `{name}` is already used (first declared at {prev})"));
            return false;
        }
        self.names.insert(name.to_string(), at);
        true
    }

    fn check_width(&mut self, at: &'static Location<'static>, what: &str, width: u32) -> bool {
        if width == 0 || width > MAX_WIDTH {
            self.error(at, format!("{what}: width {width} is outside 1..={MAX_WIDTH}"));
            return false;
        }
        true
    }

    fn add_signal(&mut self, at: &'static Location<'static>, name: &str, width: u32, kind: SigKind) -> Sig {
        let width = if self.check_width(at, &format!("signal `{name}`"), width) { width } else { 1 };
        self.claim_name(at, name);
        let id = self.signals.len() as SigId;
        self.signals.push(Signal { name: name.to_string(), width, kind, driver: None });
        let s = self.push(width, Op::Sig(id));
        self.sig_node.push(s.node);
        self.default_driver.push(None);
        self.cond_drivers.push(Vec::new());
        self.declared_at.push(at);
        s
    }

    /// The settable signal behind a handle, or an error.
    fn settable(&mut self, at: &'static Location<'static>, s: Sig) -> Option<SigId> {
        if !self.check(at, s) {
            return None;
        }
        if let Op::Sig(id) = self.g.nodes[s.node as usize].op {
            let sig = &self.signals[id as usize];
            match sig.kind {
                SigKind::Output | SigKind::Wire | SigKind::Reg { .. } | SigKind::InstIn { .. } => return Some(id),
                SigKind::Input => {
                    let msg = format!("input `{}` cannot be driven inside its module", sig.name);
                    self.error(at, msg);
                    return None;
                }
                SigKind::InstOut { .. } => {
                    let msg = format!("`{}` is an instance output; it is driven by the instance", sig.name);
                    self.error(at, msg);
                    return None;
                }
            }
        }
        self.error(at, format!("only a named wire, output, register or instance input can be assigned, not {}", self.describe(s)));
        None
    }
}

/// Something usable as an operand: a [`Sig`] or an integer literal, which
/// takes the width of the other operand.
pub trait IntoSig: Copy {
    /// The width this operand has on its own (`None` for a literal).
    fn width_hint(self) -> Option<u32>;
    #[doc(hidden)]
    fn resolve(self, width: u32, at: &'static Location<'static>) -> Sig;
}

impl IntoSig for Sig {
    fn width_hint(self) -> Option<u32> {
        Some(self.width)
    }
    fn resolve(self, _width: u32, _at: &'static Location<'static>) -> Sig {
        self
    }
}

fn literal(value: u128, width: u32, at: &'static Location<'static>) -> Sig {
    with(|st| {
        let lo = value as u64;
        let hi = (value >> 64) as u64;
        match Bits::from_words(&[lo, hi], width) {
            Some(b) => st.constant(b),
            None => {
                st.error(at, format!("literal {value} does not fit in {width} bits"));
                st.poison(width)
            }
        }
    })
}

macro_rules! into_sig_unsigned {
    ($($t:ty),*) => {$(
        impl IntoSig for $t {
            fn width_hint(self) -> Option<u32> { None }
            fn resolve(self, width: u32, at: &'static Location<'static>) -> Sig { literal(self as u128, width, at) }
        }
    )*};
}
into_sig_unsigned!(u8, u16, u32, u64, usize, bool);

impl IntoSig for i32 {
    fn width_hint(self) -> Option<u32> {
        None
    }
    fn resolve(self, width: u32, at: &'static Location<'static>) -> Sig {
        if self < 0 {
            with(|st| {
                st.error(at, format!("negative literal {self}; write the two's complement value explicitly"));
                st.poison(width)
            })
        } else {
            literal(self as u128, width, at)
        }
    }
}

/// A port of a sub-module instance, from [`InstHandle::io`]: drive an input
/// with [`Pin::set`], use an output as an operand. The implicit `rst` pin
/// cannot be used (the emitter connects it).
#[derive(Clone, Copy, Debug)]
pub struct Pin {
    sig: Option<Sig>,
}

impl Pin {
    /// The pin as a value.
    #[track_caller]
    pub fn sig(self) -> Sig {
        self.sig.unwrap_or_else(|| panic!("internal: the `rst` pin of an instance is connected implicitly"))
    }
    /// Drive an instance input.
    #[track_caller]
    pub fn set(self, value: impl IntoSig) {
        self.sig().set(value)
    }
}

impl IntoSig for Pin {
    fn width_hint(self) -> Option<u32> {
        self.sig.map(|s| s.width)
    }
    fn resolve(self, _width: u32, _at: &'static Location<'static>) -> Sig {
        self.sig()
    }
}

/// A literal of an explicit width.
#[track_caller]
pub fn lit(value: u64, width: u32) -> Sig {
    let at = Location::caller();
    if with(|st| st.check_width(at, "literal", width)) {
        literal(value as u128, width, at)
    } else {
        with(|st| st.poison(1))
    }
}

/// A constant of any width.
#[track_caller]
pub fn lit_bits(b: &Bits) -> Sig {
    with(|st| st.constant(b.clone()))
}

/// Concatenation, most significant part first (Verilog `{a, b, c}`).
#[track_caller]
pub fn cat(parts: &[Sig]) -> Sig {
    let at = Location::caller();
    with(|st| {
        if parts.is_empty() {
            st.error(at, "concatenation of nothing".into());
            return st.poison(1);
        }
        if !parts.iter().all(|&p| st.check(at, p)) {
            return st.poison(1);
        }
        if parts.len() == 1 {
            return parts[0];
        }
        let width: u64 = parts.iter().map(|p| p.width as u64).sum();
        if width > MAX_WIDTH as u64 {
            st.error(at, format!("concatenation is {width} bits, more than {MAX_WIDTH}"));
            return st.poison(1);
        }
        st.push(width as u32, Op::Cat(parts.iter().map(|p| p.node).collect()))
    })
}

/// `sel ? t : f`; `sel` is one bit, `t` and `f` have equal widths (a literal
/// takes the other's width).
#[track_caller]
pub fn mux(sel: Sig, t: impl IntoSig, f: impl IntoSig) -> Sig {
    let at = Location::caller();
    let Some(width) = t.width_hint().or(f.width_hint()) else {
        return with(|st| {
            st.error(at, "mux of two literals: give one of them a width with lit()".into());
            st.poison(1)
        });
    };
    let (t, f) = (t.resolve(width, at), f.resolve(width, at));
    with(|st| {
        if !(st.check(at, sel) && st.check(at, t) && st.check(at, f)) {
            return st.poison(width);
        }
        if sel.width != 1 {
            let d = st.describe(sel);
            st.error(at, format!("mux select must be 1 bit, got {d}"));
            return st.poison(width);
        }
        if t.width != f.width {
            let (dt, df) = (st.describe(t), st.describe(f));
            st.error(at, format!("mux arms differ in width: {dt} vs {df}"));
            return st.poison(width);
        }
        st.push(width, Op::Mux { sel: sel.node, t: t.node, f: f.node })
    })
}

/// `items[idx]` as a balanced mux tree over the bits of `idx`; indices past
/// the end give 0. All items have one width.
#[track_caller]
pub fn pick(idx: Sig, items: &[Sig]) -> Sig {
    let at = Location::caller();
    let Some(first) = items.first() else {
        return with(|st| {
            st.error(at, "pick from an empty list".into());
            st.poison(1)
        });
    };
    let width = first.width;
    let mut level: Vec<Sig> = items.to_vec();
    let zero = lit(0, width);
    for b in 0..idx.width {
        if level.len() == 1 && (items.len() as u64) <= (1u64 << b) {
            // Remaining index bits must be zero for an in-range index.
            let hi = idx.bits(idx.width - 1, b);
            return mux(hi.any(), zero, level[0]);
        }
        let sel = idx.bit(b);
        level = level
            .chunks(2)
            .map(|c| if c.len() == 2 { mux(sel, c[1], c[0]) } else { mux(sel, zero, c[0]) })
            .collect();
    }
    if level.len() > 1 {
        with(|st| st.error(at, format!("pick index of {} bits cannot reach all {} items", idx.width, items.len())));
    }
    level[0]
}

/// One-hot decode: a `width`-bit value with only bit `idx` set (0 when
/// `idx >= width`).
#[track_caller]
pub fn onehot(idx: Sig, width: u32) -> Sig {
    lit(1, width).shl(idx)
}

impl Sig {
    pub fn width(self) -> u32 {
        self.width
    }

    /// The IR node this handle refers to.
    pub fn node(self) -> NodeId {
        self.node
    }

    #[track_caller]
    fn binary(self, op: BinOp, rhs: impl IntoSig, name: &str) -> Sig {
        let at = Location::caller();
        let rhs = rhs.resolve(self.width, at);
        with(|st| {
            if !(st.check(at, self) && st.check(at, rhs)) {
                return st.poison(self.width);
            }
            if op != BinOp::Mul && self.width != rhs.width {
                let (a, b) = (st.describe(self), st.describe(rhs));
                st.error(at, format!("width mismatch in `{name}`: {a} vs {b}"));
                return st.poison(if op.is_compare() { 1 } else { self.width });
            }
            let width = match op {
                BinOp::Mul => self.width + rhs.width,
                _ if op.is_compare() => 1,
                _ => self.width,
            };
            if width > MAX_WIDTH {
                st.error(at, format!("`{name}` result of {width} bits exceeds {MAX_WIDTH}"));
                return st.poison(1);
            }
            st.push(width, Op::Binary(op, self.node, rhs.node))
        })
    }

    #[track_caller]
    fn unary(self, op: UnOp) -> Sig {
        let at = Location::caller();
        with(|st| {
            if !st.check(at, self) {
                return st.poison(1);
            }
            let width = match op {
                UnOp::Not => self.width,
                UnOp::RedAnd | UnOp::RedOr | UnOp::RedXor => 1,
                UnOp::Ffs => clog2(self.width as u64),
                UnOp::Popcount => clog2(self.width as u64 + 1),
            };
            st.push(width, Op::Unary(op, self.node))
        })
    }

    #[track_caller]
    fn shift(self, op: ShiftOp, amount: Sig) -> Sig {
        let at = Location::caller();
        with(|st| {
            if !(st.check(at, self) && st.check(at, amount)) {
                return st.poison(self.width);
            }
            st.push(self.width, Op::Shift(op, self.node, amount.node))
        })
    }

    #[track_caller]
    pub fn eq(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Eq, rhs, "eq")
    }
    #[track_caller]
    pub fn ne(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Ne, rhs, "ne")
    }
    /// Unsigned comparisons.
    #[track_caller]
    pub fn lt(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Lt, rhs, "lt")
    }
    #[track_caller]
    pub fn le(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Le, rhs, "le")
    }
    #[track_caller]
    pub fn gt(self, rhs: impl IntoSig) -> Sig {
        !self.binary(BinOp::Le, rhs, "gt")
    }
    #[track_caller]
    pub fn ge(self, rhs: impl IntoSig) -> Sig {
        !self.binary(BinOp::Lt, rhs, "ge")
    }
    /// Signed (two's complement) comparisons.
    #[track_caller]
    pub fn lt_s(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Lts, rhs, "lt_s")
    }
    #[track_caller]
    pub fn le_s(self, rhs: impl IntoSig) -> Sig {
        self.binary(BinOp::Les, rhs, "le_s")
    }
    #[track_caller]
    pub fn gt_s(self, rhs: impl IntoSig) -> Sig {
        !self.binary(BinOp::Les, rhs, "gt_s")
    }
    #[track_caller]
    pub fn ge_s(self, rhs: impl IntoSig) -> Sig {
        !self.binary(BinOp::Lts, rhs, "ge_s")
    }

    /// Sum one bit wider than the operands (keeps the carry).
    #[track_caller]
    pub fn add_wide(self, rhs: Sig) -> Sig {
        self.zext(self.width + 1) + rhs.zext(rhs.width + 1)
    }

    /// OR of all bits.
    #[track_caller]
    pub fn any(self) -> Sig {
        self.unary(UnOp::RedOr)
    }
    /// AND of all bits.
    #[track_caller]
    pub fn all(self) -> Sig {
        self.unary(UnOp::RedAnd)
    }
    /// XOR of all bits.
    #[track_caller]
    pub fn parity(self) -> Sig {
        self.unary(UnOp::RedXor)
    }
    /// Index of the lowest set bit (`clog2(width)` bits; 0 if none is set).
    #[track_caller]
    pub fn ffs(self) -> Sig {
        self.unary(UnOp::Ffs)
    }
    /// Number of set bits (`clog2(width + 1)` bits).
    #[track_caller]
    pub fn count_ones(self) -> Sig {
        self.unary(UnOp::Popcount)
    }

    /// Shift left by a runtime amount (width kept).
    #[track_caller]
    #[allow(clippy::should_implement_trait)] // `<<`/`>>` by a u32 are the constant shifts
    pub fn shl(self, amount: Sig) -> Sig {
        self.shift(ShiftOp::Shl, amount)
    }
    /// Logical shift right by a runtime amount.
    #[track_caller]
    #[allow(clippy::should_implement_trait)] // `<<`/`>>` by a u32 are the constant shifts
    pub fn shr(self, amount: Sig) -> Sig {
        self.shift(ShiftOp::Shr, amount)
    }
    /// Arithmetic shift right by a runtime amount.
    #[track_caller]
    pub fn sra(self, amount: Sig) -> Sig {
        self.shift(ShiftOp::Sra, amount)
    }

    /// `width` bits starting at bit `lo`.
    #[track_caller]
    pub fn slice(self, lo: u32, width: u32) -> Sig {
        let at = Location::caller();
        with(|st| {
            if !st.check(at, self) {
                return st.poison(width.max(1));
            }
            if width == 0 || lo.checked_add(width).is_none_or(|end| end > self.width) {
                let d = st.describe(self);
                st.error(at, format!("slice [{lo} +: {width}] is outside {d}"));
                return st.poison(width.max(1));
            }
            if lo == 0 && width == self.width {
                return self;
            }
            st.push(width, Op::Slice { src: self.node, lo })
        })
    }

    /// Bits `hi..=lo` (Verilog `[hi:lo]`).
    #[track_caller]
    pub fn bits(self, hi: u32, lo: u32) -> Sig {
        if hi < lo {
            let at = Location::caller();
            return with(|st| {
                st.error(at, format!("bits [{hi}:{lo}]: hi is below lo"));
                st.poison(1)
            });
        }
        self.slice(lo, hi - lo + 1)
    }

    /// Bit `i`.
    #[track_caller]
    pub fn bit(self, i: u32) -> Sig {
        self.slice(i, 1)
    }

    /// Bit at a runtime index (0 when the index is past the top bit).
    #[track_caller]
    pub fn bit_at(self, idx: Sig) -> Sig {
        self.shr(idx).bit(0)
    }

    /// Most significant bit.
    #[track_caller]
    pub fn msb(self) -> Sig {
        self.bit(self.width - 1)
    }

    #[track_caller]
    fn extend(self, width: u32, signed: bool) -> Sig {
        let at = Location::caller();
        with(|st| {
            if !st.check(at, self) || !st.check_width(at, "extension", width) {
                return st.poison(width.max(1));
            }
            if width < self.width {
                let d = st.describe(self);
                st.error(at, format!("cannot extend {d} to fewer bits ({width}); use trunc"));
                return st.poison(width);
            }
            if width == self.width {
                return self;
            }
            st.push(width, Op::Ext { src: self.node, signed })
        })
    }

    /// Zero-extend to `width` (at least the current width).
    #[track_caller]
    pub fn zext(self, width: u32) -> Sig {
        self.extend(width, false)
    }
    /// Sign-extend to `width` (at least the current width).
    #[track_caller]
    pub fn sext(self, width: u32) -> Sig {
        self.extend(width, true)
    }
    /// Keep the low `width` bits (at most the current width).
    #[track_caller]
    pub fn trunc(self, width: u32) -> Sig {
        self.slice(0, width)
    }
    /// Zero-extend or truncate to `width`: an explicit, visible resize.
    #[track_caller]
    pub fn resize(self, width: u32) -> Sig {
        if width >= self.width {
            self.zext(width)
        } else {
            self.trunc(width)
        }
    }

    /// `n` copies side by side.
    #[track_caller]
    pub fn repeat(self, n: u32) -> Sig {
        cat(&vec![self; n.max(1) as usize])
    }

    /// `self ? t : f` (self is the 1-bit select).
    #[track_caller]
    pub fn select(self, t: impl IntoSig, f: impl IntoSig) -> Sig {
        mux(self, t, f)
    }

    /// Give this value a name: a wire in the Verilog and the waves.
    #[track_caller]
    pub fn named(self, name: &str) -> Sig {
        let at = Location::caller();
        let w = with(|st| st.add_signal(at, name, self.width, SigKind::Wire));
        w.set_at(self, at);
        w
    }

    /// Drive this wire, output or instance input, or give this register its
    /// next value (the default; `set_if` overrides it). Widths must match.
    #[track_caller]
    pub fn set(self, value: impl IntoSig) {
        let at = Location::caller();
        self.set_at(value.resolve(self.width, at), at);
    }

    fn set_at(self, value: Sig, at: &'static Location<'static>) {
        with(|st| {
            let Some(id) = st.settable(at, self) else { return };
            if !st.check(at, value) {
                return;
            }
            let name = st.signals[id as usize].name.clone();
            if value.width != self.width {
                let d = st.describe(value);
                st.error(at, format!("`{name}` is {} bits but is assigned {d}", self.width));
                return;
            }
            if let Some(prev) = &st.default_driver[id as usize] {
                let prev = format!("{}:{}", prev.at.file(), prev.at.line());
                st.error(at, format!("`{name}` is driven twice (first at {prev})"));
                return;
            }
            st.default_driver[id as usize] = Some(Driver { node: value.node, at });
        })
    }

    /// Conditional assignment: when `cond` is 1, `value` replaces the default
    /// (`set`, or for a register holding its value). Later `set_if`s take
    /// priority over earlier ones, as in a sequence of `if`s.
    #[track_caller]
    pub fn set_if(self, cond: Sig, value: impl IntoSig) {
        let at = Location::caller();
        let value = value.resolve(self.width, at);
        with(|st| {
            let Some(id) = st.settable(at, self) else { return };
            if !(st.check(at, cond) && st.check(at, value)) {
                return;
            }
            let name = st.signals[id as usize].name.clone();
            if cond.width != 1 {
                let d = st.describe(cond);
                st.error(at, format!("condition for `{name}` must be 1 bit, got {d}"));
            } else if value.width != self.width {
                let d = st.describe(value);
                st.error(at, format!("`{name}` is {} bits but is assigned {d}", self.width));
            } else {
                st.cond_drivers[id as usize].push((cond.node, value.node));
            }
        })
    }
}

macro_rules! binop_trait {
    ($tr:ident, $f:ident, $op:expr, $name:expr) => {
        impl<R: IntoSig> std::ops::$tr<R> for Sig {
            type Output = Sig;
            #[track_caller]
            fn $f(self, rhs: R) -> Sig {
                self.binary($op, rhs, $name)
            }
        }
    };
}
binop_trait!(BitAnd, bitand, BinOp::And, "&");
binop_trait!(BitOr, bitor, BinOp::Or, "|");
binop_trait!(BitXor, bitxor, BinOp::Xor, "^");
binop_trait!(Add, add, BinOp::Add, "+");
binop_trait!(Sub, sub, BinOp::Sub, "-");
binop_trait!(Mul, mul, BinOp::Mul, "*");

impl std::ops::Not for Sig {
    type Output = Sig;
    #[track_caller]
    fn not(self) -> Sig {
        self.unary(UnOp::Not)
    }
}

/// Constant shift left (width kept, zeros shifted in).
impl std::ops::Shl<u32> for Sig {
    type Output = Sig;
    #[track_caller]
    fn shl(self, n: u32) -> Sig {
        if n == 0 {
            self
        } else if n >= self.width {
            lit(0, self.width)
        } else {
            cat(&[self.trunc(self.width - n), lit(0, n)])
        }
    }
}

/// Constant logical shift right.
impl std::ops::Shr<u32> for Sig {
    type Output = Sig;
    #[track_caller]
    fn shr(self, n: u32) -> Sig {
        if n == 0 {
            self
        } else if n >= self.width {
            lit(0, self.width)
        } else {
            self.slice(n, self.width - n).zext(self.width)
        }
    }
}

impl MemHandle {
    pub fn depth(self) -> u32 {
        self.depth
    }
    pub fn width(self) -> u32 {
        self.width
    }
    /// Width of an address into this memory.
    pub fn addr_width(self) -> u32 {
        clog2(self.depth as u64)
    }

    fn check_addr(self, st: &mut State, at: &'static Location<'static>, addr: Sig) -> bool {
        if !(st.check(at, addr) && self.ctx == st.ctx) {
            return false;
        }
        if addr.width != self.addr_width() {
            let name = st.mems[self.id as usize].name.clone();
            let d = st.describe(addr);
            st.error(at, format!("address of `{name}` ({} words) must be {} bits, got {d}", self.depth, self.addr_width()));
            return false;
        }
        true
    }

    /// Combinational read (0 for an address at or past the depth).
    #[track_caller]
    pub fn read(self, addr: Sig) -> Sig {
        let at = Location::caller();
        with(|st| {
            if !self.check_addr(st, at, addr) {
                return st.poison(self.width);
            }
            if let Some(&n) = st.mem_reads.get(&(self.id, addr.node)) {
                return Sig { ctx: st.ctx, node: n, width: self.width };
            }
            let mem = &mut st.mems[self.id as usize];
            mem.read_ports.push(ReadPort { addr: addr.node });
            let port = mem.read_ports.len() as u32 - 1;
            let s = st.push(self.width, Op::MemRead { mem: self.id, port });
            st.mem_reads.insert((self.id, addr.node), s.node);
            s
        })
    }

    /// Word `i`, a constant address.
    #[track_caller]
    pub fn at(self, i: u32) -> Sig {
        let at = Location::caller();
        if i >= self.depth {
            return with(|st| {
                let name = st.mems[self.id as usize].name.clone();
                st.error(at, format!("`{name}[{i}]` is past its depth {}", self.depth));
                st.poison(self.width)
            });
        }
        self.read(lit(i as u64, self.addr_width()))
    }

    /// Registered read (BRAM style): the word at `addr` appears on the
    /// returned register the cycle after `en`, read before that edge's writes.
    #[track_caller]
    pub fn read_sync(self, name: &str, addr: Sig, en: Sig) -> Sig {
        let at = Location::caller();
        let q = with(|st| st.add_signal(at, name, self.width, SigKind::Reg { reset: Bits::zero(self.width) }));
        let d = self.read(addr);
        q.set_if(en, d);
        q
    }

    /// Write port: at the clock edge, when `en` is 1, word `addr` becomes
    /// `data`. Ports declared later win on the same address.
    #[track_caller]
    pub fn write(self, addr: Sig, data: impl IntoSig, en: Sig) {
        let at = Location::caller();
        let data = data.resolve(self.width, at);
        with(|st| {
            if !(self.check_addr(st, at, addr) && st.check(at, data) && st.check(at, en)) {
                return;
            }
            let name = st.mems[self.id as usize].name.clone();
            if data.width != self.width {
                let d = st.describe(data);
                st.error(at, format!("`{name}` holds {}-bit words but is written {d}", self.width));
                return;
            }
            if en.width != 1 {
                let d = st.describe(en);
                st.error(at, format!("write enable of `{name}` must be 1 bit, got {d}"));
                return;
            }
            st.mems[self.id as usize].write_ports.push(WritePort { addr: addr.node, data: data.node, en: en.node });
        })
    }
}

impl InstHandle {
    #[track_caller]
    fn pin(self, port: &str, want_input: bool) -> Sig {
        let at = Location::caller();
        with(|st| {
            if self.ctx != st.ctx {
                st.error(at, "an instance of another module is used here".into());
                return st.poison(1);
            }
            let inst = &st.instances[self.id as usize];
            let sub = &inst.module;
            let list = if want_input { &inst.inputs } else { &inst.outputs };
            let kind = if want_input { SigKind::Input } else { SigKind::Output };
            let found = sub
                .ports
                .iter()
                .map(|&p| &sub.signals[p as usize])
                .filter(|s| s.kind == kind)
                .position(|s| s.name == port);
            match found {
                Some(i) => {
                    let sid = list[i];
                    let width = st.signals[sid as usize].width;
                    Sig { ctx: st.ctx, node: st.sig_node[sid as usize], width }
                }
                None => {
                    let known: Vec<&str> =
                        sub.ports.iter().map(|&p| &sub.signals[p as usize]).filter(|s| s.kind == kind).map(|s| s.name.as_str()).collect();
                    let msg = format!(
                        "module `{}` (instance `{}`) has no {} port `{port}` (has: {})",
                        sub.name,
                        inst.name,
                        if want_input { "input" } else { "output" },
                        known.join(", ")
                    );
                    st.error(at, msg);
                    st.poison(1)
                }
            }
        })
    }

    /// The pin for a sub-module input (assign it with `set`).
    #[track_caller]
    pub fn input(self, port: &str) -> Sig {
        self.pin(port, true)
    }

    /// Every port of the instance as the block's port bundle (see
    /// [`crate::iface`]): inputs are pins to drive with [`Pin::set`],
    /// outputs are values. `p` must be the parameters the instantiated
    /// module was generated from.
    #[track_caller]
    pub fn io<I: crate::iface::Interface>(self, p: &I) -> I::Io<Pin> {
        use crate::iface::{Dir, InterfaceExt};
        p.build(|spec| {
            if spec.is_reset() {
                Pin { sig: None }
            } else {
                Pin { sig: Some(self.pin(&spec.name, spec.dir == Dir::In)) }
            }
        })
    }

    /// Drive a sub-module input.
    #[track_caller]
    pub fn connect(self, port: &str, value: impl IntoSig) {
        let pin = self.pin(port, true);
        pin.set(value);
    }

    /// The value of a sub-module output.
    #[track_caller]
    pub fn output(self, port: &str) -> Sig {
        self.pin(port, false)
    }
}

/// Builds one module. Create it, declare ports and logic, then `finish`.
pub struct ModuleBuilder {
    ctx: u32,
    done: bool,
}

impl ModuleBuilder {
    /// Start a module named `name` (a Verilog identifier; include the
    /// parameters when they change the hardware, e.g. `scoreboard_w48_r63`).
    #[track_caller]
    pub fn new(name: &str) -> Self {
        let at = Location::caller();
        let ctx = NEXT_CTX.with(|c| {
            let v = c.get();
            c.set(v + 1);
            v
        });
        let mut st = State {
            ctx,
            name: name.to_string(),
            doc: String::new(),
            g: Graph::keeping_self_compare(),
            signals: Vec::new(),
            sig_node: Vec::new(),
            default_driver: Vec::new(),
            cond_drivers: Vec::new(),
            declared_at: Vec::new(),
            mems: Vec::new(),
            instances: Vec::new(),
            ports: Vec::new(),
            names: HashMap::new(),
            mem_reads: HashMap::new(),
            keep_reset: false,
            errors: Vec::new(),
        };
        if !valid_name(name) {
            st.error(at, format!("`{name}` is not a valid module name"));
        }
        STACK.with(|s| s.borrow_mut().push(st));
        ModuleBuilder { ctx, done: false }
    }

    fn on<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        with(|st| {
            assert_eq!(st.ctx, self.ctx, "internal: ModuleBuilder used while a sub-module is being built");
            f(st)
        })
    }

    /// Documentation emitted above the Verilog module.
    pub fn doc(&self, text: &str) {
        self.on(|st| st.doc = text.to_string());
    }

    /// Give the module `clk` and `rst` ports even if this parameter set leaves
    /// it without state, so a block's port list does not depend on its
    /// parameters.
    pub fn keep_clock_and_reset(&self) {
        self.on(|st| st.keep_reset = true);
    }

    #[track_caller]
    pub fn input(&self, name: &str, width: u32) -> Sig {
        let at = Location::caller();
        self.on(|st| {
            let s = st.add_signal(at, name, width, SigKind::Input);
            st.ports.push(st.signals.len() as u32 - 1);
            s
        })
    }

    #[track_caller]
    pub fn output(&self, name: &str, width: u32) -> Sig {
        let at = Location::caller();
        self.on(|st| {
            let s = st.add_signal(at, name, width, SigKind::Output);
            st.ports.push(st.signals.len() as u32 - 1);
            s
        })
    }

    /// Declare a port of the block's description (see [`crate::iface`]):
    /// an input or an output by its direction, named and sized there.
    #[track_caller]
    pub fn port(&self, spec: &crate::iface::PortSpec) -> Sig {
        let at = Location::caller();
        match spec.dir {
            crate::iface::Dir::In => self.on(|st| {
                let s = st.add_signal(at, &spec.name, spec.width, SigKind::Input);
                st.ports.push(st.signals.len() as u32 - 1);
                s
            }),
            crate::iface::Dir::Out => self.on(|st| {
                let s = st.add_signal(at, &spec.name, spec.width, SigKind::Output);
                st.ports.push(st.signals.len() as u32 - 1);
                s
            }),
        }
    }

    /// A named wire, driven later with `set` (allows forward references).
    #[track_caller]
    pub fn wire(&self, name: &str, width: u32) -> Sig {
        let at = Location::caller();
        self.on(|st| st.add_signal(at, name, width, SigKind::Wire))
    }

    /// A register with a synchronous reset value; it holds its value unless
    /// assigned with `set` / `set_if`.
    #[track_caller]
    pub fn reg(&self, name: &str, width: u32, reset: u64) -> Sig {
        let at = Location::caller();
        let Some(b) = Bits::from_u64(reset, width.clamp(1, MAX_WIDTH)) else {
            return self.on(|st| {
                st.error(at, format!("reset value {reset} of `{name}` does not fit in {width} bits"));
                st.poison(width)
            });
        };
        self.on(|st| st.add_signal(at, name, width, SigKind::Reg { reset: b }))
    }

    /// A register with a reset value of any width.
    #[track_caller]
    pub fn reg_bits(&self, name: &str, reset: Bits) -> Sig {
        let at = Location::caller();
        self.on(|st| st.add_signal(at, name, reset.width(), SigKind::Reg { reset }))
    }

    fn add_mem(&self, at: &'static Location<'static>, name: &str, depth: u32, width: u32, reset: Option<u64>) -> MemHandle {
        self.on(|st| {
            let ok = st.check_width(at, &format!("memory `{name}`"), width);
            let width = if ok { width } else { 1 };
            let max = if reset.is_some() { 1 << 16 } else { 1 << 24 };
            if depth == 0 || depth > max {
                let what = if reset.is_some() { "register array" } else { "memory" };
                st.error(at, format!("{what} `{name}`: depth {depth} is outside 1..={max}"));
            }
            let reset = match reset.map(|r| Bits::from_u64(r, width)) {
                Some(None) => {
                    st.error(at, format!("reset value of `{name}` does not fit in {width} bits"));
                    None
                }
                Some(b) => b,
                None => None,
            };
            st.claim_name(at, name);
            st.mems.push(Mem {
                name: name.to_string(),
                depth: depth.max(1),
                width,
                reset,
                read_ports: Vec::new(),
                write_ports: Vec::new(),
            });
            MemHandle { ctx: st.ctx, id: st.mems.len() as u32 - 1, depth: depth.max(1), width }
        })
    }

    /// A RAM of `depth` words (powers up zero, not cleared by reset).
    #[track_caller]
    pub fn mem(&self, name: &str, depth: u32, width: u32) -> MemHandle {
        self.add_mem(Location::caller(), name, depth, width, None)
    }

    /// A register array: like a memory, but every word is reset to `reset`.
    #[track_caller]
    pub fn reg_array(&self, name: &str, depth: u32, width: u32, reset: u64) -> MemHandle {
        self.add_mem(Location::caller(), name, depth, width, Some(reset))
    }

    /// Instantiate a finished sub-module; connect it through the handle.
    #[track_caller]
    pub fn instance(&self, name: &str, module: &Arc<Module>) -> InstHandle {
        let at = Location::caller();
        self.on(|st| {
            st.claim_name(at, name);
            let id = st.instances.len() as InstId;
            let mut inputs = Vec::new();
            let mut outputs = Vec::new();
            for (k, &p) in module.ports.iter().enumerate() {
                let s = &module.signals[p as usize];
                let pin = format!("{name}_{}", s.name);
                let (kind, list) = match s.kind {
                    SigKind::Input => (SigKind::InstIn { inst: id, port: k as u32 }, &mut inputs),
                    _ => (SigKind::InstOut { inst: id, port: k as u32 }, &mut outputs),
                };
                st.add_signal(at, &pin, s.width, kind);
                list.push(st.signals.len() as u32 - 1);
            }
            st.instances.push(Instance { name: name.to_string(), module: module.clone(), inputs, outputs });
            InstHandle { ctx: st.ctx, id }
        })
    }

    /// [`Self::finish`], then check that the module's ports are exactly the
    /// description's (names, directions, widths, order, `rst` when it has
    /// state): a generator that declares a port the description does not
    /// have, or forgets one, is an error naming the first difference.
    #[track_caller]
    pub fn finish_io<I: crate::iface::Interface>(self, p: &I) -> Result<Arc<Module>, HwError> {
        use crate::iface::InterfaceExt;
        let at = Location::caller();
        let m = self.finish()?;
        match crate::iface::port_difference(&p.ports(), &crate::iface::module_ports(&m)) {
            None => Ok(m),
            Some(d) => Err(HwError {
                module: m.name.clone(),
                message: format!("ports differ from the block's port description: {d}"),
                location: format!("{}:{}", at.file(), at.line()),
            }),
        }
    }

    /// Check the module and return it. Reports the first elaboration error.
    pub fn finish(mut self) -> Result<Arc<Module>, HwError> {
        self.done = true;
        let st = STACK.with(|s| {
            let mut stack = s.borrow_mut();
            let pos = stack.iter().rposition(|st| st.ctx == self.ctx).expect("internal: builder state missing");
            stack.remove(pos)
        });
        super::check::finish(st.into_parts())
    }
}

impl Drop for ModuleBuilder {
    fn drop(&mut self) {
        if !self.done {
            STACK.with(|s| {
                let mut stack = s.borrow_mut();
                if let Some(pos) = stack.iter().rposition(|st| st.ctx == self.ctx) {
                    stack.remove(pos);
                }
            });
        }
    }
}

/// What `finish` hands to the checker.
pub(crate) struct Parts {
    pub name: String,
    pub doc: String,
    pub nodes: Vec<Node>,
    pub signals: Vec<Signal>,
    pub default_driver: Vec<Option<NodeId>>,
    pub cond_drivers: Vec<Vec<(NodeId, NodeId)>>,
    pub declared_at: Vec<String>,
    pub mems: Vec<Mem>,
    pub instances: Vec<Instance>,
    pub ports: Vec<SigId>,
    pub keep_reset: bool,
    pub errors: Vec<HwError>,
}

impl State {
    fn into_parts(self) -> Parts {
        Parts {
            name: self.name,
            doc: self.doc,
            nodes: self.g.nodes,
            signals: self.signals,
            default_driver: self.default_driver.into_iter().map(|d| d.map(|d| d.node)).collect(),
            cond_drivers: self.cond_drivers,
            declared_at: self.declared_at.iter().map(|l| format!("{}:{}", l.file(), l.line())).collect(),
            mems: self.mems,
            instances: self.instances,
            ports: self.ports,
            keep_reset: self.keep_reset,
            errors: self.errors,
        }
    }
}
