//! One network of the GPU's interconnect: a crossbar from `inputs` to
//! `outputs` (the GTX 480's is a single-stage butterfly, `topology = fly`
//! with one router, which is a crossbar). GPGPU-Sim runs two such networks,
//! requests (SMs to L2 slices) and replies (slices to SMs).
//!
//! A packet is `flits` flits of `flit_bytes`. Each input is a FIFO of
//! `buffer` packets (one virtual channel: head-of-line blocking, as the
//! GTX 480 configuration's `num_vcs = 1`). Each cycle every free output
//! grants one waiting input round-robin (an iSLIP-like separable allocator
//! with one iteration); a granted packet holds its input and output for
//! one cycle per flit (one flit per port per cycle), then arrives at the
//! output `latency` cycles later. An output accepts a packet only while
//! its ejection buffer (`buffer` packets, counting those on their way) has
//! room: back-pressure reaches the inputs.

use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct IcntStats {
    pub packets: u64,
    pub flits: u64,
    /// Input-cycles a head packet waited for its output.
    pub blocked: u64,
}

pub struct Crossbar<T> {
    inputs: Vec<VecDeque<(u32, u32, T)>>,
    buffer: usize,
    latency: u64,
    /// Cycle each input / output is free again.
    input_free: Vec<u64>,
    output_free: Vec<u64>,
    /// Per output: the input its round-robin starts at.
    rr: Vec<u32>,
    /// Per output: packets on their way (arrival cycle) and arrived.
    flying: Vec<VecDeque<(u64, T)>>,
    arrived: Vec<VecDeque<T>>,
    /// Packets in the input queues, and per output whether an input's head
    /// wants it this cycle (scratch: arbitration looks only at those).
    queued: usize,
    wanted: Vec<bool>,
    now: u64,
    pub stats: IcntStats,
}

impl<T> Crossbar<T> {
    pub fn new(inputs: usize, outputs: usize, buffer: usize, latency: u64) -> Crossbar<T> {
        Crossbar {
            inputs: (0..inputs).map(|_| VecDeque::with_capacity(buffer)).collect(),
            buffer,
            latency,
            input_free: vec![0; inputs],
            output_free: vec![0; outputs],
            rr: vec![0; outputs],
            flying: (0..outputs).map(|_| VecDeque::new()).collect(),
            arrived: (0..outputs).map(|_| VecDeque::new()).collect(),
            queued: 0,
            wanted: vec![false; outputs],
            now: 0,
            stats: IcntStats::default(),
        }
    }

    /// Input `i` can take a packet.
    pub fn can_push(&self, i: usize) -> bool {
        self.inputs[i].len() < self.buffer
    }

    /// Queue a packet of `flits` flits at input `i` for output `dest`.
    pub fn push(&mut self, i: usize, dest: usize, flits: u32, payload: T) {
        debug_assert!(self.can_push(i) && flits > 0);
        self.inputs[i].push_back((dest as u32, flits, payload));
        self.queued += 1;
    }

    /// The packet that arrived first at output `o`.
    pub fn peek(&self, o: usize) -> Option<&T> {
        self.arrived[o].front()
    }

    pub fn pop(&mut self, o: usize) -> Option<T> {
        self.arrived[o].pop_front()
    }

    pub fn busy(&self) -> bool {
        self.queued > 0 || self.flying.iter().any(|q| !q.is_empty()) || self.arrived.iter().any(|q| !q.is_empty())
    }

