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
//! | `enq_valid`, `enq_tuple` | in | 1, 278 | the affine warp's `enq` (ATQ) |
//! | `cta_valid`, `cta_bidx`, `cta_warp0`, `blk_dim_{x,y,z}_m1` | in | C, 48C, WB·C, 10/10/6 | CTA configuration, to both expansion units |
//! | `deq_addr`, `deq_addr_warp` | in | 1, WB | a non-affine warp's `deq.addr` (PWAQ) |
//! | `deq_pred`, `deq_pred_warp` | in | 1, WB | a non-affine warp's `deq.pred` (PWPQ) |
//! | `aeu_lane_mask`, `peu_lane_mask` | in | 32·W, 32·W | each unit's `lane_mask`: the active threads per warp of the tuple it works on, held while it does |
//! | `aeu_cta_hold` | in | C | the AEU's `cta_hold`: per CTA slot, its expansion of the AEU's tuple waits (§4.2: the CTA's warps have not passed the barrier the tuple was enqueued after) |
//! | `enq_ready_addr`, `enq_ready_pred` | out | 1, 1 | ATQ `enq_ready_*`: the affine warp may issue an `enq` of that kind (address or data; predicate) |
//! | `atq_count` | out | clog2(atq_entries+1) | ATQ occupancy |
//! | `addr_rec`, `addr_empty` | out | 62, 1 | PWAQ `deq_rec`, `deq_empty` for `deq_addr_warp` |
//! | `pred_mask`, `pred_empty` | out | 32, 1 | PWPQ `deq_mask`, `deq_empty` for `deq_pred_warp` |
//! | `pwaq_empty_vec`, `pwpq_empty_vec` | out | warps, warps | per-warp empty flags for the scheduler |
//! | `l1_req`, `l1_req_line` | out | 1, 25 | the AEU pushes a non-empty `enq.data` record this cycle: its line goes to L1 (line 0 otherwise) |
//! | `aeu_push`, `aeu_push_warp`, `aeu_push_last` | out | 1, WB, 1 | the AEU pushes a record into a warp's PWAQ partition this cycle, and whether it is the warp's last for the tuple (the scoreboard's view of the queue writes) |
//! | `peu_push`, `peu_push_warp` | out | 1, WB | the PEU pushes a mask into a warp's PWPQ partition this cycle |
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
//! ATQ 6687 + AEU 896 + PEU 1108 + PWAQ 12192 + PWPQ 6432 = 27315 bits
//! (24720 memory, 2595 flip-flops). The paper: ATQ 393 + PWAQ 1560 + PWPQ
//! 768 bytes = 21768 bits; the differences are explained in each block
//! (wider ATQ entries +3528, narrower PWAQ records −576, per-warp pointers
//! and flags +576, ATQ pointers +15, and the expansion units' registers
//! +2004, which the paper counts as "2 ALUs").

use super::aeu::AeuParams;
use super::atq::AtqParams;
use super::peu::PeuParams;
use super::pwaq::PwaqParams;
use super::pwpq::PwpqParams;
use super::{record, tuple, CtaConfigIo, WARP_SIZE};
use crate::clog2;
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, StorageAccount, StorageDiff};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the composed DAC unit: its sub-blocks' specs (the
    /// queues' sizes renamed per queue).
    pub struct DacUnitParams {
        warps: u32 = shared(super::WARPS),
        ctas: u32 = shared(super::CTAS),
        atq_entries: u32 = shared(super::atq::ENTRIES.renamed("atq_entries")),
        pwaq_entries: u32 = shared(super::QUEUE_ENTRIES.renamed("pwaq_entries")),
        pwpq_entries: u32 = shared(super::QUEUE_ENTRIES.renamed("pwpq_entries")),
    }
    check = |d: &DacUnitParams| {
        super::partitions("pwaq_entries", d.pwaq_entries, d.warps)?;
        super::partitions("pwpq_entries", d.pwpq_entries, d.warps)
    };
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

