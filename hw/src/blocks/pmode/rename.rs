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
//! | `init_en` | in | 1 | kernel start: load `used` and clear every table |
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
//! register [is] available in the same bank as the original destination
//! register", "the first unused register"). `iss{k}_free = avail_k != 0`.
//! Hardware: per port one masked and one unmasked priority encoder over the
//! vector. Frees of this cycle are not visible to this cycle's search.
//!
//! # When a rename register returns to the vector
//!
//! A rename register always has exactly one owner, and only the owner frees it:
//! 1. `alloc` (P-mode): `used[c] = 1`, `P[dst] = (c, renamed)`. The owner is the
//!    P-queue entry the instruction is recorded in (the `pmode_unit` only
//!    renames instructions it records, see `mode_ctrl`). Overwriting `P[dst]`
//!    later frees nothing: the entry still owns the old register.
//! 2. `reuse` (N-mode, the entry is popped): `N[dst] = (reuse_phys, renamed)`;
//!    ownership passes to the N mapping. If `N[dst]` was renamed to another
//!    register, that register is **freed** (mapping overwritten).
//! 3. `write` (N-mode, normal execution of an instruction with a destination):
//!    if `N[dst].renamed`, `N[dst].id` is **freed** and the bit cleared — the new
//!    value goes to the architected register, the reused one is dead.
//! 4. `rel` (warp exit): same as `write` for `rel_reg` of `rel_warp`. The SM's
//!    warp-exit sequence releases every architected register of the warp before
//!    the slot is reused (the N table outlives episodes, so without this a
//!    finished warp's reused registers would leak).
//! 5. `init_en` (kernel start): `used = init_used`, all tables cleared.
//!
//! An episode start clears only the P table's renamed bits (its registers are
//! owned by P-queue entries). Entries are never dropped unreused while they
//! own a register: the `pmode_unit` starts an episode only on an empty P-queue
//! and records nothing it cannot rename — so "entry dropped unreused" does not
//! occur in the composed unit.
//!
//! Safety of a free (no late write into a reallocated register): a freed
//! register was last written by a P-mode instruction whose result was reused,
//! i.e. whose writeback already happened (`reuse_rdy`). Readers of the old
//! value read it in the operand collector before a younger instruction's
//! result can be written — the same assumption the baseline scoreboard makes
//! for architected registers (it tracks RAW/WAW only).
//!
//! # Edge order
//!
//! 1. `rst`: `used = 0`, all renamed bits 0, ids 0. 2. else `init_en`: as above,
//!    nothing else happens. 3. else ports k = 0..K-1 in order (a port whose warp
//!    equals that of a lower port with any command is ignored; a port whose warp
//!    is `start_warp` under `start_en` ignores `alloc`):
//!    - `pmode = 1`: `alloc` acts if `free_k` and `dst < regs`; `reuse`, `write`
//!      are ignored.
//!    - `pmode = 0`: `reuse` acts if `dst < regs` (and `write` on the same port is
//!      then ignored), else `write` acts if `dst < regs`; `alloc` is ignored.
//! 4. `start_en`: clear the P renamed bits of `start_warp`.
//! 5. `rel_en` (after the ports, so it wins): release `rel_warp.rel_reg`.
//!
//! Frees and allocations commute within a cycle: a register freed this cycle
//! was in use at its start and so is no candidate.
//!
//! # Storage (default parameters)
//!
//! Per warp 2 tables × 63 × (7 + 1) = **1008 bits** (paper §5.3: 1008), plus the
//! **128-bit** vector per SM (paper: 128). Ids are memories (warps·63 × 7, per
//! table); the renamed bits are flip-flops (one 63-bit row per warp and table)
//! so an episode start or `init_en` clears them in one cycle. Equal to the
//! paper.

use super::{idx_bits, BANKS, ISSUE_PORTS, REGS, RENAME_REGS, WARPS};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of `rename`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameParams {
    pub warps: u32,
    pub regs: u32,
    pub rename_regs: u32,
    pub banks: u32,
    pub issue_ports: u32,
}

impl Default for RenameParams {
    fn default() -> Self {
        RenameParams { warps: 48, regs: 63, rename_regs: 128, banks: 4, issue_ports: 2 }
    }
}

impl BlockParams for RenameParams {
    const SPECS: &'static [ParamSpec] = &[WARPS, REGS, RENAME_REGS, BANKS, ISSUE_PORTS];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let r = RenameParams {
            warps: p.get_u32("warps"),
            regs: p.get_u32("regs"),
            rename_regs: p.get_u32("rename_regs"),
            banks: p.get_u32("banks"),
            issue_ports: p.get_u32("issue_ports"),
        };
        check_banks(p, r.banks, r.rename_regs)?;
        Ok(r)
    }
}

/// `banks` must be a power of two dividing `rename_regs`.
pub(crate) fn check_banks(p: &Params, banks: u32, rename_regs: u32) -> Result<(), ParamError> {
    if !banks.is_power_of_two() || !rename_regs.is_multiple_of(banks) {
        return Err(p.invalid(format!(
            "banks ({banks}) must be a power of two dividing rename_regs ({rename_regs})"
        )));
    }
    Ok(())
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
}

/// The paper's figures (§5.3) for this parameter set: two tables of
/// `regs × (clog2(rename_regs) + 1)` bits per warp, one bit per rename
/// register per SM.
pub fn paper_storage(p: &RenameParams) -> Vec<(&'static str, u64)> {
    let table = p.regs as u64 * (p.phys_bits() as u64 + 1);
    vec![
        ("rename table bits per warp (N + P)", 2 * table),
        ("register availability vector bits per SM", p.rename_regs as u64),
        ("rename bits per SM", 2 * table * p.warps as u64 + p.rename_regs as u64),
    ]
}

/// Flip-flop + memory bits this block's hardware is designed to have: equal to
/// the paper's figure.
pub fn planned_storage(p: &RenameParams) -> Vec<(&'static str, u64)> {
    let wr = p.warps as u64 * p.regs as u64;
    vec![
        ("N + P table ids (memories)", 2 * wr * p.phys_bits() as u64),
        ("N + P renamed bits (flops)", 2 * wr),
        ("availability vector (flops)", p.rename_regs as u64),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let p = Params::resolve("rename", RenameParams::SPECS, &[]).unwrap();
        assert_eq!(RenameParams::from_params(&p).unwrap(), RenameParams::default());
        let d = RenameParams::default();
        assert_eq!(paper_storage(&d)[0].1, 1008);
        assert_eq!(paper_storage(&d)[1].1, 128);
        let planned: u64 = planned_storage(&d).iter().map(|x| x.1).sum();
        assert_eq!(planned, paper_storage(&d)[2].1);
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
