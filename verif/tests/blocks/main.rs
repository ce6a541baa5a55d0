//! Every test of every block, one module per block: all the tests of block
//! `B` — the generated hardware against its reference model (proptest on
//! arbitrary inputs and on the driver's protocol traffic, over parameters),
//! its properties, its directed and golden tests (on every engine), its
//! co-simulations of the emitted Verilog — are in `B.rs`, and
//! `cargo test -p verif --test blocks B::` runs them. The block's generator
//! and port description are in `hw/src/blocks/<family>/B.rs`, its reference
//! model in `models/src/<family>/B.rs`, its stimulus driver, property checks
//! and golden sequences in `verif/src/<family>/B.rs`.
//!
//! One binary for all blocks: one link, and the tests of every block run in
//! parallel.

#[macro_use]
mod common;

// P-mode family
mod mode_ctrl;
mod pmode_unit;
mod pqueue;
mod rename;
mod scoreboard;
mod simt_stack;

// DAC family
mod aeu;
mod affine_simt_stack;
mod atq;
mod dac_unit;
mod peu;
mod pwaq;
mod pwpq;

// Replay family
mod credit_tracker;
mod mshr_predictor;
mod mshr_table;
mod naive_tracker;
mod replay_unit;
mod warp_buffer;
