//! One L2 slice (GPGPU-Sim's memory sub-partition): the ROP delay queue
//! from the interconnect, a write-back, write-allocate cache with its own
//! MSHRs, the miss queue toward the channel's DRAM, and the reply queue
//! toward the interconnect. Atomics are performed here (GPGPU-Sim's ROP)
//! and answered like reads.
//!
//! What we chose where GPGPU-Sim differs: a store is one whole-line write
//! (the SM sends one request per line it writes), so a write miss allocates
//! the line dirty without fetching it; a write to a line with a fill pending
//! merges into that MSHR and dirties the line when it arrives. Sets are
//! indexed by the partition address (`AddressMap::partition_address`), as
//! in GPGPU-Sim's `l2_cache_config::set_index`.

use crate::mem::lower::Kind;
use std::collections::VecDeque;

/// A request from an SM for one L2 line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Request {
    pub sm: u16,
    /// Line address (byte address / line size).
    pub line: u64,
    /// Set index (from the partition address).
    pub set: u32,
    pub kind: Kind,
}

/// Something for the channel's DRAM: a line fill for MSHR `mshr`, or a
/// dirty line's write-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramOp {
    pub line: u64,
    pub write: bool,
    pub mshr: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct L2Stats {
    pub reads: u64,
    pub writes: u64,
    pub atomics: u64,
    pub hits: u64,
    pub misses: u64,
    /// Misses merged into a pending fill.
    pub merges: u64,
    /// Dirty lines written back to DRAM.
    pub writebacks: u64,
    /// L2 cycles the head request could not be served (no MSHR, full miss
    /// or reply queue).
    pub stalls: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Way {
    line: u64,
    valid: bool,
    dirty: bool,
    used: u64,
}

struct Mshr {
    line: u64,
    set: u32,
    waiting: Vec<L2Request>,
    dirty: bool,
}

pub struct L2Slice {
    ways: usize,
    tags: Vec<Way>,
    mshrs: Vec<Option<Mshr>>,
    merge: usize,
    rop: VecDeque<(u64, L2Request)>,
    rop_latency: u64,
    /// Toward DRAM: (L2 cycle it may leave, operation).
    pub miss_queue: VecDeque<(u64, DramOp)>,
    miss_capacity: usize,
    /// Spent at the miss queue's head (0 with `gpu.dram_latency_queue`:
    /// the GPU's channel spends it after the queue).
    dram_latency: u64,
    pub replies: VecDeque<L2Request>,
    reply_capacity: usize,
    /// MSHRs whose line DRAM returned, waiting to fill.
    pub fills: VecDeque<u32>,
    /// Entries of the queues between the crossbar, the slice and DRAM.
    pub queue: usize,
    now: u64,
    pub stats: L2Stats,
}

/// What an L2 slice keeps for the next kernel launch (`crate::run::Warm`):
/// its lines, dirty ones included, and its clock, so that their use order
/// stands.
#[derive(Clone, Debug)]
pub struct L2Lines {
    tags: Vec<Way>,
    now: u64,
}

impl L2Slice {
    /// The lines for the next launch (the slice is drained at a launch's end).
    pub fn lines(&self) -> L2Lines {
        L2Lines { tags: self.tags.clone(), now: self.now }
    }

    /// Start with the lines a launch left (of a slice of the same shape).
    pub fn warm(&mut self, l: &L2Lines) {
        if l.tags.len() == self.tags.len() {
            self.tags.clone_from(&l.tags);
            self.now = l.now;
        }
    }

    /// A line a host copy moved through this slice (GPGPU-Sim's
    /// `force_tag_access`): there, clean, most recently used; a victim is
    /// replaced without a write-back, as GPGPU-Sim's tag update does.
    pub fn install(&mut self, line: u64, set: u32) {
        let now = self.now;
        let ways = self.set_ways(set);
        match ways.iter_mut().find(|w| w.valid && w.line == line) {
            Some(w) => w.used = now,
            None => {
                let v = (0..ways.len()).min_by_key(|&i| (ways[i].valid, ways[i].used)).expect("at least one way");
                ways[v] = Way { line, valid: true, dirty: false, used: now };
            }
        }
        // Each line a step later: the copy's order is the use order.
        self.now += 1;
    }

    pub fn new(g: &crate::config::Gpu) -> L2Slice {
        L2Slice {
            ways: g.l2_ways as usize,
            tags: vec![Way::default(); (g.l2_sets * g.l2_ways) as usize],
            mshrs: (0..g.l2_mshrs).map(|_| None).collect(),
            merge: g.l2_merge as usize,
            rop: VecDeque::new(),
            rop_latency: g.rop_latency as u64,
            miss_queue: VecDeque::new(),
            // The miss queue, then the partition's queue toward DRAM.
            miss_capacity: (g.l2_miss_queue + if g.dram_latency_queue { g.partition_queue } else { 0 }) as usize,
            dram_latency: if g.dram_latency_queue { 0 } else { g.dram_latency as u64 },
            replies: VecDeque::new(),
            reply_capacity: g.partition_queue as usize,
            fills: VecDeque::new(),
            queue: g.partition_queue as usize,
            now: 0,
            stats: L2Stats::default(),
        }
    }

    /// The ROP queue takes a request from the interconnect (it is as deep
    /// as the interconnect can deliver: one a cycle for `rop_latency`).
    pub fn can_accept(&self) -> bool {
        self.rop.len() < self.rop_latency as usize + self.queue
    }

    pub fn accept(&mut self, r: L2Request) {
        self.rop.push_back((self.now + self.rop_latency, r));
    }

    pub fn busy(&self) -> bool {
        !self.rop.is_empty() || !self.miss_queue.is_empty() || !self.replies.is_empty() || !self.fills.is_empty() || self.mshrs.iter().any(|m| m.is_some())
    }

    /// One L2 cycle: a fill, then the head request.
    pub fn cycle(&mut self) {
        if let Some(&m) = self.fills.front() {
            if self.fill(m) {
                self.fills.pop_front();
            }
        }
        if let Some(&(ready, r)) = self.rop.front() {
            if ready <= self.now {
                if self.access(r) {
                    self.rop.pop_front();
                } else {
                    self.stats.stalls += 1;
                }
            }
        }
        self.now += 1;
    }

    fn set_ways(&mut self, set: u32) -> &mut [Way] {
        let s = set as usize * self.ways;
        &mut self.tags[s..s + self.ways]
    }

    /// Install `line` (set `set`) and return the way; `false` if a dirty
    /// victim's write-back finds the miss queue full.
    fn allocate(&mut self, line: u64, set: u32, dirty: bool) -> bool {
        let now = self.now;
        let room = self.miss_queue.len() < self.miss_capacity;
        let ways = self.set_ways(set);
        let v = (0..ways.len()).min_by_key(|&i| (ways[i].valid, ways[i].used)).expect("at least one way");
        let victim = ways[v];
        if victim.valid && victim.dirty && !room {
            return false;
        }
        ways[v] = Way { line, valid: true, dirty, used: now };
        if victim.valid && victim.dirty {
            self.miss_queue.push_back((now + self.dram_latency, DramOp { line: victim.line, write: true, mshr: 0 }));
            self.stats.writebacks += 1;
        }
        true
    }

    fn fill(&mut self, m: u32) -> bool {
        let e = self.mshrs[m as usize].as_ref().expect("a pending fill");
        let reads = e.waiting.iter().filter(|r| r.kind.replies()).count();
        if self.replies.len() + reads > self.reply_capacity {
            return false;
        }
        let (line, set, dirty) = (e.line, e.set, e.dirty);
        if !self.allocate(line, set, dirty) {
            return false;
        }
        let e = self.mshrs[m as usize].take().expect("a pending fill");
        self.replies.extend(e.waiting.into_iter().filter(|r| r.kind.replies()));
        true
    }

    /// Serve one request; `false` if it must wait.
    fn access(&mut self, r: L2Request) -> bool {
        let now = self.now;
        let write = r.kind.is_write();
        let reply_room = self.replies.len() < self.reply_capacity;
        let ways = self.set_ways(r.set);
        if let Some(w) = ways.iter_mut().find(|w| w.valid && w.line == r.line) {
            if r.kind.replies() && !reply_room {
                return false;
            }
            w.used = now;
            w.dirty |= r.kind.dirties();
            if r.kind.replies() {
                self.replies.push_back(r);
            }
            self.count(r.kind, true);
            return true;
        }
        if let Some(e) = self.mshrs.iter_mut().flatten().find(|e| e.line == r.line) {
            if e.waiting.len() >= self.merge {
                return false;
            }
            e.dirty |= r.kind.dirties();
            e.waiting.push(r);
            self.stats.merges += 1;
            self.count(r.kind, false);
            return true;
        }
        if write {
            if r.kind.replies() && !reply_room || !self.allocate(r.line, r.set, true) {
                return false;
            }
            if r.kind.replies() {
                self.replies.push_back(r);
            }
            self.count(r.kind, false);
            return true;
        }
        let Some(m) = self.mshrs.iter().position(|e| e.is_none()) else { return false };
        if self.miss_queue.len() >= self.miss_capacity {
            return false;
        }
        let dirty = r.kind.dirties();
        self.mshrs[m] = Some(Mshr { line: r.line, set: r.set, waiting: vec![r], dirty });
        self.miss_queue.push_back((now + self.dram_latency, DramOp { line: r.line, write: false, mshr: m as u32 }));
        self.count(r.kind, false);
        true
    }

    fn count(&mut self, k: Kind, hit: bool) {
        match k {
            Kind::Read { .. } | Kind::Prefetch | Kind::Inst | Kind::Const => self.stats.reads += 1,
            Kind::Write | Kind::Store { .. } => self.stats.writes += 1,
            Kind::Atomic { .. } => self.stats.atomics += 1,
        }
        if hit {
            self.stats.hits += 1;
        } else {
            self.stats.misses += 1;
        }
    }

    /// The L2 cycle (for the miss queue's readiness).
    pub fn now(&self) -> u64 {
        self.now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice() -> L2Slice {
        let g = crate::config::Gpu { l2_sets: 2, l2_ways: 2, l2_mshrs: 2, l2_merge: 2, rop_latency: 3, dram_latency: 5, ..Default::default() };
        L2Slice::new(&g)
    }

    fn read(line: u64, mshr: u32) -> L2Request {
        L2Request { sm: 0, line, set: (line % 2) as u32, kind: Kind::Read { mshr } }
    }

    fn run(s: &mut L2Slice, n: u64) {
        for _ in 0..n {
            s.cycle();
        }
    }

    #[test]
    fn miss_then_fill_then_hit() {
        let mut s = slice();
        s.accept(read(4, 1));
        run(&mut s, 3);
        assert!(s.miss_queue.is_empty(), "waits out the ROP latency");
        run(&mut s, 1);
        // Accessed at L2 cycle 3: leaves toward DRAM at 3 + 5.
        assert_eq!(s.miss_queue.front().copied(), Some((8, DramOp { line: 4, write: false, mshr: 0 })));
        s.accept(read(4, 2));
        run(&mut s, 4);
        assert_eq!(s.stats.merges, 1, "a second miss to the line merges");
        let (_, op) = s.miss_queue.pop_front().expect("a fill request");
        s.fills.push_back(op.mshr);
        run(&mut s, 1);
        assert_eq!(s.replies.iter().map(|r| r.kind).collect::<Vec<_>>(), vec![Kind::Read { mshr: 1 }, Kind::Read { mshr: 2 }]);
        s.replies.clear();
        s.accept(read(4, 3));
        run(&mut s, 4);
        assert_eq!((s.stats.hits, s.stats.misses, s.replies.len()), (1, 2, 1));
        assert!(!s.busy() || !s.replies.is_empty());
    }

    #[test]
    fn dirty_victims_are_written_back() {
        let mut s = slice();
        // Three whole-line writes to set 0 of a 2-way cache: the third
        // evicts the first, dirty.
        for line in [0u64, 2, 4] {
            s.accept(L2Request { sm: 0, line, set: 0, kind: Kind::Write });
        }
        run(&mut s, 10);
        assert_eq!(s.stats.writebacks, 1);
        assert_eq!(s.miss_queue.front().map(|e| e.1), Some(DramOp { line: 0, write: true, mshr: 0 }));
    }

    #[test]
    fn no_free_mshr_stalls_the_head() {
        let mut s = slice();
        for line in [1u64, 3, 5] {
            s.accept(read(line, 0));
        }
        run(&mut s, 10);
        assert_eq!(s.stats.misses, 2);
        assert!(s.stats.stalls > 0);
    }
}
