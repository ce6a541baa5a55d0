//! Reference model of `mshr_predictor` (specification in
//! `hw::blocks::replay::mshr_predictor`), its driver, and [`check_predictions`], which
//! compares any engine with a separate per-PC history computation over a recorded
//! stimulus.

use super::bits::{mask, port_ids};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::replay::mshr_predictor::{MshrPredictorParams, PredictorMode, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

/// Input names (`rst` only in mode 2, the only mode with state).
pub const INPUTS: [&str; 6] = ["rst", "pc", "known_miss", "upd_valid", "upd_pc", "upd_miss"];
pub const OUTPUTS: [&str; 1] = ["pred_miss"];

/// The ports; `rst` only when the mode has state (the IR gives a module `clk`/`rst`
/// only when it has state).
pub fn ports(p: &MshrPredictorParams) -> Vec<PortSpec> {
    let rst = p.has_state().then(|| PortSpec::input("rst", 1));
    rst.into_iter()
        .chain([
        PortSpec::input("pc", p.pc_bits),
        PortSpec::input("known_miss", 1),
        PortSpec::input("upd_valid", 1),
        PortSpec::input("upd_pc", p.pc_bits),
        PortSpec::input("upd_miss", 1),
        PortSpec::output("pred_miss", 1),
    ])
    .collect()
}

/// The reference model.
pub struct MshrPredictor {
    p: MshrPredictorParams,
    io: PortFrame,
    rst: Option<PortId>,
    /// `pc`, `known_miss`, `upd_valid`, `upd_pc`, `upd_miss` (INPUTS[1..]).
    i: [PortId; 5],
    o: PortId,
    ctr: Vec<u32>,
}

impl MshrPredictor {
    pub fn new(p: &MshrPredictorParams) -> Self {
        let io = PortFrame::new(ports(p));
        let rst = p.has_state().then(|| io.id("rst"));
        let i = ["pc", "known_miss", "upd_valid", "upd_pc", "upd_miss"].map(|n| io.id(n));
        let o = io.id("pred_miss");
        let n = if p.mode == PredictorMode::Counter { p.entries as usize } else { 0 };
        MshrPredictor { p: p.clone(), io, rst, i, o, ctr: vec![p.reset_count(); n] }
    }

    fn index(&self, pc: u64) -> usize {
        (pc & (self.p.entries as u64 - 1)) as usize
    }
}

impl Component for MshrPredictor {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        let known = self.io.get_bool(self.i[1]);
        let v = match self.p.mode {
            PredictorMode::AlwaysHit => known,
            PredictorMode::AlwaysMiss => true,
            PredictorMode::Counter => known || self.ctr[self.index(self.io.get_u64(self.i[0]))] >= self.p.threshold(),
        };
        self.io.set_bool(self.o, v);
    }
    fn tick(&mut self) {
        if self.p.mode != PredictorMode::Counter {
            return;
        }
        if self.rst.is_some_and(|r| self.io.get_bool(r)) {
            self.ctr.fill(self.p.reset_count());
            return;
        }
        if self.io.get_bool(self.i[2]) {
            let k = self.index(self.io.get_u64(self.i[3]));
            let c = self.ctr[k];
            self.ctr[k] = if self.io.get_bool(self.i[4]) { (c + 1).min(self.p.max_count()) } else { c.saturating_sub(1) };
        }
    }
}

/// Loads from a small set of PCs (more PCs than entries, so some alias), each with its
/// own miss tendency, training updates most cycles, random known-miss bits, resets.
pub struct MshrPredictorDriver {
    layout: Arc<InputLayout>,
    /// Slots of INPUTS (`rst` absent in the stateless modes).
    slots: [Option<Slot>; 6],
    rng: ChaCha8Rng,
    pcs: Vec<(u64, f64)>,
    first: bool,
}

impl MshrPredictorDriver {
    pub fn new(p: &MshrPredictorParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.map(|n| layout.slot(n));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let k = (p.entries as usize + p.entries as usize / 2).clamp(1, 64);
        let pm = mask(p.pc_bits);
        let pcs = (0..k)
            .map(|_| (rng.random::<u64>() & pm, [0.05, 0.5, 0.95][rng.random_range(0..3)]))
            .collect();
        MshrPredictorDriver { layout, slots, rng, pcs, first: true }
    }
}

impl Driver for MshrPredictorDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        let look = self.pcs[self.rng.random_range(0..self.pcs.len())].0;
        let (upc, bias) = self.pcs[self.rng.random_range(0..self.pcs.len())];
        let v = [
            (self.first || self.rng.random_bool(0.002)) as u64,
            look,
            self.rng.random_bool(0.2) as u64,
            self.rng.random_bool(0.8) as u64,
            upc,
            self.rng.random_bool(bias) as u64,
        ];
        self.first = false;
        for (slot, x) in self.slots.iter().zip(v) {
            if let Some(s) = slot {
                frame.set(*s, x);
            }
        }
    }
}

