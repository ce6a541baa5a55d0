//! The functional model, one warp-instruction at a time.
//!
//! [`exec`] runs the instruction at the top of a warp's SIMT stack for its
//! active lanes (guard applied), updates the warp's registers, memory and
//! SIMT stack, and returns an [`Executed`] record (no heap allocation) with
//! what the timing model needs: the lanes that executed, per-lane addresses
//! of memory instructions, the branch outcome and stack change, barrier
//! arrival and exit. The whole-launch runner ([`crate::run`]) and the timing
//! SM both drive warps through it.
//!
//! Values are computed for all 32 lanes in lane-parallel loops and written
//! back under the lane mask, so the compiler vectorizes the common
//! operations; nothing allocates per instruction.
//!
//! # SIMT stack
//!
//! The update rule is the P-mode `simt_stack` block's (GPGPU-Sim's IPDOM
//! stack): entries `(pc, rpc, mask)`, base entry `(0, RPC_NONE, lanes)`.
//! A non-branch instruction advances the top entry's PC and pops it when
//! it reaches its reconvergence PC. A branch with one path moves the PC; a
//! divergent one turns the top entry into the reconvergence entry
//! `(reconv, R, A)` (unless `reconv` equals the entry's own `R`) and pushes
//! the not-taken path, then the taken path (executed first), each
//! `(pc, reconv, mask)`, dropping a path whose PC is already the
//! reconvergence point. Threads that exit are removed from every entry;
//! entries left empty are popped, and the warp is done when the base entry
//! is empty. (The hardware block's warps exit as a whole; with one `ret` at
//! the end of a kernel, as compilers emit, both agree.)
//!
//! Calls of recursive functions (which the block does not have, and GPGPU-Sim
//! handles alike): `call` sets the caller's entry to the instruction after
//! it and pushes `(target, RPC_NONE, calling lanes)`, recorded in
//! [`WarpState::calls`]; `ret` removes its lanes from that entry and every
//! entry above it, so the call is over when the entry empties. The calling
//! lanes' local frames ([`WarpState::frame`]) move up by the kernel's frame
//! size for the call.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::cfg::RPC_NONE;
use crate::error::{ExecError, Fault};
use crate::inst::*;
use crate::kernel::Kernel;
use crate::memory::{read_le, write_le, Global, StagedAtomic, CONST_WINDOW, LOCAL_WINDOW, NEXT_FRAME, SHARED_WINDOW, WINDOW_BYTES};

/// One value per lane.
pub type Lanes = [u64; WARP_SIZE];

/// A SIMT stack entry (the `simt_stack` block's format).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackEntry {
    pub pc: u32,
    /// Reconvergence PC ([`RPC_NONE`] for the base entry).
    pub rpc: u32,
    pub mask: u32,
}

/// The architectural state of one warp: registers, predicates, SIMT stack.
/// Cloneable, so that a copy can be pre-executed speculatively.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpState {
    /// Warp index within its CTA.
    pub warp_id: u32,
    /// Lanes that exist (a CTA's last warp may be partial).
    pub lanes: u32,
    /// `regs[r][lane]`: architected 32-bit register `r` (lane-parallel layout).
    pub regs: Vec<[u32; WARP_SIZE]>,
    /// Predicate register `p` as a lane mask.
    pub preds: [u32; MAX_PREDS as usize],
    /// Bottom first; never empty until the warp is done.
    pub stack: Vec<StackEntry>,
    /// Lanes that have exited.
    pub exited: u32,
    pub done: bool,
    /// Deepest the stack has been.
    pub max_depth: u32,
    /// Thread index of each lane (x, y, z).
    pub tid: [[u32; WARP_SIZE]; 3],
    /// Threads in the CTA (for `%nwarpid` and local memory frames).
    pub cta_threads: u32,
    /// The carry flag (`CC.CF`) of each lane, as a lane mask (`add.cc`,
    /// `addc`, ...).
    pub carry: u32,
    /// Each lane's local frame: its `.local` offsets start here (one
    /// kernel frame per recursive call deep; see [`Op::Call`]).
    pub frame: [u32; WARP_SIZE],
    /// Stack entries that are calls (indices into `stack`), innermost last.
    pub calls: Vec<usize>,
    /// The kernel's frame size (`Kernel::frame_bytes`).
    pub frame_bytes: u32,
    /// A decoupled kernel's warp (DAC): the affine stream run for this
    /// warp's threads, which fills the queues its `deq`s read.
    pub affine: Option<Box<AffineLanes>>,
    /// The records this warp's `enq`s produced (the affine stream's
    /// lanes), address queue and predicate queue, oldest first.
    pub pwaq: VecDeque<DacRecord>,
    pub pwpq: VecDeque<DacRecord>,
    /// Records this warp has dequeued: a decoupled loop's progress can
    /// live in its queue alone (its counter went to the affine stream).
    pub dequeued: u64,
}

/// One `enq`'s expansion for one warp: the executing lanes and, per lane,
/// the address (`enq.addr`, `enq.data`) or predicate bit (`enq.pred`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DacRecord {
    pub queue: DacQueue,
    pub mask: u32,
    /// Bytes each lane accesses (addresses; 0 for predicates).
    pub bytes: u32,
    pub vals: [u64; WARP_SIZE],
}

/// The functional model of the affine warp, per non-affine warp: the
/// affine stream executed over the warp's own threads, run only as far as
/// the warp's next `deq` needs. The affine warp of the hardware executes
/// the same stream once per CTA on affine tuples; per thread the values
/// are the same, and each warp sees its records in the same order.
#[derive(Clone, Debug)]
pub struct AffineLanes {
    pub kernel: Arc<Kernel>,
    pub warp: WarpState,
}

impl PartialEq for AffineLanes {
    fn eq(&self, o: &Self) -> bool {
        Arc::ptr_eq(&self.kernel, &o.kernel) && self.warp == o.warp
    }
}

/// Affine-stream instructions one `deq` may wait for before the stream is
/// declared stuck (it never enqueues again).
const AFFINE_PATIENCE: u64 = 1 << 28;

impl WarpState {
    /// Warp `warp_id` of a CTA of `ntid` threads, at the kernel's first instruction.
    pub fn new(k: &Kernel, warp_id: u32, ntid: [u32; 3]) -> WarpState {
        let ntid = ntid.map(|d| d.max(1));
        let threads = (ntid[0] as u64 * ntid[1] as u64 * ntid[2] as u64).min(u32::MAX as u64) as u32;
        let first = warp_id as u64 * WARP_SIZE as u64;
        let mut lanes = 0u32;
        let mut tid = [[0u32; WARP_SIZE]; 3];
        for l in 0..WARP_SIZE as u32 {
            let t = first + l as u64;
            if t < threads as u64 {
                let (nx, ny) = (ntid[0] as u64, ntid[1] as u64);
                lanes |= 1 << l;
                tid[0][l as usize] = (t % nx) as u32;
                tid[1][l as usize] = (t / nx % ny) as u32;
                tid[2][l as usize] = (t / (nx * ny)) as u32;
            }
        }
        WarpState {
            warp_id,
            lanes,
            regs: vec![[0; WARP_SIZE]; k.regs_used.max(1) as usize],
            preds: [0; MAX_PREDS as usize],
            stack: vec![StackEntry { pc: 0, rpc: RPC_NONE, mask: lanes }],
            exited: 0,
            done: lanes == 0,
            max_depth: 1,
            tid,
            cta_threads: threads,
            carry: 0,
            frame: [0; WARP_SIZE],
            calls: Vec::new(),
            frame_bytes: k.frame_bytes,
            affine: k.affine.as_ref().map(|a| Box::new(AffineLanes { kernel: a.clone(), warp: WarpState::new(a, warp_id, ntid) })),
            pwaq: VecDeque::new(),
            pwpq: VecDeque::new(),
            dequeued: 0,
        }
    }

    /// The next record of the warp's `queue` for an instruction executing
    /// `mask`: the affine stream runs until it has enqueued one.
    fn deq(&mut self, queue: DacQueue, mask: u32, ctx: &mut ExecCtx) -> Result<DacRecord, Fault> {
        self.dequeued += 1;
        let Some(a) = self.affine.as_deref_mut() else {
            // The timing SM's affine warp fills the queues itself.
            let q = if queue == DacQueue::Pred { &mut self.pwpq } else { &mut self.pwaq };
            return match q.pop_front() {
                Some(r) if r.queue == queue && r.mask == mask => Ok(r),
                Some(r) => Err(Fault::Dac(format!(
                    "deq.{} of lanes {mask:#010x} met enq.{} of lanes {:#010x}: the streams disagree",
                    queue.name(),
                    r.queue.name(),
                    r.mask
                ))),
                None => Err(Fault::Dac(format!("deq.{} finds its queue empty", queue.name()))),
            };
        };
        let mut patience = AFFINE_PATIENCE;
        loop {
            let q = if queue == DacQueue::Pred { &mut a.warp.pwpq } else { &mut a.warp.pwaq };
            if let Some(r) = q.pop_front() {
                if r.queue != queue || r.mask != mask {
                    return Err(Fault::Dac(format!(
                        "deq.{} of lanes {mask:#010x} met enq.{} of lanes {:#010x}: the streams disagree",
                        queue.name(),
                        r.queue.name(),
                        r.mask
                    )));
                }
                return Ok(r);
            }
            if a.warp.done || patience == 0 {
                let why = if a.warp.done { "the affine stream has ended" } else { "the affine stream stopped enqueuing" };
                return Err(Fault::Dac(format!("deq.{} finds its queue empty: {why}", queue.name())));
            }
            patience -= 1;
            exec(&a.kernel, &mut a.warp, ctx).map_err(|e| Fault::Dac(format!("in the affine stream: {e}")))?;
        }
    }

