//! Whole-unit reference model of `replay_unit` (specification in
//! `hw::blocks::replay::replay_unit`), built from the sub-blocks' reference models used
//! through their ports, plus a driver that records the traffic harness's inputs.
//!
//! Properties of the composed unit run through [`super::traffic`], on any [`Component`]
//! with these ports.

use super::bits::{get_field, mask, port_ids, put_field};
use super::naive_tracker::rst_port;
use super::credit_tracker::CreditTracker;
use super::mshr_predictor::MshrPredictor;
use super::naive_tracker::NaiveTracker;
use super::traffic::{Traffic, TrafficCfg};
use super::warp_buffer::WarpBuffer;
use crate::stimulus::{Driver, Frame, InputLayout, Slot};
use hw::blocks::replay::replay_unit::{ReplayUnitParams, TrackerKind, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

pub const INPUTS: [&str; 21] = [
    "rst",
    "fill_warp",
    "fill_count",
    "iss_valid",
    "iss_warp",
    "iss_load",
    "iss_replayable",
    "iss_pc",
    "iss_mask",
    "cpl_valid",
    "cpl_warp",
    "cpl_slot",
    "cpl_mask",
    "cpl_miss",
    "mem_valid",
    "mem_credited",
    "mem_alloc",
    "mem_miss",
    "mem_pc",
    "mshr_free",
    "mshr_avail",
];

pub const OUTPUTS: [&str; 15] = [
    "offer_valid",
    "offer_replay",
    "offer_known_miss",
    "offer_slot",
    "fill_rdy",
    "fill_slot",
    "miss_issue_ok",
    "iss_ok",
    "iss_slot",
    "iss_replay",
    "iss_pam",
    "iss_pred_miss",
    "iss_credited",
    "cpl_accept",
    "credit_pool",
];

pub fn ports(p: &ReplayUnitParams) -> Vec<PortSpec> {
    let g = p.warp_bits();
    let wb = p.warp_buffer();
    let (s, c, w, q, k) = (wb.slot_bits(), wb.count_bits(), p.simt_width, p.pc_bits, p.warps);
    let widths_in = [1, g, c, 1, g, 1, 1, q, w, 1, g, s, w, 1, 1, 1, 1, 1, q, 1, 1];
    let widths_out = [k, k, k, k * s, k, s, 1, 1, s, 1, w, 1, 1, 1, p.credit().pool_bits()];
    let mut v: Vec<PortSpec> = INPUTS.iter().zip(widths_in).map(|(n, w)| PortSpec::input(*n, w)).collect();
    v.extend(OUTPUTS.iter().zip(widths_out).map(|(n, w)| PortSpec::output(*n, w)));
    v
}

// Input indices.
const I_RST: usize = 0;
const I_FILL_WARP: usize = 1;
const I_FILL_COUNT: usize = 2;
const I_ISS_VALID: usize = 3;
const I_ISS_WARP: usize = 4;
const I_ISS_LOAD: usize = 5;
const I_ISS_REPLAYABLE: usize = 6;
const I_ISS_PC: usize = 7;
const I_ISS_MASK: usize = 8;
const I_CPL_VALID: usize = 9;
const I_CPL_WARP: usize = 10;
const I_CPL_SLOT: usize = 11;
const I_CPL_MASK: usize = 12;
const I_CPL_MISS: usize = 13;
const I_MEM_VALID: usize = 14;
const I_MEM_CREDITED: usize = 15;
const I_MEM_ALLOC: usize = 16;
const I_MEM_MISS: usize = 17;
const I_MEM_PC: usize = 18;
const I_MSHR_FREE: usize = 19;
const I_MSHR_AVAIL: usize = 20;

/// Port handles of a warp buffer sub-model (the same for every warp).
struct WbIds {
    inp: [PortId; 8],
    offer_valid: PortId,
    offer_slot: PortId,
    offer_replay: PortId,
    offer_pam: PortId,
    fill_free: PortId,
    fill_ptr: PortId,
    cpl_accept: PortId,
}

enum Tracker {
    None,
    /// The naive tracker and its (`rst` if any, `mshr_avail`, `miss_issue_ok`) ports.
    Naive(NaiveTracker, Option<PortId>, PortId, PortId),
    Credit(CreditTracker),
}

/// What the last `eval` decided (used by `tick` for the known-miss bits).
#[derive(Clone, Copy, Default)]
struct Decided {
    rst: bool,
    first_issue: Option<(usize, usize)>,
    accepted_cpl: Option<(usize, usize, bool)>,
}

/// The reference model: sub-block reference models wired as the specification says.
pub struct ReplayUnit {
    p: ReplayUnitParams,
    io: PortFrame,
    i: [PortId; 21],
    o: [PortId; 15],
    wbs: Vec<WarpBuffer>,
    wb: WbIds,
    /// Known-miss bit per warp and slot.
    km: Vec<Vec<bool>>,
    tracker: Tracker,
    pred: MshrPredictor,
    /// `pc`, `known_miss`, `upd_valid`, `upd_pc`, `upd_miss`, `pred_miss`.
    pred_in: [PortId; 6],
    pred_rst: Option<PortId>,
    slot_vec: Vec<u64>,
    decided: Decided,
}

impl ReplayUnit {
    pub fn new(p: &ReplayUnitParams) -> Self {
        let io = PortFrame::new(ports(p));
        let i = INPUTS.map(|n| io.id(n));
        let o = OUTPUTS.map(|n| io.id(n));
        let wbs: Vec<WarpBuffer> = (0..p.warps).map(|_| WarpBuffer::new(&p.warp_buffer())).collect();
        let w0 = &wbs[0];
        let find = |n: &str| PortId(w0.ports().iter().position(|x| x.name == n).unwrap() as u32);
        let wb = WbIds {
            inp: super::warp_buffer::INPUTS.map(find),
            offer_valid: find("offer_valid"),
            offer_slot: find("offer_slot"),
            offer_replay: find("offer_replay"),
            offer_pam: find("offer_pam"),
            fill_free: find("fill_free"),
            fill_ptr: find("fill_ptr"),
            cpl_accept: find("cpl_accept"),
        };
        let tracker = match p.tracker {
            TrackerKind::None => Tracker::None,
            TrackerKind::Naive => {
                let t = NaiveTracker::new(&p.naive());
                let [a, o] = port_ids(&t, ["mshr_avail", "miss_issue_ok"]).expect("naive tracker ports");
                let r = rst_port(&t);
                Tracker::Naive(t, r, a, o)
            }
            TrackerKind::Credit => Tracker::Credit(CreditTracker::new(&p.credit())),
        };
        let pred = MshrPredictor::new(&p.predictor());
        let pred_in = ["pc", "known_miss", "upd_valid", "upd_pc", "upd_miss", "pred_miss"]
            .map(|n| PortId(pred.ports().iter().position(|x| x.name == n).unwrap() as u32));
        let pred_rst = rst_port(&pred);
        let words = (p.warps as usize * p.warp_buffer().slot_bits() as usize).div_ceil(64).max(1);
        ReplayUnit {
            p: p.clone(),
            io,
            i,
            o,
            wbs,
            wb,
            km: vec![vec![false; p.slots as usize]; p.warps as usize],
            tracker,
            pred,
            pred_in,
            pred_rst,
            slot_vec: vec![0; words],
            decided: Decided::default(),
        }
    }

    fn inp(&self, k: usize) -> u64 {
        self.io.get_u64(self.i[k])
    }

    /// The warp an index input selects, if in range.
    fn warp(&self, k: usize) -> Option<usize> {
        let w = self.inp(k) as usize;
        (w < self.p.warps as usize).then_some(w)
    }
}

impl Component for ReplayUnit {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);

    fn eval(&mut self) {
        let rst = self.inp(I_RST);
        let fill_warp = self.warp(I_FILL_WARP);
        let iss_warp = if self.inp(I_ISS_VALID) & 1 != 0 { self.warp(I_ISS_WARP) } else { None };
        let cpl_warp = if self.inp(I_CPL_VALID) & 1 != 0 { self.warp(I_CPL_WARP) } else { None };
        let sb = self.p.warp_buffer().slot_bits();

        // Warp buffers: everything but `issue`, which depends on the decision below.
        let (mut ov, mut orep, mut okm, mut frdy) = (0u64, 0u64, 0u64, 0u64);
        self.slot_vec.fill(0);
        for v in 0..self.wbs.len() {
            let vals = [
                rst,
                if fill_warp == Some(v) { self.inp(I_FILL_COUNT) } else { 0 },
                0,
                self.inp(I_ISS_REPLAYABLE),
                self.inp(I_ISS_MASK),
                (cpl_warp == Some(v)) as u64,
                self.inp(I_CPL_SLOT),
                self.inp(I_CPL_MASK),
            ];
            let wb = &mut self.wbs[v];
            for (k, x) in vals.iter().enumerate() {
                wb.set_u64(self.wb.inp[k], *x);
            }
            wb.eval();
            let valid = wb.get_bool(self.wb.offer_valid);
            let replay = wb.get_bool(self.wb.offer_replay);
            let slot = wb.get_u64(self.wb.offer_slot) as usize;
            ov |= (valid as u64) << v;
            orep |= (replay as u64) << v;
            okm |= ((replay && self.km[v][slot]) as u64) << v;
            frdy |= ((wb.get_u64(self.wb.fill_free) >= self.p.fill_width as u64) as u64) << v;
            put_field(&mut self.slot_vec, v * sb as usize, sb, slot as u64);
        }

        // Tracker.
        let miss_issue_ok = match &mut self.tracker {
            Tracker::None => true,
            Tracker::Naive(t, r, a, o) => {
                if let Some(r) = r {
                    t.set_u64(*r, rst);
                }
                t.set_u64(*a, self.io.get_u64(self.i[I_MSHR_AVAIL]));
                t.eval();
                t.get_bool(*o)
            }
            Tracker::Credit(t) => {
                let vals = [
                    rst,
                    0,
                    self.io.get_u64(self.i[I_MEM_VALID]),
                    self.io.get_u64(self.i[I_MEM_CREDITED]),
                    self.io.get_u64(self.i[I_MEM_ALLOC]),
                    self.io.get_u64(self.i[I_MSHR_FREE]),
                ];
                for (k, x) in vals.iter().enumerate() {
                    t.set_u64(PortId(k as u32), *x);
                }
                t.eval();
                t.get_bool(PortId(6))
            }
        };

        // Predictor lookup for the picked warp's offer.
        let known = iss_warp.is_some_and(|w| okm >> w & 1 != 0);
        if let Some(r) = self.pred_rst {
            self.pred.set_u64(r, rst);
        }
        let pv = [
            self.inp(I_ISS_PC),
            known as u64,
            self.inp(I_MEM_VALID),
            self.inp(I_MEM_PC),
            self.inp(I_MEM_MISS),
        ];
        for (k, x) in pv.iter().enumerate() {
            self.pred.set_u64(self.pred_in[k], *x);
        }
        self.pred.eval();
        let need = self.inp(I_ISS_LOAD) & 1 != 0 && self.pred.get_bool(self.pred_in[5]);

        // Issue decision.
        let iss_ok = iss_warp.is_some_and(|w| ov >> w & 1 != 0) && (!need || miss_issue_ok);
        let credited = iss_ok && need && self.p.tracker == TrackerKind::Credit;
        let (mut iss_slot, mut iss_replay, mut iss_pam) = (0u64, false, 0u64);
        let mut first_issue = None;
        if let (true, Some(w)) = (iss_ok, iss_warp) {
            let wb = &mut self.wbs[w];
            wb.set_u64(self.wb.inp[2], 1);
            wb.eval();
            iss_slot = wb.get_u64(self.wb.offer_slot);
            iss_replay = wb.get_bool(self.wb.offer_replay);
            iss_pam = if iss_replay { wb.get_u64(self.wb.offer_pam) } else { self.inp(I_ISS_MASK) };
            if !iss_replay {
                first_issue = Some((w, iss_slot as usize));
            }
        }
        if let Tracker::Credit(t) = &mut self.tracker {
            t.set_u64(PortId(1), credited as u64);
            t.eval();
        }
        let cpl_accept = cpl_warp.is_some_and(|w| self.wbs[w].get_bool(self.wb.cpl_accept));
        let pool = match &self.tracker {
            Tracker::Credit(t) => t.get_u64(PortId(7)),
            _ => 0,
        };
        let fill_slot = fill_warp.map(|w| self.wbs[w].get_u64(self.wb.fill_ptr)).unwrap_or(0);
        self.decided = Decided {
            rst: rst & 1 != 0,
            first_issue,
            accepted_cpl: if cpl_accept {
                cpl_warp.map(|w| (w, self.inp(I_CPL_SLOT) as usize, self.inp(I_CPL_MISS) & 1 != 0))
            } else {
                None
            },
        };

        let o = self.o;
        let io = &mut self.io;
        io.set_u64(o[0], ov);
        io.set_u64(o[1], orep);
        io.set_u64(o[2], okm);
        io.set(o[3], &self.slot_vec);
        io.set_u64(o[4], frdy);
        io.set_u64(o[5], fill_slot);
        io.set_bool(o[6], miss_issue_ok);
        io.set_bool(o[7], iss_ok);
        io.set_u64(o[8], iss_slot);
        io.set_bool(o[9], iss_replay);
        io.set_u64(o[10], iss_pam & mask(self.p.simt_width));
        io.set_bool(o[11], need);
        io.set_bool(o[12], credited);
        io.set_bool(o[13], cpl_accept);
        io.set_u64(o[14], pool);
    }

    fn tick(&mut self) {
        let d = self.decided;
        if d.rst {
            for row in &mut self.km {
                row.fill(false);
            }
        } else {
            if let Some((w, s, miss)) = d.accepted_cpl {
                self.km[w][s] = miss;
            }
            if let Some((w, s)) = d.first_issue {
                self.km[w][s] = false;
            }
        }
        for wb in &mut self.wbs {
            wb.tick();
        }
        match &mut self.tracker {
            Tracker::None => {}
            Tracker::Naive(t, ..) => t.tick(),
            Tracker::Credit(t) => t.tick(),
        }
        self.pred.tick();
    }
}

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
/// that cycle (`iss_*` without `iss_valid`, `cpl_*` without `cpl_valid`, `mem_*` without
/// `mem_valid`, `fill_warp` without a fill, `iss_mask` / `iss_replayable` of a replay) and
/// out-of-range warp selectors when `warps` is not a power of two, so the recording also
/// checks that they are ignored.
pub struct ReplayUnitDriver {
    layout: Arc<InputLayout>,
    slots: Vec<Slot>,
    model: ReplayUnit,
    traffic: Traffic,
    ids: Vec<PortId>,
    count: u64,
    rng: ChaCha8Rng,
    p: ReplayUnitParams,
    noise: bool,
}

