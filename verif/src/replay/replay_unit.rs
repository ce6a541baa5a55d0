//! Verification of `replay_unit` (specification in `hw::blocks::replay::replay_unit`,
//! model `models::replay::replay_unit`): a driver that records the traffic harness's
//! inputs, and directed scenarios. Properties of the composed unit run through
//! [`super::traffic`], on any [`Component`] with these ports.

use super::traffic::{Traffic, TrafficCfg};
use crate::stimulus::{Driver, Frame, InputLayout};
use hw::blocks::replay::replay_unit::{ReplayUnitIo, ReplayUnitParams, TrackerKind, NAME};
use hw::iface::InterfaceExt;
use models::bits::{get_field, mask};
use models::replay::replay_unit::ReplayUnit;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| {
        let p = hw::params::BlockParams::from_params(p)?;
        Ok(Box::new(ReplayUnitDriver::new(&p, TrafficCfg { seed, ..TrafficCfg::default() })))
    },
};

fn v_bool(v: u64) -> bool {
    v & 1 != 0
}

/// Slot of warp `w` in an `offer_slot` vector.
pub fn offer_slot(words: &[u64], w: usize, slot_bits: u32) -> u64 {
    get_field(words, w * slot_bits as usize, slot_bits)
}

/// Driver: the traffic harness run against a private reference model, recording the
/// inputs it applied (the harness is closed-loop; replaying the recording through another
/// engine reproduces the same cycle-by-cycle inputs, so any output difference shows up at
/// the first cycle where the engines disagree). Resets the unit and the harness now and
/// then. On top, it puts random values on inputs the specification says are ignored in
/// that cycle (`iss_*` (including `iss_flush`) without `iss_valid`, `cpl_*` without `cpl_valid`, `mem_*` without
/// `mem_valid`, `fill_warp` without a fill, `iss_mask` / `iss_replayable` of a replay) and
/// out-of-range warp selectors when `warps` is not a power of two, so the recording also
/// checks that they are ignored.
pub struct ReplayUnitDriver {
    layout: Arc<InputLayout>,
    io: ReplayUnitIo<PortId>,
    model: ReplayUnit,
    traffic: Traffic,
    count: u64,
    rng: ChaCha8Rng,
    p: ReplayUnitParams,
    noise: bool,
}

impl ReplayUnitDriver {
    pub fn new(p: &ReplayUnitParams, cfg: TrafficCfg) -> Self {
        let layout = InputLayout::of(&p.ports());
        let model = ReplayUnit::new(p);
        let traffic = Traffic::new(p, cfg);
        let rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x5eed);
        ReplayUnitDriver { layout, io: p.ids(), model, traffic, count: 0, rng, p: p.clone(), noise: true }
    }
}

impl ReplayUnitDriver {
    /// Turn the don't-care noise on (default) or off.
    pub fn with_noise(mut self, on: bool) -> Self {
        self.noise = on;
        self
    }
}

impl Driver for ReplayUnitDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        self.count += 1;
        let reset = self.count == 1 || self.traffic.rng_bool(0.0005);
        // The harness checks the unit's answers; the private model is the reference, so
        // an error here is a bug in the model or the harness.
        self.traffic
            .cycle(&mut self.model, reset)
            .unwrap_or_else(|e| panic!("internal: traffic harness on the reference model: {e}"));
        // The model's inputs are the frame's: both follow the port description.
        for (i, q) in self.model.ports().iter().enumerate() {
            if q.dir == sim::Dir::In {
                frame.set_wide(PortId(i as u32), self.model.get(PortId(i as u32)));
            }
        }
        if reset || !self.noise || !self.rng.random_bool(0.3) {
            return;
        }
        let val = |f: &Frame, id: PortId| f.get(id)[0];
        let g = self.p.warp_bits();
        let out_of_range = (self.p.warps as u64) < (1u64 << g);
        let io = self.io.clone();
        let widths: Vec<u32> = self.model.ports().iter().map(|q| q.width).collect();
        let mut r = |id: PortId| self.rng.random::<u64>() & mask(widths[id.0 as usize]);
        if val(frame, io.iss_valid) == 0 {
            for k in [io.iss_warp, io.iss_load, io.iss_replayable, io.iss_pc, io.iss_mask, io.iss_flush] {
                let v = r(k);
                frame.set(k, v);
            }
            if out_of_range && v_bool(r(io.rst)) {
                frame.set(io.iss_valid, 1);
                frame.set(io.iss_warp, self.p.warps as u64 + r(io.iss_warp) % ((1 << g) - self.p.warps as u64));
            }
        } else if self.model.get_u64(io.iss_replay) & 1 != 0 {
            for k in [io.iss_replayable, io.iss_mask] {
                let v = r(k);
                frame.set(k, v);
            }
        }
        if val(frame, io.cpl_valid) == 0 {
            for k in [io.cpl_warp, io.cpl_slot, io.cpl_mask, io.cpl_miss] {
                let v = r(k);
                frame.set(k, v);
            }
            if out_of_range && v_bool(r(io.rst)) {
                frame.set(io.cpl_valid, 1);
                frame.set(io.cpl_warp, self.p.warps as u64 + r(io.cpl_warp) % ((1 << g) - self.p.warps as u64));
            }
        }
        if val(frame, io.mem_valid) == 0 {
            for k in [io.mem_credited, io.mem_alloc, io.mem_miss, io.mem_pc] {
                let v = r(k);
                frame.set(k, v);
            }
        }
        if val(frame, io.fill_count) == 0 {
            let v = r(io.fill_warp);
            frame.set(io.fill_warp, v);
            if out_of_range && v_bool(r(io.rst)) {
                frame.set(io.fill_count, 1 + r(io.fill_count) % self.p.slots as u64);
                frame.set(io.fill_warp, self.p.warps as u64 + r(io.fill_warp) % ((1 << g) - self.p.warps as u64));
            }
        }
    }
}