    /// One interconnect cycle.
    pub fn cycle(&mut self) {
        let now = self.now;
        let n = self.inputs.len();
        self.wanted.fill(false);
        if self.queued > 0 {
            for (i, q) in self.inputs.iter().enumerate() {
                if let Some(p) = q.front().filter(|_| self.input_free[i] <= now) {
                    self.wanted[p.0 as usize] = true;
                }
            }
        }
        for o in 0..self.output_free.len() {
            if !self.wanted[o] || self.output_free[o] > now || self.flying[o].len() + self.arrived[o].len() >= self.buffer {
                continue;
            }
            let start = self.rr[o] as usize;
            let granted = (0..n).map(|k| (start + k) % n).find(|&i| {
                self.input_free[i] <= now && self.inputs[i].front().is_some_and(|p| p.0 as usize == o)
            });
            let Some(i) = granted else { continue };
            let (_, flits, payload) = self.inputs[i].pop_front().expect("a granted packet");
            self.queued -= 1;
            self.input_free[i] = now + flits as u64;
            self.output_free[o] = now + flits as u64;
            self.rr[o] = ((i + 1) % n) as u32;
            self.flying[o].push_back((now + flits as u64 + self.latency, payload));
            self.stats.packets += 1;
            self.stats.flits += flits as u64;
        }
        if self.queued > 0 {
            for (i, q) in self.inputs.iter().enumerate() {
                if q.front().is_some() && self.input_free[i] <= now {
                    self.stats.blocked += 1;
                }
            }
        }
        for (f, a) in self.flying.iter_mut().zip(&mut self.arrived) {
            while f.front().is_some_and(|p| p.0 <= now + 1) {
                a.push_back(f.pop_front().expect("a packet").1);
            }
        }
        self.now += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cycle at which each packet (by payload) can be popped at its output.
    fn run(x: &mut Crossbar<u32>, outputs: usize, cycles: u64) -> Vec<(u32, u64)> {
        let mut got = vec![];
        for t in 0..cycles {
            x.cycle();
            for o in 0..outputs {
                while let Some(p) = x.pop(o) {
                    got.push((p, t + 1));
                }
            }
        }
        got
    }

    #[test]
    fn one_packet_takes_its_flits_plus_the_latency() {
        let mut x = Crossbar::new(2, 2, 4, 3);
        x.push(0, 1, 5, 7);
        // Granted in cycle 0, 5 flits, 3 cycles of latency: there at 8.
        assert_eq!(run(&mut x, 2, 20), vec![(7, 8)]);
        assert!(!x.busy());
    }

    #[test]
    fn an_output_serialises_inputs_round_robin() {
        let mut x = Crossbar::new(3, 1, 4, 1);
        x.push(0, 0, 2, 0);
        x.push(1, 0, 2, 1);
        x.push(2, 0, 2, 2);
        x.push(0, 0, 2, 3);
        // Grants at 0 (input 0), 2 (input 1), 4 (input 2), 6 (input 0 again).
        assert_eq!(run(&mut x, 1, 20), vec![(0, 3), (1, 5), (2, 7), (3, 9)]);
    }

    #[test]
    fn different_outputs_in_parallel_and_head_of_line_blocking() {
        let mut x = Crossbar::new(2, 2, 4, 1);
        x.push(0, 0, 4, 0);
        x.push(1, 0, 1, 1);
        x.push(1, 1, 1, 2);
        // Output 0 serves input 0 (cycles 0-3), then input 1 (4); input 1's
        // packet for output 1 waits behind its head until 5.
        assert_eq!(run(&mut x, 2, 20), vec![(0, 5), (1, 6), (2, 7)]);
        assert!(x.stats.blocked > 0);
    }

    #[test]
    fn a_full_ejection_buffer_stops_the_output() {
        let mut x = Crossbar::new(1, 1, 2, 1);
        for p in 0..2 {
            x.push(0, 0, 1, p);
        }
        for _ in 0..10 {
            x.cycle();
        }
        x.push(0, 0, 1, 2);
        for _ in 0..10 {
            x.cycle();
        }
        // Two arrived and not taken: the third waits at the input.
        assert_eq!((x.pop(0), x.pop(0), x.pop(0)), (Some(0), Some(1), None));
        x.cycle();
        x.cycle();
        x.cycle();
        assert_eq!(x.pop(0), Some(2));
    }
}
