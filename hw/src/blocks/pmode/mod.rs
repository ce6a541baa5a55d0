//! Warp pre-execution (P-mode) blocks: Kim et al., HPCA 2016 (seed 000),
//! sections 4 and 5.
//!
//! | block | what it is |
//! |---|---|
//! | [`pqueue`] | per-warp P-queue of pre-executed instructions (§5.1 "Operand collection", Fig. 9) |
//! | [`rename`] | N and P rename tables per warp + the SM-wide register availability vector (§5.1, §5.2) |
//! | [`simt_stack`] | IPDOM SIMT stack per warp, replicated for P-mode (§5 intro, §5.1 "Writeback") |
//! | [`mode_ctrl`] | per-warp mode bits, trigger / exit / halt and the P-mode skip rules (§5, §5.1) |
//! | [`pmode_unit`] | composition: dual-mode scoreboard + the four blocks above |
//!
//! | [`scoreboard`] | dual-mode scoreboard: N and P boards of pending/long bits (§4, Fig. 8) |
//!
//! Shared conventions of the family:
//! - Issue ports are numbered `iss0..iss{issue_ports-1}` (the paper's SM has two
//!   warp schedulers, Table 1), writeback ports `wb0..wb{wb_ports-1}`.
//! - Same-cycle operations on *different* warps never interact. Two *issue*
//!   ports naming the *same* warp in one cycle is outside the protocol (a warp
//!   belongs to one scheduler). The P-queue, rename, SIMT stack and mode
//!   controller define it the same way: the lowest-numbered port acts, a
//!   higher port naming a warp already commanded by a lower port is ignored
//!   (for the mode controller, "commanded" is "offered": `valid`; the higher
//!   port's action is STALL). **Exception: the scoreboard** merges same-warp
//!   updates from several issue ports (all writeback clears, then all issue
//!   sets; see [`scoreboard`]). In [`pmode_unit`] the two rules never
//!   disagree: the mode controller gives a higher port naming the warp of a
//!   lower valid port STALL, so its scoreboard strobes (`fire`, `skip`) are 0
//!   and the scoreboard sees at most one issue update per warp and cycle; the
//!   unit needs no gating of the scoreboard's inputs.
//! - Writeback ports all act, also on the same warp (they carry the results of
//!   different instructions): the scoreboard clears every named register, the
//!   P-queue marks every named entry ready, and the mode controller ends an
//!   episode if any of them is the triggering load.
//! - An episode start (`start_*` / `copy_*`) wins over every port operation on
//!   the same warp in the same cycle.
//! - A warp id `>= warps` (possible when `warps` is not a power of two) names
//!   no warp: commands naming it are ignored and per-warp status outputs read
//!   as those of a warp in reset state.
//! - Everything is synchronous; `rst` is active high and is the first input.

pub mod mode_ctrl;
pub mod pmode_unit;
pub mod pqueue;
pub mod rename;
pub mod simt_stack;

use crate::params::ParamSpec;

/// Warps per SM (Table 1: 48).
pub const WARPS: ParamSpec = ParamSpec {
    name: "warps",
    default: 48,
    min: 1,
    max: 64,
    doc: "warps per SM (Table 1: 48)",
};

/// Architected registers per warp (§2: at most 63).
pub const REGS: ParamSpec = ParamSpec {
    name: "regs",
    default: 63,
    min: 2,
    max: 255,
    doc: "architected registers per warp (§2: 63; id width clog2(regs))",
};

/// Physical warp registers usable for renaming (§5: the last 128 of 1024).
pub const RENAME_REGS: ParamSpec = ParamSpec {
    name: "rename_regs",
    default: 128,
    min: 2,
    max: 1024,
    doc: "physical registers available for renaming (§5: 128, ids 896-1023; id width clog2)",
};

/// Register-file banks seen by the same-bank-first search (§5: four banks).
pub const BANKS: ParamSpec = ParamSpec {
    name: "banks",
    default: 4,
    min: 1,
    max: 32,
    doc: "register banks (§5: 4); power of two dividing rename_regs; bank = id mod banks",
};

