//! A CTA's named barriers: PTX `bar.sync a{, b}` waits at barrier `a` until
//! `b` threads have arrived (without `b`: every thread of the CTA), and
//! `bar.arrive a, b` counts towards it without waiting (producer/consumer
//! code). Arrivals are per warp — a warp counts as its 32 threads, as the
//! PTX ISA has it — and a warp that exits stops being awaited by the
//! barriers that count every thread. `bar.red.{popc,and,or}` waits like
//! `bar.sync` and also reduces a predicate over the threads that arrive
//! (`__syncthreads_count`, `__syncthreads_and`, `__syncthreads_or`); the
//! result is handed back for each reducing warp when the barrier completes.
//! The functional runner and the timing SM both hold their warps with this
//! model.

/// Barriers per CTA (`a` is 0 to 15).
pub const NAMED_BARRIERS: usize = 16;

/// What a warp's `bar` instruction asks of barrier `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub id: u8,
    /// `b`: threads to wait for (a multiple of 32); `None`: the whole CTA.
    pub threads: Option<u32>,
    /// `bar.sync` waits; `bar.arrive` does not.
    pub wait: bool,
    /// `bar.red`: the reduction, and this warp's part of it (threads
    /// whose predicate holds, threads taking part).
    pub red: Option<(RedOp, u32, u32)>,
}

/// `bar.red`'s reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    /// The number of threads whose predicate holds.
    Popc,
    /// 1 if it holds for every thread taking part.
    And,
    /// 1 if it holds for any.
    Or,
}

#[derive(Clone, Debug, Default)]
struct Named {
    /// Warps arrived since the barrier last completed.
    arrived: u32,
    /// The count of its first arrival.
    threads: Option<u32>,
    /// Warps held here.
    waiting: Vec<u32>,
    /// `bar.red`: the operation, threads whose predicate holds, threads, and
    /// the warps that receive the result.
    red: Option<RedOp>,
    red_true: u32,
    red_threads: u32,
    reducers: Vec<u32>,
}

impl Named {
    fn complete(&self, running: u32) -> bool {
        self.arrived > 0
            && match self.threads {
                Some(t) => self.arrived * crate::inst::WARP_SIZE as u32 >= t,
                None => self.arrived >= running,
            }
    }
    fn release(&mut self, results: &mut Vec<(u32, u32)>) -> Vec<u32> {
        if let Some(op) = self.red.take() {
            let v = match op {
                RedOp::Popc => self.red_true,
                RedOp::And => (self.red_true == self.red_threads) as u32,
                RedOp::Or => (self.red_true > 0) as u32,
            };
            results.extend(self.reducers.drain(..).map(|w| (w, v)));
        }
        self.arrived = 0;
        self.threads = None;
        self.red_true = 0;
        self.red_threads = 0;
        std::mem::take(&mut self.waiting)
    }
}

/// The named barriers of one CTA.
#[derive(Clone, Debug, Default)]
pub struct CtaBarriers {
    bars: [Named; NAMED_BARRIERS],
    /// `bar.red` results of completed barriers not yet taken: (warp, value).
    results: Vec<(u32, u32)>,
}

impl CtaBarriers {
    /// `warp` arrives; `running` warps of the CTA have not exited. Returns
    /// the warps the barrier releases if this arrival completes it (the
    /// arriving warp among them when it waits); otherwise an arriving warp
    /// that waits is held.
    pub fn arrive(&mut self, warp: u32, a: Arrival, running: u32) -> Vec<u32> {
        let b = &mut self.bars[a.id as usize];
        if b.arrived == 0 {
            b.threads = a.threads;
        }
        b.arrived += 1;
        if a.wait {
            b.waiting.push(warp);
        }
        if let Some((op, yes, threads)) = a.red {
            b.red = Some(op);
            b.red_true += yes;
            b.red_threads += threads;
            b.reducers.push(warp);
        }
        if b.complete(running) {
            b.release(&mut self.results)
        } else {
            Vec::new()
        }
    }

    /// The `bar.red` results of the barriers completed since the last call:
    /// (warp, value) for each warp that reduced.
    pub fn take_results(&mut self) -> Vec<(u32, u32)> {
        std::mem::take(&mut self.results)
    }

    /// A warp exited, `running` remain: barriers that wait for the whole
    /// CTA may be complete now. Returns the warps released.
    pub fn exited(&mut self, running: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for b in &mut self.bars {
            if b.threads.is_none() && b.complete(running) {
                out.extend(b.release(&mut self.results));
            }
        }
        out
    }

    /// The barrier `warp` waits at, if any.
    pub fn waiting(&self, warp: u32) -> Option<u8> {
        self.bars.iter().position(|b| b.waiting.contains(&warp)).map(|i| i as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sync(id: u8, threads: Option<u32>) -> Arrival {
        Arrival { id, threads, wait: true, red: None }
    }

    #[test]
    fn the_whole_cta_or_a_count() {
        let mut b = CtaBarriers::default();
        assert!(b.arrive(0, sync(0, None), 3).is_empty());
        assert!(b.arrive(1, sync(0, None), 3).is_empty());
        assert_eq!(b.waiting(1), Some(0));
        assert_eq!(b.arrive(2, sync(0, None), 3), vec![0, 1, 2]);
        assert_eq!(b.waiting(1), None);
        // Barrier 1 for 64 threads: two warps, while warp 2 goes on.
        assert!(b.arrive(0, sync(1, Some(64)), 3).is_empty());
        assert_eq!(b.arrive(1, sync(1, Some(64)), 3), vec![0, 1]);
        // A producer arrives without waiting; the consumer is released.
        assert!(b.arrive(2, sync(2, Some(64)), 3).is_empty());
        assert_eq!(b.arrive(0, Arrival { id: 2, threads: Some(64), wait: false, red: None }, 3), vec![2]);
    }

    #[test]
    fn reductions_count_the_threads_that_arrive() {
        let mut b = CtaBarriers::default();
        let red = |op, yes, n| Arrival { id: 0, threads: None, wait: true, red: Some((op, yes, n)) };
        assert!(b.arrive(0, red(RedOp::Popc, 5, 32), 2).is_empty());
        assert!(b.take_results().is_empty());
        assert_eq!(b.arrive(1, red(RedOp::Popc, 7, 20), 2), vec![0, 1]);
        assert_eq!(b.take_results(), vec![(0, 12), (1, 12)]);
        b.arrive(0, red(RedOp::And, 32, 32), 2);
        b.arrive(1, red(RedOp::And, 19, 20), 2);
        assert_eq!(b.take_results(), vec![(0, 0), (1, 0)]);
        b.arrive(0, red(RedOp::Or, 0, 32), 2);
        b.arrive(1, red(RedOp::Or, 1, 20), 2);
        assert_eq!(b.take_results(), vec![(0, 1), (1, 1)]);
    }

    #[test]
    fn an_exit_completes_a_whole_cta_barrier_only() {
        let mut b = CtaBarriers::default();
        assert!(b.arrive(0, sync(0, None), 3).is_empty());
        assert!(b.arrive(1, sync(3, Some(96)), 3).is_empty());
        assert_eq!(b.exited(2), Vec::<u32>::new());
        assert_eq!(b.exited(1), vec![0]);
        assert_eq!(b.waiting(1), Some(3));
    }
}
