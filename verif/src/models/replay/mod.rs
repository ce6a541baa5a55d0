//! Reference models of the replay blocks.
