//! `pmode_unit` — the warp pre-execution unit of one SM: the dual-mode
//! scoreboard, the P-queue, the rename tables with the availability vector,
//! the replicated SIMT stack and the mode controller, wired together (one
//! Verilog module with five instances).
//!
//! Source: Kim et al., HPCA 2016 (seed 000) §4–§5.3, Figure 6 (pipeline with
//! P-mode), Figure 5 (single-warp walk-through, the golden test of this unit).
//!
//! The unit sits at the issue stage. Each cycle the scheduler offers at most
//! one decoded instruction per issue port (`iss{k}_valid`); the unit decides
//! what happens to it (`iss{k}_action`, see `mode_ctrl::action`), renames its
//! operands, and updates every structure at the clock edge. Results come back
//! on the writeback ports.
//!
//! # Parameters (paper defaults)
//!
//! | name | default | used by |
//! |---|---|---|
//! | `warps` | 48 | all |
//! | `regs` | 63 | scoreboard, pqueue, rename, mode_ctrl (A = 6) |
//! | `rename_regs` | 128 | pqueue, rename (R = 7) |
//! | `banks` | 4 | rename (B = 2) |
//! | `entries` | 8 | pqueue (I = 3) |
//! | `offset_bits` | 10 | pqueue |
//! | `pc_bits` | 32 | pqueue, simt_stack, mode_ctrl (P) |
//! | `depth` | 8 | simt_stack |
//! | `lanes` | 32 | simt_stack (L) |
//! | `inst_bytes` | 8 | simt_stack |
//! | `issue_ports` | 2 | all (K) |
//! | `wb_ports` | 2 | scoreboard, pqueue, mode_ctrl (J) |
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset of every sub-block |
//! | `init_en`, `init_used` | in | 1, rename_regs | kernel start: compiler-used rename registers (rename) |
//! | `launch_en`, `launch_warp`, `launch_pc`, `launch_mask` | in | 1, W, P, L | a warp starts: N stack base entry, N-mode (simt_stack, mode_ctrl) |
//! | `rel_en`, `rel_warp`, `rel_reg` | in | 1, W, A | warp-exit release of one N-table mapping (rename) |
//! | `iss{k}_valid` | in | 1 | an instruction is offered on port k |
//! | `iss{k}_warp` | in | W | |
//! | `iss{k}_pc` | in | P | its PC |
//! | `iss{k}_op` | in | 3 | class (`mode_ctrl::op`) |
//! | `iss{k}_src0`, `iss{k}_src0_vld`, `iss{k}_src1`, `iss{k}_src1_vld` | in | A, 1 | sources |
//! | `iss{k}_dst`, `iss{k}_dst_vld` | in | A, 1 | destination |
//! | `iss{k}_taken`, `iss{k}_target`, `iss{k}_reconv` | in | L, P, P | branch outcome (threads taking it), target, reconvergence PC |
//! | `wb{j}_en`, `wb{j}_warp`, `wb{j}_reg` | in | 1, W, A | a result is written back |
//! | `wb{j}_pmode`, `wb{j}_idx` | in | 1, I | issued in P-mode, and its P-queue index (`iss{k}_pq_idx` at issue) |
//! | `mode`, `halted` | out | warps | per-warp P-mode / halted bits (for the scheduler) |
//! | `used` | out | rename_regs | availability vector |
//! | `overflow` | out | 1 | sticky SIMT stack overflow |
//! | `iss{k}_action` | out | 3 | decision (`mode_ctrl::action`) |
//! | `iss{k}_src{j}_renamed`, `iss{k}_src{j}_phys` | out | 1, R | operand j reads rename register `phys` |
//! | `iss{k}_pdst` | out | R | rename destination: the allocated register on PREEXEC, the reused one on REUSE |
//! | `iss{k}_pq_idx` | out | I | P-queue index of a PREEXEC, returned on `wb{j}_idx` |
//! | `iss{k}_stack_pc`, `iss{k}_stack_mask` | out | P, L | top of the warp's SIMT stack in its current mode |
//!
//! # Wiring (the glue is all combinational)
//!
//! - `mode_ctrl` gets the offered instruction and the status of the other
//!   blocks; its `iss{k}_pmode` (= the warp's mode, from state only) selects the
//!   scoreboard board, the rename table and the SIMT stack for port k.
//! - scoreboard `iss{k}_*`: warp, pmode, sources, destination from the port;
//!   `fire`/`long`/`skip` from `mode_ctrl`. `wb{j}`: `n = !wb{j}_pmode`, `p = 1`
//!   — an N-mode result clears both boards (a P-mode reader of the
//!   architected register needs it), a P-mode result only the P board.
//!   `copy_en/copy_warp` = `start_en/start_warp`.
//! - pqueue: warp, pc, sources, destination from the port; `pdst` = rename
//!   `iss{k}_alloc_phys`; push/pop from `mode_ctrl`; `wb{j}_en = wb{j}_en &
//!   wb{j}_pmode`; start = `start_*`.
//! - rename: warp, pmode, sources, destination; `bank = (warp + dst) mod banks`
//!   (GPGPU-Sim's register-to-bank mapping with warp shift); `reuse_phys` =
//!   pqueue `iss{k}_head_pdst`; alloc/reuse/write from `mode_ctrl`; start =
//!   `start_en/start_warp`; `init_*`, `rel_*` from the unit's ports.
//! - simt_stack: warp, pmode, outcome from the port; adv/br from `mode_ctrl`;
//!   `copy` = `start_*`; `launch_*` from the unit's ports.
//! - Outputs: `iss{k}_pdst = action == REUSE ? head_pdst : alloc_phys`.
//!
//! Combinational paths run mode_ctrl (pmode) → scoreboard / pqueue / rename →
//! mode_ctrl (action) → unit outputs; no sub-block status output depends on a
//! command input, so the unit has no combinational loop at signal level
//! (module-level, mode_ctrl feeds and is fed by the others: the simulator must
//! levelize across instance boundaries).
//!
//! # Assumed scoreboard interface
//!
//! As planned by the lead (`scoreboard.rs`), parameters `warps`, `regs`,
//! `issue_ports`, `wb_ports`; inputs `iss{k}_warp`, `iss{k}_pmode`,
//! `iss{k}_src{j}`, `iss{k}_src{j}_vld`, `iss{k}_dst`, `iss{k}_dst_vld`,
//! `iss{k}_fire`, `iss{k}_long`, `iss{k}_skip`, `wb{j}_en`, `wb{j}_warp`,
//! `wb{j}_reg`, `wb{j}_n`, `wb{j}_p`, `copy_en`, `copy_warp`; outputs
//! `iss{k}_src_pending`, `iss{k}_dst_pending`, `iss{k}_stall`,
//! `iss{k}_long_dep`, **plus one addition this unit needs:
//! `iss{k}_src{j}_long`** (the `long` bit of source j on the selected board,
//! after the writeback bypass), so that `mode_ctrl` can record which register
//! the triggering instruction waits for. Semantics assumed: writeback clears
//! before issue sets (an issue and a writeback of one register in one cycle
//! leave it pending), a writeback bypasses into the same cycle's query, the copy
//! takes the N board's next value and wins over same-cycle P-board updates.
//!
//! # Storage (default parameters)
//!
//! Paper (§5.3), P-mode overhead per warp: SIMT stack copy 768 + scoreboard copy
//! 126 + P-queue 334 + rename tables 1008 = **2236 bits**; availability vector
//! **128 bits per SM**; 48 × 2236 + 128 = 107 456 bits = **13.1 KB per SM**.
//!
//! This hardware, P-mode overhead per warp: SIMT P stack 768 + 3-bit top
//! pointer (the paper does not count stack pointers), scoreboard P board 126,
//! P-queue 334, rename 1008, mode_ctrl 10 (mode bit, halted, two skip flags,
//! 6-bit triggering register; the paper names only the 48-bit mode vector and
//! leaves it out of the total) = **2249 bits**; per SM 128 (vector) + 1 (stack
//! overflow flag): 48 × 2249 + 129 = 108 081 bits = 13.2 KB. The unit also
//! instantiates the baseline N stack (771 bits per warp) and N board (126 bits
//! per warp), which exist without P-mode and which the paper does not count.

