//! `mode_ctrl` — the per-warp execution mode (N / P) and every P-mode
//! decision: trigger, exit, halt, and the skip rules.
//!
//! Source: Kim et al., HPCA 2016 (seed 000) §4 (Figure 5), §5 ("Mode switch is
//! triggered by the scoreboard logic of an N-mode instruction", "per-warp mode
//! bit ... 48-bits wide"), §5.1 (issue-stage skip rules for branches, stores,
//! loads and barriers; "P-mode warps are selected for issue only when renaming
//! registers are available"), §5.2 (switch back "when the long latency
//! instruction writes to its destination architected register"; reuse).
//!
//! The block looks at the instruction offered on each issue port together with
//! the status the other blocks report for it (scoreboard, P-queue, rename) and
//! decides one **action**; it drives the command strobes of those blocks. It
//! holds the per-warp mode state. It has no opinion on which warp is offered:
//! the scheduler (outside) gives N-mode warps priority and picks P-mode warps
//! round-robin (§5.1), using the `mode` and `halted` outputs.
//!
//! # Parameters (paper defaults)
//!
//! | name | default | meaning |
//! |---|---|---|
//! | `warps` | 48 | warps per SM (the mode vector is `warps` bits) |
//! | `regs` | 63 | architected registers; id width A = clog2(regs) = 6 |
//! | `pc_bits` | 32 | PC width P (passed through to `start_pc`) |
//! | `issue_ports` | 2 | K |
//! | `wb_ports` | 2 | J |
//! | `flight_bits` | 6 | width of the per-warp count of P-mode results in flight |
//! | `release` | 0 | a reused result: 0 renamed in the N table (`rn_reuse`), 1 moved home (`rn_write` + `rn_moved`), see `rename` |
//!
//! # Encodings
//!
//! `iss{k}_op` (3 bits), see [`op`]: 0 ALU (any register-writing arithmetic,
//! short latency), 1 SLOAD (shared/scratchpad load), 2 GLOAD (global load,
//! long latency), 3 SSTORE, 4 GSTORE, 5 BRANCH, 6 BARRIER, 7 EXIT.
//!
//! `iss{k}_action` (3 bits), see [`action`]: 0 STALL (nothing happens; the
//! instruction is offered again), 1 ISSUE (N-mode, executed normally), 2 REUSE
//! (N-mode, result taken from the P-queue head, not executed), 3 TRIGGER (the
//! warp enters P-mode; the instruction is not issued and is offered again,
//! now in P-mode), 4 PREEXEC (P-mode, executed: renamed and recorded, or a
//! branch updating the P stack), 5 PRELOAD (P-mode global load turned into an
//! L1 pre-load), 6 SKIP (P-mode, not executed), 7 HALT (P-mode stops for this
//! warp until the episode ends).
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `launch_en`, `launch_warp` | in | 1, W | a warp (re)starts: N-mode, flags clear |
//! | `iss{k}_valid` | in | 1 | the scheduler issues this warp's instruction on port k this cycle if the action allows |
//! | `iss{k}_warp` | in | W | |
//! | `iss{k}_pc` | in | P | its PC (becomes the P-queue base on TRIGGER) |
//! | `iss{k}_op` | in | 3 | instruction class |
//! | `iss{k}_src{0,1}`, `iss{k}_src{0,1}_vld` | in | A, 1 | source registers |
//! | `iss{k}_dst`, `iss{k}_dst_vld` | in | A, 1 | destination register |
//! | `iss{k}_src_pending` | in | 1 | scoreboard: a valid source is pending (selected board) |
//! | `iss{k}_dst_pending` | in | 1 | scoreboard: the valid destination is pending |
//! | `iss{k}_src{0,1}_long` | in | 1 | scoreboard: `long` bit of source j (gated with `_vld` here) |
//! | `iss{k}_pq_ok` | in | 1 | P-queue: a push would be recorded |
//! | `iss{k}_pq_full` | in | 1 | P-queue: the warp's queue is full (always, without a P-queue) |
//! | `iss{k}_pq_hit`, `iss{k}_pq_rdy` | in | 1 | P-queue: head matches the PC / head is reuse-ready |
//! | `iss{k}_rn_free` | in | 1 | rename: a rename register is available to port k |
//! | `iss{k}_dst_long` | in | 1 | scoreboard: a valid destination has `long` set |
//! | `iss{k}_diverged` | in | 1 | SIMT stack: the warp runs a divergent path (top entry above the base) |
//! | `wb{j}_en`, `wb{j}_warp`, `wb{j}_reg` | in | 1, W, A | a result is written back |
//! | `wb{j}_pmode` | in | 1 | it was issued in P-mode (renamed) |
//! | `mode` | out | warps | bit w = warp w is in P-mode |
//! | `halted` | out | warps | bit w = warp w is in P-mode and halted |
//! | `iss{k}_pmode` | out | 1 | `mode[iss{k}_warp]` (board / table / stack select for the other blocks) |
//! | `iss{k}_action` | out | 3 | decision, see above |
//! | `iss{k}_sb_fire`, `iss{k}_sb_long`, `iss{k}_sb_skip` | out | 1 | scoreboard update: set `pending[dst]` (`long[dst]` = `sb_long`) / set `long[dst]` only |
//! | `iss{k}_pq_push`, `iss{k}_pq_pop` | out | 1 | P-queue commands |
//! | `iss{k}_rn_alloc`, `iss{k}_rn_reuse`, `iss{k}_rn_write`, `iss{k}_rn_moved` | out | 1 | rename commands |
//! | `iss{k}_st_adv`, `iss{k}_st_br` | out | 1 | SIMT stack commands |
//! | `start_en`, `start_warp`, `start_pc` | out | 1, W, P | episode start: scoreboard copy, P-queue start, P-table clear, stack copy |
//!
//! # Decision (combinational; `long_dep = src0_vld & src0_long | src1_vld & src1_long`)
//!
//! Not `valid` → STALL. A port whose warp is `>= warps` → STALL. A port whose
//! warp equals that of a lower port with `valid` set → STALL (one warp, one
//! port).
//!
//! **N-mode** (`mode[w] = 0`):
//! 1. `long_dep`: TRIGGER if none of the warp's P-mode results is in flight
//!    (`flight[w] = 0`), no lower port triggers this cycle and no warp is
//!    launched (one episode start per cycle: the scoreboard has one copy
//!    port, and the unit empties a launched warp's P-queue through the
//!    P-queue's start port); otherwise STALL.
//!    Entries left from the last episode do not hold the trigger back: the
//!    start drops them (their offsets are relative to the old base, §5.1) and
//!    `rename` frees their registers and those of unrecorded results. A
//!    result still in flight (rare: P-mode results are short-latency) makes
//!    the warp wait: its writeback would land in a freed register, or mark a
//!    new entry in its old slot ready.
//! 2. `src_pending | dst_pending` → STALL.
//! 3. `pq_hit`: REUSE if `pq_rdy`, else STALL until the P-mode result is
//!    written back (the reused entry must be ready; matching happens at issue,
//!    where the PC, the scoreboard check and the head meet in one cycle — the
//!    paper matches at fetch and carries `Reuse.Rdy` into the instruction
//!    buffer; order and outcome are the same).
//! 4. otherwise ISSUE.
//!
//! **P-mode** (`mode[w] = 1`), `waw = dst_vld & dst_pending & (dst != trig_reg |
//! tredef)`,
//! `forced = op ∈ {SSTORE, GSTORE, BARRIER} | (op == SLOAD & (sst | bar))`:
//! 1. `halted[w]`, or the episode ends at this edge (`exit[w]`, below) → STALL.
//! 2. `!rn_free` → STALL ("P-mode warps are selected for issue only when
//!    renaming registers are available", §5.1 — applies to every P-mode
//!    instruction, as in the paper).
//! 3. EXIT → HALT (nothing past the end of the program).
//! 4. `long_dep` and BRANCH → HALT (§5.1: P-mode "is unable to resolve the
//!    correct branch target").
//! 5. `long_dep | forced`: STALL if `waw`, else SKIP. Stores are always skipped;
//!    a skipped SSTORE sets `sst`; a BARRIER is skipped and sets `bar`; SLOAD
//!    after either is skipped (§5.1 "Stores and Loads", "Barriers").
//! 6. `src_pending | waw` → STALL.
//! 7. ALU or SLOAD with `dst_vld`: PREEXEC, *recorded* (`pq_push`) if `pq_ok`;
//!    with a full queue PREEXEC *unrecorded* — renamed and executed, not
//!    recorded, so nothing of it is reused: §5.1, "if P-queue is full ... P-mode
//!    is only useful for pre-loading cache lines", which needs the address
//!    arithmetic executed; without a P-queue (`entries = 0`, always full) every
//!    instruction is unrecorded, the paper's NoPQ. An instruction whose offset
//!    does not fit (queue not full) is SKIP (§5.1: "simply skipped"). An ALU
//!    without a destination has no effect and is SKIP. So is a *partial
//!    re-definition* of a skipped value, `dst_long & diverged` (below).
//! 8. GLOAD → PRELOAD (§5.1: "changed into a pre-load ... brings the data only
//!    into the L1 cache"; marks `long[dst]`, Figure 5 / slides).
//! 9. BRANCH → PREEXEC (updates the P stack only).
//!
//! Why `waw` stalls in P-mode although renaming removes WAW hazards on the
//! data: a register whose N-mode write is still in flight has `pending` on the
//! P board (copied at the trigger); that write's writeback clears the P board
//! too (P-mode readers of the architected value must see it), so a P-mode
//! instruction that re-defines the register must wait for it, or the late
//! writeback would wipe its `pending`/`long` mark. The one exception is the
//! triggering load's own destination: its writeback ends the episode, so
//! nothing can be wiped (Figure 5: the second `ld $r0` is pre-loaded while the
//! first is outstanding) — unless a pre-executed instruction has re-defined
//! that register in this episode (`tredef`): then its P-mode writeback may
//! still be in flight, and it would wipe the `long` mark of a later skipped
//! re-definition, letting a dependent pre-execute with the stale value.
//!
//! Why a partial re-definition is skipped: the scoreboard's `long` mark is
//! per register, not per thread. When the warp runs one side of a divergent
//! branch, a skipped instruction marks its destination long for the threads
//! of that side only; pre-executing a re-definition on the other side would
//! clear the mark (a fire sets `long` = 0) and, after reconvergence, a
//! dependent would pre-execute with the first side's stale values. Skipping
//! it keeps the mark for every thread. The paper is silent on divergence in
//! P-mode; without divergence a re-definition covers every thread and is
//! pre-executed as usual.
//!
//! Strobes by action (all others 0): ISSUE: `sb_fire = dst_vld`, `sb_long =
//! dst_vld & op == GLOAD`, `rn_write = dst_vld`, `st_br = op == BRANCH`,
//! `st_adv = op != BRANCH`. REUSE: `pq_pop`, `st_adv`, and `rn_reuse = dst_vld`
//! (`release = 0`) or `rn_write = rn_moved = dst_vld` (`release = 1`).
//! PREEXEC non-branch: `rn_alloc`, `pq_push` (recorded only), `sb_fire`,
//! `st_adv`. PREEXEC
//! branch: `st_br`. PRELOAD, SKIP: `sb_skip = dst_vld`, `st_adv`. TRIGGER:
//! `start_en`, `start_warp = warp`, `start_pc = pc` (zero when no trigger).
//!
//! # State and edge
//!
//! Per warp: `mode`, `halted`, `sst` (a shared store was skipped this
//! episode), `bar` (a barrier was passed this episode), `tredef` (a PREEXEC
//! wrote `trig_reg` this episode), `flight` (`flight_bits`: P-mode results
//! not yet written back — each PREEXEC adds its written destinations, each
//! `wb{j}` with `wb{j}_pmode` takes one; it outlives the episode), `trig_reg` (A bits: the
//! destination of the load that triggered the episode = the first valid long
//! source of the triggering instruction, src0 before src1).
//!
//! At the rising edge, per warp, first rule that applies:
//! 1. `rst`: everything 0.
//! 2. `launch_en` for this warp: everything 0 (N-mode); wins over all else.
//! 3. **exit**: some `wb{j}_en & !wb{j}_pmode & wb{j}_warp == w & wb{j}_reg ==
//!    trig_reg[w]` while `mode[w] = 1` → `mode = 0`, `halted = 0`. Wins over this
//!    cycle's port effects on the warp. Only the triggering load can match: an
//!    N-mode write to `trig_reg` cannot issue while that load is pending (WAW),
//!    and P-mode writebacks carry `wb_pmode = 1`. If the triggering instruction
//!    had a second long source, the warp returns to N-mode when the recorded
//!    one arrives and may trigger again for the other.
//! 4. port effects: TRIGGER → `mode = 1`, `halted = sst = bar = 0`, `trig_reg`
//!    set, `tredef = 0`; HALT → `halted = 1`; SKIP of SSTORE → `sst = 1`; SKIP
//!    of BARRIER → `bar = 1`; PREEXEC with a valid destination equal to
//!    `trig_reg` → `tredef = 1`. `flight` of every warp counts this cycle's
//!    PREEXECs and P-mode writebacks (launch clears it).
//!
//! In the cycle of its exit the warp's P-mode instruction stalls: the
//! scoreboard lets that writeback clear the register on the P board in the
//! same cycle, which would also clear a `long` mark P-mode set by skipping a
//! re-definition of the register, and a dependent would pre-execute with the
//! wrong value (and be reused).
//!
//! # Storage (default parameters)
//!
//! Per warp: mode 1 + halted 1 + sst 1 + bar 1 + tredef 1 + trig_reg 6 +
//! flight 6 = **17 bits** (816 per SM). The paper names only the 48-bit mode vector (§5) and does not
//! include it in its 2236 bits per warp; the halt flag, the two
//! shared-load-skip flags and the triggering register are state its text
//! implies (halt on a dependent branch, skip after a skipped store / barrier,
//! exit on the triggering load's writeback) but does not count; `tredef` is
//! ours (the paper is silent on a P-mode re-definition of the register the
//! episode waits for), and so is `flight` (the paper does not say when a new
//! episode may reuse the registers and entries of the last one).
//! Emitted: `mode_bits`, `halted_bits`, `sst`, `bar` (one `warps`-bit
//! register each) + `tredef` + `trig_reg` (48 × 6 register array) + `flight`
//! (48 × 6) = 816 bits; the registry's paper figure is the 48-bit mode vector.
//!
//! # Hardware
//!
//! The per-warp bit vectors are single registers updated through one-hot
//! masks of the ports' and writebacks' warps (O(ports) logic on `warps`-bit
//! words); `trig_reg` has one read port per issue port (the WAW exception)
//! and per writeback port (the exit match) and one write port per issue port
//! plus the launch. The decision is a priority mux per port; the only
//! cross-port paths are the same-warp blocking and the one-trigger-per-cycle
//! chain.

