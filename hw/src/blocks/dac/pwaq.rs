//! Per-warp address queue (PWAQ) — Wang and Lin, ISCA 2017, §4.1 ⑤⑥⑨, §4.8.
//!
//! Holds the warp address records (`super::record`, 62 bits) the AEU
//! produces, one FIFO partition per non-affine warp: `entries` slots split
//! evenly, `depth = entries / warps` per warp (4 by default). A non-affine
//! warp's `deq.addr` takes the records of one expansion, one per cycle, up to
//! the one with `last`; `deq_empty` lets the scheduler hold the warp back
//! (§4.1 ⑨ "if a non-affine warp's PWPQ or PWAQ is empty ... not allowed to
//! issue"). Streaming (a record leaves as soon as it is dequeued) is what
//! lets an expansion of more records than the partition holds finish.
//!
//! # Parameters
//! `warps` (48), `entries` (192); `entries` must be a non-zero multiple of
//! `warps` (the static, equal partition). `WB = clog2(warps)`,
//! `D = entries/warps`, `PB = clog2(D)`, `NB = clog2(D+1)`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `enq`, `enq_warp`, `enq_rec` | in | 1, WB, 62 | push a record into a warp's partition (from the AEU) |
//! | `deq`, `deq_warp` | in | 1, WB | pop the head of a warp's partition |
//! | `deq_rec` | out | 62 | head record of `deq_warp`'s partition (0 if empty) |
//! | `deq_empty` | out | 1 | `deq_warp`'s partition is empty (or `deq_warp ≥ warps`) |
//! | `full_vec` | out | warps | per warp: partition full (the AEU's `pwaq_full`) |
//! | `empty_vec` | out | warps | per warp: partition empty (for the scheduler) |
//! | `any_full` | out | 1 | OR of `full_vec` (the ATQ's backpressure) |
//!
//! `deq_rec`, `deq_empty` are combinational from `deq_warp` and the
//! registers; the vectors only from the registers (no path from `enq` or
//! `deq` to any output).
//!
//! # Cycle semantics
//! At the edge, both judged on the state before it: `enq` with
//! `enq_warp < warps` and that partition not full writes
//! `mem[enq_warp·D + tail[enq_warp]]`, advances the tail and the count;
//! otherwise it is dropped (the producer checks `full_vec`). `deq` with
//! `deq_warp < warps` and a non-empty partition advances its head and
//! decrements its count; otherwise nothing. Same warp, same cycle: a full
//! partition refuses the enq while the deq proceeds; an empty one ignores the
//! deq while the enq proceeds (no bypass); otherwise both (count unchanged).
//! Reset empties every partition; memory contents are not reset and never
//! visible.
//!
//! # Hardware
//! One RAM of `entries` words, warp `w`'s partition at `w·D ..`, with one
//! write port (the enq) and one asynchronous read port (the head of
//! `deq_warp`). Per warp a head and a tail pointer, in two register arrays
//! read at `enq_warp` and `deq_warp`, and a full and an empty flag, kept as
//! two `warps`-bit registers so `full_vec` and `empty_vec` come straight
//! from flip-flops (no per-warp count to compare every cycle). The flags
//! change only for the warps an enq or a deq touches: the enq warp becomes
//! non-empty, and full when its advanced tail meets its head; the deq warp
//! becomes non-full, and empty when its advanced head meets its tail; an enq
//! and a deq of one warp in one cycle leave both flags as they were.
//!
//! # Storage
//! Memory `entries × 62` + per warp head, tail (PB each) and the two flags:
//! 11904 + 48 × (2 + 2 + 2) = 12192 bits. The paper: 1560 bytes = 12480 bits
//! = 65 bits per entry, i.e. a full 32-bit address + 32-bit mask + 1 bit.
//! This record stores the 25-bit line address and 2 sub-line bits (27
//! significant address bits for a 32·g-byte region), 32 mask bits, 2
//! granularity bits and `last`: 62 bits (−576 bits); the per-warp pointers
//! and flags are extra (+288; the paper does not count them).

use super::record;
use super::{HwStorage, PaperStorage};
use crate::clog2;
use crate::ir::{lit, mux, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

/// Parameters of a per-warp queue (the PWAQ and the PWPQ): `entries` split
/// evenly among `warps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerWarpQueueParams {
    /// Warp slots of the SM (paper: 48).
    pub warps: u32,
    /// Entries per SM (paper: 192), partitioned among the warps.
    pub entries: u32,
}

