//! Reference model of `naive_tracker` (specification in
//! `hw::blocks::replay::naive_tracker`): `miss_issue_ok` is `mshr_avail` of
//! `delay` cycles earlier (1 while that reaches back before the last reset).
//! With `delay = 0` the block has no state and therefore no `rst` port.

use crate::Reference;
use hw::blocks::replay::naive_tracker::{NaiveTrackerIo, NaiveTrackerParams, NAME};
use sim::{Bind, Component, PortFrame, PortId};

/// The reference model: a ring of `delay` bits, oldest at `head`.
pub struct NaiveTracker {
    frame: PortFrame,
    io: NaiveTrackerIo<PortId>,
    line: Vec<bool>,
    head: usize,
}

impl NaiveTracker {
    pub fn new(p: &NaiveTrackerParams) -> Self {
        NaiveTracker { frame: p.frame(), io: p.ids(), line: vec![true; p.delay as usize], head: 0 }
    }
}

impl Component for NaiveTracker {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        let v = if self.line.is_empty() { self.frame.get_bool(self.io.mshr_avail) } else { self.line[self.head] };
        self.frame.set_bool(self.io.miss_issue_ok, v);
    }
    fn tick(&mut self) {
        if self.line.is_empty() {
            return;
        }
        if self.io.rst.is_some_and(|r| self.frame.get_bool(r)) {
            self.line.fill(true);
            self.head = 0;
            return;
        }
        self.line[self.head] = self.frame.get_bool(self.io.mshr_avail);
        self.head = (self.head + 1) % self.line.len();
    }
}

impl Reference for NaiveTrackerParams {
    type Model = NaiveTracker;
    fn model(&self) -> NaiveTracker {
        NaiveTracker::new(self)
    }
}
