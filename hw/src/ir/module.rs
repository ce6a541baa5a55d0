//! The netlist IR: what a finished block is. Built by [`super::ModuleBuilder`],
//! read by the Verilog emitter, the netlist simulator and the statistics.

use super::Bits;
use std::sync::Arc;

pub type NodeId = u32;
pub type SigId = u32;
pub type MemId = u32;
pub type InstId = u32;

/// A combinational value of `width` bits.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub width: u32,
    pub op: Op,
}

/// Binary operators. Operands of `And`..`Sub` and the comparisons have equal
/// widths; `Mul` is `a.width + b.width` wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    And,
    Or,
    Xor,
    Add,
    Sub,
    Mul,
    Eq,
    Ne,
    /// Unsigned less-than.
    Lt,
    Le,
    /// Signed (two's complement) less-than.
    Lts,
    Les,
}

impl BinOp {
    pub fn is_compare(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Lts | BinOp::Les)
    }
}

/// Shifts by a runtime amount; bits shifted past the width are lost, an
/// amount at or above the width gives 0 (or all sign bits for `Sra`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    Shl,
    Shr,
    Sra,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    /// Reductions (1 bit).
    RedAnd,
    RedOr,
    RedXor,
    /// Index of the lowest set bit (`clog2(width)` bits); 0 when no bit is set.
    /// Pair with `RedOr` for the valid bit: a priority encoder.
    Ffs,
    /// Number of set bits (`clog2(width + 1)` bits).
    Popcount,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Const(Bits),
    /// The current value of a named signal (for a register: its output).
    Sig(SigId),
    Unary(UnOp, NodeId),
    Binary(BinOp, NodeId, NodeId),
    Shift(ShiftOp, NodeId, NodeId),
    /// `sel ? t : f`, `sel` one bit.
    Mux { sel: NodeId, t: NodeId, f: NodeId },
    /// Concatenation, most significant part first (as in Verilog `{a, b}`).
    Cat(Vec<NodeId>),
    /// Bits `lo .. lo + width` of `src`.
    Slice { src: NodeId, lo: u32 },
    /// Zero- or sign-extension of `src` to this node's (larger) width.
    Ext { src: NodeId, signed: bool },
    /// Combinational read port `port` of a memory (address held by the port).
    MemRead { mem: MemId, port: u32 },
}

impl Op {
    /// Operand nodes, in order.
    pub fn operands(&self) -> Vec<NodeId> {
        match self {
            Op::Const(_) | Op::Sig(_) | Op::MemRead { .. } => vec![],
            Op::Unary(_, a) | Op::Slice { src: a, .. } | Op::Ext { src: a, .. } => vec![*a],
            Op::Binary(_, a, b) | Op::Shift(_, a, b) => vec![*a, *b],
            Op::Mux { sel, t, f } => vec![*sel, *t, *f],
            Op::Cat(parts) => parts.clone(),
        }
    }
}

/// What a named signal is.
#[derive(Clone, Debug, PartialEq)]
pub enum SigKind {
    Input,
    /// Driven by `driver`.
    Output,
    /// Driven by `driver`.
    Wire,
    /// A register with a synchronous reset value; `driver` is the next value.
    Reg { reset: Bits },
    /// Input pin of instance `inst` (sub-module input port `port`); driven by `driver`.
    InstIn { inst: InstId, port: u32 },
    /// Output pin of instance `inst` (sub-module output port `port`); driven by the sub-module.
    InstOut { inst: InstId, port: u32 },
}

/// A named signal.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    pub name: String,
    pub width: u32,
    pub kind: SigKind,
    /// Driving node (next value for registers; `None` for inputs and
    /// instance outputs, and for registers that only hold their reset value).
    pub driver: Option<NodeId>,
}

impl Signal {
    pub fn is_reg(&self) -> bool {
        matches!(self.kind, SigKind::Reg { .. })
    }
}

/// A memory: `depth` words of `width` bits. A memory with a `reset` value is a
/// register array (every word is cleared by reset); one without is RAM whose
/// words power up as zero (an `initial` block in Verilog, FPGA-style) and keep
/// their contents through reset. No memory is written while `rst` is high:
/// the logic computing write enables is itself being reset then, and its
/// value before the first reset edge is undefined in real hardware.
///
/// Reads of an address at or beyond `depth` give 0; such writes are dropped.
/// Write ports update at the clock edge in port order (a later port wins on the
/// same address); reads see the contents before the edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Mem {
    pub name: String,
    pub depth: u32,
    pub width: u32,
    pub reset: Option<Bits>,
    pub read_ports: Vec<ReadPort>,
    pub write_ports: Vec<WritePort>,
}

impl Mem {
    /// Width of an address: `clog2(depth)`, at least 1.
    pub fn addr_width(&self) -> u32 {
        crate::params::clog2(self.depth as u64)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReadPort {
    pub addr: NodeId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WritePort {
    pub addr: NodeId,
    pub data: NodeId,
    pub en: NodeId,
}

/// An instance of a sub-module. `inputs[i]` / `outputs[i]` are the parent's pin
/// signals for the sub-module's i-th input / output port.
#[derive(Clone, Debug)]
pub struct Instance {
    pub name: String,
    pub module: Arc<Module>,
    pub inputs: Vec<SigId>,
    pub outputs: Vec<SigId>,
}

/// A finished, checked module.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    /// Documentation emitted above the Verilog module.
    pub doc: String,
    pub nodes: Vec<Node>,
    pub signals: Vec<Signal>,
    pub mems: Vec<Mem>,
    pub instances: Vec<Instance>,
    /// Input and output signals in declaration order (without clock and reset).
    pub ports: Vec<SigId>,
    /// The module (or a sub-module) has state: it gets a `clk` input.
    pub uses_clock: bool,
    /// The module (or a sub-module) has resettable state: it gets an `rst` input.
    pub uses_reset: bool,
    /// For each output port (in `ports` order, outputs only), the input ports
    /// (indices into `ports`) it depends on combinationally. Used to find
    /// combinational loops through instances.
    pub comb_deps: Vec<Vec<u32>>,
    /// Structural hash of this module and its sub-modules.
    pub fingerprint: u64,
}

impl Module {
    pub fn inputs(&self) -> impl Iterator<Item = &Signal> {
        self.ports.iter().map(|&s| &self.signals[s as usize]).filter(|s| s.kind == SigKind::Input)
    }

    pub fn outputs(&self) -> impl Iterator<Item = &Signal> {
        self.ports.iter().map(|&s| &self.signals[s as usize]).filter(|s| s.kind == SigKind::Output)
    }

    pub fn signal(&self, name: &str) -> Option<&Signal> {
        self.signals.iter().find(|s| s.name == name)
    }

    /// Every distinct module in the hierarchy (children before parents, this
    /// module last), deduplicated by name.
    pub fn hierarchy(&self) -> Vec<&Module> {
        fn walk<'a>(m: &'a Module, out: &mut Vec<&'a Module>) {
            for i in &m.instances {
                walk(&i.module, out);
            }
            if !out.iter().any(|o| o.name == m.name) {
                out.push(m);
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }
}
