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
//! only (64 * 281 = 17984): the thesis gives no figure for the known-miss record, the
//! tracker ("a few bits", §7.2.4) or the predictor table.

use super::credit_tracker::{self, CreditTrackerParams};
use super::mshr_predictor::{self, MshrPredictorParams, PredictorMode};
use super::naive_tracker::{self, NaiveTrackerParams};
use super::warp_buffer::{self, WarpBufferParams};
use crate::params::{clog2, BlockParams, ParamError, ParamSpec, Params};

/// Block name.
pub const BLOCK: &str = "replay_unit";

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
pub fn paper_storage(p: &ReplayUnitParams) -> u64 {
    p.warps as u64 * warp_buffer::paper_storage(&p.warp_buffer())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs_and_storage() {
        let p = Params::resolve(BLOCK, ReplayUnitParams::SPECS, &[]).unwrap();
        let d = ReplayUnitParams::from_params(&p).unwrap();
        assert_eq!(d, ReplayUnitParams::default());
        assert_eq!(storage_bits(&d), 18695);
        assert_eq!(paper_storage(&d), 17984);
    }

    #[test]
    fn cross_checks() {
        let bad = |k: &str, v: &str| {
            let p = Params::resolve(BLOCK, ReplayUnitParams::SPECS, &[(k.into(), v.into())]).unwrap();
            ReplayUnitParams::from_params(&p).is_err()
        };
        assert!(bad("slots", "12"));
        assert!(bad("fill_width", "9"));
        assert!(bad("pred_entries", "3"));
    }
}
