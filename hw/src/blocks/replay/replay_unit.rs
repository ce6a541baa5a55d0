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
//! | `iss_flush`        | in  | 1     | with `iss_ok`: the picked warp's unissued instructions are discarded (it was redirected) |
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
//! `iss_mask`, `flush = iss_ok & v == w & iss_flush`, and the completion if `v == cpl_warp`. The tracker gets `iss_credited`,
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

use super::credit_tracker::{CreditTrackerParams, DELAY, MSHRS};
use super::mshr_predictor::{self, MshrPredictorParams, PredictorMode};
use super::naive_tracker::NaiveTrackerParams;
use super::warp_buffer::{WarpBufferParams, SIMT_WIDTH, SLOTS};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, mux, onehot, pick, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, ParamValue};
use crate::registry::{Block, StorageAccount, StorageDiff};
use crate::util::{and_or, gate, select_onehot};
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

impl ParamValue for TrackerKind {
    fn from_u64(v: u64) -> Option<Self> {
        TrackerKind::from_u32(u32::try_from(v).ok()?)
    }
    fn to_u64(&self) -> u64 {
        *self as u64
    }
}

crate::block_params! {
    /// Parameters of the replay unit: its sub-blocks' specs (the
    /// predictor's under `pred_*`) and the unit's own.
    pub struct ReplayUnitParams {
        warps: u32 = spec { 64, 1..=64, "warps per SM (one warp buffer each)", "thesis Table 4.2: 64" },
        slots: u32 = shared(SLOTS),
        simt_width: u32 = shared(SIMT_WIDTH),
        fill_width: u32 = spec {
            2, 1..=32,
            "free slots a warp needs for fill_rdy (at most slots)",
            "thesis section 5.3: fetch fills two at a time"
        },
        mshrs: u32 = shared(MSHRS),
        tracker: TrackerKind = spec { 2, 0..=2, "0 none, 1 naive, 2 credit", "thesis chapter 6: the credit tracker" },
        delay: u32 = shared(DELAY),
        pred_mode: PredictorMode = shared(mshr_predictor::MODE.renamed("pred_mode")),
        pred_entries: u32 = shared(mshr_predictor::ENTRIES.renamed("pred_entries")),
        pred_counter_bits: u32 = shared(mshr_predictor::COUNTER_BITS.renamed("pred_counter_bits")),
        pc_bits: u32 = shared(mshr_predictor::PC_BITS),
    }
    check = |p: &ReplayUnitParams| {
        super::warp_buffer::power_of_two_slots(p.slots)?;
        if p.fill_width > p.slots {
            return Err(format!("fill_width = {} exceeds slots = {}", p.fill_width, p.slots));
        }
        mshr_predictor::power_of_two_entries(p.pred_entries).map_err(|e| format!("pred_{e}"))
    };
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

/// The replay unit's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayUnitIo<H> {
    pub rst: H,
    pub fill_warp: H,
    pub fill_count: H,
    pub iss_valid: H,
    pub iss_warp: H,
    pub iss_load: H,
    pub iss_replayable: H,
    pub iss_pc: H,
    pub iss_mask: H,
    pub iss_flush: H,
    pub cpl_valid: H,
    pub cpl_warp: H,
    pub cpl_slot: H,
    pub cpl_mask: H,
    pub cpl_miss: H,
    pub mem_valid: H,
    pub mem_credited: H,
    pub mem_alloc: H,
    pub mem_miss: H,
    pub mem_pc: H,
    pub mshr_free: H,
    pub mshr_avail: H,
    pub offer_valid: H,
    pub offer_replay: H,
    pub offer_known_miss: H,
    pub offer_slot: H,
    pub fill_rdy: H,
    pub fill_slot: H,
    pub miss_issue_ok: H,
    pub iss_ok: H,
    pub iss_slot: H,
    pub iss_replay: H,
    pub iss_pam: H,
    pub iss_pred_miss: H,
    pub iss_credited: H,
    pub cpl_accept: H,
    pub credit_pool: H,
}

