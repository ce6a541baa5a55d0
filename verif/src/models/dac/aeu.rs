//! Reference model of the address expansion unit (AEU), written from the
//! specification in `hw/src/blocks/dac/aeu.rs` (paper §4.2, Figure 11).

use super::stim::{self, Expansion, ExpansionDriver};
use super::walk::{mac, set_config, Cst, CtaPorts, Ctx, Top, WalkRegs, MAX_CTAS};
use super::{CtaConfig, Record, TupleCmd};
use crate::stimulus::{Frame, Stimulus};
use hw::blocks::dac::aeu::AeuParams;
use hw::blocks::dac::{record, tuple, WARP_SIZE};
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::BTreeSet;

/// Ports of the AEU, inputs then outputs.
pub fn ports(p: &AeuParams) -> Vec<PortSpec> {
    let mut v =
        vec![PortSpec::input("rst", 1), PortSpec::input("in_valid", 1), PortSpec::input("in_tuple", tuple::BITS)];
    v.extend(CtaPorts::specs(p.ctas, p.warp_bits()));
    v.extend([
        PortSpec::input("pwaq_full", p.warps),
        PortSpec::output("in_ready", 1),
        PortSpec::output("push", 1),
        PortSpec::output("push_warp", p.warp_bits()),
        PortSpec::output("push_rec", record::BITS),
        PortSpec::output("push_data", 1),
    ]);
    v
}

/// How a step covers threads, from the thread offset and granularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stride {
    /// Offset 0: every thread of the run hits one unit.
    Zero,
    /// Offset `+g * 2^p`, p <= 5: mask bits every `2^p` units upward.
    Up(u32),
    /// Offset `-g * 2^p`: downward.
    Down(u32),
    /// Anything else: one thread per cycle.
    Serial,
}

fn classify(s: u32, gl: u32) -> Stride {
    if s == 0 {
        return Stride::Zero;
    }
    for p in 0..=5 {
        let step = 1u32 << (gl + p);
        if s == step {
            return Stride::Up(p);
        }
        if s == step.wrapping_neg() {
            return Stride::Down(p);
        }
    }
    Stride::Serial
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    top: Top,
    w: WalkRegs,
    /// Decoded granularity: log2 of the unit size (0, 1, 2).
    gl: u32,
    data: bool,
    ctx: [Ctx; MAX_CTAS],
    /// Context whose serial record is being built.
    lock: Option<usize>,
    /// Mask of that record (its region is the locked context's current one).
    bld_mask: u32,
}

