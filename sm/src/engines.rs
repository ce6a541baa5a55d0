//! Block engines other than the netlist interpreter.

use hw::params::Params;
use sim::Component;

/// The reference model of `block` (the `models` crate).
pub fn reference_model(block: &str, _p: &Params) -> Result<Box<dyn Component>, String> {
    Err(format!("no reference model engine for `{block}` yet"))
}
