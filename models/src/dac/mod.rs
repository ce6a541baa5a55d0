//! Reference models of the DAC blocks (specifications: `hw::blocks::dac`):
//! the affine tuple algebra that is their ground truth ([`affine`]), the
//! formats the blocks exchange (tuples, warp address records, the CTA
//! configuration), the CTA walk the expansion units share ([`walk`]), one
//! model per block and the composed unit.

// Models index parallel per-warp / per-offset arrays; explicit indices read
// closer to the hardware than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod aeu;
pub mod affine;
pub mod affine_simt_stack;
pub mod atq;
pub mod dac_unit;
pub mod peu;
pub mod pwaq;
pub mod walk;

use crate::bits::{get_field, put_field};
use crate::ModelEntry;
use affine::Aff;
use hw::blocks::dac::{
    aeu::AeuParams, affine_simt_stack::AffineSimtStackParams, atq::AtqParams, cta, dac_unit::DacUnitParams,
    peu::PeuParams, pwaq::PwaqParams, pwpq::PwpqParams, record, tuple, CtaConfigIo,
};
use sim::PortId;

/// The family's models, in registry order.
pub static MODELS: &[&ModelEntry] = &[
    &ModelEntry::of::<AtqParams>(),
    &ModelEntry::of::<AeuParams>(),
    &ModelEntry::of::<PeuParams>(),
    &ModelEntry::of::<PwaqParams>(),
    &ModelEntry::of::<PwpqParams>(),
    &ModelEntry::of::<AffineSimtStackParams>(),
    &ModelEntry::of::<DacUnitParams>(),
];

/// A packed ATQ entry (see [`hw::blocks::dac::tuple`]).
pub type TupleWords = [u64; tuple::WORDS];

/// An affine tuple with its command, unpacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TupleCmd {
    pub aff: Aff,
    /// Scalar operand of a predicate tuple.
    pub rhs: u32,
    pub kind: u64,
    pub op: u64,
    /// The CTA slots it is for (bit c: slot c).
    pub ctas: u16,
}

impl TupleCmd {
    /// Every CTA slot: the paper's one affine warp per SM.
    pub const ALL_CTAS: u16 = u16::MAX;

    pub fn pack(&self) -> TupleWords {
        let mut w = [0u64; tuple::WORDS];
        put_field(&mut w, (tuple::BASE) as usize, 32, self.aff.base as u64);
        for i in 0..6 {
            put_field(&mut w, (tuple::off(i)) as usize, 32, self.aff.off[i as usize] as u64);
        }
        put_field(&mut w, (tuple::RHS) as usize, 32, self.rhs as u64);
        put_field(&mut w, (tuple::KIND) as usize, 2, self.kind & 3);
        put_field(&mut w, (tuple::OP) as usize, 4, self.op & 15);
        put_field(&mut w, (tuple::CTAS) as usize, 16, self.ctas as u64);
        w
    }

    pub fn unpack(w: &[u64]) -> Self {
        let mut aff = Aff { base: get_field(w, (tuple::BASE) as usize, 32) as u32, off: [0; 6] };
        for i in 0..6 {
            aff.off[i as usize] = get_field(w, (tuple::off(i)) as usize, 32) as u32;
        }
        TupleCmd {
            aff,
            rhs: get_field(w, (tuple::RHS) as usize, 32) as u32,
            kind: get_field(w, (tuple::KIND) as usize, 2),
            op: get_field(w, (tuple::OP) as usize, 4),
            ctas: get_field(w, (tuple::CTAS) as usize, 16) as u16,
        }
    }
}

/// A warp address record (a PWAQ entry, see [`hw::blocks::dac::record`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub mask: u32,
    pub line: u32,
    pub sect: u32,
    /// Decoded granularity: 0 byte, 1 half, 2 word.
    pub gran: u32,
    pub last: bool,
}

impl Record {
    pub fn pack(&self) -> u64 {
        let mut w = [0u64];
        put_field(&mut w, (record::MASK) as usize, 32, self.mask as u64);
        put_field(&mut w, (record::LINE) as usize, record::LINE_BITS, self.line as u64);
        put_field(&mut w, (record::SECT) as usize, 2, self.sect as u64);
        put_field(&mut w, (record::GRAN) as usize, 2, self.gran as u64);
        put_field(&mut w, (record::LAST) as usize, 1, self.last as u64);
        w[0]
    }

