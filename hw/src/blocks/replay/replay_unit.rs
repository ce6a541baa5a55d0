//! `replay_unit` — replay and MSHR-hazard avoidance for one SM: a `warp_buffer` per warp,
//! a known-miss bit per warp-buffer slot, one `mshr_predictor` and one MSHR tracker
//! (`credit_tracker`, `naive_tracker` or none) behind a single issue port (Turner, MASc
//! thesis, UBC 2012, seed 004: chapters 5 and 6; defaults from Table 4.2).
//!
//! The scheduler (outside) sees every warp's offer, picks one warp per cycle and presents
//! that instruction's decoded class and PC; the unit answers in the same cycle whether it
//! issues. A load the predictor says will need an MSHR issues only when the tracker allows
//! it (§6: "a warp predicted to require an MSHR is not scheduled unless it can be given a
//! credit"). Memory-stage outcomes come back as a completion signal (to the warp buffer,
//! §5.2.4) and as MSHR events (to the tracker and the predictor's training).
//!
//! Simplification: one issue per cycle (one scheduler, one MEM unit, Table 4.2); the
//! thesis's two schedulers over even/odd warps would each need a tracker `take` port.
//!
//! # Parameters
//!
//! | name                | default | range         | meaning |
//! |---------------------|---------|---------------|---------|
//! | `warps`             | 64      | 1..=64        | warps per SM (Table 4.2) |
//! | `slots`             | 8       | 2..=32, 2^k   | warp-buffer slots per warp (Table 4.2) |
//! | `simt_width`        | 32      | 1..=64        | threads per warp |
//! | `fill_width`        | 2       | 1..=slots     | free slots a warp needs before `fill_rdy` (the thesis's fetch fills two at a time, §5.3) |
//! | `mshrs`             | 32      | 1..=1024      | L1D MSHRs = credits (Table 4.2) |
//! | `tracker`           | 2       | 0..=2         | 0 none (replay only), 1 naive, 2 credit (the thesis's best, §8) |
//! | `delay`             | 0       | 0..=16        | memory-stage to issue-stage signalling delay of the tracker |
//! | `pred_mode`         | 0       | 0..=2         | predictor: 0 always-hit, 1 always-miss, 2 per-PC counters |
//! | `pred_entries`      | 256     | 1..=4096, 2^k | counter table entries (mode 2) |
//! | `pred_counter_bits` | 2       | 1..=8         | counter bits (mode 2) |
//! | `pc_bits`           | 32      | 1..=64        | PC width |
//!
//! Notation: `G = clog2(warps)`, `S = clog2(slots)`, `C = clog2(slots+1)`, `W = simt_width`,
//! `Q = pc_bits`, `P = clog2(mshrs+1) + 1`, `K = warps`.
//!
//! # Ports
//!
//! | port               | dir | width | meaning |
//! |--------------------|-----|-------|---------|
//! | `rst`              | in  | 1     | synchronous active-high reset (all sub-blocks) |
//! | `fill_warp`        | in  | G     | warp fetch fills this cycle |
//! | `fill_count`       | in  | C     | instructions written at its fill pointer (0 = none) |
//! | `iss_valid`        | in  | 1     | the scheduler picks warp `iss_warp` |
//! | `iss_warp`         | in  | G     | the picked warp |
//! | `iss_load`         | in  | 1     | its offered instruction is a load that can need an MSHR (global/local/const/tex) |
//! | `iss_replayable`   | in  | 1     | first issue: the instruction is replayable (a memory instruction) |
//! | `iss_pc`           | in  | Q     | its PC (predictor lookup) |
//! | `iss_mask`         | in  | W     | first issue: the warp's active mask |
//! | `cpl_valid`        | in  | 1     | memory-stage completion signal |
//! | `cpl_warp`         | in  | G     | its warp |
//! | `cpl_slot`         | in  | S     | its warp-buffer slot |
//! | `cpl_mask`         | in  | W     | threads that completed |
//! | `cpl_miss`         | in  | 1     | the remaining threads were squashed for MSHR, COMQ or RSV (known to miss) |
//! | `mem_valid`        | in  | 1     | a load was resolved at the memory stage |
//! | `mem_credited`     | in  | 1     | it carried a credit (`iss_credited` when it issued) |
//! | `mem_alloc`        | in  | 1     | it allocated a new MSHR |
//! | `mem_miss`         | in  | 1     | it missed in the L1 (predictor training) |
//! | `mem_pc`           | in  | Q     | its PC (predictor training) |
//! | `mshr_free`        | in  | 1     | an MSHR was freed this cycle |
//! | `mshr_avail`       | in  | 1     | the MSHR table currently has a free entry (naive tracker) |
//! | `offer_valid`      | out | K     | bit w: warp w offers an instruction |
//! | `offer_replay`     | out | K     | bit w: the offer is a replay |
//! | `offer_known_miss` | out | K     | bit w: the offer is a replay known to miss |
//! | `offer_slot`       | out | K*S   | bits [w*S, (w+1)*S): slot of warp w's offer (payload read address) |
//! | `fill_rdy`         | out | K     | bit w: warp w has at least `fill_width` free slots |
//! | `fill_slot`        | out | S     | fill pointer of `fill_warp` (payload write address; 0 if out of range) |
//! | `miss_issue_ok`    | out | 1     | the tracker lets a load predicted to miss issue (1 without tracker) |
//! | `iss_ok`           | out | 1     | the picked instruction issues this cycle |
//! | `iss_slot`         | out | S     | its slot (0 unless `iss_ok`) |
//! | `iss_replay`       | out | 1     | it is a replay (0 unless `iss_ok`) |
//! | `iss_pam`          | out | W     | the threads it executes: the PAM for a replay, `iss_mask` for a first issue (0 unless `iss_ok`) |
//! | `iss_pred_miss`    | out | 1     | `iss_load` and the predictor says it needs an MSHR |
//! | `iss_credited`     | out | 1     | it issues holding a credit (credit tracker only) |
//! | `cpl_accept`       | out | 1     | the completion was legal and applied |
//! | `credit_pool`      | out | P     | credit pool, two's complement (0 unless `tracker = 2`) |
//!
//! # Cycle semantics
//!
//! Combinational (`w = iss_warp`, `offer_*[w]` from warp buffer `w`'s registers):
//! * `known = offer_replay[w] & km[w][offer_slot[w]]`; the predictor looks up
//!   `(iss_pc, known)`; `need = iss_load & pred_miss`.
//! * `miss_issue_ok` = 1 (tracker 0), the naive tracker's output (1), or `credit_avail` (2).
//! * `iss_ok = iss_valid & w < warps & offer_valid[w] & (!need | miss_issue_ok)`.
//!   A refused pick wastes the issue cycle; for modes 0 and 1 the scheduler can avoid it
//!   from `offer_known_miss` and `miss_issue_ok`, for mode 2 it cannot (one lookup port).
//! * `iss_credited = iss_ok & need & tracker == credit` (the credit tracker's `iss_take`).
//!
//! Routing (at the rising edge, through the sub-blocks' own semantics): warp buffer `v` gets
//! `fill_count` if `v == fill_warp`, `issue = iss_ok & v == w` with `iss_replayable` and
//! `iss_mask`, and the completion if `v == cpl_warp`. The tracker gets `iss_credited`,
//! `mem_valid/mem_credited/mem_alloc/mshr_free` (credit) or `mshr_avail` (naive); the
//! predictor trains on `(mem_valid, mem_pc, mem_miss)`. The known-miss bit `km[v][s]` is
//! set to `cpl_miss` by an accepted completion and cleared by the first issue of slot `s`
//! (the two never name the same slot in one cycle). Out-of-range `fill_warp`, `iss_warp`
//! or `cpl_warp` (non-power-of-two `warps`) select nothing. Reset: every sub-block reset,
//! `km` = 0.
//!
//! # Storage
//!
//! `warps * (warp_buffer + slots)` + tracker + predictor = 64 * (284 + 8) + 7 + 0 =
//! **18695 bits** at the defaults. `paper_storage` counts the thesis's warp-buffer structure
//! only (64 * 281 = 17984). The difference, 711 bits: 64 * 3 = 192 pointer wrap bits (see
//! `warp_buffer`), the 64 x 8 = 512 known-miss bits, and the credit tracker's 7-bit pool;
//! the thesis gives no figure for the known-miss record, the tracker ("a few bits",
//! §7.2.4) or the predictor table (none at the default always-hit mode).
//!
//! # Hardware
//!
//! A real hierarchy: instances `wb0 .. wb{warps-1}` of the `warp_buffer` module, `predictor`
//! (`mshr_predictor`) and `tracker` (`credit_tracker` or `naive_tracker`; absent with
//! `tracker = 0`), each generated by its own block generator with the unit's parameters.
//! The unit adds the `known_miss` register array (`warps` x `slots`, one read port per warp
//! for `offer_known_miss`, two read-modify-write ports) and the issue decision. The picked
//! warp's slot and mask are selected with AND-OR logic over a one-hot decode of `iss_warp`
//! (see `gate` in the family module: it keeps yosys's `share` pass from trying every pair
//! of the 64 warp buffers' shifters, which took 91% of a 260 s synthesis). Generic yosys
//! `synth` of the default unit takes about 100 s on this machine (about 147k cells, 18,695
//! flip-flops); the test suite's coarse flow about 25 s.

