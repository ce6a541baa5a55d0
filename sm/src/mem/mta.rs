//! The many-thread aware prefetcher (MTA; Lee, Lakshminarayana, Kim and
//! Vuduc, MICRO 2010), as seed 003 section 5.1.1 configures it for its
//! Figure 16: a hardware prefetcher per SM with a dedicated prefetch buffer
//! (16 KB) beside the 48 KB L1, trained by the SM's global loads.
//!
//! - **Inter-warp stride** (Lee et al.'s inter-thread prefetching, the
//!   global stride table): per load PC, the address difference between two
//!   warps divided by the difference of their warp slots (the SM's warp
//!   ids). Once the same stride is seen `confidence` times, an access by
//!   warp `w` prefetches
//!   the lines warps `w+1 .. w+degree` will touch at that PC.
//! - **Intra-warp stride** (the per-warp stride table): per load PC and
//!   warp, the difference between the warp's successive addresses at that PC
//!   (a loop). Trusted likewise, it prefetches the warp's next `degree`
//!   iterations. The inter-warp stride is preferred where both are trusted.
//! - **Throttling**: every `throttle_period` cycles the early eviction
//!   ratio (prefetched lines evicted from the buffer before any use, per
//!   prefetch filled) halves the degree above `throttle_high` percent, down
//!   to 0 (off), and doubles it back toward `degree` below `throttle_low`
//!   (a period without fills counts as 0%); a period with the prefetcher
//!   off turns it back on at degree 1.
//!
//! Prefetches go below L1 as reads that fill the prefetch buffer, not L1,
//! and only when the request queue has room for a demand miss besides. A
//! demand load line that misses in L1 and hits in the buffer is served at
//! L1's hit latency. The buffer is set associative with LRU replacement.

use crate::config::Mta as MtaConfig;
use crate::stats::MtaStats;
use std::collections::VecDeque;

/// A stride being learnt: the last (warp id, address), the stride and how
/// many times in a row it was seen.
#[derive(Clone, Copy, Debug, Default)]
struct Stride {
    pc: u32,
    valid: bool,
    last_warp: u32,
    last_addr: u64,
    stride: i64,
    seen: u32,
}

impl Stride {
    /// Learn from an access; returns the stride once trusted.
    fn train(&mut self, pc: u32, warp: u32, addr: u64, per_warp: bool, confidence: u32) -> Option<i64> {
        if !self.valid || self.pc != pc {
            *self = Stride { pc, valid: true, last_warp: warp, last_addr: addr, stride: 0, seen: 0 };
            return None;
        }
        let delta = addr.wrapping_sub(self.last_addr) as i64;
        let stride = if per_warp {
            delta
        } else {
            let dw = warp as i64 - self.last_warp as i64;
            if dw == 0 || delta % dw != 0 {
                // Same warp again (a loop) or not a whole stride per warp:
                // keep the anchor, learn nothing.
                if dw != 0 {
                    self.seen = 0;
                }
                self.last_warp = warp;
                self.last_addr = addr;
                return None;
            }
            delta / dw
        };
        self.seen = if stride == self.stride && stride != 0 { self.seen + 1 } else { 0 };
        self.stride = stride;
        self.last_warp = warp;
        self.last_addr = addr;
        (self.seen >= confidence).then_some(stride)
    }
}

/// One way of the prefetch buffer.
#[derive(Clone, Copy, Debug, Default)]
struct Way {
    line: Option<u64>,
    used: bool,
    stamp: u64,
}

pub struct Mta {
    cfg: MtaConfig,
    line_bytes: u64,
    /// Per load PC (direct mapped): the inter-warp stride.
    inter: Vec<Stride>,
    /// Per load PC and warp slot: the intra-warp stride.
    intra: Vec<Stride>,
    warps: usize,
    /// The prefetch buffer: sets x ways.
    buffer: Vec<Way>,
    sets: u64,
    clock: u64,
    /// Prefetches in flight below L1 (lines), and lines waiting to be sent.
    inflight: Vec<u64>,
    pub candidates: VecDeque<u64>,
    degree: u32,
    period_end: u64,
    period_fills: u64,
    period_early: u64,
    pub stats: MtaStats,
}

