//! DAC unit — Wang and Lin, ISCA 2017, §4.1, Figure 9: ATQ + AEU + PEU +
//! PWAQ + PWPQ wired together.
//!
//! ```text
//!  enq ─► ATQ ─head─► dispatch ─kind addr/data─► AEU ─push─► PWAQ ─► deq.addr
//!          ▲                   └─kind pred─────► PEU ─push─► PWPQ ─► deq.pred
//!          └──── any_full (PWAQ, PWPQ) ◄───────────────────────┘
//! ```
//!
//! # Parameters
//! `warps` (48), `ctas` (8), `atq_entries` (24), `pwaq_entries` (192),
//! `pwpq_entries` (192); the queue sizes must be non-zero multiples of
//! `warps`. `WB = clog2(warps)`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset of every sub-block |
//! | `enq_valid`, `enq_tuple` | in | 1, 262 | the affine warp's `enq` (ATQ) |
//! | `cta_valid`, `cta_bidx`, `cta_warp0`, `blk_dim_{x,y,z}_m1` | in | C, 48C, WB·C, 10/10/6 | CTA configuration, to both expansion units |
//! | `deq_addr`, `deq_addr_warp` | in | 1, WB | a non-affine warp's `deq.addr` (PWAQ) |
//! | `deq_pred`, `deq_pred_warp` | in | 1, WB | a non-affine warp's `deq.pred` (PWPQ) |
//! | `enq_ready` | out | 1 | ATQ `enq_ready`: the affine warp may issue `enq` |
//! | `atq_count` | out | clog2(atq_entries+1) | ATQ occupancy |
//! | `addr_rec`, `addr_empty` | out | 62, 1 | PWAQ `deq_rec`, `deq_empty` for `deq_addr_warp` |
//! | `pred_mask`, `pred_empty` | out | 32, 1 | PWPQ `deq_mask`, `deq_empty` for `deq_pred_warp` |
//! | `pwaq_empty_vec`, `pwpq_empty_vec` | out | warps, warps | per-warp empty flags for the scheduler |
//! | `l1_req`, `l1_req_line` | out | 1, 25 | the AEU pushes an `enq.data` record this cycle: its line goes to L1 (line 0 otherwise) |
//! | `aeu_idle`, `peu_idle` | out | 1, 1 | the units' `in_ready` |
//! | `peu_cnt_scalar`, `_uniform`, `_serial`, `_cmp` | out | 32 each | the PEU's path counters |
//!
//! # Wiring (all inside one cycle; no combinational loop)
//! * ATQ: `enq_*` from the ports; `pwaq_any_full`/`pwpq_any_full` from the
//!   queues (registered state).
//! * Dispatch of the ATQ head by KIND: addr/data → AEU `in_valid`, pred → PEU
//!   `in_valid`; both units get `head_tuple`. ATQ `deq` = (AEU `in_valid` &&
//!   `in_ready`) || (PEU `in_valid` && `in_ready`) || (head valid && KIND =
//!   reserved: dropped). In-order dispatch: a head for a busy unit waits even
//!   if the other unit is idle; the two units work on different tuples at
//!   once (their outputs go to different queues, so per-queue order is the
//!   enq order).
//! * AEU `pwaq_full` = PWAQ `full_vec`, PEU `pwpq_full` = PWPQ `full_vec`;
//!   AEU `push*` → PWAQ `enq*`, PEU `push*` → PWPQ `enq*`; `deq*` from the
//!   ports. Since each queue has one producer and `full_vec` is registered,
//!   a unit never pushes into a full partition.
//!
//! # Storage (default parameters)
//! ATQ 6303 + AEU 943 + PEU 1154 + PWAQ 12240 + PWPQ 6480 = 27120 bits
//! (24336 memory, 2784 flip-flops). The paper: ATQ 393 + PWAQ 1560 + PWPQ
//! 768 bytes = 21768 bits; the differences are explained in each block
//! (wider ATQ entries, per-warp pointers, and the expansion units' registers,
//! which the paper counts as "2 ALUs").

