//! `warp_buffer` — the replay warp buffer of ONE warp (Turner, MASc thesis, UBC 2012,
//! seed 004: §5.2.3 "Scheduling and Front End", §5.2.4 "Replay with Threads", §5.3 and
//! Figure 5.4 "Example of Warp Buffer replay operation"; slot count from Table 4.2
//! "Per Warp Instruction Buffer Size 8").
//!
//! The buffer tracks the status of the warp's instruction slots; the instruction payload
//! (opcode, registers, PC) lives in a separate per-warp memory written by fetch at
//! `fill_ptr` and read by the scheduler at `offer_slot` (the thesis calls both "the warp
//! buffer"; only the replay state is this block). `replay_unit` instantiates one per warp.
//!
//! # Parameters
//!
//! | name         | default | range          | meaning |
//! |--------------|---------|----------------|---------|
//! | `slots`      | 8       | 2..=32, 2^k    | instruction slots per warp (Table 4.2) |
//! | `simt_width` | 32      | 1..=64         | threads per warp = bits of a private active mask (Figure 5.4 uses 4) |
//!
//! Notation: `N = slots`, `W = simt_width`, `S = clog2(N)`, `C = clog2(N + 1)`.
//!
//! # Ports
//!
//! | port               | dir | width | meaning |
//! |--------------------|-----|-------|---------|
//! | `rst`              | in  | 1     | synchronous active-high reset |
//! | `fill_count`       | in  | C     | fetch writes this many instructions at `fill_ptr` (0 = no fill) |
//! | `issue`            | in  | 1     | the scheduler issues the offered instruction this cycle |
//! | `issue_replayable` | in  | 1     | first issue only: the instruction may replay (memory instruction) and is retained |
//! | `issue_mask`       | in  | W     | first issue only: the warp's current active mask (becomes the private active mask) |
//! | `cpl_valid`        | in  | 1     | a completion signal from the memory-stage checkpoint arrives |
//! | `cpl_slot`         | in  | S     | slot of the completing instruction |
//! | `cpl_mask`         | in  | W     | threads known to complete (0 = none completed, all must replay) |
//! | `flush`            | in  | 1     | discard the unissued instructions (after this cycle's issue): the warp was redirected |
//! | `offer_valid`      | out | 1     | an instruction is presented to the scheduler |
//! | `offer_slot`       | out | S     | its slot (0 when `offer_valid` = 0) |
//! | `offer_replay`     | out | 1     | it is a replay of a retained instruction (0: first issue at the issue pointer) |
//! | `offer_pam`        | out | W     | its private active mask (0 for a first issue and when nothing is offered) |
//! | `fill_free`        | out | C     | slots fetch may fill now (0..=N): from `fill_ptr` up to and including `issue_tail_ptr` |
//! | `fill_ptr`         | out | S     | FP: next slot to fill |
//! | `issue_ptr`        | out | S     | IP: next slot to issue for the first time |
//! | `issue_tail_ptr`   | out | S     | ITP: the slot before the oldest retained (replayable, not completed) instruction, or before IP if there is none |
//! | `cpl_accept`       | out | 1     | the completion this cycle is legal and applied |
//! | `slot_valid`       | out | N     | bit i: slot i holds an instruction (V) |
//! | `slot_rdy`         | out | N     | bit i: slot i is ready to be replayed (R) |
//! | `slot_pam`         | out | N*W   | bits [i*W, (i+1)*W): private active mask of slot i (thread t = bit t) |
//!
//! `slot_valid` / `slot_rdy` / `slot_pam` expose the state for golden tests and waves; they
//! are wires only (no storage) and `replay_unit` leaves them unconnected.
//!
//! # State (all registers, synchronous reset)
//!
//! Per slot: `V`, `R` and the `W`-bit private active mask `PAM`. Three pointers `IP`, `FP`
//! and `ITP`, each `S + 1` bits: the low `S` bits are the slot, the top bit is a wrap bit
//! (position modulo `2N`, the textbook FIFO trick). Write `TP = ITP + 1` (the oldest
//! retained instruction, or IP when none is retained). Program order in the ring is
//! `TP ..< IP` issued region (retained instructions and freed holes), `IP ..< FP` filled but
//! not yet issued, `FP ..= ITP` free. Sizes, all in 0..=N, modulo 2N: `issued = IP - TP`,
//! `unissued = FP - IP`, `fill_free = N - (FP - TP)`.
//!
//! Reset: all `V`, `R`, `PAM` = 0, `IP = FP = 0`, `ITP = 2N - 1` (slot N-1, i.e. before IP).
//!
//! Invariants: a slot with `V = 0` has `R = 0` and `PAM = 0`; unissued slots have `V = 1`,
//! `R = 0`, `PAM = 0`; `R = 1` only on retained (issued, valid) slots; the slot at `TP` is
//! valid whenever `TP != IP`.
//!
//! # Cycle semantics
//!
//! Combinational, from the registers only (except `cpl_accept`):
//! * **Offer** (§5.2.3 "the selection logic for that warp only presents the oldest replay
//!   signaled instruction"): if any `R` is set, the first slot with `R = 1` scanning the
//!   ring from `TP` (oldest first) is offered with `offer_replay = 1` and its `PAM`. Else,
//!   if `unissued > 0`, slot `IP` is offered for its first issue. Else nothing. A completion
//!   arriving this cycle affects the offer from the next cycle on ("presented to the
//!   scheduler for consideration on the next cycle", §5.2.4).
//! * `fill_free = N - (FP - TP)`.
//! * `cpl_accept = cpl_valid & V[s] & !R[s] & s in the issued region`, `s = cpl_slot`:
//!   a completion is legal only for an instruction that is in flight (issued, retained and
//!   not waiting for a replay). Every issue of a replayable instruction produces exactly
//!   one completion signal, even with an empty thread mask (§5.2.4).
//!
//! At the rising edge (`rst` overrides everything; otherwise all of the following at once):
//! * **Completion** (if `cpl_accept`): `PAM[s] &= !cpl_mask` (bits not in `PAM` are
//!   ignored). If the result is 0 the slot is freed (`V = R = 0`), else `R[s] = 1`.
//! * **Issue** (if `issue & offer_valid`; `issue` without an offer is ignored):
//!   a replay clears `R[offer_slot]`; a first issue advances `IP` and either retains the
//!   slot with `PAM = issue_mask` (`issue_replayable = 1`) or frees it at once (`V = 0`,
//!   `PAM = 0`; "non-replayable instructions are freed at issue"). A replayable
//!   instruction issued with an all-zero mask is retained and freed by its (empty)
//!   completion like any other.
//! * **Fill** (if `0 < fill_count <= fill_free`): slots `FP .. FP + fill_count` get
//!   `V = 1` and `FP += fill_count`. A fill larger than `fill_free` is ignored entirely
//!   (nothing written, FP unchanged): "the fill pointer cannot advance past" the tail, so
//!   fetch must retry; the thesis's fetch fills two at a time and waits when only one slot
//!   is free (Figure 5.4, second diagram).
//! * **Flush** (if `flush`): the slots `IP' .. FP` (filled, not issued after this edge's
//!   issue) get `V = 0` and `FP = IP'`; a fill in the same cycle is ignored. A taken branch
//!   or a reconvergence redirects the warp, and what fetch brought after it is not on the
//!   warp's path (GPGPU-Sim's `ibuffer_flush`; the thesis's front end is GPGPU-Sim's and
//!   does not mention it). Retained instructions stay.
//! * **Tail**: `TP' =` the first position in `TP ..< IP'` whose slot is valid after this
//!   edge, else `IP'`; `ITP' = TP' - 1` ("advanced to one entry behind the next oldest
//!   replayable instruction. If no such instruction exists, ... set to the entry before the
//!   issue pointer", §5.2.4). Hardware: one rotate + priority encoder over `N` valid bits.
//!
//! Same-cycle combinations are all disjoint by construction: a completion can only touch an
//! in-flight slot, a replay only an `R = 1` slot, a first issue only slot `IP` (unissued),
//! a fill only free slots; `fill_free` is taken from the registers, so slots freed this
//! cycle become fillable on the next cycle. A completion for a slot offered for replay in
//! the same cycle is therefore illegal (`R = 1`) and ignored; so is a completion for a free
//! or unissued slot.
//!
//! # Hardware
//!
//! `valid` and `rdy` are `N`-bit registers (every slot's bit feeds the scans), the private
//! active masks a register array `pam` (`N` x `W`) with two write ports (completion,
//! first issue) and two read ports (offer, completion) plus one per slot for `slot_pam`.
//! The oldest-ready scan and the tail advance are each a rotate by `TP` and a priority
//! encoder; the fill mask is a thermometer code rotated to `FP`.
//!
//! # Figure 5.4 (golden test)
//!
//! The figure is missing from the text; the test in `verif` rebuilds its five snapshots
//! from the prose of §5.3 with `slots = 4`, `simt_width = 4`, fetch filling two
//! instructions at a time. Four slots are forced by the prose: at snapshot 5 the ITP has
//! just advanced, D and E fill two slots and the IP "advances to instruction D", so before
//! the fill nothing was unissued and exactly one slot was free — with A, B, C that is four.
//! See the test for the cycle-by-cycle reconstruction and the one sentence of §5.3
//! ("advance to the entry after instruction C") that contradicts the ITP definition given
//! twice in §5.2.3-5.2.4 and is read as "the entry after A, i.e. before C".
//!
//! # Storage
//!
//! Hardware: `N * (W + 2) + 3 * (S + 1)` flip-flops = 8 * 34 + 12 = **284 bits** per warp at
//! the defaults. The thesis gives no total; its structure (V, R and a W-bit PAM per slot,
//! three S-bit pointers, §5.2.3-5.2.4) gives `paper_storage` = 272 + 9 = 281 bits. The 3
//! extra bits are the pointers' wrap bits: without them `IP == FP == ITP + 1` means one of
//! three states (all slots free, all unissued, or all issued with the oldest retained at
//! IP) that V and R alone cannot tell apart. §5.2.5 suggests moving the PAMs to a table
//! in the mask stage; that changes where the `N * W` bits sit, not how many there are.

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, mux, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, ParamSpec};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{and_or, gate, low_mask, rotate_left, rotate_right};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "warp_buffer";