/// At most this many candidate lines wait; older ones are dropped.
const CANDIDATES: usize = 64;

impl Mta {
    pub fn new(cfg: &MtaConfig, line_bytes: u32, warps: u32) -> Mta {
        let lines = (cfg.buffer_bytes / line_bytes) as usize;
        Mta {
            cfg: cfg.clone(),
            line_bytes: line_bytes as u64,
            inter: vec![Stride::default(); cfg.table_entries as usize],
            intra: vec![Stride::default(); cfg.table_entries as usize * warps as usize],
            warps: warps as usize,
            buffer: vec![Way::default(); lines],
            sets: (lines / cfg.buffer_ways as usize) as u64,
            clock: 0,
            inflight: Vec::new(),
            candidates: VecDeque::new(),
            degree: cfg.degree,
            period_end: cfg.throttle_period as u64,
            period_fills: 0,
            period_early: 0,
            stats: MtaStats { degree: cfg.degree as u64, ..MtaStats::default() },
        }
    }

    /// A demand global load instruction at `pc` of warp slot `warp` (the
    /// SM's warp id), its first active lane's address `addr` and the lines
    /// it touches: learn, and queue the lines to prefetch.
    pub fn train(&mut self, pc: u32, warp: u16, addr: u64, lines: &[u64]) {
        let e = pc as usize % self.cfg.table_entries as usize;
        let conf = self.cfg.confidence;
        let inter = self.inter[e].train(pc, warp as u32, addr, false, conf);
        let intra = self.intra[e * self.warps + warp as usize].train(pc, warp as u32, addr, true, conf);
        if self.degree == 0 {
            return;
        }
        let (stride, inter_warp) = match (inter, intra) {
            (Some(s), _) => (s, true),
            (None, Some(s)) => (s, false),
            _ => return,
        };
        for k in 1..=self.degree as i64 {
            for &l in lines {
                let target = (l * self.line_bytes).wrapping_add((stride * k) as u64) / self.line_bytes;
                if self.candidates.len() == CANDIDATES {
                    self.candidates.pop_front();
                }
                self.candidates.push_back(target);
                if inter_warp {
                    self.stats.inter_warp += 1;
                } else {
                    self.stats.intra_warp += 1;
                }
            }
        }
    }

    fn find(&self, line: u64) -> Option<usize> {
        let base = (line % self.sets) as usize * self.cfg.buffer_ways as usize;
        (base..base + self.cfg.buffer_ways as usize).find(|&i| self.buffer[i].line == Some(line))
    }

    /// Whether `line` is in the buffer or on its way there.
    pub fn has(&self, line: u64) -> bool {
        self.find(line).is_some() || self.inflight.contains(&line)
    }

    /// A demand line request that missed in L1: served from the buffer?
    /// (A line still in flight is late: the demand goes below L1 itself.)
    pub fn demand(&mut self, line: u64) -> bool {
        match self.find(line) {
            Some(i) => {
                self.clock += 1;
                self.buffer[i].used = true;
                self.buffer[i].stamp = self.clock;
                self.stats.useful += 1;
                true
            }
            None => {
                self.stats.late += self.inflight.contains(&line) as u64;
                false
            }
        }
    }

    /// A prefetch left for L2.
    pub fn sent(&mut self, line: u64) {
        self.inflight.push(line);
    }

    /// A prefetched line arrived: into the buffer, over its set's LRU way.
    pub fn fill(&mut self, line: u64) {
        if let Some(p) = self.inflight.iter().position(|&l| l == line) {
            self.inflight.swap_remove(p);
        }
        self.period_fills += 1;
        if self.find(line).is_some() {
            return;
        }
        let base = (line % self.sets) as usize * self.cfg.buffer_ways as usize;
        let ways = base..base + self.cfg.buffer_ways as usize;
        let v = ways.clone().find(|&i| self.buffer[i].line.is_none()).unwrap_or_else(|| ways.min_by_key(|&i| self.buffer[i].stamp).expect("a way"));
        if self.buffer[v].line.is_some() && !self.buffer[v].used {
            self.stats.early_evicted += 1;
            self.period_early += 1;
        }
        self.clock += 1;
        self.buffer[v] = Way { line: Some(line), used: false, stamp: self.clock };
    }