use super::credit_tracker::{self, CreditTrackerParams};
use super::mshr_predictor::{self, MshrPredictorParams, PredictorMode};
use super::naive_tracker::{self, NaiveTrackerParams};
use super::warp_buffer::{self, WarpBufferParams};
use super::{and_or, gate, select_onehot, typed_module_name};
use crate::ir::{cat, lit, mux, onehot, pick, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "replay_unit";

/// Which MSHR tracker the unit builds (the `tracker` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackerKind {
    /// No hazard avoidance: loads predicted to miss always issue (plain replay).
    None = 0,
    /// Naive tracker.
    Naive = 1,
    /// Credit tracker.
    Credit = 2,
}

impl TrackerKind {
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(TrackerKind::None),
            1 => Some(TrackerKind::Naive),
            2 => Some(TrackerKind::Credit),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TrackerKind::None => "none",
            TrackerKind::Naive => "naive",
            TrackerKind::Credit => "credit",
        }
    }
}

/// Parameters of the replay unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayUnitParams {
    pub warps: u32,
    pub slots: u32,
    pub simt_width: u32,
    pub fill_width: u32,
    pub mshrs: u32,
    pub tracker: TrackerKind,
    pub delay: u32,
    pub pred_mode: PredictorMode,
    pub pred_entries: u32,
    pub pred_counter_bits: u32,
    pub pc_bits: u32,
}

