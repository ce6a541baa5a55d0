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
//! on the writeback ports. The fetch ports reach into the fetch stage
//! (§5.2): an N-mode warp's next instruction is compared with its P-queue
//! head, and a ready match moves from the queue into the instruction buffer
//! (`Reuse.Rdy`, `Phy.Dst`), bypassing fetch and decode; it comes back to
//! issue with `iss{k}_reuse` and its registers, and is reused there.
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
//! | `fetch_ports` | 2 | pqueue: its ports K.. (F; §4: two instructions fetched per cycle) |
//! | `wb_ports` | 2 | scoreboard, pqueue, mode_ctrl (J) |
//! | `release` | 0 | mode_ctrl: a reused result renamed in the N table (0) or moved home (1) |
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
//! | `iss{k}_reuse`, `iss{k}_reuse_pdst{d}` | in | 1, R | the instruction came from the P-queue at fetch (`Reuse.Rdy`), with its rename registers (`Phy.Dst`) |
//! | `fe{f}_warp`, `fe{f}_pc` | in | W, P | fetch port f: an N-mode warp's next instruction |
//! | `fe{f}_pop` | in | 1 | move a ready match out of the P-queue |
//! | `fe{f}_hit`, `fe{f}_rdy` | out | 1, 1 | the warp's P-queue head has this PC; its result is back |
//! | `fe{f}_pdst{d}` | out | R | the head's rename registers |
//! | `wb{j}_en`, `wb{j}_warp`, `wb{j}_reg` | in | 1, W, A | a result is written back |
//! | `wb{j}_pmode`, `wb{j}_rec`, `wb{j}_idx` | in | 1, 1, I | issued in P-mode; recorded in the P-queue (`iss{k}_recorded` at issue), and its P-queue index (`iss{k}_pq_idx` at issue) |
//! | `mode`, `halted` | out | warps | per-warp P-mode / halted bits (for the scheduler) |
//! | `used` | out | rename_regs | availability vector |
//! | `overflow` | out | 1 | sticky SIMT stack overflow |
//! | `iss{k}_action` | out | 3 | decision (`mode_ctrl::action`) |
//! | `iss{k}_src{j}_renamed`, `iss{k}_src{j}_phys` | out | 1, R | operand j reads rename register `phys` |
//! | `iss{k}_pdst` | out | R | rename destination: the allocated register on PREEXEC, the reused one on REUSE |
//! | `iss{k}_recorded` | out | 1 | the PREEXEC is recorded in the P-queue (returned on `wb{j}_rec`) |
//! | `iss{k}_pq_idx` | out | I | P-queue index of a recorded PREEXEC, returned on `wb{j}_idx` |
//! | `iss{k}_stack_pc`, `iss{k}_stack_mask` | out | P, L | top of the warp's SIMT stack in its current mode |
//! | `iss{k}_stall`, `iss{k}_long_dep` | out | 1, 1 | the scoreboard's answer for the offered instruction (why a STALL stalls; the SM's cycle breakdown) |
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
//! - pqueue: ports 0..K are the issue ports: warp, pc, sources, destination
//!   from the port; `pdst` = rename `iss{k}_alloc_phys`; push from
//!   `mode_ctrl`, no pop. Ports K..K+F are the fetch ports: warp, pc, pop; no
//!   push. `wb{j}_en = wb{j}_en & wb{j}_pmode & wb{j}_rec`; start = `start_*`,
//!   or the launch (`launch_*`): a launched warp's queue is emptied, since
//!   entries its slot's last warp left would match the same kernel's PCs
//!   (`mode_ctrl` starts no episode in a launch cycle).
//! - mode_ctrl: `pq_hit` = `iss{k}_reuse`, `pq_rdy` = 1 (only a ready entry
//!   leaves the queue); its `pq_pop` is unused (the entry left at fetch).
//! - rename: warp, pmode, sources, destination; `bank = (warp + dst) mod banks`
//!   (GPGPU-Sim's register-to-bank mapping with warp shift); `reuse_phys` =
//!   `iss{k}_reuse_pdst`; alloc/reuse/write from `mode_ctrl`; start =
//!   `start_en/start_warp`; `init_*`, `rel_*` from the unit's ports.
//! - simt_stack: warp, pmode, outcome from the port; adv/br from `mode_ctrl`;
//!   `copy` = `start_*`; `launch_*` from the unit's ports.
//! - Outputs: `iss{k}_pdst = action == REUSE ? reuse_pdst : alloc_phys`;
//!   `fe{f}_*` = pqueue port K+f's `hit`, `rdy`, `head_pdst`.
//!
//! Combinational paths run mode_ctrl (pmode) → scoreboard / pqueue / rename →
//! mode_ctrl (action) → sub-block commands and unit outputs. No sub-block
//! status output depends on a command input (`fire`, `push`, `alloc`, `adv`,
//! `copy`, `start`, ...), so the hierarchy has no combinational loop at port
//! level; the builder checks this through the instances' port dependences.
//!
//! # The scoreboard
//!
//! `sb` is the dual-mode scoreboard generator ([`super::scoreboard`]) with
//! `srcs = 2`. The unit uses its per-source output `iss{k}_src{s}_long`
//! (source s valid and long, after the writeback bypass) so that the mode
//! controller records which load a trigger waits on. Same-warp issue updates
//! from two ports, which the scoreboard would merge, never reach it (see the
//! family's conventions in [`super`]).
//!
//! # Hierarchy, VCD
//!
//! One Verilog module per sub-block (`scoreboard`, `pqueue`, `rename`,
//! `simt_stack`, `mode_ctrl`, each named after its own parameters when they
//! differ from the paper's) instantiated as `sb`, `pq`, `rn`, `st`, `mc`;
//! `warpforge sim --block pmode_unit --vcd` groups the trace by instance.
//!
//! # Storage (default parameters)
//!
//! Paper (§5.3), P-mode overhead per warp: SIMT stack copy 768 + scoreboard copy
//! 126 + P-queue 334 + rename tables 1008 = **2236 bits**; availability vector
//! **128 bits per SM**; 48 × 2236 + 128 = 107 456 bits = **13.1 KB per SM**. §5
//! also names the 48-bit mode vector, which the table leaves out.
//!
//! Emitted hardware (`warpforge blocks --block pmode_unit`), per SM:
//!
//! | structure | paper | emitted | why they differ |
//! |---|---:|---:|---|
//! | P stacks (`st.p_stack`, `st.p_top`) | 36 864 | 36 864 + 144 | a 3-bit top pointer per warp; the paper counts entries only |
//! | P board (`sb.p_pending`, `sb.p_long`) | 6 048 | 6 048 | |
//! | P-queue (`pq.*`) | 16 032 | 16 032 | 13 440 RAM + 2 592 flip-flops |
//! | rename tables (`rn.n_*`, `rn.p_*`) | 48 384 | 48 384 | 42 336 (ids) + 6 048 (renamed bits), flip-flop rows |
//! | availability vector (`rn.avail_vec`) | 128 | 128 | |
//! | rename owner tags (`rn.owner`, `rn.queued`) | — | 896 | allocating warp + entry-owned bit per rename register: an episode start frees the registers of the entries it drops (the paper is silent) |
//! | mode control (`mc.*`) | 48 (mode vector) | 816 | + halted, two skip flags, re-definition flag, 6-bit triggering register, 6-bit count of P-mode results in flight per warp (17 bits per warp) |
//! | stack overflow flag (`st.overflow_flag`) | — | 1 | error flag the paper does not need |
//! | **P-mode overhead** | **107 456 (13.1 KB)** | **109 313 (13.3 KB)** | 2256 bits per warp + 1025 per SM |
//! | baseline N stacks (`st.n_stack`, `st.n_top`) | 36 864 | 36 864 + 144 | exist without P-mode; top pointer as above |
//! | baseline N board (`sb.n_pending`, `sb.n_long`) | 6 048 | 6 048 | exists without P-mode |
//! | **all storage** | | **152 369** | 138 929 flip-flops + 13 440 RAM bits |
//!
//! The registry's paper figures list the paper's rows (the P-mode table, the
//! mode vector and the baseline N stack and board of the same sizes): 150 416
//! bits; the emitted 152 369 exceed them by 1953 = 2 × 144 top pointers + 768
//! mode-control bits beyond the mode vector + 1 overflow flag + 896 owner-tag
//! bits.

