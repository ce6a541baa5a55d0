//! `pqueue` — the per-warp P-queue of pre-executed instructions.
//!
//! Source: Kim et al., HPCA 2016 (seed 000) §5.1 "Operand collection stage"
//! (Figure 9), §5.1 "Writeback stage", §5.2 "Fetch/Decode stages", §5.3.
//!
//! A pre-executed (renamed) P-mode instruction is recorded at the tail of its
//! warp's queue; its writeback sets `reuse_rdy`; back in N-mode the PC of each
//! instruction is compared with the head entry only, and a match whose result
//! is ready pops the entry (the instruction is *reused*). The queue is
//! SM-wide storage for all warps, indexed by warp, with a few ports.
//!
//! # Parameters (paper defaults)
//!
//! | name | default | meaning |
//! |---|---|---|
//! | `warps` | 48 | warps per SM |
//! | `entries` | 8 | entries per warp (E) |
//! | `offset_bits` | 10 | signed PC offset width (O) |
//! | `regs` | 63 | architected registers; id width A = clog2(regs) = 6 |
//! | `rename_regs` | 128 | rename registers; id width R = clog2(rename_regs) = 7 |
//! | `pc_bits` | 32 | PC width (P) |
//! | `issue_ports` | 2 | K: ports (in the P-mode unit, its issue ports then its fetch ports) |
//! | `wb_ports` | 2 | J |
//!
//! W = clog2(warps), I = clog2(entries).
//!
//! # Entry
//!
//! `{offset: O, src0: A, src1: A, dst: A, pdst: R, reuse_rdy: 1, valid: 1}` =
//! 10 + 3·6 + 7 + 1 + 1 = **37 bits** (Figure 9). `offset` is the signed byte
//! distance `pc - base` (two's complement, O bits), so an entry can lie up to
//! 2^(O-1) = 512 bytes before or after the base ("at most 512 bytes offset",
//! §5.1); negative offsets are needed because a loop branches back above the
//! triggering instruction (Figure 5: 0x88 is recorded after the trigger at
//! 0x90). `src0/src1/dst` are stored and returned verbatim (the cached decoded
//! instruction, §5.1); the queue gives them no meaning.
//!
//! Per warp: E entries, `head` (I bits), `tail` (I bits), `base` (P bits).
//! The base is the PC of the instruction that triggered the episode (the first
//! blocked instruction, where N-mode resumes: the offset is "from the
//! instruction that triggered P-mode").
//!
//! Occupancy is encoded by the valid bits; the pointers alone cannot tell full
//! from empty: **empty** = `!valid[head]`, **full** = `valid[tail]`. The queue
//! is circular (pointers wrap at E); within an episode it fills in P-mode and
//! drains in N-mode, so the paper's "tail reaches the size limit" is the full
//! condition.
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset |
//! | `start_en` | in | 1 | start an episode for `start_warp` |
//! | `start_warp` | in | W | |
//! | `start_pc` | in | P | base PC of the new episode |
//! | `iss{k}_warp` | in | W | warp on issue port k |
//! | `iss{k}_pc` | in | P | PC of the instruction on port k (push and match) |
//! | `iss{k}_push` | in | 1 | record the instruction (P-mode pre-execution) |
//! | `iss{k}_src0`, `iss{k}_src1`, `iss{k}_dst` | in | A | architected ids to record |
//! | `iss{k}_pdst` | in | R | physical (rename) destination to record |
//! | `iss{k}_pop` | in | 1 | N-mode: consume the head if it is reusable (`hit & rdy`) |
//! | `wb{j}_en` | in | 1 | a P-mode result was written back |
//! | `wb{j}_warp` | in | W | |
//! | `wb{j}_idx` | in | I | entry index returned by `iss{k}_idx` at push |
//! | `iss{k}_empty` | out | 1 | the warp's queue holds no entry |
//! | `iss{k}_full` | out | 1 | the warp's queue holds E entries |
//! | `iss{k}_ok` | out | 1 | a push now would be recorded: `!full` and the offset fits |
//! | `iss{k}_idx` | out | I | the tail: index a push now would use |
//! | `iss{k}_hit` | out | 1 | head valid and `iss{k}_pc == base + sext(head.offset)` |
//! | `iss{k}_rdy` | out | 1 | head valid and its `reuse_rdy` is set |
//! | `iss{k}_head_src0`, `_head_src1`, `_head_dst` | out | A | head entry fields |
//! | `iss{k}_head_pdst` | out | R | head entry physical destination |
//!
//! # Cycle semantics
//!
//! Every output is combinational from the state at the start of the cycle and
//! the port's own `warp`/`pc`; no output depends on a command input (`push`,
//! `pop`, `start_en`, `wb*`), so a controller can look at `ok`/`hit`/`rdy` and
//! then decide. There is no bypass: a writeback setting `reuse_rdy` is seen by
//! `rdy` from the next cycle. The `head_*` outputs read 0 when the queue is
//! empty (stale slots are never exposed).
//!
//! Offset: `d = (pc - base) mod 2^P`, read as a signed P-bit number; it fits iff
//! `-2^(O-1) <= d < 2^(O-1)`, and the entry stores the low O bits of `d`.
//! Instructions whose offset does not fit are not recorded (`ok = 0`): §5.1
//! "If an instruction does jump farther, then it is simply skipped".
//!
//! At the rising edge, in this order (later steps see earlier ones only where
//! stated):
//! 1. `rst`: every warp gets head = tail = 0, all entries invalid and not
//!    ready, base = 0. Nothing else happens.
//! 2. For `start_warp` if `start_en`: all its entries invalid, head = tail = 0,
//!    base = `start_pc`. Every other operation on that warp this cycle (push,
//!    pop, writeback) is ignored — an episode start wins.
//! 3. Ports k = 0..K-1 in order; a port whose warp equals the warp of a lower
//!    port with `push` or `pop` set is ignored (two ports never serve one warp).
//!    - `pop` and `hit & rdy`: head entry becomes invalid, head += 1 (mod E).
//!      `pop` without `hit & rdy` does nothing; a match that is not yet ready
//!      is the controller's cue to wait (the reused entry must be ready).
//!    - `push` and `ok`: `entry[tail]` = {offset, src0, src1, dst, pdst,
//!      reuse_rdy = 0, valid = 1}, tail += 1 (mod E). `push` without `ok` records
//!      nothing and changes nothing (full, or offset out of range).
//!    - A port may push and pop in one cycle (different slots: `ok` needs
//!      `!full`, evaluated before the pop, so a full queue does not accept a push
//!      in the cycle its head leaves).
//! 4. Writebacks `wb{j}`: if entry `idx` of `warp` was valid at the start of the
//!    cycle, its `reuse_rdy` is set. A writeback to an invalid entry, or with
//!    `idx >= E`, is ignored (stale). A same-cycle push never targets a valid
//!    slot, so it cannot collide with a writeback.
//!
//! Reset state: all queues empty, base 0.
//!
//! # Storage (default parameters)
//!
//! Per warp: 8 × 37 (entries, as a warps·E × 37 memory with the valid and
//! `reuse_rdy` bits in flip-flops so an episode start clears a warp's row in
//! one cycle) + 3 (head) + 3 (tail) + 32 (base) = **334 bits** — exactly the
//! paper's figure (§5.3: "334 bits per warp including 3-bit head/tail pointers
//! and a base pointer"). 48 warps: 16 032 bits. No difference: the valid bits
//! already distinguish full from empty, so no extra pointer bit is needed.
//! (§5.1's "total size of the P-queue is about 2 KB" is the same 16 032 bits.)
//! Emitted: `entry` RAM 384 × 35 (13 440 bits) + `valid`, `reuse_rdy` (48 × 8),
//! `head`, `tail` (48 × 3), `base` (48 × 32) flip-flops = 16 032 bits.
//!
//! # Hardware
//!
//! Per issue port: one read of the warp's valid/ready rows, pointers and base,
//! one `entry` RAM read (the head), one subtractor `pc - base` shared by the
//! offset-fits test, the recorded offset and the head match. Pushes write the
//! RAM at `warp·E + tail`; pointers are written by the acting port. The
//! valid/ready rows of a warp touched by several ports (a push or pop and
//! writebacks) are merged, every touching port writing the same merged row.
//! A writeback to an invalid entry (step 4) is not filtered in hardware: the
//! ready bit of an invalid entry is never visible (outputs read it through the
//! head's valid bit) and a push clears it, so this is the specified behaviour
//! at the ports.

