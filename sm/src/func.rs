//! The bridge between the timing SM and the functional model (the `kernel`
//! crate): warp states by warp slot, CTA memories by CTA slot, one
//! `kernel::exec` per issued warp instruction, and the static decode the
//! pipeline needs (unit, latency class, scoreboard register ids).
//!
//! The functional model decides what every instruction does; the SM only
//! asks it, in issue order, to execute a warp's next instruction. Every
//! configuration therefore leaves the same final memory for race-free
//! kernels (integer atomics included: they commute).

use crate::config::Config;
use crate::core::op::{timing, Access, Control, LatClass, LatType, Op, Space, Unit, MAX_READS, MAX_WRITES, SB_PRED_BASE};
use kernel::exec::{ExecCtx, WarpState};
use kernel::progress::SpinDetector;
use kernel::inst::{AluOp, Ty};
use kernel::{ArchReg, Inst, Kernel, Launch, Memory, MemKind};
use kernel::memory::{Global, Stage};
use kernel::dac::warp::AffineWarp;
use kernel::exec::DacRecord;
use kernel::inst::DacQueue;
use std::sync::{Arc, RwLock};

/// Where the local memory of CTA slot `s` appears to the memory system:
/// `LOCAL_TIMING_BASE + s * LOCAL_TIMING_STRIDE`, word-interleaved across the
/// CTA's threads as hardware lays local memory out (word `i` of thread `t` at
/// `(i * threads + t) * 4`; an 8- or 16-byte access by its element), so that
/// a warp's accesses to the same local variable coalesce. Only the timing
/// sees these addresses.
const LOCAL_TIMING_BASE: u64 = 0xc000_0000;
const LOCAL_TIMING_STRIDE: u64 = 0x0100_0000;
/// Where the parameter buffer appears to the constant cache (the constant
/// bank is at 0).
const PARAM_TIMING_BASE: u64 = 0x1_0000_0000;

/// What the pipeline needs to know of one executed warp instruction.
#[derive(Clone, Copy, Debug)]
pub struct ExecOut {
    /// Index of the instruction executed (its PC / 8).
    pub op: u32,
    /// Active lanes (the SIMT stack's mask, before the guard): thread
    /// instructions count these, as the functional runner does.
    pub active: u32,
    /// Lanes that executed (guard applied): the memory access's lanes.
    pub lanes: u32,
    /// The memory space after generic-address resolution.
    pub space: Option<Space>,
    /// Bytes per lane of a memory access.
    pub bytes: u32,
    pub barrier: Option<kernel::barrier::Arrival>,
}

struct CtaMem {
    index: u32,
    ctaid: [u32; 3],
    shared: Vec<u8>,
    local: Vec<u8>,
}

/// Global memory: this SM's own (a single SM), or the GPU's, shared by
/// every SM, with this SM's writes of the current cycle staged until the GPU
/// commits them (`kernel::memory::Global`).
enum GlobalMem {
    Own(Memory),
    Shared { memory: Arc<RwLock<Memory>>, stage: Stage },
}

/// One instruction of a CTA's affine warp (`Functional::affine_step`).
pub struct AffineStep {
    /// An `enq`'s records, by warp slot.
    pub records: Vec<(u16, DacRecord)>,
    /// The result in the first thread that executed it.
    pub value: Option<u64>,
    /// Per warp of the CTA (in its order), the threads on its path, and
    /// the warp's slot.
    pub masks: Vec<u32>,
    pub slots: Vec<u16>,
}