use super::mode_ctrl::ModeCtrlParams;
use super::pqueue::PqueueParams;
use super::rename::{check_banks, RenameParams};
use super::simt_stack::SimtStackParams;
use super::{
    idx_bits, BANKS, DEPTH, ENTRIES, INST_BYTES, ISSUE_PORTS, LANES, OFFSET_BITS, PC_BITS, REGS, RENAME_REGS, WARPS,
    WB_PORTS,
};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of `pmode_unit` (the union of its sub-blocks').
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmodeUnitParams {
    pub warps: u32,
    pub regs: u32,
    pub rename_regs: u32,
    pub banks: u32,
    pub entries: u32,
    pub offset_bits: u32,
    pub pc_bits: u32,
    pub depth: u32,
    pub lanes: u32,
    pub inst_bytes: u32,
    pub issue_ports: u32,
    pub wb_ports: u32,
}

impl Default for PmodeUnitParams {
    fn default() -> Self {
        PmodeUnitParams {
            warps: 48,
            regs: 63,
            rename_regs: 128,
            banks: 4,
            entries: 8,
            offset_bits: 10,
            pc_bits: 32,
            depth: 8,
            lanes: 32,
            inst_bytes: 8,
            issue_ports: 2,
            wb_ports: 2,
        }
    }
}

impl BlockParams for PmodeUnitParams {
    const SPECS: &'static [ParamSpec] = &[
        WARPS,
        REGS,
        RENAME_REGS,
        BANKS,
        ENTRIES,
        OFFSET_BITS,
        PC_BITS,
        DEPTH,
        LANES,
        INST_BYTES,
        ISSUE_PORTS,
        WB_PORTS,
    ];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let u = PmodeUnitParams {
            warps: p.get_u32("warps"),
            regs: p.get_u32("regs"),
            rename_regs: p.get_u32("rename_regs"),
            banks: p.get_u32("banks"),
            entries: p.get_u32("entries"),
            offset_bits: p.get_u32("offset_bits"),
            pc_bits: p.get_u32("pc_bits"),
            depth: p.get_u32("depth"),
            lanes: p.get_u32("lanes"),
            inst_bytes: p.get_u32("inst_bytes"),
            issue_ports: p.get_u32("issue_ports"),
            wb_ports: p.get_u32("wb_ports"),
        };
        check_banks(p, u.banks, u.rename_regs)?;
        if u.offset_bits > u.pc_bits {
            return Err(p.invalid(format!(
                "offset_bits ({}) must not exceed pc_bits ({})",
                u.offset_bits, u.pc_bits
            )));
        }
        Ok(u)
    }
}