use super::aeu::{self, AeuParams};
use super::atq::{self, AtqParams};
use super::peu::{self, PeuParams};
use super::pwaq::{self, PwaqParams};
use super::pwpq::{self, PwpqParams};
use super::{HwStorage, PaperStorage};
use crate::clog2;
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of the composed DAC unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DacUnitParams {
    pub warps: u32,
    pub ctas: u32,
    pub atq_entries: u32,
    pub pwaq_entries: u32,
    pub pwpq_entries: u32,
}

impl Default for DacUnitParams {
    fn default() -> Self {
        DacUnitParams { warps: 48, ctas: 8, atq_entries: 24, pwaq_entries: 192, pwpq_entries: 192 }
    }
}

impl BlockParams for DacUnitParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warp slots per SM (Table 1: 48)" },
        ParamSpec { name: "ctas", default: 8, min: 1, max: 16, doc: "concurrent CTAs per SM (Fermi: 8)" },
        ParamSpec {
            name: "atq_entries",
            default: 24,
            min: 1,
            max: 1024,
            doc: "affine tuple queue entries (paper: 24)",
        },
        ParamSpec {
            name: "pwaq_entries",
            default: 192,
            min: 1,
            max: 4096,
            doc: "per-warp address queue entries per SM, split evenly among warps (paper: 192)",
        },
        ParamSpec {
            name: "pwpq_entries",
            default: 192,
            min: 1,
            max: 4096,
            doc: "per-warp predicate queue entries per SM, split evenly among warps (paper: 192)",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let d = DacUnitParams {
            warps: p.get_u32("warps"),
            ctas: p.get_u32("ctas"),
            atq_entries: p.get_u32("atq_entries"),
            pwaq_entries: p.get_u32("pwaq_entries"),
            pwpq_entries: p.get_u32("pwpq_entries"),
        };
        for (name, e) in [("pwaq_entries", d.pwaq_entries), ("pwpq_entries", d.pwpq_entries)] {
            if e < d.warps || !e.is_multiple_of(d.warps) {
                return Err(p.invalid(format!(
                    "{name} ({e}) must be a non-zero multiple of warps ({}): each warp gets {name}/warps slots",
                    d.warps
                )));
            }
        }
        Ok(d)
    }
}

impl DacUnitParams {
    pub fn atq(&self) -> AtqParams {
        AtqParams { entries: self.atq_entries }
    }
    pub fn aeu(&self) -> AeuParams {
        AeuParams { warps: self.warps, ctas: self.ctas }
    }
    pub fn peu(&self) -> PeuParams {
        PeuParams { warps: self.warps, ctas: self.ctas }
    }
    pub fn pwaq(&self) -> PwaqParams {
        PwaqParams { warps: self.warps, entries: self.pwaq_entries }
    }
    pub fn pwpq(&self) -> PwpqParams {
        PwpqParams { warps: self.warps, entries: self.pwpq_entries }
    }
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
}

/// The paper's ATQ + PWAQ + PWPQ figures (the expansion units have none).
pub fn paper_storage(p: &DacUnitParams) -> Option<PaperStorage> {
    let bits = [atq::paper_storage(&p.atq()), pwaq::paper_storage(&p.pwaq()), pwpq::paper_storage(&p.pwpq())]
        .iter()
        .map(|s| s.map_or(0, |s| s.bits))
        .sum();
    Some(PaperStorage { bits, source: "§4.8: ATQ 393 + PWAQ 1560 + PWPQ 768 bytes" })
}

/// Sum of the five sub-blocks (the unit adds no registers of its own).
pub fn hw_storage(p: &DacUnitParams) -> HwStorage {
    let parts = [
        atq::hw_storage(&p.atq()),
        aeu::hw_storage(&p.aeu()),
        peu::hw_storage(&p.peu()),
        pwaq::hw_storage(&p.pwaq()),
        pwpq::hw_storage(&p.pwpq()),
    ];
    HwStorage { flop_bits: parts.iter().map(|s| s.flop_bits).sum(), mem_bits: parts.iter().map(|s| s.mem_bits).sum() }
}