    /// A lane's `.local` offset `a` (of its current frame, or of the next
    /// one above [`NEXT_FRAME`]) within the thread's local memory.
    fn in_frame(&self, lane: usize, a: u64) -> u64 {
        let a = if (NEXT_FRAME..NEXT_FRAME + (1 << 20)).contains(&a) { a - NEXT_FRAME + self.frame_bytes as u64 } else { a };
        a.wrapping_add(self.frame[lane] as u64)
    }

    /// The PC of the next instruction (`None` once the warp is done).
    pub fn pc(&self) -> Option<u32> {
        if self.done {
            None
        } else {
            self.stack.last().map(|e| e.pc)
        }
    }

    /// Lanes that execute the next instruction (before its guard).
    pub fn active_mask(&self) -> u32 {
        if self.done {
            0
        } else {
            self.stack.last().map_or(0, |e| e.mask)
        }
    }

    /// The next instruction and its index.
    pub fn next_inst<'k>(&self, k: &'k Kernel) -> Option<(usize, &'k Inst)> {
        let pc = self.pc()?;
        let i = (pc / INST_BYTES) as usize;
        k.insts.get(i).map(|inst| (i, inst))
    }

    /// Register `r` of `lane`.
    pub fn reg(&self, r: u8, lane: usize) -> u32 {
        self.regs[r as usize][lane]
    }

    /// Advance past a non-branch instruction: PC + 8, pop on reconvergence.
    fn advance(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.pc = top.pc.wrapping_add(INST_BYTES);
            if top.pc == top.rpc && self.stack.len() > 1 {
                self.stack.pop();
            }
        }
        self.drop_empty();
    }

    /// Pop entries left without threads (after exits); the warp is done when
    /// none is left.
    fn drop_empty(&mut self) {
        while let Some(top) = self.stack.last() {
            if top.mask != 0 {
                return;
            }
            if self.stack.len() == 1 {
                self.done = true;
                return;
            }
            self.stack.pop();
        }
    }

    /// The `simt_stack` block's branch rule (see the module docs). Returns
    /// (diverged, entries pushed).
    fn branch(&mut self, taken: u32, target: u32, reconv: u32) -> (bool, u8) {
        let top_i = self.stack.len() - 1;
        let tos = self.stack[top_i];
        let fall = tos.pc.wrapping_add(INST_BYTES);
        let t = taken & tos.mask;
        let n = tos.mask & !taken;
        if t == 0 || n == 0 || target == fall {
            let next = if t != 0 { target } else { fall };
            self.stack[top_i].pc = next;
            if next == tos.rpc && self.stack.len() > 1 {
                self.stack.pop();
            }
            return (false, 0);
        }
        let (big_r, r) = (tos.rpc, reconv);
        let mut writes = [(0usize, tos); 3];
        let mut nw = 0;
        let mut cur = top_i;
        let mut started = false;
        for (pc, m) in [(fall, n), (target, t)] {
            if pc == big_r {
                continue;
            }
            if !started {
                started = true;
                if r != big_r {
                    writes[nw] = (cur, StackEntry { pc: r, ..tos });
                    nw += 1;
                    cur += 1;
                }
            }
            if pc == r {
                continue;
            }
            writes[nw] = (cur, StackEntry { pc, rpc: r, mask: m });
            nw += 1;
            cur += 1;
        }
        // The last written slot is the new top (cur - 1); when nothing was
        // written, both paths were dropped: the top entry pops.
        let new_len = cur;
        if nw == 0 {
            // Both paths sit at the current reconvergence point.
            self.stack.pop();
            if self.stack.is_empty() {
                self.stack.push(StackEntry { pc: big_r, ..tos });
            }
            return (true, 0);
        }
        self.stack.resize(new_len.max(top_i + 1), tos);
        for &(i, e) in &writes[..nw] {
            self.stack[i] = e;
        }
        self.stack.truncate(new_len);
        self.max_depth = self.max_depth.max(self.stack.len() as u32);
        (true, (new_len - top_i - 1) as u8)
    }
}

/// Everything outside the warp an instruction may touch.
pub struct ExecCtx<'a> {
    /// Global memory and the constant bank.
    pub global: Global<'a>,
    /// The CTA's shared memory (static then dynamic).
    pub shared: &'a mut [u8],
    /// The CTA's local memory: `kernel.local_bytes` per thread, thread-major.
    pub local: &'a mut [u8],
    /// The kernel's parameter buffer.
    pub params: &'a [u8],
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    /// `false`: stores and atomics are not performed (reported as
    /// `suppressed`); loads still read. For pre-execution on a copy.
    pub side_effects: bool,
    /// A global load outside every buffer and variable reads zero (counted
    /// in `Executed::unmapped_lanes`) instead of failing, as GPGPU-Sim's
    /// sparse memory does: for unmodified programs that read past an
    /// allocation (Rodinia srad_v2). Stores and atomics there still fail.
    pub unmapped_reads_zero: bool,
    /// `%clock`/`%clock64`: the functional model's count of warp
    /// instructions executed, the timing SM's cycle; `%globaltimer` is it
    /// in ns at `clock_hz`.
    pub clock: u64,
    pub clock_hz: u64,
    /// The launch's textures (`tex`).
    pub textures: &'a crate::texture::Textures,
}

/// The per-lane memory accesses of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    /// The space after generic-address resolution (`Generic` if the lanes
    /// resolved to different spaces; see `shared_lanes`).
    pub space: Space,
    pub kind: MemKind,
    /// Bytes each lane accesses (element size times vector length).
    pub bytes: u32,
    /// Address per lane, valid for the lanes in `Executed::exec_mask`:
    /// global: device address; shared: offset in the CTA's shared memory;
    /// local: offset in the CTA's local memory (thread-major frames);
    /// const: constant-bank offset; param: parameter-buffer offset.
    pub addrs: [u64; WARP_SIZE],
    /// Lanes whose generic address resolved to shared memory.
    pub shared_lanes: u32,
}

/// A branch's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchOutcome {
    pub target_pc: u32,
    /// The branch's reconvergence PC (immediate post-dominator).
    pub reconv_pc: u32,
    /// Active lanes that take the branch (guard true).
    pub taken: u32,
    /// Active lanes that fall through.
    pub not_taken: u32,
    pub diverged: bool,
    /// SIMT stack entries added (0..=2).
    pub pushed: u8,
}

/// What one `exec` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Executed {
    /// Instruction index (PC / 8).
    pub inst: u32,
    pub pc: u32,
    /// Top-of-stack mask (before the guard).
    pub active: u32,
    /// Lanes that executed (guard applied).
    pub exec_mask: u32,
    pub mem: Option<MemAccess>,
    pub branch: Option<BranchOutcome>,
    /// `bar.sync` / `bar.arrive` reached: the CTA's barriers
    /// ([`crate::barrier::CtaBarriers`]) decide when a waiting warp goes on.
    pub barrier: Option<crate::barrier::Arrival>,
    /// Lanes that exited here.
    pub exited: u32,
    /// The warp has no thread left.
    pub warp_done: bool,
    /// A store or atomic was not performed (`ExecCtx::side_effects` false).
    pub suppressed: bool,
    /// A store (any), or an atomic that changed the value it read (a failed
    /// `atom.cas` does not), wrote memory — or the instruction read a clock
    /// (its value depends on time, so the warp's state cannot be said to
    /// repeat). The no-progress detector ([`crate::progress`]) counts these.
    pub wrote: bool,
    /// `bar.sync` reached with some of the warp's live threads inactive (a
    /// barrier in divergent code: undefined behaviour in CUDA).
    pub partial_barrier: bool,
    /// Lane-elements of a global load that read unmapped memory as zero
    /// (`ExecCtx::unmapped_reads_zero`).
    pub unmapped_lanes: u32,
}

#[inline(always)]
fn sext(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        let s = 64 - bits;
        (((v << s) as i64) >> s) as u64
    }
}

