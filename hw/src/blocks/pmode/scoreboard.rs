//! Dual-mode scoreboard of warp pre-execution (Kim et al., HPCA 2016,
//! "Warped-Preexecution", section 4 and Figure 8; baseline in section 2).
//!
//! Per warp there are two boards, N (normal mode) and P (pre-execution mode);
//! each holds two bits per architected register: `pending` (a value is in
//! flight) and `long` (it is pending on a long-latency operation, a global
//! load). The paper's accounting is 126 bits per warp per board (63 x 2).
//!
//! # Ports
//! `K = issue_ports` (one per warp scheduler, 2 in the paper's Table 1),
//! `J = wb_ports`, `S = srcs`, `D = dsts`, `WW = clog2(warps)`, `RW = clog2(regs)`.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `iss{k}_warp` | in | WW | warp of the instruction at issue port k |
//! | `iss{k}_pmode` | in | 1 | consult and update the P board (else N) |
//! | `iss{k}_src{s}`, `iss{k}_src{s}_vld` | in | RW, 1 | source registers |
//! | `iss{k}_dst`, `iss{k}_dst_vld` | in | RW, 1 | destination register (destination 0) |
//! | `iss{k}_dst{d}`, `iss{k}_dst{d}_vld` | in | RW, 1 | destination `d` = 1..D-1 (a 64-bit pair, a vector load) |
//! | `iss{k}_fire` | in | 1 | the instruction issues: `pending[dst]` <- 1, `long[dst]` <- `iss{k}_long`, for every valid destination |
//! | `iss{k}_long` | in | 1 | it is a long-latency operation (global load) |
//! | `iss{k}_skip` | in | 1 | P-mode skip: `long[dst]` <- 1 for every valid destination, so dependents are skipped too |
//! | `wb{j}_en`, `wb{j}_warp`, `wb{j}_reg` | in | 1, WW, RW | a value is written back |
//! | `wb{j}_n`, `wb{j}_p` | in | 1 | the writeback clears the N / P board |
//! | `copy_en`, `copy_warp` | in | 1, WW | mode entry: the warp's P board <- its N board |
//! | `iss{k}_src_pending` | out | 1 | a valid source is pending |
//! | `iss{k}_dst_pending` | out | 1 | a valid destination is pending (WAW) |
//! | `iss{k}_dst_pending_bits` | out | D | only when D > 1: bit d = destination d is valid and pending (the mode controller's WAW test per destination) |
//! | `iss{k}_stall` | out | 1 | `src_pending \| dst_pending` |
//! | `iss{k}_long_dep` | out | 1 | a valid source has `long` set (P-mode trigger / skip) |
//! | `iss{k}_src{s}_long` | out | 1 | source s is valid and has `long` set (which load a trigger waits on) |
//! | `iss{k}_dst_long` | out | 1 | a valid destination has `long` set (P-mode: a re-definition of a skipped value) |
//!
//! # Cycle behaviour (decisions where the paper is silent)
//! - Queries are combinational and read the board selected by `iss{k}_pmode`.
//! - **Same-cycle writeback bypass:** a register written back this cycle (on
//!   the queried board) already reads as neither pending nor long, so a
//!   dependent instruction can issue in the writeback cycle, as in GPGPU-Sim
//!   where writeback precedes issue within a cycle.
//! - **Same-cycle issue and writeback of one register:** the writeback (an
//!   older instruction) clears first, then the issue sets: after the edge the
//!   register is pending, with `long` = the issuing instruction's `iss_long`.
//!   Several ports updating one warp merge (all clears, then all sets).
//! - **Mode entry:** with `copy_en`, at the edge the P board of `copy_warp`
//!   takes the N board's *next* value (including this cycle's writebacks and
//!   N-board issues), replacing any P-board update of that warp in the same
//!   cycle. Nothing ever writes the N board from P-mode activity, so it is
//!   untouched while the warp pre-executes.
//! - Register ids `>= regs` (e.g. 63, Fermi's zero register RZ, with the
//!   default 63 registers) never read as pending and are never marked.
//!   Warp ids `>= warps` read as idle and are never updated.
//! - Reset clears both boards of every warp.
//! - An instruction may write up to `dsts` registers (the SM's 64-bit pairs
//!   and `ld.v4`): every valid destination is marked at `fire` / `skip`,
//!   and `dst_pending` is any valid destination pending. Two destinations
//!   naming one register mark it once. Destination 0 keeps the names
//!   `iss{k}_dst` / `iss{k}_dst_vld`, so with `dsts = 1` (the paper's
//!   instructions) the block is what it always was.
//!
//! Storage: 4 register arrays of `warps x regs` bits (N/P x pending/long):
//! 12,096 flip-flops at 48 x 63, i.e. 126 bits per board per warp as in the
//! paper; the paper counts only the added P board (126 bits per warp).

