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

use crate::iface::Binder;
use crate::params::ParamSpec;

// The family's parameters, each stated once: every P-mode block and
// `pmode_unit` use these specs, so a unit's range is its sub-blocks' range.
// The scoreboard (the block the SM always binds) had drifted to wider
// ranges of its own (warps up to 1024, regs 1..=1024, wb_ports up to 8);
// the family now has one range per parameter: warps up to 64 (no SM has
// more), regs 2..=255 (SASS register ids; the SM maps PTX registers onto
// at most 63 by liveness), wb_ports up to 8 (the scoreboard's, for an SM
// with several result buses per scheduler).

/// Warps per SM (Table 1: 48).
pub const WARPS: ParamSpec =
    ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "warps per SM", source: "Table 1" };

/// Architected registers per warp (§2: at most 63).
pub const REGS: ParamSpec = ParamSpec {
    name: "regs",
    default: 63,
    min: 2,
    max: 255,
    doc: "architected registers per warp (register ids are clog2(regs) bits)",
    source: "section 2: 63",
};

/// Physical warp registers usable for renaming (§5: the last 128 of 1024).
pub const RENAME_REGS: ParamSpec = ParamSpec {
    name: "rename_regs",
    default: 128,
    min: 2,
    max: 1024,
    doc: "physical registers available for renaming (ids are clog2 bits)",
    source: "section 5: 128, ids 896-1023",
};

/// Register-file banks seen by the same-bank-first search (§5: four banks).
pub const BANKS: ParamSpec = ParamSpec {
    name: "banks",
    default: 4,
    min: 1,
    max: 32,
    doc: "register banks, a power of two dividing rename_regs; bank = id mod banks",
    source: "section 5: 4",
};

/// P-queue entries per warp (Table 1: 8). 0 is the paper's "without
/// P-queue" (§5.1, the sensitivity study of §6): nothing is recorded, so
/// nothing is reused and P-mode only pre-loads.
pub const ENTRIES: ParamSpec = ParamSpec {
    name: "entries",
    default: 8,
    min: 0,
    max: 64,
    doc: "P-queue entries per warp (0: no P-queue, no reuse)",
    source: "Table 1, section 5.1",
};

/// Width of the signed PC offset in a P-queue entry (§5.1: 10 bits).
pub const OFFSET_BITS: ParamSpec = ParamSpec {
    name: "offset_bits",
    default: 10,
    min: 2,
    max: 32,
    doc: "signed byte offset from the episode's base PC",
    source: "section 5.1: 10 bits, +-512 bytes",
};

/// Width of a PC (§5: 32-bit PCs in the SIMT stack and the P-queue base).
pub const PC_BITS: ParamSpec = ParamSpec { name: "pc_bits", default: 32, min: 8, max: 64, doc: "PC width", source: "section 5" };

/// SIMT stack depth (§5: 8 entries).
pub const DEPTH: ParamSpec =
    ParamSpec { name: "depth", default: 8, min: 2, max: 32, doc: "SIMT stack entries per warp and mode", source: "section 5" };

/// Threads per warp (Table 1: 32).
pub const LANES: ParamSpec =
    ParamSpec { name: "lanes", default: 32, min: 1, max: 64, doc: "threads per warp = active-mask width", source: "Table 1" };

/// What happens to a reused result's rename register (§5.2): 0 = the N
/// table points the architected register at it until N-mode rewrites that
/// register (the paper's renaming); 1 = the value is moved into the
/// architected register and the rename register freed at once (the
/// register-to-register move §5.2 names and rejects for its energy).
pub const RELEASE: ParamSpec = ParamSpec {
    name: "release",
    default: 0,
    min: 0,
    max: 1,
    doc: "reused result: 0 = renamed in the N table until rewritten, 1 = moved home and its register freed",
    source: "section 5.2",
};

/// Bytes per instruction (the PCs of Figure 5 step by 8).
pub const INST_BYTES: ParamSpec = ParamSpec {
    name: "inst_bytes",
    default: 8,
    min: 1,
    max: 16,
    doc: "bytes per instruction: fall-through PC = PC + inst_bytes",
    source: "Figure 5",
};

