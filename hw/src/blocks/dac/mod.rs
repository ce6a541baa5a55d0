//! Decoupled affine computation (DAC) blocks: Wang and Lin, "Decoupled Affine
//! Computation for SIMT GPUs", ISCA 2017 (seed 003), sections 3 and 4.
//!
//! One affine warp per SM computes affine tuples (`base + tid * offset`) once
//! for all non-affine warps and sends them, with `enq`, through the affine
//! tuple queue ([`atq`]) to two expansion units: the address expansion unit
//! ([`aeu`], §4.2) turns a tuple into per-warp *warp address records* for the
//! per-warp address queue ([`pwaq`]); the predicate expansion unit ([`peu`],
//! §4.3) turns a comparison into per-warp predicate masks for the per-warp
//! predicate queue ([`pwpq`]). Non-affine warps `deq` them. The affine warp's
//! control flow runs on its own two-level stack ([`affine_simt_stack`], §4.5).
//! [`dac_unit`] composes ATQ + AEU + PEU + PWAQ + PWPQ (Figure 9).
//!
//! This module holds the formats the blocks exchange: the packed affine tuple
//! (an ATQ entry), the warp address record (a PWAQ entry) and the CTA
//! configuration the expansion units walk. Defaults follow the paper's Table 1
//! (Fermi GTX 480): 48 warps per SM, 32 threads per warp, 128-byte L1 lines;
//! 8 concurrent CTAs per SM is the Fermi limit (the table does not list it).
//!
//! # Storage at the default parameters (bits; details in each block)
//!
//! | block | paper (§4.8) | this hardware | why it differs |
//! |---|---|---|---|
//! | `atq` | 24 entries, 393 B = 3144 | 6672 memory + 15 regs | full six-offset tuple, scalar operand, CTA set: 278 bits/entry vs 131 |
//! | `pwaq` | 192 entries, 1560 B = 12480 | 11904 memory + 288 regs | 62-bit record vs 65; per-warp pointers and flags counted |
//! | `pwpq` | 192 entries, 768 B = 6144 | 6144 memory + 288 regs | equal; per-warp pointers and flags counted |
//! | `affine_simt_stack` | 224 + 1536 B = 14080 | 14080 arrays + 69 regs | equal with 64-bit PC/RPC; depth, overflow, two counters |
//! | `aeu` | — ("2 ALUs") | 896 regs | walk contexts, latched tuple |
//! | `peu` | — | 1108 regs | as the AEU, plus 128 counter bits |
//! | `dac_unit` | 21768 (ATQ+PWAQ+PWPQ) | 24720 memory + 2595 regs | sum of the above |
//!
//! # Active threads (§4.5, §4.6)
//! An `enq` executes under the affine SIMT stack: only the threads on its
//! path have a value, and a warp with none of them does not execute the
//! matching `deq`. Both expansion units therefore take a `lane_mask` input,
//! 32 bits per warp slot: the threads of each warp for the tuple in the unit
//! (the stack's per-warp masks at the `enq`), held while the unit works on
//! the tuple. A warp with no active thread gets no record; the AEU's masks
//! name only active threads' units (a record of a pushed warp may be empty,
//! so `last` stays on its last record); the PEU's masks are 0 at inactive
//! threads.

use crate::clog2;
use crate::iface::Binder;
use crate::params::ParamSpec;

pub mod aeu;
pub mod affine_simt_stack;
pub mod atq;
pub mod dac_unit;
pub mod peu;
pub mod pwaq;
pub mod pwpq;
mod walk;

/// Threads per warp.
pub const WARP_SIZE: u32 = 32;
/// L1 line size in bytes (Fermi): 32 words.
pub const LINE_BYTES: u32 = 128;
/// Fermi's limit on threads per CTA; the walk counters are sized for it.
pub const MAX_CTA_THREADS: u32 = 1024;

// The family's shared parameters, each stated once (a unit uses the same
// spec as its sub-blocks, renamed where the unit has several queues).

/// Non-affine warp slots per SM (Table 1: 48).
pub const WARPS: ParamSpec = ParamSpec {
    name: "warps",
    default: 48,
    min: 1,
    max: 64,
    doc: "non-affine warp slots per SM (one per-warp queue partition each)",
    source: "Table 1: 48",
};

/// Concurrent CTAs per SM (Fermi: 8).
pub const CTAS: ParamSpec = ParamSpec {
    name: "ctas",
    default: 8,
    min: 1,
    max: 16,
    doc: "concurrent CTAs per SM, one expansion walk context each",
    source: "Fermi's limit (the paper's Table 1 does not list it)",
};

/// Entries of a per-warp queue (PWAQ, PWPQ) per SM.
pub const QUEUE_ENTRIES: ParamSpec = ParamSpec {
    name: "entries",
    default: 192,
    min: 1,
    max: 4096,
    doc: "entries per SM, split evenly among the warps (a non-zero multiple of warps)",
    source: "section 4.8: 192 = 4 per warp",
};

