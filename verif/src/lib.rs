//! warpforge verification: stimulus drivers, property checks and golden
//! scenarios per block (`verif::<family>::<block>`), co-simulation against
//! Verilator and iverilog, lint. The reference models are in the `models`
//! crate; the tests are in `verif/tests/blocks/<block>.rs`.

pub mod area;
pub mod bitref;
pub mod cosim;
pub mod fuzz;
pub mod lint;
pub mod registry;
pub mod run;
pub mod stimulus;
pub mod dac;
pub mod pmode;
pub mod replay;
pub mod poke;