impl Default for ReplayUnitParams {
    fn default() -> Self {
        ReplayUnitParams {
            warps: 64,
            slots: 8,
            simt_width: 32,
            fill_width: 2,
            mshrs: 32,
            tracker: TrackerKind::Credit,
            delay: 0,
            pred_mode: PredictorMode::AlwaysHit,
            pred_entries: 256,
            pred_counter_bits: 2,
            pc_bits: 32,
        }
    }
}

impl BlockParams for ReplayUnitParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 64, min: 1, max: 64, doc: "warps per SM (thesis Table 4.2: 64)" },
        ParamSpec { name: "slots", default: 8, min: 2, max: 32, doc: "warp-buffer slots per warp, a power of two (Table 4.2: 8)" },
        ParamSpec { name: "simt_width", default: 32, min: 1, max: 64, doc: "threads per warp" },
        ParamSpec { name: "fill_width", default: 2, min: 1, max: 32, doc: "free slots needed for fill_rdy (thesis fetch fills 2)" },
        ParamSpec { name: "mshrs", default: 32, min: 1, max: 1024, doc: "L1D MSHRs = credits (Table 4.2: 32)" },
        ParamSpec { name: "tracker", default: 2, min: 0, max: 2, doc: "0 none, 1 naive, 2 credit" },
        ParamSpec { name: "delay", default: 0, min: 0, max: 16, doc: "tracker signalling delay (thesis: 0)" },
        ParamSpec { name: "pred_mode", default: 0, min: 0, max: 2, doc: "0 always-hit, 1 always-miss, 2 per-PC counters" },
        ParamSpec { name: "pred_entries", default: 256, min: 1, max: 4096, doc: "predictor counters, a power of two" },
        ParamSpec { name: "pred_counter_bits", default: 2, min: 1, max: 8, doc: "bits per predictor counter" },
        ParamSpec { name: "pc_bits", default: 32, min: 1, max: 64, doc: "PC width" },
    ];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let slots = p.get_u32("slots");
        if !slots.is_power_of_two() {
            return Err(p.invalid(format!("slots = {slots} must be a power of two")));
        }
        let fill_width = p.get_u32("fill_width");
        if fill_width > slots {
            return Err(p.invalid(format!("fill_width = {fill_width} exceeds slots = {slots}")));
        }
        let pred_entries = p.get_u32("pred_entries");
        if !pred_entries.is_power_of_two() {
            return Err(p.invalid(format!("pred_entries = {pred_entries} must be a power of two")));
        }
        let tracker = TrackerKind::from_u32(p.get_u32("tracker")).ok_or_else(|| p.invalid("tracker must be 0, 1 or 2"))?;
        let pred_mode =
            PredictorMode::from_u32(p.get_u32("pred_mode")).ok_or_else(|| p.invalid("pred_mode must be 0, 1 or 2"))?;
        Ok(ReplayUnitParams {
            warps: p.get_u32("warps"),
            slots,
            simt_width: p.get_u32("simt_width"),
            fill_width,
            mshrs: p.get_u32("mshrs"),
            tracker,
            delay: p.get_u32("delay"),
            pred_mode,
            pred_entries,
            pred_counter_bits: p.get_u32("pred_counter_bits"),
            pc_bits: p.get_u32("pc_bits"),
        })
    }
}