/// Instruction slots per warp (shared with `replay_unit`).
pub const SLOTS: ParamSpec = ParamSpec {
    name: "slots",
    default: 8,
    min: 2,
    max: 32,
    doc: "instruction slots per warp, a power of two (the pointers wrap modulo 2*slots)",
    source: "thesis Table 4.2: 8",
};

/// Threads per warp (shared with `replay_unit`).
pub const SIMT_WIDTH: ParamSpec = ParamSpec {
    name: "simt_width",
    default: 32,
    min: 1,
    max: 64,
    doc: "threads per warp = bits of a private active mask",
    source: "thesis Table 4.2: 32 (Figure 5.4 uses 4)",
};

crate::block_params! {
    /// Parameters of one warp's replay warp buffer.
    pub struct WarpBufferParams {
        slots: u32 = shared(SLOTS),
        simt_width: u32 = shared(SIMT_WIDTH),
    }
    check = |p: &WarpBufferParams| power_of_two_slots(p.slots);
}

/// `slots` must be a power of two (warp buffer, replay unit).
pub(crate) fn power_of_two_slots(slots: u32) -> Result<(), String> {
    if !slots.is_power_of_two() {
        return Err(format!("slots = {slots} must be a power of two (the pointers wrap modulo 2*slots)"));
    }
    Ok(())
}

