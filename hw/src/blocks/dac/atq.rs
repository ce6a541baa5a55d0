//! Affine tuple queue (ATQ) — Wang and Lin, ISCA 2017, §4.1 ③④, §4.8.
//!
//! The affine warp's `enq` pushes an affine tuple at the tail (③); the
//! expansion units take it from the head (④). A plain FIFO of packed tuples
//! (`super::tuple`, 262 bits) with the issue check of §4.1 ⑨: "For the enq
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
//! | `enq_tuple` | in | 262 | the tuple |
//! | `pwaq_any_full` | in | 1 | some PWAQ partition is full |
//! | `pwpq_any_full` | in | 1 | some PWPQ partition is full |
//! | `deq` | in | 1 | pop the head (the dispatcher gave it to a unit) |
//! | `enq_ready` | out | 1 | `!full && !(KIND(enq_tuple) = pred ? pwpq_any_full : pwaq_any_full)` |
//! | `head_valid` | out | 1 | `count ≠ 0` |
//! | `head_tuple` | out | 262 | entry at the head; 0 when empty |
//! | `count` | out | CB | entries held |
//! | `full` | out | 1 | `count = entries` |
//!
//! `enq_ready` is combinational from `count` and this cycle's `enq_tuple` kind
//! and backpressure inputs: the scoreboard asks it before issuing. The
//! backpressure follows the tuple's kind (a predicate tuple waits for the
//! PWPQs, an address/data or reserved tuple for the PWAQs); "any" rather than
//! "the target warps'" because one tuple expands for every warp.
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
//! Memory `entries × 262` (one write port, one asynchronous read port at the
//! head) + head, tail (PB each) and count (CB): 6288 + 15 = 6303 bits at 24
//! entries. The paper: 393 bytes = 3144 bits = 131 bits per entry (Table 1
//! says 392 bytes), consistent with one base, one offset and the two mod-type
//! fields (4 × 32) plus a 3-bit command. This design carries the full tuple of
//! §4.4 (base and six offsets, 224 bits), the predicate's scalar operand (32)
//! and a 6-bit command, and no mod-type fields (mod-type tuples are expanded
//! on the SIMT lanes): 262 bits per entry, 2× the paper.

use super::{tuple, HwStorage, PaperStorage};
use crate::clog2;
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

/// Parameters of the affine tuple queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtqParams {
    /// Queue entries (paper: 24 per SM).
    pub entries: u32,
}

impl Default for AtqParams {
    fn default() -> Self {
        AtqParams { entries: 24 }
    }
}

impl BlockParams for AtqParams {
    const SPECS: &'static [ParamSpec] = &[ParamSpec {
        name: "entries",
        default: 24,
        min: 1,
        max: 1024,
        doc: "affine tuples the queue holds (paper: 24 per SM)",
    }];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(AtqParams { entries: p.get_u32("entries") })
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

/// Paper §4.8: "24 entries, with a total size of 393 bytes" (Table 1 says
/// 392): 131 bits per entry, scaled by `entries`.
pub fn paper_storage(p: &AtqParams) -> Option<PaperStorage> {
    Some(PaperStorage { bits: 131 * p.entries as u64, source: "§4.8: 24 entries, 393 bytes" })
}

/// Memory `entries x 262` plus head, tail and count registers.
pub fn hw_storage(p: &AtqParams) -> HwStorage {
    HwStorage {
        flop_bits: 2 * p.ptr_bits() as u64 + p.count_bits() as u64,
        mem_bits: p.entries as u64 * tuple::BITS as u64,
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
    let enq_valid = m.input("enq_valid", 1);
    let enq_tuple = m.input("enq_tuple", tuple::BITS);
    let pwaq_any_full = m.input("pwaq_any_full", 1);
    let pwpq_any_full = m.input("pwpq_any_full", 1);
    let deq = m.input("deq", 1);
    let enq_ready = m.output("enq_ready", 1);
    let head_valid = m.output("head_valid", 1);
    let head_tuple = m.output("head_tuple", tuple::BITS);
    let count_o = m.output("count", cb);
    let full_o = m.output("full", 1);

    let tuples = m.mem("tuples", p.entries, tuple::BITS);
    let head = m.reg("head", pb, 0);
    let tail = m.reg("tail", pb, 0);
    let count = m.reg("count_q", cb, 0);

    let full = count.eq(n).named("is_full");
    let nonempty = count.ne(0u64);
    let kind = enq_tuple.slice(tuple::KIND, 2);
    let backpressure = mux(kind.eq(tuple::KIND_PRED), pwpq_any_full, pwaq_any_full);
    let ready = (!full & !backpressure).named("ready");
    let do_enq = (enq_valid & ready).named("do_enq");
    let do_deq = (deq & nonempty).named("do_deq");

    enq_ready.set(ready);
    head_valid.set(nonempty);
    head_tuple.set(mux(nonempty, tuples.read(head), lit(0, tuple::BITS)));
    count_o.set(count);
    full_o.set(full);

    let inc = |ptr: Sig| mux(ptr.eq(n - 1), lit(0, pb), ptr + 1u64);
    tuples.write(tail, enq_tuple, do_enq);
    tail.set_if(do_enq, inc(tail));
    head.set_if(do_deq, inc(head));
    count.set(count + do_enq.zext(cb) - do_deq.zext(cb));
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = AtqParams::from_params(params)?;
    Ok(atq(&p, &module_name("atq", params, AtqParams::SPECS))?)
}

fn paper_figures(params: &Params) -> Vec<PaperFigure> {
    AtqParams::from_params(params)
        .ok()
        .and_then(|p| paper_storage(&p))
        .map(|s| vec![PaperFigure::new("ATQ: 24 entries, 393 bytes (131 bits per entry), scaled", s.bits)])
        .unwrap_or_default()
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "atq",
    summary: "affine tuple queue: FIFO of affine tuples from the affine warp's enq to the expansion units",
    source: "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8",
    params: AtqParams::SPECS,
    build,
    paper_storage: paper_figures,
    composed: false,
};
