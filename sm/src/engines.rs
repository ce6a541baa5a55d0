//! Block engines other than the netlist interpreter.

use hw::params::Params;
use sim::Component;

/// The reference model of `block`.
// The models still live in `verif`; they move below the SM (issue 12).
pub fn reference_model(block: &str, p: &Params) -> Result<Box<dyn Component>, String> {
    let v = verif::registry::find(block).ok_or_else(|| format!("no reference model for block `{block}`"))?;
    (v.model)(p).map_err(|e| e.to_string())
}
