//! Verification of the affine tuple queue (ATQ) (specification
//! `hw/src/blocks/dac/atq.rs`, model `models::dac::atq`): a constrained-random
//! driver and the FIFO property check.

use super::stim::TupleGen;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::dac::atq::{AtqIo, AtqParams};
use hw::blocks::dac::tuple;
use hw::iface::InterfaceExt;
use models::dac::{TupleCmd, TupleWords};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::collections::VecDeque;
use std::sync::Arc;

/// Registry entry: the driver of `atq`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "atq",
    driver: |p, seed| Ok(Box::new(AtqDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Constrained-random ATQ traffic: phases of fast and slow producers and
/// consumers (to reach full and empty), backpressure flags, tuples of every
/// kind, occasional resets.
pub struct AtqDriver {
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    io: AtqIo<PortId>,
    cycle: u64,
    gen: TupleGen,
    p_enq: f64,
    p_deq: f64,
    p_bp: f64,
}

impl AtqDriver {
    pub fn new(p: &AtqParams, seed: u64) -> Self {
        AtqDriver {
            layout: InputLayout::of(&p.ports()),
            rng: ChaCha8Rng::seed_from_u64(seed),
            io: p.ids(),
            cycle: 0,
            gen: TupleGen::new([64, 2, 1]),
            p_enq: 0.5,
            p_deq: 0.5,
            p_bp: 0.0,
        }
    }
}

impl Driver for AtqDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let r = &mut self.rng;
        if self.cycle.is_multiple_of(128) {
            self.p_enq = [0.1, 0.5, 0.9, 1.0][r.random_range(0..4)];
            self.p_deq = [0.0, 0.1, 0.5, 0.9][r.random_range(0..4)];
            self.p_bp = [0.0, 0.0, 0.1, 0.5][r.random_range(0..4)];
        }
        f.set_bool(self.io.rst, self.cycle == 0 || r.random_bool(0.002));
        self.cycle += 1;
        f.set_bool(self.io.enq_valid, r.random_bool(self.p_enq));
        let mut t = if r.random_bool(0.5) { self.gen.addr(r) } else { self.gen.pred(r) };
        if r.random_bool(0.05) {
            t.kind = tuple::KIND_RSVD;
        }
        f.set_wide(self.io.enq_tuple, &t.pack());
        f.set_bool(self.io.pwaq_any_full, r.random_bool(self.p_bp));
        f.set_bool(self.io.pwpq_any_full, r.random_bool(self.p_bp));
        f.set_bool(self.io.deq, r.random_bool(self.p_deq));
    }
}

/// Coverage of a [`check_fifo`] run.
#[derive(Clone, Debug, Default)]
pub struct AtqReport {
    pub enqueued: u64,
    pub dequeued: u64,
    pub full_cycles: u64,
    pub refused_by_backpressure: u64,
}

/// Run `stim` through `dut` and compare against a plain FIFO: `enq_ready_*`
/// (room and each kind's backpressure), `head_valid`/`head_tuple`,
/// `count`, `full`; tuples leave in order, unchanged; an `enq` without
/// the ready of its kind and a `deq` of an empty queue do nothing.
pub fn check_fifo(dut: &mut dyn Component, p: &AtqParams, stim: &Stimulus) -> Result<AtqReport, String> {
    let layout = stim.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (ready_a, ready_p, hv, ht, count, full) = (io.enq_ready_addr, io.enq_ready_pred, io.head_valid, io.head_tuple, io.count, io.full);
    let (s_rst, s_ev, s_et, s_af, s_pf, s_deq) = (io.rst, io.enq_valid, io.enq_tuple, io.pwaq_any_full, io.pwpq_any_full, io.deq);
    let mut frame = Frame::new(layout.clone());
    let mut q: VecDeque<TupleWords> = VecDeque::new();
    let mut rep = AtqReport::default();
    for c in 0..stim.cycles() {
        frame.load(stim.cycle(c));
        dut.set_inputs(stim.cycle(c));
        dut.eval();
        let bit = |s: PortId| frame.get(s)[0] & 1 != 0;
        let t = TupleCmd::unpack(frame.get(s_et));
        let room = q.len() < p.entries as usize;
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        for (name, ready, bp) in [("addr", ready_a, bit(s_af)), ("pred", ready_p, bit(s_pf))] {
            if dut.get_bool(ready) != (room && !bp) {
                return err(format!("enq_ready_{name} {} with {} entries, backpressure {bp}", dut.get_bool(ready), q.len()));
            }
        }
        let bp = if t.kind == tuple::KIND_PRED { bit(s_pf) } else { bit(s_af) };
        let want_ready = room && !bp;
        if dut.get_u64(count) != q.len() as u64 || dut.get_bool(full) == room || dut.get_bool(hv) == q.is_empty() {
            return err(format!(
                "count/full/head_valid {} {} {} for {} entries",
                dut.get_u64(count),
                dut.get_bool(full),
                dut.get_bool(hv),
                q.len()
            ));
        }
        let want_head = q.front().copied().unwrap_or([0; tuple::WORDS]);
        if dut.get(ht) != want_head {
            return err(format!("head {:x?}, expected {:x?}", dut.get(ht), want_head));
        }
        if bit(s_rst) {
            q.clear();
        } else {
            if bit(s_deq) && q.pop_front().is_some() {
                rep.dequeued += 1;
            }
            if bit(s_ev) && want_ready {
                let mut w = [0u64; tuple::WORDS];
                w.copy_from_slice(frame.get(s_et));
                q.push_back(w);
                rep.enqueued += 1;
            }
            if bit(s_ev) && room && bp {
                rep.refused_by_backpressure += 1;
            }
            if !room {
                rep.full_cycles += 1;
            }
        }
        dut.tick();
    }
    Ok(rep)
}