/// The unit's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DacUnitIo<H> {
    pub rst: H,
    pub enq_valid: H,
    pub enq_tuple: H,
    pub cta: CtaConfigIo<H>,
    pub deq_addr: H,
    pub deq_addr_warp: H,
    pub deq_pred: H,
    pub deq_pred_warp: H,
    pub aeu_lane_mask: H,
    pub peu_lane_mask: H,
    pub aeu_cta_hold: H,
    pub enq_ready_addr: H,
    pub enq_ready_pred: H,
    pub atq_count: H,
    pub addr_rec: H,
    pub addr_empty: H,
    pub pred_mask: H,
    pub pred_empty: H,
    pub pwaq_empty_vec: H,
    pub pwpq_empty_vec: H,
    pub l1_req: H,
    pub l1_req_line: H,
    pub aeu_push: H,
    pub aeu_push_warp: H,
    pub aeu_push_last: H,
    pub peu_push: H,
    pub peu_push_warp: H,
    pub aeu_idle: H,
    pub peu_idle: H,
    pub peu_cnt_scalar: H,
    pub peu_cnt_uniform: H,
    pub peu_cnt_serial: H,
    pub peu_cnt_cmp: H,
}

impl Interface for DacUnitParams {
    type Io<H> = DacUnitIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> DacUnitIo<B::H> {
        let wb = self.warp_bits();
        DacUnitIo {
            rst: b.reset(),
            enq_valid: b.input("enq_valid", 1),
            enq_tuple: b.input("enq_tuple", tuple::BITS),
            cta: CtaConfigIo::describe(b, self.ctas, wb),
            deq_addr: b.input("deq_addr", 1),
            deq_addr_warp: b.input("deq_addr_warp", wb),
            deq_pred: b.input("deq_pred", 1),
            deq_pred_warp: b.input("deq_pred_warp", wb),
            aeu_lane_mask: b.input("aeu_lane_mask", WARP_SIZE * self.warps),
            peu_lane_mask: b.input("peu_lane_mask", WARP_SIZE * self.warps),
            aeu_cta_hold: b.input("aeu_cta_hold", self.ctas),
            enq_ready_addr: b.output("enq_ready_addr", 1),
            enq_ready_pred: b.output("enq_ready_pred", 1),
            atq_count: b.output("atq_count", self.atq().count_bits()),
            addr_rec: b.output("addr_rec", record::BITS),
            addr_empty: b.output("addr_empty", 1),
            pred_mask: b.output("pred_mask", WARP_SIZE),
            pred_empty: b.output("pred_empty", 1),
            pwaq_empty_vec: b.output("pwaq_empty_vec", self.warps),
            pwpq_empty_vec: b.output("pwpq_empty_vec", self.warps),
            l1_req: b.output("l1_req", 1),
            l1_req_line: b.output("l1_req_line", record::LINE_BITS),
            aeu_push: b.output("aeu_push", 1),
            aeu_push_warp: b.output("aeu_push_warp", wb),
            aeu_push_last: b.output("aeu_push_last", 1),
            peu_push: b.output("peu_push", 1),
            peu_push_warp: b.output("peu_push_warp", wb),
            aeu_idle: b.output("aeu_idle", 1),
            peu_idle: b.output("peu_idle", 1),
            peu_cnt_scalar: b.output("peu_cnt_scalar", 32),
            peu_cnt_uniform: b.output("peu_cnt_uniform", 32),
            peu_cnt_serial: b.output("peu_cnt_serial", 32),
            peu_cnt_cmp: b.output("peu_cnt_cmp", 32),
        }
    }
}