/// Drive named inputs (others 0) for one cycle; the named outputs after `eval`.
fn drive(m: &mut dyn Component, ins: &[(PortId, u64)], outs: &[PortId]) -> Result<Vec<u64>, String> {
    crate::poke::clear_inputs(m);
    for &(id, v) in ins {
        m.set_u64(id, v);
    }
    m.eval();
    let r = outs.iter().map(|&id| m.get_u64(id)).collect();
    m.tick();
    Ok(r)
}

fn expect(cycle: &str, got: &[u64], want: &[u64]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{cycle}: got {got:?}, expected {want:?}"))
    }
}

/// Parameters of [`credit_scenario`].
pub fn credit_scenario_params() -> ReplayUnitParams {
    ReplayUnitParams {
        warps: 2,
        slots: 4,
        simt_width: 4,
        mshrs: 1,
        tracker: TrackerKind::Credit,
        pred_mode: hw::blocks::replay::mshr_predictor::PredictorMode::AlwaysHit,
        ..ReplayUnitParams::default()
    }
}

/// Directed scenario on a unit with [`credit_scenario_params`] (any engine): known-miss
/// replays need a credit; with the pool empty they are refused while other instructions
/// still issue; an MSHR free reopens issue. Expected values worked out by hand from the
/// specification (one MSHR, always-hit predictor, credit tracker).
pub fn credit_scenario(m: &mut dyn Component) -> Result<(), String> {
    let io = credit_scenario_params().bind(m).map_err(|e| e.to_string())?;
    let outs = [io.iss_ok, io.iss_pred_miss, io.iss_credited, io.iss_replay, io.iss_pam, io.credit_pool, io.offer_known_miss, io.miss_issue_ok];
    let load = |w: u64| vec![(io.iss_valid, 1), (io.iss_warp, w), (io.iss_load, 1), (io.iss_replayable, 1), (io.iss_pc, 10), (io.iss_mask, 0xf)];
    let hazard = |w: u64| vec![(io.cpl_valid, 1), (io.cpl_warp, w), (io.cpl_slot, 0), (io.cpl_mask, 0), (io.cpl_miss, 1), (io.mem_valid, 1), (io.mem_miss, 1), (io.mshr_avail, 0)];
    drive(m, &[(io.rst, 1)], &[])?;
    let r = drive(m, &[(io.fill_warp, 0), (io.fill_count, 2)], &[io.fill_rdy, io.fill_slot])?;
    expect("fill warp 0", &r, &[0b11, 0])?;
    let mut i = load(0);
    i.extend([(io.fill_warp, 1), (io.fill_count, 2)]);
    // Warp 0's load: predicted hit, issues uncredited.
    expect("warp 0 load", &drive(m, &i, &outs)?, &[1, 0, 0, 0, 0xf, 1, 0, 1])?;
    // It meets an MSHR hazard; warp 1's load issues uncredited meanwhile.
    let mut i = hazard(0);
    i.extend(load(1));
    expect("warp 0 hazard, warp 1 load", &drive(m, &i, &outs)?[..3], &[1, 0, 0])?;
    // Warp 0 replays, known to miss: it takes the only credit.
    expect("warp 0 replay", &drive(m, &load(0), &outs)?, &[1, 1, 1, 1, 0xf, 1, 0b01, 1])?;
    // Warp 1's load meets a hazard too.
    drive(m, &hazard(1), &[])?;
    // Pool empty: warp 1's known-miss replay is refused...
    expect("warp 1 replay refused", &drive(m, &load(1), &outs)?, &[0, 1, 0, 0, 0, 0, 0b10, 0])?;
    // ...but warp 0's next instruction (an ALU op) issues.
    let alu = [(io.iss_valid, 1), (io.iss_warp, 0), (io.iss_mask, 0xf)];
    expect("warp 0 ALU", &drive(m, &alu, &outs)?[..4], &[1, 0, 0, 0])?;
    // Warp 0's credited load allocates: the credit stays with the MSHR.
    let alloc = [(io.cpl_valid, 1), (io.cpl_warp, 0), (io.cpl_slot, 0), (io.cpl_mask, 0xf), (io.mem_valid, 1), (io.mem_credited, 1), (io.mem_alloc, 1), (io.mem_miss, 1)];
    expect("warp 0 allocates", &drive(m, &alloc, &[io.credit_pool, io.cpl_accept])?, &[0, 1])?;
    expect("still refused", &drive(m, &load(1), &[io.iss_ok])?, &[0])?;
    // The MSHR frees: the credit returns and the replay issues, credited.
    drive(m, &[(io.mshr_free, 1)], &[])?;
    expect("warp 1 replay credited", &drive(m, &load(1), &outs)?, &[1, 1, 1, 1, 0xf, 1, 0b10, 1])
}