impl ReplayUnitParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    pub fn warp_buffer(&self) -> WarpBufferParams {
        WarpBufferParams { slots: self.slots, simt_width: self.simt_width }
    }
    pub fn credit(&self) -> CreditTrackerParams {
        CreditTrackerParams { mshrs: self.mshrs, delay: self.delay }
    }
    pub fn naive(&self) -> NaiveTrackerParams {
        NaiveTrackerParams { delay: self.delay }
    }
    pub fn predictor(&self) -> MshrPredictorParams {
        MshrPredictorParams {
            mode: self.pred_mode,
            entries: self.pred_entries,
            counter_bits: self.pred_counter_bits,
            pc_bits: self.pc_bits,
        }
    }
}

/// Flip-flops (and memory bits) of the hardware.
pub fn storage_bits(p: &ReplayUnitParams) -> u64 {
    let per_warp = warp_buffer::storage_bits(&p.warp_buffer()) + p.slots as u64;
    let tracker = match p.tracker {
        TrackerKind::None => 0,
        TrackerKind::Naive => naive_tracker::storage_bits(&p.naive()),
        TrackerKind::Credit => credit_tracker::storage_bits(&p.credit()),
    };
    p.warps as u64 * per_warp + tracker + mshr_predictor::storage_bits(&p.predictor())
}

