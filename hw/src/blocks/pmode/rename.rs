//! `rename` — the N-mode and P-mode rename tables of every warp and the
//! SM-wide register availability vector.
//!
//! Source: Kim et al., HPCA 2016 (seed 000) §5 (register file organisation),
//! §5.1 "Operand collection stage", §5.2 "Issue and operand collection
//! stages", §5.3; slides seed 001 "Solution: Register Renaming".
//!
//! P-mode writes its results into otherwise unused physical warp registers
//! (the last `rename_regs` = 128 of 1024, ids 896–1023). A rename register is
//! named here by its 7-bit index `i` (physical id = 896 + i). Each warp has a
//! P table (architected → rename register, used by P-mode) and an N table
//! (points an architected register at the rename register that holds a reused
//! result, §5.2). The SM-wide availability vector `used` has one bit per
//! rename register, set = not available (§5.1: "the register availability
//! vector for those compiler used registers is set").
//!
//! # Parameters (paper defaults)
//!
//! | name | default | meaning |
//! |---|---|---|
//! | `warps` | 48 | warps per SM |
//! | `regs` | 63 | table entries per warp; id width A = clog2(regs) = 6 |
//! | `rename_regs` | 128 | rename registers; id width R = clog2 = 7 |
//! | `banks` | 4 | register banks (power of two dividing `rename_regs`); width B = clog2 |
//! | `issue_ports` | 2 | K |
//!
//! W = clog2(warps).
//!
//! # Banks
//!
//! Registers are interleaved over the banks: bank(id) = id mod `banks`. The
//! rename window starts at 896, a multiple of every legal bank count, so the
//! bank of rename register `i` is `i mod banks`. The caller supplies the bank
//! of the instruction's *original* destination register (`iss{k}_bank`); how
//! architected registers map to physical ones is the register file's business
//! (the `pmode_unit` uses GPGPU-Sim's `(warp + reg) mod banks`).
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `init_en` | in | 1 | kernel start: load `used` (the tables are not touched, see below) |
//! | `init_used` | in | rename_regs | registers the compiler uses (set = unavailable) |
//! | `start_en` | in | 1 | P-mode episode start for `start_warp`: clear its P table |
//! | `start_warp` | in | W | |
//! | `rel_en` | in | 1 | release one N-table mapping (warp exit sequence) |
//! | `rel_warp` | in | W | |
//! | `rel_reg` | in | A | |
//! | `iss{k}_warp` | in | W | warp on issue port k |
//! | `iss{k}_pmode` | in | 1 | the warp's mode: selects the table (1 = P) |
//! | `iss{k}_src0`, `iss{k}_src1` | in | A | source registers to look up |
//! | `iss{k}_dst` | in | A | destination register of the command |
//! | `iss{k}_bank` | in | B | bank of the original destination register |
//! | `iss{k}_alloc` | in | 1 | P-mode: rename `dst` to a fresh register (`iss{k}_alloc_phys`) |
//! | `iss{k}_reuse` | in | 1 | N-mode: point `dst` at `iss{k}_reuse_phys` (P-queue reuse) |
//! | `iss{k}_reuse_phys` | in | R | the reused entry's physical destination |
//! | `iss{k}_write` | in | 1 | N-mode: `dst` is written normally (to its architected home) |
//! | `iss{k}_moved` | in | 1 | N-mode: the reused value in `reuse_phys` was moved to its architected home: free `reuse_phys` |
//! | `used` | out | rename_regs | the availability vector (set = in use) |
//! | `iss{k}_src{j}_renamed` | out | 1 | source j reads a rename register |
//! | `iss{k}_src{j}_phys` | out | R | that rename register (0 when not renamed) |
//! | `iss{k}_free` | out | 1 | a rename register is available to port k |
//! | `iss{k}_alloc_phys` | out | R | the register port k would get (0 when none) |
//!
//! # Lookup (combinational, from the state at the start of the cycle)
//!
//! - N-mode (`pmode = 0`): source r reads rename register `N[r].id` exactly when
//!   `N[r].renamed`; otherwise it reads its architected location (§5.2).
//! - P-mode: `P[r]` if `P[r].renamed`, else `N[r]` if `N[r].renamed`, else the
//!   architected location. The paper says an operand not defined in P-mode is
//!   read "from the architected register file" (§5.1); but an architected
//!   register whose current value is a reused result lives in the rename
//!   register the N table points at, so P-mode must fall back to the N table
//!   (the N table is frozen during P-mode: only N-mode writes it).
//! - Ids `>= regs` are never renamed (read as not renamed, phys 0).
//!
//! # Free-register search (combinational)
//!
//! Port k sees `avail_k = !used & !(cand_0 | … | cand_{k-1})`, where `cand_j` is
//! the one-hot candidate of port j, *whether or not port j allocates* (so no
//! output depends on a command input). `cand_k` = the lowest-numbered
//! register of `avail_k` in bank `iss{k}_bank`; if that bank has none, the
//! lowest-numbered register of `avail_k` (§5.1: "first search if an unused
//! register \[is\] available in the same bank as the original destination
//! register", "the first unused register"). `iss{k}_free = avail_k != 0`.
//! Hardware: per port one masked and one unmasked priority encoder over the
//! vector. Frees of this cycle are not visible to this cycle's search.
//!
//! # When a rename register returns to the vector
//!
//! A rename register always has exactly one owner, and only the owner frees it:
//! 1. `alloc` (P-mode): `used[c] = 1`, `P[dst] = (c, renamed)`. The owner is the
//!    warp's episode (`owner = warp`, `queued`): the P-queue entry the
//!    instruction is recorded in, or none when the queue was full (an
//!    unrecorded pre-execution, see `mode_ctrl`). Overwriting `P[dst]` later
//!    frees nothing: the episode still owns the old register.
//! 2. `reuse` (N-mode, the entry is popped): `N[dst] = (reuse_phys, renamed)`;
//!    ownership passes to the N mapping (`queued` cleared). If `N[dst]` was
//!    renamed to another register, that register is **freed** (mapping
//!    overwritten).
//! 3. `moved` (N-mode, the `pmode_unit` at `release = 1`): the popped entry's
//!    value is moved into the architected register (which the same port's
//!    `write` records); `reuse_phys` is **freed** — it never enters the N
//!    table.
//! 4. `write` (N-mode, normal execution of an instruction with a destination):
//!    if `N[dst].renamed`, `N[dst].id` is **freed** and the bit cleared — the new
//!    value goes to the architected register, the reused one is dead.
//! 5. `rel` (warp exit): same as `write` for `rel_reg` of `rel_warp`, and
//!    what the warp's episodes still own is **freed** (7.). The SM's
//!    warp-exit sequence releases every architected register of the warp before
//!    the slot is reused (the N table outlives episodes, so without this a
//!    finished warp's reused registers would leak).
//! 6. `init_en` (kernel start): `used = init_used`, `queued` cleared. The
//!    tables are not cleared: at a kernel start they hold no live mapping —
//!    every warp of the previous kernel released its N mappings on exit (5.),
//!    and a P table is cleared at every episode start and read only in
//!    P-mode. (The phase-1 specification also cleared every table here; a
//!    flash clear of all `2 x warps` rows is not a register-array operation,
//!    it would need one register per row with its own next-state logic, and
//!    the exit protocol makes it redundant. Starting a kernel while a warp
//!    still holds an N mapping is a protocol error of the SM: that register
//!    may be handed out again.) Reset clears the renamed bits.
//! 7. `start_en` (episode start): every register the warp's episodes still
//!    own is **freed** — those of the P-queue entries the start drops (their
//!    offsets are relative to the old episode's base, §5.1) and those of
//!    unrecorded results. The block finds them by the owner tags in one
//!    cycle (`queued & owner == start_warp`, one warp-id comparator per
//!    rename register); the first release of a warp's exit walk does the
//!    same for `rel_warp`. The `pmode_unit` starts an episode only when none
//!    of the warp's P-mode results is in flight (`mode_ctrl`), and the SM
//!    releases a warp only when none of its instructions is, so no late write
//!    reaches a freed register.
//!
//! An episode start also clears the P table's renamed bits.
//!
//! Safety of a free (no late write into a reallocated register): a freed
//! register was last written by a P-mode instruction whose writeback
//! already happened (a reused result's `reuse_rdy`, or no result in flight at
//! a start or exit). Readers of the old value read it in the operand
//! collector before a younger instruction's result can be written — the same
//! assumption the baseline scoreboard makes for architected registers (it
//! tracks RAW/WAW only).
//!
//! # Edge order
//!
//! 1. `rst`: `used = 0`, all renamed bits and ids 0 (an id is only read
//!    through its renamed bit, so resetting the ids is not observable). 2. else `init_en`: as above,
//!    nothing else happens (port commands, `start_en` and `rel_en` are ignored). 3. else ports k = 0..K-1 in order (a port whose warp
//!    equals that of a lower port with any command is ignored; a port whose warp
//!    is `start_warp` under `start_en` ignores `alloc`):
//!    - `pmode = 1`: `alloc` acts if `free_k` and `dst < regs`; `reuse`, `write`
//!      are ignored.
//!    - `pmode = 0`: `reuse` acts if `dst < regs` (and `write` on the same port is
//!      then ignored), else `write` acts if `dst < regs`; `alloc` is ignored.
//! 4. `start_en`: clear the P renamed bits of `start_warp`; free its queued
//!    registers (`queued & owner == start_warp`).
//! 5. `rel_en` (after the ports, so it wins): release `rel_warp.rel_reg`, and
//!    free `rel_warp`'s queued registers.
//!
//! The vector is updated as `used' = (used & !frees) | allocations`. Under the
//! protocol frees and allocations are disjoint (a register freed this cycle
//! was in use at its start and so is no candidate); off the protocol (an N
//! mapping naming a register the vector shows free, e.g. an arbitrary
//! `reuse_phys`) the allocation wins.
//!
//! # Storage (default parameters)
//!
//! Per warp 2 tables × 63 × (7 + 1) = **1008 bits** (paper §5.3: 1008), plus the
//! **128-bit** vector per SM (paper: 128). The ids and the renamed bits are
//! flip-flop rows, one per warp and table (63 × 7 id bits, 63 renamed bits),
//! so an episode start clears a warp's P table in one write. Beyond the
//! paper: the owner tags, 128 × (6 + 1) = **896 bits** per SM (the paper
//! does not say how an episode start returns the registers of entries left
//! unreused; the tags find them in one cycle with 128 warp-id comparators).
//!
//! Hardware per issue port: the N and P rows (ids and renamed bits) of its
//! warp, read once; every source lookup and the N-id lookup of the
//! destination (the mapping a reuse or write replaces) picks its id from
//! those rows; a same-bank and an any-bank priority encoder over the vector;
//! one row write per table, which the Verilog lowering turns into a per-id
//! write strobe. The release reads the N rows of its warp. Reading a row
//! once per port instead of every id at `warp·63 + reg` halves the block on
//! an FPGA (8 warps: 47,295 -> 24,298 iCE40 LUT4): an id read is a
//! `warps·63`-to-1 multiplexer, a row read one `warps`-to-1 multiplexer
//! shared by the port's five lookups.