#[inline(always)]
fn zext(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

#[inline(always)]
fn norm(v: u64, ty: Ty) -> u64 {
    if ty.is_signed() {
        sext(v, ty.bits())
    } else {
        zext(v, ty.bits())
    }
}

#[inline(always)]
fn map1(a: &Lanes, f: impl Fn(u64) -> u64) -> Lanes {
    let mut r = [0u64; WARP_SIZE];
    for l in 0..WARP_SIZE {
        r[l] = f(a[l]);
    }
    r
}

#[inline(always)]
fn map2(a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> u64) -> Lanes {
    let mut r = [0u64; WARP_SIZE];
    for l in 0..WARP_SIZE {
        r[l] = f(a[l], b[l]);
    }
    r
}

#[inline(always)]
fn map3(a: &Lanes, b: &Lanes, c: &Lanes, f: impl Fn(u64, u64, u64) -> u64) -> Lanes {
    let mut r = [0u64; WARP_SIZE];
    for l in 0..WARP_SIZE {
        r[l] = f(a[l], b[l], c[l]);
    }
    r
}

#[inline(always)]
fn rd(w: &WarpState, ctx: &ExecCtx, o: Opnd) -> Lanes {
    let mut r = [0u64; WARP_SIZE];
    match o {
        Opnd::R(n) => {
            let row = &w.regs[n as usize];
            for l in 0..WARP_SIZE {
                r[l] = row[l] as u64;
            }
        }
        Opnd::D(n) => {
            let (lo, hi) = (&w.regs[n as usize], &w.regs[n as usize + 1]);
            for l in 0..WARP_SIZE {
                r[l] = lo[l] as u64 | (hi[l] as u64) << 32;
            }
        }
        Opnd::P(n) => {
            let m = w.preds[n as usize];
            for (l, x) in r.iter_mut().enumerate() {
                *x = (m >> l & 1) as u64;
            }
        }
        Opnd::Imm(v) => r = [v; WARP_SIZE],
        Opnd::Sreg(s) => match s {
            Sreg::Tid(d) => {
                let t = &w.tid[d as usize % 3];
                for l in 0..WARP_SIZE {
                    r[l] = t[l] as u64;
                }
            }
            Sreg::Ntid(d) => r = [ctx.ntid[d as usize % 3] as u64; WARP_SIZE],
            Sreg::Ctaid(d) => r = [ctx.ctaid[d as usize % 3] as u64; WARP_SIZE],
            Sreg::Nctaid(d) => r = [ctx.nctaid[d as usize % 3] as u64; WARP_SIZE],
            Sreg::LaneId => {
                for (l, x) in r.iter_mut().enumerate() {
                    *x = l as u64;
                }
            }
            Sreg::WarpId => r = [w.warp_id as u64; WARP_SIZE],
            Sreg::NWarpId => r = [w.cta_threads.div_ceil(WARP_SIZE as u32) as u64; WARP_SIZE],
            Sreg::WarpSize => r = [WARP_SIZE as u64; WARP_SIZE],
            Sreg::LaneMask(k) => {
                for (l, x) in r.iter_mut().enumerate() {
                    let bit = 1u64 << l;
                    *x = match k {
                        LaneMaskKind::Eq => bit,
                        LaneMaskKind::Lt => bit - 1,
                        LaneMaskKind::Le => (bit << 1) - 1,
                        LaneMaskKind::Gt => !((bit << 1) - 1) & 0xffff_ffff,
                        LaneMaskKind::Ge => !(bit - 1) & 0xffff_ffff,
                    };
                }
            }
            Sreg::SmId | Sreg::GridId => r = [0; WARP_SIZE],
            Sreg::NSmId => r = [1; WARP_SIZE],
            Sreg::Clock => r = [ctx.clock & 0xffff_ffff; WARP_SIZE],
            Sreg::Clock64 => r = [ctx.clock; WARP_SIZE],
            Sreg::GlobalTimer => r = [ctx.clock.saturating_mul(1_000_000_000) / ctx.clock_hz.max(1); WARP_SIZE],
        },
        Opnd::None | Opnd::Sink | Opnd::Deq => {}
    }
    r
}

#[inline(always)]
fn wr(w: &mut WarpState, o: Opnd, v: &Lanes, mask: u32) {
    match o {
        Opnd::R(n) => {
            let row = &mut w.regs[n as usize];
            for l in 0..WARP_SIZE {
                let m = ((mask >> l) & 1).wrapping_neg();
                row[l] = (row[l] & !m) | (v[l] as u32 & m);
            }
        }
        Opnd::D(n) => {
            let (a, b) = w.regs.split_at_mut(n as usize + 1);
            let (lo, hi) = (&mut a[n as usize], &mut b[0]);
            for l in 0..WARP_SIZE {
                let m = ((mask >> l) & 1).wrapping_neg();
                lo[l] = (lo[l] & !m) | (v[l] as u32 & m);
                hi[l] = (hi[l] & !m) | ((v[l] >> 32) as u32 & m);
            }
        }
        Opnd::P(n) => {
            let mut bits = 0u32;
            for (l, x) in v.iter().enumerate() {
                bits |= ((x & 1) as u32) << l;
            }
            wr_pred(w, Opnd::P(n), bits, mask);
        }
        _ => {}
    }
}

#[inline(always)]
fn wr_pred(w: &mut WarpState, o: Opnd, bits: u32, mask: u32) {
    if let Opnd::P(n) = o {
        let p = &mut w.preds[n as usize];
        *p = (*p & !mask) | (bits & mask);
    }
}

#[inline(always)]
fn pred_bits(w: &WarpState, o: Opnd) -> u32 {
    match o {
        Opnd::P(n) => w.preds[n as usize],
        Opnd::Imm(v) if v & 1 != 0 => u32::MAX,
        _ => 0,
    }
}

/// Integer and predicate ALU operations.
/// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`,
/// `madc{.lo,.hi}[.cc]`: the PTX ISA's extended-precision arithmetic
/// through each lane's carry flag (a borrow for sub).
fn carry_alu(w: &mut WarpState, dst: Opnd, op: AluOp, ty: Ty, carry: u8, s: [&Lanes; 4], mask: u32) {
    let bits = ty.bits();
    let full = if bits == 64 { u128::from(u64::MAX) } else { (1u128 << bits) - 1 };
    let [a, b, c, _] = s;
    let mut d = [0u64; WARP_SIZE];
    let mut flags = 0u32;
    for l in lanes(mask) {
        let cin = u128::from(carry & CARRY_IN != 0 && w.carry >> l & 1 == 1);
        let (x, y, z) = (a[l as usize] as u128 & full, b[l as usize] as u128 & full, c[l as usize] as u128 & full);
        let (r, out) = match op {
            AluOp::Add => {
                let r = x + y + cin;
                (r, r > full)
            }
            AluOp::Sub => {
                let sub = y + cin;
                (x.wrapping_sub(sub), sub > x)
            }
            AluOp::Mad | AluOp::MadHi => {
                // The product of the unsigned (or sign-extended) operands, its low or high half.
                let p = if ty.is_signed() {
                    let sx = |v: u128| ((v as u64) << (64 - bits)) as i64 >> (64 - bits);
                    (sx(x) as i128 * sx(y) as i128) as u128
                } else {
                    x * y
                };
                let half = if op == AluOp::MadHi { (p >> bits) & full } else { p & full };
                let r = half + z + cin;
                (r, r > full)
            }
            _ => (0, false),
        };
        d[l as usize] = (r & full) as u64;
        flags |= (out as u32) << l;
    }
    wr(w, dst, &d, mask);
    if carry & CARRY_OUT != 0 {
        w.carry = (w.carry & !mask) | (flags & mask);
    }
}

fn int_alu(op: AluOp, ty: Ty, sat: bool, s: [&Lanes; 4]) -> Lanes {
    let bits = ty.bits();
    let signed = ty.is_signed();
    let n = move |x: u64| if signed { sext(x, bits) } else { zext(x, bits) };
    let t = move |x: u64| zext(x, bits);
    let [a, b, c, d] = s;
    let hi = move |x: u64, y: u64| -> u64 {
        if bits == 64 {
            if signed {
                ((x as i64 as i128 * y as i64 as i128) >> 64) as u64
            } else {
                ((x as u128 * y as u128) >> 64) as u64
            }
        } else if signed {
            ((n(x) as i64 * n(y) as i64) >> bits) as u64
        } else {
            (n(x) * n(y)) >> bits
        }
    };
    let wide = move |x: u64, y: u64| -> u64 {
        if signed {
            (n(x) as i64).wrapping_mul(n(y) as i64) as u64
        } else {
            n(x).wrapping_mul(n(y))
        }
    };
    let clamp32 = |v: i64| (v.clamp(i32::MIN as i64, i32::MAX as i64) as i32) as u32 as u64;
    match op {
        AluOp::Add if sat => map2(a, b, |x, y| clamp32(sext(x, 32) as i64 + sext(y, 32) as i64)),
        AluOp::Sub if sat => map2(a, b, |x, y| clamp32(sext(x, 32) as i64 - sext(y, 32) as i64)),
        AluOp::Add => map2(a, b, |x, y| t(x.wrapping_add(y))),
        AluOp::Sub => map2(a, b, |x, y| t(x.wrapping_sub(y))),
        AluOp::Mul => map2(a, b, |x, y| t(x.wrapping_mul(y))),
        AluOp::MulHi => map2(a, b, |x, y| t(hi(x, y))),
        AluOp::MulWide => map2(a, b, |x, y| zext(wide(x, y), 2 * bits)),
        AluOp::Mad => map3(a, b, c, |x, y, z| t(x.wrapping_mul(y).wrapping_add(z))),
        AluOp::MadHi => map3(a, b, c, |x, y, z| t(hi(x, y).wrapping_add(z))),
        AluOp::MadWide => map3(a, b, c, |x, y, z| zext(wide(x, y).wrapping_add(z), 2 * bits)),
        AluOp::Mul24 { hi } | AluOp::Mad24 { hi } => {
            let p24 = move |x: u64, y: u64| -> u64 {
                let (x, y) = if signed { (sext(x, 24), sext(y, 24)) } else { (zext(x, 24), zext(y, 24)) };
                let p = x.wrapping_mul(y);
                t(if hi { p >> 16 } else { p })
            };
            match op {
                AluOp::Mul24 { .. } => map2(a, b, p24),
                _ => map3(a, b, c, |x, y, z| t(p24(x, y).wrapping_add(z))),
            }
        }
        AluOp::Sad => map3(a, b, c, |x, y, z| {
            let d = if signed { (n(x) as i64).abs_diff(n(y) as i64) } else { n(x).abs_diff(n(y)) };
            t(d.wrapping_add(z))
        }),
        AluOp::Div => map2(a, b, |x, y| {
            if signed {
                let (x, y) = (n(x) as i64, n(y) as i64);
                t(if y == 0 { u64::MAX } else { x.wrapping_div(y) as u64 })
            } else {
                let (x, y) = (n(x), n(y));
                t(x.checked_div(y).unwrap_or(u64::MAX))
            }
        }),
        AluOp::Rem => map2(a, b, |x, y| {
            if signed {
                let (x, y) = (n(x) as i64, n(y) as i64);
                t(if y == 0 { x as u64 } else { x.wrapping_rem(y) as u64 })
            } else {
                let (x, y) = (n(x), n(y));
                t(if y == 0 { x } else { x % y })
            }
        }),
        AluOp::Neg => map1(a, |x| t(x.wrapping_neg())),
        AluOp::Abs => map1(a, |x| t((n(x) as i64).wrapping_abs() as u64)),
        AluOp::Min => map2(a, b, |x, y| if signed { t((n(x) as i64).min(n(y) as i64) as u64) } else { n(x).min(n(y)) }),
        AluOp::Max => map2(a, b, |x, y| if signed { t((n(x) as i64).max(n(y) as i64) as u64) } else { n(x).max(n(y)) }),
        AluOp::And => map2(a, b, |x, y| t(x & y)),
        AluOp::Or => map2(a, b, |x, y| t(x | y)),
        AluOp::Xor => map2(a, b, |x, y| t(x ^ y)),
        AluOp::Not => map1(a, |x| t(!x)),
        AluOp::Cnot => map1(a, |x| (t(x) == 0) as u64),
        AluOp::Shl => map2(a, b, |x, y| {
            let y = zext(y, 32);
            if y >= bits as u64 {
                0
            } else {
                t(x << y)
            }
        }),
        AluOp::Shr => map2(a, b, |x, y| {
            let y = zext(y, 32);
            if signed {
                t(((n(x) as i64) >> y.min(bits as u64 - 1)) as u64)
            } else if y >= bits as u64 {
                0
            } else {
                t(x) >> y
            }
        }),
        AluOp::Popc => map1(a, |x| t(x).count_ones() as u64),
        AluOp::Clz => map1(a, |x| (t(x).leading_zeros() - (64 - bits)) as u64),
        AluOp::Brev => map1(a, |x| t(x).reverse_bits() >> (64 - bits)),
        AluOp::Bfe => map3(a, b, c, |x, p, l| {
            let msb = bits - 1;
            let pos = (p & 0xff) as u32;
            let len = (l & 0xff) as u32;
            let x = t(x);
            let sbit = if signed && len != 0 { x >> (pos + len - 1).min(msb) & 1 } else { 0 };
            let mut r = 0u64;
            for i in 0..bits {
                let bit = if i < len && pos + i <= msb { x >> (pos + i) & 1 } else { sbit };
                r |= bit << i;
            }
            r
        }),
        AluOp::Bfi => {
            let mut r = [0u64; WARP_SIZE];
            for l in 0..WARP_SIZE {
                let msb = bits - 1;
                let pos = (c[l] & 0xff) as u32;
                let len = (d[l] & 0xff) as u32;
                let mut f = t(b[l]);
                for i in 0..len {
                    if pos + i > msb {
                        break;
                    }
                    f = (f & !(1 << (pos + i))) | ((a[l] >> i & 1) << (pos + i));
                }
                r[l] = f;
            }
            r
        }
        AluOp::Prmt => map3(a, b, c, |x, y, sel| {
            let tmp = zext(x, 32) | zext(y, 32) << 32;
            let mut r = 0u64;
            for i in 0..4 {
                let s = (sel >> (4 * i)) & 0xf;
                let mut byte = (tmp >> ((s & 7) * 8)) & 0xff;
                if s & 8 != 0 {
                    byte = if byte & 0x80 != 0 { 0xff } else { 0 };
                }
                r |= byte << (8 * i);
            }
            r
        }),
        AluOp::Shf { left, wrap } => map3(a, b, c, |lo, hi, n| {
            let n = zext(n, 32);
            let n = if wrap { n & 31 } else { n.min(32) };
            let v = zext(hi, 32) << 32 | zext(lo, 32);
            if left {
                zext((v << n) >> 32, 32)
            } else {
                zext(v >> n, 32)
            }
        }),
        // Float-only operations never reach here (the parser types them).
        _ => [0; WARP_SIZE],
    }
}

macro_rules! float_alu {
    ($name:ident, $f:ty, $bits:ty, $sign:expr, $from:expr, $directed:path) => {
        /// Floating-point ALU operations (IEEE, round to nearest even or the
        /// directed mode given, exactly; `fma`/`mad` fused; approximate
        /// operations computed exactly).
        fn $name(op: AluOp, fm: FMods, s: [&Lanes; 4]) -> Lanes {
            let [a, b, c, _] = s;
            let ftz = fm.ftz;
            let flush = move |x: $f| if ftz && x.is_subnormal() { <$f>::from_bits(x.to_bits() & $sign) } else { x };
            let f = move |x: u64| flush(<$f>::from_bits(x as $bits));
            let fin = move |r: $f| -> u64 {
                let r = flush(r);
                let r = if fm.sat {
                    if r.is_nan() {
                        0.0
                    } else {
                        r.clamp(0.0, 1.0)
                    }
                } else {
                    r
                };
                r.to_bits() as u64
            };
            if let (Some(r), false) = (fm.rnd, fm.approx) {
                use crate::round::RoundedOp as R;
                let rop = match op {
                    AluOp::Add => Some(R::Add),
                    AluOp::Sub => Some(R::Sub),
                    AluOp::Mul => Some(R::Mul),
                    AluOp::Mad => Some(R::Fma),
                    AluOp::Div => Some(R::Div),
                    AluOp::Rcp => Some(R::Rcp),
                    AluOp::Sqrt => Some(R::Sqrt),
                    _ => None,
                };
                if let Some(rop) = rop {
                    return map3(a, b, c, |x, y, z| fin($directed(rop, r, f(x), f(y), f(z))));
                }
            }
            let min = |x: $f, y: $f| -> $f {
                if x.is_nan() {
                    y
                } else if y.is_nan() {
                    x
                } else if x == y {
                    <$f>::from_bits(x.to_bits() | y.to_bits())
                } else if x < y {
                    x
                } else {
                    y
                }
            };
            let max = |x: $f, y: $f| -> $f {
                if x.is_nan() {
                    y
                } else if y.is_nan() {
                    x
                } else if x == y {
                    <$f>::from_bits(x.to_bits() & y.to_bits())
                } else if x > y {
                    x
                } else {
                    y
                }
            };
            match op {
                AluOp::Add => map2(a, b, |x, y| fin(f(x) + f(y))),
                AluOp::Sub => map2(a, b, |x, y| fin(f(x) - f(y))),
                AluOp::Mul => map2(a, b, |x, y| fin(f(x) * f(y))),
                AluOp::Mad => map3(a, b, c, |x, y, z| fin(f(x).mul_add(f(y), f(z)))),
                AluOp::Div => map2(a, b, |x, y| fin(f(x) / f(y))),
                AluOp::Rcp => map1(a, |x| fin(1.0 / f(x))),
                AluOp::Sqrt => map1(a, |x| fin(f(x).sqrt())),
                AluOp::Rsqrt => map1(a, |x| fin($from(1.0 / (f(x) as f64).sqrt()))),
                AluOp::Ex2 => map1(a, |x| fin(f(x).exp2())),
                AluOp::Lg2 => map1(a, |x| fin(f(x).log2())),
                AluOp::Sin => map1(a, |x| fin(f(x).sin())),
                AluOp::Cos => map1(a, |x| fin(f(x).cos())),
                AluOp::Min => map2(a, b, |x, y| fin(min(f(x), f(y)))),
                AluOp::Max => map2(a, b, |x, y| fin(max(f(x), f(y)))),
                AluOp::Neg => map1(a, |x| (f(x).to_bits() ^ $sign) as u64),
                AluOp::Abs => map1(a, |x| (f(x).to_bits() & !$sign) as u64),
                // copysign d, a, b: b's magnitude with a's sign.
                AluOp::Copysign => map2(a, b, |x, y| ((y as $bits & !$sign) | (x as $bits & $sign)) as u64),
                AluOp::Testp(k) => map1(a, |x| {
                    let v = <$f>::from_bits(x as $bits);
                    (match k {
                        0 => v.is_finite(),
                        1 => v.is_infinite(),
                        2 => !v.is_nan(),
                        3 => v.is_nan(),
                        4 => v.is_normal(),
                        _ => v.is_subnormal(),
                    }) as u64
                }),
                _ => [0; WARP_SIZE],
            }
        }
    };
}

// $sign is the sign-bit mask.
float_alu!(f32_alu, f32, u32, 0x8000_0000u32, |v: f64| v as f32, crate::round::f32_directed);
float_alu!(f64_alu, f64, u64, 0x8000_0000_0000_0000u64, |v: f64| v, crate::round::f64_directed);

/// `setp`/`set`: the comparison combined with the optional predicate
/// (`src[2]`, negated when `src[3]` is 1), as lane masks: (element 0,
/// element 1) for a pair type, (result, its complement) otherwise.
fn compare_combined(w: &WarpState, ctx: &ExecCtx, inst: &Inst, cmp: Cmp, bop: Option<BoolOp>, ty: Ty, ftz: bool) -> (u32, u32) {
    let mut a = rd(w, ctx, inst.src[0]);
    let mut b = rd(w, ctx, inst.src[1]);
    if ftz && ty == Ty::F32 {
        let flush = |x: u64| if f32::from_bits(x as u32).is_subnormal() { x & 0x8000_0000 } else { x };
        a = map1(&a, flush);
        b = map1(&b, flush);
    }
    let (t, t_hi) = if ty.is_half() {
        // Through the exact f64 values (flushed for .ftz).
        let el = |v: &Lanes, k: u32| {
            map1(v, |x| {
                let f = crate::half::element(x, ty, k);
                let min_normal = if matches!(ty, Ty::BF16 | Ty::BF16x2) { 2f64.powi(-126) } else { 2f64.powi(-14) };
                (if ftz && f.abs() < min_normal { 0.0f64.copysign(f) } else { f }).to_bits()
            })
        };
        let lo = compare(cmp, Ty::F64, &el(&a, 0), &el(&b, 0));
        (lo, if ty.is_x2() { compare(cmp, Ty::F64, &el(&a, 1), &el(&b, 1)) } else { !lo })
    } else {
        let t = compare(cmp, ty, &a, &b);
        (t, !t)
    };
    match bop {
        None => (t, t_hi),
        Some(op) => {
            let mut c = pred_bits(w, inst.src[2]);
            if inst.src[3] == Opnd::Imm(1) {
                c = !c;
            }
            let f = |x: u32| match op {
                BoolOp::And => x & c,
                BoolOp::Or => x | c,
                BoolOp::Xor => x ^ c,
            };
            (f(t), f(if ty.is_x2() { t_hi } else { !t }))
        }
    }
}

/// `setp`: the comparison's result as a lane mask (all 32 lanes).
fn compare(cmp: Cmp, ty: Ty, a: &Lanes, b: &Lanes) -> u32 {
    let mut bits = 0u32;
    if ty.is_float() {
        let f = |x: u64| if ty == Ty::F32 { f32::from_bits(x as u32) as f64 } else { f64::from_bits(x) };
        for l in 0..WARP_SIZE {
            let (x, y) = (f(a[l]), f(b[l]));
            let un = x.is_nan() || y.is_nan();
            let r = match cmp {
                Cmp::Eq => x == y,
                Cmp::Ne => !un && x != y,
                Cmp::Lt => x < y,
                Cmp::Le => x <= y,
                Cmp::Gt => x > y,
                Cmp::Ge => x >= y,
                Cmp::Equ => un || x == y,
                Cmp::Neu => un || x != y,
                Cmp::Ltu => un || x < y,
                Cmp::Leu => un || x <= y,
                Cmp::Gtu => un || x > y,
                Cmp::Geu => un || x >= y,
                Cmp::Num => !un,
                Cmp::Nan => un,
                Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
            };
            bits |= (r as u32) << l;
        }
    } else {
        let s = ty.is_signed();
        let w = ty.bits();
        for l in 0..WARP_SIZE {
            let (ux, uy) = (zext(a[l], w), zext(b[l], w));
            let (sx, sy) = (sext(a[l], w) as i64, sext(b[l], w) as i64);
            let r = match cmp {
                Cmp::Eq => ux == uy,
                Cmp::Ne => ux != uy,
                Cmp::Lt if s => sx < sy,
                Cmp::Le if s => sx <= sy,
                Cmp::Gt if s => sx > sy,
                Cmp::Ge if s => sx >= sy,
                Cmp::Lt | Cmp::Lo => ux < uy,
                Cmp::Le | Cmp::Ls => ux <= uy,
                Cmp::Gt | Cmp::Hi => ux > uy,
                Cmp::Ge | Cmp::Hs => ux >= uy,
                _ => false,
            };
            bits |= (r as u32) << l;
        }
    }
    bits
}

/// `cvt` of one value.
fn cvt1(v: u64, dty: Ty, sty: Ty, rnd: Option<Rnd>, ftz: bool, sat: bool) -> u64 {
    let int_out = |x: i128| -> u64 {
        // Narrow destinations are sign- or zero-extended into the register.
        let b = dty.bits();
        if dty.is_signed() {
            sext(x as u64, b)
        } else {
            zext(x as u64, b)
        }
    };
    let flush32 = |x: f32| if ftz && x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x };
    let src_f = || -> f64 {
        match sty {
            Ty::F32 => flush32(f32::from_bits(v as u32)) as f64,
            _ => f64::from_bits(v),
        }
    };
    let round = |x: f64| match rnd {
        Some(Rnd::Rni) => x.round_ties_even(),
        Some(Rnd::Rzi) => x.trunc(),
        Some(Rnd::Rmi) => x.floor(),
        Some(Rnd::Rpi) => x.ceil(),
        _ => x,
    };
    let sat_f = |x: f64| {
        if sat {
            if x.is_nan() {
                0.0
            } else {
                x.clamp(0.0, 1.0)
            }
        } else {
            x
        }
    };
    match (dty.is_float(), sty.is_float()) {
        (false, false) => {
            let x = if sty.is_signed() { sext(v, sty.bits()) as i64 as i128 } else { zext(v, sty.bits()) as i128 };
            let x = if sat {
                let (lo, hi) = dty.int_range();
                x.clamp(lo, hi)
            } else {
                x
            };
            int_out(x)
        }
        (true, false) => {
            let x = if sty.is_signed() { sext(v, sty.bits()) as i64 as i128 } else { zext(v, sty.bits()) as i128 };
            if matches!(rnd, Some(Rnd::Rz | Rnd::Rm | Rnd::Rp)) {
                let r = crate::round::int_to_float(x, dty == Ty::F32, rnd.unwrap_or(Rnd::Rn));
                let r = if dty == Ty::F32 { flush32(f32::from_bits(r as u32)) as f64 } else { f64::from_bits(r) };
                return if dty == Ty::F32 { (sat_f(r) as f32).to_bits() as u64 } else { sat_f(r).to_bits() };
            }
            // Round to nearest even (`.rn`), converting directly from the
            // integer (one rounding).
            if dty == Ty::F32 {
                let r = if sty.is_signed() { x as i64 as f32 } else { x as u64 as f32 };
                let r = if ftz && r.is_subnormal() { 0.0 } else { r };
                (if sat { sat_f(r as f64) as f32 } else { r }).to_bits() as u64
            } else {
                let r = if sty.is_signed() { x as i64 as f64 } else { x as u64 as f64 };
                sat_f(r).to_bits()
            }
        }
        (false, true) => {
            let x = round(src_f());
            if x.is_nan() {
                return 0;
            }
            let (lo, hi) = dty.int_range();
            let i = (x as i128).clamp(lo, hi);
            int_out(i)
        }
        (true, true) => {
            if dty == Ty::F32 {
                // f32 -> f32 rounds to an integral value (exact in f32);
                // f64 -> f32 rounds to nearest even (`.rn`).
                let r = if sty == Ty::F32 { round(src_f()) as f32 } else { crate::round::f64_to_f32(f64::from_bits(v), rnd.unwrap_or(Rnd::Rn)) };
                let r = flush32(r);
                (if sat { sat_f(r as f64) as f32 } else { r }).to_bits() as u64
            } else {
                let r = if sty == Ty::F32 { src_f() } else { round(f64::from_bits(v)) };
                sat_f(r).to_bits()
            }
        }
    }
}