use super::per_dst;
use crate::iface::{Binder, Interface, InterfaceExt, PortSpec};
use crate::ir::{cat, lit, mux, onehot, HwError, Module, ModuleBuilder, Sig};
use crate::registry::{Block, PaperFigure, StorageAccount};
use crate::util::{below, idx_bits, inc_mod, row_addr};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of `pqueue` (shared with the P-mode family but the port count).
    pub struct PqueueParams {
        warps: u32 = shared(super::WARPS),
        entries: u32 = shared(super::ENTRIES),
        offset_bits: u32 = shared(super::OFFSET_BITS),
        regs: u32 = shared(super::REGS),
        rename_regs: u32 = shared(super::RENAME_REGS),
        pc_bits: u32 = shared(super::PC_BITS),
        // In the P-mode unit: its issue ports (which record) then its fetch
        // ports (which match and move the head, §5.2).
        issue_ports: u32 = spec { 2, 1..=8, "ports, each with record (push) and match (pop) sides", "Table 1: 2 schedulers; section 5.2: the head is matched at fetch" },
        wb_ports: u32 = shared(super::WB_PORTS),
        dsts: u32 = shared(super::DSTS),
    }
    check = |p: &PqueueParams| super::offset_fits(p.offset_bits, p.pc_bits);
}