/// Issue ports (Table 1: two warp schedulers per SM).
pub const ISSUE_PORTS: ParamSpec = ParamSpec {
    name: "issue_ports",
    default: 2,
    min: 1,
    max: 4,
    doc: "issue ports = warp schedulers per SM",
    source: "Table 1: 2 schedulers",
};

/// Fetch ports of the P-mode unit: the P-queue head is matched at fetch
/// (§5.2), once per fetched instruction.
pub const FETCH_PORTS: ParamSpec = ParamSpec {
    name: "fetch_ports",
    default: 2,
    min: 1,
    max: 2,
    doc: "fetch ports: instructions fetched per cycle, each matched against its warp's P-queue head",
    source: "section 4: at most two instructions fetched per cycle; section 5.2: the head is matched at fetch",
};

/// Writeback ports.
pub const WB_PORTS: ParamSpec = ParamSpec {
    name: "wb_ports",
    default: 2,
    min: 1,
    max: 8,
    doc: "writeback ports",
    source: "not in the paper: one result bus per scheduler",
};

/// Source registers per instruction. The paper's instructions read two (the
/// P-queue entry of Figure 9 records two sources); the SM's PTX reads up to
/// eight (a 3-source `fma` of 64-bit pairs and a guard predicate).
pub const SRCS: ParamSpec = ParamSpec {
    name: "srcs",
    default: 2,
    min: 1,
    max: 8,
    doc: "source operands per instruction",
    source: "P-queue entry (section 5.1): two sources",
};

/// Destination registers per instruction. The paper's instructions write one;
/// the SM's write up to four (a 64-bit result is an aligned pair, `ld.v4`).
/// Destination 0 keeps the names `dst` / `dst_vld`, destination `d > 0` is
/// `dst{d}` / `dst{d}_vld` (and so on for every per-destination port), so at
/// `dsts = 1` every block is the paper's.
pub const DSTS: ParamSpec = ParamSpec {
    name: "dsts",
    default: 1,
    min: 1,
    max: 4,
    doc: "destination registers per instruction",
    source: "P-queue entry (section 5.1): one destination",
};

/// The name of destination `d`'s variant of a per-destination port `base`:
/// `base` for destination 0, `base{d}` for the others (`dst`, `dst1`, ...;
/// `pdst`, `pdst1`, ...).
pub fn per_dst(base: &str, d: u32) -> String {
    if d == 0 {
        base.to_string()
    } else {
        format!("{base}{d}")
    }
}

/// `offset_bits` must not exceed `pc_bits` (pqueue, pmode_unit).
pub(crate) fn offset_fits(offset_bits: u32, pc_bits: u32) -> Result<(), String> {
    if offset_bits > pc_bits {
        return Err(format!("offset_bits ({offset_bits}) must not exceed pc_bits ({pc_bits})"));
    }
    Ok(())
}

/// `banks` must be a power of two dividing `rename_regs` (rename, pmode_unit).
pub(crate) fn banks_divide(banks: u32, rename_regs: u32) -> Result<(), String> {
    if !banks.is_power_of_two() || !rename_regs.is_multiple_of(banks) {
        return Err(format!("banks ({banks}) must be a power of two dividing rename_regs ({rename_regs})"));
    }
    Ok(())
}

/// A register operand of an instruction: `{name}` (the register id) and
/// `{name}_vld`. The family's sub-bundle for sources and destinations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand<H> {
    pub reg: H,
    pub vld: H,
}

impl<H> Operand<H> {
    /// Declare the two inputs of operand `name` (`reg_bits` wide id).
    pub fn describe<B: Binder<H = H>>(b: &mut B, name: &str, reg_bits: u32) -> Self {
        Operand { reg: b.input(name.to_string(), reg_bits), vld: b.input(format!("{name}_vld"), 1) }
    }
}

pub mod scoreboard;

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] =
    &[&scoreboard::BLOCK, &pqueue::BLOCK, &rename::BLOCK, &simt_stack::BLOCK, &mode_ctrl::BLOCK, &pmode_unit::BLOCK];

