//! Reference model of `naive_tracker` (specification in
//! `hw::blocks::replay::naive_tracker`), its driver, and [`check_delay`], which checks
//! any engine against a recorded stimulus: `miss_issue_ok` is `mshr_avail` of `delay`
//! cycles earlier (1 while that reaches back before the last reset).

use super::bits::port_ids;
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::replay::naive_tracker::{NaiveTrackerParams, BLOCK};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

pub const INPUTS: [&str; 2] = ["rst", "mshr_avail"];
pub const OUTPUTS: [&str; 1] = ["miss_issue_ok"];

pub fn ports(_p: &NaiveTrackerParams) -> Vec<PortSpec> {
    vec![PortSpec::input("rst", 1), PortSpec::input("mshr_avail", 1), PortSpec::output("miss_issue_ok", 1)]
}

/// The reference model: a ring of `delay` bits, oldest at `head`.
pub struct NaiveTracker {
    io: PortFrame,
    rst: PortId,
    avail: PortId,
    ok: PortId,
    line: Vec<bool>,
    head: usize,
}

impl NaiveTracker {
    pub fn new(p: &NaiveTrackerParams) -> Self {
        let io = PortFrame::new(ports(p));
        let (rst, avail, ok) = (io.id("rst"), io.id("mshr_avail"), io.id("miss_issue_ok"));
        NaiveTracker { io, rst, avail, ok, line: vec![true; p.delay as usize], head: 0 }
    }
}

impl Component for NaiveTracker {
    fn name(&self) -> &str {
        BLOCK
    }
    fn ports(&self) -> &[PortSpec] {
        self.io.specs()
    }
    fn set(&mut self, port: PortId, value: &[u64]) {
        self.io.set(port, value);
    }
    fn get(&self, port: PortId) -> &[u64] {
        self.io.get(port)
    }
    fn eval(&mut self) {
        let v = if self.line.is_empty() { self.io.get_bool(self.avail) } else { self.line[self.head] };
        self.io.set_bool(self.ok, v);
    }
    fn tick(&mut self) {
        if self.line.is_empty() {
            return;
        }
        if self.io.get_bool(self.rst) {
            self.line.fill(true);
            self.head = 0;
            return;
        }
        self.line[self.head] = self.io.get_bool(self.avail);
        self.head = (self.head + 1) % self.line.len();
    }
}

/// Runs of MSHR availability (as a memory stage shows them), with resets.
pub struct NaiveTrackerDriver {
    layout: Arc<InputLayout>,
    slots: [Slot; 2],
    rng: ChaCha8Rng,
    avail: bool,
    first: bool,
}

impl NaiveTrackerDriver {
    pub fn new(p: &NaiveTrackerParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.map(|n| layout.expect(n));
        NaiveTrackerDriver { layout, slots, rng: ChaCha8Rng::seed_from_u64(seed), avail: true, first: true }
    }
}

impl Driver for NaiveTrackerDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        if self.rng.random_bool(0.15) {
            self.avail = !self.avail;
        }
        frame.set_bool(self.slots[0], self.first || self.rng.random_bool(0.01));
        self.first = false;
        frame.set_bool(self.slots[1], self.avail);
    }
}

/// `miss_issue_ok(t) == mshr_avail(t - delay)`, or 1 if no cycle since the last reset
/// is that old (the edge of a reset cycle is the last one that clears the line).
pub fn check_delay(dut: &mut dyn Component, p: &NaiveTrackerParams, stim: &Stimulus) -> Result<(), String> {
    let [rst, avail, ok] = port_ids(dut, ["rst", "mshr_avail", "miss_issue_ok"])?;
    let layout = stim.layout();
    let (sr, sa) = (layout.expect("rst"), layout.expect("mshr_avail"));
    let d = p.delay as usize;
    let mut last_reset: Option<usize> = None;
    for c in 0..stim.cycles() {
        let w = stim.cycle(c);
        let (r, a) = (w[layout.range(sr).start] & 1 != 0, w[layout.range(sa).start] & 1 != 0);
        dut.set_bool(rst, r);
        dut.set_bool(avail, a);
        dut.eval();
        let want = if d == 0 {
            a
        } else if c < d || last_reset.is_some_and(|l| c - d <= l) {
            true
        } else {
            let o = stim.cycle(c - d);
            o[layout.range(sa).start] & 1 != 0
        };
        if dut.get_bool(ok) != want {
            return Err(format!("cycle {c}: miss_issue_ok = {}, expected {want}", !want));
        }
        dut.tick();
        if r {
            last_reset = Some(c);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn delay_zero_is_a_wire() {
        let p = NaiveTrackerParams { delay: 0 };
        let mut m = NaiveTracker::new(&p);
        m.set_u64(PortId(1), 0);
        m.eval();
        assert!(!m.get_bool(PortId(2)));
        m.set_u64(PortId(1), 1);
        m.eval();
        assert!(m.get_bool(PortId(2)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn output_is_delayed_input(seed in any::<u64>(), delay in 0u32..=16) {
            let p = NaiveTrackerParams { delay };
            let stim = Stimulus::record(&mut NaiveTrackerDriver::new(&p, seed), 2000);
            prop_assert_eq!(check_delay(&mut NaiveTracker::new(&p), &p, &stim), Ok(()));
        }
    }
}
