//! A CTA's named barriers: PTX `bar.sync a{, b}` waits at barrier `a` until
//! `b` threads have arrived (without `b`: every thread of the CTA), and
//! `bar.arrive a, b` counts towards it without waiting (producer/consumer
//! code). Arrivals are per warp — a warp counts as its 32 threads, as the
//! PTX ISA has it — and a warp that exits stops being awaited by the
//! barriers that count every thread. The functional runner and the timing
//! SM both hold their warps with this model.

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
}

#[derive(Clone, Debug, Default)]
struct Named {
    /// Warps arrived since the barrier last completed.
    arrived: u32,
    /// The count of its first arrival.
    threads: Option<u32>,
    /// Warps held here.
    waiting: Vec<u32>,
}

impl Named {
    fn complete(&self, running: u32) -> bool {
        self.arrived > 0
            && match self.threads {
                Some(t) => self.arrived * crate::inst::WARP_SIZE as u32 >= t,
                None => self.arrived >= running,
            }
    }
    fn release(&mut self) -> Vec<u32> {
        self.arrived = 0;
        self.threads = None;
        std::mem::take(&mut self.waiting)
    }
}

/// The named barriers of one CTA.
#[derive(Clone, Debug, Default)]
pub struct CtaBarriers {
    bars: [Named; NAMED_BARRIERS],
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
        if b.complete(running) {
            b.release()
        } else {
            Vec::new()
        }
    }

    /// A warp exited, `running` remain: barriers that wait for the whole
    /// CTA may be complete now. Returns the warps released.
    pub fn exited(&mut self, running: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for b in &mut self.bars {
            if b.threads.is_none() && b.complete(running) {
                out.extend(b.release());
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
        Arrival { id, threads, wait: true }
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
        assert_eq!(b.arrive(0, Arrival { id: 2, threads: Some(64), wait: false }, 3), vec![2]);
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