impl PqueueParams {
    /// Warp id width W.
    pub fn warp_bits(&self) -> u32 {
        idx_bits(self.warps)
    }
    /// Architected register id width A.
    pub fn reg_bits(&self) -> u32 {
        idx_bits(self.regs)
    }
    /// Rename register id width R.
    pub fn phys_bits(&self) -> u32 {
        idx_bits(self.rename_regs)
    }
    /// Entry index width I.
    pub fn idx_bits(&self) -> u32 {
        idx_bits(self.entries)
    }
    /// Bits of one entry as emitted: offset, two sources, and per
    /// destination its architected and physical ids, `reuse_rdy`, `valid`
    /// (Figure 9: 37 with one destination).
    pub fn entry_bits(&self) -> u64 {
        (self.offset_bits + 2 * self.reg_bits() + self.dsts * (self.reg_bits() + self.phys_bits()) + 2) as u64
    }
    /// Bits of one entry by the paper's layout (one destination): 37 at the
    /// defaults.
    pub fn paper_entry_bits(&self) -> u64 {
        (self.offset_bits + 3 * self.reg_bits() + self.phys_bits() + 2) as u64
    }
    /// The paper's bits per warp (§5.3), by its own formula: E × 37 + 2 ×
    /// clog2(E) pointers + a PC-wide base; none without a P-queue (E = 0).
    pub fn paper_bits_per_warp(&self) -> u64 {
        if self.entries == 0 {
            return 0;
        }
        self.entries as u64 * self.paper_entry_bits() + 2 * self.idx_bits() as u64 + self.pc_bits as u64
    }
}

/// The P-queue's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PqueueIo<H> {
    pub rst: H,
    pub start_en: H,
    pub start_warp: H,
    pub start_pc: H,
    /// Issue port `k`: `iss{k}_*`.
    pub iss: Vec<PqueueIssue<H>>,
    /// Writeback port `j`: `wb{j}_*`.
    pub wb: Vec<PqueueWb<H>>,
}