use super::mode_ctrl::ModeCtrlParams;
use super::pqueue::PqueueParams;
use super::rename::{RenameLookup, RenameParams};
use super::scoreboard::ScoreboardParams;
use super::simt_stack::SimtStackParams;
use super::{per_dst, Operand};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::idx_bits;
use std::sync::Arc;

crate::block_params! {
    /// Parameters of `pmode_unit`: the union of its sub-blocks', each the
    /// family's one spec (so the unit's ranges are its sub-blocks').
    pub struct PmodeUnitParams {
        warps: u32 = shared(super::WARPS),
        regs: u32 = shared(super::REGS),
        rename_regs: u32 = shared(super::RENAME_REGS),
        banks: u32 = shared(super::BANKS),
        entries: u32 = shared(super::ENTRIES),
        offset_bits: u32 = shared(super::OFFSET_BITS),
        pc_bits: u32 = shared(super::PC_BITS),
        depth: u32 = shared(super::DEPTH),
        lanes: u32 = shared(super::LANES),
        inst_bytes: u32 = shared(super::INST_BYTES),
        issue_ports: u32 = shared(super::ISSUE_PORTS),
        fetch_ports: u32 = shared(super::FETCH_PORTS),
        wb_ports: u32 = shared(super::WB_PORTS),
        srcs: u32 = shared(super::SRCS),
        dsts: u32 = shared(super::DSTS),
        release: u32 = shared(super::RELEASE),
    }
    check = |u: &PmodeUnitParams| {
        super::banks_divide(u.banks, u.rename_regs)?;
        super::offset_fits(u.offset_bits, u.pc_bits)?;
        // Every destination of an instruction is written back in one cycle
        // (a P-queue entry becomes reusable when its writeback arrives).
        if u.wb_ports < u.dsts {
            return Err(format!("wb_ports ({}) must be at least dsts ({}): an instruction's destinations are written back in one cycle", u.wb_ports, u.dsts));
        }
        Ok(())
    };
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
    /// The dual-mode scoreboard's parameters.
    pub fn scoreboard(&self) -> ScoreboardParams {
        ScoreboardParams {
            warps: self.warps,
            regs: self.regs,
            issue_ports: self.issue_ports,
            wb_ports: self.wb_ports,
            srcs: self.srcs,
            dsts: self.dsts,
        }
    }
    /// The P-queue's parameters: its ports are the issue ports (which
    /// record, `push`) followed by the fetch ports (which match and move the
    /// head, `pop`).
    pub fn pqueue(&self) -> PqueueParams {
        PqueueParams {
            warps: self.warps,
            entries: self.entries,
            offset_bits: self.offset_bits,
            regs: self.regs,
            rename_regs: self.rename_regs,
            pc_bits: self.pc_bits,
            issue_ports: self.issue_ports + self.fetch_ports,
            wb_ports: self.wb_ports,
            dsts: self.dsts,
        }
    }
    pub fn rename(&self) -> RenameParams {
        RenameParams {
            warps: self.warps,
            regs: self.regs,
            rename_regs: self.rename_regs,
            banks: self.banks,
            issue_ports: self.issue_ports,
            srcs: self.srcs,
            dsts: self.dsts,
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
            srcs: self.srcs,
            dsts: self.dsts,
            release: self.release,
            ..ModeCtrlParams::default()
        }
    }

    /// The paper's storage table (§5.3) for this parameter set, in bits,
    /// scaled by the paper's own formulas.
    pub fn paper_table(&self) -> Vec<(&'static str, u64)> {
        let simt = self.simt_stack().paper_copy_bits();
        let sb = 2 * self.regs as u64;
        let pq = self.pqueue().paper_bits_per_warp();
        let rn = self.rename().paper_bits_per_warp();
        let per_warp = simt + sb + pq + rn;
        let per_sm = per_warp * self.warps as u64 + self.rename_regs as u64;
        vec![
            ("SIMT stack copy per warp", simt),
            ("scoreboard copy per warp", sb),
            ("P-queue per warp", pq),
            ("rename tables per warp", rn),
            ("total per warp", per_warp),
            ("availability vector per SM", self.rename_regs as u64),
            ("total per SM", per_sm),
        ]
    }
}

