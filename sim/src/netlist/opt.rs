//! Netlist optimisation passes (placeholder).
use super::flatten::Flat;

#[derive(Clone, Debug, Default)]
pub struct OptStats {}

pub(crate) fn optimize(_flat: &mut Flat) -> OptStats {
    OptStats::default()
}