/// One issue port: the instruction to record or match, and the warp's queue
/// status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PqueueIssue<H> {
    pub warp: H,
    pub pc: H,
    pub push: H,
    pub src0: H,
    pub src1: H,
    /// Destination `d` to record: `iss{k}_dst`, `iss{k}_pdst` for d = 0,
    /// `iss{k}_dst{d}`, `iss{k}_pdst{d}` for the others.
    pub dst: Vec<PqueueDst<H>>,
    pub pop: H,
    pub empty: H,
    pub full: H,
    pub ok: H,
    pub idx: H,
    pub hit: H,
    pub rdy: H,
    pub head_src0: H,
    pub head_src1: H,
    /// The head entry's destination `d`: `iss{k}_head_dst{d}`,
    /// `iss{k}_head_pdst{d}` (no suffix for d = 0).
    pub head: Vec<PqueueDst<H>>,
}

/// One destination of an entry: architected and physical (rename) ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PqueueDst<H> {
    pub dst: H,
    pub pdst: H,
}

/// One writeback port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PqueueWb<H> {
    pub en: H,
    pub warp: H,
    pub idx: H,
}

impl Interface for PqueueParams {
    type Io<H> = PqueueIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> PqueueIo<B::H> {
        let (ww, aw, rw, iw, pcw) = (self.warp_bits(), self.reg_bits(), self.phys_bits(), self.idx_bits(), self.pc_bits);
        PqueueIo {
            rst: b.reset(),
            start_en: b.input("start_en", 1),
            start_warp: b.input("start_warp", ww),
            start_pc: b.input("start_pc", pcw),
            iss: (0..self.issue_ports)
                .map(|k| {
                    let n = |f: &str| format!("iss{k}_{f}");
                    PqueueIssue {
                        warp: b.input(n("warp"), ww),
                        pc: b.input(n("pc"), pcw),
                        push: b.input(n("push"), 1),
                        src0: b.input(n("src0"), aw),
                        src1: b.input(n("src1"), aw),
                        dst: (0..self.dsts)
                            .map(|d| PqueueDst { dst: b.input(n(&per_dst("dst", d)), aw), pdst: b.input(n(&per_dst("pdst", d)), rw) })
                            .collect(),
                        pop: b.input(n("pop"), 1),
                        empty: b.output(n("empty"), 1),
                        full: b.output(n("full"), 1),
                        ok: b.output(n("ok"), 1),
                        idx: b.output(n("idx"), iw),
                        hit: b.output(n("hit"), 1),
                        rdy: b.output(n("rdy"), 1),
                        head_src0: b.output(n("head_src0"), aw),
                        head_src1: b.output(n("head_src1"), aw),
                        head: (0..self.dsts)
                            .map(|d| PqueueDst {
                                dst: b.output(n(&per_dst("head_dst", d)), aw),
                                pdst: b.output(n(&per_dst("head_pdst", d)), rw),
                            })
                            .collect(),
                    }
                })
                .collect(),
            wb: (0..self.wb_ports)
                .map(|j| PqueueWb {
                    en: b.input(format!("wb{j}_en"), 1),
                    warp: b.input(format!("wb{j}_warp"), ww),
                    idx: b.input(format!("wb{j}_idx"), iw),
                })
                .collect(),
        }
    }
}