pub struct Functional {
    kernel: Arc<Kernel>,
    launch: Arc<Launch>,
    memory: GlobalMem,
    warps: Vec<Option<WarpState>>,
    /// P-mode copies of the warps that are pre-executing.
    pwarps: Vec<Option<WarpState>>,
    warp_cta: Vec<u16>,
    ctas: Vec<Option<CtaMem>>,
    /// Fresh warp states of one CTA (cloned at each CTA start).
    fresh: Vec<WarpState>,
    threads: u32,
    shared_bytes: usize,
    /// Instructions so far that changed memory, and per warp slot the
    /// no-progress detector (`kernel::progress`).
    generation: u64,
    spin: Vec<SpinDetector>,
    /// `bar.sync`s reached by part of a warp's live threads.
    pub partial_barriers: u64,
    /// Unmapped global reads read zero, and how many lane-elements did.
    unmapped_reads_zero: bool,
    pub unmapped_reads: u64,
    /// The SM's cycle (`%clock`) and clock frequency (`%globaltimer`).
    pub clock: u64,
    clock_hz: u64,
    /// DAC: each CTA slot's affine warp and the warp slots of its CTA.
    affine: Vec<Option<(AffineWarp, Vec<u16>)>>,
}

impl Functional {
    /// `warp_slots` / `cta_slots`: the SM's limits.
    pub fn new(kernel: Arc<Kernel>, launch: Arc<Launch>, warp_slots: u32, cta_slots: u32) -> Result<Functional, String> {
        let threads = launch.threads_per_cta();
        let nwarps = threads.div_ceil(32);
        if launch.params.len() != kernel.param_bytes as usize {
            return Err(format!(
                "kernel `{}`: the launch's parameter buffer has {} bytes, the kernel takes {}",
                kernel.base_name,
                launch.params.len(),
                kernel.param_bytes
            ));
        }
        if launch.ctas() > u32::MAX as u64 {
            return Err(format!("kernel `{}`: {} CTAs is more than the SM runs", kernel.base_name, launch.ctas()));
        }
        let local = threads as u64 * kernel.local_bytes as u64;
        if local > LOCAL_TIMING_STRIDE {
            return Err(format!("kernel `{}`: {local} bytes of local memory per CTA; the SM maps at most 16 MiB", kernel.base_name));
        }
        // A decoupled kernel's warps take their records from the CTA's
        // affine warp, not from lanes of their own.
        let fresh = (0..nwarps)
            .map(|w| {
                let mut ws = WarpState::new(&kernel, w, launch.block);
                ws.affine = None;
                ws
            })
            .collect();
        Ok(Functional {
            memory: GlobalMem::Own(launch.memory.clone()),
            warps: vec![None; warp_slots as usize],
            pwarps: vec![None; warp_slots as usize],
            warp_cta: vec![0; warp_slots as usize],
            ctas: (0..cta_slots).map(|_| None).collect(),
            fresh,
            threads,
            shared_bytes: kernel.dynamic_shared_base() as usize + launch.dynamic_shared as usize,
            generation: 0,
            spin: vec![SpinDetector::default(); warp_slots as usize],
            partial_barriers: 0,
            unmapped_reads_zero: false,
            unmapped_reads: 0,
            clock: 0,
            clock_hz: 700_000_000,
            affine: (0..cta_slots).map(|_| None).collect(),
            kernel,
            launch,
        })
    }

    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    pub fn kernel_arc(&self) -> Arc<Kernel> {
        Arc::clone(&self.kernel)
    }

    /// The launch's block dimensions.
    pub fn block_dim(&self) -> [u32; 3] {
        self.launch.block
    }

    pub fn kernel_name(&self) -> &str {
        &self.kernel.base_name
    }

    /// This SM's global memory after a run (`None`: it shares the GPU's).
    pub fn into_memory(self) -> Option<Memory> {
        match self.memory {
            GlobalMem::Own(m) => Some(m),
            GlobalMem::Shared { .. } => None,
        }
    }

    /// Use the GPU's global memory instead of an own copy.
    pub fn share_memory(&mut self, memory: Arc<RwLock<Memory>>) {
        self.memory = GlobalMem::Shared { memory, stage: Stage::default() };
    }

