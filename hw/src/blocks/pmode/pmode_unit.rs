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
//! | rename tables (`rn.n_*`, `rn.p_*`) | 48 384 | 48 384 | 42 336 RAM (ids) + 6 048 flip-flops (renamed bits) |
//! | availability vector (`rn.avail_vec`) | 128 | 128 | |
//! | mode control (`mc.*`) | 48 (mode vector) | 480 | + halted, two skip flags, 6-bit triggering register per warp (10 bits per warp) |
//! | stack overflow flag (`st.overflow_flag`) | — | 1 | error flag the paper does not need |
//! | **P-mode overhead** | **107 456 (13.1 KB)** | **108 081 (13.2 KB)** | 2249 bits per warp + 129 per SM |
//! | baseline N stacks (`st.n_stack`, `st.n_top`) | 36 864 | 36 864 + 144 | exist without P-mode; top pointer as above |
//! | baseline N board (`sb.n_pending`, `sb.n_long`) | 6 048 | 6 048 | exists without P-mode |
//! | **all storage** | | **151 137** | 95 361 flip-flops + 55 776 RAM bits |
//!
//! The registry's paper figures list the paper's rows (the P-mode table, the
//! mode vector and the baseline N stack and board of the same sizes): 150 416
//! bits; the emitted 151 137 exceed them by 721 = 2 × 144 top pointers + 432
//! mode-control bits beyond the mode vector + 1 overflow flag.

