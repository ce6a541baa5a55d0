//! Reference model of the affine tuple queue (ATQ), written from the
//! specification in `hw/src/blocks/dac/atq.rs` (paper §4.1, §4.8).

use super::TupleWords;
use crate::bits::get_field;
use crate::Reference;
use hw::blocks::dac::atq::{AtqIo, AtqParams};
use hw::blocks::dac::tuple;
use sim::{Bind, Component, PortFrame, PortId};

/// `enq_ready` for a tuple: room in the ATQ, and no full per-warp queue of the
/// kind the tuple expands into (§4.1: "if the ATQ has no available space, or
/// if one of the PWPQs is full, then the affine warp is not allowed to issue").
pub fn enq_ready(full: bool, kind: u64, pwaq_any_full: bool, pwpq_any_full: bool) -> bool {
    !full && !(if kind == tuple::KIND_PRED { pwpq_any_full } else { pwaq_any_full })
}

pub struct Atq {
    p: AtqParams,
    pub(crate) frame: PortFrame,
    io: AtqIo<PortId>,
    mem: Vec<TupleWords>,
    head: u32,
    tail: u32,
    count: u32,
}

impl Atq {
    pub fn new(p: &AtqParams) -> Self {
        Atq { p: p.clone(), frame: p.frame(), io: p.ids(), mem: vec![[0; tuple::WORDS]; p.entries as usize], head: 0, tail: 0, count: 0 }
    }

    /// The clock edge would change the state (a reset, an enqueue or a
    /// dequeue).
    pub(crate) fn edge_changes(&self) -> bool {
        let (rst, enq, deq) = self.inputs();
        rst || enq || deq
    }

    fn inputs(&self) -> (bool, bool, bool) {
        let g = |id| self.frame.get_bool(id);
        let kind = get_field(self.frame.get(self.io.enq_tuple), tuple::KIND as usize, 2);
        let ready = enq_ready(self.count == self.p.entries, kind, g(self.io.pwaq_any_full), g(self.io.pwpq_any_full));
        (g(self.io.rst), g(self.io.enq_valid) && ready, g(self.io.deq) && self.count > 0)
    }
}

impl Component for Atq {
    fn name(&self) -> &str {
        "atq"
    }
    sim::frame_ports!(frame);
    fn eval(&mut self) {
        let full = self.count == self.p.entries;
        let (af, pf) = (self.frame.get_bool(self.io.pwaq_any_full), self.frame.get_bool(self.io.pwpq_any_full));
        self.frame.set_bool(self.io.enq_ready_addr, enq_ready(full, tuple::KIND_ADDR, af, pf));
        self.frame.set_bool(self.io.enq_ready_pred, enq_ready(full, tuple::KIND_PRED, af, pf));
        self.frame.set_bool(self.io.head_valid, self.count > 0);
        let head = if self.count > 0 { self.mem[self.head as usize] } else { [0; tuple::WORDS] };
        self.frame.set(self.io.head_tuple, &head);
        self.frame.set_u64(self.io.count, self.count as u64);
        self.frame.set_bool(self.io.full, full);
    }
    fn tick(&mut self) {
        let (rst, enq, deq) = self.inputs();
        if rst {
            self.head = 0;
            self.tail = 0;
            self.count = 0;
            return;
        }
        let n = self.p.entries;
        if enq {
            let mut w = [0u64; tuple::WORDS];
            w.copy_from_slice(self.frame.get(self.io.enq_tuple));
            self.mem[self.tail as usize] = w;
            self.tail = (self.tail + 1) % n;
        }
        if deq {
            self.head = (self.head + 1) % n;
        }
        self.count = self.count + enq as u32 - deq as u32;
    }
}

impl Reference for AtqParams {
    type Model = Atq;
    fn model(&self) -> Atq {
        Atq::new(self)
    }
}
