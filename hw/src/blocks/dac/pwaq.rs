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
use crate::clog2;
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{below, inc_wrap, row_addr};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the PWAQ: `entries` split evenly among `warps`.
    pub struct PwaqParams {
        warps: u32 = shared(super::WARPS),
        entries: u32 = shared(super::QUEUE_ENTRIES),
    }
    check = |q: &PwaqParams| super::partitions("entries", q.entries, q.warps);
}

/// The shape of a per-warp queue (the PWAQ and the PWPQ): `entries` split
/// evenly among `warps`, `width`-bit entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueShape {
    pub warps: u32,
    pub entries: u32,
    pub width: u32,
}

impl QueueShape {
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
    /// Per warp: head, tail and the full and empty flags (flip-flops the
    /// paper does not count).
    pub fn pointer_bits(&self) -> u64 {
        self.warps as u64 * (2 * self.ptr_bits() + 2) as u64
    }
}

/// The ports of a per-warp queue; `enq_data` / `deq_data` are named by the
/// queue (`enq_rec` / `deq_rec` for the PWAQ, `enq_mask` / `deq_mask` for
/// the PWPQ).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerWarpQueueIo<H> {
    pub rst: H,
    pub enq: H,
    pub enq_warp: H,
    pub enq_data: H,
    pub deq: H,
    pub deq_warp: H,
    pub deq_data: H,
    pub deq_empty: H,
    pub full_vec: H,
    pub empty_vec: H,
    pub any_full: H,
}

impl<H> PerWarpQueueIo<H> {
    /// Declare a per-warp queue's ports; `data` names the entry (`rec`, `mask`).
    pub fn describe<B: Binder<H = H>>(b: &mut B, q: &QueueShape, data: &str) -> Self {
        let wb = q.warp_bits();
        PerWarpQueueIo {
            rst: b.reset(),
            enq: b.input("enq", 1),
            enq_warp: b.input("enq_warp", wb),
            enq_data: b.input(format!("enq_{data}"), q.width),
            deq: b.input("deq", 1),
            deq_warp: b.input("deq_warp", wb),
            deq_data: b.output(format!("deq_{data}"), q.width),
            deq_empty: b.output("deq_empty", 1),
            full_vec: b.output("full_vec", q.warps),
            empty_vec: b.output("empty_vec", q.warps),
            any_full: b.output("any_full", 1),
        }
    }
}

impl PwaqParams {
    pub fn shape(&self) -> QueueShape {
        QueueShape { warps: self.warps, entries: self.entries, width: ENTRY_BITS }
    }
    /// Entries of one warp's partition.
    pub fn depth(&self) -> u32 {
        self.shape().depth()
    }
    pub fn warp_bits(&self) -> u32 {
        self.shape().warp_bits()
    }
    pub fn ptr_bits(&self) -> u32 {
        self.shape().ptr_bits()
    }
}

/// Width of a PWAQ entry: one warp address record.
pub const ENTRY_BITS: u32 = record::BITS;

impl Interface for PwaqParams {
    type Io<H> = PerWarpQueueIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> PerWarpQueueIo<B::H> {
        PerWarpQueueIo::describe(b, &self.shape(), "rec")
    }
}

impl Block for PwaqParams {
    const NAME: &'static str = "pwaq";
    const SUMMARY: &'static str = "per-warp address queue: warp address records from the AEU, one FIFO partition per warp";
    const SOURCE: &'static str = "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        pwaq(self, name)
    }

    /// §4.8 and Table 1: 192 entries, 1560 bytes (65 bits per entry), scaled.
    fn storage(&self) -> StorageAccount {
        let e = self.entries as i64;
        StorageAccount {
            paper: vec![PaperFigure::new("PWAQ: 192 entries, 1560 bytes (65 bits per entry), scaled", 65 * e as u64)],
            differences: Vec::new(),
        }
        .differs(
            (ENTRY_BITS as i64 - 65) * e,
            "62-bit records: the 25-bit line, 2 sub-line bits, 32 mask bits, 2 granularity bits and `last` \
             instead of a full 32-bit address, the mask and one bit",
        )
        .differs(self.shape().pointer_bits() as i64, "per-warp head, tail, full and empty flags (not counted by the paper)")
    }
}

/// Generate a per-warp queue: one RAM of `entries` words, warp `w`'s
/// partition at `w*depth ..`, one write port (enq) and one asynchronous read
/// port (the head of `deq_warp`); per warp a head and a tail pointer in
/// register arrays (read at `enq_warp` and `deq_warp`) and a full and an
/// empty flag, kept as two `warps`-bit vectors so `full_vec`/`empty_vec`
/// come straight from flip-flops.
pub fn per_warp_queue(m: &ModuleBuilder, q: &QueueShape, io: &PerWarpQueueIo<crate::iface::PortSpec>) {
    let d = q.depth();
    let pb = q.ptr_bits();
    let enq = m.port(&io.enq);
    let enq_warp = m.port(&io.enq_warp);
    let enq_data = m.port(&io.enq_data);
    let deq = m.port(&io.deq);
    let deq_warp = m.port(&io.deq_warp);
    let deq_data = m.port(&io.deq_data);
    let deq_empty = m.port(&io.deq_empty);
    let full_vec_o = m.port(&io.full_vec);
    let empty_vec_o = m.port(&io.empty_vec);
    let any_full = m.port(&io.any_full);

    let slots = m.mem("slots", q.entries, q.width);
    let head = m.reg_array("head", q.warps, pb, 0);
    let tail = m.reg_array("tail", q.warps, pb, 0);
    let all_ones = if q.warps >= 64 { u64::MAX } else { (1u64 << q.warps) - 1 };
    let full_vec = m.reg("full", q.warps, 0);
    let empty_vec = m.reg("empty", q.warps, all_ones);

    // Slot address of pointer `ptr` in warp `w`'s partition.
    let addr = |w: Sig, ptr: Sig| row_addr(w, ptr, q.warps, d);
    let inc = |ptr: Sig| inc_wrap(ptr, d);

    let e_in = below(enq_warp, q.warps);
    let d_in = below(deq_warp, q.warps);
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
}

/// Generate the PWAQ.
pub fn pwaq(p: &PwaqParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Per-warp address queue (DAC, Wang and Lin, ISCA 2017, section 4.1): {} entries of {}-bit warp \
         address records, {} per warp for {} warps.",
        p.entries,
        ENTRY_BITS,
        p.depth(),
        p.warps
    ));
    per_warp_queue(&m, &p.shape(), &p.decls());
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<PwaqParams>();