impl Default for PerWarpQueueParams {
    fn default() -> Self {
        PerWarpQueueParams { warps: 48, entries: 192 }
    }
}

impl BlockParams for PerWarpQueueParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warp slots per SM (Table 1: 48)" },
        ParamSpec {
            name: "entries",
            default: 192,
            min: 1,
            max: 4096,
            doc: "entries per SM, split evenly among the warps (paper: 192 = 4 per warp)",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let q = PerWarpQueueParams { warps: p.get_u32("warps"), entries: p.get_u32("entries") };
        if q.entries < q.warps || !q.entries.is_multiple_of(q.warps) {
            return Err(p.invalid(format!(
                "entries ({}) must be a non-zero multiple of warps ({}): each warp gets entries/warps slots",
                q.entries, q.warps
            )));
        }
        Ok(q)
    }
}

impl PerWarpQueueParams {
    /// Entries of one warp's partition.
    pub fn depth(&self) -> u32 {
        self.entries / self.warps
    }
    /// Width of a warp index.
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    /// Width of a per-warp head/tail pointer.
    pub fn ptr_bits(&self) -> u32 {
        clog2(self.depth() as u64)
    }
    /// Memory `entries x entry_bits` plus, per warp, head, tail and the full
    /// and empty flags.
    pub fn storage(&self, entry_bits: u32) -> HwStorage {
        HwStorage {
            flop_bits: self.warps as u64 * (2 * self.ptr_bits() + 2) as u64,
            mem_bits: self.entries as u64 * entry_bits as u64,
        }
    }
}

/// Parameters of the PWAQ.
pub type PwaqParams = PerWarpQueueParams;

/// Width of a PWAQ entry: one warp address record.
pub const ENTRY_BITS: u32 = record::BITS;

/// The paper's figure, 65 bits per entry, scaled by `entries`.
pub fn paper_storage(p: &PwaqParams) -> Option<PaperStorage> {
    Some(PaperStorage { bits: 65 * p.entries as u64, source: "§4.8 and Table 1: 192 entries, 1560 bytes" })
}

/// See [`PerWarpQueueParams::storage`].
pub fn hw_storage(p: &PwaqParams) -> HwStorage {
    p.storage(ENTRY_BITS)
}

/// Shape of a per-warp queue generator (the PWAQ and the PWPQ differ only
/// in the entry width and the data port names).
pub struct QueueSpec<'a> {
    pub warps: u32,
    pub entries: u32,
    pub width: u32,
    pub enq_data: &'a str,
    pub deq_data: &'a str,
    pub doc: String,
}

/// `idx < n` for an index of `idx.width()` bits (constant true when every
/// value of the index is in range).
pub(crate) fn in_range(idx: Sig, n: u64) -> Sig {
    if idx.width() < 64 && n >= 1u64 << idx.width() {
        lit(1, 1)
    } else {
        idx.lt(n)
    }
}