use super::mode_ctrl::ModeCtrlParams;
use super::pqueue::PqueueParams;
use super::rename::{check_banks, RenameParams};
use super::simt_stack::SimtStackParams;
use super::{
    idx_bits, BANKS, DEPTH, ENTRIES, INST_BYTES, ISSUE_PORTS, LANES, OFFSET_BITS, PC_BITS, REGS, RENAME_REGS, WARPS,
    WB_PORTS,
};
use super::scoreboard::ScoreboardParams;
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{module_name, BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

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

impl PmodeUnitParams {
    /// The dual-mode scoreboard's parameters (two sources per instruction).
    pub fn scoreboard(&self) -> ScoreboardParams {
        ScoreboardParams { warps: self.warps, regs: self.regs, issue_ports: self.issue_ports, wb_ports: self.wb_ports, srcs: 2, dsts: 1 }
    }

    /// This parameter set as a `Params` of block `name` (module naming).
    fn as_params(&self, name: &str, specs: &[ParamSpec]) -> Params {
        let all = [
            ("warps", self.warps),
            ("regs", self.regs),
            ("rename_regs", self.rename_regs),
            ("banks", self.banks),
            ("entries", self.entries),
            ("offset_bits", self.offset_bits),
            ("pc_bits", self.pc_bits),
            ("depth", self.depth),
            ("lanes", self.lanes),
            ("inst_bytes", self.inst_bytes),
            ("issue_ports", self.issue_ports),
            ("wb_ports", self.wb_ports),
        ];
        let ov: Vec<(String, String)> = all
            .iter()
            .filter(|(n, _)| specs.iter().any(|s| s.name == *n))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        Params::resolve(name, specs, &ov).expect("sub-block parameters are within the unit's ranges")
    }

    fn sub_name(&self, name: &str, specs: &[ParamSpec]) -> String {
        module_name(name, &self.as_params(name, specs), specs)
    }
}

/// Generate the unit: the five sub-blocks as instances and the glue of the
/// module documentation.
pub fn pmode_unit(p: &PmodeUnitParams, name: &str) -> Result<Arc<Module>, HwError> {
    use super::{mode_ctrl, pqueue, rename, scoreboard, simt_stack};
    let sb_p = p.scoreboard();
    let sb_mod = scoreboard::scoreboard(&sb_p, &p.sub_name("scoreboard", ScoreboardParams::SPECS))?;
    let pq_mod = pqueue::pqueue(&p.pqueue(), &p.sub_name("pqueue", PqueueParams::SPECS))?;
    let rn_mod = rename::rename(&p.rename(), &p.sub_name("rename", RenameParams::SPECS))?;
    let st_mod = simt_stack::simt_stack(&p.simt_stack(), &p.sub_name("simt_stack", SimtStackParams::SPECS))?;
    let mc_mod = mode_ctrl::mode_ctrl(&p.mode_ctrl(), &p.sub_name("mode_ctrl", ModeCtrlParams::SPECS))?;

    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Warp pre-execution (P-mode) unit of one SM (HPCA 2016, sections 4-5.3): dual-mode scoreboard, P-queue, \\
         rename tables + availability vector, SIMT stacks with P copy, mode controller. {} warps, {} issue port(s), \\
         {} writeback port(s).",
        p.warps, p.issue_ports, p.wb_ports
    ));
    let (ww, aw, rw, iw, pcw, lanes) = (p.warp_bits(), p.reg_bits(), p.phys_bits(), p.idx_bits(), p.pc_bits, p.lanes);
    let init_en = m.input("init_en", 1);
    let init_used = m.input("init_used", p.rename_regs);
    let launch_en = m.input("launch_en", 1);
    let launch_warp = m.input("launch_warp", ww);
    let launch_pc = m.input("launch_pc", pcw);
    let launch_mask = m.input("launch_mask", lanes);
    let rel_en = m.input("rel_en", 1);
    let rel_warp = m.input("rel_warp", ww);
    let rel_reg = m.input("rel_reg", aw);
    let iss: Vec<Vec<(&str, Sig)>> = (0..p.issue_ports)
        .map(|k| {
            [
                ("valid", 1),
                ("warp", ww),
                ("pc", pcw),
                ("op", 3),
                ("src0", aw),
                ("src0_vld", 1),
                ("src1", aw),
                ("src1_vld", 1),
                ("dst", aw),
                ("dst_vld", 1),
                ("taken", lanes),
                ("target", pcw),
                ("reconv", pcw),
            ]
            .into_iter()
            .map(|(f, w)| (f, m.input(&format!("iss{k}_{f}"), w)))
            .collect()
        })
        .collect();
    let wbs: Vec<Vec<(&str, Sig)>> = (0..p.wb_ports)
        .map(|j| {
            [("en", 1), ("warp", ww), ("reg", aw), ("pmode", 1), ("idx", iw)]
                .into_iter()
                .map(|(f, w)| (f, m.input(&format!("wb{j}_{f}"), w)))
                .collect()
        })
        .collect();
    let get = |v: &[(&str, Sig)], f: &str| v.iter().find(|x| x.0 == f).map(|x| x.1).expect("port field");

    let sb = m.instance("sb", &sb_mod);
    let pq = m.instance("pq", &pq_mod);
    let rn = m.instance("rn", &rn_mod);
    let st = m.instance("st", &st_mod);
    let mc = m.instance("mc", &mc_mod);

    // Unit-level inputs.
    for (n, v) in [("init_en", init_en), ("init_used", init_used), ("rel_en", rel_en), ("rel_warp", rel_warp), ("rel_reg", rel_reg)] {
        rn.connect(n, v);
    }
    for (n, v) in [("launch_en", launch_en), ("launch_warp", launch_warp), ("launch_pc", launch_pc), ("launch_mask", launch_mask)] {
        st.connect(n, v);
    }
    mc.connect("launch_en", launch_en);
    mc.connect("launch_warp", launch_warp);
    // Episode start: scoreboard copy, P-queue start, P-table clear, stack copy.
    let (start_en, start_warp) = (mc.output("start_en"), mc.output("start_warp"));
    sb.connect("copy_en", start_en);
    sb.connect("copy_warp", start_warp);
    st.connect("copy_en", start_en);
    st.connect("copy_warp", start_warp);
    pq.connect("start_en", start_en);
    pq.connect("start_warp", start_warp);
    pq.connect("start_pc", mc.output("start_pc"));
    rn.connect("start_en", start_en);
    rn.connect("start_warp", start_warp);

    for (k, port) in iss.iter().enumerate() {
        let f = |s: &str| format!("iss{k}_{s}");
        let g = |s: &str| get(port, s);
        // The instruction to the mode controller; its mode selects the board,
        // table and stack of every other block.
        for n in ["valid", "warp", "pc", "op", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld"] {
            mc.connect(&f(n), g(n));
        }
        let pmode = mc.output(&f("pmode"));
        for n in ["warp", "src0", "src0_vld", "src1", "src1_vld", "dst", "dst_vld"] {
            sb.connect(&f(n), g(n));
        }
        sb.connect(&f("pmode"), pmode);
        for n in ["warp", "pc", "src0", "src1", "dst"] {
            pq.connect(&f(n), g(n));
        }
        for n in ["warp", "src0", "src1", "dst"] {
            rn.connect(&f(n), g(n));
        }
        rn.connect(&f("pmode"), pmode);
        // GPGPU-Sim's register bank of the original destination: (warp + reg) mod banks.
        let bw = idx_bits(p.banks);
        let bank = if p.banks == 1 { lit(0, bw) } else { g("warp").resize(bw) + g("dst").resize(bw) };
        rn.connect(&f("bank"), bank.named(&f("bank")));
        for n in ["warp", "taken", "target", "reconv"] {
            st.connect(&f(n), g(n));
        }
        st.connect(&f("pmode"), pmode);
        // Status into the mode controller.
        for n in ["src_pending", "dst_pending", "src0_long", "src1_long"] {
            mc.connect(&f(n), sb.output(&f(n)));
        }
        for (from, to) in [("empty", "pq_empty"), ("ok", "pq_ok"), ("hit", "pq_hit"), ("rdy", "pq_rdy")] {
            mc.connect(&f(to), pq.output(&f(from)));
        }
        mc.connect(&f("rn_free"), rn.output(&f("free")));
        // The renamed destination is recorded; a reuse maps the head's register.
        let (alloc_phys, head_pdst) = (rn.output(&f("alloc_phys")), pq.output(&f("head_pdst")));
        pq.connect(&f("pdst"), alloc_phys);
        rn.connect(&f("reuse_phys"), head_pdst);
        // Commands.
        for (from, to) in [("sb_fire", "fire"), ("sb_long", "long"), ("sb_skip", "skip")] {
            sb.connect(&f(to), mc.output(&f(from)));
        }
        for (from, to) in [("pq_push", "push"), ("pq_pop", "pop")] {
            pq.connect(&f(to), mc.output(&f(from)));
        }
        for (from, to) in [("rn_alloc", "alloc"), ("rn_reuse", "reuse"), ("rn_write", "write")] {
            rn.connect(&f(to), mc.output(&f(from)));
        }
        for (from, to) in [("st_adv", "adv"), ("st_br", "br")] {
            st.connect(&f(to), mc.output(&f(from)));
        }
    }
    for (j, wb) in wbs.iter().enumerate() {
        let f = |s: &str| format!("wb{j}_{s}");
        let g = |s: &str| get(wb, s);
        // An N-mode result clears both boards (P-mode readers of the
        // architected register need it), a P-mode result only the P board.
        for n in ["en", "warp", "reg"] {
            sb.connect(&f(n), g(n));
        }
        sb.connect(&f("n"), !g("pmode"));
        sb.connect(&f("p"), lit(1, 1));
        for n in ["en", "warp", "reg", "pmode"] {
            mc.connect(&f(n), g(n));
        }
        pq.connect(&f("en"), g("en") & g("pmode"));
        pq.connect(&f("warp"), g("warp"));
        pq.connect(&f("idx"), g("idx"));
    }

    m.output("mode", p.warps).set(mc.output("mode"));
    m.output("halted", p.warps).set(mc.output("halted"));
    m.output("used", p.rename_regs).set(rn.output("used"));
    m.output("overflow", 1).set(st.output("overflow"));
    for k in 0..p.issue_ports {
        let f = |s: &str| format!("iss{k}_{s}");
        let action = mc.output(&f("action"));
        m.output(&f("action"), 3).set(action);
        for j in 0..2 {
            let n = |s: &str| f(&format!("src{j}_{s}"));
            m.output(&n("renamed"), 1).set(rn.output(&n("renamed")));
            m.output(&n("phys"), rw).set(rn.output(&n("phys")));
        }
        let reuse = action.eq(super::mode_ctrl::action::REUSE);
        m.output(&f("pdst"), rw).set(mux(reuse, pq.output(&f("head_pdst")), rn.output(&f("alloc_phys"))));
        m.output(&f("pq_idx"), iw).set(pq.output(&f("idx")));
        m.output(&f("stack_pc"), pcw).set(st.output(&f("pc")));
        m.output(&f("stack_mask"), lanes).set(st.output(&f("mask")));
    }
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = PmodeUnitParams::from_params(params)?;
    Ok(pmode_unit(&p, &module_name("pmode_unit", params, PmodeUnitParams::SPECS))?)
}