/// The unit's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmodeUnitIo<H> {
    pub rst: H,
    pub init_en: H,
    pub init_used: H,
    pub launch_en: H,
    pub launch_warp: H,
    pub launch_pc: H,
    pub launch_mask: H,
    pub rel_en: H,
    pub rel_warp: H,
    pub rel_reg: H,
    pub mode: H,
    pub halted: H,
    pub used: H,
    pub overflow: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<PmodeUnitIssue<H>>,
    /// Writeback port `j`: `wb{j}_*`.
    pub wb: Vec<PmodeUnitWb<H>>,
    /// Fetch port `f`: `fe{f}_*`.
    pub fe: Vec<PmodeUnitFetch<H>>,
}

/// One fetch port (§5.2): an N-mode warp's next instruction is compared
/// with its P-queue head; on `pop` a ready match leaves the queue for the
/// instruction buffer, bypassing fetch and decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmodeUnitFetch<H> {
    pub warp: H,
    pub pc: H,
    pub pop: H,
    pub hit: H,
    pub rdy: H,
    /// The head entry's rename registers (`Phy.Dst`): `fe{f}_pdst`,
    /// `fe{f}_pdst{d}`.
    pub pdst: Vec<H>,
}

/// One issue port: the offered instruction and what the unit decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmodeUnitIssue<H> {
    pub valid: H,
    pub warp: H,
    pub pc: H,
    pub op: H,
    /// `iss{k}_src{j}`, `iss{k}_src{j}_vld` (`srcs` sources).
    pub src: Vec<Operand<H>>,
    /// Destination `d`: `iss{k}_dst`, `iss{k}_dst_vld` for d = 0,
    /// `iss{k}_dst{d}`, `iss{k}_dst{d}_vld` for the others.
    pub dst: Vec<Operand<H>>,
    pub taken: H,
    pub target: H,
    pub reconv: H,
    /// The instruction came from the P-queue at fetch (`Reuse.Rdy`), with
    /// its rename registers (`Phy.Dst`): `iss{k}_reuse`, `iss{k}_reuse_pdst{d}`.
    pub reuse: H,
    pub reuse_pdst: Vec<H>,
    pub action: H,
    /// `iss{k}_src{j}_renamed`, `iss{k}_src{j}_phys`.
    pub lookup: Vec<RenameLookup<H>>,
    /// Destination `d`'s rename register: `iss{k}_pdst`, `iss{k}_pdst{d}`.
    pub pdst: Vec<H>,
    pub recorded: H,
    pub pq_idx: H,
    pub stack_pc: H,
    pub stack_mask: H,
    /// The scoreboard's view of the offered instruction (`iss{k}_stall`,
    /// `iss{k}_long_dep`): why a STALL stalled, for the SM's cycle breakdown.
    pub stall: H,
    pub long_dep: H,
}

