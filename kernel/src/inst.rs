//! The typed instruction representation: what the parser produces, register
//! allocation rewrites and the functional model executes.
//!
//! Before allocation a register operand's index is a virtual register (one
//! per PTX register name and scope); after allocation it is the architected
//! register: `R(n)` a 32-bit register (16- and 8-bit values live in the low
//! bits, zero-extended), `D(n)` the aligned pair `R(n)`, `R(n+1)` holding a
//! 64-bit value (low word in `R(n)`), `P(n)` a predicate.

use std::fmt;

/// Threads per warp.
pub const WARP_SIZE: usize = 32;
/// Bytes between consecutive instructions' PCs (the P-mode paper's Figure 5).
pub const INST_BYTES: u32 = 8;
/// Architected 32-bit registers per thread (Fermi: R0..R62; R63 is the zero register).
pub const MAX_REGS: u32 = 63;
/// Predicate registers per thread (Fermi: P0..P6; P7 is the constant true).
pub const MAX_PREDS: u32 = 7;

/// A PTX scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F32,
    F64,
    /// Half precision (IEEE binary16) and bfloat16, alone or packed in
    /// pairs in a 32-bit register (element 0 in the low half).
    F16,
    F16x2,
    BF16,
    BF16x2,
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "f16" => Ty::F16,
            "f16x2" => Ty::F16x2,
            "bf16" => Ty::BF16,
            "bf16x2" => Ty::BF16x2,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Ty::B8 => "b8",
            Ty::B16 => "b16",
            Ty::B32 => "b32",
            Ty::B64 => "b64",
            Ty::U8 => "u8",
            Ty::U16 => "u16",
            Ty::U32 => "u32",
            Ty::U64 => "u64",
            Ty::S8 => "s8",
            Ty::S16 => "s16",
            Ty::S32 => "s32",
            Ty::S64 => "s64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::F16 => "f16",
            Ty::F16x2 => "f16x2",
            Ty::BF16 => "bf16",
            Ty::BF16x2 => "bf16x2",
            Ty::Pred => "pred",
        }
    }
    /// Width in bits (a predicate counts as 1).
    pub fn bits(self) -> u32 {
        match self {
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 | Ty::BF16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16x2 | Ty::BF16x2 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub fn is_int(self) -> bool {
        !self.is_float() && !self.is_half() && self != Ty::Pred
    }
    /// The values an integer type holds.
    pub fn int_range(self) -> (i128, i128) {
        let b = self.bits();
        if self.is_signed() {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << b) - 1)
        }
    }
    /// `.f16`, `.bf16` and their pairs (computed by [`crate::half`]).
    pub fn is_half(self) -> bool {
        matches!(self, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)
    }
    /// Two packed halves.
    pub fn is_x2(self) -> bool {
        matches!(self, Ty::F16x2 | Ty::BF16x2)
    }
    /// Width of the register that holds a value of this type.
    pub fn reg_width(self) -> RegWidth {
        match self.bits() {
            1 => RegWidth::Pred,
            8 | 16 | 32 => RegWidth::W32,
            _ => RegWidth::W64,
        }
    }
}

/// What a register holds: the class the allocator assigns it to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegWidth {
    Pred,
    /// One 32-bit register (8-, 16- and 32-bit PTX registers).
    W32,
    /// An aligned pair of 32-bit registers.
    W64,
}

/// State spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Const,
    Param,
    Local,
    /// A generic address, resolved per lane when the instruction executes.
    Generic,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Const => "const",
            Space::Param => "param",
            Space::Local => "local",
            Space::Generic => "generic",
        }
    }
}

