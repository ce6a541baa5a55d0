//! Two-level affine SIMT stack — Wang and Lin, ISCA 2017, §4.5, Figure 13.
//!
//! The affine warp "executes" the threads of all non-affine warps in
//! lock-step, so its reconvergence stack tracks a mask over every thread of
//! the SM. The two-level form keeps, per entry, the shared PC and RPC and a
//! 2-bit code per warp in the *warp-level stack* (WLS): `11` all 32 threads
//! active, `00` none, `10` mixed. Only a mixed warp's mask is stored, in that
//! warp's *per-warp stack* (PWS) at the same level; "11"/"00" warps never
//! touch theirs (§4.5: "only warp 2 must update its PWS"). The divergent
//! condition register file (§4.7) has the same structure and is not part of
//! this block.
//!
//! # Parameters
//! `warps` (48), `depth` (8, §4.8), `pc_bits` (64). `WB = clog2(warps)`,
//! `DB = clog2(depth+1)`, `P = pc_bits`.
//!
//! # Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rst` | in | 1 | synchronous reset: empty stack, counters 0 |
//! | `op` | in | 2 | 0 nop, 1 init, 2 adv, 3 branch |
//! | `pc` | in | P | init: start PC; adv: the next PC; branch: taken target |
//! | `pc_fall` | in | P | branch: fall-through PC |
//! | `rpc` | in | P | branch: reconvergence PC (immediate post-dominator) |
//! | `cond` | in | 32·warps | init: initial masks (absent warps 0, a partial last warp mixed); branch: per-thread taken bits (warp w at bits 32w..) |
//! | `rd_warp` | in | WB | warp whose top mask `rd_mask` shows |
//! | `depth` | out | DB | entries on the stack (0 before init) |
//! | `top_pc`, `top_rpc` | out | P, P | top entry (0 when empty) |
//! | `codes` | out | 2·warps | top entry's codes, warp w at bits 2w+1..2w (0 when empty) |
//! | `rd_mask` | out | 32 | top mask of `rd_warp`: all ones / zero / its PWS entry (0 when empty or `rd_warp ≥ warps`) |
//! | `overflow` | out | 1 | sticky: a branch needed more entries than `depth` |
//! | `entry_writes` | out | 32 | entries written (init and pushes) |
//! | `pws_writes` | out | 32 | per-warp stack writes (mixed warps of written entries) |
//!
//! Outputs are combinational from the registers and `rd_warp`. A flat stack
//! writes `warps` masks per entry; the two-level form writes `pws_writes`:
//! the saving is `warps × entry_writes − pws_writes`.
//!
//! # Cycle semantics (GPGPU-sim's post-dominator stack, per thread)
//! Let `t` be the top level, `act(w)` warp w's mask there.
//! * init: level 0 ← (`pc`, RPC all ones = "none", codes of `cond`), `PWS[w][0]`
//!   ← `cond(w)` for mixed warps; depth ← 1; overflow ← 0. Allowed at any time.
//! * adv (depth ≥ 1): top PC ← `pc`; if depth ≥ 2 and `pc` = top RPC, pop
//!   (reconvergence: the entry below already holds PC = that RPC). One pop
//!   per cycle.
//! * branch (depth ≥ 1): `taken(w) = act(w) & cond(w)`, `fall(w) = act(w) & ~cond(w)`.
//!   No warp has a taken thread: top PC ← `pc_fall`. No warp has a fall-through
//!   thread: top PC ← `pc`. Otherwise divergence: `replace` = depth ≥ 2 and
//!   `rpc` = top RPC (the top already reconverges there and is overwritten
//!   instead of kept); new entries, bottom first: (`pc_fall`, `rpc`, fall) if
//!   `pc_fall ≠ rpc`, then (`pc`, `rpc`, taken) if `pc ≠ rpc` — the taken path
//!   runs first. If they do not fit in `depth` levels, nothing changes and
//!   `overflow` is set (the compiler bounds nesting; §4.7 does not decouple
//!   deeper code). Else, unless `replace`, top PC ← `rpc`; the entries are
//!   written at levels `t+1`, `t+2` (`t`, `t+1` with `replace`): PC, RPC and
//!   codes into the WLS, masks of mixed warps into their PWSs (two writes per
//!   warp at most: each PWS has two write ports).
//! * op with depth 0 (other than init), nop: nothing. Codes `01` never occur.
//!
//! # Hardware
//! The WLS is three arrays of `depth` words (PC, RPC, the `2·warps` code
//! bits) with one asynchronous read port at the top and three write ports
//! (the top's PC, and the two new entries). Each warp's PWS is its own array
//! of `depth` 32-bit masks with one read port at the top — a branch splits
//! every warp's active mask in parallel — and two write ports enabled only
//! when that warp's new mask is mixed. The arrays are warpforge memories
//! without reset (the `depth` register makes every stale entry invisible);
//! with their many ports they synthesize to flip-flops.
//!
//! # Storage (default parameters)
//! WLS 8 × (64 + 64 + 2 × 48) = 1792 bits and PWS 48 × 8 × 32 = 12288 bits
//! (14080 array bits), plus depth (4), overflow (1) and the two 32-bit
//! counters (69 flip-flops). The paper: WLS 224 bytes = 1792 bits and PWS
//! 1536 bytes = 12288 bits — equal; 224 bytes for 8 entries with 96 code bits
//! each implies 64-bit PC and RPC fields, hence `pc_bits` = 64 by default
//! (32 suffices for a real instruction space: 1280 + 12288 bits). The paper
//! does not count the depth register (+4) and the overflow flag (+1); the
//! counters (+64) are observability only.