/// Where a lane's access goes.
#[derive(Clone, Copy)]
struct Loc {
    space: Space,
    /// Address in the resolved space (see `MemAccess::addrs`).
    addr: u64,
}

fn resolve(space: Space, a: u64, thread: u32, local_bytes: u32) -> Loc {
    let space = if space == Space::Generic {
        if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&a) {
            return Loc { space: Space::Shared, addr: a - SHARED_WINDOW };
        } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&a) {
            return local_loc(a - LOCAL_WINDOW, thread, local_bytes);
        } else if (CONST_WINDOW..CONST_WINDOW + WINDOW_BYTES).contains(&a) {
            return Loc { space: Space::Const, addr: a - CONST_WINDOW };
        } else {
            Space::Global
        }
    } else {
        space
    };
    if space == Space::Local {
        return local_loc(a, thread, local_bytes);
    }
    Loc { space, addr: a }
}

/// Where [`local_loc`] maps an offset outside the thread's frame.
const LOCAL_OUTSIDE: u64 = u64::MAX / 2;

/// Local offsets become offsets into the CTA's thread-major local memory;
/// an offset outside the thread's frame maps past the end (out of bounds).
fn local_loc(off: u64, thread: u32, local_bytes: u32) -> Loc {
    let addr = if off < local_bytes as u64 { thread as u64 * local_bytes as u64 + off } else { LOCAL_OUTSIDE };
    Loc { space: Space::Local, addr }
}