/// `entries` must be a non-zero multiple of `warps` (PWAQ, PWPQ, dac_unit).
pub(crate) fn partitions(name: &str, entries: u32, warps: u32) -> Result<(), String> {
    if entries < warps || !entries.is_multiple_of(warps) {
        return Err(format!(
            "{name} ({entries}) must be a non-zero multiple of warps ({warps}): each warp gets {name}/warps slots"
        ));
    }
    Ok(())
}

/// The walk shape the two expansion units share (their parameters give it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpansionParams {
    /// Non-affine warp slots of the SM (Table 1: 48); one PWAQ / PWPQ partition each.
    pub warps: u32,
    /// Concurrent CTAs per SM (Fermi: 8); one walk context each.
    pub ctas: u32,
}

impl Default for ExpansionParams {
    fn default() -> Self {
        ExpansionParams { warps: 48, ctas: 8 }
    }
}

impl ExpansionParams {
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
    pub fn cta_bits(&self) -> u32 {
        clog2(self.ctas as u64)
    }
}

/// The CTA configuration inputs of the expansion units and the DAC unit
/// (widths in [`cta`]): per CTA slot its valid bit, block index and first
/// warp, and the block dimensions minus one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtaConfigIo<H> {
    pub valid: H,
    pub bidx: H,
    pub warp0: H,
    pub dim_x_m1: H,
    pub dim_y_m1: H,
    pub dim_z_m1: H,
}

impl<H> CtaConfigIo<H> {
    pub fn describe<B: Binder<H = H>>(b: &mut B, ctas: u32, warp_bits: u32) -> Self {
        CtaConfigIo {
            valid: b.input("cta_valid", ctas),
            bidx: b.input("cta_bidx", cta::BIDX_BITS * ctas),
            warp0: b.input("cta_warp0", warp_bits * ctas),
            dim_x_m1: b.input("blk_dim_x_m1", cta::DIM_X_M1_BITS),
            dim_y_m1: b.input("blk_dim_y_m1", cta::DIM_Y_M1_BITS),
            dim_z_m1: b.input("blk_dim_z_m1", cta::DIM_Z_M1_BITS),
        }
    }

    /// The six inputs in port order.
    pub fn as_array(&self) -> [&H; 6] {
        [&self.valid, &self.bidx, &self.warp0, &self.dim_x_m1, &self.dim_y_m1, &self.dim_z_m1]
    }
}

/// The packed affine tuple: one ATQ entry, and the `tuple` ports of the AEU
/// and PEU. Little-endian bit positions; ports carry it as 5 u64 words.
///
/// `value(thread) = base + otx*tid.x + oty*tid.y + otz*tid.z
///                       + obx*ctaid.x + oby*ctaid.y + obz*ctaid.z` (mod 2^32),
/// the paper's one base and six offsets (§4.4). `rhs` is the scalar operand of
/// a predicate tuple (`value OP rhs`); address tuples ignore it.
pub mod tuple {
    /// Base, then the six offsets in the order tid.x, tid.y, tid.z, ctaid.x,
    /// ctaid.y, ctaid.z, 32 bits each.
    pub const BASE: u32 = 0;
    /// Bit position of offset `i` (0..6).
    pub const fn off(i: u32) -> u32 {
        32 + 32 * i
    }
    pub const RHS: u32 = 224;
    /// 2-bit kind: [`KIND_ADDR`], [`KIND_DATA`], [`KIND_PRED`], [`KIND_RSVD`].
    pub const KIND: u32 = 256;
    /// 4-bit operation: the granularity for address tuples (bits 1:0), the
    /// comparison for predicate tuples (bits 2:0, bit 3 = signed).
    pub const OP: u32 = 258;
    /// 16 bits, bit `c` = CTA slot `c`: the CTAs the tuple is expanded for.
    /// The paper's one affine warp per SM enqueues for every CTA (all ones);
    /// an SM with one affine warp per CTA names that CTA's slot.
    pub const CTAS: u32 = 262;
    pub const BITS: u32 = 278;
    /// Number of u64 words of a packed tuple.
    pub const WORDS: usize = 5;

    /// `enq.addr`: expand to addresses for a later `deq.addr` (stores).
    pub const KIND_ADDR: u64 = 0;
    /// `enq.data`: as `enq.addr`, and the records are also L1 requests (loads).
    pub const KIND_DATA: u64 = 1;
    /// `enq.pred`: expand to predicate masks.
    pub const KIND_PRED: u64 = 2;
    /// Reserved: the dispatcher of [`super::dac_unit`] drops it.
    pub const KIND_RSVD: u64 = 3;

    pub const GRAN_BYTE: u64 = 0;
    pub const GRAN_HALF: u64 = 1;
    pub const GRAN_WORD: u64 = 2;
    // GRAN 3 is decoded as word (only bit 1 is looked at first).

    pub const CMP_LT: u64 = 0;
    pub const CMP_LE: u64 = 1;
    pub const CMP_GT: u64 = 2;
    pub const CMP_GE: u64 = 3;
    pub const CMP_EQ: u64 = 4;
    pub const CMP_NE: u64 = 5;
    /// Constant false (the encoding is complete: 6 and 7 are defined).
    pub const CMP_NEVER: u64 = 6;
    /// Constant true.
    pub const CMP_ALWAYS: u64 = 7;
    /// OP bit 3: compare as signed 32-bit integers.
    pub const CMP_SIGNED: u64 = 8;
}