use super::WARP_SIZE;
use crate::clog2;
use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{cat, lit, mux, pick, HwError, MemHandle, Module, ModuleBuilder, Sig};
use crate::params::ParamSpec;
use crate::registry::{Block, PaperFigure, StorageAccount};
use std::sync::Arc;

crate::block_params! {
    /// Parameters of the affine warp's two-level SIMT stack.
    pub struct AffineSimtStackParams {
        warps: u32 = shared(super::WARPS),
        depth: u32 = spec { 8, 2..=32, "stack entries", "section 4.8: 8" },
        pc_bits: u32 = shared(PC_BITS),
    }
}

/// PC/RPC width of the warp-level stack.
pub const PC_BITS: ParamSpec = ParamSpec {
    name: "pc_bits",
    default: 64,
    min: 8,
    max: 64,
    doc: "PC/RPC width",
    source: "section 4.8: the 224-byte warp-level stack holds 64-bit PC and RPC",
};

impl AffineSimtStackParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    /// Width of `depth` (0..=depth entries).
    pub fn depth_bits(&self) -> u32 {
        clog2(self.depth as u64 + 1)
    }
    /// Width of one warp-level stack entry: PC, RPC and 2 bits per warp.
    pub fn wls_entry_bits(&self) -> u32 {
        2 * self.pc_bits + 2 * self.warps
    }
}

/// The stack's ports (the table in the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineSimtStackIo<H> {
    pub rst: H,
    pub op: H,
    pub pc: H,
    pub pc_fall: H,
    pub rpc: H,
    pub cond: H,
    pub rd_warp: H,
    pub depth: H,
    pub top_pc: H,
    pub top_rpc: H,
    pub codes: H,
    pub rd_mask: H,
    pub overflow: H,
    pub entry_writes: H,
    pub pws_writes: H,
}

impl Interface for AffineSimtStackParams {
    type Io<H> = AffineSimtStackIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> AffineSimtStackIo<B::H> {
        let (nw, pcw) = (self.warps, self.pc_bits);
        AffineSimtStackIo {
            rst: b.reset(),
            op: b.input("op", 2),
            pc: b.input("pc", pcw),
            pc_fall: b.input("pc_fall", pcw),
            rpc: b.input("rpc", pcw),
            cond: b.input("cond", WARP_SIZE * nw),
            rd_warp: b.input("rd_warp", self.warp_bits()),
            depth: b.output("depth", self.depth_bits()),
            top_pc: b.output("top_pc", pcw),
            top_rpc: b.output("top_rpc", pcw),
            codes: b.output("codes", 2 * nw),
            rd_mask: b.output("rd_mask", WARP_SIZE),
            overflow: b.output("overflow", 1),
            entry_writes: b.output("entry_writes", 32),
            pws_writes: b.output("pws_writes", 32),
        }
    }
}

