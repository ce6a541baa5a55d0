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
//! # Hierarchy
//! The sub-blocks are instances `u_atq`, `u_aeu`, `u_peu`, `u_pwaq`,
//! `u_pwpq` of the real generators (module names `atq`, `aeu`, ... at the
//! default parameters, with the non-default parameters appended otherwise).
//!
//! # Storage (default parameters)
//! ATQ 6303 + AEU 895 + PEU 1106 + PWAQ 12192 + PWPQ 6432 = 26928 bits
//! (24336 memory, 2592 flip-flops). The paper: ATQ 393 + PWAQ 1560 + PWPQ
//! 768 bytes = 21768 bits; the differences are explained in each block
//! (wider ATQ entries +3144, narrower PWAQ records −576, per-warp pointers
//! and flags +576, ATQ pointers +15, and the expansion units' registers
//! +2001, which the paper counts as "2 ALUs").

use super::aeu::{self, AeuParams};
use super::atq::{self, AtqParams};
use super::peu::{self, PeuParams};
use super::pwaq::{self, PwaqParams};
use super::pwpq::{self, PwpqParams};
use super::{cta, record, tuple, HwStorage, PaperStorage, WARP_SIZE};
use crate::clog2;
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

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

/// Module name of a sub-block: its name with the non-default parameters
/// appended, as [`module_name`] names a top-level block.
fn sub_name(base: &str, specs: &[ParamSpec], values: &[u64]) -> String {
    let mut name = base.to_string();
    for (spec, &v) in specs.iter().zip(values) {
        if v != spec.default {
            name.push_str(&format!("_{}{}", spec.name, v));
        }
    }
    name
}