impl Block for PqueueParams {
    const NAME: &'static str = "pqueue";
    const SUMMARY: &'static str =
        "per-warp P-queue of pre-executed instructions (PC offset, operands, renamed destination, reuse-ready)";
    const SOURCE: &'static str = "Kim et al., Warped-Preexecution, HPCA 2016, section 5.1, Figure 9";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        pqueue(self, name)
    }

    /// Equal to the paper's: the entry fields in a RAM, valid and reuse_rdy
    /// in flip-flops, head, tail and base per warp.
    fn storage(&self) -> StorageAccount {
        let per_warp = self.paper_bits_per_warp();
        let acc = StorageAccount {
            paper: vec![PaperFigure::new(
                if self.entries == 0 {
                    format!("no P-queue (entries = 0), x {} warps", self.warps)
                } else {
                    format!(
                        "P-queue, {per_warp} bits per warp ({} x {}-bit entries + pointers + base) x {} warps",
                        self.entries,
                        self.paper_entry_bits(),
                        self.warps
                    )
                },
                per_warp * self.warps as u64,
            )],
            differences: Vec::new(),
        };
        if self.dsts == 1 || self.entries == 0 {
            return acc;
        }
        let extra = (self.dsts - 1) as u64 * (self.reg_bits() + self.phys_bits()) as u64;
        acc.differs(
            (extra * self.entries as u64 * self.warps as u64) as i64,
            format!(
                "{} further destination(s) per entry, {extra} bits (architected + physical id each): the SM's instructions \
                 write up to {} registers, the paper's one",
                self.dsts - 1,
                self.dsts
            ),
        )
    }
}