impl Block for AffineSimtStackParams {
    const NAME: &'static str = "affine_simt_stack";
    const SUMMARY: &'static str =
        "two-level SIMT stack of the affine warp: warp-level codes, per-warp masks only for mixed warps";
    const SOURCE: &'static str =
        "Wang and Lin, Decoupled Affine Computation for SIMT GPUs, ISCA 2017, sections 4.5 and 4.8, Figure 13";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        affine_simt_stack(self, name)
    }

    /// §4.8: warp-level stack 224 bytes (8 entries x (2 x 64-bit PC/RPC + 2 x
    /// 48 code bits)) plus per-warp stacks 1536 bytes (48 x 8 x 32 bits),
    /// scaled by depth and warps.
    fn storage(&self) -> StorageAccount {
        let (d, w) = (self.depth as u64, self.warps as u64);
        StorageAccount {
            paper: vec![
                PaperFigure::new("warp-level stack: 224 bytes (8 x (64 + 64 + 2 x 48) bits), scaled", d * (128 + 2 * w)),
                PaperFigure::new("per-warp stacks: 1536 bytes (48 x 8 x 32 bits), scaled", w * d * WARP_SIZE as u64),
            ],
            differences: Vec::new(),
        }
        .differs(2 * d as i64 * (self.pc_bits as i64 - 64), "PC and RPC of pc_bits instead of the paper's 64")
        .differs(self.depth_bits() as i64, "the stack depth register")
        .differs(1, "the sticky overflow flag")
        .differs(2 * 32, "two 32-bit write counters (statistics outputs)")
    }
}