/// Generate the DAC unit: the five sub-blocks as instances, the in-order
/// dispatcher of the ATQ head, and the queue wiring of Figure 9.
pub fn dac_unit(p: &DacUnitParams, name: &str) -> Result<Arc<Module>, HwError> {
    let (w, c) = (p.warps as u64, p.ctas as u64);
    let atq_m = atq::atq(&p.atq(), &sub_name("atq", AtqParams::SPECS, &[p.atq_entries as u64]))?;
    let aeu_m = aeu::aeu(&p.aeu(), &sub_name("aeu", AeuParams::SPECS, &[w, c]))?;
    let peu_m = peu::peu(&p.peu(), &sub_name("peu", PeuParams::SPECS, &[w, c]))?;
    let pwaq_m = pwaq::pwaq(&p.pwaq(), &sub_name("pwaq", PwaqParams::SPECS, &[w, p.pwaq_entries as u64]))?;
    let pwpq_m = pwpq::pwpq(&p.pwpq(), &sub_name("pwpq", PwpqParams::SPECS, &[w, p.pwpq_entries as u64]))?;

    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "DAC unit (Wang and Lin, ISCA 2017, section 4.1, Figure 9): affine tuple queue ({} entries) dispatching \
         in order to the address expansion unit (into the per-warp address queue, {} entries) and the predicate \
         expansion unit (into the per-warp predicate queue, {} entries), {} warps, {} CTAs.",
        p.atq_entries, p.pwaq_entries, p.pwpq_entries, p.warps, p.ctas
    ));
    let wb = p.warp_bits();
    let enq_valid = m.input("enq_valid", 1);
    let enq_tuple = m.input("enq_tuple", tuple::BITS);
    let cfg_names = ["cta_valid", "cta_bidx", "cta_warp0", "blk_dim_x_m1", "blk_dim_y_m1", "blk_dim_z_m1"];
    let cfg_widths = [
        p.ctas,
        cta::BIDX_BITS * p.ctas,
        wb * p.ctas,
        cta::DIM_X_M1_BITS,
        cta::DIM_Y_M1_BITS,
        cta::DIM_Z_M1_BITS,
    ];
    let cfg: Vec<Sig> = cfg_names.iter().zip(cfg_widths).map(|(n, wd)| m.input(n, wd)).collect();
    let deq_addr = m.input("deq_addr", 1);
    let deq_addr_warp = m.input("deq_addr_warp", wb);
    let deq_pred = m.input("deq_pred", 1);
    let deq_pred_warp = m.input("deq_pred_warp", wb);
    let outs = [
        ("enq_ready", 1),
        ("atq_count", p.atq().count_bits()),
        ("addr_rec", record::BITS),
        ("addr_empty", 1),
        ("pred_mask", WARP_SIZE),
        ("pred_empty", 1),
        ("pwaq_empty_vec", p.warps),
        ("pwpq_empty_vec", p.warps),
        ("l1_req", 1),
        ("l1_req_line", record::LINE_BITS),
        ("aeu_idle", 1),
        ("peu_idle", 1),
        ("peu_cnt_scalar", 32),
        ("peu_cnt_uniform", 32),
        ("peu_cnt_serial", 32),
        ("peu_cnt_cmp", 32),
    ];
    let o: Vec<Sig> = outs.iter().map(|&(n, wd)| m.output(n, wd)).collect();

    let q_atq = m.instance("u_atq", &atq_m);
    let u_aeu = m.instance("u_aeu", &aeu_m);
    let u_peu = m.instance("u_peu", &peu_m);
    let q_pwaq = m.instance("u_pwaq", &pwaq_m);
    let q_pwpq = m.instance("u_pwpq", &pwpq_m);

    // ATQ: the affine warp's enq, backpressure from the per-warp queues.
    q_atq.connect("enq_valid", enq_valid);
    q_atq.connect("enq_tuple", enq_tuple);
    q_atq.connect("pwaq_any_full", q_pwaq.output("any_full"));
    q_atq.connect("pwpq_any_full", q_pwpq.output("any_full"));

    // In-order dispatch of the head by kind; a reserved kind is dropped.
    let head_valid = q_atq.output("head_valid");
    let head = q_atq.output("head_tuple");
    let kind = head.slice(tuple::KIND, 2);
    let to_aeu = (head_valid & (kind.eq(tuple::KIND_ADDR) | kind.eq(tuple::KIND_DATA))).named("to_aeu");
    let to_peu = (head_valid & kind.eq(tuple::KIND_PRED)).named("to_peu");
    let drop = head_valid & kind.eq(tuple::KIND_RSVD);
    for (u, valid, full) in [
        (u_aeu, to_aeu, ("pwaq_full", q_pwaq.output("full_vec"))),
        (u_peu, to_peu, ("pwpq_full", q_pwpq.output("full_vec"))),
    ] {
        u.connect("in_valid", valid);
        u.connect("in_tuple", head);
        for (n, s) in cfg_names.iter().zip(&cfg) {
            u.connect(n, *s);
        }
        u.connect(full.0, full.1);
    }
    let aeu_ready = u_aeu.output("in_ready");
    let peu_ready = u_peu.output("in_ready");
    let pop = ((to_aeu & aeu_ready) | (to_peu & peu_ready) | drop).named("atq_pop");
    q_atq.connect("deq", pop);

    // Expansion results into the per-warp queues; the non-affine warps' deq.
    for (q, u, val, dq, dw) in [
        (q_pwaq, u_aeu, ("enq_rec", "push_rec"), deq_addr, deq_addr_warp),
        (q_pwpq, u_peu, ("enq_mask", "push_mask"), deq_pred, deq_pred_warp),
    ] {
        q.connect("enq", u.output("push"));
        q.connect("enq_warp", u.output("push_warp"));
        q.connect(val.0, u.output(val.1));
        q.connect("deq", dq);
        q.connect("deq_warp", dw);
    }

    let l1 = (u_aeu.output("push") & u_aeu.output("push_data")).named("l1");
    let line = u_aeu.output("push_rec").slice(record::LINE, record::LINE_BITS);
    let vals = [
        q_atq.output("enq_ready"),
        q_atq.output("count"),
        q_pwaq.output("deq_rec"),
        q_pwaq.output("deq_empty"),
        q_pwpq.output("deq_mask"),
        q_pwpq.output("deq_empty"),
        q_pwaq.output("empty_vec"),
        q_pwpq.output("empty_vec"),
        l1,
        mux(l1, line, lit(0, record::LINE_BITS)),
        aeu_ready,
        peu_ready,
        u_peu.output("cnt_scalar"),
        u_peu.output("cnt_uniform"),
        u_peu.output("cnt_serial"),
        u_peu.output("cnt_cmp"),
    ];
    for (out, v) in o.iter().zip(vals) {
        out.set(v);
    }
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = DacUnitParams::from_params(params)?;
    Ok(dac_unit(&p, &module_name("dac_unit", params, DacUnitParams::SPECS))?)
}

fn paper_figures(params: &Params) -> Vec<PaperFigure> {
    let Ok(p) = DacUnitParams::from_params(params) else { return vec![] };
    let fig = |s: Option<PaperStorage>| s.map_or(0, |s| s.bits);
    vec![
        PaperFigure::new("ATQ: 24 entries, 393 bytes, scaled", fig(atq::paper_storage(&p.atq()))),
        PaperFigure::new("PWAQ: 192 entries, 1560 bytes, scaled", fig(pwaq::paper_storage(&p.pwaq()))),
        PaperFigure::new("PWPQ: 192 entries, 768 bytes, scaled", fig(pwpq::paper_storage(&p.pwpq()))),
    ]
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "dac_unit",
    summary: "DAC unit: ATQ + AEU + PEU + PWAQ + PWPQ as one hierarchy (Figure 9)",
    source: "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, section 4.1, Figure 9",
    params: DacUnitParams::SPECS,
    build,
    paper_storage: paper_figures,
    composed: true,
};