/// Special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    WarpSize,
    /// `%lanemask_eq`, `_lt`, `_le`, `_gt`, `_ge`.
    LaneMask(LaneMaskKind),
    /// `%smid`, `%nsmid`, `%gridid`: one SM, one grid.
    SmId,
    NSmId,
    GridId,
    /// `%clock` (32-bit), `%clock64`, `%globaltimer` (64-bit, ns): from
    /// [`crate::ExecCtx::clock`].
    Clock,
    Clock64,
    GlobalTimer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneMaskKind {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Sreg {
    /// A 64-bit special register (the others are 32-bit).
    pub fn is_64(self) -> bool {
        matches!(self, Sreg::Clock64 | Sreg::GlobalTimer)
    }

    /// Its value depends on time.
    pub fn is_clock(self) -> bool {
        matches!(self, Sreg::Clock | Sreg::Clock64 | Sreg::GlobalTimer)
    }
}

impl Sreg {
    pub fn parse(s: &str) -> Option<Sreg> {
        let dim = |d: &str| match d {
            "x" => Some(0u8),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        if let Some((base, d)) = s.split_once('.') {
            let d = dim(d)?;
            return Some(match base {
                "%tid" => Sreg::Tid(d),
                "%ntid" => Sreg::Ntid(d),
                "%ctaid" => Sreg::Ctaid(d),
                "%nctaid" => Sreg::Nctaid(d),
                _ => return None,
            });
        }
        Some(match s {
            "%laneid" => Sreg::LaneId,
            "%warpid" => Sreg::WarpId,
            "%nwarpid" => Sreg::NWarpId,
            "WARP_SZ" => Sreg::WarpSize,
            "%lanemask_eq" => Sreg::LaneMask(LaneMaskKind::Eq),
            "%lanemask_lt" => Sreg::LaneMask(LaneMaskKind::Lt),
            "%lanemask_le" => Sreg::LaneMask(LaneMaskKind::Le),
            "%lanemask_gt" => Sreg::LaneMask(LaneMaskKind::Gt),
            "%lanemask_ge" => Sreg::LaneMask(LaneMaskKind::Ge),
            "%smid" => Sreg::SmId,
            "%nsmid" => Sreg::NSmId,
            "%gridid" => Sreg::GridId,
            "%clock" => Sreg::Clock,
            "%clock64" => Sreg::Clock64,
            "%globaltimer" => Sreg::GlobalTimer,
            _ => return None,
        })
    }
}

impl fmt::Display for Sreg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let xyz = |d: u8| ["x", "y", "z"][d as usize % 3];
        match *self {
            Sreg::Tid(d) => write!(f, "%tid.{}", xyz(d)),
            Sreg::Ntid(d) => write!(f, "%ntid.{}", xyz(d)),
            Sreg::Ctaid(d) => write!(f, "%ctaid.{}", xyz(d)),
            Sreg::Nctaid(d) => write!(f, "%nctaid.{}", xyz(d)),
            Sreg::LaneId => write!(f, "%laneid"),
            Sreg::WarpId => write!(f, "%warpid"),
            Sreg::NWarpId => write!(f, "%nwarpid"),
            Sreg::WarpSize => write!(f, "WARP_SZ"),
            Sreg::LaneMask(k) => write!(f, "%lanemask_{}", format!("{k:?}").to_lowercase()),
            Sreg::SmId => write!(f, "%smid"),
            Sreg::NSmId => write!(f, "%nsmid"),
            Sreg::GridId => write!(f, "%gridid"),
            Sreg::Clock => write!(f, "%clock"),
            Sreg::Clock64 => write!(f, "%clock64"),
            Sreg::GlobalTimer => write!(f, "%globaltimer"),
        }
    }
}

/// An operand. Register indices are virtual before allocation, architected after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Opnd {
    #[default]
    None,
    /// A 32-bit register (or an 8/16-bit value in one).
    R(u32),
    /// A 64-bit register: after allocation the pair `R(n)`, `R(n+1)`, n even.
    D(u32),
    /// A predicate register.
    P(u32),
    /// An immediate, as the bits of the operand's type (integers sign-extended to 64 bits).
    Imm(u64),
    Sreg(Sreg),
    /// `_`: a destination that is not written.
    Sink,
    /// A decoupled memory instruction's address (`[deq.addr]`, `[deq.data]`):
    /// each lane's address comes from the warp's address queue, filled by
    /// the affine stream (DAC, [`crate::dac`]).
    Deq,
}

