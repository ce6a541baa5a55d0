//! Warp scheduling policies: the order in which a scheduler considers its
//! warps each cycle. The issue stage walks this order and issues the first
//! warp that can issue; the first warp in the order that still has work
//! decides the cycle's stall category when none can (see `stats::Stall`).
//!
//! Each scheduler owns the warp slots `w` with `w % schedulers == id`,
//! listed in `members` in slot order. Age is the order warps were launched
//! (a CTA's warps in warp order); a slot reused by a new CTA is young again.

use crate::config::Policy;

pub struct Scheduler {
    pub id: u32,
    policy: Policy,
    /// Warp slots of this scheduler, in slot order.
    members: Vec<u16>,
    /// Members oldest first (launch order; a relaunched slot moves to the end).
    by_age: Vec<u16>,
    /// Last warp issued (GTO's greedy warp, LRR's start point).
    last: Option<u16>,
    /// Two-level: the active set in round-robin order and the pending FIFO.
    active: Vec<u16>,
    pending: std::collections::VecDeque<u16>,
    active_size: usize,
    /// Scratch: this cycle's order (no allocation per cycle).
    order: Vec<u16>,
}

impl Scheduler {
    pub fn new(id: u32, policy: Policy, schedulers: u32, max_warps: u32, active_size: u32) -> Self {
        let members: Vec<u16> = (0..max_warps).filter(|w| w % schedulers == id).map(|w| w as u16).collect();
        let n = members.len();
        Scheduler {
            id,
            policy,
            by_age: members.clone(),
            members,
            last: None,
            active: Vec::with_capacity(n),
            pending: std::collections::VecDeque::with_capacity(n),
            active_size: active_size as usize,
            order: Vec::with_capacity(n),
        }
    }

    pub fn members(&self) -> &[u16] {
        &self.members
    }

    /// A warp of this scheduler was launched (two-level: it joins the
    /// pending set, or the active set when there is room).
    pub fn launched(&mut self, w: u16) {
        self.by_age.retain(|&x| x != w);
        self.by_age.push(w);
        if self.policy == Policy::TwoLevel {
            if self.active.len() < self.active_size {
                self.active.push(w);
            } else {
                self.pending.push_back(w);
            }
        }
    }

    /// A warp finished: it leaves the two-level sets.
    pub fn finished(&mut self, w: u16) {
        if self.policy == Policy::TwoLevel {
            self.active.retain(|&x| x != w);
            self.pending.retain(|&x| x != w);
            self.refill();
        }
        if self.last == Some(w) {
            self.last = None;
        }
    }

    fn refill(&mut self) {
        while self.active.len() < self.active_size {
            match self.pending.pop_front() {
                Some(w) => self.active.push(w),
                None => break,
            }
        }
    }

    /// The order to consider warps this cycle; `live(w)` says whether slot
    /// `w` holds a warp.
    pub fn order(&mut self, live: impl Fn(u16) -> bool) -> &[u16] {
        self.order.clear();
        match self.policy {
            Policy::Gto => {
                let greedy = self.last.filter(|&g| live(g));
                self.order.extend(greedy);
                self.order.extend(self.by_age.iter().copied().filter(|&w| live(w) && Some(w) != greedy));
            }
            Policy::Lrr => {
                let n = self.members.len();
                let start = match self.last {
                    Some(l) => self.members.iter().position(|&w| w == l).map_or(0, |i| i + 1),
                    None => 0,
                };
                for i in 0..n {
                    let w = self.members[(start + i) % n];
                    if live(w) {
                        self.order.push(w);
                    }
                }
            }
            Policy::TwoLevel => {
                let n = self.active.len();
                let start = match self.last {
                    Some(l) => self.active.iter().position(|&w| w == l).map_or(0, |i| i + 1),
                    None => 0,
                };
                for i in 0..n {
                    let w = self.active[(start + i) % n];
                    if live(w) {
                        self.order.push(w);
                    }
                }
            }
        }
        &self.order
    }

    /// The last warp the policy saw issue (GTO's greedy warp).
    pub fn last(&self) -> Option<u16> {
        self.last
    }

    /// The scheduler issued from `w`.
    pub fn issued(&mut self, w: u16) {
        self.last = Some(w);
    }

    /// Two-level: `w` stalled on a long-latency dependence or a barrier, or
    /// exited; it moves to the back of the pending set and the oldest
    /// pending warp becomes active.
    /// Returns whether the active set changed.
    pub fn demote(&mut self, w: u16) -> bool {
        if self.policy != Policy::TwoLevel || self.pending.is_empty() {
            return false;
        }
        match self.active.iter().position(|&x| x == w) {
            Some(i) => {
                self.active.remove(i);
                self.pending.push_back(w);
                self.refill();
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gto_greedy_then_oldest() {
        let mut s = Scheduler::new(0, Policy::Gto, 2, 8, 0);
        assert_eq!(s.members(), &[0, 2, 4, 6]);
        for w in [4, 2, 0, 6] {
            s.launched(w);
        }
        assert_eq!(s.order(|_| true), &[4, 2, 0, 6]);
        s.issued(2);
        assert_eq!(s.order(|_| true), &[2, 4, 0, 6]);
        assert_eq!(s.order(|w| w != 4), &[2, 0, 6]);
    }

    #[test]
    fn lrr_rotates() {
        let mut s = Scheduler::new(1, Policy::Lrr, 2, 8, 0);
        assert_eq!(s.order(|_| true), &[1, 3, 5, 7]);
        s.issued(3);
        assert_eq!(s.order(|_| true), &[5, 7, 1, 3]);
    }

    #[test]
    fn two_level_demotes() {
        let mut s = Scheduler::new(0, Policy::TwoLevel, 1, 4, 2);
        for w in 0..4 {
            s.launched(w);
        }
        assert_eq!(s.order(|_| true), &[0, 1]);
        s.demote(0);
        assert_eq!(s.order(|_| true), &[1, 2]);
        s.issued(1);
        assert_eq!(s.order(|_| true), &[2, 1]);
        s.finished(2);
        // 3 joined the active set; round-robin continues after 1.
        assert_eq!(s.order(|_| true), &[3, 1]);
    }
}
