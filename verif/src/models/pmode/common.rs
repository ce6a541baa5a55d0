//! Helpers shared by the pmode reference models, drivers and property checks.

use crate::stimulus::{InputLayout, Slot, Stimulus};
use sim::{Component, ComponentExt, PortId};

/// Low `bits` bits set.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bit `i` of a little-endian multi-word value.
pub fn bit(words: &[u64], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 != 0)
}

/// Resolve an output of a component under test (a missing port is an error,
/// not a panic: the property checks run against generated hardware too).
pub fn out(dut: &dyn Component, name: &str) -> Result<PortId, String> {
    dut.output(name).map_err(|e| e.to_string())
}

/// Reads input values of one recorded cycle by name (for property checks).
pub struct InView<'a> {
    layout: &'a InputLayout,
    words: &'a [u64],
}

impl<'a> InView<'a> {
    pub fn new(st: &'a Stimulus, cycle: usize) -> Self {
        InView { layout: st.layout(), words: st.cycle(cycle) }
    }
    pub fn slot(&self, s: Slot) -> &'a [u64] {
        &self.words[self.layout.range(s)]
    }
    pub fn u(&self, s: Slot) -> u64 {
        self.words[self.layout.range(s).start]
    }
    pub fn b(&self, s: Slot) -> bool {
        self.u(s) & 1 != 0
    }
}

/// Resolve stimulus slots by name for a check.
pub fn slot(layout: &InputLayout, name: &str) -> Result<Slot, String> {
    layout.slot(name).ok_or_else(|| format!("stimulus has no input `{name}`"))
}