impl Opnd {
    pub fn is_reg(self) -> bool {
        matches!(self, Opnd::R(_) | Opnd::D(_) | Opnd::P(_))
    }
}

/// A memory operand: `[base + off]` or `[off]` (a symbol's address plus offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// `Opnd::R`, `Opnd::D` or `Opnd::None` (absolute).
    pub base: Opnd,
    pub off: i64,
}

/// Comparison of `setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl Cmp {
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            "eq" => Cmp::Eq,
            "ne" => Cmp::Ne,
            "lt" => Cmp::Lt,
            "le" => Cmp::Le,
            "gt" => Cmp::Gt,
            "ge" => Cmp::Ge,
            "lo" => Cmp::Lo,
            "ls" => Cmp::Ls,
            "hi" => Cmp::Hi,
            "hs" => Cmp::Hs,
            "equ" => Cmp::Equ,
            "neu" => Cmp::Neu,
            "ltu" => Cmp::Ltu,
            "leu" => Cmp::Leu,
            "gtu" => Cmp::Gtu,
            "geu" => Cmp::Geu,
            "num" => Cmp::Num,
            "nan" => Cmp::Nan,
            _ => return None,
        })
    }
    /// Unsigned-only and float-only comparisons.
    pub fn is_unsigned_only(self) -> bool {
        matches!(self, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs)
    }
    pub fn is_float_only(self) -> bool {
        matches!(self, Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Num | Cmp::Nan)
    }
}

/// Boolean combination of `setp.CMP.BOP` with its third (predicate) operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Rounding modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// Floating-point result rounding.
    Rn,
    Rz,
    Rm,
    Rp,
    /// Round to an integral value (float-to-int and float-to-same-float).
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    Exch,
    Cas,
    And,
    Or,
    Xor,
}

/// ALU operations (integer, float, predicate, bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    Add,
    Sub,
    /// `mul.lo` (integers) or `mul` (floats).
    Mul,
    MulHi,
    MulWide,
    /// `mad.lo` (integers), `mad`/`fma` (floats: fused).
    Mad,
    MadHi,
    MadWide,
    /// `mul24.{lo,hi}` / `mad24.{lo,hi}`: the 48-bit product of the low 24
    /// bits; `.lo` its bits 31:0, `.hi` its bits 47:16.
    Mul24 {
        hi: bool,
    },
    Mad24 {
        hi: bool,
    },
    /// `sad`: c + |a - b|.
    Sad,
    Div,
    Rem,
    Neg,
    Abs,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Popc,
    Clz,
    Brev,
    Bfe,
    Bfi,
    Prmt,
    /// `shf.{l,r}.{wrap,clamp}.b32`: funnel shift of the 64-bit `{b, a}`.
    Shf {
        left: bool,
        wrap: bool,
    },
    Rcp,
    Sqrt,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Copysign,
    /// `testp.finite/infinite/number/notanumber/normal/subnormal`.
    Testp(u8),
}

/// Float modifiers of an ALU op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FMods {
    /// `.approx` / `.full`.
    pub approx: bool,
    pub ftz: bool,
    pub sat: bool,
    /// A directed rounding mode (`.rz`, `.rm`, `.rp`); `None` is `.rn`.
    pub rnd: Option<Rnd>,
    /// Integer extended precision: [`CARRY_IN`] (`addc`, `subc`, `madc`)
    /// and/or [`CARRY_OUT`] (`.cc`), through the warp's carry flags.
    pub carry: u8,
    /// `fma.relu` / `cvt.relu` on halves: negative results become +0.
    pub relu: bool,
    /// `min.NaN` / `max.NaN` on halves: a NaN operand gives NaN.
    pub nan: bool,
}

