//! Verification of the P-mode blocks: per block, its constrained-random
//! driver, its property checks and its directed (golden) scenarios. The
//! tests that run them are in `verif/tests/blocks/<block>.rs`.

pub mod mode_ctrl;
pub mod pmode_unit;
pub mod pqueue;
pub mod rename;
pub mod scoreboard;
pub mod simt_stack;

use crate::registry::VerifBlock;
use crate::stimulus::{SlotRef, Stimulus};

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] =
    &[&scoreboard::VERIF, &pqueue::VERIF, &rename::VERIF, &simt_stack::VERIF, &mode_ctrl::VERIF, &pmode_unit::VERIF];

/// Reads the input values of one recorded cycle (for property checks).
pub struct InView<'a> {
    st: &'a Stimulus,
    cycle: usize,
}

impl<'a> InView<'a> {
    pub fn new(st: &'a Stimulus, cycle: usize) -> Self {
        InView { st, cycle }
    }
    pub fn slot(&self, s: impl SlotRef) -> &'a [u64] {
        self.st.value(self.cycle, s)
    }
    pub fn u(&self, s: impl SlotRef) -> u64 {
        self.st.u64(self.cycle, s)
    }
    pub fn b(&self, s: impl SlotRef) -> bool {
        self.u(s) & 1 != 0
    }
}