impl State {
    fn reset() -> Self {
        State {
            top: Top::Idle,
            w: WalkRegs::default(),
            gl: 0,
            data: false,
            ctx: [Ctx::IDLE; MAX_CTAS],
            lock: None,
            bld_mask: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Push {
    warp: u32,
    rec: Record,
}

pub struct Aeu {
    p: AeuParams,
    io: PortFrame,
    rst: PortId,
    in_valid: PortId,
    in_tuple: PortId,
    cta: CtaPorts,
    pwaq_full: PortId,
    in_ready: PortId,
    push: PortId,
    push_warp: PortId,
    push_rec: PortId,
    push_data: PortId,
    s: State,
    n: State,
}

impl Aeu {
    pub fn new(p: &AeuParams) -> Self {
        let io = PortFrame::new(ports(p));
        Aeu {
            p: p.clone(),
            rst: io.id("rst"),
            in_valid: io.id("in_valid"),
            in_tuple: io.id("in_tuple"),
            cta: CtaPorts::resolve(&io, p.warp_bits()),
            pwaq_full: io.id("pwaq_full"),
            in_ready: io.id("in_ready"),
            push: io.id("push"),
            push_warp: io.id("push_warp"),
            push_rec: io.id("push_rec"),
            push_data: io.id("push_data"),
            io,
            s: State::reset(),
            n: State::reset(),
        }
    }

    /// Warp slot of a context's next thread (may be out of range).
    fn warp_of(&self, c: usize) -> u32 {
        self.cta.warp0(&self.io, c) + self.s.ctx[c].lin / WARP_SIZE
    }

    /// The queue of the context's warp is full (an out-of-range warp has no
    /// queue and is never full: its records are dropped).
    fn blocked(&self, c: usize) -> bool {
        let w = self.warp_of(c);
        w < self.p.warps && self.io.get_u64(self.pwaq_full) >> w & 1 != 0
    }

    /// One RUN step of context `c` into `self.n`; returns the record to push.
    /// A step that would push into a full queue changes nothing (a stall).
    fn run_step(&mut self, c: usize) -> Option<Record> {
        let w = self.s.w;
        let ctx = self.s.ctx[c];
        let gl = self.s.gl;
        let acc = ctx.acc;
        let u0 = (acc >> gl) & 31;
        let region_shift = 5 + gl;
        let m = w.run_limit(&ctx);
        let s = w.otx();
        // (threads covered, mask, next accumulated value, push now?)
        let (k, mask, next, emit) = match classify(s, gl) {
            Stride::Serial => {
                let bit = 1u32 << u0;
                let next = acc.wrapping_add(s);
                let same = next >> region_shift == acc >> region_shift;
                let mask = if self.s.lock.is_some() { self.s.bld_mask | bit } else { bit };
                (1, mask, next, m == 1 || !same)
            }
            Stride::Zero => (m, 1u32 << u0, acc, true),
            Stride::Up(p) => {
                let k = m.min(((31 - u0) >> p) + 1);
                (k, (0..k).fold(0u32, |a, j| a | 1 << (u0 + (j << p))), mac(acc, s, k, false), true)
            }
            Stride::Down(p) => {
                let k = m.min((u0 >> p) + 1);
                (k, (0..k).fold(0u32, |a, j| a | 1 << (u0 - (j << p))), mac(acc, s, k, false), true)
            }
        };
        if emit && self.blocked(c) {
            return None;
        }
        let nctx = &mut self.n.ctx[c];
        nctx.acc = next;
        w.advance(nctx, k);
        if emit {
            self.n.lock = None;
            self.n.bld_mask = 0;
            Some(Record {
                mask,
                line: acc >> 7,
                sect: (acc >> region_shift) & ((1 << (2 - gl)) - 1),
                gran: gl,
                last: (ctx.lin + k).is_multiple_of(WARP_SIZE) || ctx.lin + k == w.total,
            })
        } else {
            self.n.lock = Some(c);
            self.n.bld_mask = mask;
            None
        }
    }

    /// Settle this cycle: outputs into the port frame, next state into `n`.
    fn compute(&mut self) {
        self.n = self.s;
        let mut push: Option<Push> = None;
        match self.s.top {
            Top::Idle => {
                if self.io.get_bool(self.in_valid) {
                    let t = TupleCmd::unpack(self.io.get(self.in_tuple));
                    let [dx, dy, dz] = self.cta.dims(&self.io);
                    self.n.w = WalkRegs { t: t.aff, dx, dy, dz, adj_y: 0, adj_z: 0, total: 0 };
                    let g = t.op & 3;
                    self.n.gl = if g & 2 != 0 { 2 } else { g as u32 };
                    self.n.data = t.kind == tuple::KIND_DATA;
                    for c in 0..self.p.ctas as usize {
                        self.n.ctx[c] =
                            Ctx { st: if self.cta.valid(&self.io, c) { Cst::Start0 } else { Cst::Done }, ..Ctx::IDLE };
                    }
                    self.n.lock = None;
                    self.n.bld_mask = 0;
                    self.n.top = Top::SetupY;
                }
            }
            Top::SetupY | Top::SetupZ | Top::SetupT1 | Top::SetupT2 => {
                self.n.top = self.n.w.setup(self.s.top);
            }
            Top::Work => {
                // The locked context keeps the unit until its record is pushed;
                // otherwise the lowest-numbered context that can make progress.
                let pick = match self.s.lock {
                    Some(c) => Some(c),
                    None => (0..self.p.ctas as usize).find(|&c| match self.s.ctx[c].st {
                        Cst::Done => false,
                        Cst::Run => !self.blocked(c),
                        _ => true,
                    }),
                };
                if let Some(c) = pick {
                    let st = self.s.ctx[c].st;
                    if st == Cst::Run {
                        if let Some(rec) = self.run_step(c) {
                            push = Some(Push { warp: self.warp_of(c), rec });
                        }
                    } else {
                        let bid = self.cta.bid(&self.io, c);
                        self.s.w.start_or_adjust(&mut self.n.ctx[c], bid);
                    }
                }
                if self.n.ctx.iter().all(|c| c.st == Cst::Done) {
                    self.n.top = Top::Idle;
                }
            }
        }
        if self.io.get_bool(self.rst) {
            self.n = State::reset();
        }
        // Outputs.
        self.io.set_bool(self.in_ready, self.s.top == Top::Idle);
        let in_range = push.is_some_and(|p| p.warp < self.p.warps);
        self.io.set_bool(self.push, in_range);
        let (w, r) = match push {
            Some(p) if in_range => (p.warp as u64, p.rec.pack()),
            _ => (0, 0),
        };
        self.io.set_u64(self.push_warp, w);
        self.io.set_u64(self.push_rec, r);
        self.io.set_bool(self.push_data, in_range && self.s.data);
    }
}

impl Component for Aeu {
    fn name(&self) -> &str {
        "aeu"
    }
    sim::frame_ports!(io);
    fn eval(&mut self) {
        self.compute();
    }
    fn tick(&mut self) {
        self.compute();
        std::mem::swap(&mut self.s, &mut self.n);
    }
}

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Constrained-random AEU traffic: address tuples (see [`ExpansionDriver`]).
pub fn driver(p: &AeuParams, seed: u64) -> ExpansionDriver {
    ExpansionDriver::new(Expansion::Addr, &ports(p), &p.expansion(), seed)
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// What a run of [`check_expansion`] saw.
#[derive(Clone, Debug, Default)]
pub struct AeuReport {
    pub tuples: u64,
    pub warps: u64,
    pub records: u64,
    /// Cycles from accepting a tuple to being ready again, summed.
    pub busy_cycles: u64,
}

/// Run `stim` through `dut` (any engine with the AEU's ports) and check, for
/// every tuple the unit accepted and finished:
/// - the records pushed for each warp cover exactly the access units the
///   per-thread reference expansion gives for that warp ([`super::affine::warp_units`]),
/// - no record is empty, records carry the tuple's granularity, and the last
///   record of each warp, and only it, has `last` set,
/// - nothing is pushed for a warp whose `pwaq_full` is set in that cycle, nor
///   for warps outside the valid CTAs,
/// - `push_data` is set exactly for `enq.data` tuples.
///
/// The CTA configuration inputs must change only in reset cycles.
pub fn check_expansion(dut: &mut dyn Component, p: &AeuParams, stim: &Stimulus) -> Result<AeuReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let o = |n: &str| dut.output(n).unwrap();
    let (in_ready, push, push_warp, push_rec, push_data) =
        (o("in_ready"), o("push"), o("push_warp"), o("push_rec"), o("push_data"));
    let sl = |n: &str| layout.expect(n);
    let (s_rst, s_valid, s_tuple, s_full) = (sl("rst"), sl("in_valid"), sl("in_tuple"), sl("pwaq_full"));
    let mut frame = Frame::new(layout.clone());
    let mut rep = AeuReport::default();
    // The tuple being expanded: command, config, per-warp (units, saw_last), start cycle.
    struct Cur {
        t: TupleCmd,
        cfg: CtaConfig,
        got: Vec<(BTreeSet<u32>, bool, u64)>,
        start: usize,
    }
    let mut cur: Option<Cur> = None;
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let rst = frame.get(s_rst)[0] & 1 != 0;
        let ready = dut.get_bool(in_ready);
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        if rst {
            cur = None;
        } else {
            if dut.get_bool(push) {
                let w = dut.get_u64(push_warp) as u32;
                let rec = Record::unpack(dut.get_u64(push_rec));
                let Some(k) = cur.as_mut() else { return err(format!("push for warp {w} with no tuple")) };
                if frame.get(s_full)[0] >> w & 1 != 0 {
                    return err(format!("push into the full queue of warp {w}"));
                }
                if w >= p.warps || k.got[w as usize].2 == 0 {
                    return err(format!("push for warp {w}, which no valid CTA owns"));
                }
                if rec.mask == 0 {
                    return err(format!("empty record for warp {w}"));
                }
                let g = k.t.op & 3;
                if rec.gran as u64 != g.min(2) {
                    return err(format!("record granularity {} for tuple granularity {g}", rec.gran));
                }
                if dut.get_bool(push_data) != (k.t.kind == tuple::KIND_DATA) {
                    return err("push_data does not match the tuple kind".into());
                }
                let e = &mut k.got[w as usize];
                if e.1 {
                    return err(format!("record for warp {w} after its last record"));
                }
                e.0.extend(rec.units());
                e.1 = rec.last;
                rep.records += 1;
            }
            if ready {
                if let Some(k) = cur.take() {
                    // finished: compare every warp of every valid CTA
                    for (ci, _) in k.cfg.valid.iter().enumerate().filter(|(_, v)| **v) {
                        let g = k.cfg.geom(ci);
                        for wi in 0..g.warps() {
                            let slot = (k.cfg.warp0[ci] + wi) as usize;
                            let want = super::affine::warp_units(&k.t.aff, &g, wi, k.t.op & 3);
                            let (units, last, _) = &k.got[slot];
                            if units != &want || !last {
                                return err(format!(
                                    "tuple {:?} gran {} dims {:?} cta {ci} bid {:?} warp {wi} (slot {slot}): records cover {:x?} (last seen {last}), reference {:x?}",
                                    k.t.aff, k.t.op & 3, k.cfg.dims, g.bid, units, want
                                ));
                            }
                            rep.warps += 1;
                        }
                    }
                    rep.tuples += 1;
                    rep.busy_cycles += (c - k.start) as u64;
                }
                if frame.get(s_valid)[0] & 1 != 0 {
                    let t = TupleCmd::unpack(frame.get(s_tuple));
                    let cfg = stim::config_from_frame(&frame, p.ctas, p.warp_bits());
                    let mut got = vec![(BTreeSet::new(), false, 0u64); p.warps as usize];
                    for (ci, _) in cfg.valid.iter().enumerate().filter(|(_, v)| **v) {
                        for wi in 0..cfg.geom(ci).warps() {
                            got[(cfg.warp0[ci] + wi) as usize].2 = 1;
                        }
                    }
                    cur = Some(Cur { t, cfg, got, start: c });
                }
            }
        }
        dut.tick();
    }
    Ok(rep)
}

/// Drive one tuple through `dut` (an AEU of parameters `p`, any engine) from
/// reset with no backpressure; return the records pushed per warp slot and
/// the cycles from accepting the tuple to being ready again.
pub fn expand_one(dut: &mut dyn Component, p: &AeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Vec<Record>>, u64) {
    let id = |d: &dyn Component, n: &str| d.input(n).unwrap();
    crate::poke::clear_inputs(dut);
    set_config(dut, cfg, p.warp_bits());
    let (rst, iv, it) = (id(dut, "rst"), id(dut, "in_valid"), id(dut, "in_tuple"));
    dut.set_bool(rst, true);
    dut.step();
    dut.set_bool(rst, false);
    dut.set_bool(iv, true);
    dut.set(it, &t.pack());
    dut.step();
    dut.set_bool(iv, false);
    let (ready, push, pw, pr) = (
        dut.output("in_ready").unwrap(),
        dut.output("push").unwrap(),
        dut.output("push_warp").unwrap(),
        dut.output("push_rec").unwrap(),
    );
    let mut out = vec![Vec::new(); p.warps as usize];
    let mut cycles = 1;
    loop {
        dut.eval();
        if dut.get_bool(ready) {
            break;
        }
        if dut.get_bool(push) {
            out[dut.get_u64(pw) as usize].push(Record::unpack(dut.get_u64(pr)));
        }
        dut.tick();
        cycles += 1;
        assert!(cycles < 100_000, "the AEU does not finish");
    }
    (out, cycles)
}

/// Registry entry: the reference model and the driver of `aeu`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "aeu",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(Aeu::new(&AeuParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(driver(&AeuParams::from_params(p)?, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::dac::affine::Aff;

    fn expand(p: &AeuParams, cfg: &CtaConfig, t: TupleCmd) -> (Vec<Vec<Record>>, u64) {
        expand_one(&mut Aeu::new(p), p, cfg, t)
    }

    fn one_cta(dims: [u32; 3]) -> CtaConfig {
        CtaConfig { dims, valid: vec![true], bid: vec![[0; 3]], warp0: vec![0] }
    }

    fn word(base: u32, otx: u32) -> TupleCmd {
        TupleCmd { aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]), rhs: 0, kind: tuple::KIND_DATA, op: tuple::GRAN_WORD }
    }

    /// §3 / Figure 10: offset 4 from a line-aligned base is one full line per
    /// warp, consecutive lines for consecutive warps.
    #[test]
    fn offset_4_is_one_line_per_warp() {
        let p = AeuParams { warps: 8, ctas: 1 };
        let (recs, _) = expand(&p, &one_cta([128, 1, 1]), word(0x80000, 4));
        for w in 0..4 {
            assert_eq!(
                recs[w],
                vec![Record { mask: !0, line: (0x80000 >> 7) + w as u32, sect: 0, gran: 2, last: true }]
            );
        }
    }

    /// §4.2: "an offset of 8 generates 101010..." (every other word).
    #[test]
    fn offset_8_is_every_other_word() {
        let p = AeuParams { warps: 1, ctas: 1 };
        let (recs, _) = expand(&p, &one_cta([32, 1, 1]), word(0x1000, 8));
        assert_eq!(
            recs[0],
            vec![
                Record { mask: 0x5555_5555, line: 0x1000 >> 7, sect: 0, gran: 2, last: false },
                Record { mask: 0x5555_5555, line: (0x1000 >> 7) + 1, sect: 0, gran: 2, last: true },
            ]
        );
    }

    /// The unaligned start of Figure 1 (A = 0x100 + 4*tid is aligned; shift it
    /// by 8 bytes): two records, split at the line boundary.
    #[test]
    fn unaligned_start_splits_at_the_line() {
        let p = AeuParams { warps: 1, ctas: 1 };
        let (recs, _) = expand(&p, &one_cta([32, 1, 1]), word(0x108, 4));
        assert_eq!(
            recs[0],
            vec![
                Record { mask: 0xffff_fffc, line: 2, sect: 0, gran: 2, last: false },
                Record { mask: 0x3, line: 3, sect: 0, gran: 2, last: true },
            ]
        );
    }

    /// Cycles per warp for the common cases (reported in the block's doc).
    #[test]
    fn cycles_per_warp_common_cases() {
        let p = AeuParams::default();
        // 8 CTAs of 192 threads (6 warps each) = 48 warps.
        let cfg = CtaConfig {
            dims: [192, 1, 1],
            valid: vec![true; 8],
            bid: (0..8).map(|c| [c, 0, 0]).collect(),
            warp0: (0..8).map(|c| 6 * c).collect(),
        };
        let with_block =
            |t: TupleCmd| TupleCmd { aff: Aff { off: [t.aff.off[0], 0, 0, 192 * t.aff.off[0], 0, 0], ..t.aff }, ..t };
        let cases = [
            ("offset 4 word, aligned", with_block(word(0x10_0000, 4))),
            ("offset 4 word, unaligned", with_block(word(0x10_0008, 4))),
            ("offset 0 (scalar)", with_block(word(0x10_0000, 0))),
            ("offset 8 word", with_block(word(0x10_0000, 8))),
            ("offset 1 byte", TupleCmd { op: tuple::GRAN_BYTE, ..with_block(word(0x10_0000, 1)) }),
            ("offset 12 word (serial)", with_block(word(0x10_0000, 12))),
        ];
        for (name, t) in cases {
            let (recs, cycles) = expand(&p, &cfg, t);
            let n: usize = recs.iter().map(|r| r.len()).sum();
            println!("AEU {name}: {cycles} cycles for 48 warps = {:.2} cycles/warp, {n} records", cycles as f64 / 48.0);
        }
        // The common case: accept + 4 setup + 8 CTA starts + 48 records.
        let (recs, cycles) = expand(&p, &cfg, with_block(word(0x10_0000, 4)));
        assert!(recs.iter().all(|r| r.len() == 1));
        assert_eq!(cycles, 1 + 4 + 8 + 48);
        // A 2D block whose rows are 32 threads: the tuple of tid.y*32+tid.x is
        // linear (no adjustment cycles), a transposed one is not.
        let cfg2 = CtaConfig { dims: [32, 8, 1], ..one_cta([32, 8, 1]) };
        let lin = TupleCmd { aff: Aff::new(0x2000, [4, 128, 0, 0, 0, 0]), ..word(0, 0) };
        let (_, c_lin) = expand(&AeuParams { warps: 8, ctas: 1 }, &cfg2, lin);
        let strided = TupleCmd { aff: Aff::new(0x2000, [4, 4096, 0, 0, 0, 0]), ..word(0, 0) };
        let (_, c_str) = expand(&AeuParams { warps: 8, ctas: 1 }, &cfg2, strided);
        println!("AEU 32x8 block: linear {c_lin} cycles, row stride 4096: {c_str} cycles (8 warps)");
        assert_eq!(c_lin, 1 + 4 + 1 + 8);
        assert_eq!(c_str, 1 + 4 + 1 + 8 + 7);
    }

    /// Edge cases named by the issue, one by one through the full checker.
    #[test]
    fn edge_cases_cover_exactly() {
        let p = AeuParams { warps: 16, ctas: 2 };
        let mut cases = vec![];
        for base in [0u32, 0x7c, 0xffff_ff80, 0xffff_fff0, 0x8000_0000 - 6, 3] {
            for otx in [
                0u32,
                1,
                2,
                4,
                8,
                12,
                128,
                132,
                256,
                0xffff_fffc,
                0xffff_fff8,
                0xffff_ff80,
                0x8000_0000,
                0x4000_0000,
                0x1000_0000,
                7,
                0xffff_fff9,
            ] {
                for gran in 0..4 {
                    cases.push(TupleCmd {
                        aff: Aff::new(base, [otx, 0, 0, 0, 0, 0]),
                        rhs: 0,
                        kind: tuple::KIND_ADDR,
                        op: gran,
                    });
                }
            }
        }
        for dims in [[64, 1, 1], [5, 3, 2], [33, 2, 1], [16, 4, 1]] {
            let cfg = CtaConfig { dims, valid: vec![true, true], bid: vec![[1, 0, 0], [3, 2, 1]], warp0: vec![0, 4] };
            for t in &cases {
                let mut t = *t;
                t.aff.off[1] = t.aff.off[0].wrapping_mul(dims[0]).wrapping_add(if dims[1] == 3 { 0 } else { 0x40 });
                t.aff.off[2] = 0x1234;
                t.aff.off[3] = 0x8000;
                let (recs, _) = expand(&p, &cfg, t);
                for (ci, b) in [(0usize, [1u32, 0, 0]), (1, [3, 2, 1])] {
                    let g = crate::models::dac::affine::CtaGeom { dims, bid: b };
                    for wi in 0..g.warps() {
                        let slot = (cfg.warp0[ci] + wi) as usize;
                        let got: BTreeSet<u32> =
                            recs[slot].iter().flat_map(|r| r.units().collect::<Vec<_>>()).collect();
                        assert!(recs[slot].iter().all(|r| r.mask != 0));
                        assert!(recs[slot].last().unwrap().last);
                        assert_eq!(
                            got,
                            crate::models::dac::affine::warp_units(&t.aff, &g, wi, t.op),
                            "{t:?} {dims:?} cta {ci} warp {wi}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn random_traffic_expands_exactly() {
        for (p, seed, cycles) in [
            (AeuParams::default(), 1, 60_000),
            (AeuParams { warps: 12, ctas: 3 }, 2, 40_000),
            (AeuParams { warps: 1, ctas: 1 }, 3, 20_000),
        ] {
            let mut d = driver(&p, seed);
            let stim = Stimulus::record(&mut d, cycles);
            let mut dut = Aeu::new(&p);
            let rep = check_expansion(&mut dut, &p, &stim).unwrap();
            println!("AEU {p:?}: {rep:?}");
            assert!(rep.tuples > 50 && rep.records > 1000, "{rep:?}");
        }
    }

    #[test]
    fn reset_mid_tuple_returns_to_idle() {
        let p = AeuParams { warps: 4, ctas: 1 };
        let mut dut = Aeu::new(&p);
        let (rst, iv, it) = (dut.input("rst").unwrap(), dut.input("in_valid").unwrap(), dut.input("in_tuple").unwrap());
        let ready = dut.output("in_ready").unwrap();
        dut.set_u64(dut.input("cta_valid").unwrap(), 1);
        dut.set_u64(dut.input("blk_dim_x_m1").unwrap(), 127);
        dut.set_bool(iv, true);
        dut.set(it, &word(0, 12).pack());
        dut.step();
        dut.set_bool(iv, false);
        for _ in 0..10 {
            dut.step();
        }
        dut.eval();
        assert!(!dut.get_bool(ready));
        dut.set_bool(rst, true);
        dut.step();
        dut.set_bool(rst, false);
        dut.eval();
        assert!(dut.get_bool(ready));
        assert!(!dut.get_bool(dut.output("push").unwrap()));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
        /// Random parameters and seeds: the coverage property holds.
        #[test]
        fn prop_records_cover_exactly(warps in 1u32..=64, ctas in 1u32..=16, seed in proptest::prelude::any::<u64>()) {
            let p = AeuParams { warps, ctas };
            let stim = Stimulus::record(&mut driver(&p, seed), 8_000);
            let r = check_expansion(&mut Aeu::new(&p), &p, &stim);
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