/// Generate the P-queue (see the module documentation for ports and timing).
///
/// Storage: `entry` RAM (`warps x entries` words of offset + 3 architected
/// ids + physical destination), `valid` and `reuse_rdy` flip-flop rows (one
/// `entries`-bit row per warp, so an episode start clears a warp in one
/// write), `head`, `tail`, `base` register arrays indexed by warp. Each issue
/// port reads its warp's row, pointers and head entry; pushes and pops write
/// through one port each; the valid/ready rows of a warp touched by several
/// ports in one cycle are merged (every touch writes the same merged row).
pub fn pqueue(p: &PqueueParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "P-queue of warp pre-execution (HPCA 2016, section 5.1, Figure 9): {} warps x {} entries of {} bits, \\
         {} issue port(s), {} writeback port(s).",
        p.warps,
        p.entries,
        p.entry_bits(),
        p.issue_ports,
        p.wb_ports
    ));
    let (aw, rw, iw, pcw, ow, e) = (p.reg_bits(), p.phys_bits(), p.idx_bits(), p.pc_bits, p.offset_bits, p.entries);
    let io = p.decls();
    if e == 0 {
        return no_queue(p, m, &io);
    }
    let start_en = m.port(&io.start_en);
    let start_warp = m.port(&io.start_warp);
    let start_pc = m.port(&io.start_pc);
    struct Port {
        warp: Sig,
        pc: Sig,
        push: Sig,
        fields: Sig,
        pop: Sig,
    }
    let ports: Vec<Port> = io
        .iss
        .iter()
        .map(|d| {
            let warp = m.port(&d.warp);
            let pc = m.port(&d.pc);
            let push = m.port(&d.push);
            let src0 = m.port(&d.src0);
            let src1 = m.port(&d.src1);
            let mut fields = vec![src0, src1];
            for x in &d.dst {
                fields.push(m.port(&x.dst));
                fields.push(m.port(&x.pdst));
            }
            let pop = m.port(&d.pop);
            Port { warp, pc, push, fields: cat(&fields), pop }
        })
        .collect();
    let wbs: Vec<(Sig, Sig, Sig)> = io.wb.iter().map(|d| (m.port(&d.en), m.port(&d.warp), m.port(&d.idx))).collect();

    // Entry layout, most significant first: offset, src0, src1, then per
    // destination d: dst{d}, pdst{d}.
    let dst_bits = aw + rw;
    let field_bits = 2 * aw + p.dsts * dst_bits;
    let entry = m.mem("entry", p.warps * e, ow + field_bits);
    let valid = m.reg_array("valid", p.warps, e, 0);
    let rdy = m.reg_array("reuse_rdy", p.warps, e, 0);
    let head = m.reg_array("head", p.warps, iw, 0);
    let tail = m.reg_array("tail", p.warps, iw, 0);
    let base = m.reg_array("base", p.warps, pcw, 0);

    let started = |w: Sig| start_en & start_warp.eq(w);
    struct View {
        h: Sig,
        t: Sig,
        d: Sig,
        hit: Sig,
        rdy: Sig,
        ok: Sig,
    }
    let mut views = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let n = |s: &str| format!("iss{k}_{s}");
        let (vrow, h, t) = (valid.read(pt.warp), head.read(pt.warp), tail.read(pt.warp));
        let head_valid = vrow.bit_at(h).named(&n("head_valid"));
        let full = vrow.bit_at(t);
        // Signed distance from the episode's base; it fits in `offset_bits`
        // when the bits above the offset's sign bit are all copies of it.
        let d = (pt.pc - base.read(pt.warp)).named(&n("dist"));
        let fits = if ow == pcw {
            lit(1, 1)
        } else {
            let top = d.bits(pcw - 1, ow - 1);
            top.all() | !top.any()
        };
        let ok = !full & fits;
        let ent = entry.read(row_addr(pt.warp, h, p.warps, e));
        let hit = head_valid & d.eq(ent.slice(field_bits, ow).sext(pcw));
        let ready = head_valid & rdy.read(pt.warp).bit_at(h);
        let o = &io.iss[k];
        m.port(&o.empty).set(!head_valid);
        m.port(&o.full).set(full);
        m.port(&o.ok).set(ok);
        m.port(&o.idx).set(t);
        m.port(&o.hit).set(hit);
        m.port(&o.rdy).set(ready);
        let zero_if_empty = |x: Sig| mux(head_valid, x, lit(0, x.width()));
        let dsts_lsb = p.dsts * dst_bits;
        m.port(&o.head_src0).set(zero_if_empty(ent.slice(dsts_lsb + aw, aw)));
        m.port(&o.head_src1).set(zero_if_empty(ent.slice(dsts_lsb, aw)));
        for (d, h) in (0u32..).zip(&o.head) {
            let at = (p.dsts - 1 - d) * dst_bits;
            m.port(&h.dst).set(zero_if_empty(ent.slice(at + rw, aw)));
            m.port(&h.pdst).set(zero_if_empty(ent.slice(at, rw)));
        }
        views.push(View { h, t, d, hit, rdy: ready, ok });
    }

    // Which ports act: a port naming the warp of a lower port that pushes or
    // pops is ignored; an episode start on the warp wins.
    let mut pops = Vec::new();
    let mut pushes = Vec::new();
    for (k, pt) in ports.iter().enumerate() {
        let blocked = ports[..k].iter().fold(lit(0, 1), |acc, q| acc | (q.warp.eq(pt.warp) & (q.push | q.pop)));
        let live = below(pt.warp, p.warps) & !started(pt.warp) & !blocked;
        let v = &views[k];
        let pop = (live & pt.pop & v.hit & v.rdy).named(&format!("iss{k}_do_pop"));
        let push = (live & pt.push & v.ok).named(&format!("iss{k}_do_push"));
        entry.write(row_addr(pt.warp, v.t, p.warps, e), cat(&[v.d.trunc(ow), pt.fields]), push);
        head.write(pt.warp, inc_mod(v.h, e), pop);
        tail.write(pt.warp, inc_mod(v.t, e), push);
        pops.push(pop);
        pushes.push(push);
    }
    // Writebacks mark their entries ready. The hardware does not check that
    // the entry is valid: the ready bit of an invalid entry is never seen
    // (outputs read it through the head's valid bit) and is cleared when the
    // slot is pushed, so marking it is the same as ignoring the writeback.
    let wb_live: Vec<Sig> = wbs
        .iter()
        .enumerate()
        .map(|(j, &(en, w, idx))| (en & below(w, p.warps) & !started(w) & below(idx, e)).named(&format!("wb{j}_do_mark")))
        .collect();
    // Merged next rows of warp `x`: pushes validate the tail slot, pops
    // invalidate the head slot; ready bits are set by writebacks and cleared
    // for slots that are pushed or popped.
    let zero = lit(0, e);
    let next_rows = |x: Sig| {
        let (mut vset, mut vclr, mut rset) = (zero, zero, zero);
        for (k, pt) in ports.iter().enumerate() {
            let here = pt.warp.eq(x);
            vset = vset | mux(pushes[k] & here, onehot(views[k].t, e), zero);
            vclr = vclr | mux(pops[k] & here, onehot(views[k].h, e), zero);
        }
        for (j, &(_, w, idx)) in wbs.iter().enumerate() {
            rset = rset | mux(wb_live[j] & w.eq(x), onehot(idx, e), zero);
        }
        ((valid.read(x) & !vclr) | vset, (rdy.read(x) | rset) & !(vset | vclr))
    };
    let mut touches: Vec<(Sig, Sig)> = ports.iter().enumerate().map(|(k, pt)| (pt.warp, pushes[k] | pops[k])).collect();
    touches.extend(wbs.iter().enumerate().map(|(j, w)| (w.1, wb_live[j])));
    for (x, en) in touches {
        let (v, r) = next_rows(x);
        valid.write(x, v, en);
        rdy.write(x, r, en);
    }
    // An episode start empties the warp's queue and sets its base; declared
    // last, so it wins over every other write to the warp.
    valid.write(start_warp, zero, start_en);
    rdy.write(start_warp, zero, start_en);
    head.write(start_warp, lit(0, iw), start_en);
    tail.write(start_warp, lit(0, iw), start_en);
    base.write(start_warp, start_pc, start_en);
    m.finish_io(p)
}

