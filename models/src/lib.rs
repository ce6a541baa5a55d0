//! warpforge reference models: one plain-Rust, cycle-accurate model per
//! block, written from the block's specification (its generator's module
//! documentation), behind the same [`sim::Component`] interface as the
//! netlist simulation. The composed SM runs each block on either engine; the
//! verification crate compares the two.
//!
//! Every model holds its ports in a [`sim::PortFrame`] made from the block's
//! port description and reaches them through the description's typed
//! handles (`p.ids()`, see `hw::iface`), so a model has no port names of its
//! own.
//!
//! [`find`] / [`model`] give any block's model by name and parameter set;
//! [`Reference::model`] gives it from the block's typed parameters.

pub mod bits;
pub mod compose;
pub mod dac;
pub mod pmode;
pub mod replay;

use hw::params::{ParamError, Params};
use hw::registry::Block;
use sim::Component;

/// A block with a reference model (implemented on the block's parameter
/// type).
pub trait Reference: Block {
    type Model: Component + Send + 'static;
    /// The reference model of this parameter set, reset state.
    fn model(&self) -> Self::Model;
}

/// A model in the registry: build it from a resolved parameter set.
pub struct ModelEntry {
    pub name: &'static str,
    pub new: fn(&Params) -> Result<Box<dyn Component + Send>, ParamError>,
}

fn new_of<P: Reference>(p: &Params) -> Result<Box<dyn Component + Send>, ParamError> {
    Ok(Box::new(P::from_params(p)?.model()))
}

impl ModelEntry {
    /// The registry entry of block `P`'s model.
    pub const fn of<P: Reference>() -> ModelEntry {
        ModelEntry { name: P::NAME, new: new_of::<P> }
    }
}

/// Every block's model, in the order of `hw::registry::blocks`.
pub fn models() -> Vec<&'static ModelEntry> {
    let mut all: Vec<&'static ModelEntry> = Vec::new();
    all.extend(pmode::MODELS.iter().copied());
    all.extend(dac::MODELS.iter().copied());
    all.extend(replay::MODELS.iter().copied());
    all
}

pub fn find(name: &str) -> Option<&'static ModelEntry> {
    models().into_iter().find(|m| m.name == name)
}

/// The reference model of block `name` for a resolved parameter set (see
/// `hw::registry::BlockInfo::params`).
pub fn model(name: &str, p: &Params) -> Result<Box<dyn Component + Send>, ModelError> {
    let e = find(name).ok_or_else(|| ModelError::Unknown(name.to_string()))?;
    Ok((e.new)(p)?)
}

/// Error building a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("block `{0}` has no reference model")]
    Unknown(String),
    #[error("{0}")]
    Param(#[from] ParamError),
}