    /// Perform this cycle's staged writes on the GPU's memory (`mem`, the
    /// shared memory's write guard); atomics that found another value
    /// than their lane was given put that value in the lane's register.
    pub fn commit(&mut self, mem: &mut Memory) {
        let GlobalMem::Shared { stage, .. } = &mut self.memory else { return };
        let (kernel, warps) = (&self.kernel, &mut self.warps);
        stage.commit(mem, |a, old| {
            if let Some(ws) = warps[a.warp as usize].as_mut() {
                kernel::exec::write_atomic_result(kernel, ws, a.inst as usize, a.lane as u32, old);
            }
        });
    }

    pub fn num_ctas(&self) -> u32 {
        self.launch.ctas() as u32
    }

    /// (threads, warps, registers, shared bytes) one CTA occupies.
    pub fn cta_resources(&self) -> (u32, u32, u32, u32) {
        let warps = self.threads.div_ceil(32);
        // Registers are allocated per warp (32 threads), as ptxas reports them per thread.
        let regs = self.kernel.regs_used.max(1) * 32 * warps;
        (self.threads, warps, regs, self.shared_bytes as u32)
    }

    /// Start CTA `index` (linear, x fastest) in `slot` on `warps`.
    pub fn start_cta(&mut self, index: u32, slot: u16, warps: &[u16]) {
        let [gx, gy, _] = self.launch.grid;
        let ctaid = [index % gx, (index / gx) % gy, index / (gx * gy)];
        let local = self.threads as usize * self.kernel.local_bytes as usize;
        self.ctas[slot as usize] = Some(CtaMem { index, ctaid, shared: vec![0; self.shared_bytes], local: vec![0; local] });
        if let Some(a) = &self.kernel.affine {
            self.affine[slot as usize] = Some((AffineWarp::new(a, self.launch.block), warps.to_vec()));
        }
        for (i, &w) in warps.iter().enumerate() {
            self.warps[w as usize] = Some(self.fresh[i].clone());
            self.warp_cta[w as usize] = slot;
            self.spin[w as usize].reset();
        }
    }

    /// The CTA in `slot` finished; returns its index.
    pub fn end_cta(&mut self, slot: u16) -> u32 {
        let cta = self.ctas[slot as usize].take().expect("a running CTA");
        self.affine[slot as usize] = None;
        cta.index
    }

    // ---- DAC ------------------------------------------------------------

    /// The affine stream, if the kernel is decoupled.
    pub fn affine_kernel(&self) -> Option<&Arc<Kernel>> {
        self.kernel.affine.as_ref()
    }

    /// The next instruction of CTA slot `slot`'s affine warp (`None`: done
    /// or no affine warp).
    pub fn affine_next(&self, slot: u16) -> Option<u32> {
        self.affine[slot as usize].as_ref()?.0.next()
    }

    /// The threads, per warp of its CTA, on the path CTA slot `slot`'s
    /// affine warp executes next (`None`: done or no affine warp).
    pub fn affine_masks(&self, slot: u16) -> Option<&[u32]> {
        self.affine[slot as usize].as_ref()?.0.stack.last().map(|e| e.masks.as_slice())
    }

    /// The block index of the CTA in `slot` (zeros if none).
    pub fn ctaid(&self, slot: u16) -> [u32; 3] {
        self.ctas[slot as usize].as_ref().map_or([0; 3], |c| c.ctaid)
    }

