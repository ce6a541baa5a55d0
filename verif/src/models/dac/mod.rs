//! Reference models of the decoupled affine computation (DAC) blocks
//! (Wang and Lin, ISCA 2017, seed 003, §3-4): the affine tuple algebra that
//! is the ground truth, one port-level model per block with its stimulus
//! driver and property checks, and the composed `dac_unit`.

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
pub mod pwpq;
pub mod stim;
mod walk;

pub use walk::set_config as set_cta_config;

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

use crate::registry::VerifBlock;

/// Verification entries of this family, in registry order.
pub static VERIF: &[&VerifBlock] = &[
    &atq::VERIF,
    &aeu::VERIF,
    &peu::VERIF,
    &pwaq::VERIF,
    &pwpq::VERIF,
    &affine_simt_stack::VERIF,
    &dac_unit::VERIF,
];

/// Mutation checks: each property must reject an engine whose output is
/// corrupted once, or it could not catch a wrong netlist either.
#[cfg(test)]
mod mutation {
    use super::*;
    use crate::stimulus::Stimulus;
    use sim::{Component, ComponentExt, PortId, PortSpec};

    /// Wraps a component; on the `nth` cycle where `pick` returns a value for
    /// the target output, that value replaces the real one.
    struct Corrupt<C: Component> {
        inner: C,
        port: PortId,
        nth: u64,
        seen: u64,
        pick: Pick<C>,
        buf: Option<Vec<u64>>,
    }

    /// Decides, per cycle, the corrupted value of the target output.
    type Pick<C> = Box<dyn Fn(&C) -> Option<Vec<u64>>>;

    impl<C: Component> Corrupt<C> {
        fn new(inner: C, port: &str, nth: u64, pick: impl Fn(&C) -> Option<Vec<u64>> + 'static) -> Self {
            let port = inner.output(port).unwrap();
            Corrupt { inner, port, nth, seen: 0, pick: Box::new(pick), buf: None }
        }
    }

    impl<C: Component> Component for Corrupt<C> {
        fn name(&self) -> &str {
            self.inner.name()
        }
        fn ports(&self) -> &[PortSpec] {
            self.inner.ports()
        }
        fn set(&mut self, port: PortId, value: &[u64]) {
            self.inner.set(port, value)
        }
        fn get(&self, port: PortId) -> &[u64] {
            match &self.buf {
                Some(b) if port == self.port => b,
                _ => self.inner.get(port),
            }
        }
        fn eval(&mut self) {
            self.inner.eval();
            self.buf = None;
            if let Some(v) = (self.pick)(&self.inner) {
                self.seen += 1;
                if self.seen == self.nth {
                    self.buf = Some(v);
                }
            }
        }
        fn tick(&mut self) {
            self.inner.tick()
        }
    }

    fn out(c: &dyn Component, n: &str) -> u64 {
        c.get_u64(c.output(n).unwrap())
    }

    #[test]
    fn aeu_property_rejects_a_dropped_unit_and_a_wrong_line() {
        use hw::blocks::dac::aeu::AeuParams;
        let p = AeuParams::default();
        let stim = Stimulus::record(&mut aeu::driver(&p, 1), 20_000);
        let drop_bit = Corrupt::new(aeu::Aeu::new(&p), "push_rec", 300, |a: &aeu::Aeu| {
            let r = out(a, "push_rec");
            (out(a, "push") == 1 && (r as u32).count_ones() >= 2)
                .then(|| vec![r & !((r as u32) & (r as u32).wrapping_neg()) as u64])
        });
        let mut d = drop_bit;
        assert!(aeu::check_expansion(&mut d, &p, &stim).is_err());
        let mut d = Corrupt::new(aeu::Aeu::new(&p), "push_rec", 300, |a: &aeu::Aeu| {
            (out(a, "push") == 1).then(|| vec![out(a, "push_rec") ^ 1 << hw::blocks::dac::record::LINE])
        });
        assert!(aeu::check_expansion(&mut d, &p, &stim).is_err());
        let mut d =
            Corrupt::new(aeu::Aeu::new(&p), "push_rec", 300, |a: &aeu::Aeu| (out(a, "push") == 1).then(|| vec![0]));
        assert!(aeu::check_expansion(&mut d, &p, &stim).unwrap_err().contains("empty record"));
    }

