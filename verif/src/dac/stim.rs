//! Shared pieces of the DAC stimulus drivers: CTA configurations and affine
//! tuples drawn to hit the interesting cases (common strides, linear 2-D
//! tuples, unaligned and wrapping bases, negative and huge offsets,
//! thresholds next to the warp's values).

use crate::stimulus::{Driver, Frame, InputLayout};
use hw::blocks::dac::{tuple, CtaConfigIo, ExpansionParams};
use models::dac::affine::Aff;
use models::dac::{CtaConfig, TupleCmd};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{PortId, PortSpec};
use std::sync::Arc;

/// Block shapes seen in real kernels, plus odd ones.
const SHAPES: &[[u32; 3]] = &[
    [256, 1, 1],
    [192, 1, 1],
    [128, 1, 1],
    [32, 8, 1],
    [16, 16, 1],
    [8, 8, 4],
    [48, 2, 1],
    [64, 4, 2],
    [1, 1, 1],
    [33, 1, 1],
    [1024, 1, 1],
    [4, 2, 3],
];

/// A random legal configuration: CTA slots filled in order with contiguous
/// warp ranges, some slots left invalid, block indices mostly small.
pub fn random_config(r: &mut ChaCha8Rng, ctas: u32, warps: u32) -> CtaConfig {
    let mut dims = [1, 1, 1];
    for _ in 0..20 {
        dims = if r.random_bool(0.6) {
            SHAPES[r.random_range(0..SHAPES.len())]
        } else {
            [r.random_range(1..=40), r.random_range(1..=6), r.random_range(1..=3)]
        };
        if (dims[0] * dims[1] * dims[2]).div_ceil(32) <= warps {
            break;
        }
        dims = [r.random_range(1..=32), 1, 1];
    }
    let per = (dims[0] * dims[1] * dims[2]).div_ceil(32);
    let mut next = 0;
    let mut cfg = CtaConfig { dims, valid: vec![], bid: vec![], warp0: vec![] };
    for _ in 0..ctas {
        let fits = next + per <= warps;
        let v = fits && r.random_bool(0.85);
        cfg.valid.push(v);
        cfg.warp0.push(if fits { next } else { 0 });
        if v {
            next += per;
        }
        let b = |r: &mut ChaCha8Rng| if r.random_bool(0.8) { r.random_range(0..64) } else { r.random_range(0..65536) };
        let bid = [b(r), b(r), b(r)];
        cfg.bid.push(bid);
    }
    cfg
}

/// The AEU's barrier holds (`cta_hold`, one bit per CTA slot) a cycle on:
/// a held CTA is released with probability 1/20, another held with
/// probability `p`.
pub fn step_holds(r: &mut ChaCha8Rng, hold: u64, ctas: u32, p: f64) -> u64 {
    (0..ctas).fold(hold, |h, c| {
        let flip = if h >> c & 1 == 1 { r.random_bool(0.05) } else { p > 0.0 && r.random_bool(p) };
        h ^ (flip as u64) << c
    })
}

/// Per warp slot, its active threads for an epoch: often every thread;
/// otherwise per warp all, none, a prefix (an `if (i < n)`) or random ones.
pub fn random_lanes(r: &mut ChaCha8Rng, warps: u32) -> Vec<u32> {
    let all = r.random_bool(0.4);
    (0..warps)
        .map(|_| match r.random_range(0..100) {
            _ if all => u32::MAX,
            0..55 => u32::MAX,
            55..70 => 0,
            70..85 => u32::MAX >> r.random_range(1..32),
            _ => r.random(),
        })
        .collect()
}

/// The CTA slots a tuple accepted with `cfg` is expanded for.
pub fn targets(cfg: &CtaConfig, t: &TupleCmd) -> Vec<usize> {
    (0..cfg.valid.len()).filter(|&c| cfg.valid[c] && t.ctas >> c & 1 != 0).collect()
}

/// Decode the CTA configuration inputs of a stimulus frame.
pub fn config_from_frame(f: &Frame, io: &CtaConfigIo<PortId>, ctas: u32, warp_bits: u32) -> CtaConfig {
    CtaConfig::read(io, ctas, warp_bits, |id| f.get(id))
}

/// Draws affine tuples for one block shape.
#[derive(Clone, Debug)]
pub struct TupleGen {
    dims: [u32; 3],
    /// Block indices of the valid CTAs (thresholds are drawn from their
    /// threads' values); empty: small made-up indices.
    bids: Vec<[u32; 3]>,
}

impl TupleGen {
    pub fn new(dims: [u32; 3]) -> Self {
        TupleGen { dims, bids: vec![] }
    }