impl Interface for ReplayUnitParams {
    type Io<H> = ReplayUnitIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> ReplayUnitIo<B::H> {
        let wbp = self.warp_buffer();
        let (g, s, w, q, k) = (self.warp_bits(), wbp.slot_bits(), self.simt_width, self.pc_bits, self.warps);
        ReplayUnitIo {
            rst: b.reset(),
            fill_warp: b.input("fill_warp", g),
            fill_count: b.input("fill_count", wbp.count_bits()),
            iss_valid: b.input("iss_valid", 1),
            iss_warp: b.input("iss_warp", g),
            iss_load: b.input("iss_load", 1),
            iss_replayable: b.input("iss_replayable", 1),
            iss_pc: b.input("iss_pc", q),
            iss_mask: b.input("iss_mask", w),
            iss_flush: b.input("iss_flush", 1),
            cpl_valid: b.input("cpl_valid", 1),
            cpl_warp: b.input("cpl_warp", g),
            cpl_slot: b.input("cpl_slot", s),
            cpl_mask: b.input("cpl_mask", w),
            cpl_miss: b.input("cpl_miss", 1),
            mem_valid: b.input("mem_valid", 1),
            mem_credited: b.input("mem_credited", 1),
            mem_alloc: b.input("mem_alloc", 1),
            mem_miss: b.input("mem_miss", 1),
            mem_pc: b.input("mem_pc", q),
            mshr_free: b.input("mshr_free", 1),
            mshr_avail: b.input("mshr_avail", 1),
            offer_valid: b.output("offer_valid", k),
            offer_replay: b.output("offer_replay", k),
            offer_known_miss: b.output("offer_known_miss", k),
            offer_slot: b.output("offer_slot", k * s),
            fill_rdy: b.output("fill_rdy", k),
            fill_slot: b.output("fill_slot", s),
            miss_issue_ok: b.output("miss_issue_ok", 1),
            iss_ok: b.output("iss_ok", 1),
            iss_slot: b.output("iss_slot", s),
            iss_replay: b.output("iss_replay", 1),
            iss_pam: b.output("iss_pam", w),
            iss_pred_miss: b.output("iss_pred_miss", 1),
            iss_credited: b.output("iss_credited", 1),
            cpl_accept: b.output("cpl_accept", 1),
            credit_pool: b.output("credit_pool", self.credit().pool_bits()),
        }
    }
}

