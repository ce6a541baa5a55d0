//! Reference model of `naive_tracker` (specification in
//! `hw::blocks::replay::naive_tracker`), its driver, and [`check_delay`], which checks
//! any engine against a recorded stimulus: `miss_issue_ok` is `mshr_avail` of `delay`
//! cycles earlier (1 while that reaches back before the last reset).
//!
//! With `delay = 0` the block has no state and therefore no `rst` port (the IR gives a
//! module `clk`/`rst` only when it has state).

use super::bits::port_ids;
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::replay::naive_tracker::{NaiveTrackerParams, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

/// Input names (`rst` only with `delay > 0`).
pub const INPUTS: [&str; 2] = ["rst", "mshr_avail"];
pub const OUTPUTS: [&str; 1] = ["miss_issue_ok"];

/// The ports: `rst` (only with `delay > 0`), `mshr_avail`, `miss_issue_ok`.
pub fn ports(p: &NaiveTrackerParams) -> Vec<PortSpec> {
    let mut v = Vec::new();
    if p.has_state() {
        v.push(PortSpec::input("rst", 1));
    }
    v.push(PortSpec::input("mshr_avail", 1));
    v.push(PortSpec::output("miss_issue_ok", 1));
    v
}

/// The `rst` port of a component, if it has one.
pub(crate) fn rst_port(c: &dyn Component) -> Option<PortId> {
    c.ports().iter().position(|p| p.name == "rst").map(|i| PortId(i as u32))
}

/// The reference model: a ring of `delay` bits, oldest at `head`.
pub struct NaiveTracker {
    io: PortFrame,
    rst: Option<PortId>,
    avail: PortId,
    ok: PortId,
    line: Vec<bool>,
    head: usize,
}

impl NaiveTracker {
    pub fn new(p: &NaiveTrackerParams) -> Self {
        let io = PortFrame::new(ports(p));
        let rst = p.has_state().then(|| io.id("rst"));
        let (avail, ok) = (io.id("mshr_avail"), io.id("miss_issue_ok"));
        NaiveTracker { io, rst, avail, ok, line: vec![true; p.delay as usize], head: 0 }
    }
}

impl Component for NaiveTracker {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        let v = if self.line.is_empty() { self.io.get_bool(self.avail) } else { self.line[self.head] };
        self.io.set_bool(self.ok, v);
    }
    fn tick(&mut self) {
        if self.line.is_empty() {
            return;
        }
        if self.rst.is_some_and(|r| self.io.get_bool(r)) {
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
    rst: Option<Slot>,
    avail_slot: Slot,
    rng: ChaCha8Rng,
    avail: bool,
    first: bool,
}

impl NaiveTrackerDriver {
    pub fn new(p: &NaiveTrackerParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let (rst, avail_slot) = (layout.slot("rst"), layout.expect("mshr_avail"));
        NaiveTrackerDriver { layout, rst, avail_slot, rng: ChaCha8Rng::seed_from_u64(seed), avail: true, first: true }
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
        let reset = self.first || self.rng.random_bool(0.01);
        if let Some(r) = self.rst {
            frame.set_bool(r, reset);
        }
        self.first = false;
        frame.set_bool(self.avail_slot, self.avail);
    }
}

/// `miss_issue_ok(t) == mshr_avail(t - delay)`, or 1 if no cycle since the last reset
/// is that old (the edge of a reset cycle is the last one that clears the line).
pub fn check_delay(dut: &mut dyn Component, p: &NaiveTrackerParams, stim: &Stimulus) -> Result<(), String> {
    let [avail, ok] = port_ids(dut, ["mshr_avail", "miss_issue_ok"])?;
    let rst = rst_port(dut);
    let layout = stim.layout();
    let (sr, sa) = (layout.slot("rst"), layout.expect("mshr_avail"));
    if rst.is_some() != sr.is_some() {
        return Err("the component and the stimulus disagree on having `rst`".into());
    }
    let d = p.delay as usize;
    let mut last_reset: Option<usize> = None;
    for c in 0..stim.cycles() {
        let w = stim.cycle(c);
        let r = sr.is_some_and(|sr| w[layout.range(sr).start] & 1 != 0);
        let a = w[layout.range(sa).start] & 1 != 0;
        if let Some(rst) = rst {
            dut.set_bool(rst, r);
        }
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


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(NaiveTracker::new(&NaiveTrackerParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(NaiveTrackerDriver::new(&NaiveTrackerParams::from_params(p)?, seed))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn delay_zero_is_a_wire() {
        let p = NaiveTrackerParams { delay: 0 };
        let mut m = NaiveTracker::new(&p);
        assert_eq!(m.ports().len(), 2, "no state, no rst");
        m.set_u64(PortId(0), 0);
        m.eval();
        assert!(!m.get_bool(PortId(1)));
        m.set_u64(PortId(0), 1);
        m.eval();
        assert!(m.get_bool(PortId(1)));
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
