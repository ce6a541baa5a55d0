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
//! `J = wb_ports`, `S = srcs`, `WW = clog2(warps)`, `RW = clog2(regs)`.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `iss{k}_warp` | in | WW | warp of the instruction at issue port k |
//! | `iss{k}_pmode` | in | 1 | consult and update the P board (else N) |
//! | `iss{k}_src{s}`, `iss{k}_src{s}_vld` | in | RW, 1 | source registers |
//! | `iss{k}_dst`, `iss{k}_dst_vld` | in | RW, 1 | destination register |
//! | `iss{k}_fire` | in | 1 | the instruction issues: `pending[dst]` <- 1, `long[dst]` <- `iss{k}_long` |
//! | `iss{k}_long` | in | 1 | it is a long-latency operation (global load) |
//! | `iss{k}_skip` | in | 1 | P-mode skip: `long[dst]` <- 1 so dependents are skipped too |
//! | `wb{j}_en`, `wb{j}_warp`, `wb{j}_reg` | in | 1, WW, RW | a value is written back |
//! | `wb{j}_n`, `wb{j}_p` | in | 1 | the writeback clears the N / P board |
//! | `copy_en`, `copy_warp` | in | 1, WW | mode entry: the warp's P board <- its N board |
//! | `iss{k}_src_pending` | out | 1 | a valid source is pending |
//! | `iss{k}_dst_pending` | out | 1 | the valid destination is pending (WAW) |
//! | `iss{k}_stall` | out | 1 | `src_pending \| dst_pending` |
//! | `iss{k}_long_dep` | out | 1 | a valid source has `long` set (P-mode trigger / skip) |
//! | `iss{k}_src{s}_long` | out | 1 | source s is valid and has `long` set (which load a trigger waits on) |
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
//!
//! Storage: 4 register arrays of `warps x regs` bits (N/P x pending/long):
//! 12,096 flip-flops at 48 x 63, i.e. 126 bits per board per warp as in the
//! paper; the paper counts only the added P board (126 bits per warp).

use crate::ir::{lit, mux, onehot, MemHandle, ModuleBuilder, Sig};
use crate::params::{clog2, BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreboardParams {
    pub warps: u32,
    pub regs: u32,
    pub issue_ports: u32,
    pub wb_ports: u32,
    pub srcs: u32,
    pub dsts: u32,
}

impl Default for ScoreboardParams {
    fn default() -> Self {
        ScoreboardParams { warps: 48, regs: 63, issue_ports: 2, wb_ports: 2, srcs: 2, dsts: 1 }
    }
}

impl BlockParams for ScoreboardParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 1024, doc: "warps per SM (Table 1: 48)" },
        ParamSpec { name: "regs", default: 63, min: 1, max: 1024, doc: "architected registers per warp (section 2: 63)" },
        ParamSpec { name: "issue_ports", default: 2, min: 1, max: 4, doc: "issue ports, one per warp scheduler (Table 1: 2)" },
        ParamSpec { name: "wb_ports", default: 2, min: 1, max: 8, doc: "writeback ports" },
        ParamSpec { name: "srcs", default: 2, min: 1, max: 8, doc: "source operands per instruction (P-queue entry: 2)" },
        ParamSpec { name: "dsts", default: 1, min: 1, max: 4, doc: "destination registers per instruction (1; 64-bit pairs and vector loads write more)" },
    ];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(ScoreboardParams {
            warps: p.get_u32("warps"),
            regs: p.get_u32("regs"),
            issue_ports: p.get_u32("issue_ports"),
            wb_ports: p.get_u32("wb_ports"),
            srcs: p.get_u32("srcs"),
            dsts: p.get_u32("dsts"),
        })
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

/// Per issue port: the inputs and the set masks they imply for one board.
struct IssuePort {
    warp: Sig,
    pmode: Sig,
    srcs: Vec<(Sig, Sig)>,
    /// (register, valid, one-hot mask) per destination.
    dsts: Vec<(Sig, Sig, Sig)>,
    fire: Sig,
    long: Sig,
    skip: Sig,
}

/// Port name of destination `d`: `dst` for the first (the paper's one), then `dst1`, ...
pub fn dst_name(d: u32) -> String {
    if d == 0 {
        "dst".to_string()
    } else {
        format!("dst{d}")
    }
}

struct WbPort {
    en: Sig,
    warp: Sig,
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

    /// Rows as a query sees them (this cycle's writebacks bypassed).
    fn query(&self, warp: Sig, wbs: &[WbPort], regs: u32) -> (Sig, Sig) {
        let clr = self.clear(warp, wbs, regs);
        (self.pending.read(warp) & !clr, self.long.read(warp) & !clr)
    }
}