/// P-queue entries per warp (Table 1: 8).
pub const ENTRIES: ParamSpec = ParamSpec {
    name: "entries",
    default: 8,
    min: 1,
    max: 64,
    doc: "P-queue entries per warp (Table 1 / §5.1: 8)",
};

/// Width of the signed PC offset in a P-queue entry (§5.1: 10 bits).
pub const OFFSET_BITS: ParamSpec = ParamSpec {
    name: "offset_bits",
    default: 10,
    min: 2,
    max: 32,
    doc: "signed byte offset from the episode's base PC (§5.1: 10 bits, +-512 bytes)",
};

/// Width of a PC (§5: 32-bit PCs in the SIMT stack and the P-queue base).
pub const PC_BITS: ParamSpec = ParamSpec {
    name: "pc_bits",
    default: 32,
    min: 8,
    max: 64,
    doc: "PC width (§5: 32)",
};

/// SIMT stack depth (§5: 8 entries).
pub const DEPTH: ParamSpec = ParamSpec {
    name: "depth",
    default: 8,
    min: 2,
    max: 32,
    doc: "SIMT stack entries per warp and mode (§5: 8)",
};

/// Threads per warp (Table 1: 32).
pub const LANES: ParamSpec = ParamSpec {
    name: "lanes",
    default: 32,
    min: 1,
    max: 64,
    doc: "threads per warp = active-mask width (Table 1: 32)",
};

/// Bytes per instruction (the PCs of Figure 5 step by 8).
pub const INST_BYTES: ParamSpec = ParamSpec {
    name: "inst_bytes",
    default: 8,
    min: 1,
    max: 16,
    doc: "bytes per instruction: fall-through PC = PC + inst_bytes (Fig. 5: 8)",
};

/// Issue ports (Table 1: two warp schedulers per SM).
pub const ISSUE_PORTS: ParamSpec = ParamSpec {
    name: "issue_ports",
    default: 2,
    min: 1,
    max: 4,
    doc: "issue ports = warp schedulers per SM (Table 1: 2)",
};

/// Writeback ports.
pub const WB_PORTS: ParamSpec = ParamSpec {
    name: "wb_ports",
    default: 2,
    min: 1,
    max: 4,
    doc: "writeback ports (one per scheduler's result bus; 2)",
};

/// Bit width of an index into `n` things (1 for n <= 2), as a `u32`.
pub(crate) fn idx_bits(n: u32) -> u32 {
    crate::params::clog2(n as u64)
}

pub mod scoreboard;

use crate::ir::{lit, Sig};
use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] =
    &[&scoreboard::BLOCK, &pqueue::BLOCK, &rename::BLOCK, &simt_stack::BLOCK, &mode_ctrl::BLOCK, &pmode_unit::BLOCK];

/// `warp < warps` (constant 1 when every id of the warp width names a warp).
pub(crate) fn warp_ok(warp: Sig, warps: u32) -> Sig {
    if warps as u64 == 1u64 << warp.width() {
        lit(1, 1)
    } else {
        warp.lt(warps as u64)
    }
}

/// `x < n` for an index `x` (constant 1 when every value of its width is below `n`).
pub(crate) fn below(x: Sig, n: u32) -> Sig {
    if n as u64 >= 1u64 << x.width() {
        lit(1, 1)
    } else {
        x.lt(n as u64)
    }
}

/// `(x + 1) mod n` for an index `x < n`.
pub(crate) fn inc_mod(x: Sig, n: u32) -> Sig {
    if n as u64 == 1u64 << x.width() {
        x + 1u64
    } else {
        crate::ir::mux(x.eq((n - 1) as u64), lit(0, x.width()), x + 1u64)
    }
}

/// Address of word `idx` of `warp`'s row in a memory of `warps x per` words
/// (`warp * per + idx`, a shift when `per` is a power of two). Only meaningful
/// for `warp < warps` and `idx < per`: callers gate writes and mask reads.
pub(crate) fn row_addr(warp: Sig, idx: Sig, warps: u32, per: u32) -> Sig {
    let aw = idx_bits(warps * per);
    let base = if per.is_power_of_two() {
        warp.zext(aw) << per.trailing_zeros()
    } else {
        (warp.zext(aw) * lit(per as u64, aw)).trunc(aw)
    };
    base + idx.resize(aw)
}