    #[test]
    fn peu_property_rejects_a_flipped_thread() {
        use hw::blocks::dac::peu::PeuParams;
        let p = PeuParams::default();
        let stim = Stimulus::record(&mut peu::driver(&p, 1), 20_000);
        let mut d = Corrupt::new(peu::Peu::new(&p), "push_mask", 300, |a: &peu::Peu| {
            (out(a, "push") == 1).then(|| vec![out(a, "push_mask") ^ 1])
        });
        assert!(peu::check_masks(&mut d, &p, &stim).unwrap_err().contains("reference"));
        let mut d =
            Corrupt::new(peu::Peu::new(&p), "cnt_uniform", 300, |a: &peu::Peu| Some(vec![out(a, "cnt_uniform") + 1]));
        assert!(peu::check_masks(&mut d, &p, &stim).unwrap_err().contains("counters"));
    }

    #[test]
    fn queue_and_atq_properties_reject_corrupted_data() {
        use hw::blocks::dac::{atq::AtqParams, pwaq::PwaqParams};
        let p = PwaqParams::default();
        let q = pwaq::shape(&p);
        let stim = Stimulus::record(&mut pwaq::QueueDriver::new(q.clone(), 1), 5_000);
        let mut d = Corrupt::new(pwaq::new(&p), "deq_rec", 200, |a: &pwaq::PerWarpQueue| {
            (out(a, "deq_empty") == 0).then(|| vec![out(a, "deq_rec") ^ 4])
        });
        assert!(pwaq::check_queues(&mut d, &q, &stim).is_err());
        let p = AtqParams::default();
        let stim = Stimulus::record(&mut atq::AtqDriver::new(&p, 1), 5_000);
        let mut d =
            Corrupt::new(atq::Atq::new(&p), "enq_ready", 200, |a: &atq::Atq| Some(vec![out(a, "enq_ready") ^ 1]));
        assert!(atq::check_fifo(&mut d, &p, &stim).is_err());
    }

    #[test]
    fn stack_property_rejects_a_wrong_mask() {
        use hw::blocks::dac::affine_simt_stack::AffineSimtStackParams;
        let p = AffineSimtStackParams::default();
        let stim = Stimulus::record(&mut affine_simt_stack::StackDriver::new(&p, 1), 5_000);
        let mut d = Corrupt::new(
            affine_simt_stack::AffineSimtStack::new(&p),
            "rd_mask",
            200,
            |a: &affine_simt_stack::AffineSimtStack| {
                let m = out(a, "rd_mask");
                (m != 0 && m != 0xffff_ffff).then(|| vec![m ^ 1])
            },
        );
        assert!(affine_simt_stack::check_against_flat(&mut d, &p, &stim).is_err());
    }

    #[test]
    fn unit_property_rejects_a_wrong_mask_and_a_stray_l1_request() {
        use hw::blocks::dac::dac_unit::DacUnitParams;
        let p = DacUnitParams::default();
        let stim = Stimulus::record(&mut dac_unit::DacUnitDriver::new(&p, 3), 20_000);
        let mut d = Corrupt::new(dac_unit::DacUnit::new(&p), "pred_mask", 100, |a: &dac_unit::DacUnit| {
            let deq = a.get_u64(a.input("deq_pred").unwrap()) == 1;
            (deq && out(a, "pred_empty") == 0).then(|| vec![out(a, "pred_mask") ^ 0x8000_0000])
        });
        assert!(dac_unit::check_end_to_end(&mut d, &p, &stim, false).is_err());
        let mut d = Corrupt::new(dac_unit::DacUnit::new(&p), "l1_req_line", 100, |a: &dac_unit::DacUnit| {
            (out(a, "l1_req") == 1).then(|| vec![out(a, "l1_req_line") ^ 0x100_0000])
        });
        assert!(dac_unit::check_end_to_end(&mut d, &p, &stim, false).unwrap_err().contains("without an l1_req"));
    }
}