impl ReplayUnitDriver {
    pub fn new(p: &ReplayUnitParams, cfg: TrafficCfg) -> Self {
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.iter().map(|n| layout.expect(n)).collect();
        let model = ReplayUnit::new(p);
        let ids = INPUTS.iter().map(|n| model.io.id(n)).collect();
        let traffic = Traffic::new(p, cfg);
        let rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x5eed);
        ReplayUnitDriver { layout, slots, model, traffic, ids, count: 0, rng, p: p.clone(), noise: true }
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
        for (k, id) in self.ids.iter().enumerate() {
            frame.set_wide(self.slots[k], self.model.get(*id));
        }
        if reset || !self.noise || !self.rng.random_bool(0.3) {
            return;
        }
        let val = |f: &Frame, k: usize| f.get(self.slots[k])[0];
        let g = self.p.warp_bits();
        let out_of_range = (self.p.warps as u64) < (1u64 << g);
        let mut r = |k: usize| self.rng.random::<u64>() & mask(self.layout.ports()[k].width);
        if val(frame, I_ISS_VALID) == 0 {
            for k in [I_ISS_WARP, I_ISS_LOAD, I_ISS_REPLAYABLE, I_ISS_PC, I_ISS_MASK] {
                let v = r(k);
                frame.set(self.slots[k], v);
            }
            if out_of_range && v_bool(r(0)) {
                frame.set(self.slots[I_ISS_VALID], 1);
                frame.set(self.slots[I_ISS_WARP], self.p.warps as u64 + r(I_ISS_WARP) % ((1 << g) - self.p.warps as u64));
            }
        } else if self.model.get_u64(self.model.o[9]) & 1 != 0 {
            for k in [I_ISS_REPLAYABLE, I_ISS_MASK] {
                let v = r(k);
                frame.set(self.slots[k], v);
            }
        }
        if val(frame, I_CPL_VALID) == 0 {
            for k in [I_CPL_WARP, I_CPL_SLOT, I_CPL_MASK, I_CPL_MISS] {
                let v = r(k);
                frame.set(self.slots[k], v);
            }
            if out_of_range && v_bool(r(0)) {
                frame.set(self.slots[I_CPL_VALID], 1);
                frame.set(self.slots[I_CPL_WARP], self.p.warps as u64 + r(I_CPL_WARP) % ((1 << g) - self.p.warps as u64));
            }
        }
        if val(frame, I_MEM_VALID) == 0 {
            for k in [I_MEM_CREDITED, I_MEM_ALLOC, I_MEM_MISS, I_MEM_PC] {
                let v = r(k);
                frame.set(self.slots[k], v);
            }
        }
        if val(frame, I_FILL_COUNT) == 0 {
            let v = r(I_FILL_WARP);
            frame.set(self.slots[I_FILL_WARP], v);
            if out_of_range && v_bool(r(0)) {
                frame.set(self.slots[I_FILL_COUNT], 1 + r(I_FILL_COUNT) % self.p.slots as u64);
                frame.set(self.slots[I_FILL_WARP], self.p.warps as u64 + r(I_FILL_WARP) % ((1 << g) - self.p.warps as u64));
            }
        }
    }
}


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(ReplayUnit::new(&ReplayUnitParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(ReplayUnitDriver::new(&ReplayUnitParams::from_params(p)?, TrafficCfg { seed, ..TrafficCfg::default() }))),
};