    pub fn unpack(v: u64) -> Self {
        let w = [v];
        Record {
            mask: get_field(&w, (record::MASK) as usize, 32) as u32,
            line: get_field(&w, (record::LINE) as usize, record::LINE_BITS) as u32,
            sect: get_field(&w, (record::SECT) as usize, 2) as u32,
            gran: get_field(&w, (record::GRAN) as usize, 2) as u32,
            last: get_field(&w, (record::LAST) as usize, 1) != 0,
        }
    }

    /// Byte addresses of the access units the record names.
    pub fn units(&self) -> impl Iterator<Item = u32> + '_ {
        let g = self.gran.min(2);
        let region = (self.line << 7) | (self.sect << (5 + g));
        (0..32u32).filter(move |i| self.mask >> i & 1 != 0).map(move |i| region.wrapping_add(i << g))
    }
}

/// Per-warp 32-bit thread masks as port words, two warps a word (warp 0 in
/// the low half): the affine SIMT stack's `cond`, the expansion units'
/// `lane_mask`.
pub fn warp_words(masks: &[u32]) -> Vec<u64> {
    masks.chunks(2).map(|c| c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32).collect()
}

/// Warp `w`'s thread mask in such words.
pub fn warp_mask(words: &[u64], w: usize) -> u32 {
    (words[w / 2] >> (32 * (w % 2))) as u32
}

/// Per-CTA configuration as driven on the expansion units' ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtaConfig {
    /// Block dimensions (each 1..=1024, z 1..=64).
    pub dims: [u32; 3],
    pub valid: Vec<bool>,
    pub bid: Vec<[u32; 3]>,
    pub warp0: Vec<u32>,
}

impl CtaConfig {
    pub fn geom(&self, c: usize) -> affine::CtaGeom {
        affine::CtaGeom { dims: self.dims, bid: self.bid[c] }
    }
}

impl CtaConfig {
    /// The configuration on the CTA configuration inputs, read through
    /// `get` (a frame, a component, a recorded cycle).
    pub fn read<'a>(io: &CtaConfigIo<PortId>, ctas: u32, warp_bits: u32, get: impl Fn(PortId) -> &'a [u64]) -> Self {
        let valid = get(io.valid)[0];
        let dims = [get(io.dim_x_m1)[0] as u32 + 1, get(io.dim_y_m1)[0] as u32 + 1, get(io.dim_z_m1)[0] as u32 + 1];
        let mut cfg = CtaConfig { dims, valid: vec![], bid: vec![], warp0: vec![] };
        let (b, w0) = (get(io.bidx), get(io.warp0));
        for c in 0..ctas as usize {
            cfg.valid.push(valid >> c & 1 != 0);
            let lo = cta::BIDX_BITS as usize * c;
            cfg.bid.push([get_field(b, lo, 16) as u32, get_field(b, lo + 16, 16) as u32, get_field(b, lo + 32, 16) as u32]);
            cfg.warp0.push(get_field(w0, warp_bits as usize * c, warp_bits) as u32);
        }
        cfg
    }

    /// Write the configuration on the CTA configuration inputs through `set`.
    pub fn write(&self, io: &CtaConfigIo<PortId>, warp_bits: u32, mut set: impl FnMut(PortId, &[u64])) {
        let n = self.valid.len();
        let mut valid = 0u64;
        let mut bidx = vec![0u64; (cta::BIDX_BITS as usize * n).div_ceil(64).max(1)];
        let mut warp0 = vec![0u64; (warp_bits as usize * n).div_ceil(64).max(1)];
        for c in 0..n {
            valid |= (self.valid[c] as u64) << c;
            for d in 0..3 {
                put_field(&mut bidx, cta::BIDX_BITS as usize * c + 16 * d, 16, self.bid[c][d] as u64);
            }
            put_field(&mut warp0, warp_bits as usize * c, warp_bits, self.warp0[c] as u64);
        }
        set(io.valid, &[valid]);
        set(io.bidx, &bidx);
        set(io.warp0, &warp0);
        set(io.dim_x_m1, &[self.dims[0] as u64 - 1]);
        set(io.dim_y_m1, &[self.dims[1] as u64 - 1]);
        set(io.dim_z_m1, &[self.dims[2] as u64 - 1]);
    }
}