/// One writeback port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmodeUnitWb<H> {
    pub en: H,
    pub warp: H,
    pub reg: H,
    pub pmode: H,
    pub rec: H,
    pub idx: H,
}

impl Interface for PmodeUnitParams {
    type Io<H> = PmodeUnitIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> PmodeUnitIo<B::H> {
        let (ww, aw, rw, iw, pcw, lanes) =
            (self.warp_bits(), self.reg_bits(), self.phys_bits(), self.idx_bits(), self.pc_bits, self.lanes);
        PmodeUnitIo {
            rst: b.reset(),
            init_en: b.input("init_en", 1),
            init_used: b.input("init_used", self.rename_regs),
            launch_en: b.input("launch_en", 1),
            launch_warp: b.input("launch_warp", ww),
            launch_pc: b.input("launch_pc", pcw),
            launch_mask: b.input("launch_mask", lanes),
            rel_en: b.input("rel_en", 1),
            rel_warp: b.input("rel_warp", ww),
            rel_reg: b.input("rel_reg", aw),
            mode: b.output("mode", self.warps),
            halted: b.output("halted", self.warps),
            used: b.output("used", self.rename_regs),
            overflow: b.output("overflow", 1),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    PmodeUnitIssue {
                        valid: b.input(n("valid"), 1),
                        warp: b.input(n("warp"), ww),
                        pc: b.input(n("pc"), pcw),
                        op: b.input(n("op"), 3),
                        src: (0..self.srcs).map(|j| Operand::describe(b, &n(&format!("src{j}")), aw)).collect(),
                        dst: (0..self.dsts).map(|d| Operand::describe(b, &n(&per_dst("dst", d)), aw)).collect(),
                        taken: b.input(n("taken"), lanes),
                        target: b.input(n("target"), pcw),
                        reconv: b.input(n("reconv"), pcw),
                        reuse: b.input(n("reuse"), 1),
                        reuse_pdst: (0..self.dsts).map(|d| b.input(n(&per_dst("reuse_pdst", d)), rw)).collect(),
                        action: b.output(n("action"), 3),
                        lookup: (0..self.srcs)
                            .map(|j| RenameLookup {
                                renamed: b.output(n(&format!("src{j}_renamed")), 1),
                                phys: b.output(n(&format!("src{j}_phys")), rw),
                            })
                            .collect(),
                        pdst: (0..self.dsts).map(|d| b.output(n(&per_dst("pdst", d)), rw)).collect(),
                        recorded: b.output(n("recorded"), 1),
                        pq_idx: b.output(n("pq_idx"), iw),
                        stack_pc: b.output(n("stack_pc"), pcw),
                        stack_mask: b.output(n("stack_mask"), lanes),
                        stall: b.output(n("stall"), 1),
                        long_dep: b.output(n("long_dep"), 1),
                    }
                })
                .collect(),
            wb: (0..self.wb_ports)
                .map(|j| {
                    let n = |f: &str| format!("wb{j}_{f}");
                    PmodeUnitWb {
                        en: b.input(n("en"), 1),
                        warp: b.input(n("warp"), ww),
                        reg: b.input(n("reg"), aw),
                        pmode: b.input(n("pmode"), 1),
                        rec: b.input(n("rec"), 1),
                        idx: b.input(n("idx"), iw),
                    }
                })
                .collect(),
            fe: (0..self.fetch_ports)
                .map(|f| {
                    let n = |x: &str| format!("fe{f}_{x}");
                    PmodeUnitFetch {
                        warp: b.input(n("warp"), ww),
                        pc: b.input(n("pc"), pcw),
                        pop: b.input(n("pop"), 1),
                        hit: b.output(n("hit"), 1),
                        rdy: b.output(n("rdy"), 1),
                        pdst: (0..self.dsts).map(|d| b.output(n(&per_dst("pdst", d)), rw)).collect(),
                    }
                })
                .collect(),
        }
    }
}

