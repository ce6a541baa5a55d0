//! Verification of `credit_tracker` (specification in
//! `hw::blocks::replay::credit_tracker`, model `models::replay::credit_tracker`): a
//! small load/MSHR environment [`CreditEnv`] used both by the constrained-random
//! [`CreditTrackerDriver`] and by the closed-loop property [`check_credit_properties`],
//! which runs on any [`Component`] with the block's ports.

use crate::stimulus::{Driver, Frame, InputLayout};
use hw::blocks::replay::credit_tracker::{CreditTrackerIo, CreditTrackerParams, NAME};
use hw::iface::InterfaceExt;
use models::replay::credit_tracker::{signed, CreditIn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::collections::VecDeque;
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| Ok(Box::new(CreditTrackerDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------------------
// Environment: issue stage, pipeline, memory stage with an MSHR count.
// ---------------------------------------------------------------------------------------

/// Traffic knobs of [`CreditEnv`].
#[derive(Clone, Copy, Debug)]
pub struct EnvCfg {
    /// Pipeline cycles from issue to the memory stage (>= 1).
    pub pipe: u32,
    /// Probability a load wants to issue in a cycle.
    pub p_load: f64,
    /// Probability a load is predicted to miss (1.0: the always-miss predictor).
    pub p_pred_miss: f64,
    /// Probability a load hits in the cache.
    pub p_hit: f64,
    /// Probability a miss finds its line pending (merges, no new MSHR).
    pub p_merge: f64,
    /// Probability per cycle of an `iss_take` while the pool is empty (a protocol violation).
    pub p_illegal: f64,
    /// MSHR occupancy range in cycles.
    pub mem_lat: (u32, u32),
}

impl Default for EnvCfg {
    fn default() -> Self {
        EnvCfg { pipe: 5, p_load: 0.6, p_pred_miss: 0.5, p_hit: 0.4, p_merge: 0.1, p_illegal: 0.0, mem_lat: (1, 80) }
    }
}

/// What happened at the memory stage in one cycle (for property checks).
#[derive(Clone, Copy, Debug, Default)]
pub struct MemEvent {
    /// A credited load arrived while every MSHR was in use.
    pub credited_without_mshr: bool,
    /// A miss found no MSHR (an MSHR hazard).
    pub hazard: bool,
}

/// A closed world around the tracker, open-loop with respect to the DUT: it decides
/// credit takes from its own account of the pool, computed from the invariant
/// `pool = mshrs - credited loads in flight - MSHRs in use - net credits in the delay line`.
pub struct CreditEnv {
    n: i64,
    delay: usize,
    cfg: EnvCfg,
    rng: ChaCha8Rng,
    /// Loads in the pipeline: (cycle it reaches the memory stage, credited).
    pipe: VecDeque<(u64, bool)>,
    /// Cycles at which allocated MSHRs are due to free.
    mshrs: Vec<u64>,
    /// Net memory-stage credit deltas of the last `delay` cycles.
    transit: VecDeque<i64>,
    cycle: u64,
}

impl CreditEnv {
    pub fn new(p: &CreditTrackerParams, cfg: EnvCfg, seed: u64) -> Self {
        CreditEnv {
            n: p.mshrs as i64,
            delay: p.delay as usize,
            cfg,
            rng: ChaCha8Rng::seed_from_u64(seed),
            pipe: VecDeque::new(),
            mshrs: Vec::new(),
            transit: VecDeque::new(),
            cycle: 0,
        }
    }

    pub fn reset(&mut self) {
        self.pipe.clear();
        self.mshrs.clear();
        self.transit.clear();
    }

    /// The pool the tracker must show at the start of this cycle.
    pub fn expected_pool(&self) -> i64 {
        let credited = self.pipe.iter().filter(|(_, c)| *c).count() as i64;
        self.n - credited - self.mshrs.len() as i64 - self.transit.iter().sum::<i64>()
    }

    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs.len()
    }

    /// Choose this cycle's inputs and advance the environment past the clock edge.
    pub fn cycle(&mut self) -> (CreditIn, MemEvent) {
        let now = self.cycle;
        self.cycle += 1;
        let mut i = CreditIn::default();
        let mut ev = MemEvent::default();
        let pool = self.expected_pool();
        // Memory stage: at most one load (one issue per cycle, fixed pipeline).
        if self.pipe.front().is_some_and(|(due, _)| *due == now) {
            let (_, credited) = self.pipe.pop_front().unwrap();
            i.mem_valid = true;
            i.mem_credited = credited;
            let free = (self.mshrs.len() as i64) < self.n;
            ev.credited_without_mshr = credited && !free;
            if !self.rng.random_bool(self.cfg.p_hit) && !self.rng.random_bool(self.cfg.p_merge) {
                if free {
                    i.mem_alloc = true;
                    let (lo, hi) = self.cfg.mem_lat;
                    self.mshrs.push(now + self.rng.random_range(lo..=hi) as u64);
                } else {
                    ev.hazard = true;
                }
            }
        }
        // One MSHR frees per cycle, the earliest due (one allocated now is due later).
        if let Some(k) = (0..self.mshrs.len()).filter(|&k| self.mshrs[k] <= now).min_by_key(|&k| self.mshrs[k]) {
            self.mshrs.swap_remove(k);
            i.mshr_free = true;
        }
        // Issue stage.
        if self.rng.random_bool(self.cfg.p_load) {
            let pred_miss = self.rng.random_bool(self.cfg.p_pred_miss);
            if pred_miss && (pool > 0 || self.rng.random_bool(self.cfg.p_illegal)) {
                i.iss_take = true;
                self.pipe.push_back((now + self.cfg.pipe as u64, true));
            } else if !pred_miss {
                self.pipe.push_back((now + self.cfg.pipe as u64, false));
            }
        }
        if self.delay > 0 {
            self.transit.push_back(i.mem_delta());
            if self.transit.len() > self.delay {
                self.transit.pop_front();
            }
        }
        (i, ev)
    }
}

/// Driver: [`CreditEnv`] traffic with phases of different knobs, occasional protocol
/// violations and resets.
pub struct CreditTrackerDriver {
    layout: Arc<InputLayout>,
    io: CreditTrackerIo<PortId>,
    env: CreditEnv,
    rng: ChaCha8Rng,
    count: u64,
}

impl CreditTrackerDriver {
    pub fn new(p: &CreditTrackerParams, seed: u64) -> Self {
        let layout = InputLayout::of(&p.ports());
        let cfg = EnvCfg { p_illegal: 0.002, ..EnvCfg::default() };
        CreditTrackerDriver { layout, io: p.ids(), env: CreditEnv::new(p, cfg, seed), rng: ChaCha8Rng::seed_from_u64(!seed), count: 0 }
    }
}

impl Driver for CreditTrackerDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        if self.count.is_multiple_of(700) {
            let c = &mut self.env.cfg;
            c.p_load = [0.2, 0.6, 1.0][self.rng.random_range(0..3)];
            c.p_pred_miss = [0.0, 0.5, 1.0][self.rng.random_range(0..3)];
            c.p_hit = [0.0, 0.4, 0.9][self.rng.random_range(0..3)];
        }
        self.count += 1;
        let i = if self.count == 1 || self.rng.random_bool(0.002) {
            self.env.reset();
            CreditIn { rst: true, iss_take: self.rng.random(), mem_valid: true, mshr_free: true, ..Default::default() }
        } else {
            self.env.cycle().0
        };
        i.write(&self.io, |id, v| frame.set(id, v));
    }
}