impl PmodeUnitParams {
    pub fn warp_bits(&self) -> u32 {
        idx_bits(self.warps)
    }
    pub fn reg_bits(&self) -> u32 {
        idx_bits(self.regs)
    }
    pub fn phys_bits(&self) -> u32 {
        idx_bits(self.rename_regs)
    }
    pub fn idx_bits(&self) -> u32 {
        idx_bits(self.entries)
    }
    pub fn pqueue(&self) -> PqueueParams {
        PqueueParams {
            warps: self.warps,
            entries: self.entries,
            offset_bits: self.offset_bits,
            regs: self.regs,
            rename_regs: self.rename_regs,
            pc_bits: self.pc_bits,
            issue_ports: self.issue_ports,
            wb_ports: self.wb_ports,
        }
    }
    pub fn rename(&self) -> RenameParams {
        RenameParams {
            warps: self.warps,
            regs: self.regs,
            rename_regs: self.rename_regs,
            banks: self.banks,
            issue_ports: self.issue_ports,
        }
    }
    pub fn simt_stack(&self) -> SimtStackParams {
        SimtStackParams {
            warps: self.warps,
            depth: self.depth,
            lanes: self.lanes,
            pc_bits: self.pc_bits,
            inst_bytes: self.inst_bytes,
            issue_ports: self.issue_ports,
        }
    }
    pub fn mode_ctrl(&self) -> ModeCtrlParams {
        ModeCtrlParams {
            warps: self.warps,
            regs: self.regs,
            pc_bits: self.pc_bits,
            issue_ports: self.issue_ports,
            wb_ports: self.wb_ports,
        }
    }
}

