//! `simt_stack` — the per-warp IPDOM SIMT reconvergence stack, replicated for
//! P-mode.
//!
//! Source: Kim et al., HPCA 2016 (seed 000) §5 (the N stack is copied to the P
//! stack on mode switch; "8 stack entries", "96 bits wide ... current and
//! reconvergence PC values and one 32-bit active thread mask"), §5.1
//! "Writeback stage" (P-mode branches update only the P stack), §5.2 (N-mode
//! resumes with the untouched N stack), §5.3 (768 bits per warp); slides seed
//! 001 (P-Stack 1111 / 1100 / 0011). The update rule is the immediate
//! post-dominator (IPDOM) stack of GPGPU-Sim 3.x (`simt_stack::update`), the
//! simulator the paper used, restricted to two-way branches.
//!
//! # Parameters (paper defaults)
//!
//! | name | default | meaning |
//! |---|---|---|
//! | `warps` | 48 | warps per SM |
//! | `depth` | 8 | entries per stack (D) |
//! | `lanes` | 32 | threads per warp = mask width (L) |
//! | `pc_bits` | 32 | PC width (P) |
//! | `inst_bytes` | 8 | fall-through PC = PC + `inst_bytes` (Figure 5 steps by 8) |
//! | `issue_ports` | 2 | K |
//!
//! W = clog2(warps), T = clog2(depth).
//!
//! # State
//!
//! Per warp and mode (N, P): D entries `{pc: P, rpc: P, mask: L}` and a top
//! index `top` (T bits; the stack is never empty — entry 0 is the warp's base
//! entry, whose `rpc` is `RPC_NONE` = all ones, a PC that is never reached).
//! The top entry's `pc` is the warp's next PC in that mode and its `mask` the
//! active threads. Plus one sticky `overflow` bit per SM.
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `launch_en` | in | 1 | start warp `launch_warp`: N stack = [(launch_pc, RPC_NONE, launch_mask)] |
//! | `launch_warp` | in | W | |
//! | `launch_pc` | in | P | |
//! | `launch_mask` | in | L | |
//! | `copy_en` | in | 1 | mode entry: P stack of `copy_warp` = its N stack (next value), one cycle |
//! | `copy_warp` | in | W | |
//! | `iss{k}_warp` | in | W | warp on issue port k |
//! | `iss{k}_pmode` | in | 1 | which stack port k reads and updates (1 = P) |
//! | `iss{k}_adv` | in | 1 | a non-branch instruction left the warp: pc += inst_bytes |
//! | `iss{k}_br` | in | 1 | a branch left the warp with outcome `taken` |
//! | `iss{k}_taken` | in | L | threads that take the branch (bits outside the top mask ignored) |
//! | `iss{k}_target` | in | P | branch target |
//! | `iss{k}_reconv` | in | P | the branch's reconvergence PC (its immediate post-dominator) |
//! | `iss{k}_pc` | out | P | top-of-stack PC of the selected stack |
//! | `iss{k}_rpc` | out | P | top-of-stack reconvergence PC |
//! | `iss{k}_mask` | out | L | top-of-stack active mask |
//! | `overflow` | out | 1 | sticky: a branch needed more than D entries |
//!
//! # Cycle semantics
//!
//! Outputs are combinational from the state at the start of the cycle. At the
//! rising edge (top entry `T = (pc, R, A)` of the selected stack, `F = pc +
//! inst_bytes`, all PC arithmetic mod 2^P):
//!
//! - `adv` (and not `br`): `T.pc = F`; then if `T.pc == R` and `top > 0`, pop
//!   (`top -= 1`): the threads reached their reconvergence point and continue
//!   as part of the entry below. Instructions that leave the warp without
//!   executing — P-mode skips, pre-loads, N-mode reuses — also `adv`.
//! - `br`: `t = taken & A`, `n = A & !taken`. The branch has **one path** if
//!   `t == 0` (next = F), `n == 0` (next = target) or `target == F`: then
//!   `T.pc = next`, and if `next == R` and `top > 0` the entry pops.
//!   Otherwise it **diverges** into two paths, taken in this order: `(F, n)`,
//!   `(target, t)`; let `r = reconv`. Walking the paths (GPGPU-Sim order):
//!   a path whose PC equals `R` is dropped (its threads wait in the entry
//!   below); at the first path not dropped, if `r != R` the top entry becomes
//!   the reconvergence entry `(r, R, A)` and a new slot is pushed above it; a
//!   path whose PC equals `r` is dropped; every other path is written into the
//!   current slot as `(pc, r, mask)` and a new slot is pushed above it. Finally
//!   the last (empty) slot is popped. So a full if/else pushes two entries
//!   above a reconvergence entry (taken path on top, executed first), and a
//!   branch whose `r == R` reuses the top slot.
//! - If the branch would leave `top >= D`, the stack is **not changed** and
//!   `overflow` is set (the paper's applications need at most 8 entries; this
//!   is an error the SM reports).
//! - `adv` and `br` together: `br` acts, `adv` is ignored.
//! - `launch_en`: the N stack of `launch_warp` becomes the single base entry;
//!   wins over port updates to that warp's N stack. The P stack is untouched
//!   (it is always overwritten by `copy` before use).
//! - `copy_en`: the P stack (all D entries and `top`) of `copy_warp` = the N
//!   stack's value *after* this edge's N updates; wins over this cycle's P-stack
//!   updates of that warp. One cycle (§5: the copy's cost was modelled as less
//!   than half a register write).
//! - Ports in order k = 0..K-1; a port naming the warp of a lower port with
//!   `adv` or `br` set is ignored.
//! - `rst`: every entry (0, 0, 0), `top = 0`, `overflow = 0`.
//!
//! Thread exit is not a stack operation: a warp's `exit` ends the warp and the
//! SM relaunches the slot (`launch_en`).
//!
//! # Storage (default parameters)
//!
//! The paper counts the P-mode copy: 8 × 96 = **768 bits per warp** (§5, §5.3).
//! This block holds both stacks: N (baseline hardware) 768 + 3-bit top, and the
//! P copy 768 + 3-bit top, per warp; plus 1 `overflow` bit per SM. P-mode
//! overhead per warp = **771 bits**: the paper does not count the stack
//! pointer. Both stacks are flip-flop arrays, not SRAM: the one-cycle N → P
//! copy reads and writes all 768 bits of a warp at once, and a divergent branch
//! writes up to three entries. Emitted: 74 017 flip-flop bits (`n_stack`,
//! `p_stack`: 48 × 768; `n_top`, `p_top`: 48 × 3; `overflow_flag`); the
//! registry's paper figures (N stack and P copy, 2 × 36 864) differ by the
//! 2 × 144 top pointers and the flag.
//!
//! # Hardware
//!
//! Each stack of a warp is one 768-bit row of a register array (one array for
//! the N stacks, one for the P copies) and its top index a word of a small
//! array. An issue port reads its warp's N and P rows and tops (selected by
//! `pmode`), picks the top entry for its outputs and, for a command, builds
//! the new row: at most the three slots `top`, `top + 1`, `top + 2` change
//! (one 3-way selection per slot); the row is written back through one write
//! port per port and array. The copy reads the N row of `copy_warp`, takes a
//! same-cycle N update (or launch) of that warp instead when there is one,
//! and writes the P row: a 771-bit path, one cycle, as the paper has it. The
//! logic is O(depth) per port; nothing is per warp except the storage.
//!
//! Cost of keeping the paper's one-cycle copy in flip-flops (measured on this
//! machine): Verilator builds the block's co-simulation harness in about
//! 15 s and the whole `pmode_unit` in about 35 s, so there is no reason to
//! trade the copy for a multi-cycle one or to move the N stacks into RAM.
//! `synth_ice40` maps the block at 48 warps in about 7 minutes
//! (`warpforge synth --flow ice40-fast`: 264 944 LUT4, 74 017 flip-flops;
//! docs/area.md).

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, mux, pick, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{below, idx_bits};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of `simt_stack` (all shared with the P-mode family).
    pub struct SimtStackParams {
        warps: u32 = shared(super::WARPS),
        depth: u32 = shared(super::DEPTH),
        lanes: u32 = shared(super::LANES),
        pc_bits: u32 = shared(super::PC_BITS),
        inst_bytes: u32 = shared(super::INST_BYTES),
        issue_ports: u32 = shared(super::ISSUE_PORTS),
    }
}

