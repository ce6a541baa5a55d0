//! Seed 000's DirectPrefetch comparator (section 6.1, Figures 12–15): a
//! stride prefetcher into L1, "inspired by" the many-thread aware
//! prefetcher but per warp only.
//!
//! - Each warp slot has its own history table indexed by load PC. A global
//!   load trains its warp's entry: the new stride (this address minus the
//!   entry's last), and a saturating confidence counter that counts up when
//!   the stride repeats and down when it does not.
//! - Once the counter reaches `confidence` (the paper: 2, "at least two
//!   consecutive stride predictions should be correct"), the access's lines
//!   shifted by the stride go into the prefetch queue.
//! - The SM injects the queue's head into the memory stage, as a load that
//!   writes no register, in a cycle the stage has no demand instruction. It
//!   fills L1 like any miss (an MSHR, the crossbar, L2), so a prefetched line
//!   competes with demand lines for L1 and for bandwidth — the contention the
//!   paper's Figures 13 and 15 measure.

use crate::config::DirectPrefetch as Config;
use crate::stats::PrefetchStats;
use std::collections::VecDeque;

/// One history-table entry: a warp's last address at a load PC, its
/// stride and confidence.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    pc: u32,
    valid: bool,
    last_addr: u64,
    stride: i64,
    confidence: u32,
}

pub struct DirectPrefetch {
    cfg: Config,
    line_bytes: u64,
    /// Per warp slot, `table_entries` entries indexed by PC.
    table: Vec<Entry>,
    /// The prefetch queue: (warp slot, line).
    pub queue: VecDeque<(u16, u64)>,
    pub stats: PrefetchStats,
}

/// The confidence counter's ceiling (a 2-bit counter).
const CONFIDENCE_MAX: u32 = 3;

impl DirectPrefetch {
    pub fn new(cfg: &Config, line_bytes: u32, warps: u32) -> DirectPrefetch {
        DirectPrefetch {
            cfg: cfg.clone(),
            line_bytes: line_bytes as u64,
            table: vec![Entry::default(); (cfg.table_entries * warps) as usize],
            queue: VecDeque::new(),
            stats: PrefetchStats::default(),
        }
    }

    /// A demand global load of warp slot `warp` at `pc`, its first active
    /// lane's address `addr` and the lines it touches: train, and queue the
    /// lines one stride ahead once the stride is trusted.
    pub fn train(&mut self, pc: u32, warp: u16, addr: u64, lines: &[u64]) {
        let n = self.cfg.table_entries as usize;
        let e = &mut self.table[warp as usize * n + pc as usize % n];
        if !e.valid || e.pc != pc {
            *e = Entry { pc, valid: true, last_addr: addr, stride: 0, confidence: 0 };
            return;
        }
        let stride = addr.wrapping_sub(e.last_addr) as i64;
        if stride == e.stride && stride != 0 {
            e.confidence = (e.confidence + 1).min(CONFIDENCE_MAX);
        } else {
            e.confidence = e.confidence.saturating_sub(1);
        }
        e.stride = stride;
        e.last_addr = addr;
        if e.confidence < self.cfg.confidence {
            return;
        }
        for &l in lines {
            let target = (l * self.line_bytes).wrapping_add(stride as u64) / self.line_bytes;
            if self.queue.len() == self.cfg.queue_entries as usize {
                self.stats.dropped += 1;
                continue;
            }
            self.queue.push_back((warp, target));
            self.stats.queued += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(m: &DirectPrefetch) -> Vec<u64> {
        m.queue.iter().map(|&(_, l)| l).collect()
    }

    #[test]
    fn a_stride_repeated_twice_prefetches_one_stride_ahead() {
        let mut m = DirectPrefetch::new(&Config::default(), 128, 2);
        // The second access sees the first stride (confidence 0), the
        // third its first repeat (1), the fourth its second (2): trusted.
        for i in 0..4u64 {
            let a = 0x4000 + 1024 * i;
            m.train(16, 1, a, &[a / 128]);
        }
        assert_eq!(lines(&m), vec![(0x4000 + 1024 * 4) / 128]);
        // Another warp at the same PC learns on its own.
        m.train(16, 0, 0x4000, &[0x4000 / 128]);
        assert_eq!(m.queue.len(), 1);
    }

    #[test]
    fn a_broken_stride_loses_confidence_one_step_at_a_time() {
        let mut m = DirectPrefetch::new(&Config::default(), 128, 1);
        for a in [0u64, 256, 512, 768, 1024] {
            m.train(8, 0, a, &[a / 128]);
        }
        assert_eq!(m.queue.len(), 2);
        // One odd stride: 3 -> 2, still trusted, but the odd stride is what
        // it prefetches with; the next regular one (not equal) drops it to 1.
        m.train(8, 0, 4096, &[32]);
        assert_eq!(m.queue.len(), 3);
        m.train(8, 0, 4352, &[34]);
        assert_eq!(m.queue.len(), 3);
    }

    #[test]
    fn a_full_queue_drops_and_counts() {
        let cfg = Config { queue_entries: 2, ..Config::default() };
        let mut m = DirectPrefetch::new(&cfg, 128, 1);
        for i in 0..4u64 {
            m.train(0, 0, 4096 * i, &[32 * i, 32 * i + 1, 32 * i + 2]);
        }
        assert_eq!((m.stats.queued, m.stats.dropped), (2, 1));
    }
}