impl Block for DacUnitParams {
    const NAME: &'static str = "dac_unit";
    const SUMMARY: &'static str = "DAC unit: ATQ + AEU + PEU + PWAQ + PWPQ as one hierarchy (Figure 9)";
    const SOURCE: &'static str =
        "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, section 4.1, Figure 9";
    const COMPOSED: bool = true;

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        dac_unit(self, name)
    }

    /// The sub-blocks' accounts (the unit adds no registers of its own).
    fn storage(&self) -> StorageAccount {
        let parts = [
            ("atq", self.atq().storage()),
            ("aeu", self.aeu().storage()),
            ("peu", self.peu().storage()),
            ("pwaq", self.pwaq().storage()),
            ("pwpq", self.pwpq().storage()),
        ];
        let mut acc = StorageAccount::default();
        for (sub, a) in parts {
            acc.paper.extend(a.paper);
            acc.differences.extend(a.differences.into_iter().map(|d| StorageDiff::new(d.bits, format!("{sub}: {}", d.reason))));
        }
        acc
    }
}

/// Generate the DAC unit: the five sub-blocks as instances, the in-order
/// dispatcher of the ATQ head, and the queue wiring of Figure 9.
pub fn dac_unit(p: &DacUnitParams, name: &str) -> Result<Arc<Module>, HwError> {
    let (atq_p, aeu_p, peu_p, pwaq_p, pwpq_p) = (p.atq(), p.aeu(), p.peu(), p.pwaq(), p.pwpq());
    let atq_m = atq_p.elaborate()?;
    let aeu_m = aeu_p.elaborate()?;
    let peu_m = peu_p.elaborate()?;
    let pwaq_m = pwaq_p.elaborate()?;
    let pwpq_m = pwpq_p.elaborate()?;

    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "DAC unit (Wang and Lin, ISCA 2017, section 4.1, Figure 9): affine tuple queue ({} entries) dispatching \
         in order to the address expansion unit (into the per-warp address queue, {} entries) and the predicate \
         expansion unit (into the per-warp predicate queue, {} entries), {} warps, {} CTAs.",
        p.atq_entries, p.pwaq_entries, p.pwpq_entries, p.warps, p.ctas
    ));
    let io = p.decls();
    let enq_valid = m.port(&io.enq_valid);
    let enq_tuple = m.port(&io.enq_tuple);
    let cfg: Vec<Sig> = io.cta.as_array().iter().map(|d| m.port(d)).collect();
    let deq_addr = m.port(&io.deq_addr);
    let deq_addr_warp = m.port(&io.deq_addr_warp);
    let deq_pred = m.port(&io.deq_pred);
    let deq_pred_warp = m.port(&io.deq_pred_warp);
    let aeu_lanes = m.port(&io.aeu_lane_mask);
    let peu_lanes = m.port(&io.peu_lane_mask);
    let aeu_hold = m.port(&io.aeu_cta_hold);
    let outs = [
        &io.enq_ready_addr,
        &io.enq_ready_pred,
        &io.atq_count,
        &io.addr_rec,
        &io.addr_empty,
        &io.pred_mask,
        &io.pred_empty,
        &io.pwaq_empty_vec,
        &io.pwpq_empty_vec,
        &io.l1_req,
        &io.l1_req_line,
        &io.aeu_push,
        &io.aeu_push_warp,
        &io.aeu_push_last,
        &io.peu_push,
        &io.peu_push_warp,
        &io.aeu_idle,
        &io.peu_idle,
        &io.peu_cnt_scalar,
        &io.peu_cnt_uniform,
        &io.peu_cnt_serial,
        &io.peu_cnt_cmp,
    ];
    let o: Vec<Sig> = outs.iter().map(|d| m.port(d)).collect();

    let q_atq = m.instance("u_atq", &atq_m).io(&atq_p);
    let u_aeu = m.instance("u_aeu", &aeu_m).io(&aeu_p);
    let u_peu = m.instance("u_peu", &peu_m).io(&peu_p);
    let q_pwaq = m.instance("u_pwaq", &pwaq_m).io(&pwaq_p);
    let q_pwpq = m.instance("u_pwpq", &pwpq_m).io(&pwpq_p);

    // ATQ: the affine warp's enq, backpressure from the per-warp queues.
    q_atq.enq_valid.set(enq_valid);
    q_atq.enq_tuple.set(enq_tuple);
    q_atq.pwaq_any_full.set(q_pwaq.any_full);
    q_atq.pwpq_any_full.set(q_pwpq.any_full);

    // In-order dispatch of the head by kind; a reserved kind is dropped.
    let head_valid = q_atq.head_valid.sig();
    let head = q_atq.head_tuple.sig();
    let kind = head.slice(tuple::KIND, 2);
    let to_aeu = (head_valid & (kind.eq(tuple::KIND_ADDR) | kind.eq(tuple::KIND_DATA))).named("to_aeu");
    let to_peu = (head_valid & kind.eq(tuple::KIND_PRED)).named("to_peu");
    let drop = head_valid & kind.eq(tuple::KIND_RSVD);
    u_aeu.in_valid.set(to_aeu);
    u_aeu.in_tuple.set(head);
    for (d, s) in u_aeu.cta.as_array().into_iter().zip(&cfg) {
        d.set(*s);
    }
    u_aeu.pwaq_full.set(q_pwaq.full_vec);
    u_aeu.lane_mask.set(aeu_lanes);
    u_aeu.cta_hold.set(aeu_hold);
    u_peu.in_valid.set(to_peu);
    u_peu.in_tuple.set(head);
    for (d, s) in u_peu.cta.as_array().into_iter().zip(&cfg) {
        d.set(*s);
    }
    u_peu.pwpq_full.set(q_pwpq.full_vec);
    u_peu.lane_mask.set(peu_lanes);
    let aeu_ready = u_aeu.in_ready.sig();
    let peu_ready = u_peu.in_ready.sig();
    let pop = ((to_aeu & aeu_ready) | (to_peu & peu_ready) | drop).named("atq_pop");
    q_atq.deq.set(pop);

    // Expansion results into the per-warp queues; the non-affine warps' deq.
    q_pwaq.enq.set(u_aeu.push);
    q_pwaq.enq_warp.set(u_aeu.push_warp);
    q_pwaq.enq_data.set(u_aeu.push_rec);
    q_pwaq.deq.set(deq_addr);
    q_pwaq.deq_warp.set(deq_addr_warp);
    q_pwpq.enq.set(u_peu.push);
    q_pwpq.enq_warp.set(u_peu.push_warp);
    q_pwpq.enq_data.set(u_peu.push_mask);
    q_pwpq.deq.set(deq_pred);
    q_pwpq.deq_warp.set(deq_pred_warp);

    let l1 = (u_aeu.push.sig() & u_aeu.push_data.sig()).named("l1");
    let line = u_aeu.push_rec.sig().slice(record::LINE, record::LINE_BITS);
    let vals = [
        q_atq.enq_ready_addr.sig(),
        q_atq.enq_ready_pred.sig(),
        q_atq.count.sig(),
        q_pwaq.deq_data.sig(),
        q_pwaq.deq_empty.sig(),
        q_pwpq.deq_data.sig(),
        q_pwpq.deq_empty.sig(),
        q_pwaq.empty_vec.sig(),
        q_pwpq.empty_vec.sig(),
        l1,
        mux(l1, line, lit(0, record::LINE_BITS)),
        u_aeu.push.sig(),
        u_aeu.push_warp.sig(),
        u_aeu.push_rec.sig().bit(record::LAST),
        u_peu.push.sig(),
        u_peu.push_warp.sig(),
        aeu_ready,
        peu_ready,
        u_peu.cnt_scalar.sig(),
        u_peu.cnt_uniform.sig(),
        u_peu.cnt_serial.sig(),
        u_peu.cnt_cmp.sig(),
    ];
    for (out, v) in o.iter().zip(vals) {
        out.set(v);
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<DacUnitParams>();
