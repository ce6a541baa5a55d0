//! Address coalescing and shared-memory bank conflicts of one warp
//! instruction.
//!
//! Global (and local) accesses: the active lanes' byte ranges are grouped by
//! line (GPGPU-Sim's `coalesce_arch 13`, sm_20 rule with L1 caching: one
//! request per distinct 128-byte line touched), in order of first touch by
//! the lowest lane. Shared memory: the conflict degree is the largest number
//! of *distinct* 4-byte words any one bank must deliver (lanes reading the
//! same word share one broadcast, as on Fermi).

/// At most one request per lane per element, 32 lanes x 4 vector elements.
pub const MAX_LINES: usize = 128;

/// The distinct lines a warp access touches, in first-touch order.
#[derive(Clone, Debug)]
pub struct Lines {
    lines: [u64; MAX_LINES],
    n: usize,
}

impl Default for Lines {
    fn default() -> Self {
        Lines { lines: [0; MAX_LINES], n: 0 }
    }
}

impl Lines {
    pub fn as_slice(&self) -> &[u64] {
        &self.lines[..self.n]
    }
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    fn push(&mut self, line: u64) {
        // Few lines per access: a linear scan beats hashing here.
        if !self.lines[..self.n].contains(&line) {
            self.lines[self.n] = line;
            self.n += 1;
        }
    }
}

/// The lanes set in `mask`, lowest first.
fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            lane
        })
    })
}

/// The 4-byte words a `bytes`-byte access at `addr` touches (at most 5:
/// 16 bytes at any alignment).
fn words(addr: u64, bytes: u32) -> std::ops::RangeInclusive<u64> {
    (addr >> 2)..=((addr + bytes.clamp(1, 16) as u64 - 1) >> 2)
}

/// Lines (`line_bytes`, a power of two) touched by `bytes`-byte accesses at
/// `addrs[lane]` for the lanes set in `mask`. An access that straddles a
/// line boundary touches both lines.
pub fn coalesce(addrs: &[u64], mask: u32, bytes: u32, line_bytes: u32, out: &mut Lines) {
    out.n = 0;
    let shift = line_bytes.trailing_zeros();
    for lane in lanes(mask) {
        let a = addrs[lane];
        let first = a >> shift;
        let last = (a + bytes.max(1) as u64 - 1) >> shift;
        for line in first..=last {
            out.push(line);
        }
    }
}

/// Conflict degree of a shared-memory access: cycles the banks need (1 when
/// conflict free, 0 when no lane is active).
pub fn bank_conflicts(addrs: &[u64], mask: u32, bytes: u32, banks: u32) -> u32 {
    // The words requested: 32 lanes x at most 5 words (16 bytes, any alignment).
    let mut words = [0u64; 32 * 5];
    let mut n = 0;
    for lane in lanes(mask) {
        for word in self::words(addrs[lane], bytes) {
            words[n] = word;
            n += 1;
        }
    }
    let words = &mut words[..n];
    words.sort_unstable();
    let mut per_bank = [0u32; 64];
    let mut degree = 0;
    for (i, &w) in words.iter().enumerate() {
        if i > 0 && words[i - 1] == w {
            continue;
        }
        let b = (w % banks as u64) as usize;
        per_bank[b] += 1;
        degree = degree.max(per_bank[b]);
    }
    degree
}

/// Replay mode's one pass over the shared-memory banks: the lanes of `mask`
/// that one bank cycle serves, taken in lane order while each of a lane's
/// words finds its bank free or reading that same word (a broadcast). The
/// first lane is always served, so every pass makes progress.
pub fn bank_pass(addrs: &[u64], mask: u32, bytes: u32, banks: u32) -> u32 {
    let mut word_of_bank = [u64::MAX; 64];
    let mut served = 0;
    for lane in lanes(mask) {
        let fits = words(addrs[lane], bytes).all(|w| {
            let b = word_of_bank[(w % banks as u64) as usize];
            b == u64::MAX || b == w
        });
        if fits {
            for w in words(addrs[lane], bytes) {
                word_of_bank[(w % banks as u64) as usize] = w;
            }
            served |= 1 << lane;
        }
    }
    served
}

