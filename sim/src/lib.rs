//! warpforge simulation: the component interface and the engines that run a
//! block's IR cycle by cycle — the netlist interpreter ([`NetlistSim`]) and
//! the compiled engine ([`CompiledSim`], the netlist as native code) — with
//! the netlist optimisation passes they share, VCD tracing, one constructor
//! choosing an engine by name ([`engine`]), and the binding of a block's port
//! description to any component ([`Bind`]).

pub mod bind;
pub mod cache;
pub mod compiled;
pub mod component;
pub mod engine;
pub mod inspect;
pub mod netlist;
pub mod shared;
pub mod trace;

pub use bind::{Bind, BindError};
pub use compiled::CompiledSim;
pub use component::{top_mask, words_for, Component, ComponentExt, Dir, PortError, PortFrame, PortId, PortSpec};
pub use engine::{rtl_sim, Engine, EngineError, EngineOptions, RtlSim, Visibility};
pub use inspect::Inspect;
pub use netlist::NetlistSim;