use super::{per_dst, Operand};
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{below, idx_bits};
use std::sync::Arc;

/// Instruction classes on `iss{k}_op`.
pub mod op {
    pub const ALU: u64 = 0;
    pub const SLOAD: u64 = 1;
    pub const GLOAD: u64 = 2;
    pub const SSTORE: u64 = 3;
    pub const GSTORE: u64 = 4;
    pub const BRANCH: u64 = 5;
    pub const BARRIER: u64 = 6;
    pub const EXIT: u64 = 7;
    pub const NAMES: [&str; 8] = ["alu", "sload", "gload", "sstore", "gstore", "branch", "barrier", "exit"];
}

/// Decisions on `iss{k}_action`.
pub mod action {
    pub const STALL: u64 = 0;
    pub const ISSUE: u64 = 1;
    pub const REUSE: u64 = 2;
    pub const TRIGGER: u64 = 3;
    pub const PREEXEC: u64 = 4;
    pub const PRELOAD: u64 = 5;
    pub const SKIP: u64 = 6;
    pub const HALT: u64 = 7;
    pub const NAMES: [&str; 8] = ["stall", "issue", "reuse", "trigger", "preexec", "preload", "skip", "halt"];
}

crate::block_params! {
    /// Parameters of `mode_ctrl` (all shared with the P-mode family).
    pub struct ModeCtrlParams {
        warps: u32 = shared(super::WARPS),
        regs: u32 = shared(super::REGS),
        pc_bits: u32 = shared(super::PC_BITS),
        issue_ports: u32 = shared(super::ISSUE_PORTS),
        wb_ports: u32 = shared(super::WB_PORTS),
        srcs: u32 = shared(super::SRCS),
        dsts: u32 = shared(super::DSTS),
        flight_bits: u32 = spec { 6, 1..=16, "width of the per-warp count of P-mode results in flight", "ours: the paper is silent" },
        release: u32 = shared(super::RELEASE),
    }
}

