//! A set-associative tag array with LRU replacement and reserved lines, as
//! GPGPU-Sim's `tag_array` with allocate-on-miss: a miss reserves its victim
//! way at once (the line is then "reserved" until its fill), so a set whose
//! ways are all reserved cannot take another miss (the RSV hazard).
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
}

impl TagArray {
    pub fn new(sets: u32, ways: u32, line_bytes: u32) -> Self {
        let n = (sets * ways) as usize;
        TagArray { sets, ways, line_shift: line_bytes.trailing_zeros(), lines: vec![Line::Invalid; n], stamp: vec![0; n], clock: 0 }
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
        self.lines[base..base + self.ways as usize].iter().any(|l| !matches!(l, Line::Reserved(_)))
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
            .or_else(|| ways.filter(|&i| matches!(self.lines[i], Line::Valid(_))).min_by_key(|&i| self.stamp[i]))
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

#[cfg(test)]
mod tests {
    use super::*;

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