    /// Execute CTA slot `slot`'s affine warp's next instruction: an `enq`'s
    /// records by warp slot, and the first executing thread's result.
    pub fn affine_step(&mut self, slot: u16) -> Result<AffineStep, String> {
        let aff = Arc::clone(self.kernel.affine.as_ref().expect("a decoupled kernel"));
        let cta = self.ctas[slot as usize].as_mut().expect("a running CTA");
        let (warp, slots) = self.affine[slot as usize].as_mut().expect("an affine warp");
        // The affine stream reads parameters, the constant bank and indices.
        let guard;
        let global = match &mut self.memory {
            GlobalMem::Own(m) => Global::Direct(m),
            GlobalMem::Shared { memory, stage } => {
                guard = memory.read().map_err(|_| "the GPU's memory lock was poisoned".to_string())?;
                Global::Staged(&guard, stage)
            }
        };
        let mut ctx = ExecCtx {
            global,
            shared: &mut cta.shared,
            local: &mut cta.local,
            params: &self.launch.params,
            ntid: self.launch.block,
            ctaid: cta.ctaid,
            nctaid: self.launch.grid,
            side_effects: false,
            unmapped_reads_zero: false,
            clock: self.clock,
            clock_hz: self.clock_hz,
            textures: &self.launch.textures,
        };
        let step = warp.step(&aff, &mut ctx).map_err(|e| format!("in the affine warp: {e}"))?;
        Ok(AffineStep { records: step.records.into_iter().map(|(i, r)| (slots[i as usize], r)).collect(), value: step.value, masks: step.masks, slots: slots.clone() })
    }

    /// A record expanded for warp `w` enters its queue.
    pub fn push_record(&mut self, w: u16, r: DacRecord) {
        let ws = self.warps[w as usize].as_mut().expect("a live warp");
        if r.queue == DacQueue::Pred {
            ws.pwpq.push_back(r);
        } else {
            ws.pwaq.push_back(r);
        }
    }

    /// Thread index (x, y, z) of lane `lane` of warp slot `w`.
    pub fn thread_index(&self, w: u16, lane: u32) -> [u32; 3] {
        self.warps[w as usize].as_ref().map_or([0; 3], |s| [s.tid[0][lane as usize], s.tid[1][lane as usize], s.tid[2][lane as usize]])
    }

    /// The next instruction of the warp in slot `w` (`None`: it is done).
    pub fn next_op(&self, w: u16) -> Option<u32> {
        let s = self.warps[w as usize].as_ref()?;
        s.pc().map(|pc| pc / kernel::INST_BYTES)
    }

    /// Execute the next instruction of warp `w`; per-lane addresses of a
    /// memory access go to `addrs` (as the memory system sees them).
    pub fn exec(&mut self, w: u16, addrs: &mut [u64; 32]) -> Result<ExecOut, String> {
        self.exec_in(w, false, addrs)
    }

    /// A completed `bar.red`'s result into warp `w`'s registers.
    pub fn write_barrier_result(&mut self, w: u16, inst: usize, lanes: u32, value: u32) {
        if let Some(ws) = self.warps[w as usize].as_mut() {
            kernel::exec::write_barrier_result(&self.kernel, ws, inst, lanes, value);
        }
    }

    /// Execute the next instruction of warp `w`'s P-mode copy, without side
    /// effects on memory (stores and atomics are not performed; loads read).
    pub fn p_exec(&mut self, w: u16, addrs: &mut [u64; 32]) -> Result<ExecOut, String> {
        self.exec_in(w, true, addrs)
    }

