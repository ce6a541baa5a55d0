//! The construction IR: a typed netlist of ports, wires, registers, memories,
//! combinational operators and sub-module instances, built by ordinary Rust
//! generator code.

mod bits;
mod builder;
mod check;
mod graph;
pub mod lower;
mod module;

pub use bits::Bits;
pub use builder::{cat, lit, lit_bits, mux, onehot, pick, valid_name, HwError, InstHandle, IntoSig, MemHandle, ModuleBuilder, Pin, Sig, MAX_WIDTH};
pub use check::fnv1a;
pub use module::*;
