//! What lies below the SM's L1, as one SM sees it: the request queue toward
//! the interconnect (COMQ), an L2 tag array, and DRAM — each a fixed latency
//! plus a bandwidth limit (a request leaves the queue every `icnt_interval`
//! cycles, DRAM moves one L2 line every `dram_interval` cycles, a response
//! enters the SM every `response_interval` cycles). No other SM competes;
//! the bandwidths are this SM's share (SM.md §3 allows this model for one SM).
//!
//! Timing of a read that leaves the queue at cycle `t`: an L2 hit returns at
//! `t + l2_latency`; a miss at `max(t + dram_latency, previous DRAM transfer +
//! dram_interval)`. Stores write through to L2 (write-allocate, as GPGPU-Sim's
//! L2 `L:B:m:W`) and take a DRAM slot each (the eventual write-back), with no
//! response. Atomics are performed at L2 (GPGPU-Sim's ROP) and return like
//! reads.

use super::cache::{Probe, TagArray};
use crate::config::Config;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// What a request is for, carried back in its response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// An L1 line fill for MSHR entry `mshr`.
    Read { mshr: u32 },
    /// A write-through store: no response.
    Write,
    /// A write-through store of warp `warp` that L2 acknowledges
    /// (`memory.store_acks`).
    Store { warp: u16 },
    /// An atomic performed at L2 for in-flight load `load`.
    Atomic { load: u32 },
    /// An MTA prefetch: the line fills the prefetch buffer (no MSHR).
    Prefetch,
    /// An instruction-cache miss (`l1.read_only_misses = "memory"`).
    Inst,
    /// A constant-cache miss (`l1.read_only_misses = "memory"`).
    Const,
}

impl Kind {
    /// The request changes the line's data (an L2 line becomes dirty).
    pub fn dirties(self) -> bool {
        matches!(self, Kind::Write | Kind::Store { .. } | Kind::Atomic { .. })
    }

    /// A store (acknowledged or not).
    pub fn is_write(self) -> bool {
        matches!(self, Kind::Write | Kind::Store { .. })
    }

    /// The request gets a response: data, or a store's acknowledgement.
    pub fn replies(self) -> bool {
        self != Kind::Write
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// L1 line address (byte address / L1 line size).
    pub line: u64,
    pub kind: Kind,
}

/// A response entering the SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response {
    pub line: u64,
    pub kind: Kind,
    /// It missed in L2.
    pub dram: bool,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LowerStats {
    pub reads: u64,
    pub writes: u64,
    pub atomics: u64,
    pub l2_hits: u64,
    pub l2_misses: u64,
}

/// (ready cycle, sequence, line, kind, missed in L2).
type InFlight = (u64, u64, u64, Kind, bool);

pub struct LowerMemory {
    l2: TagArray,
    /// L2 lines per L1 line.
    sectors: u64,
    queue: VecDeque<Request>,
    capacity: usize,
    icnt_interval: u64,
    next_inject: u64,
    l2_latency: u64,
    dram_latency: u64,
    dram_interval: u64,
    dram_done: u64,
    response_interval: u64,
    next_response: u64,
    /// Responses on their way, earliest first; the sequence keeps order stable.
    in_flight: BinaryHeap<Reverse<InFlight>>,
    seq: u64,
    /// L2 sectors whose DRAM data is still on its way: the cycle it is
    /// there (a request for one waits for it, as an L2 MSHR merge).
    filling: std::collections::HashMap<u64, u64>,
    pub stats: LowerStats,
}

impl LowerMemory {
    pub fn new(c: &Config) -> Self {
        let m = &c.memory;
        LowerMemory {
            l2: TagArray::new(m.l2_sets, m.l2_ways, m.l2_line),
            sectors: (c.l1.line / m.l2_line) as u64,
            queue: VecDeque::with_capacity(m.icnt_queue as usize),
            capacity: m.icnt_queue as usize,
            icnt_interval: m.icnt_interval as u64,
            next_inject: 0,
            l2_latency: m.l2_latency as u64,
            dram_latency: m.dram_latency as u64,
            dram_interval: m.dram_interval as u64,
            dram_done: 0,
            response_interval: m.response_interval as u64,
            next_response: 0,
            in_flight: BinaryHeap::new(),
            seq: 0,
            filling: std::collections::HashMap::new(),
            stats: LowerStats::default(),
        }
    }