use super::Operand;
use crate::iface::{Binder, Interface};
use crate::iface::InterfaceExt;
use crate::ir::{cat, lit, mux, onehot, HwError, MemHandle, Module, ModuleBuilder, Sig};
use crate::params::clog2;
use crate::registry::{Block, PaperFigure, StorageAccount};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the dual-mode scoreboard (the P-mode family's: one
    /// spec each, shared with the other P-mode blocks and `pmode_unit`; but
    /// `warps` reaches 128, because the baseline SM's scoreboard also serves
    /// seed 000's 2xTLP comparator, 96 warps).
    pub struct ScoreboardParams {
        warps: u32 = spec { 48, 1..=128, "warps per SM", "Table 1 (2xTLP, section 6.4: 96)" },
        regs: u32 = shared(super::REGS),
        issue_ports: u32 = shared(super::ISSUE_PORTS),
        wb_ports: u32 = shared(super::WB_PORTS),
        srcs: u32 = shared(super::SRCS),
        dsts: u32 = shared(super::DSTS),
    }
}

impl ScoreboardParams {
    pub fn warp_width(&self) -> u32 {
        clog2(self.warps as u64)
    }
    pub fn reg_width(&self) -> u32 {
        clog2(self.regs as u64)
    }
}

/// The scoreboard's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreboardIo<H> {
    pub rst: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<ScoreboardIssue<H>>,
    /// Writeback port `j`: `wb{j}_*`.
    pub wb: Vec<ScoreboardWb<H>>,
    pub copy_en: H,
    pub copy_warp: H,
}

/// One issue port: the instruction and its query results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreboardIssue<H> {
    pub warp: H,
    pub pmode: H,
    /// Source `s`: `iss{k}_src{s}`, `iss{k}_src{s}_vld`.
    pub src: Vec<Operand<H>>,
    /// Destination `d`: `iss{k}_dst`, `iss{k}_dst_vld` for d = 0, else
    /// `iss{k}_dst{d}`, `iss{k}_dst{d}_vld`.
    pub dst: Vec<Operand<H>>,
    pub fire: H,
    pub long: H,
    pub skip: H,
    pub src_pending: H,
    pub dst_pending: H,
    pub stall: H,
    pub long_dep: H,
    /// `iss{k}_src{s}_long`.
    pub src_long: Vec<H>,
    pub dst_long: H,
    /// `iss{k}_dst_pending_bits` (`dsts` bits, only when `dsts > 1`): bit d
    /// = destination d is valid and pending. At `dsts = 1` that bit is
    /// `dst_pending` itself.
    pub dst_pending_bits: Option<H>,
}

/// One writeback port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreboardWb<H> {
    pub en: H,
    pub warp: H,
    pub reg: H,
    pub n: H,
    pub p: H,
}

/// Destination `d`'s name within an issue port: `dst`, `dst1`, `dst2`, ...
fn dst_name(d: u32) -> String {
    super::per_dst("dst", d)
}

impl Interface for ScoreboardParams {
    type Io<H> = ScoreboardIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> ScoreboardIo<B::H> {
        let (ww, rw) = (self.warp_width(), self.reg_width());
        ScoreboardIo {
            rst: b.reset(),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    ScoreboardIssue {
                        warp: b.input(n("warp"), ww),
                        pmode: b.input(n("pmode"), 1),
                        src: (0..self.srcs).map(|s| Operand::describe(b, &n(&format!("src{s}")), rw)).collect(),
                        dst: (0..self.dsts).map(|d| Operand::describe(b, &n(&dst_name(d)), rw)).collect(),
                        fire: b.input(n("fire"), 1),
                        long: b.input(n("long"), 1),
                        skip: b.input(n("skip"), 1),
                        src_pending: b.output(n("src_pending"), 1),
                        dst_pending: b.output(n("dst_pending"), 1),
                        stall: b.output(n("stall"), 1),
                        long_dep: b.output(n("long_dep"), 1),
                        src_long: (0..self.srcs).map(|s| b.output(n(&format!("src{s}_long")), 1)).collect(),
                        dst_long: b.output(n("dst_long"), 1),
                        dst_pending_bits: (self.dsts > 1).then(|| b.output(n("dst_pending_bits"), self.dsts)),
                    }
                })
                .collect(),
            wb: (0..self.wb_ports)
                .map(|j| {
                    let n = |f: &str| format!("wb{j}_{f}");
                    ScoreboardWb {
                        en: b.input(n("en"), 1),
                        warp: b.input(n("warp"), ww),
                        reg: b.input(n("reg"), rw),
                        n: b.input(n("n"), 1),
                        p: b.input(n("p"), 1),
                    }
                })
                .collect(),
            copy_en: b.input("copy_en", 1),
            copy_warp: b.input("copy_warp", ww),
        }
    }
}

