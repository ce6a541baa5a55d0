//! Reference model of `credit_tracker` (specification in
//! `hw::blocks::replay::credit_tracker`), a small load/MSHR environment [`CreditEnv`] used
//! both by the constrained-random [`CreditTrackerDriver`] and by the closed-loop property
//! [`check_credit_properties`], which runs on any [`Component`] with the block's ports.

use super::bits::{mask, port_ids};
use crate::stimulus::{Driver, Frame, InputLayout, Slot};
use hw::blocks::replay::credit_tracker::{CreditTrackerParams, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::VecDeque;
use std::sync::Arc;

pub const INPUTS: [&str; 6] = ["rst", "iss_take", "mem_valid", "mem_credited", "mem_alloc", "mshr_free"];
pub const OUTPUTS: [&str; 2] = ["credit_avail", "pool"];

pub fn ports(p: &CreditTrackerParams) -> Vec<PortSpec> {
    let mut v: Vec<PortSpec> = INPUTS.iter().map(|n| PortSpec::input(*n, 1)).collect();
    v.push(PortSpec::output("credit_avail", 1));
    v.push(PortSpec::output("pool", p.pool_bits()));
    v
}

/// Two's-complement value of the low `bits` of `v`.
pub fn signed(v: u64, bits: u32) -> i64 {
    let v = v & mask(bits);
    if bits < 64 && v >> (bits - 1) & 1 != 0 {
        v as i64 - (1i64 << bits)
    } else {
        v as i64
    }
}

/// One cycle of inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreditIn {
    pub rst: bool,
    pub iss_take: bool,
    pub mem_valid: bool,
    pub mem_credited: bool,
    pub mem_alloc: bool,
    pub mshr_free: bool,
}

impl CreditIn {
    pub fn values(&self) -> [u64; 6] {
        [
            self.rst as u64,
            self.iss_take as u64,
            self.mem_valid as u64,
            self.mem_credited as u64,
            self.mem_alloc as u64,
            self.mshr_free as u64,
        ]
    }
    /// Net credit movement of the memory-stage events: returned (+1), virtual (-1), freed (+1).
    pub fn mem_delta(&self) -> i64 {
        let ret = self.mem_valid && self.mem_credited && !self.mem_alloc;
        let virt = self.mem_valid && !self.mem_credited && self.mem_alloc;
        ret as i64 - virt as i64 + self.mshr_free as i64
    }
}

/// The reference model.
pub struct CreditTracker {
    p: CreditTrackerParams,
    io: PortFrame,
    i: [PortId; 6],
    o: [PortId; 2],
    /// The pool as a P-bit two's-complement register, held as its signed value.
    pool: i64,
    /// Delay line of (ret, virt, free); `line[head]` is the oldest stage.
    line: Vec<(bool, bool, bool)>,
    head: usize,
}

impl CreditTracker {
    pub fn new(p: &CreditTrackerParams) -> Self {
        let io = PortFrame::new(ports(p));
        let i = INPUTS.map(|n| io.id(n));
        let o = OUTPUTS.map(|n| io.id(n));
        CreditTracker { p: p.clone(), io, i, o, pool: p.mshrs as i64, line: vec![(false, false, false); p.delay as usize], head: 0 }
    }

    fn inputs(&self) -> CreditIn {
        let b = |k: usize| self.io.get_bool(self.i[k]);
        CreditIn { rst: b(0), iss_take: b(1), mem_valid: b(2), mem_credited: b(3), mem_alloc: b(4), mshr_free: b(5) }
    }
}

