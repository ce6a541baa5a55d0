//! Reference model of `mshr_predictor` (specification in
//! `hw::blocks::replay::mshr_predictor`).

use crate::Reference;
use hw::blocks::replay::mshr_predictor::{MshrPredictorIo, MshrPredictorParams, PredictorMode, NAME};
use sim::{Bind, Component, PortFrame, PortId};

/// The reference model.
pub struct MshrPredictor {
    p: MshrPredictorParams,
    frame: PortFrame,
    io: MshrPredictorIo<PortId>,
    ctr: Vec<u32>,
}

impl MshrPredictor {
    pub fn new(p: &MshrPredictorParams) -> Self {
        let n = if p.mode == PredictorMode::Counter { p.entries as usize } else { 0 };
        MshrPredictor { p: p.clone(), frame: p.frame(), io: p.ids(), ctr: vec![p.reset_count(); n] }
    }

    fn index(&self, pc: u64) -> usize {
        (pc & (self.p.entries as u64 - 1)) as usize
    }
}

impl Component for MshrPredictor {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        let known = self.frame.get_bool(self.io.known_miss);
        let v = match self.p.mode {
            PredictorMode::AlwaysHit => known,
            PredictorMode::AlwaysMiss => true,
            PredictorMode::Counter => known || self.ctr[self.index(self.frame.get_u64(self.io.pc))] >= self.p.threshold(),
        };
        self.frame.set_bool(self.io.pred_miss, v);
    }
    fn tick(&mut self) {
        if self.p.mode != PredictorMode::Counter {
            return;
        }
        if self.io.rst.is_some_and(|r| self.frame.get_bool(r)) {
            self.ctr.fill(self.p.reset_count());
            return;
        }
        if self.frame.get_bool(self.io.upd_valid) {
            let k = self.index(self.frame.get_u64(self.io.upd_pc));
            let c = self.ctr[k];
            self.ctr[k] = if self.frame.get_bool(self.io.upd_miss) { (c + 1).min(self.p.max_count()) } else { c.saturating_sub(1) };
        }
    }
}

impl Reference for MshrPredictorParams {
    type Model = MshrPredictor;
    fn model(&self) -> MshrPredictor {
        MshrPredictor::new(self)
    }
}
