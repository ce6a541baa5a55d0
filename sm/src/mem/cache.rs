//! A set-associative tag array with LRU replacement and reserved lines, as
//! GPGPU-Sim's `tag_array` with allocate-on-miss: a miss reserves its victim
//! way at once (the line is then "reserved" until its fill), so a set whose
//! ways are all reserved cannot take another miss (the RSV hazard).
//!
//! Lock counters (DAC, seed 003 section 4.2) keep a line from being
//! replaced while prefetched data waits for its dequeue; at most `ways - 1`
//! ways of a set are locked, so a demand miss always has a way.
//!
//! Only tags are modelled; data comes from the functional model.

/// One way of a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Line {
    #[default]
    Invalid,
    /// Allocated by a miss, waiting for its fill.
    Reserved(u64),
    Valid(u64),
}

/// Outcome of a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    Hit,
    /// The line is reserved by an earlier miss (its fill is on the way).
    HitReserved,
    Miss,
}

#[derive(Clone, Debug)]
pub struct TagArray {
    sets: u32,
    ways: u32,
    line_shift: u32,
    lines: Vec<Line>,
    /// Last-use stamp per way (larger = more recent).
    stamp: Vec<u64>,
    clock: u64,
    /// Lock counter per way (DAC).
    locks: Vec<u16>,
}

impl TagArray {
    pub fn new(sets: u32, ways: u32, line_bytes: u32) -> Self {
        let n = (sets * ways) as usize;
        TagArray { sets, ways, line_shift: line_bytes.trailing_zeros(), lines: vec![Line::Invalid; n], stamp: vec![0; n], clock: 0, locks: vec![0; n] }
    }

    /// Line address (byte address / line size) of a byte address.
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.line_shift
    }

    fn set_of(&self, line: u64) -> usize {
        (line % self.sets as u64) as usize * self.ways as usize
    }

    fn find(&self, line: u64) -> Option<(usize, Line)> {
        let base = self.set_of(line);
        (base..base + self.ways as usize).find_map(|i| match self.lines[i] {
            Line::Reserved(t) | Line::Valid(t) if t == line => Some((i, self.lines[i])),
            _ => None,
        })
    }

    /// Look a line up without changing anything.
    pub fn probe(&self, line: u64) -> Probe {
        match self.find(line) {
            Some((_, Line::Valid(_))) => Probe::Hit,
            Some((_, Line::Reserved(_))) => Probe::HitReserved,
            _ => Probe::Miss,
        }
    }

    /// Mark a hit line most recently used.
    pub fn touch(&mut self, line: u64) {
        if let Some((i, _)) = self.find(line) {
            self.clock += 1;
            self.stamp[i] = self.clock;
        }
    }

    /// Is there a way a miss to `line` could reserve (an invalid or valid,
    /// not reserved, way)?
    pub fn can_reserve(&self, line: u64) -> bool {
        let base = self.set_of(line);
        (base..base + self.ways as usize).any(|i| !matches!(self.lines[i], Line::Reserved(_)) && self.locks[i] == 0)
    }

    /// May `line` (present) be locked once more: it is locked already, or
    /// its set has another unlocked way left.
    pub fn can_lock(&self, line: u64) -> bool {
        let Some((i, _)) = self.find(line) else { return false };
        let base = self.set_of(line);
        self.locks[i] > 0 || (base..base + self.ways as usize).filter(|&j| self.locks[j] > 0).count() + 1 < self.ways as usize
    }

    /// Lock a present line once more (after `can_lock`).
    pub fn lock(&mut self, line: u64) {
        if let Some((i, _)) = self.find(line) {
            self.locks[i] += 1;
        }
    }

    /// Take one lock off a line.
    pub fn unlock(&mut self, line: u64) {
        if let Some((i, _)) = self.find(line) {
            self.locks[i] = self.locks[i].saturating_sub(1);
        }
    }

    /// Locks held over the whole array.
    pub fn locks_held(&self) -> u64 {
        self.locks.iter().map(|&l| l as u64).sum()
    }

    /// Reserve a way for a miss: an invalid way first, else the least
    /// recently used valid one (evicted). Returns the evicted line, if any.
    /// Call only after `can_reserve`.
    pub fn reserve(&mut self, line: u64) -> Option<u64> {
        let base = self.set_of(line);
        let ways = base..base + self.ways as usize;
        let victim = ways
            .clone()
            .find(|&i| self.lines[i] == Line::Invalid)
            .or_else(|| ways.filter(|&i| matches!(self.lines[i], Line::Valid(_)) && self.locks[i] == 0).min_by_key(|&i| self.stamp[i]))
            .expect("reserve without a free way");
        let evicted = match self.lines[victim] {
            Line::Valid(t) => Some(t),
            _ => None,
        };
        self.lines[victim] = Line::Reserved(line);
        self.clock += 1;
        self.stamp[victim] = self.clock;
        evicted
    }

    /// The fill of a reserved line: it becomes valid.
    pub fn fill(&mut self, line: u64) {
        if let Some((i, Line::Reserved(_))) = self.find(line) {
            self.lines[i] = Line::Valid(line);
        }
    }

    /// Allocate a line directly valid (a cache with no pending state: the
    /// L2 model). Evicts the LRU way.
    pub fn insert(&mut self, line: u64) {
        if self.find(line).is_some() {
            self.touch(line);
            return;
        }
        if self.can_reserve(line) {
            self.reserve(line);
            self.fill(line);
        }
    }
}