impl WarpBufferParams {
    /// Width of a slot index: `clog2(slots)`.
    pub fn slot_bits(&self) -> u32 {
        clog2(self.slots as u64)
    }
    /// Width of a slot count 0..=slots: `clog2(slots + 1)`.
    pub fn count_bits(&self) -> u32 {
        clog2(self.slots as u64 + 1)
    }
    /// Width of a pointer register: slot index plus a wrap bit.
    pub fn ptr_bits(&self) -> u32 {
        self.slot_bits() + 1
    }
    /// The thesis's structure (§5.2.3-5.2.4): V, R and PAM per slot, three slot pointers.
    pub fn paper_bits(&self) -> u64 {
        self.slots as u64 * (self.simt_width as u64 + 2) + 3 * self.slot_bits() as u64
    }
}

/// The warp buffer's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpBufferIo<H> {
    pub rst: H,
    pub fill_count: H,
    pub issue: H,
    pub issue_replayable: H,
    pub issue_mask: H,
    pub cpl_valid: H,
    pub cpl_slot: H,
    pub cpl_mask: H,
    pub flush: H,
    pub offer_valid: H,
    pub offer_slot: H,
    pub offer_replay: H,
    pub offer_pam: H,
    pub fill_free: H,
    pub fill_ptr: H,
    pub issue_ptr: H,
    pub issue_tail_ptr: H,
    pub cpl_accept: H,
    pub slot_valid: H,
    pub slot_rdy: H,
    pub slot_pam: H,
}