/// `FMods::carry`: the instruction adds the carry flag (subtracts the borrow).
pub const CARRY_IN: u8 = 1;
/// `FMods::carry`: the instruction writes the carry (borrow) flag.
pub const CARRY_OUT: u8 = 2;

/// The typed operation of an instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `mov`: d = s0 (register, immediate, special register or symbol address).
    Mov(Ty),
    /// `mov.b64 d, {a, b}` / `mov.b32 d, {a, b}`: pack the sources (lowest first).
    Pack(Ty),
    /// `mov.b64 {a, b}, d`: unpack (lowest first).
    Unpack(Ty),
    /// `ld`: d0..d(vec-1) = `[addr]`.
    Ld {
        space: Space,
        ty: Ty,
        vec: u8,
    },
    /// `st`: `[addr]` = s0..s(vec-1).
    St {
        space: Space,
        ty: Ty,
        vec: u8,
    },
    /// `atom` (d = old value) or `red` (d is `Opnd::None`): s0 = b, s1 = c (cas).
    Atom {
        space: Space,
        op: AtomOp,
        ty: Ty,
    },
    /// `cvta` (to generic) or `cvta.to` (from generic): d = s0 converted.
    Cvta {
        space: Space,
        to: bool,
        ty: Ty,
    },
    Alu {
        op: AluOp,
        ty: Ty,
        f: FMods,
    },
    /// `setp.CMP[.BOP][.ftz].TY p[|q], a, b[, c]`.
    Setp {
        cmp: Cmp,
        bop: Option<BoolOp>,
        ty: Ty,
        ftz: bool,
    },
    /// `set.CMP[.BOP][.ftz].DTY.STY d, a, b[, c]`: the comparison as a
    /// value — all ones (integer `dty`) or 1.0 (float `dty`), else 0; per
    /// half for a pair source.
    Set {
        cmp: Cmp,
        bop: Option<BoolOp>,
        dty: Ty,
        sty: Ty,
        ftz: bool,
    },
    /// `selp.TY d, a, b, c`: d = c ? a : b.
    Selp(Ty),
    /// `slct[.ftz].TY.CTY d, a, b, c`: d = c >= 0 ? a : b.
    Slct {
        ty: Ty,
        cty: Ty,
        ftz: bool,
    },
    Cvt {
        dty: Ty,
        sty: Ty,
        rnd: Option<Rnd>,
        ftz: bool,
        sat: bool,
    },
    /// `bra`: target instruction index; `reconv` is the reconvergence PC
    /// (immediate post-dominator), filled in after the CFG is built.
    Bra {
        target: u32,
        uni: bool,
        reconv: u32,
    },
    /// `bar.sync a{, b}` / `barrier.sync` (`wait`) or `bar.arrive a, b`:
    /// named barrier `a` (src 0, 0..15) for `b` threads (src 1; absent:
    /// every thread of the CTA). See [`crate::barrier`]. `bar.red` also
    /// reduces predicate src 2 (negated when src 3 is `Imm(1)`) into dst 0,
    /// written when the barrier completes.
    Bar {
        wait: bool,
        red: Option<crate::barrier::RedOp>,
    },
    /// `membar` / `fence` / `bar.warp.sync`: nothing to do in a
    /// sequentially consistent model with warps in lockstep.
    Membar,
    /// `shfl[.sync].MODE.b32 d[|p], a, b, c[, membermask]`: d = `a` of the
    /// lane the mode selects (PTX ISA's rule with `c`'s clamp and segment
    /// mask); p = whether that lane was in range. src: a, b, c, membermask.
    Shfl(ShflMode),
    /// `vote[.sync].MODE d, {!}a[, membermask]`: all / any / uni (d a
    /// predicate) or ballot (d a .b32 lane mask) over the executing lanes.
    /// src: a, membermask.
    Vote { mode: VoteMode, neg: bool },
    /// `activemask.b32 d`: the executing lanes.
    Activemask,
    /// `tex.{1d,2d,3d}.v4.DTY.CTY d0..d3, [t, {c...}]`: a texture fetch
    /// ([`crate::texture`]); src 0 the handle (a texture object register,
    /// or `Imm(TEXREF_TAG | k)` for the module's texture reference `k`),
    /// src 1.. the coordinates.
    Tex { dims: u8, dty: Ty, cty: Ty },
    /// `ret` / `exit` (of the kernel; `exit` anywhere).
    Exit,
    /// `call` of a recursive function, which stays out of line: the
    /// executing lanes move their local frame up by the kernel's frame
    /// size and continue at instruction `target`; they come back after
    /// the call on [`Op::Ret`] (see `crate::exec`).
    Call { target: u32 },
    /// `ret` of a recursive function.
    Ret,
    /// DAC's `enq.addr [a]` / `enq.data [a]` (the lanes' addresses, `addr`)
    /// and `enq.pred p` (src 0): the affine stream hands a value to the
    /// non-affine warp's queue ([`crate::dac`]).
    Enq(DacQueue),
    /// DAC's `deq.pred p`: the predicate from the warp's predicate queue.
    Deq(DacQueue),
}