/// Drive named inputs (others 0) for one cycle; the named outputs after `eval`.
fn drive(m: &mut dyn Component, ins: &[(&str, u64)], outs: &[&str]) -> Result<Vec<u64>, String> {
    for n in INPUTS {
        let id = m.input(n).map_err(|e| e.to_string())?;
        m.set_u64(id, 0);
    }
    for (n, v) in ins {
        let id = m.input(n).map_err(|e| e.to_string())?;
        m.set_u64(id, *v);
    }
    m.eval();
    let mut r = Vec::with_capacity(outs.len());
    for n in outs {
        r.push(m.get_u64(m.output(n).map_err(|e| e.to_string())?));
    }
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
    let outs = ["iss_ok", "iss_pred_miss", "iss_credited", "iss_replay", "iss_pam", "credit_pool", "offer_known_miss", "miss_issue_ok"];
    let load = |w: u64| vec![("iss_valid", 1), ("iss_warp", w), ("iss_load", 1), ("iss_replayable", 1), ("iss_pc", 10), ("iss_mask", 0xf)];
    let hazard = |w: u64| vec![("cpl_valid", 1), ("cpl_warp", w), ("cpl_slot", 0), ("cpl_mask", 0), ("cpl_miss", 1), ("mem_valid", 1), ("mem_miss", 1), ("mshr_avail", 0)];
    drive(m, &[("rst", 1)], &[])?;
    let r = drive(m, &[("fill_warp", 0), ("fill_count", 2)], &["fill_rdy", "fill_slot"])?;
    expect("fill warp 0", &r, &[0b11, 0])?;
    let mut i = load(0);
    i.extend([("fill_warp", 1), ("fill_count", 2)]);
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
    let alu = [("iss_valid", 1), ("iss_warp", 0), ("iss_mask", 0xf)];
    expect("warp 0 ALU", &drive(m, &alu, &outs)?[..4], &[1, 0, 0, 0])?;
    // Warp 0's credited load allocates: the credit stays with the MSHR.
    let alloc = [("cpl_valid", 1), ("cpl_warp", 0), ("cpl_slot", 0), ("cpl_mask", 0xf), ("mem_valid", 1), ("mem_credited", 1), ("mem_alloc", 1), ("mem_miss", 1)];
    expect("warp 0 allocates", &drive(m, &alloc, &["credit_pool", "cpl_accept"])?, &[0, 1])?;
    expect("still refused", &drive(m, &load(1), &["iss_ok"])?, &[0])?;
    // The MSHR frees: the credit returns and the replay issues, credited.
    drive(m, &[("mshr_free", 1)], &[])?;
    expect("warp 1 replay credited", &drive(m, &load(1), &outs)?, &[1, 1, 1, 1, 0xf, 1, 0b10, 1])
}