impl Block for ScoreboardParams {
    const NAME: &'static str = "scoreboard";
    const SUMMARY: &'static str = "dual-mode scoreboard: N and P boards of pending/long bits per warp register";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, section 4, Figure 8";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        scoreboard(self, name)
    }

    fn storage(&self) -> StorageAccount {
        let (w, r) = (self.warps as u64, self.regs as u64);
        StorageAccount {
            paper: vec![
                PaperFigure::new(format!("N board (baseline scoreboard, {r} x 2 bits per warp)"), 2 * r * w),
                PaperFigure::new(format!("P board (the added copy, {} bits per warp)", 2 * r), 2 * r * w),
            ],
            differences: Vec::new(),
        }
    }
}

/// Per issue port: the inputs and the set masks they imply for one board.
struct IssuePort {
    warp: Sig,
    pmode: Sig,
    srcs: Vec<(Sig, Sig)>,
    /// Per destination: (register, valid, one-hot mask).
    dsts: Vec<(Sig, Sig, Sig)>,
    /// Some destination is valid.
    any_dst: Sig,
    fire: Sig,
    long: Sig,
    skip: Sig,
}

struct WbPort {
    en: Sig,
    warp: Sig,
    reg: Sig,
    n: Sig,
    p: Sig,
    mask: Sig,
}

/// One board: its two arrays and the per-cycle update of any warp's row.
struct Board {
    pending: MemHandle,
    long: MemHandle,
    is_p: bool,
}

impl Board {
    /// Writeback clear mask for `warp` on this board.
    fn clear(&self, warp: Sig, wbs: &[WbPort], regs: u32) -> Sig {
        wbs.iter().fold(lit(0, regs), |acc, wb| {
            let sel = if self.is_p { wb.p } else { wb.n };
            let hit = wb.en & sel & wb.warp.eq(warp);
            acc | mux(hit, wb.mask, lit(0, regs))
        })
    }

    /// (set pending, set long, clear long) masks from issue ports for `warp`.
    fn sets(&self, warp: Sig, iss: &[IssuePort], regs: u32) -> (Sig, Sig, Sig) {
        let zero = lit(0, regs);
        let (mut fire, mut long, mut skip) = (zero, zero, zero);
        for ip in iss {
            let on_board = if self.is_p { ip.pmode } else { !ip.pmode };
            for &(_, vld, mask) in &ip.dsts {
                let here = on_board & vld & ip.warp.eq(warp);
                let f = mux(here & ip.fire, mask, zero);
                fire = fire | f;
                long = long | mux(ip.long, f, zero);
                skip = skip | mux(here & ip.skip, mask, zero);
            }
        }
        (fire, long | skip, fire)
    }

    /// Next (pending, long) rows of `warp`.
    fn next(&self, warp: Sig, iss: &[IssuePort], wbs: &[WbPort], regs: u32) -> (Sig, Sig) {
        let clr = self.clear(warp, wbs, regs);
        let (set_p, set_l, clr_l) = self.sets(warp, iss, regs);
        let pending = (self.pending.read(warp) & !clr) | set_p;
        let long = (self.long.read(warp) & !clr & !clr_l) | set_l;
        (pending, long)
    }

}

