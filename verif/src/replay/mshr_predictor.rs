//! Verification of `mshr_predictor` (specification in
//! `hw::blocks::replay::mshr_predictor`, model `models::replay::mshr_predictor`): its
//! driver, and [`check_predictions`], which compares any engine with a separate per-PC
//! history computation over a recorded stimulus.

use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::replay::mshr_predictor::{MshrPredictorIo, MshrPredictorParams, PredictorMode, NAME};
use hw::iface::InterfaceExt;
use models::bits::mask;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| Ok(Box::new(MshrPredictorDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Loads from a small set of PCs (more PCs than entries, so some alias), each with its
/// own miss tendency, training updates most cycles, random known-miss bits, resets.
pub struct MshrPredictorDriver {
    layout: Arc<InputLayout>,
    io: MshrPredictorIo<PortId>,
    rng: ChaCha8Rng,
    pcs: Vec<(u64, f64)>,
    first: bool,
}

impl MshrPredictorDriver {
    pub fn new(p: &MshrPredictorParams, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let k = (p.entries as usize + p.entries as usize / 2).clamp(1, 64);
        let pm = mask(p.pc_bits);
        let pcs = (0..k)
            .map(|_| (rng.random::<u64>() & pm, [0.05, 0.5, 0.95][rng.random_range(0..3)]))
            .collect();
        MshrPredictorDriver { layout: InputLayout::of(&p.ports()), io: p.ids(), rng, pcs, first: true }
    }
}

impl Driver for MshrPredictorDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        let look = self.pcs[self.rng.random_range(0..self.pcs.len())].0;
        let (upc, bias) = self.pcs[self.rng.random_range(0..self.pcs.len())];
        let io = &self.io;
        let v = [
            (io.rst, (self.first || self.rng.random_bool(0.002)) as u64),
            (Some(io.pc), look),
            (Some(io.known_miss), self.rng.random_bool(0.2) as u64),
            (Some(io.upd_valid), self.rng.random_bool(0.8) as u64),
            (Some(io.upd_pc), upc),
            (Some(io.upd_miss), self.rng.random_bool(bias) as u64),
        ];
        self.first = false;
        for (id, x) in v {
            if let Some(id) = id {
                frame.set(id, x);
            }
        }
    }
}

/// The prediction on every cycle equals one computed from the training history: the
/// counter of an index is the reset value moved by each update to that index since the
/// last reset, clamped to `0..=max` after every step.
pub fn check_predictions(dut: &mut dyn Component, p: &MshrPredictorParams, stim: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, stim.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let rst = io.rst;
    // `pc`, `known_miss`, `upd_valid`, `upd_pc`, `upd_miss`, `pred_miss`.
    let ids = [io.pc, io.known_miss, io.upd_valid, io.upd_pc, io.upd_miss, io.pred_miss];
    let idx = |pc: u64| pc % p.entries as u64;
    // History of (index, miss) since the last reset.
    let mut hist: Vec<(u64, bool)> = Vec::new();
    for c in 0..stim.cycles() {
        // `rst` (0 when there is none), then the five inputs of `ids`.
        let mut v = vec![rst.map_or(0, |id| stim.u64(c, id))];
        v.extend(ids[..5].iter().map(|&id| stim.u64(c, id)));
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


