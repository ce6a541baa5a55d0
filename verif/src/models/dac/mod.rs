//! Reference models of the dac blocks.