impl SimtStackParams {
    pub fn warp_bits(&self) -> u32 {
        idx_bits(self.warps)
    }
    pub fn top_bits(&self) -> u32 {
        idx_bits(self.depth)
    }
    /// Bits of one stack entry (§5: 96).
    pub fn entry_bits(&self) -> u64 {
        2 * self.pc_bits as u64 + self.lanes as u64
    }
    /// The "no reconvergence" PC of the base entry (all ones).
    pub fn rpc_none(&self) -> u64 {
        if self.pc_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.pc_bits) - 1
        }
    }
    /// The paper's P-mode copy per warp (§5.3): depth × (2 PCs + mask).
    pub fn paper_copy_bits(&self) -> u64 {
        self.depth as u64 * self.entry_bits()
    }
}

/// The SIMT stacks' ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimtStackIo<H> {
    pub rst: H,
    pub launch_en: H,
    pub launch_warp: H,
    pub launch_pc: H,
    pub launch_mask: H,
    pub copy_en: H,
    pub copy_warp: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<SimtStackIssue<H>>,
    pub overflow: H,
}

/// One issue port: the update command and the top of the selected stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimtStackIssue<H> {
    pub warp: H,
    pub pmode: H,
    pub adv: H,
    pub br: H,
    pub taken: H,
    pub target: H,
    pub reconv: H,
    pub pc: H,
    pub rpc: H,
    pub mask: H,
}