impl ModeCtrlParams {
    pub fn warp_bits(&self) -> u32 {
        idx_bits(self.warps)
    }
    pub fn reg_bits(&self) -> u32 {
        idx_bits(self.regs)
    }
}

/// The mode controller's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeCtrlIo<H> {
    pub rst: H,
    pub launch_en: H,
    pub launch_warp: H,
    pub mode: H,
    pub halted: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<ModeCtrlIssue<H>>,
    /// Writeback port `j`: `wb{j}_*`.
    pub wb: Vec<ModeCtrlWb<H>>,
    pub start_en: H,
    pub start_warp: H,
    pub start_pc: H,
}

/// One issue port: the offered instruction, the other blocks' status, and
/// the decision with its commands to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeCtrlIssue<H> {
    pub valid: H,
    pub warp: H,
    pub pc: H,
    pub op: H,
    /// `iss{k}_src{s}`, `iss{k}_src{s}_vld` (`srcs` sources).
    pub src: Vec<Operand<H>>,
    /// Destination `d`: `iss{k}_dst`, `iss{k}_dst_vld` for d = 0,
    /// `iss{k}_dst{d}`, `iss{k}_dst{d}_vld` for the others.
    pub dst: Vec<Operand<H>>,
    pub src_pending: H,
    /// `iss{k}_dst_pending` (1 bit) at `dsts = 1`; `iss{k}_dst_pending_bits`
    /// (`dsts` bits, bit d = destination d pending) otherwise.
    pub dst_pending: H,
    /// `iss{k}_src{s}_long`.
    pub src_long: Vec<H>,
    pub pq_ok: H,
    pub pq_full: H,
    pub pq_hit: H,
    pub pq_rdy: H,
    pub rn_free: H,
    pub dst_long: H,
    pub diverged: H,
    pub pmode: H,
    pub action: H,
    pub sb_fire: H,
    pub sb_long: H,
    pub sb_skip: H,
    pub pq_push: H,
    pub pq_pop: H,
    pub rn_alloc: H,
    pub rn_reuse: H,
    pub rn_write: H,
    pub rn_moved: H,
    pub st_adv: H,
    pub st_br: H,
}