/// Read `bytes` at `loc`.
#[inline(always)]
fn load(ctx: &ExecCtx, loc: Loc, bytes: u32) -> Option<u64> {
    let slice = |s: &[u8]| -> Option<u64> {
        let a = usize::try_from(loc.addr).ok()?;
        s.get(a..a.checked_add(bytes as usize)?).map(read_le)
    };
    match loc.space {
        Space::Global | Space::Generic => ctx.global.read(loc.addr, bytes),
        Space::Shared => slice(ctx.shared),
        Space::Local => slice(ctx.local),
        Space::Const => slice(&ctx.global.memory().konst),
        Space::Param => slice(ctx.params),
    }
}

#[inline(always)]
fn store(ctx: &mut ExecCtx, loc: Loc, bytes: u32, v: u64) -> Result<(), Fault> {
    let slice = |s: &mut [u8]| -> Option<()> {
        let a = usize::try_from(loc.addr).ok()?;
        write_le(s.get_mut(a..a.checked_add(bytes as usize)?)?, v);
        Some(())
    };
    let ok = match loc.space {
        Space::Global | Space::Generic => ctx.global.write(loc.addr, bytes, v),
        Space::Shared => slice(ctx.shared),
        Space::Local => slice(ctx.local),
        Space::Const | Space::Param => return Err(Fault::ReadOnly { space: loc.space }),
    };
    ok.ok_or(Fault::OutOfBounds { space: loc.space, kind: MemKind::Store, addr: loc.addr, bytes })
}

