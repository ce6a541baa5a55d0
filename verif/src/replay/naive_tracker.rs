//! Verification of `naive_tracker` (specification in `hw::blocks::replay::naive_tracker`,
//! model `models::replay::naive_tracker`): its driver, and [`check_delay`], which checks
//! any engine against a recorded stimulus: `miss_issue_ok` is `mshr_avail` of `delay`
//! cycles earlier (1 while that reaches back before the last reset).

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::replay::naive_tracker::{NaiveTrackerIo, NaiveTrackerParams, NAME};
use hw::iface::InterfaceExt;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| Ok(Box::new(NaiveTrackerDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Runs of MSHR availability (as a memory stage shows them), with resets.
pub struct NaiveTrackerDriver {
    layout: Arc<InputLayout>,
    io: NaiveTrackerIo<PortId>,
    rng: ChaCha8Rng,
    avail: bool,
    first: bool,
}

impl NaiveTrackerDriver {
    pub fn new(p: &NaiveTrackerParams, seed: u64) -> Self {
        NaiveTrackerDriver { layout: InputLayout::of(&p.ports()), io: p.ids(), rng: ChaCha8Rng::seed_from_u64(seed), avail: true, first: true }
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
        if let Some(r) = self.io.rst {
            frame.set_bool(r, reset);
        }
        self.first = false;
        frame.set_bool(self.io.mshr_avail, self.avail);
    }
}

/// `miss_issue_ok(t) == mshr_avail(t - delay)`, or 1 if no cycle since the last reset
/// is that old (the edge of a reset cycle is the last one that clears the line).
pub fn check_delay(dut: &mut dyn Component, p: &NaiveTrackerParams, stim: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, stim.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (avail, ok, rst) = (io.mshr_avail, io.miss_issue_ok, io.rst);
    let d = p.delay as usize;
    let mut last_reset: Option<usize> = None;
    for c in 0..stim.cycles() {
        let r = rst.is_some_and(|id| stim.bit(c, id));
        let a = stim.bit(c, avail);
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
            stim.bit(c - d, avail)
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