    /// Tuples for the valid CTAs of `cfg`.
    pub fn for_config(cfg: &CtaConfig) -> Self {
        let bids = cfg.valid.iter().zip(&cfg.bid).filter(|(v, _)| **v).map(|(_, b)| *b).collect();
        TupleGen { dims: cfg.dims, bids }
    }

    fn otx(&self, r: &mut ChaCha8Rng, g: u32) -> u32 {
        match r.random_range(0..100) {
            0..10 => 0,
            10..30 => 4,
            30..65 => {
                let s = g << r.random_range(0..=5);
                if r.random_bool(0.3) {
                    s.wrapping_neg()
                } else {
                    s
                }
            }
            65..80 => r.random_range(-300i32..300) as u32,
            80..90 => [128 * r.random_range(1..10u32), 0x8000_0000, 0x4000_0000, 0x1000_0000, 0xffff_ff80]
                [r.random_range(0..5)],
            _ => r.random(),
        }
    }

    fn base(&self, r: &mut ChaCha8Rng) -> u32 {
        match r.random_range(0..100) {
            0..40 => r.random(),
            40..70 => r.random::<u32>() & !127,
            70..80 => 0u32.wrapping_sub(r.random_range(1..600)),
            80..88 => 0x8000_0000u32.wrapping_sub(r.random_range(1..600)),
            _ => r.random_range(0..600),
        }
    }

    /// A tuple with a base and six offsets. `uniform` forces zero thread
    /// offsets (a per-CTA scalar).
    pub fn aff(&self, r: &mut ChaCha8Rng, g: u32, uniform: bool) -> Aff {
        let [dx, dy, _] = self.dims;
        let threads = self.dims.iter().product::<u32>();
        let otx = if uniform { 0 } else { self.otx(r, g) };
        let oty = match (uniform, r.random_range(0..100)) {
            (true, _) | (_, 0..30) => 0,
            (_, 30..65) => otx.wrapping_mul(dx),
            (_, 65..85) => r.random_range(-2000i32..2000) as u32,
            _ => r.random(),
        };
        let otz = match (uniform, r.random_range(0..100)) {
            (true, _) | (_, 0..40) => 0,
            (_, 40..75) => oty.wrapping_mul(dy),
            _ => r.random(),
        };
        let obx = match r.random_range(0..100) {
            0..30 => 0,
            30..70 => otx.wrapping_mul(threads),
            _ => r.random(),
        };
        let o = |r: &mut ChaCha8Rng| if r.random_bool(0.7) { 0 } else { r.random::<u32>() };
        let oby = o(r);
        let obz = o(r);
        Aff::new(self.base(r), [otx, oty, otz, obx, oby, obz])
    }

    /// The CTAs a tuple is for: mostly all (the paper's one affine warp per
    /// SM), else one (an affine warp per CTA) or any set.
    fn ctas(r: &mut ChaCha8Rng) -> u16 {
        match r.random_range(0..10) {
            0..6 => TupleCmd::ALL_CTAS,
            6..9 => 1 << r.random_range(0..16),
            _ => r.random(),
        }
    }

    /// An `enq.addr` / `enq.data` tuple.
    pub fn addr(&self, r: &mut ChaCha8Rng) -> TupleCmd {
        let gran = if r.random_bool(0.5) { tuple::GRAN_WORD } else { r.random_range(0..4) };
        let g = models::dac::affine::gran_bytes(gran);
        TupleCmd {
            aff: self.aff(r, g, false),
            rhs: r.random(),
            kind: if r.random_bool(0.5) { tuple::KIND_ADDR } else { tuple::KIND_DATA },
            op: gran,
            ctas: Self::ctas(r),
        }
    }

    /// An `enq.pred` tuple whose threshold is often next to one of the
    /// tuple's own values.
    pub fn pred(&self, r: &mut ChaCha8Rng) -> TupleCmd {
        let uniform = r.random_bool(0.4);
        let aff = self.aff(r, 4, uniform);
        let [dx, dy, dz] = self.dims;
        // A thread of a real CTA, often a warp's first or last one (where
        // the two-compare shortcut is decided).
        let threads = (dx * dy * dz).min(hw::blocks::dac::MAX_CTA_THREADS);
        let lin = match r.random_range(0..4) {
            0 => 32 * r.random_range(0..threads.div_ceil(32)),
            1 => (32 * r.random_range(0..threads.div_ceil(32)) + 31).min(threads - 1),
            _ => r.random_range(0..threads),
        };
        let bid = if self.bids.is_empty() || r.random_bool(0.2) {
            [r.random_range(0..4), 0, 0]
        } else {
            self.bids[r.random_range(0..self.bids.len())]
        };
        let ids = [lin % dx, lin / dx % dy, lin / (dx * dy), bid[0], bid[1], bid[2]];
        let rhs = match r.random_range(0..100) {
            0..50 => aff.eval(&ids).wrapping_add(r.random_range(-2i32..=2) as u32),
            50..65 => [0, u32::MAX, 0x8000_0000, 0x7fff_ffff, aff.base][r.random_range(0..5)],
            _ => r.random(),
        };
        TupleCmd { aff, rhs, kind: tuple::KIND_PRED, op: r.random_range(0..16), ctas: Self::ctas(r) }
    }
}