use super::per_dst;
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, lit_bits, mux, onehot, pick, Bits, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{and_or, below, gate, idx_bits};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of `rename` (all shared with the P-mode family).
    pub struct RenameParams {
        warps: u32 = shared(super::WARPS),
        regs: u32 = shared(super::REGS),
        rename_regs: u32 = shared(super::RENAME_REGS),
        banks: u32 = shared(super::BANKS),
        issue_ports: u32 = shared(super::ISSUE_PORTS),
        srcs: u32 = shared(super::SRCS),
        dsts: u32 = shared(super::DSTS),
    }
    check = |p: &RenameParams| super::banks_divide(p.banks, p.rename_regs);
}

impl RenameParams {
    pub fn warp_bits(&self) -> u32 {
        idx_bits(self.warps)
    }
    pub fn reg_bits(&self) -> u32 {
        idx_bits(self.regs)
    }
    pub fn phys_bits(&self) -> u32 {
        idx_bits(self.rename_regs)
    }
    pub fn bank_bits(&self) -> u32 {
        idx_bits(self.banks)
    }
    /// The paper's bits per warp (§5.3): two tables of `regs × (clog2(rename_regs) + 1)`.
    pub fn paper_bits_per_warp(&self) -> u64 {
        2 * self.regs as u64 * (self.phys_bits() as u64 + 1)
    }
}

