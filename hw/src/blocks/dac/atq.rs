//! Affine tuple queue (ATQ) — Wang and Lin, ISCA 2017, §4.1 ③④, §4.8.
//!
//! The affine warp's `enq` pushes an affine tuple at the tail (③); the
//! expansion units take it from the head (④). A plain FIFO of packed tuples
//! (`super::tuple`, 278 bits) with the issue check of §4.1 ⑨: "For the enq
//! instruction, if the ATQ has no available space, or if one of the PWPQs is
//! full, then the affine warp is not allowed to issue."
//!
//! # Parameters
//! `entries` (24, §4.8). `PB = clog2(entries)`, `CB = clog2(entries+1)`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `enq_valid` | in | 1 | the affine warp issues `enq` with `enq_tuple` |
//! | `enq_tuple` | in | 278 | the tuple |
//! | `pwaq_any_full` | in | 1 | some PWAQ partition is full |
//! | `pwpq_any_full` | in | 1 | some PWPQ partition is full |
//! | `deq` | in | 1 | pop the head (the dispatcher gave it to a unit) |
//! | `enq_ready_addr` | out | 1 | `!full && !pwaq_any_full`: an address, data (or reserved) tuple would be taken |
//! | `enq_ready_pred` | out | 1 | `!full && !pwpq_any_full`: a predicate tuple would be taken |
//! | `head_valid` | out | 1 | `count ≠ 0` |
//! | `head_tuple` | out | 278 | entry at the head; 0 when empty |
//! | `count` | out | CB | entries held |
//! | `full` | out | 1 | `count = entries` |
//!
//! The two `enq_ready_*` are combinational from `count` and the backpressure
//! inputs only: the issue stage reads the one of the instruction's kind (known
//! at decode) before it issues, with no path from the tuple it has yet to
//! form. The backpressure follows the tuple's kind (a predicate tuple waits
//! for the PWPQs, an address/data or reserved tuple for the PWAQs); "any"
//! rather than "the target warps'" because one tuple expands for every warp.
//! `enq_ready` below is the one of `enq_tuple`'s kind.
//!
//! # Cycle semantics
//! At the edge: if `enq_valid && enq_ready`, `mem[tail] ← enq_tuple`,
//! `tail++` (mod entries); if `deq && count ≠ 0`, `head++`; `count` changes by
//! the difference. Both decisions use the state before the edge: an `enq`
//! into a full queue is refused even when a `deq` happens in the same cycle
//! (no path from `deq` to `enq_ready`), and a `deq` of an empty queue does
//! nothing even if an `enq` happens (no bypass; the new head appears next
//! cycle). `enq_valid` without `enq_ready` is dropped: the issue logic must
//! not issue. Reset empties the queue (`head = tail = count = 0`); memory
//! contents are not reset and are never visible (`head_tuple` is gated).
//!
//! # Storage
//! Memory `entries × 278` (one write port, one asynchronous read port at the
//! head) + head, tail (PB each) and count (CB): 6672 + 15 = 6687 bits at 24
//! entries. The paper: 393 bytes = 3144 bits = 131 bits per entry (Table 1
//! says 392 bytes), consistent with one base, one offset and the two mod-type
//! fields (4 × 32) plus a 3-bit command. This design carries the full tuple of
//! §4.4 (base and six offsets, 224 bits), the predicate's scalar operand (32),
//! a 6-bit command and the 16-bit set of CTAs it is for (one affine warp per
//! CTA), and no mod-type fields (mod-type tuples are expanded on the SIMT
//! lanes): 278 bits per entry, 2.1× the paper.

use super::tuple;
use crate::clog2;
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder};
use crate::params::ParamSpec;
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::inc_wrap;
use std::sync::Arc;

/// The queue's size (also the DAC unit's `atq_entries`).
pub const ENTRIES: ParamSpec = ParamSpec {
    name: "entries",
    default: 24,
    min: 1,
    max: 1024,
    doc: "affine tuples the queue holds",
    source: "section 4.8: 24 per SM",
};

crate::block_params! {
    /// Parameters of the affine tuple queue.
    pub struct AtqParams {
        entries: u32 = shared(ENTRIES),
    }
}

impl AtqParams {
    /// Width of `count`: 0..=entries.
    pub fn count_bits(&self) -> u32 {
        clog2(self.entries as u64 + 1)
    }
    /// Width of the head and tail pointers.
    pub fn ptr_bits(&self) -> u32 {
        clog2(self.entries as u64)
    }
}

/// The ATQ's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtqIo<H> {
    pub rst: H,
    pub enq_valid: H,
    pub enq_tuple: H,
    pub pwaq_any_full: H,
    pub pwpq_any_full: H,
    pub deq: H,
    pub enq_ready_addr: H,
    pub enq_ready_pred: H,
    pub head_valid: H,
    pub head_tuple: H,
    pub count: H,
    pub full: H,
}

