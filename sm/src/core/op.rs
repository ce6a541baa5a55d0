//! What the timing pipeline knows of a static instruction (its "decode"),
//! and of a warp instruction in flight.

use crate::config::Config;

/// Functional unit an instruction goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Integer / single and double precision ALU, branches, barriers, exit.
    Sp,
    /// Transcendentals, reciprocal, square root, divisions.
    Sfu,
    /// The load/store unit (memory stage).
    Mem,
}

impl Unit {
    /// The stall a warp meets when no collector unit for this one is free.
    pub fn full_stall(self) -> crate::stats::Stall {
        use crate::stats::Stall;
        if self == Unit::Mem {
            Stall::LsuFull
        } else {
            Stall::SpSfuFull
        }
    }
}

/// Control effect of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    None,
    Branch,
    Barrier,
    Exit,
}

impl Control {
    /// Fetch stops behind this instruction until it leaves issue: the next
    /// PC is known only then.
    pub fn blocks_fetch(self) -> bool {
        matches!(self, Control::Branch | Control::Exit)
    }
}

/// Memory operation kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Load,
    Store,
    Atomic,
}

/// Where a memory access goes, once generic addresses are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Local,
    Shared,
    /// `.param` and `.const`: an ideal constant cache.
    Const,
}

/// GPGPU-Sim's latency classes `[add, max, mul, mad, div]`, and the
/// instructions it lists in none of them (logic, shifts, `setp`, `mov`,
/// `cvt`, branches: `units.other_latency`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatClass {
    Add = 0,
    Max = 1,
    Mul = 2,
    Mad = 3,
    Div = 4,
    Other = 5,
}

/// Operand type for the latency tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatType {
    Int,
    Fp,
    Dp,
}

/// Registers as the scoreboard numbers them: 32-bit registers `R0..R62` are
/// ids 0..62, predicates `P0..P7` are ids 64..71 (63, Fermi's RZ, is never
/// tracked).
pub const SB_REGS: u32 = 72;
pub const SB_PRED_BASE: u8 = 64;
pub const MAX_READS: usize = 8;
pub const MAX_WRITES: usize = 4;

/// A static instruction as the pipeline sees it.
#[derive(Clone, Debug)]
pub struct Op {
    pub unit: Unit,
    /// Cycles from dispatch to result, and between dispatches to one unit.
    pub latency: u32,
    pub initiation: u32,
    pub reads: [u8; MAX_READS],
    pub n_reads: u8,
    pub writes: [u8; MAX_WRITES],
    pub n_writes: u8,
    pub control: Control,
    /// The memory operation, if any (its space may be generic until executed).
    pub access: Option<Access>,
    /// A global, local or generic load: it may need an MSHR (replay mode's
    /// tracker and predictor are asked about it).
    pub may_miss: bool,
    /// DAC: the queue a `deq` (or a memory access at `[deq.*]`) reads.
    pub deq: Option<kernel::inst::DacQueue>,
    /// Label for pipeline views and reports: `0x0080 ld.global.f32`.
    pub text: String,
}

impl Op {
    pub fn reads(&self) -> &[u8] {
        &self.reads[..self.n_reads as usize]
    }
    pub fn writes(&self) -> &[u8] {
        &self.writes[..self.n_writes as usize]
    }
}

/// Latency and initiation interval of an ALU / SFU instruction.
/// Bit i set: read operand i is a general register (read from a bank by
/// the operand collector; predicates are not).
pub fn gpr_read_mask(op: &Op) -> u8 {
    op.reads().iter().enumerate().filter(|(_, &r)| r < SB_PRED_BASE).fold(0u8, |m, (i, _)| m | 1 << i)
}

pub fn timing(c: &Config, unit: Unit, ty: LatType, class: LatClass) -> (u32, u32) {
    let u = &c.units;
    // A narrow SP unit takes a warp in several passes.
    let passes = if unit == Unit::Sp { 32 / u.sp_lanes } else { 1 };
    match unit {
        Unit::Sfu if class != LatClass::Div => (u.sfu_latency, u.sfu_initiation),
        _ if class == LatClass::Other && u.other_latency > 0 => (u.other_latency.max(passes), passes),
        _ => {
            // Without `other_latency`, the unlisted instructions take the add class's.
            let i = if class == LatClass::Other { LatClass::Add as usize } else { class as usize };
            let (lat, ini) = match ty {
                LatType::Int => (u.int_latency[i], u.int_initiation[i]),
                LatType::Fp => (u.fp_latency[i], u.fp_initiation[i]),
                LatType::Dp => (u.dp_latency[i], u.dp_initiation[i]),
            };
            (lat.max(passes), ini.max(passes))
        }
    }
}