/// One writeback port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeCtrlWb<H> {
    pub en: H,
    pub warp: H,
    pub reg: H,
    pub pmode: H,
}

impl Interface for ModeCtrlParams {
    type Io<H> = ModeCtrlIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> ModeCtrlIo<B::H> {
        let (ww, aw, pcw, nw) = (self.warp_bits(), self.reg_bits(), self.pc_bits, self.warps);
        ModeCtrlIo {
            rst: b.reset(),
            launch_en: b.input("launch_en", 1),
            launch_warp: b.input("launch_warp", ww),
            mode: b.output("mode", nw),
            halted: b.output("halted", nw),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    ModeCtrlIssue {
                        valid: b.input(n("valid"), 1),
                        warp: b.input(n("warp"), ww),
                        pc: b.input(n("pc"), pcw),
                        op: b.input(n("op"), 3),
                        src: (0..self.srcs).map(|s| Operand::describe(b, &n(&format!("src{s}")), aw)).collect(),
                        dst: (0..self.dsts).map(|d| Operand::describe(b, &n(&per_dst("dst", d)), aw)).collect(),
                        src_pending: b.input(n("src_pending"), 1),
                        dst_pending: if self.dsts == 1 {
                            b.input(n("dst_pending"), 1)
                        } else {
                            b.input(n("dst_pending_bits"), self.dsts)
                        },
                        src_long: (0..self.srcs).map(|s| b.input(n(&format!("src{s}_long")), 1)).collect(),
                        pq_ok: b.input(n("pq_ok"), 1),
                        pq_full: b.input(n("pq_full"), 1),
                        pq_hit: b.input(n("pq_hit"), 1),
                        pq_rdy: b.input(n("pq_rdy"), 1),
                        rn_free: b.input(n("rn_free"), 1),
                        dst_long: b.input(n("dst_long"), 1),
                        diverged: b.input(n("diverged"), 1),
                        pmode: b.output(n("pmode"), 1),
                        action: b.output(n("action"), 3),
                        sb_fire: b.output(n("sb_fire"), 1),
                        sb_long: b.output(n("sb_long"), 1),
                        sb_skip: b.output(n("sb_skip"), 1),
                        pq_push: b.output(n("pq_push"), 1),
                        pq_pop: b.output(n("pq_pop"), 1),
                        rn_alloc: b.output(n("rn_alloc"), 1),
                        rn_reuse: b.output(n("rn_reuse"), 1),
                        rn_write: b.output(n("rn_write"), 1),
                        rn_moved: b.output(n("rn_moved"), 1),
                        st_adv: b.output(n("st_adv"), 1),
                        st_br: b.output(n("st_br"), 1),
                    }
                })
                .collect(),
            wb: (0..self.wb_ports)
                .map(|j| {
                    let n = |f: &str| format!("wb{j}_{f}");
                    ModeCtrlWb {
                        en: b.input(n("en"), 1),
                        warp: b.input(n("warp"), ww),
                        reg: b.input(n("reg"), aw),
                        pmode: b.input(n("pmode"), 1),
                    }
                })
                .collect(),
            start_en: b.output("start_en", 1),
            start_warp: b.output("start_warp", ww),
            start_pc: b.output("start_pc", pcw),
        }
    }
}