impl Interface for AtqParams {
    type Io<H> = AtqIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> AtqIo<B::H> {
        AtqIo {
            rst: b.reset(),
            enq_valid: b.input("enq_valid", 1),
            enq_tuple: b.input("enq_tuple", tuple::BITS),
            pwaq_any_full: b.input("pwaq_any_full", 1),
            pwpq_any_full: b.input("pwpq_any_full", 1),
            deq: b.input("deq", 1),
            enq_ready_addr: b.output("enq_ready_addr", 1),
            enq_ready_pred: b.output("enq_ready_pred", 1),
            head_valid: b.output("head_valid", 1),
            head_tuple: b.output("head_tuple", tuple::BITS),
            count: b.output("count", self.count_bits()),
            full: b.output("full", 1),
        }
    }
}

impl Block for AtqParams {
    const NAME: &'static str = "atq";
    const SUMMARY: &'static str =
        "affine tuple queue: FIFO of affine tuples from the affine warp's enq to the expansion units";
    const SOURCE: &'static str = "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        atq(self, name)
    }

    /// §4.8: "24 entries, with a total size of 393 bytes" (Table 1 says 392):
    /// 131 bits per entry, scaled by `entries`.
    fn storage(&self) -> StorageAccount {
        let e = self.entries as i64;
        StorageAccount {
            paper: vec![PaperFigure::new("ATQ: 24 entries, 393 bytes (131 bits per entry), scaled", 131 * e as u64)],
            differences: Vec::new(),
        }
        .differs(
            (tuple::BITS as i64 - 131) * e,
            "278-bit entries: the full tuple (base and six offsets), the predicate's scalar operand, a 6-bit \
             command and the CTA set, no mod-type fields; the paper's 131 bits hold one base, one offset and the \
             mod-type fields",
        )
        .differs(
            2 * self.ptr_bits() as i64 + self.count_bits() as i64,
            "head, tail and count registers (the paper counts entries only)",
        )
    }
}

/// Generate the ATQ: one RAM of packed tuples with a write port at the tail
/// and an asynchronous read port at the head, head/tail/count registers.
pub fn atq(p: &AtqParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Affine tuple queue (DAC, Wang and Lin, ISCA 2017, section 4.1): {} entries of {}-bit affine tuples; \
         enq is refused when full or when a per-warp queue of the tuple's kind is full.",
        p.entries,
        tuple::BITS
    ));
    let (pb, cb, n) = (p.ptr_bits(), p.count_bits(), p.entries as u64);
    let io = p.decls();
    let enq_valid = m.port(&io.enq_valid);
    let enq_tuple = m.port(&io.enq_tuple);
    let pwaq_any_full = m.port(&io.pwaq_any_full);
    let pwpq_any_full = m.port(&io.pwpq_any_full);
    let deq = m.port(&io.deq);
    let enq_ready_addr = m.port(&io.enq_ready_addr);
    let enq_ready_pred = m.port(&io.enq_ready_pred);
    let head_valid = m.port(&io.head_valid);
    let head_tuple = m.port(&io.head_tuple);
    let count_o = m.port(&io.count);
    let full_o = m.port(&io.full);

    let tuples = m.mem("tuples", p.entries, tuple::BITS);
    let head = m.reg("head", pb, 0);
    let tail = m.reg("tail", pb, 0);
    let count = m.reg("count_q", cb, 0);

    let full = count.eq(n).named("is_full");
    let nonempty = count.ne(0u64);
    let kind = enq_tuple.slice(tuple::KIND, 2);
    let ready_addr = (!full & !pwaq_any_full).named("ready_addr");
    let ready_pred = (!full & !pwpq_any_full).named("ready_pred");
    let ready = mux(kind.eq(tuple::KIND_PRED), ready_pred, ready_addr).named("ready");
    let do_enq = (enq_valid & ready).named("do_enq");
    let do_deq = (deq & nonempty).named("do_deq");

    enq_ready_addr.set(ready_addr);
    enq_ready_pred.set(ready_pred);
    head_valid.set(nonempty);
    head_tuple.set(mux(nonempty, tuples.read(head), lit(0, tuple::BITS)));
    count_o.set(count);
    full_o.set(full);

    tuples.write(tail, enq_tuple, do_enq);
    tail.set_if(do_enq, inc_wrap(tail, p.entries));
    head.set_if(do_deq, inc_wrap(head, p.entries));
    count.set(count + do_enq.zext(cb) - do_deq.zext(cb));
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<AtqParams>();