impl Interface for WarpBufferParams {
    type Io<H> = WarpBufferIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> WarpBufferIo<B::H> {
        let (n, w, s, c) = (self.slots, self.simt_width, self.slot_bits(), self.count_bits());
        WarpBufferIo {
            rst: b.reset(),
            fill_count: b.input("fill_count", c),
            issue: b.input("issue", 1),
            issue_replayable: b.input("issue_replayable", 1),
            issue_mask: b.input("issue_mask", w),
            cpl_valid: b.input("cpl_valid", 1),
            cpl_slot: b.input("cpl_slot", s),
            cpl_mask: b.input("cpl_mask", w),
            flush: b.input("flush", 1),
            offer_valid: b.output("offer_valid", 1),
            offer_slot: b.output("offer_slot", s),
            offer_replay: b.output("offer_replay", 1),
            offer_pam: b.output("offer_pam", w),
            fill_free: b.output("fill_free", c),
            fill_ptr: b.output("fill_ptr", s),
            issue_ptr: b.output("issue_ptr", s),
            issue_tail_ptr: b.output("issue_tail_ptr", s),
            cpl_accept: b.output("cpl_accept", 1),
            slot_valid: b.output("slot_valid", n),
            slot_rdy: b.output("slot_rdy", n),
            slot_pam: b.output("slot_pam", n * w),
        }
    }
}

impl Block for WarpBufferParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "replay warp buffer of one warp: slot states, private active masks, fill / issue / issue-tail pointers";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, sections 5.2.3-5.3, Figure 5.4";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        warp_buffer(self, name)
    }

    fn storage(&self) -> StorageAccount {
        StorageAccount {
            paper: vec![PaperFigure::new(
                "V, R and a private active mask per slot, three slot pointers (sections 5.2.3-5.2.4)",
                self.paper_bits(),
            )],
            differences: Vec::new(),
        }
        .differs(3, "a wrap bit per pointer: IP == FP == ITP + 1 is otherwise ambiguous (empty, all unissued, all issued)")
    }
}