impl Block for ReplayUnitParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "replay unit: per-warp warp buffers, known-miss bits, MSHR-use predictor and MSHR tracker behind one issue port";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, chapters 5-6, Table 4.2";
    const COMPOSED: bool = true;

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        replay_unit(self, name)
    }

    /// The thesis's warp-buffer structure for every warp; no figure exists
    /// for the rest.
    fn storage(&self) -> StorageAccount {
        let wb = self.warp_buffer().storage();
        let w = self.warps as u64;
        let mut acc = StorageAccount {
            paper: vec![crate::registry::PaperFigure::new(
                format!("{w} warp buffers: V, R, PAM per slot and three slot pointers (sections 5.2.3-5.2.4)"),
                w * wb.paper_bits(),
            )],
            differences: wb
                .differences
                .into_iter()
                .map(|d| StorageDiff::new(d.bits * w as i64, format!("warp_buffer, x{w}: {}", d.reason)))
                .collect(),
        }
        .differs((w * self.slots as u64) as i64, "a known-miss bit per slot (no thesis figure)");
        let tracker = match self.tracker {
            TrackerKind::None => StorageAccount::default(),
            TrackerKind::Naive => self.naive().storage(),
            TrackerKind::Credit => self.credit().storage(),
        };
        for (sub, a) in [("tracker", tracker), ("predictor", self.predictor().storage())] {
            acc.differences.extend(a.differences.into_iter().map(|d| StorageDiff::new(d.bits, format!("{sub}: {}", d.reason))));
        }
        acc
    }
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
    let wb_mod = wbp.elaborate()?;
    let pp = p.predictor();
    let pred_mod = pp.elaborate()?;
    let tracker_mod = match p.tracker {
        TrackerKind::None => None,
        TrackerKind::Naive => Some(p.naive().elaborate()?),
        TrackerKind::Credit => Some(p.credit().elaborate()?),
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
    let k = p.warps;
    let io = p.decls();
    let fill_warp = m.port(&io.fill_warp);
    let fill_count = m.port(&io.fill_count);
    let iss_valid = m.port(&io.iss_valid);
    let iss_warp = m.port(&io.iss_warp);
    let iss_load = m.port(&io.iss_load);
    let iss_replayable = m.port(&io.iss_replayable);
    let iss_pc = m.port(&io.iss_pc);
    let iss_mask = m.port(&io.iss_mask);
    let iss_flush = m.port(&io.iss_flush);
    let cpl_valid = m.port(&io.cpl_valid);
    let cpl_warp = m.port(&io.cpl_warp);
    let cpl_slot = m.port(&io.cpl_slot);
    let cpl_mask = m.port(&io.cpl_mask);
    let cpl_miss = m.port(&io.cpl_miss);
    let mem_valid = m.port(&io.mem_valid);
    let mem_credited = m.port(&io.mem_credited);
    let mem_alloc = m.port(&io.mem_alloc);
    let mem_miss = m.port(&io.mem_miss);
    let mem_pc = m.port(&io.mem_pc);
    let mshr_free = m.port(&io.mshr_free);
    let mshr_avail = m.port(&io.mshr_avail);

    // The issue decision, used by the warp buffers before it is computed.
    let iss_ok = m.wire("iss_fire", 1);
    let known_miss = m.reg_array("known_miss", k, p.slots, 0);

    // The picked warp, one-hot (nothing for an out-of-range warp).
    let iss_hot: Vec<Sig> = (0..k).map(|v| iss_warp.eq(v as u64)).collect();
    let pins: Vec<WarpPins> = (0..k)
        .map(|v| {
            let u = m.instance(&format!("wb{v}"), &wb_mod).io(&wbp);
            u.fill_count.set(mux(fill_warp.eq(v as u64), fill_count, 0u64));
            u.issue.set(iss_ok & iss_hot[v as usize]);
            u.issue_replayable.set(iss_replayable);
            u.issue_mask.set(iss_mask);
            u.cpl_valid.set(cpl_valid & cpl_warp.eq(v as u64));
            u.cpl_slot.set(cpl_slot);
            u.cpl_mask.set(cpl_mask);
            u.flush.set(iss_ok & iss_hot[v as usize] & iss_flush);
            WarpPins {
                offer_valid: u.offer_valid.sig(),
                offer_slot: u.offer_slot.sig(),
                offer_replay: u.offer_replay.sig(),
                offer_pam: u.offer_pam.sig(),
                fill_free: u.fill_free.sig(),
                fill_ptr: u.fill_ptr.sig(),
                cpl_accept: u.cpl_accept.sig(),
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
    m.port(&io.offer_valid).set(offer_valid);
    m.port(&io.offer_replay).set(offer_replay);
    m.port(&io.offer_known_miss).set(offer_known);
    m.port(&io.offer_slot).set(vec_of(&|_, x| x.offer_slot));
    m.port(&io.fill_rdy).set(vec_of(&|_, x| x.fill_free.ge(p.fill_width as u64)));
    let fill_ptrs: Vec<Sig> = pins.iter().map(|x| x.fill_ptr).collect();
    m.port(&io.fill_slot).set(pick(fill_warp, &fill_ptrs));

    // The picked warp's offer (nothing for an out-of-range warp).
    let sel_valid = iss_valid & offer_valid.bit_at(iss_warp);
    let sel_replay = offer_replay.bit_at(iss_warp);
    let slots: Vec<Sig> = pins.iter().map(|x| x.offer_slot).collect();
    let pams: Vec<Sig> = pins.iter().map(|x| x.offer_pam).collect();
    let sel_slot = select_onehot(&iss_hot, &slots).named("sel_slot");
    let sel_pam = select_onehot(&iss_hot, &pams).named("sel_pam");
    let known = (iss_valid & offer_known.bit_at(iss_warp)).named("sel_known_miss");

    let pred = m.instance("predictor", &pred_mod).io(&pp);
    pred.pc.set(iss_pc);
    pred.known_miss.set(known);
    pred.upd_valid.set(mem_valid);
    pred.upd_pc.set(mem_pc);
    pred.upd_miss.set(mem_miss);
    let need = (iss_load & pred.pred_miss.sig()).named("need_mshr");

    let credited = m.wire("credited", 1);
    let (miss_ok, pool) = match (p.tracker, &tracker_mod) {
        (TrackerKind::Naive, Some(t)) => {
            let u = m.instance("tracker", t).io(&p.naive());
            u.mshr_avail.set(mshr_avail);
            (u.miss_issue_ok.sig(), lit(0, p.credit().pool_bits()))
        }
        (TrackerKind::Credit, Some(t)) => {
            let u = m.instance("tracker", t).io(&p.credit());
            u.iss_take.set(credited);
            u.mem_valid.set(mem_valid);
            u.mem_credited.set(mem_credited);
            u.mem_alloc.set(mem_alloc);
            u.mshr_free.set(mshr_free);
            (u.credit_avail.sig(), u.pool.sig())
        }
        _ => (lit(1, 1), lit(0, p.credit().pool_bits())),
    };
    iss_ok.set(sel_valid & (!need | miss_ok));
    credited.set(if p.tracker == TrackerKind::Credit { iss_ok & need } else { lit(0, 1) });

    m.port(&io.miss_issue_ok).set(miss_ok);
    m.port(&io.iss_ok).set(iss_ok);
    m.port(&io.iss_slot).set(gate(iss_ok, sel_slot));
    m.port(&io.iss_replay).set(iss_ok & sel_replay);
    m.port(&io.iss_pam).set(gate(iss_ok, and_or(sel_replay, sel_pam, iss_mask)));
    m.port(&io.iss_pred_miss).set(need);
    m.port(&io.iss_credited).set(credited);
    let cpl_accept = vec_of(&|_, x| x.cpl_accept).any().named("cpl_accept_any");
    m.port(&io.cpl_accept).set(cpl_accept);
    m.port(&io.credit_pool).set(pool);

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
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<ReplayUnitParams>();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{BlockParams, Params};

    #[test]
    fn default_storage() {
        let d = ReplayUnitParams::default();
        assert_eq!(d.storage().paper_bits(), 17984);
        assert_eq!(d.storage().expected_bits(), 18695);
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