    fn exec_in(&mut self, w: u16, pmode: bool, addrs: &mut [u64; 32]) -> Result<ExecOut, String> {
        let slot = self.warp_cta[w as usize] as usize;
        let cta = self.ctas[slot].as_mut().expect("warp of a running CTA");
        let warp = if pmode { self.pwarps[w as usize].as_mut().expect("a warp in P-mode") } else { self.warps[w as usize].as_mut().expect("a live warp") };
        let guard;
        let (global, staged) = match &mut self.memory {
            GlobalMem::Own(m) => (Global::Direct(m), None),
            GlobalMem::Shared { memory, stage } => {
                guard = memory.read().map_err(|_| "the GPU's memory lock was poisoned".to_string())?;
                let n = stage.len();
                (Global::Staged(&guard, stage), Some(n))
            }
        };
        let mut ctx = ExecCtx {
            global,
            shared: &mut cta.shared,
            local: &mut cta.local,
            params: &self.launch.params,
            ntid: self.launch.block,
            ctaid: cta.ctaid,
            nctaid: self.launch.grid,
            side_effects: !pmode,
            unmapped_reads_zero: self.unmapped_reads_zero,
            clock: self.clock,
            clock_hz: self.clock_hz,
            textures: &self.launch.textures,
        };
        let ex = kernel::exec(&self.kernel, warp, &mut ctx).map_err(|e| if pmode { format!("in P-mode: {e}") } else { e.to_string() })?;
        if let (Some(n), Global::Staged(_, stage)) = (staged, ctx.global) {
            stage.tag_warp(n, w as u32);
        }
        if !pmode {
            self.generation += ex.wrote as u64;
            self.partial_barriers += ex.partial_barrier as u64;
            self.unmapped_reads += ex.unmapped_lanes as u64;
            self.spin[w as usize].step(warp, self.generation);
        }
        let mut out = ExecOut { op: ex.inst, active: ex.active, lanes: ex.exec_mask, space: None, bytes: 0, barrier: ex.barrier };
        if let Some(m) = ex.mem {
            out.bytes = m.bytes;
            out.space = Some(match m.space {
                kernel::Space::Shared => Space::Shared,
                kernel::Space::Const | kernel::Space::Param => Space::Const,
                kernel::Space::Local => Space::Local,
                // A generic access whose lanes went to different spaces is
                // timed as a global one (its shared lanes' offsets fall in
                // no buffer's lines; such mixes are rare).
                kernel::Space::Global | kernel::Space::Generic => Space::Global,
            });
            addrs.copy_from_slice(&m.addrs);
            if m.space == kernel::Space::Param {
                // Parameters and the constant bank share the constant cache
                // in different lines.
                for a in addrs.iter_mut() {
                    *a += PARAM_TIMING_BASE;
                }
            }
            if out.space == Some(Space::Local) {
                let frame = self.kernel.local_bytes.max(1) as u64;
                let base = LOCAL_TIMING_BASE + slot as u64 * LOCAL_TIMING_STRIDE;
                // Interleaved by words, or by the element of a wider
                // (aligned 8- or 16-byte) access, which thus stays within
                // one line.
                let g = (out.bytes as u64).max(4);
                for a in addrs.iter_mut() {
                    let (t, off) = (*a / frame, *a % frame);
                    *a = base + ((off / g) * self.threads as u64 + t) * g + off % g;
                }
            }
        }
        Ok(out)
    }

    /// Global loads outside every allocation read zero (see
    /// `kernel::ExecCtx::unmapped_reads_zero`).
    pub fn read_unmapped_as_zero(&mut self, on: bool) {
        self.unmapped_reads_zero = on;
    }

    /// The core clock `%globaltimer` counts at.
    pub fn set_clock_hz(&mut self, hz: u64) {
        self.clock_hz = hz;
    }

    /// Warp `w` repeats a loop with memory unchanged (`kernel::progress`).
    pub fn spinning(&self, w: u16) -> bool {
        self.spin[w as usize].spinning(self.generation)
    }

    /// Instructions so far that changed memory.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Where warp `w` is: `pc 0x.. (line N)`.
    pub fn where_is(&self, w: u16) -> String {
        self.kernel.where_is(self.warps[w as usize].as_ref().and_then(|s| s.pc()).unwrap_or(0))
    }

    /// The lanes that exist in warp `w` (a CTA's last warp may be partial).
    pub fn lanes(&self, w: u16) -> u32 {
        self.warps[w as usize].as_ref().map_or(0, |s| s.lanes)
    }

    /// What warp `w`'s next instruction would do (its lanes, space and
    /// addresses), executed on a copy without side effects: replay's oracle
    /// predictor looks at a load's lines before it issues.
    pub fn preview(&mut self, w: u16, addrs: &mut [u64; 32]) -> Result<ExecOut, String> {
        self.start_pmode(w);
        let out = self.p_exec(w, addrs);
        self.end_pmode(w);
        out
    }