/// The thesis's warp-buffer structure for every warp (no figure exists for the rest).
pub fn paper_storage_bits(p: &ReplayUnitParams) -> u64 {
    p.warps as u64 * warp_buffer::paper_storage_bits(&p.warp_buffer())
}

/// Module name for a parameter set (`replay_unit` at the defaults).
pub fn module_name(p: &ReplayUnitParams) -> String {
    let v = [
        p.warps,
        p.slots,
        p.simt_width,
        p.fill_width,
        p.mshrs,
        p.tracker as u32,
        p.delay,
        p.pred_mode as u32,
        p.pred_entries,
        p.pred_counter_bits,
        p.pc_bits,
    ]
    .map(|x| x as u64);
    typed_module_name(NAME, ReplayUnitParams::SPECS, &v)
}

/// Outputs of one warp buffer instance that the unit uses.
struct WarpPins {
    offer_valid: Sig,
    offer_slot: Sig,
    offer_replay: Sig,
    offer_pam: Sig,
    fill_free: Sig,
    fill_ptr: Sig,
    cpl_accept: Sig,
}

/// Generate the replay unit: `warps` instances of `warp_buffer`, one `mshr_predictor`,
/// one `credit_tracker` or `naive_tracker` (or none), the known-miss bits and the issue
/// decision.
pub fn replay_unit(p: &ReplayUnitParams, name: &str) -> Result<Arc<Module>, HwError> {
    let wbp = p.warp_buffer();
    let wb_mod = warp_buffer::warp_buffer(&wbp, &warp_buffer::module_name(&wbp))?;
    let pp = p.predictor();
    let pred_mod = mshr_predictor::mshr_predictor(&pp, &mshr_predictor::module_name(&pp))?;
    let tracker_mod = match p.tracker {
        TrackerKind::None => None,
        TrackerKind::Naive => Some(naive_tracker::naive_tracker(&p.naive(), &naive_tracker::module_name(&p.naive()))?),
        TrackerKind::Credit => Some(credit_tracker::credit_tracker(&p.credit(), &credit_tracker::module_name(&p.credit()))?),
    };

    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Replay unit (Turner, MASc thesis, UBC 2012, chapters 5-6): {} warp buffers of {} slots, a known-miss bit per \
         slot, the {} MSHR-use predictor and {} MSHR tracker ({} MSHRs, delay {}), one issue per cycle.",
        p.warps,
        p.slots,
        p.pred_mode.name(),
        p.tracker.name(),
        p.mshrs,
        p.delay
    ));
    let (g, s, w, q, k) = (p.warp_bits(), wbp.slot_bits(), p.simt_width, p.pc_bits, p.warps);
    let fill_warp = m.input("fill_warp", g);
    let fill_count = m.input("fill_count", wbp.count_bits());
    let iss_valid = m.input("iss_valid", 1);
    let iss_warp = m.input("iss_warp", g);
    let iss_load = m.input("iss_load", 1);
    let iss_replayable = m.input("iss_replayable", 1);
    let iss_pc = m.input("iss_pc", q);
    let iss_mask = m.input("iss_mask", w);
    let cpl_valid = m.input("cpl_valid", 1);
    let cpl_warp = m.input("cpl_warp", g);
    let cpl_slot = m.input("cpl_slot", s);
    let cpl_mask = m.input("cpl_mask", w);
    let cpl_miss = m.input("cpl_miss", 1);
    let mem_valid = m.input("mem_valid", 1);
    let mem_credited = m.input("mem_credited", 1);
    let mem_alloc = m.input("mem_alloc", 1);
    let mem_miss = m.input("mem_miss", 1);
    let mem_pc = m.input("mem_pc", q);
    let mshr_free = m.input("mshr_free", 1);
    let mshr_avail = m.input("mshr_avail", 1);

    // The issue decision, used by the warp buffers before it is computed.
    let iss_ok = m.wire("iss_fire", 1);
    let known_miss = m.reg_array("known_miss", k, p.slots, 0);

    // The picked warp, one-hot (nothing for an out-of-range warp).
    let iss_hot: Vec<Sig> = (0..k).map(|v| iss_warp.eq(v as u64)).collect();
    let pins: Vec<WarpPins> = (0..k)
        .map(|v| {
            let u = m.instance(&format!("wb{v}"), &wb_mod);
            u.connect("fill_count", mux(fill_warp.eq(v as u64), fill_count, 0u64));
            u.connect("issue", iss_ok & iss_hot[v as usize]);
            u.connect("issue_replayable", iss_replayable);
            u.connect("issue_mask", iss_mask);
            u.connect("cpl_valid", cpl_valid & cpl_warp.eq(v as u64));
            u.connect("cpl_slot", cpl_slot);
            u.connect("cpl_mask", cpl_mask);
            WarpPins {
                offer_valid: u.output("offer_valid"),
                offer_slot: u.output("offer_slot"),
                offer_replay: u.output("offer_replay"),
                offer_pam: u.output("offer_pam"),
                fill_free: u.output("fill_free"),
                fill_ptr: u.output("fill_ptr"),
                cpl_accept: u.output("cpl_accept"),
            }
        })
        .collect();
    // Per-warp vectors, warp 0 in bit 0 (cat takes the most significant part first).
    let vec_of = |f: &dyn Fn(usize, &WarpPins) -> Sig| -> Sig {
        let parts: Vec<Sig> = pins.iter().enumerate().rev().map(|(v, x)| f(v, x)).collect();
        cat(&parts)
    };
    let offer_valid = vec_of(&|_, x| x.offer_valid).named("offer_valid_vec");
    let offer_replay = vec_of(&|_, x| x.offer_replay).named("offer_replay_vec");
    let offer_known =
        vec_of(&|v, x| x.offer_replay & known_miss.at(v as u32).bit_at(x.offer_slot)).named("offer_known_miss_vec");
    m.output("offer_valid", k).set(offer_valid);
    m.output("offer_replay", k).set(offer_replay);
    m.output("offer_known_miss", k).set(offer_known);
    m.output("offer_slot", k * s).set(vec_of(&|_, x| x.offer_slot));
    m.output("fill_rdy", k).set(vec_of(&|_, x| x.fill_free.ge(p.fill_width as u64)));
    let fill_ptrs: Vec<Sig> = pins.iter().map(|x| x.fill_ptr).collect();
    m.output("fill_slot", s).set(pick(fill_warp, &fill_ptrs));

    // The picked warp's offer (nothing for an out-of-range warp).
    let sel_valid = iss_valid & offer_valid.bit_at(iss_warp);
    let sel_replay = offer_replay.bit_at(iss_warp);
    let slots: Vec<Sig> = pins.iter().map(|x| x.offer_slot).collect();
    let pams: Vec<Sig> = pins.iter().map(|x| x.offer_pam).collect();
    let sel_slot = select_onehot(&iss_hot, &slots).named("sel_slot");
    let sel_pam = select_onehot(&iss_hot, &pams).named("sel_pam");
    let known = (iss_valid & offer_known.bit_at(iss_warp)).named("sel_known_miss");

    let pred = m.instance("predictor", &pred_mod);
    pred.connect("pc", iss_pc);
    pred.connect("known_miss", known);
    pred.connect("upd_valid", mem_valid);
    pred.connect("upd_pc", mem_pc);
    pred.connect("upd_miss", mem_miss);
    let need = (iss_load & pred.output("pred_miss")).named("need_mshr");

    let credited = m.wire("credited", 1);
    let (miss_ok, pool) = match (p.tracker, &tracker_mod) {
        (TrackerKind::Naive, Some(t)) => {
            let u = m.instance("tracker", t);
            u.connect("mshr_avail", mshr_avail);
            (u.output("miss_issue_ok"), lit(0, p.credit().pool_bits()))
        }
        (TrackerKind::Credit, Some(t)) => {
            let u = m.instance("tracker", t);
            u.connect("iss_take", credited);
            u.connect("mem_valid", mem_valid);
            u.connect("mem_credited", mem_credited);
            u.connect("mem_alloc", mem_alloc);
            u.connect("mshr_free", mshr_free);
            (u.output("credit_avail"), u.output("pool"))
        }
        _ => (lit(1, 1), lit(0, p.credit().pool_bits())),
    };
    iss_ok.set(sel_valid & (!need | miss_ok));
    credited.set(if p.tracker == TrackerKind::Credit { iss_ok & need } else { lit(0, 1) });

    m.output("miss_issue_ok", 1).set(miss_ok);
    m.output("iss_ok", 1).set(iss_ok);
    m.output("iss_slot", s).set(gate(iss_ok, sel_slot));
    m.output("iss_replay", 1).set(iss_ok & sel_replay);
    m.output("iss_pam", w).set(gate(iss_ok, and_or(sel_replay, sel_pam, iss_mask)));
    m.output("iss_pred_miss", 1).set(need);
    m.output("iss_credited", 1).set(credited);
    let cpl_accept = vec_of(&|_, x| x.cpl_accept).any().named("cpl_accept_any");
    m.output("cpl_accept", 1).set(cpl_accept);
    m.output("credit_pool", p.credit().pool_bits()).set(pool);

    // Known-miss bits: an accepted completion records `cpl_miss` for its slot, the first
    // issue of a slot clears it; both may touch one warp's row (different slots), so each
    // write port writes the row with both changes.
    let first_issue = iss_ok & !sel_replay;
    let row_next = |warp: Sig| -> Sig {
        let by_cpl = cpl_accept & warp.eq(cpl_warp);
        let by_iss = first_issue & warp.eq(iss_warp);
        let cpl_bit = onehot(cpl_slot, p.slots);
        let clear = gate(by_cpl, cpl_bit) | gate(by_iss, onehot(sel_slot, p.slots));
        (known_miss.read(warp) & !clear) | gate(by_cpl & cpl_miss, cpl_bit)
    };
    known_miss.write(cpl_warp, row_next(cpl_warp), cpl_accept);
    known_miss.write(iss_warp, row_next(iss_warp), first_issue);
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = ReplayUnitParams::from_params(params)?;
    Ok(replay_unit(&p, &module_name(&p))?)
}