/// A warp address record (one PWAQ entry, §4.2 ⑤): the accessed units of one
/// aligned region of `32 * g` bytes (`g` = 1, 2, 4 for byte, half, word), one
/// mask bit per unit. For word granularity the region is the 128-byte line;
/// for half and byte it is a 64- or 32-byte part of the line named by `sect`.
/// Unit byte address of mask bit `i`: `line*128 + sect*32*g + i*g`.
pub mod record {
    pub const MASK: u32 = 0;
    /// 128-byte line address, `addr[31:7]`.
    pub const LINE: u32 = 32;
    pub const LINE_BITS: u32 = 25;
    /// Part of the line: `addr[6:5]` for bytes, `addr[6]` for halves, 0 for words.
    pub const SECT: u32 = 57;
    pub const GRAN: u32 = 59;
    /// Set on the last record of one warp for one tuple.
    pub const LAST: u32 = 61;
    pub const BITS: u32 = 62;
}

/// CTA configuration inputs of the expansion units.
pub mod cta {
    /// Per CTA slot: ctaid.x, ctaid.y, ctaid.z, 16 bits each, packed LSB first.
    pub const BIDX_BITS: u32 = 48;

    /// Whether a block index fits the `cta_bidx` inputs.
    pub fn bid_fits(bid: [u32; 3]) -> bool {
        bid.iter().all(|&b| b < 1 << (BIDX_BITS / 3))
    }
    /// Block dimensions are given minus one (no illegal zero): x, y up to
    /// 1024, z up to 64 (Fermi).
    pub const DIM_X_M1_BITS: u32 = 10;
    pub const DIM_Y_M1_BITS: u32 = 10;
    pub const DIM_Z_M1_BITS: u32 = 6;
}

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[&atq::BLOCK, &aeu::BLOCK, &peu::BLOCK, &pwaq::BLOCK, &pwpq::BLOCK, &affine_simt_stack::BLOCK, &dac_unit::BLOCK];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{BlockParams, ParamError, Params};
    use crate::registry::Block;

    fn resolve<P: BlockParams>(ov: &[&str]) -> Result<P, ParamError> {
        let ov = Params::parse_assignments(&ov.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        P::from_params(&Params::resolve("b", P::SPECS, &ov)?)
    }

    #[test]
    fn partitions_must_divide() {
        assert!(matches!(resolve::<pwaq::PwaqParams>(&["entries=100"]), Err(ParamError::Invalid { .. })));
        assert!(matches!(resolve::<pwpq::PwpqParams>(&["warps=8", "entries=4"]), Err(ParamError::Invalid { .. })));
        assert!(matches!(resolve::<dac_unit::DacUnitParams>(&["pwpq_entries=50"]), Err(ParamError::Invalid { .. })));
        assert_eq!(resolve::<pwaq::PwaqParams>(&["warps=8", "entries=8"]).unwrap().depth(), 1);
        assert!(matches!(resolve::<atq::AtqParams>(&["entries=0"]), Err(ParamError::OutOfRange { .. })));
    }

    /// The storage table of the module documentation (default parameters).
    #[test]
    fn storage_against_the_paper() {
        let bytes = |b: u64| b * 8;
        let paper = |a: crate::registry::StorageAccount| a.paper_bits();
        let emitted = |a: crate::registry::StorageAccount| a.expected_bits() as u64;
        assert_eq!(paper(atq::AtqParams::default().storage()), bytes(393));
        assert_eq!(emitted(atq::AtqParams::default().storage()), 6672 + 15);
        assert_eq!(paper(pwaq::PwaqParams::default().storage()), bytes(1560));
        assert_eq!(emitted(pwaq::PwaqParams::default().storage()), 11904 + 288);
        assert_eq!(paper(pwpq::PwpqParams::default().storage()), bytes(768));
        assert_eq!(emitted(pwpq::PwpqParams::default().storage()), 6144 + 288);
        let s = affine_simt_stack::AffineSimtStackParams::default();
        assert_eq!(paper(s.storage()), bytes(224 + 1536));
        assert_eq!(emitted(s.storage()), 4 + 1 + 64 + 1792 + 12288);
        assert_eq!(emitted(aeu::AeuParams::default().storage()), 896);
        assert_eq!(paper(aeu::AeuParams::default().storage()), 0);
        assert_eq!(emitted(peu::PeuParams::default().storage()), 1108);
        let u = dac_unit::DacUnitParams::default();
        assert_eq!(paper(u.storage()), bytes(393 + 1560 + 768));
        assert_eq!(emitted(u.storage()), 2595 + 24720);
        assert_eq!(record::BITS, record::LAST + 1);
        assert_eq!(tuple::CTAS, tuple::OP + 4);
        assert_eq!(tuple::BITS, tuple::CTAS + CTAS.max as u32);
    }
}