/// A read-only cache: the instruction cache (GPGPU-Sim's L1I) and the
/// constant cache (L1C), whose misses go to L2. A miss fills after a fixed
/// time, or, when the cache fills from memory, when its response arrives
/// (`fill`): the owner sends the lines `take_requests` gives below L1.
/// A line's tag is installed at the miss, so a later access to it waits for
/// that fill (a pending hit, as an MSHR merge) instead of missing again.
#[derive(Clone, Debug)]
pub struct FillCache {
    sets: u64,
    ways: usize,
    line_shift: u32,
    /// Per way: (line, cycle its data is there or `PENDING`, last use);
    /// line `u64::MAX` is empty.
    tags: Vec<(u64, u64, u64)>,
    /// 0: misses fill from memory.
    miss_latency: u64,
    /// Lines missed since the last `take_requests`.
    requests: Vec<u64>,
    /// Filling from memory: the lines on their way, at most `mshrs` of them
    /// (0: no limit).
    pending: Vec<u64>,
    mshrs: usize,
    /// Added to the SM's cycle: a cache carried into the next launch keeps
    /// its fill and use times in the same order (`carried`).
    base: u64,
    pub stats: crate::stats::CacheCount,
}

/// The time of a line whose fill from memory has not arrived.
pub const PENDING: u64 = u64::MAX;

impl FillCache {
    /// `None` when `sets` is 0: an ideal cache. A `miss_latency` of 0: misses
    /// fill from memory.
    pub fn new(sets: u32, ways: u32, line_bytes: u32, miss_latency: u32) -> Option<FillCache> {
        (sets > 0).then(|| FillCache {
            sets: sets as u64,
            ways: ways as usize,
            line_shift: line_bytes.trailing_zeros(),
            tags: vec![(u64::MAX, 0, 0); (sets * ways) as usize],
            miss_latency: miss_latency as u64,
            requests: Vec::new(),
            pending: Vec::new(),
            mshrs: 0,
            base: 0,
            stats: Default::default(),
        })
    }

    /// This cache for the next launch, whose cycles count from 0 again
    /// after this one's `end`: the same lines and fill times, no statistics;
    /// a line still on its way is dropped (its response went to this launch).
    pub fn carried(&self, end: u64) -> FillCache {
        let tags = self.tags.iter().map(|&w| if w.1 == PENDING { (u64::MAX, 0, 0) } else { w }).collect();
        FillCache { base: self.base + end, stats: Default::default(), requests: Vec::new(), pending: Vec::new(), tags, ..self.clone() }
    }

    /// At most `n` lines on their way from memory at once (its MSHRs; 0: no
    /// limit): a miss beyond them waits (`can_miss`).
    pub fn with_mshrs(mut self, n: u32) -> FillCache {
        self.mshrs = n as usize;
        self
    }

    /// `addr`'s line is there or on its way.
    pub fn has(&self, addr: u64) -> bool {
        let line = self.line(addr);
        let s = (line % self.sets) as usize * self.ways;
        self.tags[s..s + self.ways].iter().any(|w| w.0 == line)
    }

    /// A miss may go to memory now (an MSHR is free).
    pub fn can_miss(&self) -> bool {
        self.mshrs == 0 || self.pending.len() < self.mshrs
    }

    /// Same sets, ways and lines.
    pub fn same_shape(&self, other: &FillCache) -> bool {
        (self.sets, self.ways, self.line_shift) == (other.sets, other.ways, other.line_shift)
    }

    pub fn line(&self, addr: u64) -> u64 {
        addr >> self.line_shift
    }

    pub fn line_bytes(&self) -> u64 {
        1 << self.line_shift
    }

    /// An access to `addr` at cycle `now`: the cycle its line is there, or
    /// `PENDING` until its fill arrives.
    pub fn access(&mut self, addr: u64, now: u64) -> u64 {
        let (base, t) = (self.base, now + self.base);
        let line = self.line(addr);
        let s = (line % self.sets) as usize * self.ways;
        let ways = &mut self.tags[s..s + self.ways];
        self.stats.accesses += 1;
        if let Some(w) = ways.iter_mut().find(|w| w.0 == line) {
            w.2 = t;
            return if w.1 == PENDING { PENDING } else { w.1.max(t) - base };
        }
        self.stats.misses += 1;
        // The least recently used line, one whose fill is on its way last.
        let v = (0..ways.len()).min_by_key(|&i| (ways[i].0 != u64::MAX, ways[i].1 == PENDING, ways[i].2)).expect("a way");
        if self.miss_latency == 0 {
            ways[v] = (line, PENDING, t);
            self.requests.push(line);
            self.pending.push(line);
            return PENDING;
        }
        ways[v] = (line, t + self.miss_latency, t);
        now + self.miss_latency
    }

