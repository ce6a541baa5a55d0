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

use super::pwaq::{per_warp_queue, PerWarpQueueParams, QueueSpec};
use super::{HwStorage, PaperStorage};
use crate::ir::{HwError, Module};
use crate::params::{BlockParams, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

/// Parameters of the PWPQ: the per-warp queue shape of `pwaq.rs`.
pub type PwpqParams = PerWarpQueueParams;

/// Width of a PWPQ entry: one predicate mask.
pub const ENTRY_BITS: u32 = super::WARP_SIZE;

/// The paper's figure, 32 bits per entry, scaled by `entries`.
pub fn paper_storage(p: &PwpqParams) -> Option<PaperStorage> {
    Some(PaperStorage { bits: 32 * p.entries as u64, source: "§4.8: 192 entries, 768 bytes" })
}

/// See [`PerWarpQueueParams::storage`].
pub fn hw_storage(p: &PwpqParams) -> HwStorage {
    p.storage(ENTRY_BITS)
}

/// Generate the PWPQ (the per-warp queue of `pwaq.rs` with 32-bit masks).
pub fn pwpq(p: &PwpqParams, name: &str) -> Result<Arc<Module>, HwError> {
    per_warp_queue(
        &QueueSpec {
            warps: p.warps,
            entries: p.entries,
            width: ENTRY_BITS,
            enq_data: "enq_mask",
            deq_data: "deq_mask",
            doc: format!(
                "Per-warp predicate queue (DAC, Wang and Lin, ISCA 2017, section 4.1): {} entries of 32-bit \
                 predicate masks, {} per warp for {} warps.",
                p.entries,
                p.depth(),
                p.warps
            ),
        },
        name,
    )
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = PwpqParams::from_params(params)?;
    Ok(pwpq(&p, &module_name("pwpq", params, PwpqParams::SPECS))?)
}

fn paper_figures(params: &Params) -> Vec<PaperFigure> {
    PwpqParams::from_params(params)
        .ok()
        .and_then(|p| paper_storage(&p))
        .map(|s| vec![PaperFigure::new("PWPQ: 192 entries, 768 bytes (32 bits per entry), scaled", s.bits)])
        .unwrap_or_default()
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "pwpq",
    summary: "per-warp predicate queue: predicate masks from the PEU, one FIFO partition per warp",
    source: "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.1 and 4.8",
    params: PwpqParams::SPECS,
    build,
    paper_storage: paper_figures,
    composed: false,
};
