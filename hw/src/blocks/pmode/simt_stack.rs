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
//! writes up to three entries.

use super::{idx_bits, DEPTH, INST_BYTES, ISSUE_PORTS, LANES, PC_BITS, WARPS};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Parameters of `simt_stack`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimtStackParams {
    pub warps: u32,
    pub depth: u32,
    pub lanes: u32,
    pub pc_bits: u32,
    pub inst_bytes: u32,
    pub issue_ports: u32,
}

impl Default for SimtStackParams {
    fn default() -> Self {
        SimtStackParams { warps: 48, depth: 8, lanes: 32, pc_bits: 32, inst_bytes: 8, issue_ports: 2 }
    }
}

impl BlockParams for SimtStackParams {
    const SPECS: &'static [ParamSpec] = &[WARPS, DEPTH, LANES, PC_BITS, INST_BYTES, ISSUE_PORTS];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(SimtStackParams {
            warps: p.get_u32("warps"),
            depth: p.get_u32("depth"),
            lanes: p.get_u32("lanes"),
            pc_bits: p.get_u32("pc_bits"),
            inst_bytes: p.get_u32("inst_bytes"),
            issue_ports: p.get_u32("issue_ports"),
        })
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
}

/// The paper's figure (§5.3) for this parameter set: the P-mode copy,
/// depth × (2 PCs + mask) per warp.
pub fn paper_storage(p: &SimtStackParams) -> Vec<(&'static str, u64)> {
    let copy = p.depth as u64 * p.entry_bits();
    vec![
        ("SIMT stack copy bits per warp", copy),
        ("SIMT stack copy bits per SM", copy * p.warps as u64),
    ]
}

/// Flip-flop bits this block's hardware is designed to have (N stack is
/// baseline hardware, P stack is the P-mode overhead).
pub fn planned_storage(p: &SimtStackParams) -> Vec<(&'static str, u64)> {
    let per_stack = p.depth as u64 * p.entry_bits() + p.top_bits() as u64;
    vec![
        ("N stacks incl. top (baseline)", per_stack * p.warps as u64),
        ("P stacks incl. top (P-mode copy)", per_stack * p.warps as u64),
        ("overflow flag", 1),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_paper() {
        let p = Params::resolve("simt_stack", SimtStackParams::SPECS, &[]).unwrap();
        assert_eq!(SimtStackParams::from_params(&p).unwrap(), SimtStackParams::default());
        let d = SimtStackParams::default();
        assert_eq!(d.entry_bits(), 96);
        assert_eq!(paper_storage(&d)[0].1, 768);
        assert_eq!(planned_storage(&d)[1].1, 771 * 48);
    }
}