    /// Warp `w` enters P-mode: its P-mode copy starts as its N-mode state.
    pub fn start_pmode(&mut self, w: u16) {
        self.pwarps[w as usize] = self.warps[w as usize].clone();
    }

    /// Warp `w` leaves P-mode: the copy is dropped.
    pub fn end_pmode(&mut self, w: u16) {
        self.pwarps[w as usize] = None;
    }

    /// The next instruction of warp `w`'s P-mode copy.
    pub fn p_next_op(&self, w: u16) -> Option<u32> {
        self.pwarps[w as usize].as_ref()?.pc().map(|pc| pc / kernel::INST_BYTES)
    }

    /// Move the P-mode copy past its next instruction without executing it.
    pub fn p_skip(&mut self, w: u16) -> Result<(), String> {
        let warp = self.pwarps[w as usize].as_mut().expect("a warp in P-mode");
        kernel::skip(&self.kernel, warp).map(|_| ()).map_err(|e| format!("in P-mode: {e}"))
    }

    /// The outcome a branch at the top of warp `w`'s stack (N or P copy)
    /// will have, without executing it: (threads taking it, target PC,
    /// reconvergence PC). The P-mode unit's SIMT stack needs it in the cycle
    /// its action is decided.
    pub fn branch_preview(&self, w: u16, pmode: bool) -> Option<(u32, u32, u32)> {
        let warp = if pmode { self.pwarps[w as usize].as_ref()? } else { self.warps[w as usize].as_ref()? };
        let (_, inst) = warp.next_inst(&self.kernel)?;
        let kernel::Op::Bra { target, reconv, .. } = inst.op else { return None };
        let active = warp.active_mask();
        let taken = match inst.guard {
            None => active,
            Some(g) => active & if g.neg { !warp.preds[g.pred as usize] } else { warp.preds[g.pred as usize] },
        };
        Some((taken, target * kernel::INST_BYTES, reconv))
    }

    /// The values of registers `regs` (scoreboard ids) of warp `w`'s N or P
    /// state, for the lanes of `mask`: what a P-mode result must equal when
    /// N-mode reuses it.
    pub fn values(&self, w: u16, pmode: bool, regs: &[u8], mask: u32) -> Vec<u32> {
        let warp = if pmode { self.pwarps[w as usize].as_ref() } else { self.warps[w as usize].as_ref() };
        let Some(warp) = warp else { return Vec::new() };
        let mut v = Vec::with_capacity(regs.len() * 32);
        for &r in regs {
            for lane in 0..32 {
                let on = mask >> lane & 1 == 1;
                let x = if r < SB_PRED_BASE {
                    warp.regs.get(r as usize).map_or(0, |row| row[lane])
                } else {
                    warp.preds[(r - SB_PRED_BASE) as usize] >> lane & 1
                };
                v.push(if on { x } else { 0 });
            }
        }
        v
    }

    /// The static decode of every instruction, with this configuration's
    /// latencies.
    pub fn ops(&self, c: &Config) -> Result<Arc<[Op]>, String> {
        decode_all(c, &self.kernel)
    }

    /// The affine stream's decode (a decoupled kernel's).
    pub fn affine_ops(&self, c: &Config) -> Option<Result<Arc<[Op]>, String>> {
        self.kernel.affine.as_ref().map(|a| decode_all(c, a))
    }
}

fn decode_all(c: &Config, k: &Kernel) -> Result<Arc<[Op]>, String> {
    k.insts.iter().enumerate().map(|(i, inst)| decode(c, k, i, inst)).collect::<Result<Vec<_>, _>>().map(Arc::from)
}