/// `entries = 0`, the paper's "without P-queue" (§5.1): no storage; every
/// warp's queue reads empty and full, nothing is ever recorded (`ok = 0`),
/// matched or reused; the inputs are ignored. `rst` is kept so that the
/// port list does not depend on `entries`.
fn no_queue(p: &PqueueParams, m: ModuleBuilder, io: &PqueueIo<PortSpec>) -> Result<Arc<Module>, HwError> {
    m.keep_clock_and_reset();
    for x in [&io.start_en, &io.start_warp, &io.start_pc] {
        m.port(x);
    }
    for d in &io.iss {
        for x in [&d.warp, &d.pc, &d.push, &d.src0, &d.src1] {
            m.port(x);
        }
        for x in &d.dst {
            m.port(&x.dst);
            m.port(&x.pdst);
        }
        m.port(&d.pop);
    }
    for w in &io.wb {
        for x in [&w.en, &w.warp, &w.idx] {
            m.port(x);
        }
    }
    for d in &io.iss {
        let zero = |x: &PortSpec| m.port(x).set(lit(0, x.width));
        m.port(&d.empty).set(lit(1, 1));
        m.port(&d.full).set(lit(1, 1));
        for x in [&d.ok, &d.idx, &d.hit, &d.rdy, &d.head_src0, &d.head_src1] {
            zero(x);
        }
        for h in &d.head {
            zero(&h.dst);
            zero(&h.pdst);
        }
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<PqueueParams>();

#[cfg(test)]
mod tests {
    use super::*;

    use crate::params::{BlockParams, ParamError, Params};

    #[test]
    fn defaults_are_the_paper() {
        let d = PqueueParams::default();
        assert_eq!(d.entry_bits(), 37);
        assert_eq!(d.paper_bits_per_warp(), 334);
        assert_eq!(d.storage().paper_bits(), 334 * 48);
    }

    #[test]
    fn rejects_offset_wider_than_pc() {
        let ov = vec![("offset_bits".to_string(), "20".to_string()), ("pc_bits".to_string(), "16".to_string())];
        let p = Params::resolve("pqueue", PqueueParams::SPECS, &ov).unwrap();
        assert!(matches!(PqueueParams::from_params(&p), Err(ParamError::Invalid { .. })));
    }

}