/// The paper's storage table (§5.3) for this parameter set, in bits, scaled by
/// the paper's own formulas.
pub fn paper_storage(p: &PmodeUnitParams) -> Vec<(&'static str, u64)> {
    let simt = super::simt_stack::paper_storage(&p.simt_stack())[0].1;
    let sb = 2 * p.regs as u64;
    let pq = super::pqueue::paper_storage(&p.pqueue())[1].1;
    let rn = super::rename::paper_storage(&p.rename())[0].1;
    let per_warp = simt + sb + pq + rn;
    let per_sm = per_warp * p.warps as u64 + p.rename_regs as u64;
    vec![
        ("SIMT stack copy per warp", simt),
        ("scoreboard copy per warp", sb),
        ("P-queue per warp", pq),
        ("rename tables per warp", rn),
        ("total per warp", per_warp),
        ("availability vector per SM", p.rename_regs as u64),
        ("total per SM", per_sm),
    ]
}

/// The P-mode overhead this hardware is designed to have, in bits, with the
/// same rows as [`paper_storage`] (the scoreboard row assumes a P board of
/// `2 × regs` bits per warp).
pub fn planned_storage(p: &PmodeUnitParams) -> Vec<(&'static str, u64)> {
    let s = p.simt_stack();
    let simt = s.depth as u64 * s.entry_bits() + s.top_bits() as u64;
    let sb = 2 * p.regs as u64;
    let pq = super::pqueue::paper_storage(&p.pqueue())[1].1;
    let rn = super::rename::paper_storage(&p.rename())[0].1;
    let mc = 4 + p.reg_bits() as u64;
    let per_warp = simt + sb + pq + rn + mc;
    let per_sm_extra = p.rename_regs as u64 + 1;
    vec![
        ("SIMT stack copy per warp", simt),
        ("scoreboard copy per warp", sb),
        ("P-queue per warp", pq),
        ("rename tables per warp", rn),
        ("mode control per warp", mc),
        ("total per warp", per_warp),
        ("availability vector + overflow flag per SM", per_sm_extra),
        ("total per SM", per_warp * p.warps as u64 + per_sm_extra),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let p = Params::resolve("pmode_unit", PmodeUnitParams::SPECS, &[]).unwrap();
        assert_eq!(PmodeUnitParams::from_params(&p).unwrap(), PmodeUnitParams::default());
        let d = PmodeUnitParams::default();
        assert_eq!(
            paper_storage(&d),
            vec![
                ("SIMT stack copy per warp", 768),
                ("scoreboard copy per warp", 126),
                ("P-queue per warp", 334),
                ("rename tables per warp", 1008),
                ("total per warp", 2236),
                ("availability vector per SM", 128),
                ("total per SM", 107_456),
            ]
        );
        // 13.1 KB per SM (KB = 1024 bytes).
        assert_eq!(format!("{:.1}", 107_456.0 / 8.0 / 1024.0), "13.1");
        let planned = planned_storage(&d);
        assert_eq!(planned[5], ("total per warp", 2249));
        assert_eq!(planned[7], ("total per SM", 108_081));
        assert_eq!(d.pqueue(), PqueueParams::default());
        assert_eq!(d.rename(), RenameParams::default());
        assert_eq!(d.simt_stack(), SimtStackParams::default());
        assert_eq!(d.mode_ctrl(), ModeCtrlParams::default());
    }
}