    /// The throttle's clock.
    pub fn cycle(&mut self, now: u64) {
        if now < self.period_end {
            return;
        }
        self.period_end = now + self.cfg.throttle_period as u64;
        if self.degree == 0 {
            self.degree = 1;
            self.stats.unthrottled += 1;
        } else {
            let ratio = 100 * self.period_early / self.period_fills.max(1);
            if ratio > self.cfg.throttle_high as u64 {
                self.degree /= 2;
                self.stats.throttled += 1;
            } else if ratio < self.cfg.throttle_low as u64 && self.degree < self.cfg.degree {
                self.degree = (self.degree * 2).min(self.cfg.degree);
                self.stats.unthrottled += 1;
            }
        }
        self.period_fills = 0;
        self.period_early = 0;
        self.stats.degree = self.degree as u64;
    }

    /// Anything in flight (the SM is not idle while a prefetch is).
    pub fn busy(&self) -> bool {
        !self.inflight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mta() -> Mta {
        Mta::new(&MtaConfig::default(), 128, 4)
    }

    #[test]
    fn inter_warp_stride_is_trusted_after_confidence_matches() {
        let mut m = mta();
        // Warps 0..3 at one PC, 512 bytes apart: the stride is seen twice
        // (warps 1->2, 2->3) before warp 3's access prefetches warps 4, 5.
        for w in 0..4u32 {
            let a = 0x1000 + 512 * w as u64;
            m.train(8, w as u16, a, &[a / 128]);
        }
        let want: Vec<u64> = [4u64, 5].iter().map(|w| (0x1000 + 512 * w) / 128).collect();
        assert_eq!(m.candidates.iter().copied().collect::<Vec<_>>(), want);
        assert_eq!(m.stats.inter_warp, 2);
    }

    #[test]
    fn intra_warp_stride_follows_a_loop() {
        let mut m = mta();
        for i in 0..4u64 {
            m.train(8, 1, 0x8000 + 4096 * i, &[(0x8000 + 4096 * i) / 128]);
        }
        assert_eq!(m.candidates.iter().copied().collect::<Vec<_>>(), vec![(0x8000 + 4096 * 4) / 128, (0x8000 + 4096 * 5) / 128]);
        assert_eq!((m.stats.intra_warp, m.stats.inter_warp), (2, 0));
    }

    #[test]
    fn buffer_serves_and_counts_early_evictions() {
        let mut m = Mta::new(&MtaConfig { buffer_bytes: 256, buffer_ways: 2, ..MtaConfig::default() }, 128, 1);
        for l in [10, 11] {
            m.sent(l);
            assert!(m.has(l));
            m.fill(l);
        }
        assert!(m.demand(10));
        assert!(!m.demand(12));
        // One set of two ways: 12 evicts 11 (LRU, never used), 13 evicts 10 (used).
        m.fill(12);
        m.fill(13);
        assert_eq!((m.stats.useful, m.stats.early_evicted), (1, 1));
    }

    #[test]
    fn throttle_halves_on_early_evictions_and_restarts() {
        let cfg = MtaConfig { buffer_bytes: 128, buffer_ways: 1, degree: 4, throttle_period: 10, ..MtaConfig::default() };
        let mut m = Mta::new(&cfg, 128, 1);
        for l in 0..8 {
            m.fill(l);
        }
        m.cycle(10);
        assert_eq!(m.stats.degree, 2);
        for l in 8..16 {
            m.fill(l);
        }
        m.cycle(20);
        assert_eq!(m.stats.degree, 1);
        m.cycle(30);
        assert_eq!(m.stats.degree, 2, "no evictions: back up");
    }
}