    /// Free entries in the request queue.
    pub fn queue_space(&self) -> usize {
        self.capacity - self.queue.len()
    }

    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Push a request (the caller checked `queue_space`).
    pub fn push(&mut self, r: Request) {
        debug_assert!(self.queue.len() < self.capacity);
        self.queue.push_back(r);
    }

    /// Requests in flight below the SM (queued or on their way back).
    pub fn busy(&self) -> bool {
        !self.queue.is_empty() || !self.in_flight.is_empty()
    }

    /// One core cycle: the queue head leaves if the port is free.
    pub fn cycle(&mut self, now: u64) {
        if now < self.next_inject {
            return;
        }
        let Some(r) = self.queue.pop_front() else { return };
        self.next_inject = now + self.icnt_interval;
        // L2 lookup of every sector of the L1 line.
        let first = r.line * self.sectors;
        let missing = (first..first + self.sectors).filter(|&s| self.l2.probe(s) != Probe::Hit).count() as u64;
        for s in first..first + self.sectors {
            self.l2.insert(s);
        }
        let mut ready = now + self.l2_latency;
        for s in first..first + self.sectors {
            if let Some(&t) = self.filling.get(&s) {
                ready = ready.max(t);
            }
        }
        if missing > 0 {
            for _ in 0..missing {
                self.dram_done = (now + self.dram_latency).max(self.dram_done + self.dram_interval);
            }
            ready = self.dram_done;
            if self.filling.len() >= 4096 {
                self.filling.retain(|_, t| *t > now);
            }
            for s in first..first + self.sectors {
                self.filling.insert(s, ready);
            }
        }
        match r.kind {
            Kind::Read { .. } | Kind::Prefetch | Kind::Inst | Kind::Const => self.stats.reads += 1,
            Kind::Write | Kind::Store { .. } => self.stats.writes += 1,
            Kind::Atomic { .. } => self.stats.atomics += 1,
        }
        if missing > 0 {
            self.stats.l2_misses += 1;
        } else {
            self.stats.l2_hits += 1;
        }
        if let Kind::Store { .. } = r.kind {
            // Acknowledged once L2 has it: a write miss allocates without a
            // fetch (GPGPU-Sim's lazy fetch-on-read L2).
            ready = now + self.l2_latency;
        }
        if r.kind.replies() {
            self.seq += 1;
            self.in_flight.push(Reverse((ready, self.seq, r.line, r.kind, missing > 0)));
        }
    }

    /// The response entering the SM this cycle, if one is due and the
    /// response port is free.
    pub fn pop_response(&mut self, now: u64) -> Option<Response> {
        if now < self.next_response {
            return None;
        }
        let &Reverse((ready, ..)) = self.in_flight.peek()?;
        if ready > now {
            return None;
        }
        let Reverse((_, _, line, kind, dram)) = self.in_flight.pop()?;
        self.next_response = now + self.response_interval;
        Some(Response { line, kind, dram })
    }

    /// Put a response back (the SM could not take it this cycle); it is
    /// offered again next cycle, before later ones.
    pub fn unpop(&mut self, r: Response, now: u64) {
        self.next_response = now + 1;
        self.in_flight.push(Reverse((now, 0, r.line, r.kind, r.dram)));
    }
}

/// In a GPU: an SM's port onto the interconnect. The SM pushes requests
/// into its queue (COMQ), the GPU's crossbar drains it and delivers
/// responses (`inbound`), at most one of which enters the SM per cycle.
pub struct Port {
    pub out: VecDeque<Request>,
    capacity: usize,
    pub inbound: VecDeque<Response>,
    /// Reads and atomics sent whose response has not entered the SM.
    outstanding: u32,
}

/// What lies below an SM's L1.
pub enum Lower {
    /// A single SM: its share of an unloaded memory system.
    Private(Box<LowerMemory>),
    /// An SM of a GPU.
    Port(Port),
}

impl Lower {
    pub fn new(c: &Config) -> Lower {
        Lower::Private(Box::new(LowerMemory::new(c)))
    }