/// Counts from [`check_credit_properties`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreditStats {
    pub takes: u64,
    pub hazards: u64,
    pub negative_cycles: u64,
    pub credited_without_mshr: u64,
}

/// Closed-loop properties of a credit tracker `dut` under [`CreditEnv`] traffic:
/// on every cycle `pool + credited loads in flight + MSHRs in use (real or virtual
/// credit) + net credits in the delay line = mshrs`, and `credit_avail == (pool > 0)`.
/// Takes are decided from the environment's own account of the pool, which must equal
/// the DUT's on every cycle; a take the DUT's `credit_avail` would not allow is an error.
/// Returns counts, including credited loads that met no free MSHR.
pub fn check_credit_properties(
    dut: &mut dyn Component,
    p: &CreditTrackerParams,
    cfg: EnvCfg,
    seed: u64,
    cycles: u64,
) -> Result<CreditStats, String> {
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let mut env = CreditEnv::new(p, cfg, seed);
    let mut st = CreditStats::default();
    let set = |c: &mut dyn Component, i: &CreditIn| i.write(&io, |id, v| c.set_u64(id, v));
    set(dut, &CreditIn { rst: true, ..Default::default() });
    dut.step();
    for cyc in 0..cycles {
        set(dut, &CreditIn::default());
        dut.eval();
        let pool = signed(dut.get_u64(io.pool), p.pool_bits());
        let avail = dut.get_bool(io.credit_avail);
        let want = env.expected_pool();
        if pool != want {
            return Err(format!(
                "cycle {cyc}: pool = {pool}, but mshrs {} - credited in flight - MSHRs in use {} - in transit = {want}",
                p.mshrs,
                env.mshrs_in_use()
            ));
        }
        if avail != (pool > 0) {
            return Err(format!("cycle {cyc}: credit_avail = {avail} with pool {pool}"));
        }
        if pool < 0 {
            st.negative_cycles += 1;
        }
        let (i, ev) = env.cycle();
        if i.iss_take && !avail {
            return Err(format!("cycle {cyc}: environment took a credit the DUT did not offer"));
        }
        st.takes += i.iss_take as u64;
        st.hazards += ev.hazard as u64;
        st.credited_without_mshr += ev.credited_without_mshr as u64;
        set(dut, &i);
        dut.eval();
        dut.tick();
    }
    Ok(st)
}