/// Generate one warp's replay warp buffer.
pub fn warp_buffer(p: &WarpBufferParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Replay warp buffer of one warp (Turner, MASc thesis, UBC 2012, sections 5.2-5.3): {} slots with \
         valid / replay-ready bits and a {}-bit private active mask each; fill, issue and issue-tail pointers.",
        p.slots, p.simt_width
    ));
    let (n, w, s, c, pw) = (p.slots, p.simt_width, p.slot_bits(), p.count_bits(), p.ptr_bits());

    let io = p.decls();
    let fill_count = m.port(&io.fill_count);
    let issue = m.port(&io.issue);
    let issue_replayable = m.port(&io.issue_replayable);
    let issue_mask = m.port(&io.issue_mask);
    let cpl_valid = m.port(&io.cpl_valid);
    let cpl_slot = m.port(&io.cpl_slot);
    let cpl_mask = m.port(&io.cpl_mask);
    let flush = m.port(&io.flush);

    // State: V and R as slot vectors (every slot's bit is visible to the scans), the
    // private active masks as a register array, three pointers with wrap bits.
    let valid = m.reg("valid", n, 0);
    let rdy = m.reg("rdy", n, 0);
    let pam = m.reg_array("pam", n, w, 0);
    let ip = m.reg("ip", pw, 0);
    let fp = m.reg("fp", pw, 0);
    let itp = m.reg("itp", pw, 2 * n as u64 - 1);

    let slot_of = |ptr: Sig| ptr.trunc(s);
    let tp = (itp + 1u64).named("tp");
    let tp_slot = slot_of(tp);
    let issued = (ip - tp).named("issued");

    // Offer: the oldest replay-ready slot (scan from TP), else the slot at IP.
    let rdy_rot = rotate_right(rdy, tp_slot).named("rdy_from_tail");
    let any_rdy = rdy.any();
    let rdy_slot = (tp_slot + rdy_rot.ffs().resize(s)).named("rdy_slot");
    let has_unissued = fp.ne(ip);
    let offer_valid = (any_rdy | has_unissued).named("offer_valid_w");
    let offer_slot = and_or(any_rdy, rdy_slot, gate(has_unissued, slot_of(ip))).named("offer_slot_w");
    m.port(&io.offer_valid).set(offer_valid);
    m.port(&io.offer_slot).set(offer_slot);
    m.port(&io.offer_replay).set(any_rdy);
    m.port(&io.offer_pam).set(gate(offer_valid, pam.read(offer_slot)));

    // Free slots: FP ..= ITP.
    let fill_free = (lit(n as u64, pw) - (fp - tp)).named("fill_free_w");
    m.port(&io.fill_free).set(fill_free.resize(c));
    m.port(&io.fill_ptr).set(slot_of(fp));
    m.port(&io.issue_ptr).set(slot_of(ip));
    m.port(&io.issue_tail_ptr).set(slot_of(itp));

    // Completion: legal only for an in-flight slot (issued, valid, not replay-ready).
    let cpl_onehot = onehot(cpl_slot, n);
    let cpl_offset = (cpl_slot - tp_slot).zext(pw);
    let cpl_accept = (cpl_valid & valid.bit_at(cpl_slot) & !rdy.bit_at(cpl_slot) & cpl_offset.lt(issued)).named("cpl_accept_w");
    m.port(&io.cpl_accept).set(cpl_accept);
    let remaining = (pam.read(cpl_slot) & !cpl_mask).named("cpl_remaining");
    let cpl_done = cpl_accept & !remaining.any();
    let cpl_replay = cpl_accept & remaining.any();
    pam.write(cpl_slot, remaining, cpl_accept);

    // Issue of the offered instruction.
    let fire = issue & offer_valid;
    let replay = fire & any_rdy;
    let first = (fire & !any_rdy).named("first_issue");
    let offer_onehot = onehot(offer_slot, n);
    pam.write(offer_slot, mux(issue_replayable, issue_mask, lit(0, w)), first);
    let ip_next = mux(first, ip + 1u64, ip).named("ip_next");
    ip.set(ip_next);

    // Fill at FP, all or nothing, never past ITP; a flush drops IP' .. FP instead.
    let fill_ok = (!flush & fill_count.ne(0u64) & fill_count.resize(pw).le(fill_free)).named("fill_ok");
    let fill_mask = rotate_left(low_mask(fill_count, n), slot_of(fp));
    let flush_mask = gate(flush, rotate_left(low_mask((fp - ip_next).resize(c), n), slot_of(ip_next))).named("flushed");
    fp.set(mux(flush, ip_next, mux(fill_ok, fp + fill_count.resize(pw), fp)));

    let freed = gate(cpl_done, cpl_onehot) | gate(first & !issue_replayable, offer_onehot) | flush_mask;
    let valid_next = ((valid & !freed) | gate(fill_ok, fill_mask)).named("valid_next");
    valid.set(valid_next);
    // An accepted completion names a slot with R = 0, so only a replay clears R.
    let rdy_next = (rdy & !gate(replay, offer_onehot)) | gate(cpl_replay, cpl_onehot);
    rdy.set(rdy_next);

    // Tail: the first slot in TP ..< IP' still valid after this edge, else IP'.
    let window = low_mask(ip_next - tp, n);
    let live = (rotate_right(valid_next, tp_slot) & window).named("live_from_tail");
    let tp_next = and_or(live.any(), tp + live.ffs().resize(pw), ip_next);
    itp.set(tp_next - 1u64);

    m.port(&io.slot_valid).set(valid);
    m.port(&io.slot_rdy).set(rdy);
    let pams: Vec<Sig> = (0..n).rev().map(|i| pam.at(i)).collect();
    m.port(&io.slot_pam).set(cat(&pams));
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<WarpBufferParams>();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{BlockParams, ParamError, Params};

    #[test]
    fn default_storage() {
        let d = WarpBufferParams::default();
        assert_eq!(d.paper_bits(), 281);
        assert_eq!(d.storage().expected_bits(), 284);
    }

    #[test]
    fn rejects_non_power_of_two() {
        let p = Params::resolve(NAME, WarpBufferParams::SPECS, &[("slots".into(), "6".into())]).unwrap();
        assert!(matches!(WarpBufferParams::from_params(&p), Err(ParamError::Invalid { .. })));
    }
}