/// Parameters of [`out_of_range_scenario`]: three warps behind 2-bit selectors.
pub fn out_of_range_params() -> ReplayUnitParams {
    ReplayUnitParams { warps: 3, slots: 4, simt_width: 4, ..ReplayUnitParams::default() }
}

/// Warp selectors past `warps` select nothing (any engine, [`out_of_range_params`]).
pub fn out_of_range_scenario(m: &mut dyn Component) -> Result<(), String> {
    let io = out_of_range_params().bind(m).map_err(|e| e.to_string())?;
    drive(m, &[(io.rst, 1)], &[])?;
    expect("fill warp 3", &drive(m, &[(io.fill_warp, 3), (io.fill_count, 2)], &[io.fill_slot, io.fill_rdy])?, &[0, 0b111])?;
    expect("nothing filled", &drive(m, &[], &[io.offer_valid])?, &[0])?;
    drive(m, &[(io.fill_warp, 2), (io.fill_count, 2)], &[])?;
    expect("issue warp 3", &drive(m, &[(io.iss_valid, 1), (io.iss_warp, 3)], &[io.iss_ok, io.offer_valid])?, &[0, 0b100])
}


/// A flush with an issue drops only the picked warp's unissued instructions, and a
/// flush without an issue does nothing (any engine, [`out_of_range_params`]).
pub fn flush_scenario(m: &mut dyn Component) -> Result<(), String> {
    let io = out_of_range_params().bind(m).map_err(|e| e.to_string())?;
    drive(m, &[(io.rst, 1)], &[])?;
    drive(m, &[(io.fill_warp, 0), (io.fill_count, 3)], &[])?;
    drive(m, &[(io.fill_warp, 1), (io.fill_count, 2)], &[])?;
    expect("flush without issue", &drive(m, &[(io.iss_warp, 0), (io.iss_flush, 1)], &[io.offer_valid])?, &[0b011])?;
    // Warp 0's first instruction redirects it: the two behind it go.
    let first = [(io.iss_valid, 1), (io.iss_warp, 0), (io.iss_mask, 0xf), (io.iss_flush, 1)];
    expect("issue with flush", &drive(m, &first, &[io.iss_ok, io.iss_slot])?, &[1, 0])?;
    expect("warp 0 empty, warp 1 kept", &drive(m, &[], &[io.offer_valid, io.fill_rdy])?, &[0b010, 0b111])?;
    // Fetch resumes at the slot after the issued one.
    expect("refill", &drive(m, &[(io.fill_warp, 0), (io.fill_count, 1)], &[io.fill_slot])?, &[1])?;
    expect("offered", &drive(m, &[(io.iss_valid, 1), (io.iss_warp, 0)], &[io.iss_ok, io.iss_slot])?, &[1, 1])
}
