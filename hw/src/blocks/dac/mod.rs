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
//! | `atq` | 24 entries, 393 B = 3144 | 6288 memory + 15 regs | full six-offset tuple + scalar operand: 262 bits/entry vs 131 |
//! | `pwaq` | 192 entries, 1560 B = 12480 | 11904 memory + 288 regs | 62-bit record vs 65; per-warp pointers and flags counted |
//! | `pwpq` | 192 entries, 768 B = 6144 | 6144 memory + 288 regs | equal; per-warp pointers and flags counted |
//! | `affine_simt_stack` | 224 + 1536 B = 14080 | 14080 arrays + 69 regs | equal with 64-bit PC/RPC; depth, overflow, two counters |
//! | `aeu` | — ("2 ALUs") | 895 regs | walk contexts, latched tuple |
//! | `peu` | — | 1106 regs | as the AEU, plus 128 counter bits |
//! | `dac_unit` | 21768 (ATQ+PWAQ+PWPQ) | 24336 memory + 2592 regs | sum of the above |

use crate::clog2;
use crate::params::{BlockParams, ParamError, ParamSpec, Params};

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

/// Parameters of the two expansion units (AEU, PEU): what their walk over
/// the warps of the concurrent CTAs is sized by.
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

impl BlockParams for ExpansionParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warp slots per SM (Table 1: 48)" },
        ParamSpec {
            name: "ctas",
            default: 8,
            min: 1,
            max: 16,
            doc: "concurrent CTAs per SM (Fermi: 8), one walk context each",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(ExpansionParams { warps: p.get_u32("warps"), ctas: p.get_u32("ctas") })
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
    pub const BITS: u32 = 262;
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
    /// Block dimensions are given minus one (no illegal zero): x, y up to
    /// 1024, z up to 64 (Fermi).
    pub const DIM_X_M1_BITS: u32 = 10;
    pub const DIM_Y_M1_BITS: u32 = 10;
    pub const DIM_Z_M1_BITS: u32 = 6;
}

/// The paper's storage figure for a block, scaled to the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaperStorage {
    /// Bits the paper accounts (393 bytes = 3144 bits for the ATQ, ...).
    pub bits: u64,
    /// Where the figure comes from.
    pub source: &'static str,
}

/// Storage of the hardware as specified: flip-flops and memory bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwStorage {
    pub flop_bits: u64,
    pub mem_bits: u64,
}