impl Block for ModeCtrlParams {
    const NAME: &'static str = "mode_ctrl";
    const SUMMARY: &'static str =
        "per-warp N/P mode: trigger on a long-latency dependence, exit on its writeback, halt and skip rules";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, sections 4, 5, 5.1, 5.2";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        mode_ctrl(self, name)
    }

    fn storage(&self) -> StorageAccount {
        let w = self.warps as u64;
        StorageAccount {
            paper: vec![PaperFigure::new("per-warp mode bit vector (not in the paper's 2236 bits per warp)", w)],
            differences: Vec::new(),
        }
        .differs(w as i64, "a halted bit per warp (P-mode stopped at a long-dependent branch or exit)")
        .differs(2 * w as i64, "two skip flags per warp (a shared store or a barrier was skipped in the episode)")
        .differs(w as i64, "a flag per warp: P-mode re-defined the triggering register in the episode")
        .differs(
            (w * self.reg_bits() as u64) as i64,
            "the triggering register per warp (the episode ends at its N-mode writeback)",
        )
        .differs(
            (w * self.flight_bits as u64) as i64,
            "the count of P-mode results in flight per warp (a new episode waits for them)",
        )
    }
}

/// Generate the mode controller (see the module documentation).
///
/// State: `mode`, `halted`, `sst`, `bar` are `warps`-bit registers (one bit per
/// warp, updated through one-hot masks of the ports' warps), `trig_reg` a
/// register array of `warps` words read by every issue and writeback port.
pub fn mode_ctrl(p: &ModeCtrlParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Mode controller of warp pre-execution (HPCA 2016, sections 4-5.2): per-warp N/P mode, trigger, exit, halt \\
         and P-mode skip rules; {} warps, {} issue port(s), {} writeback port(s).",
        p.warps, p.issue_ports, p.wb_ports
    ));
    let (ww, aw, pcw, nw) = (p.warp_bits(), p.reg_bits(), p.pc_bits, p.warps);
    let io = p.decls();
    let launch_en = m.port(&io.launch_en);
    let launch_warp = m.port(&io.launch_warp);
    struct Port {
        valid: Sig,
        warp: Sig,
        pc: Sig,
        op: Sig,
        src: Vec<(Sig, Sig)>,
        dst: Vec<(Sig, Sig)>,
        src_pending: Sig,
        /// One bit per destination (pending, as the scoreboard reports it).
        dst_pending: Sig,
        src_long: Vec<Sig>,
        pq_ok: Sig,
        pq_full: Sig,
        pq_hit: Sig,
        pq_rdy: Sig,
        rn_free: Sig,
        dst_long: Sig,
        diverged: Sig,
    }
    let ports: Vec<Port> = io
        .iss
        .iter()
        .map(|d| {
            let valid = m.port(&d.valid);
            let warp = m.port(&d.warp);
            let pc = m.port(&d.pc);
            let op = m.port(&d.op);
            let src = d.src.iter().map(|o| (m.port(&o.reg), m.port(&o.vld))).collect();
            let dst = d.dst.iter().map(|o| (m.port(&o.reg), m.port(&o.vld))).collect();
            let src_pending = m.port(&d.src_pending);
            let dst_pending = m.port(&d.dst_pending);
            let src_long = d.src_long.iter().map(|l| m.port(l)).collect();
            Port {
                valid,
                warp,
                pc,
                op,
                src,
                dst,
                src_pending,
                dst_pending,
                src_long,
                pq_ok: m.port(&d.pq_ok),
                pq_full: m.port(&d.pq_full),
                pq_hit: m.port(&d.pq_hit),
                pq_rdy: m.port(&d.pq_rdy),
                rn_free: m.port(&d.rn_free),
                dst_long: m.port(&d.dst_long),
                diverged: m.port(&d.diverged),
            }
        })
        .collect();
    let wbs: Vec<[Sig; 4]> = io.wb.iter().map(|d| [m.port(&d.en), m.port(&d.warp), m.port(&d.reg), m.port(&d.pmode)]).collect();

    let mode = m.reg("mode_bits", nw, 0);
    let halted = m.reg("halted_bits", nw, 0);
    let sst = m.reg("sst", nw, 0);
    let bar = m.reg("bar", nw, 0);
    let tredef = m.reg("tredef", nw, 0);
    let trig_reg = m.reg_array("trig_reg", nw, aw, 0);
    let fw = p.flight_bits;
    let flight = m.reg_array("flight", nw, fw, 0);
    m.port(&io.mode).set(mode);
    m.port(&io.halted).set(mode & halted);

    let zero_w = lit(0, nw);
    // Exit: the N-mode writeback of a P-mode warp's triggering register.
    let exit = wbs.iter().fold(zero_w, |acc, &[en, w, reg, pmode]| {
        let hit = en & !pmode & mode.bit_at(w) & trig_reg.read(w).eq(reg);
        acc | mux(hit, onehot(w, nw), zero_w)
    });
    let exit = exit.named("exit");
    let a = |v: u64| lit(v, 3);
    let is = |o: Sig, v: u64| o.eq(v);
    let (mut trig_set, mut halt_set, mut sst_set, mut bar_set, mut redef_set) = (zero_w, zero_w, zero_w, zero_w, zero_w);
    // A launch takes the cycle's one episode start (the unit empties the
    // launched warp's P-queue through the start port).
    let mut lower_trigger = launch_en;
    let mut start = (lit(0, 1), lit(0, ww), lit(0, pcw));
    let mut triggers = Vec::new();
    // Per issue port: (warp, P-mode results it adds to the warp's count).
    let mut adds: Vec<(Sig, Sig)> = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let n = |s: &str| format!("iss{k}_{s}");
        let pm = mode.bit_at(pt.warp).named(&n("mode"));
        let o = &io.iss[k];
        m.port(&o.pmode).set(pm);
        let blocked = ports[..k].iter().fold(lit(0, 1), |acc, q| acc | (q.valid & q.warp.eq(pt.warp)));
        let longs: Vec<Sig> = pt.src.iter().zip(&pt.src_long).map(|(&(_, v), &l)| v & l).collect();
        let long_dep = longs[1..].iter().fold(longs[0], |acc, &l| acc | l).named(&n("long_dep"));
        let one_dst = pt.dst.len() == 1;
        let (dst_pending, dst_vld) = if one_dst {
            (pt.dst_pending, pt.dst[0].1)
        } else {
            (pt.dst_pending.any(), pt.dst[1..].iter().fold(pt.dst[0].1, |acc, &(_, v)| acc | v).named(&n("dst_any")))
        };
        // N-mode.
        let act_n = mux(
            long_dep,
            mux(!flight.read(pt.warp).any() & !lower_trigger, a(action::TRIGGER), a(action::STALL)),
            mux(
                pt.src_pending | dst_pending,
                a(action::STALL),
                mux(pt.pq_hit, mux(pt.pq_rdy, a(action::REUSE), a(action::STALL)), a(action::ISSUE)),
            ),
        );
        // P-mode.
        let trig = trig_reg.read(pt.warp);
        // A valid pending destination, other than the triggering register
        // unless P-mode has re-defined that register in this episode.
        let redef = tredef.bit_at(pt.warp);
        let not_trig = |d: usize| pt.dst[d].0.ne(trig) | redef;
        let waw = if one_dst {
            pt.dst[0].1 & pt.dst_pending & not_trig(0)
        } else {
            let each = |d: usize| pt.dst[d].1 & pt.dst_pending.bit(d as u32) & not_trig(d);
            (1..pt.dst.len()).fold(each(0), |acc, d| acc | each(d))
        };
        let writes_trig = pt.dst.iter().fold(lit(0, 1), |acc, &(r, v)| acc | (v & r.eq(trig)));
        let waw = waw.named(&n("waw"));
        let forced = is(pt.op, op::SSTORE)
            | is(pt.op, op::GSTORE)
            | is(pt.op, op::BARRIER)
            | (is(pt.op, op::SLOAD) & (sst.bit_at(pt.warp) | bar.bit_at(pt.warp)));
        let executable = (is(pt.op, op::ALU) | is(pt.op, op::SLOAD)) & dst_vld & (pt.pq_ok | pt.pq_full) & !(pt.dst_long & pt.diverged);
        let act_p = mux(
            halted.bit_at(pt.warp) | exit.bit_at(pt.warp) | !pt.rn_free,
            a(action::STALL),
            mux(
                is(pt.op, op::EXIT) | (long_dep & is(pt.op, op::BRANCH)),
                a(action::HALT),
                mux(
                    long_dep | forced,
                    mux(waw, a(action::STALL), a(action::SKIP)),
                    mux(
                        pt.src_pending | waw,
                        a(action::STALL),
                        mux(
                            is(pt.op, op::GLOAD),
                            a(action::PRELOAD),
                            mux(is(pt.op, op::BRANCH) | executable, a(action::PREEXEC), a(action::SKIP)),
                        ),
                    ),
                ),
            ),
        );
        let offered = pt.valid & below(pt.warp, nw) & !blocked;
        let act = mux(offered, mux(pm, act_p, act_n), a(action::STALL)).named(&n("act"));
        m.port(&o.action).set(act);
        let (issue, reuse, preexec, skipish) =
            (is(act, action::ISSUE), is(act, action::REUSE), is(act, action::PREEXEC), is(act, action::PRELOAD) | is(act, action::SKIP));
        let branch = is(pt.op, op::BRANCH);
        let pre_dst = preexec & !branch;
        m.port(&o.sb_fire).set((issue & dst_vld) | pre_dst);
        m.port(&o.sb_long).set(issue & dst_vld & is(pt.op, op::GLOAD));
        m.port(&o.sb_skip).set(skipish & dst_vld);
        m.port(&o.pq_push).set(pre_dst & pt.pq_ok);
        m.port(&o.pq_pop).set(reuse);
        m.port(&o.rn_alloc).set(pre_dst);
        // A reused result is renamed in the N table, or moved home (its
        // architected register written, its rename register freed).
        let (renames, moves) = if p.release == 0 { (reuse, lit(0, 1)) } else { (lit(0, 1), reuse) };
        m.port(&o.rn_reuse).set(renames & dst_vld);
        m.port(&o.rn_write).set((issue | moves) & dst_vld);
        m.port(&o.rn_moved).set(moves & dst_vld);
        m.port(&o.st_adv).set((issue & !branch) | reuse | pre_dst | skipish);
        m.port(&o.st_br).set((issue | preexec) & branch);
        let trigger = is(act, action::TRIGGER);
        lower_trigger = lower_trigger | trigger;
        start = (start.0 | trigger, mux(trigger, pt.warp, start.1), mux(trigger, pt.pc, start.2));
        let me = onehot(pt.warp, nw);
        let on = |c: Sig| mux(c, me, zero_w);
        trig_set = trig_set | on(trigger);
        halt_set = halt_set | on(is(act, action::HALT));
        let skip = is(act, action::SKIP);
        sst_set = sst_set | on(skip & is(pt.op, op::SSTORE));
        bar_set = bar_set | on(skip & is(pt.op, op::BARRIER));
        redef_set = redef_set | on(pre_dst & writes_trig);
        // Results this PREEXEC will write back: its distinct valid destinations.
        let distinct: Vec<Sig> = (0..pt.dst.len())
            .map(|d| (0..d).fold(pt.dst[d].1, |acc, e| acc & !(pt.dst[e].1 & pt.dst[e].0.eq(pt.dst[d].0))))
            .collect();
        let n_dst = distinct.iter().fold(lit(0, fw), |acc, &v| acc + v.zext(fw));
        adds.push((pt.warp, mux(pre_dst, n_dst, lit(0, fw))));
        // The register the episode waits for: the first long source.
        let last = pt.src[pt.src.len() - 1].0;
        let first_long = (0..pt.src.len() - 1).rev().fold(last, |acc, s| mux(longs[s], pt.src[s].0, acc));
        triggers.push((pt.warp, trigger, first_long));
    }
    m.port(&io.start_en).set(start.0);
    m.port(&io.start_warp).set(start.1);
    m.port(&io.start_pc).set(start.2);

    let launched = mux(launch_en, onehot(launch_warp, nw), zero_w).named("launched");
    // Port effects apply to warps neither exiting nor launched this cycle.
    let keep = !(exit | launched);
    let trig_set = trig_set & keep;
    mode.set((mode | trig_set) & keep);
    halted.set(((halted & !trig_set) | halt_set) & keep);
    sst.set(((sst & !trig_set) | (sst_set & keep)) & !launched);
    bar.set(((bar & !trig_set) | (bar_set & keep)) & !launched);
    tredef.set(((tredef & !trig_set) | (redef_set & keep)) & !launched);
    for (w, trigger, reg) in triggers {
        trig_reg.write(w, reg, trigger & keep.bit_at(w));
    }
    trig_reg.write(launch_warp, lit(0, aw), launch_en);
    // P-mode results in flight: a warp's next count merges every issue port's
    // PREEXEC and every writeback port's P-mode result of that warp; each
    // port touching the warp writes the same merged value.
    let next_flight = |x: Sig| {
        let plus = adds.iter().fold(lit(0, fw), |acc, &(w, n)| acc + mux(w.eq(x), n, lit(0, fw)));
        let minus = wbs.iter().fold(lit(0, fw), |acc, &[en, w, _, pmode]| acc + (en & pmode & w.eq(x)).zext(fw));
        flight.read(x) + plus - minus
    };
    let mut touches: Vec<(Sig, Sig)> = adds.iter().map(|&(w, n)| (w, n.any())).collect();
    touches.extend(wbs.iter().map(|&[en, w, _, pmode]| (w, en & pmode)));
    for (x, en) in touches {
        flight.write(x, next_flight(x), en & below(x, nw));
    }
    flight.write(launch_warp, lit(0, fw), launch_en);
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<ModeCtrlParams>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let d = ModeCtrlParams::default();
        assert_eq!(d.storage().paper_bits(), 48);
        assert_eq!(d.storage().expected_bits(), 816);
    }
}
