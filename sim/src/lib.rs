//! warpforge simulation: the component interface, the netlist simulator that
//! runs a block's IR cycle by cycle, and (later) the composed SM model.

pub mod bind;
pub mod component;

pub use bind::{Bind, BindError};

pub use component::{top_mask, words_for, Component, ComponentExt, Dir, PortError, PortFrame, PortId, PortSpec};
pub mod netlist;

pub use netlist::NetlistSim;
pub mod trace;