    /// Become a GPU's SM: requests go to the GPU's interconnect.
    pub fn to_port(&mut self, c: &Config) {
        *self = Lower::Port(Port { out: VecDeque::new(), capacity: c.memory.icnt_queue as usize, inbound: VecDeque::new(), outstanding: 0 });
    }

    pub fn port_mut(&mut self) -> Option<&mut Port> {
        match self {
            Lower::Port(p) => Some(p),
            Lower::Private(_) => None,
        }
    }

    pub fn stats(&self) -> LowerStats {
        match self {
            Lower::Private(m) => m.stats.clone(),
            Lower::Port(_) => LowerStats::default(),
        }
    }

    pub fn queue_space(&self) -> usize {
        match self {
            Lower::Private(m) => m.queue_space(),
            Lower::Port(p) => p.capacity - p.out.len(),
        }
    }

    pub fn queue_len(&self) -> usize {
        match self {
            Lower::Private(m) => m.queue_len(),
            Lower::Port(p) => p.out.len(),
        }
    }

    pub fn push(&mut self, r: Request) {
        match self {
            Lower::Private(m) => m.push(r),
            Lower::Port(p) => {
                debug_assert!(p.out.len() < p.capacity);
                p.outstanding += r.kind.replies() as u32;
                p.out.push_back(r);
            }
        }
    }

    pub fn busy(&self) -> bool {
        match self {
            Lower::Private(m) => m.busy(),
            Lower::Port(p) => !p.out.is_empty() || p.outstanding > 0,
        }
    }

    pub fn cycle(&mut self, now: u64) {
        if let Lower::Private(m) = self {
            m.cycle(now);
        }
    }

    pub fn pop_response(&mut self, now: u64) -> Option<Response> {
        match self {
            Lower::Private(m) => m.pop_response(now),
            Lower::Port(p) => {
                let r = p.inbound.pop_front()?;
                p.outstanding -= 1;
                Some(r)
            }
        }
    }

    pub fn unpop(&mut self, r: Response, now: u64) {
        match self {
            Lower::Private(m) => m.unpop(r, now),
            Lower::Port(p) => {
                p.outstanding += 1;
                p.inbound.push_front(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem() -> LowerMemory {
        LowerMemory::new(&Config::preset("hpca16_pmode"))
    }

    fn run_one(m: &mut LowerMemory, start: u64, r: Request) -> (u64, Response) {
        m.push(r);
        for t in start..start + 10_000 {
            m.cycle(t);
            if let Some(resp) = m.pop_response(t) {
                return (t - start, resp);
            }
        }
        panic!("no response");
    }

    #[test]
    fn latencies() {
        let mut m = mem();
        let (t, r) = run_one(&mut m, 0, Request { line: 7, kind: Kind::Read { mshr: 3 } });
        assert_eq!((t, r.kind, r.dram), (440, Kind::Read { mshr: 3 }, true));
        let (t, r) = run_one(&mut m, 1000, Request { line: 7, kind: Kind::Read { mshr: 1 } });
        assert_eq!((t, r.dram), (200, false));
    }

    #[test]
    fn dram_bandwidth_spaces_misses() {
        let mut m = mem();
        for line in 0..4 {
            m.push(Request { line: 100 + line, kind: Kind::Read { mshr: line as u32 } });
        }
        let mut times = vec![];
        for t in 0..2000 {
            m.cycle(t);
            if m.pop_response(t).is_some() {
                times.push(t);
            }
        }
        // Injected at 0,1,2,3; DRAM transfers 8 cycles apart.
        assert_eq!(times, vec![440, 448, 456, 464]);
        assert!(!m.busy());
    }
}