    /// The lines missed since the last call, to request from memory.
    pub fn take_requests(&mut self) -> std::vec::Drain<'_, u64> {
        self.requests.drain(..)
    }

    /// `line`'s data arrived from memory at `now`.
    pub fn fill(&mut self, line: u64, now: u64) {
        self.pending.retain(|&l| l != line);
        let s = (line % self.sets) as usize * self.ways;
        if let Some(w) = self.tags[s..s + self.ways].iter_mut().find(|w| w.0 == line && w.1 == PENDING) {
            w.1 = now + self.base;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_cache_misses_then_waits_for_the_fill_then_hits() {
        let mut c = FillCache::new(2, 1, 64, 100).unwrap();
        assert_eq!(c.access(0x40, 10), 110, "a miss fills after 100 cycles");
        assert_eq!(c.access(0x7c, 50), 110, "the same line while it fills: waits for it");
        assert_eq!(c.access(0x44, 200), 200, "then hits");
        // 0xc0 maps to the same set (line 3, 2 sets): it evicts line 1.
        assert_eq!(c.access(0xc0, 300), 400);
        assert_eq!(c.access(0x40, 400), 500);
        assert_eq!((c.stats.accesses, c.stats.misses), (5, 3));
        assert!(FillCache::new(0, 4, 128, 10).is_none(), "0 sets: ideal");
    }

    #[test]
    fn a_carried_cache_keeps_its_lines_and_their_order() {
        let mut c = FillCache::new(1, 2, 64, 100).unwrap();
        c.access(0x00, 0); // line 0, there at 100
        c.access(0x40, 50); // line 1, there at 150
        c.access(0x00, 400); // line 0 used last
        let mut next = c.carried(500);
        assert_eq!(next.stats.accesses, 0, "statistics are per launch");
        assert_eq!(next.access(0x40, 0), 0, "line 1 is there from cycle 0");
        assert_eq!(next.access(0x80, 1), 101, "a miss evicts the least recently used: line 0");
        assert_eq!(next.access(0x40, 2), 2);
        assert_eq!(next.access(0x00, 3), 103, "line 0 was evicted");
        // A launch still in flight: a fill not back by the end arrives later.
        let mut c = FillCache::new(1, 1, 64, 100).unwrap();
        c.access(0x00, 450);
        assert_eq!(c.carried(500).access(0x00, 0), 50);
    }

    #[test]
    fn a_cache_filling_from_memory_waits_for_the_response() {
        let mut c = FillCache::new(1, 2, 64, 0).unwrap();
        assert_eq!(c.access(0x40, 10), PENDING, "a miss waits for its fill");
        assert_eq!(c.access(0x7c, 11), PENDING, "so does the same line: no second request");
        assert_eq!(c.take_requests().collect::<Vec<_>>(), vec![1]);
        assert_eq!(c.take_requests().count(), 0);
        c.fill(1, 250);
        assert_eq!(c.access(0x40, 260), 260, "then hits");
        // Two more misses: the second evicts line 1 (least recently used)
        // rather than line 2, whose fill is on its way.
        assert_eq!(c.access(0x80, 300), PENDING);
        assert_eq!(c.access(0xc0, 301), PENDING);
        assert_eq!(c.take_requests().collect::<Vec<_>>(), vec![2, 3]);
        assert_eq!(c.access(0x40, 302), PENDING, "line 1 was evicted: it misses again");
        // A launch ending with fills on their way: the next starts without them.
        let mut next = c.carried(400);
        assert_eq!(next.access(0x80, 0), PENDING);
        assert_eq!(next.take_requests().collect::<Vec<_>>(), vec![2], "requested again");
    }
    #[test]
    fn lru_and_reservation() {
        let mut t = TagArray::new(2, 2, 128);
        // Lines 0, 2, 4 map to set 0.
        assert_eq!(t.probe(0), Probe::Miss);
        assert!(t.can_reserve(0));
        assert_eq!(t.reserve(0), None);
        assert_eq!(t.probe(0), Probe::HitReserved);
        t.reserve(2);
        assert!(!t.can_reserve(4), "both ways reserved: RSV");
        t.fill(0);
        t.fill(2);
        assert_eq!(t.probe(2), Probe::Hit);
        t.touch(0); // 2 is now LRU
        assert_eq!(t.reserve(4), Some(2));
        assert_eq!(t.probe(2), Probe::Miss);
        assert_eq!(t.probe(0), Probe::Hit);
        // Set 1 untouched.
        assert_eq!(t.probe(1), Probe::Miss);
        assert_eq!(t.line_of(0x1ff), 3);
    }

    #[test]
    fn non_power_of_two_sets() {
        let mut t = TagArray::new(3, 1, 128);
        t.insert(0);
        t.insert(3); // same set as 0: evicts it
        assert_eq!(t.probe(0), Probe::Miss);
        assert_eq!(t.probe(3), Probe::Hit);
        t.insert(1);
        assert_eq!(t.probe(3), Probe::Hit);
    }
}