/// Parameters of [`out_of_range_scenario`]: three warps behind 2-bit selectors.
pub fn out_of_range_params() -> ReplayUnitParams {
    ReplayUnitParams { warps: 3, slots: 4, simt_width: 4, ..ReplayUnitParams::default() }
}

/// Warp selectors past `warps` select nothing (any engine, [`out_of_range_params`]).
pub fn out_of_range_scenario(m: &mut dyn Component) -> Result<(), String> {
    drive(m, &[("rst", 1)], &[])?;
    expect("fill warp 3", &drive(m, &[("fill_warp", 3), ("fill_count", 2)], &["fill_slot", "fill_rdy"])?, &[0, 0b111])?;
    expect("nothing filled", &drive(m, &[], &["offer_valid"])?, &[0])?;
    drive(m, &[("fill_warp", 2), ("fill_count", 2)], &[])?;
    expect("issue warp 3", &drive(m, &[("iss_valid", 1), ("iss_warp", 3)], &["iss_ok", "offer_valid"])?, &[0, 0b100])
}

#[cfg(test)]
mod tests {
    use super::*;
    use hw::blocks::replay::mshr_predictor::PredictorMode;

    #[test]
    fn ports_in_spec_order_with_widths() {
        let p = ReplayUnitParams::default();
        let ps = ports(&p);
        assert_eq!(ps.len(), 36);
        assert_eq!(ps[0].name, "rst");
        let w = |n: &str| ps.iter().find(|x| x.name == n).unwrap().width;
        assert_eq!((w("fill_warp"), w("offer_slot"), w("iss_pam"), w("credit_pool"), w("iss_pc")), (6, 192, 32, 7, 32));
    }