/// Generate the scoreboard.
pub fn scoreboard(p: &ScoreboardParams, name: &str) -> Result<Arc<crate::ir::Module>, crate::ir::HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Dual-mode scoreboard (warped pre-execution, HPCA 2016, section 4): {} warps x {} registers, \
         N and P boards of pending/long bits, {} issue port(s), {} writeback port(s), {} source(s) per instruction.",
        p.warps, p.regs, p.issue_ports, p.wb_ports, p.srcs
    ));
    let (ww, rw, regs) = (p.warp_width(), p.reg_width(), p.regs);

    let iss: Vec<IssuePort> = (0..p.issue_ports)
        .map(|k| {
            let warp = m.input(&format!("iss{k}_warp"), ww);
            let pmode = m.input(&format!("iss{k}_pmode"), 1);
            let srcs = (0..p.srcs)
                .map(|s| (m.input(&format!("iss{k}_src{s}"), rw), m.input(&format!("iss{k}_src{s}_vld"), 1)))
                .collect();
            let dsts: Vec<(Sig, Sig)> = (0..p.dsts)
                .map(|d| (m.input(&format!("iss{k}_{}", dst_name(d)), rw), m.input(&format!("iss{k}_{}_vld", dst_name(d)), 1)))
                .collect();
            let fire = m.input(&format!("iss{k}_fire"), 1);
            let long = m.input(&format!("iss{k}_long"), 1);
            let skip = m.input(&format!("iss{k}_skip"), 1);
            let dsts = dsts
                .into_iter()
                .enumerate()
                .map(|(d, (r, v))| (r, v, onehot(r, regs).named(&format!("iss{k}_{}_mask", dst_name(d as u32)))))
                .collect();
            IssuePort { warp, pmode, srcs, dsts, fire, long, skip }
        })
        .collect();
    let wbs: Vec<WbPort> = (0..p.wb_ports)
        .map(|j| {
            let en = m.input(&format!("wb{j}_en"), 1);
            let warp = m.input(&format!("wb{j}_warp"), ww);
            let reg = m.input(&format!("wb{j}_reg"), rw);
            let n = m.input(&format!("wb{j}_n"), 1);
            let pb = m.input(&format!("wb{j}_p"), 1);
            let mask = onehot(reg, regs).named(&format!("wb{j}_mask"));
            WbPort { en, warp, n, p: pb, mask }
        })
        .collect();
    let copy_en = m.input("copy_en", 1);
    let copy_warp = m.input("copy_warp", ww);

    let n = Board { pending: m.reg_array("n_pending", p.warps, regs, 0), long: m.reg_array("n_long", p.warps, regs, 0), is_p: false };
    let pb = Board { pending: m.reg_array("p_pending", p.warps, regs, 0), long: m.reg_array("p_long", p.warps, regs, 0), is_p: true };

    // Queries.
    for (k, ip) in iss.iter().enumerate() {
        let (np, nl) = n.query(ip.warp, &wbs, regs);
        let (pp, pl) = pb.query(ip.warp, &wbs, regs);
        let pending = mux(ip.pmode, pp, np).named(&format!("iss{k}_pending_row"));
        let long = mux(ip.pmode, pl, nl).named(&format!("iss{k}_long_row"));
        let src_pending = ip.srcs.iter().fold(lit(0, 1), |acc, &(r, v)| acc | (v & pending.bit_at(r)));
        let src_long: Vec<Sig> = ip.srcs.iter().map(|&(r, v)| v & long.bit_at(r)).collect();
        let long_dep = src_long.iter().fold(lit(0, 1), |acc, &l| acc | l);
        let dst_pending = ip.dsts.iter().skip(1).fold(ip.dsts[0].1 & pending.bit_at(ip.dsts[0].0), |acc, &(r, v, _)| acc | (v & pending.bit_at(r)));
        m.output(&format!("iss{k}_src_pending"), 1).set(src_pending);
        m.output(&format!("iss{k}_dst_pending"), 1).set(dst_pending);
        m.output(&format!("iss{k}_stall"), 1).set(src_pending | dst_pending);
        m.output(&format!("iss{k}_long_dep"), 1).set(long_dep);
        for (s, l) in src_long.into_iter().enumerate() {
            m.output(&format!("iss{k}_src{s}_long"), 1).set(l);
        }
    }

    // Updates: every warp touched this cycle gets one write port per array
    // per touch; touches of the same warp write identical rows.
    for board in [&n, &pb] {
        let mut touches: Vec<(Sig, Sig)> = Vec::new();
        for ip in &iss {
            let on_board = if board.is_p { ip.pmode } else { !ip.pmode };
            let any_dst = ip.dsts.iter().skip(1).fold(ip.dsts[0].1, |acc, &(_, v, _)| acc | v);
            touches.push((ip.warp, on_board & any_dst & (ip.fire | ip.skip)));
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
    m.finish()
}

fn build(params: &Params) -> Result<Arc<crate::ir::Module>, BlockError> {
    let p = ScoreboardParams::from_params(params)?;
    Ok(scoreboard(&p, &module_name("scoreboard", params, ScoreboardParams::SPECS))?)
}

fn paper_storage(params: &Params) -> Vec<PaperFigure> {
    let warps = params.get("warps");
    vec![
        PaperFigure::new("N board (baseline scoreboard, 63 x 2 bits per warp)", 126 * warps),
        PaperFigure::new("P board (the added copy, 126 bits per warp)", 126 * warps),
    ]
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "scoreboard",
    summary: "dual-mode scoreboard: N and P boards of pending/long bits per warp register",
    source: "Kim et al., Warped-Preexecution, HPCA 2016, section 4, Figure 8",
    params: ScoreboardParams::SPECS,
    build,
    paper_storage,
    composed: false,
};