/// The rename block's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameIo<H> {
    pub rst: H,
    pub init_en: H,
    pub init_used: H,
    pub start_en: H,
    pub start_warp: H,
    pub rel_en: H,
    pub rel_warp: H,
    pub rel_reg: H,
    pub used: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<RenameIssue<H>>,
}

/// One issue port: lookups, the command and the free-register search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameIssue<H> {
    pub warp: H,
    pub pmode: H,
    /// `iss{k}_src{j}` (`srcs` sources).
    pub src: Vec<H>,
    /// Destination `d`: `iss{k}_dst`, `iss{k}_bank` for d = 0,
    /// `iss{k}_dst{d}`, `iss{k}_dst{d}_vld`, `iss{k}_bank{d}` for the others.
    pub dst: Vec<RenameDst<H>>,
    pub alloc: H,
    pub reuse: H,
    /// Destination `d`'s reused register: `iss{k}_reuse_phys`, `iss{k}_reuse_phys{d}`.
    pub reuse_phys: Vec<H>,
    pub write: H,
    pub moved: H,
    /// Source `j`'s lookup: `iss{k}_src{j}_renamed`, `iss{k}_src{j}_phys`.
    pub lookup: Vec<RenameLookup<H>>,
    pub free: H,
    /// Destination `d`'s candidate: `iss{k}_alloc_phys`, `iss{k}_alloc_phys{d}`.
    pub alloc_phys: Vec<H>,
}