impl Block for PmodeUnitParams {
    const NAME: &'static str = "pmode_unit";
    const SUMMARY: &'static str =
        "warp pre-execution unit: dual-mode scoreboard + P-queue + rename + SIMT stacks + mode controller";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, sections 4-5.3, Figures 5, 6, 8, 9";
    const COMPOSED: bool = true;

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        pmode_unit(self, name)
    }

    /// The paper's rows (the P-mode table, the mode vector, and the baseline
    /// N stack and board of the same sizes); the emitted hierarchy adds the
    /// stacks' top pointers, the mode controller's state beyond the mode
    /// vector and the overflow flag (the table in the module documentation).
    fn storage(&self) -> StorageAccount {
        let t = self.paper_table();
        let w = self.warps as u64;
        let total = t[6].1;
        let st = self.simt_stack();
        StorageAccount {
            paper: vec![
                PaperFigure::new(format!("SIMT stack copy, {} bits per warp x {w}", t[0].1), t[0].1 * w),
                PaperFigure::new(format!("scoreboard copy, {} bits per warp x {w}", t[1].1), t[1].1 * w),
                PaperFigure::new(format!("P-queue, {} bits per warp x {w}", t[2].1), t[2].1 * w),
                PaperFigure::new(format!("rename tables, {} bits per warp x {w}", t[3].1), t[3].1 * w),
                PaperFigure::new(
                    format!(
                        "availability vector per SM (P-mode total: {} bits per warp; {total} bits = {:.1} KB per SM)",
                        t[4].1,
                        total as f64 / 8192.0
                    ),
                    t[5].1,
                ),
                PaperFigure::new("mode bit vector (section 5; not in the 2236-bit table)", w),
                PaperFigure::new(format!("baseline N stack (not P-mode overhead), {} bits per warp x {w}", t[0].1), t[0].1 * w),
                PaperFigure::new(
                    format!("baseline N scoreboard (not P-mode overhead), {} bits per warp x {w}", t[1].1),
                    t[1].1 * w,
                ),
            ],
            differences: Vec::new(),
        }
        .differs(2 * (w * st.top_bits() as u64) as i64, "simt_stack: a top-of-stack pointer per stack and warp")
        .differs(
            (w * (4 + self.reg_bits() as u64 + self.mode_ctrl().flight_bits as u64)) as i64,
            "mode_ctrl: halted, two skip flags, the re-definition flag, the triggering register and the count of P-mode results in flight per warp",
        )
        .differs(1, "simt_stack: the sticky overflow flag")
        .differs(
            (self.rename_regs * (self.rename().warp_bits() + 1)) as i64,
            "rename: owner tags (allocating warp, entry-owned bit) per rename register, to free a dropped P-queue entry's register",
        )
    }
}