/// The lanes of a mask, lowest first.
#[inline(always)]
fn lanes(mut m: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros();
            m &= m - 1;
            l
        })
    })
}

/// A fault in a lane (`None`: not lane-specific).
type LaneFault = (Option<u32>, Fault);

pub(crate) fn atom1(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let bits = ty.bits();
    let t = |x: u64| zext(x, bits);
    match op {
        AtomOp::Add => match ty {
            Ty::F32 => {
                // atom.add.f32 flushes subnormal inputs and results (PTX ISA).
                let fl = |x: f32| if x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x };
                fl(fl(f32::from_bits(old as u32)) + fl(f32::from_bits(b as u32))).to_bits() as u64
            }
            Ty::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            _ => t(old.wrapping_add(b)),
        },
        AtomOp::Min | AtomOp::Max => {
            let less = if ty.is_signed() { (sext(b, bits) as i64) < (sext(old, bits) as i64) } else { t(b) < t(old) };
            if (op == AtomOp::Min) == less {
                t(b)
            } else {
                t(old)
            }
        }
        AtomOp::Inc => {
            if t(old) >= t(b) {
                0
            } else {
                t(old + 1)
            }
        }
        AtomOp::Dec => {
            if t(old) == 0 || t(old) > t(b) {
                t(b)
            } else {
                t(old - 1)
            }
        }
        AtomOp::Exch => t(b),
        AtomOp::Cas => {
            if t(old) == t(b) {
                t(c)
            } else {
                t(old)
            }
        }
        AtomOp::And => t(old & b),
        AtomOp::Or => t(old | b),
        AtomOp::Xor => t(old ^ b),
    }
}

/// A staged atomic's lane given another old value when its GPU cycle was
/// committed (`memory::Stage::commit`): that value into the destination.
pub fn write_atomic_result(k: &Kernel, w: &mut WarpState, inst: usize, lane: u32, value: u64) {
    let Some(i) = k.insts.get(inst) else { return };
    wr(w, i.dst[0], &[value; WARP_SIZE], 1 << lane);
}

/// Execute a memory instruction for the lanes in `mask`.
/// A completed `bar.red`'s result into its destination (instruction
/// `inst`), for the lanes that executed it (`mask`).
pub fn write_barrier_result(k: &Kernel, w: &mut WarpState, inst: usize, mask: u32, value: u32) {
    let Some(i) = k.insts.get(inst) else { return };
    match i.dst[0] {
        Opnd::P(_) => wr_pred(w, i.dst[0], if value != 0 { u32::MAX } else { 0 }, mask),
        d => wr(w, d, &[value as u64; WARP_SIZE], mask),
    }
}

/// `tex`: each lane's fetch; the access reported is a 4-byte global load
/// of the first texel read (what the timing model's load path sees).
/// (The destination type is the texture's: float textures give `.f32`
/// bits, integer ones their elements.)
fn texture(inst: &Inst, w: &mut WarpState, ctx: &mut ExecCtx, mask: u32, dims: u8, cty: Ty, ex: &mut Executed) -> Result<(), LaneFault> {
    let handle = rd(w, ctx, inst.src[0]);
    let mut coords = [[0u64; WARP_SIZE]; 3];
    for (d, c) in coords.iter_mut().enumerate().take(dims as usize) {
        *c = rd(w, ctx, inst.src[1 + d]);
    }
    let mut acc = MemAccess { space: Space::Global, kind: MemKind::Load, bytes: 4, addrs: [0; WARP_SIZE], shared_lanes: 0 };
    let mut out = [[0u64; WARP_SIZE]; 4];
    let global = &ctx.global;
    let read = |a: u64, b: u32| global.read(a, b).unwrap_or(0);
    for l in lanes(mask) {
        let l = l as usize;
        let Some(t) = ctx.textures.get(handle[l]) else {
            return Err((Some(l as u32), Fault::NoTexture { handle: handle[l] }));
        };
        let (texel, first) = if cty == Ty::F32 {
            let mut c = [0f32; 3];
            for d in 0..dims as usize {
                c[d] = f32::from_bits(coords[d][l] as u32);
            }
            t.fetch_float(&read, c, dims as usize)
        } else {
            let mut c = [0i64; 3];
            for d in 0..dims as usize {
                c[d] = coords[d][l] as u32 as i32 as i64;
            }
            t.fetch_int(&read, c, dims as usize)
        };
        acc.addrs[l] = first.unwrap_or(t.base) & !3;
        for k in 0..4 {
            out[k][l] = texel[k] as u64;
        }
    }
    for (d, v) in inst.dst.iter().zip(&out) {
        wr(w, *d, v, mask);
    }
    ex.mem = Some(acc);
    Ok(())
}

fn memory(k: &Kernel, inst: &Inst, w: &mut WarpState, ctx: &mut ExecCtx, mask: u32, ex: &mut Executed) -> Result<(), LaneFault> {
    let Some(addr) = inst.addr else { return Ok(()) };
    let Some(mi) = inst.mem else { return Ok(()) };
    let base = match addr.base {
        Opnd::None => [0u64; WARP_SIZE],
        Opnd::Deq => w.deq(inst.deq_queue().unwrap_or(DacQueue::Addr), mask, ctx).map_err(|f| (None, f))?.vals,
        o => rd(w, ctx, o),
    };
    let off = addr.off as u64;
    let esize = mi.elem_bytes as u32;
    let total = esize * mi.vec as u32;
    let mut acc = MemAccess { space: mi.space, kind: mi.kind, bytes: total, addrs: [0; WARP_SIZE], shared_lanes: 0 };
    // The resolved space per lane (differs only for generic accesses).
    let mut spaces = [mi.space; WARP_SIZE];
    let mut first_space = None;
    // A 32-bit address register (shared and local addresses, `.address_size
    // 32` code) forms a 32-bit address: base plus offset wraps at 2^32, as
    // on the hardware (nvcc computes `[%r - 256 + 260]` this way).
    let wrap32 = matches!(addr.base, Opnd::R(_));
    for l in lanes(mask) {
        let a = base[l as usize].wrapping_add(off);
        let a = if wrap32 { a & 0xffff_ffff } else { a };
        let a = if mi.space == Space::Local { w.in_frame(l as usize, a) } else { a };
        let thread = w.warp_id.wrapping_mul(WARP_SIZE as u32).wrapping_add(l);
        let loc = resolve(mi.space, a, thread, k.local_bytes);
        if loc.space == Space::Local && loc.addr == LOCAL_OUTSIDE {
            // Report the offset the thread used, not where it was mapped.
            let off = if mi.space == Space::Local { a } else { a.wrapping_sub(LOCAL_WINDOW) };
            return Err((Some(l), Fault::OutOfBounds { space: Space::Local, kind: mi.kind, addr: off, bytes: total }));
        }
        if !loc.addr.is_multiple_of(total as u64) {
            return Err((Some(l), Fault::Misaligned { space: loc.space, kind: mi.kind, addr: loc.addr, bytes: total }));
        }
        spaces[l as usize] = loc.space;
        acc.addrs[l as usize] = loc.addr;
        if loc.space == Space::Shared {
            acc.shared_lanes |= 1 << l;
        }
        match first_space {
            None => first_space = Some(loc.space),
            Some(s) if s != loc.space => first_space = Some(Space::Generic),
            _ => {}
        }
    }
    acc.space = first_space.unwrap_or(if mi.space == Space::Generic { Space::Global } else { mi.space });
    let loc = |l: u32, e: u32| Loc { space: spaces[l as usize], addr: acc.addrs[l as usize] + (e * esize) as u64 };
    match inst.op {
        Op::Ld { ty, vec, .. } => {
            // Element by element; every address is already computed, so a
            // destination that is also the address register is harmless.
            for e in 0..vec as u32 {
                let mut v = [0u64; WARP_SIZE];
                for l in lanes(mask) {
                    let le = loc(l, e);
                    let x = match load(ctx, le, esize) {
                        Some(x) => x,
                        None if ctx.unmapped_reads_zero && le.space == Space::Global => {
                            ex.unmapped_lanes += 1;
                            0
                        }
                        None => return Err((Some(l), Fault::OutOfBounds { space: le.space, kind: MemKind::Load, addr: le.addr, bytes: esize })),
                    };
                    v[l as usize] = norm(x, ty);
                }
                wr(w, inst.dst[e as usize], &v, mask);
            }
        }
        Op::St { vec, .. } => {
            if matches!(mi.space, Space::Param | Space::Const) {
                return Err((None, Fault::ReadOnly { space: mi.space }));
            }
            for e in 0..vec as u32 {
                let v = rd(w, ctx, inst.src[e as usize]);
                for l in lanes(mask) {
                    let le = loc(l, e);
                    if ctx.side_effects {
                        store(ctx, le, esize, v[l as usize]).map_err(|f| (Some(l), f))?;
                    } else if load(ctx, le, esize).is_none() {
                        return Err((Some(l), Fault::OutOfBounds { space: le.space, kind: MemKind::Store, addr: le.addr, bytes: esize }));
                    }
                }
            }
            ex.suppressed = !ctx.side_effects;
            ex.wrote |= ctx.side_effects;
        }
        Op::Atom { op, ty, .. } => {
            let b = rd(w, ctx, inst.src[0]);
            let c = rd(w, ctx, inst.src[1]);
            let mut old = [0u64; WARP_SIZE];
            for l in lanes(mask) {
                let loc = loc(l, 0);
                let oob = (Some(l), Fault::OutOfBounds { space: loc.space, kind: MemKind::Atomic, addr: loc.addr, bytes: esize });
                let o = load(ctx, loc, esize).ok_or(oob)?;
                if ctx.side_effects {
                    let n = atom1(op, ty, o, b[l as usize], c[l as usize]);
                    store(ctx, loc, esize, n).map_err(|f| (Some(l), f))?;
                    ex.wrote |= zext(n, esize * 8) != o;
                    if matches!(loc.space, Space::Global | Space::Generic) {
                        let a = StagedAtomic { op, ty, b: b[l as usize], c: c[l as usize], old: o, lane: l as u8, inst: ex.inst, warp: 0 };
                        ctx.global.mark_atomic(a);
                    }
                }
                old[l as usize] = o;
            }
            if ctx.side_effects {
                wr(w, inst.dst[0], &old, mask);
            } else {
                ex.suppressed = true;
            }
        }
        _ => {}
    }
    ex.mem = Some(acc);
    Ok(())
}