/// One destination of the instruction on an issue port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameDst<H> {
    pub reg: H,
    /// `_vld`: only when `dsts > 1` (the paper's one destination is always
    /// named, the commands say whether it is written).
    pub vld: Option<H>,
    /// Bank of this destination's original register.
    pub bank: H,
}

/// Where a source operand reads from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameLookup<H> {
    pub renamed: H,
    pub phys: H,
}

impl Interface for RenameParams {
    type Io<H> = RenameIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> RenameIo<B::H> {
        let (ww, aw, rw, bw) = (self.warp_bits(), self.reg_bits(), self.phys_bits(), self.bank_bits());
        RenameIo {
            rst: b.reset(),
            init_en: b.input("init_en", 1),
            init_used: b.input("init_used", self.rename_regs),
            start_en: b.input("start_en", 1),
            start_warp: b.input("start_warp", ww),
            rel_en: b.input("rel_en", 1),
            rel_warp: b.input("rel_warp", ww),
            rel_reg: b.input("rel_reg", aw),
            used: b.output("used", self.rename_regs),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    RenameIssue {
                        warp: b.input(n("warp"), ww),
                        pmode: b.input(n("pmode"), 1),
                        src: (0..self.srcs).map(|j| b.input(n(&format!("src{j}")), aw)).collect(),
                        dst: (0..self.dsts)
                            .map(|d| {
                                let reg = per_dst("dst", d);
                                RenameDst {
                                    reg: b.input(n(&reg), aw),
                                    vld: (self.dsts > 1).then(|| b.input(n(&format!("{reg}_vld")), 1)),
                                    bank: b.input(n(&per_dst("bank", d)), bw),
                                }
                            })
                            .collect(),
                        alloc: b.input(n("alloc"), 1),
                        reuse: b.input(n("reuse"), 1),
                        reuse_phys: (0..self.dsts).map(|d| b.input(n(&per_dst("reuse_phys", d)), rw)).collect(),
                        write: b.input(n("write"), 1),
                        moved: b.input(n("moved"), 1),
                        lookup: (0..self.srcs)
                            .map(|j| RenameLookup {
                                renamed: b.output(n(&format!("src{j}_renamed")), 1),
                                phys: b.output(n(&format!("src{j}_phys")), rw),
                            })
                            .collect(),
                        free: b.output(n("free"), 1),
                        alloc_phys: (0..self.dsts).map(|d| b.output(n(&per_dst("alloc_phys", d)), rw)).collect(),
                    }
                })
                .collect(),
        }
    }
}