/// A DAC queue: the warp's address queue (PWAQ) takes `Addr` (addresses
/// only) and `Data` (global loads, fetched as soon as the address exists)
/// records; the predicate queue (PWPQ) takes `Pred`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DacQueue {
    Addr,
    Data,
    Pred,
}

impl DacQueue {
    pub fn name(self) -> &'static str {
        match self {
            DacQueue::Addr => "addr",
            DacQueue::Data => "data",
            DacQueue::Pred => "pred",
        }
    }
}

/// `shfl` lane selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `vote` reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// The functional unit an instruction issues to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Integer and single/double ALU work, moves, compares, conversions.
    Sp,
    /// Special function unit: rcp, sqrt, rsqrt, ex2, lg2, sin, cos, float
    /// division, integer division and remainder.
    Sfu,
    /// Loads, stores, atomics (every state space, `ld.param` included).
    Ldst,
    /// Branches, barriers, exit, memory barriers.
    Ctrl,
}

/// Memory kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemKind {
    Load,
    Store,
    Atomic,
}

/// The static memory behaviour of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemInfo {
    /// As written; `Generic` is resolved per lane at run time.
    pub space: Space,
    pub kind: MemKind,
    /// Bytes per element.
    pub elem_bytes: u8,
    /// Elements per lane (vector width 1, 2 or 4).
    pub vec: u8,
}

impl MemInfo {
    /// Bytes each lane accesses.
    pub fn bytes(&self) -> u32 {
        self.elem_bytes as u32 * self.vec as u32
    }
}

/// An architected register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ArchReg {
    /// 32-bit register R0..R62.
    R(u8),
    /// Predicate P0..P6.
    P(u8),
    #[default]
    None,
}

impl fmt::Display for ArchReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchReg::R(n) => write!(f, "R{n}"),
            ArchReg::P(n) => write!(f, "P{n}"),
            ArchReg::None => write!(f, "-"),
        }
    }
}

/// A small fixed list of architected registers (no heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RegList {
    n: u8,
    regs: [ArchReg; 12],
}