fn paper_storage(params: &Params) -> Vec<PaperFigure> {
    match ReplayUnitParams::from_params(params) {
        Ok(p) => vec![PaperFigure::new(
            format!("{} warp buffers: V, R, PAM per slot and three slot pointers (sections 5.2.3-5.2.4)", p.warps),
            paper_storage_bits(&p),
        )],
        Err(_) => Vec::new(),
    }
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: NAME,
    summary: "replay unit: per-warp warp buffers, known-miss bits, MSHR-use predictor and MSHR tracker behind one issue port",
    source: "Turner, MASc thesis, UBC 2012, chapters 5-6, Table 4.2",
    params: ReplayUnitParams::SPECS,
    build,
    paper_storage,
    composed: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs_and_storage() {
        let p = Params::resolve(NAME, ReplayUnitParams::SPECS, &[]).unwrap();
        let d = ReplayUnitParams::from_params(&p).unwrap();
        assert_eq!(d, ReplayUnitParams::default());
        assert_eq!(storage_bits(&d), 18695);
        assert_eq!(paper_storage_bits(&d), 17984);
    }

    #[test]
    fn cross_checks() {
        let bad = |k: &str, v: &str| {
            let p = Params::resolve(NAME, ReplayUnitParams::SPECS, &[(k.into(), v.into())]).unwrap();
            ReplayUnitParams::from_params(&p).is_err()
        };
        assert!(bad("slots", "12"));
        assert!(bad("fill_width", "9"));
        assert!(bad("pred_entries", "3"));
    }
}