/// Replay mode's one pass over global memory: the lanes of `mask` whose
/// access starts in the line of the lowest active lane, and that line.
/// (PTX accesses are aligned to their size, at most 16 bytes, so a lane's
/// access never spans two lines.)
pub fn line_pass(addrs: &[u64], mask: u32, line_bytes: u32) -> (u32, u64) {
    if mask == 0 {
        return (0, 0);
    }
    let shift = line_bytes.trailing_zeros();
    let line = addrs[mask.trailing_zeros() as usize] >> shift;
    let served = lanes(mask).filter(|&lane| addrs[lane] >> shift == line).fold(0, |s, lane| s | 1 << lane);
    (served, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(u64) -> u64) -> [u64; 32] {
        std::array::from_fn(|i| f(i as u64))
    }

    #[test]
    fn strided_requests_per_warp() {
        let mut l = Lines::default();
        // 4-byte words, stride s words: 32*4*s bytes spread over lines.
        for (stride, want) in [(1, 1), (2, 2), (4, 4), (32, 32)] {
            coalesce(&lanes(|i| 0x1000 + i * 4 * stride), u32::MAX, 4, 128, &mut l);
            assert_eq!(l.len(), want, "stride {stride}");
        }
        // Unaligned start: 128 bytes straddle two lines.
        coalesce(&lanes(|i| 0x1004 + i * 4), u32::MAX, 4, 128, &mut l);
        assert_eq!(l.as_slice(), &[0x20, 0x21]);
        // Inactive lanes do not count; 8-byte accesses.
        coalesce(&lanes(|i| i * 8), 0x0000_ffff, 8, 128, &mut l);
        assert_eq!(l.len(), 1);
        coalesce(&lanes(|_| 0), 0, 4, 128, &mut l);
        assert!(l.is_empty());
    }

    #[test]
    fn bank_conflict_degree() {
        for (stride, want) in [(1, 1), (2, 2), (4, 4), (8, 8), (16, 16), (32, 32), (3, 1)] {
            assert_eq!(bank_conflicts(&lanes(|i| i * 4 * stride), u32::MAX, 4, 32), want, "stride {stride}");
        }
        // Broadcast: every lane reads one word.
        assert_eq!(bank_conflicts(&lanes(|_| 64), u32::MAX, 4, 32), 1);
        // 8-byte accesses by 32 lanes cover 64 words: two per bank.
        assert_eq!(bank_conflicts(&lanes(|i| i * 8), u32::MAX, 8, 32), 2);
        assert_eq!(bank_conflicts(&lanes(|i| i * 4), 0, 4, 32), 0);
    }

    #[test]
    fn replay_passes_serve_every_lane_once() {
        // A bank-conflicted access takes as many passes as its conflict degree.
        for stride in [1u64, 2, 3, 4, 8, 32] {
            let a = lanes(|i| i * 4 * stride);
            let (mut left, mut passes) = (u32::MAX, 0);
            while left != 0 {
                let s = bank_pass(&a, left, 4, 32);
                assert!(s != 0 && s & !left == 0);
                left &= !s;
                passes += 1;
            }
            assert_eq!(passes, bank_conflicts(&a, u32::MAX, 4, 32), "stride {stride}");
        }
        assert_eq!(bank_pass(&lanes(|_| 64), u32::MAX, 4, 32), u32::MAX);
        // A divergent access takes one pass per line.
        let a = lanes(|i| 0x1000 + i * 4 * 8);
        let mut l = Lines::default();
        coalesce(&a, u32::MAX, 4, 128, &mut l);
        let (mut left, mut passes) = (u32::MAX, 0);
        while left != 0 {
            let (s, line) = line_pass(&a, left, 128);
            assert_eq!(line, l.as_slice()[passes]);
            left &= !s;
            passes += 1;
        }
        assert_eq!(passes, l.len());
        assert_eq!(line_pass(&a, 0, 128), (0, 0));
    }
}