/// A warp instruction in flight (in the pool, referred to by index).
#[derive(Clone, Debug)]
pub struct Inst {
    /// Unique per run, in issue order (the pipeline view's id).
    pub uid: u64,
    pub warp: u16,
    /// Index of the static instruction (PC / 8).
    pub op: u32,
    /// Lanes that executed (after the guard).
    pub active: u32,
    /// Memory: resolved space, access, bytes per lane.
    pub space: Space,
    pub access: Option<Access>,
    pub bytes: u32,
    pub addrs: [u64; 32],
    /// Global pending lines (loads, atomics) before it can write back.
    pub lines_left: u32,
    /// Operand reads still to do in the collector (bit i = `Op::reads[i]`).
    pub reads_left: u8,
    /// Pending on a long-latency operation (global / local load, atomic).
    pub long: bool,
    /// Issued in P-mode: its P-queue index when recorded (pre-executed).
    pub pq: Option<u32>,
    pub pmode: bool,
    /// A P-mode pre-load: fills L1, writes no register.
    pub preload: bool,
    /// Replay mode: threads not yet past the memory-stage checkpoint, the
    /// warp-buffer slot, passes through the stage, the pending-load id held
    /// across passes, and whether this issue carried an MSHR credit.
    pub pending: u32,
    pub slot: u8,
    pub passes: u32,
    pub load_id: Option<u32>,
    pub credited: bool,
    /// DAC: a prefetch for warp `warp`'s PWAQ record of this number; and
    /// its lines (bit k: the k-th line) that it locked in L1, or that a
    /// `[deq.data]` load unlocks.
    pub dac_record: Option<u64>,
    pub dac_lines: u64,
    /// Issued by a prefetcher (DAC's expansion, DirectPrefetch), not by a
    /// warp: no pipeline-view entry, not an N-mode access.
    pub hw_prefetch: bool,
    /// CAE: runs on an affine unit instead of the SP lanes.
    pub affine_unit: bool,
}

impl Inst {
    pub fn empty() -> Self {
        Inst {
            uid: 0,
            warp: 0,
            op: 0,
            active: 0,
            space: Space::Global,
            access: None,
            bytes: 0,
            addrs: [0; 32],
            lines_left: 0,
            reads_left: 0,
            long: false,
            pq: None,
            pmode: false,
            preload: false,
            pending: 0,
            slot: 0,
            passes: 0,
            load_id: None,
            credited: false,
            dac_record: None,
            hw_prefetch: false,
            dac_lines: 0,
            affine_unit: false,
        }
    }

    /// A prefetcher's global load (DAC's expansion, DirectPrefetch) of
    /// `active` lanes' `addrs`, charged to warp slot `warp`: it fills L1
    /// and writes no register.
    pub fn prefetch(uid: u64, warp: u16, active: u32, bytes: u32, addrs: [u64; 32]) -> Self {
        Inst {
            uid,
            warp,
            active,
            space: Space::Global,
            access: Some(Access::Load),
            bytes,
            addrs,
            long: true,
            preload: true,
            hw_prefetch: true,
            ..Inst::empty()
        }
    }
}

/// A pool of in-flight instructions, reused so the cycle loop never
/// allocates.
pub struct Pool {
    slots: Vec<Inst>,
    free: Vec<u32>,
}

impl Pool {
    pub fn new() -> Self {
        Pool { slots: Vec::new(), free: Vec::new() }
    }
    pub fn alloc(&mut self) -> u32 {
        match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Inst::empty());
                self.slots.len() as u32 - 1
            }
        }
    }
    pub fn release(&mut self, i: u32) {
        self.free.push(i);
    }
    pub fn get(&self, i: u32) -> &Inst {
        &self.slots[i as usize]
    }
    pub fn get_mut(&mut self, i: u32) -> &mut Inst {
        &mut self.slots[i as usize]
    }
    /// Instructions in flight.
    pub fn in_use(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new()
    }
}