impl Block for RenameParams {
    const NAME: &'static str = "rename";
    const SUMMARY: &'static str =
        "N and P rename tables per warp and the SM-wide register availability vector (same-bank-first search)";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, sections 5.1-5.3";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        rename(self, name)
    }

    /// Equal to the paper's: ids, renamed bits and the vector in flip-flops.
    fn storage(&self) -> StorageAccount {
        let t = self.paper_bits_per_warp();
        StorageAccount {
            paper: vec![
                PaperFigure::new(
                    format!(
                        "N + P rename tables, {t} bits per warp ({} x {} bits each) x {} warps",
                        self.regs,
                        self.phys_bits() + 1,
                        self.warps
                    ),
                    t * self.warps as u64,
                ),
                PaperFigure::new("register availability vector per SM", self.rename_regs as u64),
            ],
            differences: Vec::new(),
        }
        .differs(
            (self.rename_regs * (self.warp_bits() + 1)) as i64,
            format!(
                "owner tags, {} x ({} + 1) bits: the warp and whether its P-queue entry still owns the register, \
                 so that an episode start frees the registers of entries left unreused (the paper is silent)",
                self.rename_regs,
                self.warp_bits()
            ),
        )
    }
}

/// Generate the rename tables and the availability vector (see the module
/// documentation).
pub fn rename(p: &RenameParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "N/P rename tables and register availability vector of warp pre-execution (HPCA 2016, sections 5.1-5.3): \\
         {} warps x {} registers, {} rename registers in {} bank(s), {} issue port(s){}.",
        p.warps,
        p.regs,
        p.rename_regs,
        p.banks,
        p.issue_ports,
        shape_note(p)
    ));
    let (rw, nr) = (p.phys_bits(), p.rename_regs);
    let io = p.decls();
    let init_en = m.port(&io.init_en);
    let init_used = m.port(&io.init_used);
    let start_en = m.port(&io.start_en);
    let start_warp = m.port(&io.start_warp);
    let rel_en = m.port(&io.rel_en);
    let rel_warp = m.port(&io.rel_warp);
    let rel_reg = m.port(&io.rel_reg);
    /// One destination: register, valid (constant 1 at `dsts = 1`), bank.
    struct Dst {
        reg: Sig,
        vld: Option<Sig>,
        bank: Sig,
    }
    struct Port {
        warp: Sig,
        pmode: Sig,
        src: Vec<Sig>,
        dst: Vec<Dst>,
        alloc: Sig,
        reuse: Sig,
        reuse_phys: Vec<Sig>,
        write: Sig,
        moved: Sig,
    }
    let ports: Vec<Port> = io
        .iss
        .iter()
        .map(|d| Port {
            warp: m.port(&d.warp),
            pmode: m.port(&d.pmode),
            src: d.src.iter().map(|s| m.port(s)).collect(),
            dst: d.dst.iter().map(|x| Dst { reg: m.port(&x.reg), vld: x.vld.as_ref().map(|v| m.port(v)), bank: m.port(&x.bank) }).collect(),
            alloc: m.port(&d.alloc),
            reuse: m.port(&d.reuse),
            reuse_phys: d.reuse_phys.iter().map(|x| m.port(x)).collect(),
            write: m.port(&d.write),
            moved: m.port(&d.moved),
        })
        .collect();

    // One row of ids per warp and table. Reset only so that the Verilog
    // lowering writes each id field in place (an id is never read without
    // its renamed bit, so the reset value is never seen).
    let n_id = m.reg_array("n_id", p.warps, p.regs * rw, 0);
    let p_id = m.reg_array("p_id", p.warps, p.regs * rw, 0);
    let n_ren = m.reg_array("n_renamed", p.warps, p.regs, 0);
    let p_ren = m.reg_array("p_renamed", p.warps, p.regs, 0);
    let used = m.reg("avail_vec", nr, 0);
    m.port(&io.used).set(used);
    // Owner tags: the warp that allocated each register, and whether its
    // P-queue entry still owns it.
    let owner = m.reg_array("owner", nr, p.warp_bits(), 0);
    let queued = m.reg("queued", nr, 0);
    // Outputs in port order: per port, the lookups, then the search.
    struct Outs {
        lookup: Vec<(Sig, Sig)>,
        free: Sig,
        alloc_phys: Vec<Sig>,
    }
    let outs: Vec<Outs> = io
        .iss
        .iter()
        .map(|d| Outs {
            lookup: d.lookup.iter().map(|l| (m.port(&l.renamed), m.port(&l.phys))).collect(),
            free: m.port(&d.free),
            alloc_phys: d.alloc_phys.iter().map(|x| m.port(x)).collect(),
        })
        .collect();
    // `cond ? x : 0` for the masks. With several destinations the masks are
    // AND-OR logic: yosys's `share` pass would otherwise try to merge every
    // pair of the many muxed shifters with one SAT query over the flattened
    // unit each (out of memory at dsts = 2, see `hw::util::gate`). One
    // destination keeps the paper block's multiplexers.
    let wide = p.dsts > 1;
    let masked = |cond: Sig, x: Sig| if wide { gate(cond, x) } else { mux(cond, x, lit(0, x.width())) };

    // Lookups: P-mode reads its P table first, then the N table. A port
    // reads its warp's rows once and picks every operand's id from them.
    let id = |row: Sig, r: Sig| pick(r, &(0..p.regs).map(|f| row.slice(f * rw, rw)).collect::<Vec<_>>());
    for (k, pt) in ports.iter().enumerate() {
        let (nrow, prow) = (n_ren.read(pt.warp), p_ren.read(pt.warp));
        let (n_ids, p_ids) = (n_id.read(pt.warp), p_id.read(pt.warp));
        for (j, &r) in pt.src.iter().enumerate() {
            let use_p = pt.pmode & prow.bit_at(r);
            let use_n = nrow.bit_at(r);
            let phys = mux(use_p, id(p_ids, r), mux(use_n, id(n_ids, r), lit(0, rw)));
            outs[k].lookup[j].0.set(use_p | use_n);
            outs[k].lookup[j].1.set(phys);
        }
    }

    // The destinations an instruction writes: valid and not naming the
    // register of a lower valid destination (a register is written once).
    // At `dsts = 1` the destination has no valid input: always counted.
    let wrote: Vec<Vec<Option<Sig>>> = ports
        .iter()
        .enumerate()
        .map(|(k, pt)| {
            (0..pt.dst.len())
                .map(|d| {
                    let vld = pt.dst[d].vld?;
                    let dup = pt.dst[..d].iter().fold(lit(0, 1), |acc, e| acc | (e.vld.unwrap_or(lit(1, 1)) & e.reg.eq(pt.dst[d].reg)));
                    Some((vld & !dup).named(&format!("iss{k}_{}_writes", per_dst("dst", d as u32))))
                })
                .collect()
        })
        .collect();

    // Free-register search: per port and valid destination, the lowest
    // available register of the destination's bank, else the lowest
    // available one; a destination does not see the candidates of lower
    // destinations and lower ports.
    let bank_masks: Vec<Sig> = (0..p.banks)
        .map(|b| {
            let mut words = vec![0u64; nr.div_ceil(64) as usize];
            for i in (b..nr).step_by(p.banks as usize) {
                words[(i / 64) as usize] |= 1 << (i % 64);
            }
            lit_bits(&Bits::from_words(&words, nr).expect("mask fits"))
        })
        .collect();
    let mut avail = (!used).named("avail");
    let mut cands: Vec<Vec<Sig>> = Vec::new();
    // Per port and destination, the candidate as a one-hot mask.
    let mut hots: Vec<Vec<Sig>> = Vec::new();
    let mut frees_k = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let mut free: Option<Sig> = None;
        let mut port_cands = Vec::new();
        let mut port_hots = Vec::new();
        for (d, x) in pt.dst.iter().enumerate() {
            let in_bank = if p.banks == 1 { avail } else { avail & crate::ir::pick(x.bank, &bank_masks) };
            let cand = mux(in_bank.any(), in_bank.ffs(), avail.ffs()).named(&format!("iss{k}_{}", per_dst("cand", d as u32)));
            // At least one register, also for an instruction without a
            // destination (every P-mode instruction needs one, §5.1).
            let mut f = free.unwrap_or_else(|| avail.any());
            // With several destinations the search chains through up to
            // `issue_ports x dsts` picks: each pick's mask is the lowest set
            // bit, x & -x (no shifter fed by a priority encoder, which yosys's
            // `share` pass cannot analyse at that depth); the index is the
            // encoder's, the same register.
            let hot = if wide {
                let low = |v: Sig| v & (!v + 1u64);
                and_or(in_bank.any(), low(in_bank), low(avail))
            } else {
                onehot(cand, nr)
            };
            let taken = avail & !hot;
            avail = match wrote[k][d] {
                None => taken.named(&format!("avail{}", k + 1)),
                Some(w) => {
                    f = f & (!w | avail.any());
                    let name = if d + 1 == pt.dst.len() { format!("avail{}", k + 1) } else { format!("avail{k}_{}", d + 1) };
                    and_or(w, taken, avail).named(&name)
                }
            };
            free = Some(f);
            outs[k].alloc_phys[d].set(cand);
            port_cands.push(cand);
            port_hots.push(hot);
        }
        let free = free.expect("at least one destination");
        outs[k].free.set(free);
        cands.push(port_cands);
        hots.push(port_hots);
        frees_k.push(free);
    }

    // Commands. A port naming the warp of a lower port with a command is
    // ignored; `init_en` blocks everything.
    let zero_r = lit(0, nr);
    let zero_a = lit(0, p.regs);
    let mut frees = zero_r;
    let mut allocs = zero_r;
    // Registers a reuse hands from their P-queue entry to the N table.
    let mut handed = zero_r;
    /// One destination's effects.
    struct Act {
        reuse: Sig,
        write: Sig,
    }
    let mut acts: Vec<Vec<Act>> = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let n = |s: &str, d: usize| format!("iss{k}_{}", per_dst(s, d as u32));
        let cmd = |q: &Port| q.alloc | q.reuse | q.write | q.moved;
        let blocked = ports[..k].iter().fold(lit(0, 1), |acc, q| acc | (q.warp.eq(pt.warp) & cmd(q)));
        let mut port_acts = Vec::new();
        let mut p_set = zero_a;
        let mut any_alloc = lit(0, 1);
        let (mut p_ids, mut n_ids) = (p_id.read(pt.warp), n_id.read(pt.warp));
        let mut any_reuse = lit(0, 1);
        for (d, x) in pt.dst.iter().enumerate() {
            let live = !init_en & below(pt.warp, p.warps) & below(x.reg, p.regs) & !blocked;
            let live = match wrote[k][d] {
                None => live,
                Some(w) => live & w,
            };
            let alloc = (live & pt.pmode & pt.alloc & frees_k[k] & !(start_en & start_warp.eq(pt.warp))).named(&n("do_alloc", d));
            let reuse = (live & !pt.pmode & pt.reuse).named(&n("do_reuse", d));
            let write = (live & !pt.pmode & !pt.reuse & pt.write).named(&n("do_write", d));
            let moved = (live & !pt.pmode & pt.moved).named(&n("do_moved", d));
            // The N mapping the destination had (a reuse or write replaces it).
            let old_ren = n_ren.read(pt.warp).bit_at(x.reg);
            let old_id = id(n_id.read(pt.warp), x.reg);
            let freed = (reuse & old_ren & old_id.ne(pt.reuse_phys[d])) | (write & old_ren);
            frees = frees | masked(freed, onehot(old_id, nr)) | masked(moved, onehot(pt.reuse_phys[d], nr));
            allocs = allocs | masked(alloc, hots[k][d]);
            handed = handed | masked(reuse | moved, onehot(pt.reuse_phys[d], nr));
            owner.write(cands[k][d], pt.warp, alloc);
            p_ids = set_id(p_ids, x.reg, cands[k][d], alloc, p.regs);
            if pt.dst.len() == 1 {
                p_ren.write(pt.warp, p_ren.read(pt.warp) | onehot(x.reg, p.regs), alloc);
            } else {
                p_set = p_set | masked(alloc, onehot(x.reg, p.regs));
            }
            n_ids = set_id(n_ids, x.reg, pt.reuse_phys[d], reuse, p.regs);
            any_alloc = any_alloc | alloc;
            any_reuse = any_reuse | reuse;
            port_acts.push(Act { reuse, write });
        }
        if pt.dst.len() > 1 {
            p_ren.write(pt.warp, p_ren.read(pt.warp) | p_set, any_alloc);
        }
        p_id.write(pt.warp, p_ids, any_alloc);
        n_id.write(pt.warp, n_ids, any_reuse);
        acts.push(port_acts);
    }
    // Warp-exit release, after the ports: it sees a same-cycle port update of
    // its register.
    let rel = (rel_en & !init_en & below(rel_warp, p.warps) & below(rel_reg, p.regs)).named("do_rel");
    let (mut rel_ren, mut rel_id) = (n_ren.read(rel_warp).bit_at(rel_reg), id(n_id.read(rel_warp), rel_reg));
    for (k, pt) in ports.iter().enumerate() {
        for (d, x) in pt.dst.iter().enumerate() {
            let a = &acts[k][d];
            let same = pt.warp.eq(rel_warp) & x.reg.eq(rel_reg);
            rel_id = mux(same & a.reuse, pt.reuse_phys[d], rel_id);
            rel_ren = mux(same & (a.reuse | a.write), a.reuse, rel_ren);
        }
    }
    frees = frees | masked(rel & rel_ren, onehot(rel_id, nr));
    // N renamed rows: ports set (reuse) or clear (write) bits, the release
    // clears one; rows touched by a port and the release in one cycle merge.
    let n_next = |x: Sig| {
        let (mut set, mut clr) = (zero_a, zero_a);
        for (k, pt) in ports.iter().enumerate() {
            let here = pt.warp.eq(x);
            for (d, dx) in pt.dst.iter().enumerate() {
                set = set | masked(acts[k][d].reuse & here, onehot(dx.reg, p.regs));
                clr = clr | masked(acts[k][d].write & here, onehot(dx.reg, p.regs));
            }
        }
        let rel_clr = masked(rel & rel_warp.eq(x), onehot(rel_reg, p.regs));
        ((n_ren.read(x) & !clr) | set) & !rel_clr
    };
    let mut touches: Vec<(Sig, Sig)> = ports
        .iter()
        .enumerate()
        .map(|(k, pt)| {
            let a = &acts[k];
            let first = a[0].reuse | a[0].write;
            (pt.warp, a[1..].iter().fold(first, |acc, x| acc | x.reuse | x.write))
        })
        .collect();
    touches.push((rel_warp, rel));
    for (x, en) in touches {
        n_ren.write(x, n_next(x), en);
    }
    // An episode start clears the warp's P table (declared last: it wins)
    // and frees the registers its P-queue entries still own.
    let start = (start_en & !init_en).named("do_start");
    p_ren.write(start_warp, zero_a, start);
    // Registers a warp's episode still owns: dropped at its next start and
    // at its exit (the release walk).
    let owned_by = |w: Sig| queued & cat(&(0..nr).rev().map(|i| owner.read(lit(i as u64, rw)).eq(w)).collect::<Vec<_>>());
    let exiting = rel_en & !init_en;
    let dropped = (gate(start, owned_by(start_warp)) | gate(exiting, owned_by(rel_warp))).named("dropped");
    queued.set(mux(init_en, zero_r, (queued & !(dropped | handed.named("handed"))) | allocs));
    used.set(mux(init_en, init_used, (used & !(frees | dropped).named("frees")) | allocs.named("allocs")));
    m.finish_io(p)
}