/// Execute a data (non-control, non-memory) instruction.
fn data(inst: &Inst, w: &mut WarpState, ctx: &ExecCtx, mask: u32) {
    match inst.op {
        Op::Mov(ty) => {
            let v = rd(w, ctx, inst.src[0]);
            if ty == Ty::Pred {
                let b = pred_bits(w, inst.src[0]);
                wr_pred(w, inst.dst[0], b, mask);
            } else {
                wr(w, inst.dst[0], &map1(&v, |x| zext(x, ty.bits())), mask);
            }
        }
        Op::Pack(ty) => {
            let n = inst.src.iter().filter(|o| **o != Opnd::None).count().max(1) as u32;
            let eb = ty.bits() / n;
            let mut r = [0u64; WARP_SIZE];
            for k in 0..n as usize {
                let v = rd(w, ctx, inst.src[k]);
                for l in 0..WARP_SIZE {
                    r[l] |= zext(v[l], eb) << (eb * k as u32);
                }
            }
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Unpack(ty) => {
            let n = inst.dst.iter().filter(|o| **o != Opnd::None).count().max(1) as u32;
            let eb = ty.bits() / n;
            let v = rd(w, ctx, inst.src[0]);
            for k in 0..n as usize {
                let part = map1(&v, |x| zext(x >> (eb * k as u32), eb));
                wr(w, inst.dst[k], &part, mask);
            }
        }
        Op::Cvta { space, to, ty } => {
            let win = match space {
                Space::Shared => SHARED_WINDOW,
                Space::Local => LOCAL_WINDOW,
                Space::Const => CONST_WINDOW,
                _ => 0,
            };
            let v = rd(w, ctx, inst.src[0]);
            let mut r = [0u64; WARP_SIZE];
            for (l, x) in r.iter_mut().enumerate() {
                // A generic local address is the thread's local offset:
                // the frame's start is added (and taken off again).
                *x = zext(
                    match (to, space) {
                        (false, Space::Local) => w.in_frame(l, v[l]).wrapping_add(win),
                        (true, Space::Local) => v[l].wrapping_sub(win).wrapping_sub(w.frame[l] as u64),
                        (false, _) => v[l].wrapping_add(win),
                        (true, _) => v[l].wrapping_sub(win),
                    },
                    ty.bits(),
                );
            }
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Alu { op, ty, f } => {
            let a = rd(w, ctx, inst.src[0]);
            let b = rd(w, ctx, inst.src[1]);
            let c = rd(w, ctx, inst.src[2]);
            let d = rd(w, ctx, inst.src[3]);
            let s = [&a, &b, &c, &d];
            let r = match ty {
                _ if ty.is_half() => map3(&a, &b, &c, |x, y, z| crate::half::alu(op, ty, f, x, y, z)),
                Ty::F32 => f32_alu(op, f, s),
                Ty::F64 => f64_alu(op, f, s),
                Ty::Pred => {
                    let (pa, pb) = (pred_bits(w, inst.src[0]), pred_bits(w, inst.src[1]));
                    let bits = match op {
                        AluOp::And => pa & pb,
                        AluOp::Or => pa | pb,
                        AluOp::Xor => pa ^ pb,
                        _ => !pa,
                    };
                    wr_pred(w, inst.dst[0], bits, mask);
                    return;
                }
                _ if f.carry != 0 => {
                    carry_alu(w, inst.dst[0], op, ty, f.carry, s, mask);
                    return;
                }
                _ => int_alu(op, ty, f.sat, s),
            };
            if let AluOp::Testp(_) = op {
                let mut bits = 0;
                for (l, x) in r.iter().enumerate() {
                    bits |= ((x & 1) as u32) << l;
                }
                wr_pred(w, inst.dst[0], bits, mask);
            } else {
                wr(w, inst.dst[0], &r, mask);
            }
        }
        Op::Setp { cmp, bop, ty, ftz } => {
            let (p, q) = compare_combined(w, ctx, inst, cmp, bop, ty, ftz);
            wr_pred(w, inst.dst[0], p, mask);
            wr_pred(w, inst.dst[1], q, mask);
        }
        Op::Set { cmp, bop, dty, sty, ftz } => {
            let (lo, hi) = compare_combined(w, ctx, inst, cmp, bop, sty, ftz);
            let one: u64 = match dty {
                Ty::F32 => 0x3f80_0000,
                Ty::F16 | Ty::F16x2 => 0x3c00,
                Ty::BF16 | Ty::BF16x2 => 0x3f80,
                _ if sty.is_x2() => 0xffff,
                _ => 0xffff_ffff,
            };
            let mut r = [0u64; WARP_SIZE];
            for (l, x) in r.iter_mut().enumerate() {
                *x = if lo >> l & 1 != 0 { one } else { 0 } | if sty.is_x2() && hi >> l & 1 != 0 { one << 16 } else { 0 };
            }
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Shfl(mode) => {
            // The PTX ISA's rule, lane by lane: `c` packs the clamp value
            // (bits 4:0) and the segment mask (bits 12:8). A lane outside
            // the range reads its own `a`; reading a lane that does not
            // execute is undefined in PTX and gives that lane's register.
            let (a, b, c) = (rd(w, ctx, inst.src[0]), rd(w, ctx, inst.src[1]), rd(w, ctx, inst.src[2]));
            let mut d = [0u64; WARP_SIZE];
            let mut in_range = 0u32;
            for lane in lanes(mask) {
                let l = lane as i64;
                let (bval, cval, seg) = ((b[lane as usize] & 31) as i64, (c[lane as usize] & 31) as i64, ((c[lane as usize] >> 8) & 31) as i64);
                let max_lane = (l & seg) | (cval & !seg);
                let min_lane = l & seg;
                let (j, ok) = match mode {
                    ShflMode::Up => (l - bval, l - bval >= max_lane),
                    ShflMode::Down => (l + bval, l + bval <= max_lane),
                    ShflMode::Bfly => (l ^ bval, (l ^ bval) <= max_lane),
                    ShflMode::Idx => (min_lane | (bval & !seg), (min_lane | (bval & !seg)) <= max_lane),
                };
                let j = if ok { j } else { l };
                d[lane as usize] = zext(a[j as usize], 32);
                in_range |= (ok as u32) << lane;
            }
            wr(w, inst.dst[0], &d, mask);
            if matches!(inst.dst[1], Opnd::P(_)) {
                wr_pred(w, inst.dst[1], in_range, mask);
            }
        }
        Op::Vote { mode, neg } => {
            let p = pred_bits(w, inst.src[0]) ^ if neg { u32::MAX } else { 0 };
            let members = mask & rd(w, ctx, inst.src[1])[mask.trailing_zeros().min(31) as usize] as u32;
            let yes = p & members;
            match mode {
                VoteMode::Ballot => wr(w, inst.dst[0], &[yes as u64; WARP_SIZE], mask),
                _ => {
                    let r = match mode {
                        VoteMode::All => yes == members,
                        VoteMode::Any => yes != 0,
                        _ => yes == members || yes == 0,
                    };
                    wr_pred(w, inst.dst[0], if r { u32::MAX } else { 0 }, mask);
                }
            }
        }
        Op::Activemask => wr(w, inst.dst[0], &[mask as u64; WARP_SIZE], mask),
        Op::Selp(ty) => {
            let a = rd(w, ctx, inst.src[0]);
            let b = rd(w, ctx, inst.src[1]);
            let c = pred_bits(w, inst.src[2]);
            let mut r = [0u64; WARP_SIZE];
            for l in 0..WARP_SIZE {
                r[l] = zext(if c >> l & 1 != 0 { a[l] } else { b[l] }, ty.bits());
            }
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Slct { ty, cty, ftz } => {
            let a = rd(w, ctx, inst.src[0]);
            let b = rd(w, ctx, inst.src[1]);
            let c = rd(w, ctx, inst.src[2]);
            let mut r = [0u64; WARP_SIZE];
            for l in 0..WARP_SIZE {
                let ge = if cty == Ty::F32 {
                    let x = f32::from_bits(c[l] as u32);
                    // A flushed subnormal is a signed zero, which is >= 0.
                    x >= 0.0 || ftz && x.is_subnormal()
                } else {
                    c[l] as u32 as i32 >= 0
                };
                r[l] = zext(if ge { a[l] } else { b[l] }, ty.bits());
            }
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Cvt { dty, sty, rnd, ftz, sat } => {
            let a = rd(w, ctx, inst.src[0]);
            let r = if dty.is_x2() {
                // `cvt.rn.f16x2.f32 d, a, b`: a to the high half, b to the low.
                let b = rd(w, ctx, inst.src[1]);
                let el = if dty == Ty::F16x2 { Ty::F16 } else { Ty::BF16 };
                map2(&a, &b, |x, y| crate::half::cvt(x, el, sty, rnd, ftz, sat) << 16 | crate::half::cvt(y, el, sty, rnd, ftz, sat))
            } else if dty.is_half() || sty.is_half() {
                map1(&a, |x| crate::half::cvt(x, dty, sty, rnd, ftz, sat))
            } else {
                map1(&a, |x| cvt1(x, dty, sty, rnd, ftz, sat))
            };
            wr(w, inst.dst[0], &r, mask);
        }
        Op::Membar | Op::Bar { .. } | Op::Exit | Op::Bra { .. } | Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Tex { .. } | Op::Call { .. } | Op::Ret | Op::Enq(_) | Op::Deq(_) => {}
    }
}

fn fault(k: &Kernel, w: &WarpState, ctx: &ExecCtx, pc: u32, lane: Option<u32>, f: Fault) -> ExecError {
    let line = k.line_at(pc);
    ExecError {
        kernel: k.base_name.clone(),
        pc,
        line,
        cta: ctx.ctaid,
        warp: w.warp_id,
        thread: lane.map(|l| [w.tid[0][l as usize], w.tid[1][l as usize], w.tid[2][l as usize]]),
        fault: f,
    }
}

/// Execute the warp's next instruction (see the module docs).
pub fn exec(k: &Kernel, w: &mut WarpState, ctx: &mut ExecCtx) -> Result<Executed, ExecError> {
    let Some(top) = w.stack.last().copied().filter(|_| !w.done) else {
        return Err(fault(k, w, ctx, 0, None, Fault::WarpDone));
    };
    let pc = top.pc;
    let idx = (pc / INST_BYTES) as usize;
    let inst = match k.insts.get(idx) {
        Some(i) if pc % INST_BYTES == 0 => i,
        _ => return Err(fault(k, w, ctx, pc, None, Fault::BadPc)),
    };
    let active = top.mask;
    let reads_clock = inst.src.iter().any(|o| matches!(o, Opnd::Sreg(s) if s.is_clock()));
    let exec_mask = match inst.guard {
        None => active,
        Some(g) => {
            let p = w.preds[g.pred as usize];
            active & if g.neg { !p } else { p }
        }
    };
    let mut ex = Executed {
        inst: idx as u32,
        pc,
        active,
        exec_mask,
        mem: None,
        branch: None,
        barrier: None,
        exited: 0,
        warp_done: false,
        suppressed: false,
        wrote: false,
        partial_barrier: false,
        unmapped_lanes: 0,
    };
    ex.wrote = reads_clock;
    match inst.op {
        Op::Bra { target, reconv, .. } => {
            let target_pc = target * INST_BYTES;
            let (diverged, pushed) = w.branch(exec_mask, target_pc, reconv);
            w.max_depth = w.max_depth.max(w.stack.len() as u32);
            ex.branch =
                Some(BranchOutcome { target_pc, reconv_pc: reconv, taken: exec_mask, not_taken: active & !exec_mask, diverged, pushed });
        }
        Op::Call { target } => {
            if exec_mask != 0 {
                let s = k.frame_bytes;
                // The callee's frame, and one above it for its own calls' arguments.
                if let Some(l) = lanes(exec_mask).find(|&l| w.frame[l as usize] as u64 + 3 * s as u64 > k.local_bytes as u64) {
                    return Err(fault(k, w, ctx, pc, Some(l), Fault::CallStackOverflow { depth: w.frame[l as usize] / s.max(1), frame: s }));
                }
                for l in lanes(exec_mask) {
                    w.frame[l as usize] += s;
                }
                // The caller's entry waits after the call; the body runs
                // until `ret` (its entries reconverge by `ret`, not by PC:
                // a recursive body passes its own return address).
                let top = w.stack.len() - 1;
                w.stack[top].pc = pc + INST_BYTES;
                w.stack.push(StackEntry { pc: target * INST_BYTES, rpc: RPC_NONE, mask: exec_mask });
                w.calls.push(top + 1);
                w.max_depth = w.max_depth.max(w.stack.len() as u32);
            } else {
                w.advance();
            }
        }
        Op::Ret => {
            let Some(&c) = w.calls.last() else {
                return Err(fault(k, w, ctx, pc, None, Fault::BadPc));
            };
            // The returning lanes leave every entry of the call; they wait
            // after the call until the other lanes of the call return too.
            for e in &mut w.stack[c..] {
                e.mask &= !exec_mask;
            }
            for l in lanes(exec_mask) {
                w.frame[l as usize] -= k.frame_bytes;
            }
            w.advance();
            if w.stack.len() <= c {
                w.calls.pop();
                while let Some(top) = w.stack.last() {
                    if top.pc == top.rpc && w.stack.len() > 1 {
                        w.stack.pop();
                    } else {
                        break;
                    }
                }
            }
        }
        Op::Exit => {
            ex.exited = exec_mask;
            w.exited |= exec_mask;
            for e in &mut w.stack {
                e.mask &= !exec_mask;
            }
            w.advance();
        }
        Op::Bar { wait, red } => {
            if exec_mask != 0 {
                // The barrier and the count are warp-uniform: the first executing lane's.
                let lane = exec_mask.trailing_zeros() as usize;
                let id = rd(w, ctx, inst.src[0])[lane];
                let threads = (inst.src[1] != Opnd::None).then(|| rd(w, ctx, inst.src[1])[lane]);
                if id >= crate::barrier::NAMED_BARRIERS as u64 || threads.is_some_and(|t| t == 0 || t % WARP_SIZE as u64 != 0 || t > u32::MAX as u64) {
                    return Err(fault(k, w, ctx, pc, Some(lane as u32), Fault::BadBarrier { id, threads }));
                }
                // bar.red: this warp's part of the reduction (the result is
                // written by `write_barrier_result` when the barrier completes).
                let red = red.map(|op| {
                    let p = pred_bits(w, inst.src[2]) ^ if inst.src[3] == Opnd::Imm(1) { u32::MAX } else { 0 };
                    (op, (p & exec_mask).count_ones(), exec_mask.count_ones())
                });
                ex.barrier = Some(crate::barrier::Arrival { id: id as u8, threads: threads.map(|t| t as u32), wait, red });
                ex.partial_barrier = exec_mask != w.lanes & !w.exited;
            }
            w.advance();
        }
        Op::Tex { dims, cty, .. } => {
            if exec_mask != 0 {
                if let Err((lane, f)) = texture(inst, w, ctx, exec_mask, dims, cty, &mut ex) {
                    return Err(fault(k, w, ctx, pc, lane, f));
                }
            }
            w.advance();
        }
        Op::Enq(queue) => {
            if exec_mask != 0 {
                let vals = match inst.addr {
                    Some(a) => {
                        let base = rd(w, ctx, a.base);
                        let wrap32 = matches!(a.base, Opnd::R(_));
                        base.map(|b| {
                            let x = b.wrapping_add(a.off as u64);
                            if wrap32 {
                                x & 0xffff_ffff
                            } else {
                                x
                            }
                        })
                    }
                    None => rd(w, ctx, inst.src[0]),
                };
                let bytes = inst.mem.map_or(0, |m| m.elem_bytes as u32 * m.vec as u32);
                let r = DacRecord { queue, mask: exec_mask, bytes, vals };
                if queue == DacQueue::Pred {
                    w.pwpq.push_back(r);
                } else {
                    w.pwaq.push_back(r);
                }
            }
            w.advance();
        }
        Op::Deq(queue) => {
            if exec_mask != 0 {
                match w.deq(queue, exec_mask, ctx) {
                    Ok(r) => wr(w, inst.dst[0], &r.vals, exec_mask),
                    Err(f) => return Err(fault(k, w, ctx, pc, None, f)),
                }
            }
            w.advance();
        }
        Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } => {
            if exec_mask != 0 {
                if let Err((lane, f)) = memory(k, inst, w, ctx, exec_mask, &mut ex) {
                    return Err(fault(k, w, ctx, pc, lane, f));
                }
            }
            w.advance();
        }
        _ => {
            if exec_mask != 0 {
                data(inst, w, ctx, exec_mask);
            }
            w.advance();
        }
    }
    // Calls whose every lane exited are over.
    while w.calls.last().is_some_and(|&c| c >= w.stack.len()) {
        w.calls.pop();
    }
    ex.warp_done = w.done;
    Ok(ex)
}

/// Move past the warp's next instruction without executing it (the PC
/// moves to the fall-through; a reconvergence point pops). Branches and
/// exits cannot be skipped. Returns the skipped instruction's index.
pub fn skip(k: &Kernel, w: &mut WarpState) -> Result<usize, ExecError> {
    let no_ctx = |f: Fault, pc: u32| ExecError {
        kernel: k.base_name.clone(),
        pc,
        line: k.line_at(pc),
        cta: [0; 3],
        warp: w.warp_id,
        thread: None,
        fault: f,
    };
    let Some(pc) = w.pc() else {
        return Err(no_ctx(Fault::WarpDone, 0));
    };
    let Some((i, inst)) = w.next_inst(k) else {
        return Err(no_ctx(Fault::BadPc, pc));
    };
    if inst.is_branch() || inst.is_exit() {
        return Err(no_ctx(Fault::SkipControl, pc));
    }
    w.advance();
    Ok(i)
}
