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
//! # Storage
//! Memory `entries × 62` (one write port, one asynchronous read port) +
//! per warp head, tail (PB) and count (NB): 11904 + 48 × 7 = 12240 bits.
//! The paper: 1560 bytes = 12480 bits = 65 bits per entry, i.e. a full 32-bit
//! address + 32-bit mask + 1 bit. This record stores the 25-bit line address
//! and 2 sub-line bits (27 significant address bits for a 32·g-byte region),
//! 32 mask bits, 2 granularity bits and `last`: 62 bits; the per-warp
//! pointers are extra (the paper does not count them).

#[allow(unused_imports)]
use super::{record, WARP_SIZE};
use super::{HwStorage, PaperStorage};
use crate::clog2;
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of the per-warp queue: `entries` split evenly among `warps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PwaqParams {
    /// Warp slots of the SM (paper: 48).
    pub warps: u32,
    /// Entries per SM (paper: 192), partitioned among the warps.
    pub entries: u32,
}

impl Default for PwaqParams {
    fn default() -> Self {
        PwaqParams { warps: 48, entries: 192 }
    }
}

impl BlockParams for PwaqParams {
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
        let q = PwaqParams { warps: p.get_u32("warps"), entries: p.get_u32("entries") };
        if q.entries < q.warps || !q.entries.is_multiple_of(q.warps) {
            return Err(p.invalid(format!(
                "entries ({}) must be a non-zero multiple of warps ({}): each warp gets entries/warps slots",
                q.entries, q.warps
            )));
        }
        Ok(q)
    }
}

impl PwaqParams {
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
    /// Width of a per-warp count (0..=depth).
    pub fn count_bits(&self) -> u32 {
        clog2(self.depth() as u64 + 1)
    }
    /// Width of one entry.
    pub fn entry_bits(&self) -> u32 {
        record::BITS
    }
}

/// The paper's figure, 65 bits per entry, scaled by `entries`.
pub fn paper_storage(p: &PwaqParams) -> Option<PaperStorage> {
    Some(PaperStorage { bits: 65 * p.entries as u64, source: "§4.8 and Table 1: 192 entries, 1560 bytes" })
}

/// Memory `entries x entry_bits` plus, per warp, head, tail and count.
pub fn hw_storage(p: &PwaqParams) -> HwStorage {
    HwStorage {
        flop_bits: p.warps as u64 * (2 * p.ptr_bits() + p.count_bits()) as u64,
        mem_bits: p.entries as u64 * p.entry_bits() as u64,
    }
}