/// Generate the scoreboard.
pub fn scoreboard(p: &ScoreboardParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Dual-mode scoreboard (warped pre-execution, HPCA 2016, section 4): {} warps x {} registers, \
         N and P boards of pending/long bits, {} issue port(s), {} writeback port(s), {} source(s) per instruction{}.",
        p.warps,
        p.regs,
        p.issue_ports,
        p.wb_ports,
        p.srcs,
        if p.dsts > 1 { format!(", {} destinations", p.dsts) } else { String::new() }
    ));
    let regs = p.regs;
    let io = p.decls();

    let iss: Vec<IssuePort> = io
        .iss
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let warp = m.port(&d.warp);
            let pmode = m.port(&d.pmode);
            let srcs = d.src.iter().map(|s| (m.port(&s.reg), m.port(&s.vld))).collect();
            let dst_io: Vec<(Sig, Sig)> = d.dst.iter().map(|o| (m.port(&o.reg), m.port(&o.vld))).collect();
            let fire = m.port(&d.fire);
            let long = m.port(&d.long);
            let skip = m.port(&d.skip);
            let dsts: Vec<(Sig, Sig, Sig)> = dst_io
                .iter()
                .zip(0u32..)
                .map(|(&(r, v), i)| (r, v, onehot(r, regs).named(&format!("iss{k}_{}_mask", dst_name(i)))))
                .collect();
            let any_dst = dsts[1..].iter().fold(dsts[0].1, |acc, &(_, v, _)| acc | v);
            IssuePort { warp, pmode, srcs, dsts, any_dst, fire, long, skip }
        })
        .collect();
    let wbs: Vec<WbPort> = io
        .wb
        .iter()
        .enumerate()
        .map(|(j, d)| {
            let en = m.port(&d.en);
            let warp = m.port(&d.warp);
            let reg = m.port(&d.reg);
            let n = m.port(&d.n);
            let pb = m.port(&d.p);
            let mask = onehot(reg, regs).named(&format!("wb{j}_mask"));
            WbPort { en, warp, reg, n, p: pb, mask }
        })
        .collect();
    let copy_en = m.port(&io.copy_en);
    let copy_warp = m.port(&io.copy_warp);

    let n = Board { pending: m.reg_array("n_pending", p.warps, regs, 0), long: m.reg_array("n_long", p.warps, regs, 0), is_p: false };
    let pb = Board { pending: m.reg_array("p_pending", p.warps, regs, 0), long: m.reg_array("p_long", p.warps, regs, 0), is_p: true };

    // Queries: the queried board's row is selected first and its bits
    // picked; this cycle's writebacks to that board and warp are bypassed by
    // comparing register ids (smaller than masking whole rows per board).
    for (k, ip) in iss.iter().enumerate() {
        let pending = mux(ip.pmode, pb.pending.read(ip.warp), n.pending.read(ip.warp)).named(&format!("iss{k}_pending_row"));
        let long = mux(ip.pmode, pb.long.read(ip.warp), n.long.read(ip.warp)).named(&format!("iss{k}_long_row"));
        let hits: Vec<(Sig, Sig)> = wbs.iter().map(|wb| (wb.en & mux(ip.pmode, wb.p, wb.n) & wb.warp.eq(ip.warp), wb.reg)).collect();
        // Register `r` of the queried row is written back this cycle.
        let cleared = |r: Sig| hits.iter().fold(lit(0, 1), |acc, &(hit, reg)| acc | (hit & reg.eq(r)));
        let pending_bit = |r: Sig| pending.bit_at(r) & !cleared(r);
        let src_pending = ip.srcs.iter().fold(lit(0, 1), |acc, &(r, v)| acc | (v & pending_bit(r)));
        let src_long: Vec<Sig> = ip.srcs.iter().map(|&(r, v)| v & long.bit_at(r) & !cleared(r)).collect();
        let long_dep = src_long.iter().fold(lit(0, 1), |acc, &l| acc | l);
        let dst_pend: Vec<Sig> = ip.dsts.iter().map(|&(r, v, _)| v & pending_bit(r)).collect();
        let dst_pending = dst_pend[1..].iter().fold(dst_pend[0], |acc, &x| acc | x);
        let dst_long = ip.dsts.iter().fold(lit(0, 1), |acc, &(r, v, _)| acc | (v & long.bit_at(r) & !cleared(r)));
        let d = &io.iss[k];
        m.port(&d.src_pending).set(src_pending);
        m.port(&d.dst_pending).set(dst_pending);
        m.port(&d.stall).set(src_pending | dst_pending);
        m.port(&d.long_dep).set(long_dep);
        for (o, l) in d.src_long.iter().zip(src_long) {
            m.port(o).set(l);
        }
        m.port(&d.dst_long).set(dst_long);
        if let Some(bits) = &d.dst_pending_bits {
            // Most significant first: destination D-1 .. destination 0.
            let msb_first: Vec<Sig> = dst_pend.iter().rev().copied().collect();
            m.port(bits).set(cat(&msb_first));
        }
    }

    // Updates: every warp touched this cycle gets one write port per array
    // per touch; touches of the same warp write identical rows.
    for board in [&n, &pb] {
        let mut touches: Vec<(Sig, Sig)> = Vec::new();
        for ip in &iss {
            let on_board = if board.is_p { ip.pmode } else { !ip.pmode };
            touches.push((ip.warp, on_board & ip.any_dst & (ip.fire | ip.skip)));
        }
        for wb in &wbs {
            touches.push((wb.warp, wb.en & if board.is_p { wb.p } else { wb.n }));
        }
        for (warp, en) in touches {
            let (pend, long) = board.next(warp, &iss, &wbs, regs);
            board.pending.write(warp, pend, en);
            board.long.write(warp, long, en);
        }
    }
    // Mode entry copies the N board's next rows; declared last, so it wins.
    let (cp, cl) = n.next(copy_warp, &iss, &wbs, regs);
    pb.pending.write(copy_warp, cp, copy_en);
    pb.long.write(copy_warp, cl, copy_en);
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<ScoreboardParams>();