impl RegList {
    pub fn push(&mut self, r: ArchReg) {
        if !self.as_slice().contains(&r) && (self.n as usize) < self.regs.len() {
            self.regs[self.n as usize] = r;
            self.n += 1;
        }
    }
    pub fn as_slice(&self) -> &[ArchReg] {
        &self.regs[..self.n as usize]
    }
    pub fn len(&self) -> usize {
        self.n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// A guard predicate: `@p` or `@!p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub pred: u32,
    pub neg: bool,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub op: Op,
    pub guard: Option<Guard>,
    /// Destinations (unused slots `Opnd::None`).
    pub dst: [Opnd; 4],
    /// Sources (unused slots `Opnd::None`).
    pub src: [Opnd; 4],
    /// The memory operand of `ld`, `st`, `atom`.
    pub addr: Option<Addr>,
    /// The opcode as written (`mad.lo.s32`), for listings.
    pub opcode: Box<str>,
    /// PTX source position.
    pub line: u32,
    pub col: u32,
    /// Architected registers read (guard, sources, address base), after allocation.
    pub reads: RegList,
    /// Architected registers written, after allocation.
    pub writes: RegList,
    pub unit: Unit,
    pub mem: Option<MemInfo>,
}

impl Inst {
    /// A branch, a call or a function's return: control goes elsewhere.
    pub fn is_branch(&self) -> bool {
        matches!(self.op, Op::Bra { .. } | Op::Call { .. } | Op::Ret)
    }
    pub fn is_barrier(&self) -> bool {
        matches!(self.op, Op::Bar { .. })
    }
    pub fn is_exit(&self) -> bool {
        matches!(self.op, Op::Exit)
    }
    /// Can control fall through to the next instruction?
    pub fn falls_through(&self) -> bool {
        match self.op {
            Op::Bra { .. } | Op::Exit | Op::Ret => self.guard.is_some(),
            _ => true,
        }
    }
    /// Registers the instruction reads, as virtual or architected indices
    /// depending on the stage: (operand, is it the guard).
    pub fn reg_uses(&self) -> impl Iterator<Item = Opnd> + '_ {
        let g = self.guard.map(|g| Opnd::P(g.pred));
        let a = self.addr.map(|a| a.base);
        g.into_iter().chain(self.src.iter().copied()).chain(a).filter(|o| o.is_reg())
    }
    pub fn reg_defs(&self) -> impl Iterator<Item = Opnd> + '_ {
        self.dst.iter().copied().filter(|o| o.is_reg())
    }

    /// The queue a decoupled memory instruction takes its addresses from:
    /// global loads were prefetched (`deq.data`), the rest not.
    pub fn deq_queue(&self) -> Option<DacQueue> {
        match (self.addr?.base, self.op) {
            (Opnd::Deq, Op::Ld { space: Space::Global, .. }) => Some(DacQueue::Data),
            (Opnd::Deq, _) => Some(DacQueue::Addr),
            _ => None,
        }
    }

    /// The functional unit (see [`Unit`]).
    pub fn classify_unit(op: &Op) -> Unit {
        match *op {
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Tex { .. } => Unit::Ldst,
            Op::Bra { .. } | Op::Bar { .. } | Op::Exit | Op::Membar | Op::Call { .. } | Op::Ret => Unit::Ctrl,
            Op::Alu { op, ty, .. } => match op {
                AluOp::Rcp | AluOp::Sqrt | AluOp::Rsqrt | AluOp::Ex2 | AluOp::Lg2 | AluOp::Sin | AluOp::Cos => Unit::Sfu,
                AluOp::Div | AluOp::Rem => Unit::Sfu,
                _ => {
                    let _ = ty;
                    Unit::Sp
                }
            },
            _ => Unit::Sp,
        }
    }

    /// Fill `reads`, `writes`, `unit`, `mem` from the (allocated) operands.
    pub fn finish(&mut self) {
        let mut reads = RegList::default();
        let mut writes = RegList::default();
        let arch = |o: Opnd, l: &mut RegList| match o {
            Opnd::R(n) => l.push(ArchReg::R(n as u8)),
            Opnd::D(n) => {
                l.push(ArchReg::R(n as u8));
                l.push(ArchReg::R(n as u8 + 1));
            }
            Opnd::P(n) => l.push(ArchReg::P(n as u8)),
            _ => {}
        };
        for o in self.reg_uses() {
            arch(o, &mut reads);
        }
        for o in self.reg_defs() {
            arch(o, &mut writes);
        }
        self.reads = reads;
        self.writes = writes;
        self.unit = Self::classify_unit(&self.op);
        self.mem = match self.op {
            Op::Ld { space, ty, vec } => Some(MemInfo { space, kind: MemKind::Load, elem_bytes: ty.bytes() as u8, vec }),
            Op::St { space, ty, vec } => Some(MemInfo { space, kind: MemKind::Store, elem_bytes: ty.bytes() as u8, vec }),
            Op::Atom { space, ty, .. } => Some(MemInfo { space, kind: MemKind::Atomic, elem_bytes: ty.bytes() as u8, vec: 1 }),
            // A read-only global load of each lane's (first) texel, 4 bytes
            // (a texel's size depends on the texture bound at launch).
            Op::Tex { .. } => Some(MemInfo { space: Space::Global, kind: MemKind::Load, elem_bytes: 4, vec: 1 }),
            // The access it stands for (the decoupling pass sets it).
            Op::Enq(_) => self.mem,
            _ => None,
        };
    }
}