fn paper_figures(params: &Params) -> Vec<PaperFigure> {
    let Ok(p) = PmodeUnitParams::from_params(params) else { return Vec::new() };
    let t = paper_storage(&p);
    let w = p.warps as u64;
    let total = t[6].1;
    vec![
        PaperFigure::new(format!("SIMT stack copy, {} bits per warp x {w}", t[0].1), t[0].1 * w),
        PaperFigure::new(format!("scoreboard copy, {} bits per warp x {w}", t[1].1), t[1].1 * w),
        PaperFigure::new(format!("P-queue, {} bits per warp x {w}", t[2].1), t[2].1 * w),
        PaperFigure::new(format!("rename tables, {} bits per warp x {w}", t[3].1), t[3].1 * w),
        PaperFigure::new(
            format!("availability vector per SM (P-mode total: {} bits per warp; {total} bits = {:.1} KB per SM)", t[4].1, total as f64 / 8192.0),
            t[5].1,
        ),
        PaperFigure::new("mode bit vector (section 5; not in the 2236-bit table)", w),
        PaperFigure::new(format!("baseline N stack (not P-mode overhead), {} bits per warp x {w}", t[0].1), t[0].1 * w),
        PaperFigure::new(format!("baseline N scoreboard (not P-mode overhead), {} bits per warp x {w}", t[1].1), t[1].1 * w),
    ]
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: "pmode_unit",
    summary: "warp pre-execution unit: dual-mode scoreboard + P-queue + rename + SIMT stacks + mode controller",
    source: "Kim et al., Warped-Preexecution, HPCA 2016, sections 4-5.3, Figures 5, 6, 8, 9",
    params: PmodeUnitParams::SPECS,
    build,
    paper_storage: paper_figures,
    composed: true,
};

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

    /// The emitted hierarchy holds the planned P-mode overhead plus the
    /// baseline N stacks and N board (the table in the module documentation).
    #[test]
    fn emitted_storage_is_the_planned() {
        let d = PmodeUnitParams::default();
        let st = crate::stats::Storage::of(&pmode_unit(&d, "pmode_unit").unwrap());
        let per_warp_stack = 8 * 96 + 3;
        let baseline = 48 * per_warp_stack + 48 * 126;
        assert_eq!(st.bits_under("st.p_"), 48 * per_warp_stack);
        assert_eq!(st.bits_under("sb.p_"), 48 * 126);
        assert_eq!(st.bits_under("pq."), 48 * 334);
        assert_eq!(st.bits_under("rn."), 48 * 1008 + 128);
        assert_eq!(st.bits_under("mc."), 48 * 10);
        assert_eq!(st.total_bits(), 108_081 + baseline);
        assert_eq!((st.ff_bits(), st.mem_bits(), st.total_bits()), (95_361, 55_776, 151_137));
        let figures = super::paper_figures(&d.as_params("pmode_unit", PmodeUnitParams::SPECS));
        assert_eq!(figures.iter().map(|f| f.bits).sum::<u64>(), 150_416);
        assert_eq!(st.total_bits() - 150_416, 2 * 144 + 432 + 1);
    }

}