/// `row` (`fields` ids of `v`'s width) with id `idx` replaced by `v` where `en`.
fn set_id(row: Sig, idx: Sig, v: Sig, en: Sig, fields: u32) -> Sig {
    let w = v.width();
    cat(&(0..fields).rev().map(|f| mux(en & idx.eq(f as u64), v, row.slice(f * w, w))).collect::<Vec<_>>())
}

/// The module documentation's note on non-default operand counts.
fn shape_note(p: &RenameParams) -> String {
    if p.srcs == 2 && p.dsts == 1 {
        String::new()
    } else {
        format!(", {} source(s) and {} destination(s) per instruction", p.srcs, p.dsts)
    }
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<RenameParams>();

#[cfg(test)]
mod tests {
    use super::*;

    use crate::params::{BlockParams, ParamError, Params};

    #[test]
    fn defaults_are_the_paper() {
        let d = RenameParams::default();
        assert_eq!(d.paper_bits_per_warp(), 1008);
        assert_eq!(d.storage().paper_bits(), 1008 * 48 + 128);
    }

    #[test]
    fn rejects_bad_banks() {
        for (b, r) in [("3", "128"), ("8", "4")] {
            let ov = vec![("banks".to_string(), b.to_string()), ("rename_regs".to_string(), r.to_string())];
            let p = Params::resolve("rename", RenameParams::SPECS, &ov).unwrap();
            assert!(matches!(RenameParams::from_params(&p), Err(ParamError::Invalid { .. })), "{b} {r}");
        }
    }
}