/// Generate the unit: the five sub-blocks as instances and the glue of the
/// module documentation.
pub fn pmode_unit(p: &PmodeUnitParams, name: &str) -> Result<Arc<Module>, HwError> {
    let (sb_p, pq_p, rn_p, st_p, mc_p) = (p.scoreboard(), p.pqueue(), p.rename(), p.simt_stack(), p.mode_ctrl());
    let sb_mod = sb_p.elaborate()?;
    let pq_mod = pq_p.elaborate()?;
    let rn_mod = rn_p.elaborate()?;
    let st_mod = st_p.elaborate()?;
    let mc_mod = mc_p.elaborate()?;

    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Warp pre-execution (P-mode) unit of one SM (HPCA 2016, sections 4-5.3): dual-mode scoreboard, P-queue, \\
         rename tables + availability vector, SIMT stacks with P copy, mode controller. {} warps, {} issue port(s), \\
         {} writeback port(s).",
        p.warps, p.issue_ports, p.wb_ports
    ));
    let io = p.decls();
    let init_en = m.port(&io.init_en);
    let init_used = m.port(&io.init_used);
    let launch_en = m.port(&io.launch_en);
    let launch_warp = m.port(&io.launch_warp);
    let launch_pc = m.port(&io.launch_pc);
    let launch_mask = m.port(&io.launch_mask);
    let rel_en = m.port(&io.rel_en);
    let rel_warp = m.port(&io.rel_warp);
    let rel_reg = m.port(&io.rel_reg);
    struct Iss {
        valid: Sig,
        warp: Sig,
        pc: Sig,
        op: Sig,
        src: Vec<(Sig, Sig)>,
        dst: Vec<(Sig, Sig)>,
        taken: Sig,
        target: Sig,
        reconv: Sig,
        reuse: Sig,
        reuse_pdst: Vec<Sig>,
    }
    let iss: Vec<Iss> = io
        .iss
        .iter()
        .map(|d| Iss {
            valid: m.port(&d.valid),
            warp: m.port(&d.warp),
            pc: m.port(&d.pc),
            op: m.port(&d.op),
            src: d.src.iter().map(|o| (m.port(&o.reg), m.port(&o.vld))).collect(),
            dst: d.dst.iter().map(|o| (m.port(&o.reg), m.port(&o.vld))).collect(),
            taken: m.port(&d.taken),
            target: m.port(&d.target),
            reconv: m.port(&d.reconv),
            reuse: m.port(&d.reuse),
            reuse_pdst: d.reuse_pdst.iter().map(|x| m.port(x)).collect(),
        })
        .collect();
    let wbs: Vec<[Sig; 6]> = io
        .wb
        .iter()
        .map(|d| [m.port(&d.en), m.port(&d.warp), m.port(&d.reg), m.port(&d.pmode), m.port(&d.rec), m.port(&d.idx)])
        .collect();

    let fes: Vec<(Sig, Sig, Sig)> = io.fe.iter().map(|d| (m.port(&d.warp), m.port(&d.pc), m.port(&d.pop))).collect();

    let sb = m.instance("sb", &sb_mod).io(&sb_p);
    let pq = m.instance("pq", &pq_mod).io(&pq_p);
    let rn = m.instance("rn", &rn_mod).io(&rn_p);
    let st = m.instance("st", &st_mod).io(&st_p);
    let mc = m.instance("mc", &mc_mod).io(&mc_p);

    // Unit-level inputs.
    rn.init_en.set(init_en);
    rn.init_used.set(init_used);
    rn.rel_en.set(rel_en);
    rn.rel_warp.set(rel_warp);
    rn.rel_reg.set(rel_reg);
    st.launch_en.set(launch_en);
    st.launch_warp.set(launch_warp);
    st.launch_pc.set(launch_pc);
    st.launch_mask.set(launch_mask);
    mc.launch_en.set(launch_en);
    mc.launch_warp.set(launch_warp);
    // Episode start: scoreboard copy, P-queue start, P-table clear, stack copy.
    let (start_en, start_warp) = (mc.start_en.sig(), mc.start_warp.sig());
    sb.copy_en.set(start_en);
    sb.copy_warp.set(start_warp);
    st.copy_en.set(start_en);
    st.copy_warp.set(start_warp);
    // A launched warp's P-queue is emptied too: entries a warp left at its
    // exit would otherwise match the new warp's instructions (same kernel,
    // same PCs). The mode controller starts no episode in a launch cycle.
    pq.start_en.set(start_en | launch_en);
    pq.start_warp.set(mux(start_en, start_warp, launch_warp));
    pq.start_pc.set(mux(start_en, mc.start_pc.sig(), launch_pc));
    rn.start_en.set(start_en);
    rn.start_warp.set(start_warp);

    for (k, port) in iss.iter().enumerate() {
        let (mck, sbk, pqk, rnk, stk) = (&mc.iss[k], &sb.iss[k], &pq.iss[k], &rn.iss[k], &st.iss[k]);
        // The instruction to the mode controller; its mode selects the board,
        // table and stack of every other block.
        mck.valid.set(port.valid);
        mck.warp.set(port.warp);
        mck.pc.set(port.pc);
        mck.op.set(port.op);
        for (d, &(r, v)) in mck.src.iter().zip(&port.src) {
            d.reg.set(r);
            d.vld.set(v);
        }
        for (d, &(r, v)) in mck.dst.iter().zip(&port.dst) {
            d.reg.set(r);
            d.vld.set(v);
        }
        let pmode = mck.pmode.sig();
        sbk.warp.set(port.warp);
        for (d, &(r, v)) in sbk.src.iter().zip(&port.src) {
            d.reg.set(r);
            d.vld.set(v);
        }
        for (d, &(r, v)) in sbk.dst.iter().zip(&port.dst) {
            d.reg.set(r);
            d.vld.set(v);
        }
        sbk.pmode.set(pmode);
        pqk.warp.set(port.warp);
        pqk.pc.set(port.pc);
        // The entry keeps the paper's two source fields.
        pqk.src0.set(port.src[0].0);
        pqk.src1.set(port.src.get(1).map_or(lit(0, port.src[0].0.width()), |s| s.0));
        for (d, &(r, _)) in pqk.dst.iter().zip(&port.dst) {
            d.dst.set(r);
        }
        rnk.warp.set(port.warp);
        for (d, &(r, _)) in rnk.src.iter().zip(&port.src) {
            d.set(r);
        }
        for (i, (d, &(r, v))) in rnk.dst.iter().zip(&port.dst).enumerate() {
            d.reg.set(r);
            if let Some(x) = &d.vld {
                x.set(v);
            }
            // GPGPU-Sim's register bank of the original destination: (warp + reg) mod banks.
            let bw = idx_bits(p.banks);
            let bank = if p.banks == 1 { lit(0, bw) } else { port.warp.resize(bw) + r.resize(bw) };
            d.bank.set(bank.named(&format!("iss{k}_{}", per_dst("bank", i as u32))));
        }
        rnk.pmode.set(pmode);
        stk.warp.set(port.warp);
        stk.taken.set(port.taken);
        stk.target.set(port.target);
        stk.reconv.set(port.reconv);
        stk.pmode.set(pmode);
        // Status into the mode controller.
        mck.src_pending.set(sbk.src_pending);
        mck.dst_pending.set(*sbk.dst_pending_bits.as_ref().unwrap_or(&sbk.dst_pending));
        for (d, l) in mck.src_long.iter().zip(&sbk.src_long) {
            d.set(*l);
        }
        mck.pq_ok.set(pqk.ok);
        mck.pq_full.set(pqk.full);
        // A reused instruction left the P-queue at fetch, ready (§5.2).
        mck.pq_hit.set(port.reuse);
        mck.pq_rdy.set(lit(1, 1));
        mck.rn_free.set(rnk.free);
        mck.dst_long.set(sbk.dst_long);
        // The base entry's reconvergence PC is RPC_NONE; any other top entry
        // is one side of a divergent branch.
        mck.diverged.set(st.iss[k].rpc.sig().ne(lit(st_p.rpc_none(), st_p.pc_bits)));
        // The renamed destinations are recorded; a reuse maps the registers
        // the instruction brought from the P-queue.
        for ((d, a), (r, x)) in pqk.dst.iter().zip(&rnk.alloc_phys).zip(rnk.reuse_phys.iter().zip(&port.reuse_pdst)) {
            d.pdst.set(*a);
            r.set(*x);
        }
        // Commands.
        sbk.fire.set(mck.sb_fire);
        sbk.long.set(mck.sb_long);
        sbk.skip.set(mck.sb_skip);
        pqk.push.set(mck.pq_push);
        pqk.pop.set(lit(0, 1));
        rnk.alloc.set(mck.rn_alloc);
        rnk.reuse.set(mck.rn_reuse);
        rnk.write.set(mck.rn_write);
        rnk.moved.set(mck.rn_moved);
        stk.adv.set(mck.st_adv);
        stk.br.set(mck.st_br);
    }
    for (j, &[en, warp, reg, pmode, rec, idx]) in wbs.iter().enumerate() {
        let (sbj, mcj, pqj) = (&sb.wb[j], &mc.wb[j], &pq.wb[j]);
        // An N-mode result clears both boards (P-mode readers of the
        // architected register need it), a P-mode result only the P board.
        sbj.en.set(en);
        sbj.warp.set(warp);
        sbj.reg.set(reg);
        sbj.n.set(!pmode);
        sbj.p.set(lit(1, 1));
        mcj.en.set(en);
        mcj.warp.set(warp);
        mcj.reg.set(reg);
        mcj.pmode.set(pmode);
        pqj.en.set(en & pmode & rec);
        pqj.warp.set(warp);
        pqj.idx.set(idx);
    }

    // Fetch ports: the P-queue's ports after the issue ports; they match and
    // move the head, and record nothing.
    for (f, &(warp, pc, pop)) in fes.iter().enumerate() {
        let pqf = &pq.iss[p.issue_ports as usize + f];
        pqf.warp.set(warp);
        pqf.pc.set(pc);
        pqf.pop.set(pop);
        pqf.push.set(lit(0, 1));
        pqf.src0.set(lit(0, p.reg_bits()));
        pqf.src1.set(lit(0, p.reg_bits()));
        for d in &pqf.dst {
            d.dst.set(lit(0, p.reg_bits()));
            d.pdst.set(lit(0, p.phys_bits()));
        }
    }
    m.port(&io.mode).set(mc.mode);
    m.port(&io.halted).set(mc.halted);
    m.port(&io.used).set(rn.used);
    m.port(&io.overflow).set(st.overflow);
    for (k, o) in io.iss.iter().enumerate() {
        let action = mc.iss[k].action.sig();
        m.port(&o.action).set(action);
        for (d, l) in o.lookup.iter().zip(&rn.iss[k].lookup) {
            m.port(&d.renamed).set(l.renamed);
            m.port(&d.phys).set(l.phys);
        }
        let reuse = action.eq(super::mode_ctrl::action::REUSE);
        for ((o, x), a) in o.pdst.iter().zip(&iss[k].reuse_pdst).zip(&rn.iss[k].alloc_phys) {
            m.port(o).set(mux(reuse, *x, *a));
        }
        m.port(&o.recorded).set(mc.iss[k].pq_push);
        m.port(&o.pq_idx).set(pq.iss[k].idx);
        m.port(&o.stack_pc).set(st.iss[k].pc);
        m.port(&o.stack_mask).set(st.iss[k].mask);
        m.port(&o.stall).set(sb.iss[k].stall);
        m.port(&o.long_dep).set(sb.iss[k].long_dep);
    }
    for (f, fe) in io.fe.iter().enumerate() {
        let pqf = &pq.iss[p.issue_ports as usize + f];
        m.port(&fe.hit).set(pqf.hit);
        m.port(&fe.rdy).set(pqf.rdy);
        for (o, h) in fe.pdst.iter().zip(&pqf.head) {
            m.port(o).set(h.pdst);
        }
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<PmodeUnitParams>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let d = PmodeUnitParams::default();
        assert_eq!(
            d.paper_table(),
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
        // The P-queue's ports: the two issue ports, then the two fetch ports.
        assert_eq!(d.pqueue(), PqueueParams { issue_ports: 4, ..PqueueParams::default() });
        assert_eq!(d.rename(), RenameParams::default());
        assert_eq!(d.simt_stack(), SimtStackParams::default());
        assert_eq!(d.mode_ctrl(), ModeCtrlParams::default());
        assert_eq!(d.scoreboard(), ScoreboardParams::default());
    }

    /// The emitted hierarchy holds the planned P-mode overhead plus the
    /// baseline N stacks and N board (the table in the module documentation).
    #[test]
    fn emitted_storage_is_the_table() {
        let d = PmodeUnitParams::default();
        let st = crate::stats::Storage::of(&pmode_unit(&d, "pmode_unit").unwrap());
        let per_warp_stack = 8 * 96 + 3;
        assert_eq!(st.bits_under("st.p_"), 48 * per_warp_stack);
        assert_eq!(st.bits_under("sb.p_"), 48 * 126);
        assert_eq!(st.bits_under("pq."), 48 * 334);
        assert_eq!(st.bits_under("rn."), 48 * 1008 + 128 + 128 * 7);
        assert_eq!(st.bits_under("mc."), 48 * 17);
        assert_eq!((st.ff_bits(), st.mem_bits(), st.total_bits()), (138_929, 13_440, 152_369));
        let acc = d.storage();
        assert_eq!(acc.paper_bits(), 150_416);
        assert_eq!(acc.expected_bits(), 152_369);
        assert_eq!(st.total_bits() - 150_416, 2 * 144 + 768 + 1 + 896);
    }
}
