//! Operand collector and the SP / SFU execution pipelines.

use super::op::{Op, Pool, Unit};

/// One collector unit: holds an issued instruction while its source
/// registers are read from the banks.
#[derive(Clone, Copy, Debug, Default)]
struct Cu {
    inst: Option<u32>,
    /// Allocation order (older first in bank arbitration and dispatch).
    order: u64,
}

/// The operand collector: collector units per unit type (or one generic
/// pool) and the register-file banks (one read or write per bank per cycle;
/// writebacks win). Register `r` of warp slot `w` is in bank `(r + w) % banks`.
pub struct Collector {
    /// Pools: SP, SFU, MEM; or one generic pool at index 0.
    pools: Vec<Vec<Cu>>,
    generic: bool,
    banks: u32,
    /// Banks written back this cycle.
    bank_busy: u64,
    seq: u64,
    /// Scratch: occupied units, oldest first.
    scratch: Vec<(u64, usize, usize)>,
}

impl Collector {
    pub fn new(sp: u32, sfu: u32, mem: u32, generic: u32, banks: u32) -> Self {
        let pools = if generic > 0 {
            vec![vec![Cu::default(); generic as usize]]
        } else {
            vec![vec![Cu::default(); sp as usize], vec![Cu::default(); sfu as usize], vec![Cu::default(); mem as usize]]
        };
        Collector { pools, generic: generic > 0, banks, bank_busy: 0, seq: 0, scratch: Vec::with_capacity(64) }
    }

    fn pool(&self, unit: Unit) -> usize {
        if self.generic {
            0
        } else {
            match unit {
                Unit::Sp => 0,
                Unit::Sfu => 1,
                Unit::Mem => 2,
            }
        }
    }

    pub fn bank(&self, warp: u16, reg: u8) -> u32 {
        (reg as u32 + warp as u32) % self.banks
    }

    /// Is a collector unit free for an instruction of `unit`?
    pub fn has_free(&self, unit: Unit) -> bool {
        self.pools[self.pool(unit)].iter().any(|c| c.inst.is_none())
    }

    /// Put an issued instruction into a free unit (`has_free` was true).
    pub fn allocate(&mut self, unit: Unit, inst: u32) {
        let p = self.pool(unit);
        self.seq += 1;
        let seq = self.seq;
        let cu = self.pools[p].iter_mut().find(|c| c.inst.is_none()).expect("allocate without a free collector unit");
        *cu = Cu { inst: Some(inst), order: seq };
    }

    /// A writeback uses `bank` this cycle.
    pub fn write_bank(&mut self, bank: u32) {
        self.bank_busy |= 1 << bank;
    }

    pub fn occupied(&self) -> usize {
        self.pools.iter().flatten().filter(|c| c.inst.is_some()).count()
    }

    /// One cycle: bank arbitration (oldest unit first, one access per bank),
    /// then dispatch of units whose operands are all read, oldest first;
    /// `dispatch(inst)` returns whether the functional unit accepted it.
    pub fn cycle(&mut self, pool: &mut Pool, ops: &[Op], mut dispatch: impl FnMut(&mut Pool, u32) -> bool) {
        self.scratch.clear();
        for (p, units) in self.pools.iter().enumerate() {
            for (i, c) in units.iter().enumerate() {
                if c.inst.is_some() {
                    self.scratch.push((c.order, p, i));
                }
            }
        }
        self.scratch.sort_unstable();
        let mut busy = self.bank_busy;
        for &(_, p, i) in &self.scratch {
            let inst = self.pools[p][i].inst.expect("occupied");
            let left = pool.get(inst).reads_left;
            if left == 0 {
                continue;
            }
            let warp = pool.get(inst).warp;
            let mut now_left = left;
            for (k, &r) in ops[pool.get(inst).op as usize].reads().iter().enumerate() {
                if left >> k & 1 == 0 {
                    continue;
                }
                let b = self.bank(warp, r);
                if busy >> b & 1 == 0 {
                    busy |= 1 << b;
                    now_left &= !(1 << k);
                }
            }
            pool.get_mut(inst).reads_left = now_left;
        }
        self.bank_busy = 0;
        for &(_, p, i) in &self.scratch {
            let inst = self.pools[p][i].inst.expect("occupied");
            if pool.get(inst).reads_left == 0 && dispatch(pool, inst) {
                self.pools[p][i].inst = None;
            }
        }
    }
}