/// The prediction on every cycle equals one computed from the training history: the
/// counter of an index is the reset value moved by each update to that index since the
/// last reset, clamped to `0..=max` after every step.
pub fn check_predictions(dut: &mut dyn Component, p: &MshrPredictorParams, stim: &Stimulus) -> Result<(), String> {
    let ids = port_ids(dut, ["pc", "known_miss", "upd_valid", "upd_pc", "upd_miss", "pred_miss"])?;
    let rst = super::naive_tracker::rst_port(dut);
    let layout = stim.layout();
    let slots = INPUTS.map(|n| layout.slot(n));
    if rst.is_some() != slots[0].is_some() || slots[1..].iter().any(|s| s.is_none()) {
        return Err("the stimulus does not have the component's inputs".into());
    }
    let idx = |pc: u64| pc % p.entries as u64;
    // History of (index, miss) since the last reset.
    let mut hist: Vec<(u64, bool)> = Vec::new();
    for c in 0..stim.cycles() {
        let w = stim.cycle(c);
        // Values in INPUTS order (`rst` = 0 when there is none).
        let v: Vec<u64> = slots.iter().map(|s| s.map_or(0, |s| w[layout.range(s).start])).collect();
        if let Some(r) = rst {
            dut.set_u64(r, v[0]);
        }
        for k in 1..6 {
            dut.set_u64(ids[k - 1], v[k]);
        }
        dut.eval();
        let known = v[2] & 1 != 0;
        let want = match p.mode {
            PredictorMode::AlwaysHit => known,
            PredictorMode::AlwaysMiss => true,
            PredictorMode::Counter => {
                let mut ctr = p.reset_count() as i64;
                for (_, miss) in hist.iter().filter(|(i, _)| *i == idx(v[1])) {
                    ctr = (ctr + if *miss { 1 } else { -1 }).clamp(0, p.max_count() as i64);
                }
                known || ctr >= p.threshold() as i64
            }
        };
        if dut.get_bool(ids[5]) != want {
            return Err(format!("cycle {c}: pred_miss = {}, expected {want} (pc {:#x}, known {known})", !want, v[1]));
        }
        dut.tick();
        if v[0] & 1 != 0 {
            hist.clear();
        } else if v[3] & 1 != 0 {
            hist.push((idx(v[4]), v[5] & 1 != 0));
        }
    }
    Ok(())
}


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(MshrPredictor::new(&MshrPredictorParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(MshrPredictorDriver::new(&MshrPredictorParams::from_params(p)?, seed))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counter(entries: u32, bits: u32) -> (MshrPredictorParams, MshrPredictor) {
        let p = MshrPredictorParams { mode: PredictorMode::Counter, entries, counter_bits: bits, pc_bits: 32 };
        let m = MshrPredictor::new(&p);
        (p, m)
    }

    /// (pc, known, upd (pc, miss)) -> pred_miss
    fn cyc(m: &mut MshrPredictor, pc: u64, known: bool, upd: Option<(u64, bool)>) -> bool {
        m.set_u64(m.i[0], pc);
        m.set_u64(m.i[1], known as u64);
        m.set_u64(m.i[2], upd.is_some() as u64);
        m.set_u64(m.i[3], upd.map(|u| u.0).unwrap_or(0));
        m.set_u64(m.i[4], upd.map(|u| u.1 as u64).unwrap_or(0));
        m.eval();
        let r = m.get_bool(m.o);
        m.tick();
        r
    }

    #[test]
    fn two_bit_counter_sequence() {
        let (_, mut m) = counter(4, 2);
        // Reset value 1 (weakly hit). Same-cycle update is not bypassed.
        assert!(!cyc(&mut m, 5, false, Some((5, true)))); // 1 -> 2
        assert!(cyc(&mut m, 5, false, Some((5, true)))); // 2 -> 3
        assert!(cyc(&mut m, 5, false, Some((5, true)))); // saturates at 3
        assert!(cyc(&mut m, 1, false, Some((1, false)))); // pc 1 aliases pc 5 (4 entries): 3 -> 2
        assert!(cyc(&mut m, 5, false, Some((5, false)))); // 2 -> 1
        assert!(!cyc(&mut m, 5, false, Some((5, false)))); // 1 -> 0
        assert!(!cyc(&mut m, 5, false, Some((5, false)))); // stays 0
        assert!(cyc(&mut m, 5, true, None)); // known miss overrides
        assert!(!cyc(&mut m, 6, false, None)); // untouched entry: weakly hit
    }

    #[test]
    fn static_modes() {
        for (mode, want) in [(PredictorMode::AlwaysHit, [false, true]), (PredictorMode::AlwaysMiss, [true, true])] {
            let p = MshrPredictorParams { mode, ..MshrPredictorParams::default() };
            let mut m = MshrPredictor::new(&p);
            assert_eq!(cyc(&mut m, 9, false, Some((9, true))), want[0]);
            assert_eq!(cyc(&mut m, 9, true, None), want[1]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn predictions_follow_history(seed in any::<u64>(), mode in 0u32..=2, log in 0u32..=6, bits in 1u32..=4, pc_bits in 1u32..=64) {
            let p = MshrPredictorParams { mode: PredictorMode::from_u32(mode).unwrap(), entries: 1 << log, counter_bits: bits, pc_bits };
            let stim = Stimulus::record(&mut MshrPredictorDriver::new(&p, seed), 1500);
            prop_assert_eq!(check_predictions(&mut MshrPredictor::new(&p), &p, &stim), Ok(()));
        }
    }
}