/// Generate the two-level stack. The warp-level stack is three arrays (PC,
/// RPC, codes) of `depth` entries; each warp's per-warp stack is its own
/// array of `depth` 32-bit masks, read at the top level (every warp in
/// parallel: a branch splits every warp's active mask) and written through
/// two ports, only when that warp's new mask is mixed.
pub fn affine_simt_stack(p: &AffineSimtStackParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Two-level affine SIMT stack (DAC, Wang and Lin, ISCA 2017, section 4.5, Figure 13): {} levels, \
         warp-level stack of PC, RPC and 2-bit codes for {} warps, per-warp 32-bit mask stacks written only \
         for mixed warps.",
        p.depth, p.warps
    ));
    let (nw, pcw, db, lb) = (p.warps, p.pc_bits, p.depth_bits(), clog2(p.depth as u64));
    let io = p.decls();
    let op = m.port(&io.op);
    let pc = m.port(&io.pc);
    let pc_fall = m.port(&io.pc_fall);
    let rpc = m.port(&io.rpc);
    let cond = m.port(&io.cond);
    let rd_warp = m.port(&io.rd_warp);
    let depth_o = m.port(&io.depth);
    let top_pc_o = m.port(&io.top_pc);
    let top_rpc_o = m.port(&io.top_rpc);
    let codes_o = m.port(&io.codes);
    let rd_mask = m.port(&io.rd_mask);
    let overflow_o = m.port(&io.overflow);
    let entry_writes_o = m.port(&io.entry_writes);
    let pws_writes_o = m.port(&io.pws_writes);

    let wls_pc = m.mem("wls_pc", p.depth, pcw);
    let wls_rpc = m.mem("wls_rpc", p.depth, pcw);
    let wls_codes = m.mem("wls_codes", p.depth, 2 * nw);
    let pws: Vec<MemHandle> = (0..nw).map(|w| m.mem(&format!("pws{w}"), p.depth, WARP_SIZE)).collect();
    let depth = m.reg("depth_q", db, 0);
    let overflow = m.reg("overflow_q", 1, 0);
    let entry_writes = m.reg("entry_writes_q", 32, 0);
    let pws_writes = m.reg("pws_writes_q", 32, 0);

    let nonempty = depth.ne(0u64).named("nonempty");
    let t = (depth - 1u64).trunc(lb).named("top");
    let top_pc = wls_pc.read(t);
    let top_rpc = wls_rpc.read(t);
    let top_codes = mux(nonempty, wls_codes.read(t), lit(0, 2 * nw)).named("top_codes");
    let is_init = op.eq(1u64);
    let is_adv = op.eq(2u64) & nonempty;
    let is_branch = op.eq(3u64) & nonempty;

    // Per warp: active mask at the top, its taken and fall-through parts.
    let ones = lit(u32::MAX as u64, WARP_SIZE);
    let zero = lit(0, WARP_SIZE);
    let code = |mask: Sig| cat(&[mask.any(), mask.all()]);
    let mixed = |mask: Sig| mask.any() & !mask.all();
    let (mut act, mut taken, mut fall, mut cw) = (vec![], vec![], vec![], vec![]);
    for (w, arr) in pws.iter().enumerate() {
        let c = top_codes.slice(2 * w as u32, 2);
        let a = mux(c.bit(0), ones, mux(c.bit(1), arr.read(t), zero));
        let cond_w = cond.slice(WARP_SIZE * w as u32, WARP_SIZE);
        taken.push(a & cond_w);
        fall.push(a & !cond_w);
        act.push(a);
        cw.push(cond_w);
    }
    // Vectors are built most significant (last warp) first.
    let rev = |v: &[Sig]| v.iter().rev().copied().collect::<Vec<_>>();
    let taken_all = cat(&rev(&taken)).named("taken");
    let fall_all = cat(&rev(&fall)).named("fall");
    let any_t = taken_all.any();
    let any_f = fall_all.any();
    let codes_of = |v: &[Sig]| cat(&v.iter().rev().map(|&x| code(x)).collect::<Vec<_>>());

    // Divergence: new entries at levels base (fall-through) and base + push_f (taken).
    let divergent = (is_branch & any_t & any_f).named("divergent");
    let replace = depth.ge(2u64) & rpc.eq(top_rpc);
    let push_f = pc_fall.ne(rpc);
    let push_t = pc.ne(rpc);
    let wide = db + 1;
    let top_w = (depth.zext(wide) - 1u64).named("top_level");
    let base = mux(replace, top_w, top_w + 1u64);
    let lvl_t = base + push_f.zext(wide);
    let new_depth = (lvl_t + push_t.zext(wide)).named("new_depth");
    let fits = new_depth.le(p.depth as u64);
    let div_ok = (divergent & fits).named("div_ok");

    // Warp-level stack writes: the top's PC, and up to two new entries.
    let top_pc_next = mux(is_adv, pc, mux(!any_t, pc_fall, mux(!any_f, pc, rpc)));
    let top_upd = is_adv | (is_branch & (!any_t | !any_f)) | (div_ok & !replace);
    wls_pc.write(t, top_pc_next, top_upd);
    let no_rpc = lit(if pcw >= 64 { u64::MAX } else { (1u64 << pcw) - 1 }, pcw);
    let lvl_a = mux(is_init, lit(0, lb), base.trunc(lb));
    let en_a = is_init | (div_ok & push_f);
    wls_pc.write(lvl_a, mux(is_init, pc, pc_fall), en_a);
    wls_rpc.write(lvl_a, mux(is_init, no_rpc, rpc), en_a);
    wls_codes.write(lvl_a, mux(is_init, codes_of(&cw), codes_of(&fall)), en_a);
    let lvl_b = lvl_t.trunc(lb);
    let en_b = div_ok & push_t;
    wls_pc.write(lvl_b, pc, en_b);
    wls_rpc.write(lvl_b, rpc, en_b);
    wls_codes.write(lvl_b, codes_of(&taken), en_b);
    // Per-warp stacks: only mixed masks are written.
    let (mut wr_a, mut wr_b) = (vec![], vec![]);
    for (w, arr) in pws.iter().enumerate() {
        let a_mask = mux(is_init, cw[w], fall[w]);
        let (ea, eb) = (en_a & mixed(a_mask), en_b & mixed(taken[w]));
        arr.write(lvl_a, a_mask, ea);
        arr.write(lvl_b, taken[w], eb);
        wr_a.push(ea);
        wr_b.push(eb);
    }

    // Depth, overflow and the write counters.
    let reconverge = is_adv & depth.ge(2u64) & pc.eq(top_rpc);
    depth.set_if(reconverge, depth - 1u64);
    depth.set_if(div_ok, new_depth.trunc(db));
    depth.set_if(is_init, lit(1, db));
    overflow.set_if(divergent & !fits, lit(1, 1));
    overflow.set_if(is_init, lit(0, 1));
    // The per-warp stack writes this cycle, counted from the write enables.
    let cnt_w = clog2(nw as u64 + 1) + 1;
    let writes_a = cat(&rev(&wr_a)).named("pws_wr_a").count_ones().zext(cnt_w);
    let writes_b = cat(&rev(&wr_b)).named("pws_wr_b").count_ones().zext(cnt_w);
    pws_writes.set(pws_writes + (writes_a + writes_b).zext(32));
    entry_writes.set(entry_writes + en_a.zext(32) + en_b.zext(32));

    depth_o.set(depth);
    top_pc_o.set(mux(nonempty, top_pc, lit(0, pcw)));
    top_rpc_o.set(mux(nonempty, top_rpc, lit(0, pcw)));
    codes_o.set(top_codes);
    rd_mask.set(pick(rd_warp, &act));
    overflow_o.set(overflow);
    entry_writes_o.set(entry_writes);
    pws_writes_o.set(pws_writes);
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<AffineSimtStackParams>();
