//! Per-warp predicate queue (PWPQ) — Wang and Lin, ISCA 2017, §4.1 ⑤⑥⑨, §4.8.
//!
//! Holds the 32-bit predicate masks the PEU produces, one FIFO partition per
//! non-affine warp; `deq.pred` takes one mask and sets the warp's predicate
//! register; `deq_empty` holds the warp back. The same structure as the
//! PWAQ (see `pwaq.rs` for the full cycle semantics) with 32-bit entries and
//! the data ports named `enq_mask` / `deq_mask`.
//!
//! # Parameters
//! `warps` (48), `entries` (192), `entries` a non-zero multiple of `warps`.
//!
//! # Ports
//! `rst`; `enq` (1), `enq_warp` (WB), `enq_mask` (32); `deq` (1), `deq_warp`
//! (WB); outputs `deq_mask` (32, 0 if empty), `deq_empty` (1), `full_vec`
//! (warps), `empty_vec` (warps), `any_full` (1). Semantics as the PWAQ.
//!
//! # Storage
//! Memory `entries × 32` = 6144 bits, exactly the paper's 768 bytes, plus
//! per warp head, tail and the full and empty flags (48 × 6 = 288 bits)
//! which the paper does not count. The hardware is the PWAQ's (`pwaq.rs`,
//! "Hardware").

use super::pwaq::{per_warp_queue, PerWarpQueueIo, QueueShape};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{HwError, Module, ModuleBuilder};
use crate::registry::{Block, PaperFigure, StorageAccount};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the PWPQ: `entries` split evenly among `warps` (the
    /// PWAQ's specs).
    pub struct PwpqParams {
        warps: u32 = shared(super::WARPS),
        entries: u32 = shared(super::QUEUE_ENTRIES),
    }
    check = |q: &PwpqParams| super::partitions("entries", q.entries, q.warps);
}

/// Width of a PWPQ entry: one predicate mask.
pub const ENTRY_BITS: u32 = super::WARP_SIZE;

impl PwpqParams {
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
}

impl Interface for PwpqParams {
    type Io<H> = PerWarpQueueIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> PerWarpQueueIo<B::H> {
        PerWarpQueueIo::describe(b, &self.shape(), "mask")
    }
}

impl Block for PwpqParams {
    const NAME: &'static str = "pwpq";
    const SUMMARY: &'static str = "per-warp predicate queue: predicate masks from the PEU, one FIFO partition per warp";
    const SOURCE: &'static str = "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        pwpq(self, name)
    }

    /// §4.8: 192 entries, 768 bytes (32 bits per entry), scaled.
    fn storage(&self) -> StorageAccount {
        StorageAccount {
            paper: vec![PaperFigure::new(
                "PWPQ: 192 entries, 768 bytes (32 bits per entry), scaled",
                ENTRY_BITS as u64 * self.entries as u64,
            )],
            differences: Vec::new(),
        }
        .differs(self.shape().pointer_bits() as i64, "per-warp head, tail, full and empty flags (not counted by the paper)")
    }
}

/// Generate the PWPQ (the per-warp queue of `pwaq.rs` with 32-bit masks).
pub fn pwpq(p: &PwpqParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Per-warp predicate queue (DAC, Wang and Lin, ISCA 2017, section 4.1): {} entries of 32-bit \
         predicate masks, {} per warp for {} warps.",
        p.entries,
        p.depth(),
        p.warps
    ));
    per_warp_queue(&m, &p.shape(), &p.decls());
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<PwpqParams>();