impl Interface for SimtStackParams {
    type Io<H> = SimtStackIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> SimtStackIo<B::H> {
        let (ww, pcw, lanes) = (self.warp_bits(), self.pc_bits, self.lanes);
        SimtStackIo {
            rst: b.reset(),
            launch_en: b.input("launch_en", 1),
            launch_warp: b.input("launch_warp", ww),
            launch_pc: b.input("launch_pc", pcw),
            launch_mask: b.input("launch_mask", lanes),
            copy_en: b.input("copy_en", 1),
            copy_warp: b.input("copy_warp", ww),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    SimtStackIssue {
                        warp: b.input(n("warp"), ww),
                        pmode: b.input(n("pmode"), 1),
                        adv: b.input(n("adv"), 1),
                        br: b.input(n("br"), 1),
                        taken: b.input(n("taken"), lanes),
                        target: b.input(n("target"), pcw),
                        reconv: b.input(n("reconv"), pcw),
                        pc: b.output(n("pc"), pcw),
                        rpc: b.output(n("rpc"), pcw),
                        mask: b.output(n("mask"), lanes),
                    }
                })
                .collect(),
            overflow: b.output("overflow", 1),
        }
    }
}

impl Block for SimtStackParams {
    const NAME: &'static str = "simt_stack";
    const SUMMARY: &'static str = "per-warp IPDOM SIMT reconvergence stack with a one-cycle P-mode copy";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, sections 5, 5.1, 5.3";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        simt_stack(self, name)
    }

    fn storage(&self) -> StorageAccount {
        let (copy, w) = (self.paper_copy_bits(), self.warps as u64);
        StorageAccount {
            paper: vec![
                PaperFigure::new(
                    format!("N stack (baseline), {} x {} bits per warp x {w} warps", self.depth, self.entry_bits()),
                    copy * w,
                ),
                PaperFigure::new(format!("P stack copy, {copy} bits per warp x {w} warps"), copy * w),
            ],
            differences: Vec::new(),
        }
        .differs(
            2 * w as i64 * self.top_bits() as i64,
            "a top-of-stack pointer per stack (N and P) and warp; the paper counts entries only",
        )
        .differs(1, "the sticky overflow flag (an error output the paper does not need)")
    }
}

/// One stack entry as a bit vector: `{pc, rpc, mask}`, mask least significant.
#[derive(Clone, Copy)]
struct Ent {
    pc: Sig,
    rpc: Sig,
    mask: Sig,
}

impl Ent {
    fn bits(self) -> Sig {
        cat(&[self.pc, self.rpc, self.mask])
    }
    fn of(v: Sig, pcw: u32, lanes: u32) -> Ent {
        Ent { pc: v.slice(pcw + lanes, pcw), rpc: v.slice(lanes, pcw), mask: v.slice(0, lanes) }
    }
}

/// A port's update of one stack: the new row and top, and whether the branch
/// overflowed (then the row must not be written).
struct Update {
    row: Sig,
    top: Sig,
    overflow: Sig,
}