fn opnd_str(o: Opnd, allocated: bool) -> String {
    match o {
        Opnd::None => String::new(),
        Opnd::R(n) if allocated => format!("R{n}"),
        Opnd::D(n) if allocated => format!("R{}:R{}", n, n + 1),
        Opnd::P(n) if allocated => format!("P{n}"),
        Opnd::R(n) => format!("%v{n}"),
        Opnd::D(n) => format!("%vd{n}"),
        Opnd::P(n) => format!("%vp{n}"),
        Opnd::Imm(v) => {
            if (v as i64).unsigned_abs() < 1 << 20 {
                format!("{}", v as i64)
            } else {
                format!("0x{v:x}")
            }
        }
        Opnd::Sreg(s) => s.to_string(),
        Opnd::Sink => "_".into(),
        Opnd::Deq => "deq".into(),
    }
}

impl Inst {
    /// The instruction as text with architected (`allocated`) or virtual register names.
    pub fn text(&self, allocated: bool) -> String {
        let mut s = String::new();
        if let Some(g) = self.guard {
            s += &format!("@{}{} ", if g.neg { "!" } else { "" }, opnd_str(Opnd::P(g.pred), allocated));
        }
        s += &self.opcode;
        let mut ops: Vec<String> = Vec::new();
        let list = |v: &[Opnd]| -> Vec<String> { v.iter().filter(|o| **o != Opnd::None).map(|o| opnd_str(*o, allocated)).collect() };
        let dsts = list(&self.dst);
        let srcs = list(&self.src);
        let addr = self.addr.map(|a| {
            if a.base == Opnd::Deq {
                return format!("[deq.{}]", self.deq_queue().map_or("addr", DacQueue::name));
            }
            let b = opnd_str(a.base, allocated);
            match (b.is_empty(), a.off) {
                (true, o) => format!("[0x{o:x}]"),
                (false, 0) => format!("[{b}]"),
                (false, o) => format!("[{b}{o:+}]"),
            }
        });
        let group = |v: Vec<String>| if v.len() > 1 { format!("{{{}}}", v.join(", ")) } else { v.join("") };
        match self.op {
            Op::Setp { .. } => {
                ops.push(dsts.join("|"));
                ops.extend(srcs);
            }
            Op::St { .. } => {
                ops.extend(addr);
                ops.push(group(srcs));
            }
            Op::Ld { .. } => {
                ops.push(group(dsts));
                ops.extend(addr);
            }
            Op::Atom { .. } => {
                ops.extend(dsts);
                ops.extend(addr);
                ops.extend(srcs);
            }
            Op::Enq(_) => {
                ops.extend(addr);
                ops.extend(srcs);
            }
            Op::Pack(_) => {
                ops.extend(dsts);
                ops.push(group(srcs));
            }
            Op::Unpack(_) => {
                ops.push(group(dsts));
                ops.extend(srcs);
            }
            Op::Bra { target, .. } | Op::Call { target } => ops.push(format!("{:#x}", target * INST_BYTES)),
            _ => {
                ops.extend(dsts);
                ops.extend(srcs);
            }
        }
        if !ops.is_empty() {
            s += " ";
            s += &ops.join(", ");
        }
        s
    }
}