/// Latency class and type of an instruction (GPGPU-Sim's five classes).
fn class_of(inst: &Inst) -> (LatType, LatClass) {
    use kernel::Op as K;
    let ty_of = |t: Ty| match t {
        Ty::F64 => LatType::Dp,
        Ty::F32 | Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2 => LatType::Fp,
        _ => LatType::Int,
    };
    match inst.op {
        K::Alu { op, ty, .. } => {
            let class = match op {
                AluOp::Min | AluOp::Max => LatClass::Max,
                AluOp::Mul | AluOp::MulHi | AluOp::MulWide => LatClass::Mul,
                AluOp::Mad | AluOp::MadHi | AluOp::MadWide => LatClass::Mad,
                AluOp::Div | AluOp::Rem => LatClass::Div,
                AluOp::Add | AluOp::Sub | AluOp::Mul24 { .. } | AluOp::Mad24 { .. } => LatClass::Add,
                _ => LatClass::Other,
            };
            (ty_of(ty), class)
        }
        K::Setp { ty, .. } => (ty_of(ty), LatClass::Other),
        K::Cvt { dty, sty, .. } => (if dty == Ty::F64 || sty == Ty::F64 { LatType::Dp } else { ty_of(dty) }, LatClass::Other),
        K::Mov(t) | K::Selp(t) => (ty_of(t), LatClass::Other),
        _ => (LatType::Int, LatClass::Other),
    }
}

fn decode(c: &Config, k: &Kernel, i: usize, inst: &Inst) -> Result<Op, String> {
    let pc = i as u32 * kernel::INST_BYTES;
    let unit = match inst.unit {
        kernel::Unit::Sp | kernel::Unit::Ctrl => Unit::Sp,
        kernel::Unit::Sfu => Unit::Sfu,
        kernel::Unit::Ldst => Unit::Mem,
    };
    let (ty, class) = class_of(inst);
    let (latency, initiation) = timing(c, unit, ty, class);
    let id = |r: ArchReg| match r {
        ArchReg::R(n) => Some(n),
        ArchReg::P(n) => Some(SB_PRED_BASE + n),
        ArchReg::None => None,
    };
    let reads: Vec<u8> = inst.reads.as_slice().iter().filter_map(|&r| id(r)).collect();
    let writes: Vec<u8> = inst.writes.as_slice().iter().filter_map(|&r| id(r)).collect();
    let text = format!("{pc:#06x} {}", inst.text(true));
    if reads.len() > MAX_READS || writes.len() > MAX_WRITES {
        return Err(format!(
            "kernel `{}` line {}: `{text}` reads {} and writes {} registers; the SM's scoreboard takes at most {MAX_READS} and {MAX_WRITES}",
            k.base_name,
            inst.line,
            reads.len(),
            writes.len()
        ));
    }
    let mut op = Op {
        unit,
        latency,
        initiation,
        reads: [0; MAX_READS],
        n_reads: reads.len() as u8,
        writes: [0; MAX_WRITES],
        n_writes: writes.len() as u8,
        control: if inst.is_branch() {
            Control::Branch
        } else if inst.is_exit() {
            Control::Exit
        } else if inst.is_barrier() {
            Control::Barrier
        } else {
            Control::None
        },
        access: inst.mem.map(|m| match m.kind {
            MemKind::Load => Access::Load,
            MemKind::Store => Access::Store,
            MemKind::Atomic => Access::Atomic,
        }),
        may_miss: inst.mem.is_some_and(|m| {
            m.kind == MemKind::Load && matches!(m.space, kernel::inst::Space::Global | kernel::inst::Space::Local | kernel::inst::Space::Generic)
        }),
        deq: match inst.op {
            kernel::Op::Deq(q) => Some(q),
            _ => inst.deq_queue(),
        },
        text,
    };
    op.reads[..reads.len()].copy_from_slice(&reads);
    op.writes[..writes.len()].copy_from_slice(&writes);
    Ok(op)
}