/// One SP or SFU: pipelined, accepts an instruction every `initiation`
/// cycles of the previous one; results leave after their latency.
#[derive(Default)]
pub struct Pipe {
    next_free: u64,
    /// (done cycle, uid, instruction), kept sorted.
    inflight: std::collections::VecDeque<(u64, u64, u32)>,
}

impl Pipe {
    pub fn can_accept(&self, now: u64) -> bool {
        self.next_free <= now
    }

    pub fn accept(&mut self, now: u64, latency: u32, initiation: u32, uid: u64, inst: u32) {
        self.next_free = now + initiation as u64;
        let done = now + latency as u64;
        let at = self.inflight.partition_point(|&(d, u, _)| (d, u) < (done, uid));
        self.inflight.insert(at, (done, uid, inst));
    }

    /// Take the unit's issue slot for `initiation` cycles without a result
    /// to return (DAC: an affine-warp instruction, whose result the affine
    /// warp's own register timing tracks).
    pub fn occupy(&mut self, now: u64, initiation: u32) {
        self.next_free = now + initiation as u64;
    }

    /// The next instruction whose result is ready by `now`.
    pub fn pop_done(&mut self, now: u64) -> Option<u32> {
        match self.inflight.front() {
            Some(&(d, _, i)) if d <= now => {
                self.inflight.pop_front();
                Some(i)
            }
            _ => None,
        }
    }

    pub fn busy(&self) -> bool {
        !self.inflight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(reads: &[u8]) -> Op {
        let mut r = [0; 8];
        r[..reads.len()].copy_from_slice(reads);
        Op {
            unit: Unit::Sp,
            latency: 4,
            initiation: 1,
            reads: r,
            n_reads: reads.len() as u8,
            writes: [0; 4],
            n_writes: 0,
            control: super::super::op::Control::None,
            access: None,
            may_miss: false,
            deq: None,
            text: String::new(),
        }
    }

    #[test]
    fn bank_conflicts_serialize_reads() {
        let mut pool = Pool::new();
        let mut oc = Collector::new(2, 1, 1, 0, 4);
        // Two instructions of warp 0 reading r0,r4 (same bank) and r1.
        let ops = [op(&[0, 4]), op(&[1])];
        let a = pool.alloc();
        pool.get_mut(a).reads_left = 0b11;
        let b = pool.alloc();
        pool.get_mut(b).reads_left = 0b1;
        pool.get_mut(b).op = 1;
        oc.allocate(Unit::Sp, a);
        oc.allocate(Unit::Sp, b);
        let mut sent = vec![];
        oc.cycle(&mut pool, &ops, |_, i| {
            sent.push(i);
            true
        });
        // Cycle 1: a reads r0 (bank 0; r4 conflicts), b reads r1: b dispatches.
        assert_eq!(sent, vec![b]);
        oc.cycle(&mut pool, &ops, |_, i| {
            sent.push(i);
            true
        });
        assert_eq!(sent, vec![b, a]);
        assert_eq!(oc.occupied(), 0);
    }

    #[test]
    fn pipe_latency_and_initiation() {
        let mut p = Pipe::default();
        assert!(p.can_accept(0));
        p.accept(0, 4, 2, 1, 10);
        assert!(!p.can_accept(1));
        assert!(p.can_accept(2));
        p.accept(2, 1, 1, 2, 11);
        assert_eq!(p.pop_done(2), None);
        assert_eq!(p.pop_done(3), Some(11));
        assert_eq!(p.pop_done(3), None);
        assert_eq!(p.pop_done(4), Some(10));
    }
}