/// Next value of a stack `row` / `top` for a port's `adv` / `br` command (the
/// rules of the module documentation). Hardware: the top entry is selected
/// from the row, at most three consecutive slots from `top` are rewritten.
fn update(p: &SimtStackParams, row: Sig, top: Sig, br: Sig, taken: Sig, target: Sig, reconv: Sig) -> Update {
    let (pcw, lanes, d, tw) = (p.pc_bits, p.lanes, p.depth, p.top_bits());
    let eb = p.entry_bits() as u32;
    let slots: Vec<Sig> = (0..d).map(|i| row.slice(i * eb, eb)).collect();
    let tos = Ent::of(pick(top, &slots), pcw, lanes);
    let fall = tos.pc + p.inst_bytes as u64;
    let t = taken & tos.mask;
    let n = tos.mask & !taken;
    let zero_l = lit(0, lanes);
    let single = !br | t.eq(zero_l) | n.eq(zero_l) | target.eq(fall);
    let next = mux(br & t.ne(zero_l), target, fall);
    let pop = single & next.eq(tos.rpc) & top.ne(0u64);
    // Divergence: the reconvergence entry (if `reconv` differs from the top
    // entry's), then the not-taken path, then the taken path, each dropped
    // when its PC is a reconvergence point.
    let big_r = tos.rpc;
    let rec = reconv.ne(big_r);
    let p1 = fall.ne(big_r) & fall.ne(reconv);
    let p2 = target.ne(big_r) & target.ne(reconv);
    let recon = Ent { pc: reconv, ..tos }.bits();
    let path1 = Ent { pc: fall, rpc: reconv, mask: n }.bits();
    let path2 = Ent { pc: target, rpc: reconv, mask: t }.bits();
    // Slot top, top + 1, top + 2 values and how many are written.
    let v0 = mux(single, Ent { pc: next, ..tos }.bits(), mux(rec, recon, mux(p1, path1, path2)));
    let v1 = mux(rec & p1, path1, path2);
    let writes = rec.zext(2) + p1.zext(2) + p2.zext(2); // 1..=3 when diverging
    let w0 = mux(single, !pop, lit(1, 1));
    let w1 = !single & writes.ge(2u64);
    let w2 = !single & writes.eq(3u64);
    // New top: one below on a pop, `top + writes - 1` on divergence.
    let xw = tw + 2;
    let top_x = top.zext(xw);
    let div_top = top_x + writes.zext(xw) - 1u64;
    let overflow = !single & div_top.ge(d as u64);
    let new_top = mux(single, mux(pop, top - 1u64, top), div_top.trunc(tw));
    let new_slots: Vec<Sig> = (0..d)
        .rev()
        .map(|i| {
            let at = |k: u32| top_x.eq((i as u64).wrapping_sub(k as u64) & ((1u64 << xw) - 1)) & lit((i >= k) as u64, 1);
            mux(w0 & at(0), v0, mux(w1 & at(1), v1, mux(w2 & at(2), path2, slots[i as usize])))
        })
        .collect();
    Update { row: cat(&new_slots), top: new_top, overflow }
}