impl HwStorage {
    pub fn total(&self) -> u64 {
        self.flop_bits + self.mem_bits
    }
}

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[&atq::BLOCK, &aeu::BLOCK, &peu::BLOCK, &pwaq::BLOCK, &pwpq::BLOCK, &affine_simt_stack::BLOCK, &dac_unit::BLOCK];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{BlockParams, ParamError, Params};

    fn resolve<P: BlockParams>(ov: &[&str]) -> Result<P, ParamError> {
        let ov = Params::parse_assignments(&ov.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        P::from_params(&Params::resolve("b", P::SPECS, &ov)?)
    }

    #[test]
    fn defaults_are_the_papers() {
        assert_eq!(resolve::<atq::AtqParams>(&[]).unwrap(), atq::AtqParams::default());
        assert_eq!(resolve::<aeu::AeuParams>(&[]).unwrap(), aeu::AeuParams::default());
        assert_eq!(resolve::<peu::PeuParams>(&[]).unwrap(), peu::PeuParams::default());
        assert_eq!(resolve::<pwaq::PwaqParams>(&[]).unwrap(), pwaq::PwaqParams::default());
        assert_eq!(resolve::<pwpq::PwpqParams>(&[]).unwrap(), pwpq::PwpqParams::default());
        assert_eq!(
            resolve::<affine_simt_stack::AffineSimtStackParams>(&[]).unwrap(),
            affine_simt_stack::AffineSimtStackParams::default()
        );
        assert_eq!(resolve::<dac_unit::DacUnitParams>(&[]).unwrap(), dac_unit::DacUnitParams::default());
        assert_eq!(atq::AtqParams::default().entries, 24);
        assert_eq!(pwaq::PwaqParams::default().depth(), 4);
        assert_eq!(affine_simt_stack::AffineSimtStackParams::default().depth, 8);
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
        let a = atq::AtqParams::default();
        assert_eq!(atq::paper_storage(&a).unwrap().bits, bytes(393));
        assert_eq!(atq::hw_storage(&a), HwStorage { flop_bits: 15, mem_bits: 6288 });
        let q = pwaq::PwaqParams::default();
        assert_eq!(pwaq::paper_storage(&q).unwrap().bits, bytes(1560));
        assert_eq!(pwaq::hw_storage(&q), HwStorage { flop_bits: 288, mem_bits: 11904 });
        let q = pwpq::PwpqParams::default();
        assert_eq!(pwpq::paper_storage(&q).unwrap().bits, bytes(768));
        assert_eq!(pwpq::hw_storage(&q), HwStorage { flop_bits: 288, mem_bits: 6144 });
        let s = affine_simt_stack::AffineSimtStackParams::default();
        assert_eq!(affine_simt_stack::paper_storage(&s).unwrap().bits, bytes(224 + 1536));
        assert_eq!(affine_simt_stack::hw_storage(&s), HwStorage { flop_bits: 4 + 1 + 64, mem_bits: 1792 + 12288 });
        assert_eq!(aeu::hw_storage(&aeu::AeuParams::default()).flop_bits, 895);
        assert_eq!(aeu::paper_storage(&aeu::AeuParams::default()), None);
        assert_eq!(peu::hw_storage(&peu::PeuParams::default()).flop_bits, 1106);
        let u = dac_unit::DacUnitParams::default();
        assert_eq!(dac_unit::paper_storage(&u).unwrap().bits, bytes(393 + 1560 + 768));
        assert_eq!(dac_unit::hw_storage(&u), HwStorage { flop_bits: 2592, mem_bits: 24336 });
        assert_eq!(record::BITS, record::LAST + 1);
        assert_eq!(tuple::BITS, tuple::OP + 4);
    }

    /// The accounting above is the generated hardware's: flip-flops and
    /// memory bits counted from the emitted IR, at the defaults and at other
    /// sizes.
    #[test]
    fn storage_accounting_is_the_generated_hardwares() {
        use crate::stats::Storage;
        let check = |block: &str, ov: &[&str], want: HwStorage| {
            let info = crate::registry::find(block).unwrap();
            let ov = Params::parse_assignments(&ov.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
            let m = info.elaborate(&info.params(&ov).unwrap()).unwrap();
            let st = Storage::of(&m);
            assert_eq!((st.ff_bits(), st.mem_bits()), (want.flop_bits, want.mem_bits), "{block} {ov:?}");
        };
        for ov in [&[][..], &["entries=1"], &["entries=5"]] {
            let p = resolve::<atq::AtqParams>(ov).unwrap();
            check("atq", ov, atq::hw_storage(&p));
        }
        for ov in [&[][..], &["warps=3", "entries=21"], &["warps=64", "entries=64"]] {
            check("pwaq", ov, pwaq::hw_storage(&resolve::<pwaq::PwaqParams>(ov).unwrap()));
            check("pwpq", ov, pwpq::hw_storage(&resolve::<pwpq::PwpqParams>(ov).unwrap()));
        }
        for ov in [&[][..], &["warps=12", "ctas=3"], &["warps=1", "ctas=1"]] {
            check("aeu", ov, aeu::hw_storage(&resolve::<aeu::AeuParams>(ov).unwrap()));
            check("peu", ov, peu::hw_storage(&resolve::<peu::PeuParams>(ov).unwrap()));
        }
        for ov in [&[][..], &["warps=3", "depth=2", "pc_bits=8"]] {
            let p = resolve::<affine_simt_stack::AffineSimtStackParams>(ov).unwrap();
            check("affine_simt_stack", ov, affine_simt_stack::hw_storage(&p));
        }
        for ov in [&[][..], &["warps=6", "ctas=2", "atq_entries=3", "pwaq_entries=6", "pwpq_entries=12"]] {
            check("dac_unit", ov, dac_unit::hw_storage(&resolve::<dac_unit::DacUnitParams>(ov).unwrap()));
        }
    }
}
