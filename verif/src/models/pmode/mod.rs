//! Reference models of the pmode blocks.