/// Generate the SIMT stacks (see the module documentation).
///
/// Each stack of a warp is one `depth x entry`-bit row of a register array
/// (N rows and P rows), its top index a register array of `warps` words; a
/// port reads its warp's row, rewrites up to three slots and writes the row
/// back; the N -> P copy reads the N row (with this cycle's update) and
/// writes it into the P row in the same cycle.
pub fn simt_stack(p: &SimtStackParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "IPDOM SIMT stacks with a P-mode copy (HPCA 2016, section 5): {} warps x 2 stacks x {} entries of {} bits, \\
         one-cycle N->P copy, {} issue port(s).",
        p.warps,
        p.depth,
        p.entry_bits(),
        p.issue_ports
    ));
    let (pcw, lanes, tw) = (p.pc_bits, p.lanes, p.top_bits());
    let row_bits = p.depth * p.entry_bits() as u32;
    let io = p.decls();
    let launch_en = m.port(&io.launch_en);
    let launch_warp = m.port(&io.launch_warp);
    let launch_pc = m.port(&io.launch_pc);
    let launch_mask = m.port(&io.launch_mask);
    let copy_en = m.port(&io.copy_en);
    let copy_warp = m.port(&io.copy_warp);
    struct Port {
        warp: Sig,
        pmode: Sig,
        adv: Sig,
        br: Sig,
        taken: Sig,
        target: Sig,
        reconv: Sig,
    }
    let ports: Vec<Port> = io
        .iss
        .iter()
        .map(|d| Port {
            warp: m.port(&d.warp),
            pmode: m.port(&d.pmode),
            adv: m.port(&d.adv),
            br: m.port(&d.br),
            taken: m.port(&d.taken),
            target: m.port(&d.target),
            reconv: m.port(&d.reconv),
        })
        .collect();
    let n_stack = m.reg_array("n_stack", p.warps, row_bits, 0);
    let n_top = m.reg_array("n_top", p.warps, tw, 0);
    let p_stack = m.reg_array("p_stack", p.warps, row_bits, 0);
    let p_top = m.reg_array("p_top", p.warps, tw, 0);
    let overflow = m.reg("overflow_flag", 1, 0);

    let eb = p.entry_bits() as u32;
    let mut ovf = lit(0, 1);
    let mut n_updates = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let n = |s: &str| format!("iss{k}_{s}");
        let row = mux(pt.pmode, p_stack.read(pt.warp), n_stack.read(pt.warp)).named(&n("row"));
        let top = mux(pt.pmode, p_top.read(pt.warp), n_top.read(pt.warp)).named(&n("top"));
        let slots: Vec<Sig> = (0..p.depth).map(|i| row.slice(i * eb, eb)).collect();
        let tos = Ent::of(pick(top, &slots), pcw, lanes);
        m.port(&io.iss[k].pc).set(tos.pc);
        m.port(&io.iss[k].rpc).set(tos.rpc);
        m.port(&io.iss[k].mask).set(tos.mask);
        // Which port acts: not one naming the warp of a lower port with a
        // command; not an N update under a launch of the warp, not a P
        // update under a copy to it.
        let blocked = ports[..k].iter().fold(lit(0, 1), |acc, q| acc | (q.warp.eq(pt.warp) & (q.adv | q.br)));
        let overridden = mux(pt.pmode, copy_en & copy_warp.eq(pt.warp), launch_en & launch_warp.eq(pt.warp));
        let live = ((pt.adv | pt.br) & below(pt.warp, p.warps) & !blocked & !overridden).named(&n("live"));
        let u = update(p, row, top, pt.br, pt.taken, pt.target, pt.reconv);
        let write = (live & !u.overflow).named(&n("write"));
        ovf = ovf | (live & u.overflow);
        let (new_row, new_top) = (u.row.named(&n("new_row")), u.top.named(&n("new_top")));
        n_stack.write(pt.warp, new_row, write & !pt.pmode);
        n_top.write(pt.warp, new_top, write & !pt.pmode);
        p_stack.write(pt.warp, new_row, write & pt.pmode);
        p_top.write(pt.warp, new_top, write & pt.pmode);
        n_updates.push((pt.warp, write & !pt.pmode, new_row, new_top));
    }
    overflow.set(overflow | ovf);
    // Launch: the N stack becomes the base entry (declared after the ports: wins).
    let rpc_none = lit(p.rpc_none(), pcw);
    let base = Ent { pc: launch_pc, rpc: rpc_none, mask: launch_mask }.bits();
    let launch_row = if p.depth > 1 { cat(&[lit(0, row_bits - eb), base]) } else { base };
    n_stack.write(launch_warp, launch_row, launch_en);
    n_top.write(launch_warp, lit(0, tw), launch_en);
    // Mode entry: the P stack takes the N stack's next value, in one cycle.
    let mut copy_row = n_stack.read(copy_warp);
    let mut copy_top = n_top.read(copy_warp);
    for (w, en, row, top) in n_updates {
        let here = en & w.eq(copy_warp);
        copy_row = mux(here, row, copy_row);
        copy_top = mux(here, top, copy_top);
    }
    let launched = launch_en & launch_warp.eq(copy_warp);
    p_stack.write(copy_warp, mux(launched, launch_row, copy_row).named("copy_row"), copy_en);
    p_top.write(copy_warp, mux(launched, lit(0, tw), copy_top), copy_en);
    m.port(&io.overflow).set(overflow);
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<SimtStackParams>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let d = SimtStackParams::default();
        assert_eq!(d.entry_bits(), 96);
        assert_eq!(d.paper_copy_bits(), 768);
        assert_eq!(d.storage().expected_bits(), 2 * 771 * 48 + 1);
    }
}
