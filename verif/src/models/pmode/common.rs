//! Helpers shared by the pmode reference models, drivers and property checks.

use crate::stimulus::{InputLayout, Slot, Stimulus};
use sim::{Component, ComponentExt, PortId};
use std::ops::Range;

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

/// Applies recorded stimulus frames to a component by port name.
pub struct Feeder {
    pairs: Vec<(Range<usize>, PortId)>,
}

impl Feeder {
    pub fn new(layout: &InputLayout, dut: &dyn Component) -> Result<Self, String> {
        let mut pairs = Vec::new();
        for (i, p) in layout.ports().iter().enumerate() {
            let id = dut.input(&p.name).map_err(|e| e.to_string())?;
            let w = dut.ports()[id.0 as usize].width;
            if w != p.width {
                return Err(format!("input `{}` is {} bits in the stimulus, {} in `{}`", p.name, p.width, w, dut.name()));
            }
            pairs.push((layout.range(Slot(i)), id));
        }
        Ok(Feeder { pairs })
    }

    pub fn apply(&self, words: &[u64], dut: &mut dyn Component) {
        for (r, id) in &self.pairs {
            dut.set(*id, &words[r.clone()]);
        }
    }
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
