//! Reference models of the decoupled affine computation (DAC) blocks
//! (Wang and Lin, ISCA 2017, seed 003, §3-4): the affine tuple algebra that
//! is the ground truth, one port-level model per block with its stimulus
//! driver and property checks, and the composed `dac_unit`.

pub mod affine;
pub mod aeu;
pub mod affine_simt_stack;
pub mod atq;
pub mod dac_unit;
pub mod peu;
pub mod pwaq;
pub mod pwpq;
pub mod stim;
mod walk;

use affine::Aff;
use hw::blocks::dac::{record, tuple};

/// Bits `lo..lo+n` (n <= 64) of a little-endian word vector.
pub fn get_bits(w: &[u64], lo: u32, n: u32) -> u64 {
    let (i, o) = ((lo / 64) as usize, lo % 64);
    let mut v = w.get(i).copied().unwrap_or(0) >> o;
    if o != 0 && o + n > 64 {
        v |= w.get(i + 1).copied().unwrap_or(0) << (64 - o);
    }
    if n >= 64 {
        v
    } else {
        v & ((1u64 << n) - 1)
    }
}

/// Write bits `lo..lo+n` (n <= 64) of a little-endian word vector.
pub fn set_bits(w: &mut [u64], lo: u32, n: u32, v: u64) {
    for k in 0..n {
        let b = lo + k;
        let (i, o) = ((b / 64) as usize, b % 64);
        if (v >> k) & 1 != 0 {
            w[i] |= 1 << o;
        } else {
            w[i] &= !(1 << o);
        }
    }
}

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
}

impl TupleCmd {
    pub fn pack(&self) -> TupleWords {
        let mut w = [0u64; tuple::WORDS];
        set_bits(&mut w, tuple::BASE, 32, self.aff.base as u64);
        for i in 0..6 {
            set_bits(&mut w, tuple::off(i), 32, self.aff.off[i as usize] as u64);
        }
        set_bits(&mut w, tuple::RHS, 32, self.rhs as u64);
        set_bits(&mut w, tuple::KIND, 2, self.kind & 3);
        set_bits(&mut w, tuple::OP, 4, self.op & 15);
        w
    }

    pub fn unpack(w: &[u64]) -> Self {
        let mut aff = Aff { base: get_bits(w, tuple::BASE, 32) as u32, off: [0; 6] };
        for i in 0..6 {
            aff.off[i as usize] = get_bits(w, tuple::off(i), 32) as u32;
        }
        TupleCmd {
            aff,
            rhs: get_bits(w, tuple::RHS, 32) as u32,
            kind: get_bits(w, tuple::KIND, 2),
            op: get_bits(w, tuple::OP, 4),
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
        set_bits(&mut w, record::MASK, 32, self.mask as u64);
        set_bits(&mut w, record::LINE, record::LINE_BITS, self.line as u64);
        set_bits(&mut w, record::SECT, 2, self.sect as u64);
        set_bits(&mut w, record::GRAN, 2, self.gran as u64);
        set_bits(&mut w, record::LAST, 1, self.last as u64);
        w[0]
    }

    pub fn unpack(v: u64) -> Self {
        let w = [v];
        Record {
            mask: get_bits(&w, record::MASK, 32) as u32,
            line: get_bits(&w, record::LINE, record::LINE_BITS) as u32,
            sect: get_bits(&w, record::SECT, 2) as u32,
            gran: get_bits(&w, record::GRAN, 2) as u32,
            last: get_bits(&w, record::LAST, 1) != 0,
        }
    }

    /// Byte addresses of the access units the record names.
    pub fn units(&self) -> impl Iterator<Item = u32> + '_ {
        let g = self.gran.min(2);
        let region = (self.line << 7) | (self.sect << (5 + g));
        (0..32u32).filter(move |i| self.mask >> i & 1 != 0).map(move |i| region.wrapping_add(i << g))
    }
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