impl Component for CreditTracker {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        let (o, pool) = (self.o, self.pool);
        self.io.set_bool(o[0], pool > 0);
        self.io.set_u64(o[1], pool as u64 & mask(self.p.pool_bits()));
    }
    fn tick(&mut self) {
        let i = self.inputs();
        if i.rst {
            self.pool = self.p.mshrs as i64;
            self.line.fill((false, false, false));
            self.head = 0;
            return;
        }
        let now = (
            i.mem_valid && i.mem_credited && !i.mem_alloc,
            i.mem_valid && !i.mem_credited && i.mem_alloc,
            i.mshr_free,
        );
        let (ret, virt, free) = if self.line.is_empty() {
            now
        } else {
            let old = self.line[self.head];
            self.line[self.head] = now;
            self.head = (self.head + 1) % self.line.len();
            old
        };
        let next = self.pool - i.iss_take as i64 + ret as i64 - virt as i64 + free as i64;
        self.pool = signed(next as u64, self.p.pool_bits());
    }
}

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
    slots: [Slot; 6],
    env: CreditEnv,
    rng: ChaCha8Rng,
    count: u64,
}

impl CreditTrackerDriver {
    pub fn new(p: &CreditTrackerParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.map(|n| layout.expect(n));
        let cfg = EnvCfg { p_illegal: 0.002, ..EnvCfg::default() };
        CreditTrackerDriver { layout, slots, env: CreditEnv::new(p, cfg, seed), rng: ChaCha8Rng::seed_from_u64(!seed), count: 0 }
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
        for (k, v) in i.values().iter().enumerate() {
            frame.set(self.slots[k], *v);
        }
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
    let ii = port_ids(dut, INPUTS)?;
    let oo = port_ids(dut, OUTPUTS)?;
    let mut env = CreditEnv::new(p, cfg, seed);
    let mut st = CreditStats::default();
    let set = |c: &mut dyn Component, i: &CreditIn| {
        for (k, v) in i.values().iter().enumerate() {
            c.set_u64(ii[k], *v);
        }
    };
    set(dut, &CreditIn { rst: true, ..Default::default() });
    dut.step();
    for cyc in 0..cycles {
        set(dut, &CreditIn::default());
        dut.eval();
        let pool = signed(dut.get_u64(oo[1]), p.pool_bits());
        let avail = dut.get_bool(oo[0]);
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


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(CreditTracker::new(&CreditTrackerParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(CreditTrackerDriver::new(&CreditTrackerParams::from_params(p)?, seed))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stimulus::Stimulus;
    use proptest::prelude::*;

    fn run(m: &mut CreditTracker, ins: &[CreditIn]) -> Vec<(bool, i64)> {
        let ii = port_ids(m, INPUTS).unwrap();
        let bits = m.p.pool_bits();
        ins.iter()
            .map(|i| {
                for (k, v) in i.values().iter().enumerate() {
                    m.set_u64(ii[k], *v);
                }
                m.eval();
                let r = (m.get_bool(m.o[0]), signed(m.get_u64(m.o[1]), bits));
                m.tick();
                r
            })
            .collect()
    }

    /// §6.0.1's scenario: a credited load's MSHR is taken by an uncredited load, which
    /// gets a virtual credit and drives the pool negative; the credited load fails and
    /// returns its credit; the MSHR frees.
    #[test]
    fn virtual_credit_goes_negative_and_recovers() {
        let mut m = CreditTracker::new(&CreditTrackerParams { mshrs: 1, delay: 0 });
        let take = CreditIn { iss_take: true, ..Default::default() };
        let virt = CreditIn { mem_valid: true, mem_alloc: true, ..Default::default() };
        let fail = CreditIn { mem_valid: true, mem_credited: true, ..Default::default() };
        let free = CreditIn { mshr_free: true, ..Default::default() };
        let r = run(&mut m, &[CreditIn { rst: true, ..Default::default() }, take, virt, fail, free, CreditIn::default()]);
        let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
        assert_eq!(pools, [1, 1, 0, -1, 0, 1]);
        assert!(!r[3].0);
        assert!(r[5].0);
    }

    #[test]
    fn delay_holds_memory_events_back() {
        let mut m = CreditTracker::new(&CreditTrackerParams { mshrs: 4, delay: 2 });
        let free = CreditIn { mshr_free: true, ..Default::default() };
        let take = CreditIn { iss_take: true, ..Default::default() };
        let r = run(&mut m, &[CreditIn { rst: true, ..Default::default() }, take, free, CreditIn::default(), CreditIn::default(), CreditIn::default()]);
        let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
        // take lands at the next edge; the free (cycle 2) lands at the edge of cycle 4.
        assert_eq!(pools, [4, 4, 3, 3, 3, 4]);
    }

    #[test]
    fn credited_hit_returns_credited_miss_keeps() {
        let mut m = CreditTracker::new(&CreditTrackerParams { mshrs: 2, delay: 0 });
        let take = CreditIn { iss_take: true, ..Default::default() };
        let hit = CreditIn { mem_valid: true, mem_credited: true, ..Default::default() };
        let miss = CreditIn { mem_valid: true, mem_credited: true, mem_alloc: true, ..Default::default() };
        let uncredited_hit = CreditIn { mem_valid: true, ..Default::default() };
        let r = run(&mut m, &[CreditIn { rst: true, ..Default::default() }, take, take, hit, miss, uncredited_hit, CreditIn::default()]);
        let pools: Vec<i64> = r.iter().map(|x| x.1).collect();
        assert_eq!(pools, [2, 2, 1, 0, 1, 1, 1]);
    }

    #[test]
    fn invariant_holds_with_mixed_predictions() {
        for delay in 0..4 {
            let p = CreditTrackerParams { mshrs: 8, delay };
            let cfg = EnvCfg { p_pred_miss: 0.5, p_hit: 0.3, ..EnvCfg::default() };
            let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, delay as u64, 20_000).unwrap();
            assert!(st.negative_cycles > 0 && st.hazards > 0, "delay {delay}: {st:?}");
        }
    }

    /// The property: delay 0 and an always-miss predictor: no load reaches the
    /// memory stage without an MSHR to take (shown for larger delays too).
    #[test]
    fn always_miss_never_meets_a_full_table() {
        for delay in 0..4 {
            let p = CreditTrackerParams { mshrs: 8, delay };
            let cfg = EnvCfg { p_load: 1.0, p_pred_miss: 1.0, p_hit: 0.2, ..EnvCfg::default() };
            let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, 9, 20_000).unwrap();
            assert_eq!(st.credited_without_mshr, 0, "delay {delay}");
            assert_eq!(st.hazards, 0);
            assert!(st.takes > 1000);
        }
    }

    #[test]
    fn driver_stimulus_runs_and_stays_in_range() {
        let p = CreditTrackerParams::default();
        let stim = Stimulus::record(&mut CreditTrackerDriver::new(&p, 5), 20_000);
        let mut m = CreditTracker::new(&p);
        crate::run::check_inputs(&m, stim.layout()).unwrap();
        let mut lo = i64::MAX;
        for c in 0..stim.cycles() {
            m.set_inputs(stim.cycle(c));
            m.eval();
            lo = lo.min(signed(m.get_u64(m.o[1]), p.pool_bits()));
            m.tick();
        }
        assert!(lo < 0 && lo >= -(p.mshrs as i64) - 64, "lowest pool {lo}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn conservation(seed in any::<u64>(), mshrs in 1u32..=40, delay in 0u32..=6, pipe in 1u32..=10,
                        pm in 0.0f64..=1.0, hit in 0.0f64..=1.0) {
            let p = CreditTrackerParams { mshrs, delay };
            let cfg = EnvCfg { pipe, p_pred_miss: pm, p_hit: hit, ..EnvCfg::default() };
            let r = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, seed, 3000);
            prop_assert!(r.is_ok(), "{:?}", r);
        }

        #[test]
        fn always_miss_is_hazard_free(seed in any::<u64>(), mshrs in 1u32..=40, pipe in 1u32..=10, hit in 0.0f64..=1.0) {
            let p = CreditTrackerParams { mshrs, delay: 0 };
            let cfg = EnvCfg { pipe, p_load: 1.0, p_pred_miss: 1.0, p_hit: hit, ..EnvCfg::default() };
            let st = check_credit_properties(&mut CreditTracker::new(&p), &p, cfg, seed, 3000).unwrap();
            prop_assert_eq!(st.credited_without_mshr, 0);
        }
    }
}
