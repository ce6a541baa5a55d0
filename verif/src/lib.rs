//! warpforge verification: reference models, stimulus drivers, property tests
//! and co-simulation against Verilator and iverilog.

pub mod area;
pub mod bitref;
pub mod cosim;
pub mod fuzz;
pub mod lint;
pub mod registry;
pub mod run;
pub mod stimulus;
pub mod models;
pub mod poke;