/// Which expansion unit a driver feeds, and so which tuples and which
/// queue's full flags it drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// The AEU: `enq.addr` / `enq.data` tuples, backpressure on `pwaq_full`.
    Addr,
    /// The PEU: `enq.pred` tuples (every operator, signed and unsigned,
    /// thresholds next to the tuple's values), backpressure on `pwpq_full`.
    Pred,
}

/// Constrained-random traffic for an expansion unit: a CTA configuration and
/// active threads ([`random_lanes`]) per reset epoch, tuples from [`TupleGen`] offered with random gaps (2% with a
/// random kind, so tuples meant for the other unit arrive too), and phases
/// of random per-warp backpressure on the queue's full flags and (the AEU)
/// of random per-CTA barrier holds.
pub struct ExpansionDriver {
    unit: Expansion,
    p: ExpansionParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    ports: ExpansionPorts,
    cycle: u64,
    cfg: CtaConfig,
    lanes: Vec<u32>,
    gen: TupleGen,
    offer: f64,
    full_p: f64,
    full: u64,
    hold_p: f64,
    hold: u64,
}

/// The inputs an expansion unit driver drives (the AEU's or the PEU's, from
/// its port description).
#[derive(Clone, Debug)]
pub struct ExpansionPorts {
    pub rst: PortId,
    pub in_valid: PortId,
    pub in_tuple: PortId,
    pub cta: CtaConfigIo<PortId>,
    /// `pwaq_full` or `pwpq_full`.
    pub full: PortId,
    pub lanes: PortId,
    /// The AEU's `cta_hold` (the PEU has none).
    pub hold: Option<PortId>,
}

impl ExpansionDriver {
    /// `ports`: the unit's ports (the AEU's or the PEU's), `io` its inputs.
    pub fn new(unit: Expansion, ports: &[PortSpec], io: ExpansionPorts, p: &ExpansionParams, seed: u64) -> Self {
        let layout = InputLayout::of(ports);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cfg = random_config(&mut rng, p.ctas, p.warps);
        let lanes = random_lanes(&mut rng, p.warps);
        let gen = TupleGen::for_config(&cfg);
        ExpansionDriver { unit, p: p.clone(), layout, rng, ports: io, cycle: 0, cfg, lanes, gen, offer: 0.5, full_p: 0.0, full: 0, hold_p: 0.0, hold: 0 }
    }
}

impl Driver for ExpansionDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let r = &mut self.rng;
        let rst = self.cycle == 0 || r.random_bool(0.0005);
        if rst && self.cycle != 0 {
            self.cfg = random_config(r, self.p.ctas, self.p.warps);
            self.lanes = random_lanes(r, self.p.warps);
            self.gen = TupleGen::for_config(&self.cfg);
        }
        if self.cycle.is_multiple_of(512) {
            self.offer = [0.05, 0.5, 1.0][r.random_range(0..3)];
            self.full_p = [0.0, 0.0, 0.02, 0.3][r.random_range(0..4)];
        }
        self.cycle += 1;
        f.set_bool(self.ports.rst, rst);
        f.set_bool(self.ports.in_valid, r.random_bool(self.offer));
        let mut t = match self.unit {
            Expansion::Addr => self.gen.addr(r),
            Expansion::Pred => self.gen.pred(r),
        };
        if r.random_bool(0.02) {
            t.kind = r.random_range(0..4);
        }
        f.set_wide(self.ports.in_tuple, &t.pack());
        self.cfg.write(&self.ports.cta, self.p.warp_bits(), |id, v| f.set_wide(id, v));
        f.set_wide(self.ports.lanes, &models::dac::warp_words(&self.lanes));
        // Backpressure: each warp's full flag flips now and then.
        if self.full_p == 0.0 {
            self.full = 0;
        } else {
            for wi in 0..self.p.warps {
                if r.random_bool(self.full_p / 4.0) {
                    self.full ^= 1 << wi;
                }
            }
        }
        f.set(self.ports.full, self.full);
        // Barrier holds: now and then a CTA is held for a while.
        if let Some(hold) = self.ports.hold {
            if self.cycle.is_multiple_of(512) {
                self.hold_p = [0.0, 0.0, 0.002, 0.01][r.random_range(0..4)];
            }
            self.hold = step_holds(r, self.hold, self.p.ctas, self.hold_p);
            f.set(hold, self.hold);
        }
    }
}