    #[test]
    fn known_miss_replay_waits_for_a_credit() {
        credit_scenario(&mut ReplayUnit::new(&credit_scenario_params())).unwrap();
    }

    /// The driver's noise only touches inputs the specification ignores: replaying the
    /// noisy and the clean recording gives the same state-derived outputs every cycle.
    #[test]
    fn driver_noise_is_dont_care() {
        for (warps, tracker) in [(6, TrackerKind::Credit), (5, TrackerKind::Naive), (3, TrackerKind::None)] {
            let p = ReplayUnitParams { warps, mshrs: 6, tracker, pred_mode: PredictorMode::Counter, delay: 2, ..ReplayUnitParams::default() };
            let cfg = TrafficCfg { mem_lat: 40, seed: warps as u64, ..TrafficCfg::default() };
            let noisy = crate::stimulus::Stimulus::record(&mut ReplayUnitDriver::new(&p, cfg), 3000);
            let clean = crate::stimulus::Stimulus::record(&mut ReplayUnitDriver::new(&p, cfg).with_noise(false), 3000);
            assert_ne!(noisy, clean);
            let (mut a, mut b) = (ReplayUnit::new(&p), ReplayUnit::new(&p));
            let watch = ["offer_valid", "offer_replay", "offer_known_miss", "offer_slot", "fill_rdy", "miss_issue_ok", "iss_ok", "iss_slot", "iss_credited", "cpl_accept", "credit_pool"];
            for c in 0..noisy.cycles() {
                for (m, st) in [(&mut a, &noisy), (&mut b, &clean)] {
                    m.set_inputs(st.cycle(c));
                    m.eval();
                }
                for n in watch {
                    let o = a.output(n).unwrap();
                    assert_eq!(a.get(o), b.get(o), "cycle {c}: {n} differs (warps {warps})");
                }
                a.tick();
                b.tick();
            }
        }
    }

    #[test]
    fn out_of_range_warps_select_nothing() {
        out_of_range_scenario(&mut ReplayUnit::new(&out_of_range_params())).unwrap();
    }
}