/// Generate a per-warp queue: one RAM of `entries` words, warp `w`'s
/// partition at `w*depth ..`, one write port (enq) and one asynchronous read
/// port (the head of `deq_warp`); per warp a head and a tail pointer in
/// register arrays (read at `enq_warp` and `deq_warp`) and a full and an
/// empty flag, kept as two `warps`-bit vectors so `full_vec`/`empty_vec`
/// come straight from flip-flops.
pub fn per_warp_queue(q: &QueueSpec, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&q.doc);
    let d = q.entries / q.warps;
    let (wb, pb, aw) = (clog2(q.warps as u64), clog2(d as u64), clog2(q.entries as u64));
    let enq = m.input("enq", 1);
    let enq_warp = m.input("enq_warp", wb);
    let enq_data = m.input(q.enq_data, q.width);
    let deq = m.input("deq", 1);
    let deq_warp = m.input("deq_warp", wb);
    let deq_data = m.output(q.deq_data, q.width);
    let deq_empty = m.output("deq_empty", 1);
    let full_vec_o = m.output("full_vec", q.warps);
    let empty_vec_o = m.output("empty_vec", q.warps);
    let any_full = m.output("any_full", 1);

    let slots = m.mem("slots", q.entries, q.width);
    let head = m.reg_array("head", q.warps, pb, 0);
    let tail = m.reg_array("tail", q.warps, pb, 0);
    let all_ones = if q.warps >= 64 { u64::MAX } else { (1u64 << q.warps) - 1 };
    let full_vec = m.reg("full", q.warps, 0);
    let empty_vec = m.reg("empty", q.warps, all_ones);

    // Slot address of pointer `ptr` in warp `w`'s partition.
    let addr = |w: Sig, ptr: Sig| {
        let base = if d.is_power_of_two() {
            w.resize(aw) << d.trailing_zeros()
        } else {
            (w.resize(aw) * lit(d as u64, clog2(d as u64 + 1))).trunc(aw)
        };
        base + ptr.resize(aw)
    };
    let inc = |ptr: Sig| mux(ptr.eq(d as u64 - 1), lit(0, pb), ptr + 1u64);

    let e_in = in_range(enq_warp, q.warps as u64);
    let d_in = in_range(deq_warp, q.warps as u64);
    let e_full = full_vec.bit_at(enq_warp);
    let d_empty = !d_in | empty_vec.bit_at(deq_warp);
    let do_enq = (enq & e_in & !e_full).named("do_enq");
    let do_deq = (deq & !d_empty).named("do_deq");
    let same = enq_warp.eq(deq_warp);

    let (head_e, tail_e) = (head.read(enq_warp), tail.read(enq_warp));
    let (head_d, tail_d) = (head.read(deq_warp), tail.read(deq_warp));
    let tail_e_next = inc(tail_e);
    let head_d_next = inc(head_d);
    slots.write(addr(enq_warp, tail_e), enq_data, do_enq);
    tail.write(enq_warp, tail_e_next, do_enq);
    head.write(deq_warp, head_d_next, do_deq);

    // Flags: an enq and a deq of one warp in one cycle leave its count and
    // so its flags as they were; otherwise the enq warp is no longer empty
    // and full when its tail meets its head, the deq warp no longer full and
    // empty when its head meets its tail.
    let both = do_enq & do_deq & same;
    let e_upd = do_enq & !both;
    let d_upd = do_deq & !both;
    let zero = lit(0, q.warps);
    let e_mask = mux(e_upd, onehot(enq_warp, q.warps), zero);
    let d_mask = mux(d_upd, onehot(deq_warp, q.warps), zero);
    let e_full_next = tail_e_next.eq(head_e);
    let d_empty_next = head_d_next.eq(tail_d);
    full_vec.set((full_vec & !(e_mask | d_mask)) | mux(e_full_next, e_mask, zero));
    empty_vec.set((empty_vec & !(e_mask | d_mask)) | mux(d_empty_next, d_mask, zero));

    deq_data.set(mux(d_empty, lit(0, q.width), slots.read(addr(deq_warp, head_d))));
    deq_empty.set(d_empty);
    full_vec_o.set(full_vec);
    empty_vec_o.set(empty_vec);
    any_full.set(full_vec.any());
    m.finish()
}

/// Generate the PWAQ.
pub fn pwaq(p: &PwaqParams, name: &str) -> Result<Arc<Module>, HwError> {
    per_warp_queue(
        &QueueSpec {
            warps: p.warps,
            entries: p.entries,
            width: ENTRY_BITS,
            enq_data: "enq_rec",
            deq_data: "deq_rec",
            doc: format!(
                "Per-warp address queue (DAC, Wang and Lin, ISCA 2017, section 4.1): {} entries of {}-bit warp \
                 address records, {} per warp for {} warps.",
                p.entries,
                ENTRY_BITS,
                p.depth(),
                p.warps
            ),
        },
        name,
    )
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = PwaqParams::from_params(params)?;
    Ok(pwaq(&p, &module_name("pwaq", params, PwaqParams::SPECS))?)
}

fn paper_figures(params: &Params) -> Vec<PaperFigure> {
    PwaqParams::from_params(params)
        .ok()
        .and_then(|p| paper_storage(&p))
        .map(|s| vec![PaperFigure::new("PWAQ: 192 entries, 1560 bytes (65 bits per entry), scaled", s.bits)])
        .unwrap_or_default()
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "pwaq",
    summary: "per-warp address queue: warp address records from the AEU, one FIFO partition per warp",
    source: "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8",
    params: PwaqParams::SPECS,
    build,
    paper_storage: paper_figures,
    composed: false,
};
