//! Reference model of `rename` (specification: `hw::blocks::pmode::rename`).

use super::PortFeeds;
use crate::Reference;
use hw::blocks::pmode::rename::{RenameIo, RenameIssue, RenameParams};
use sim::{words_for, Bind, Component, PortFrame, PortId};
use std::sync::Arc;

/// One rename-table entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Map {
    id: u64,
    renamed: bool,
}

#[derive(Clone, Debug)]
struct WarpTables {
    n: Vec<Map>,
    p: Vec<Map>,
}

/// Cycle-accurate reference model of `rename`.
pub struct RenameModel {
    p: RenameParams,
    pub(crate) frame: PortFrame,
    io: Arc<RenameIo<PortId>>,
    t: Vec<WarpTables>,
    /// Availability vector, set = in use (little-endian words).
    used: Vec<u64>,
    /// Owner tags per rename register: the allocating warp, and whether its
    /// P-queue entry still owns the register.
    owner: Vec<u64>,
    queued: Vec<bool>,
    /// Per port and destination: the candidate register (start-of-cycle
    /// state).
    cand: Vec<Vec<Option<u64>>>,
    /// Per port: enough registers for its written destinations (and one).
    free: Vec<bool>,
    /// Per bank: the registers of that bank (`id mod banks`).
    bank_masks: Vec<Vec<u64>>,
    /// Every rename register (the banks' masks together).
    all: Vec<u64>,
    /// Scratch: registers neither in use nor reserved (`candidates`).
    avail: Vec<u64>,
    /// Bit k: port k's lookup inputs changed; `CANDIDATES`: a destination
    /// input did (candidates of every port, lower ports reserving); all
    /// bits after the edge.
    pub(crate) feeds: PortFeeds,
}

/// `feeds` bit: the candidates are to be chosen again.
const CANDIDATES: usize = 32;

impl RenameModel {
    pub fn new(p: &RenameParams) -> Self {
        let empty = WarpTables { n: vec![Map::default(); p.regs as usize], p: vec![Map::default(); p.regs as usize] };
        let (frame, io) = (p.frame(), p.ids());
        let mut feeds = PortFeeds::new(&frame, PortFeeds::NONE);
        for (k, ids) in io.iss.iter().enumerate() {
            for &id in [ids.warp, ids.pmode].iter().chain(&ids.src) {
                feeds.feed(id, k);
            }
            for d in &ids.dst {
                for id in [Some(d.reg), d.vld, Some(d.bank)].into_iter().flatten() {
                    feeds.feed(id, CANDIDATES);
                }
            }
        }
        let all = (0..words_for(p.rename_regs)).map(|w| if (w + 1) * 64 <= p.rename_regs as usize { u64::MAX } else { (1u64 << (p.rename_regs % 64)) - 1 }).collect();
        RenameModel {
            all,
            feeds,
            frame,
            io: sim::shared::shared(io),
            avail: vec![0; words_for(p.rename_regs)],
            t: vec![empty; p.warps as usize],
            used: vec![0; words_for(p.rename_regs)],
            owner: vec![0; p.rename_regs as usize],
            queued: vec![false; p.rename_regs as usize],
            bank_masks: (0..p.banks as u64)
                .map(|b| {
                    let mut m = vec![0u64; words_for(p.rename_regs)];
                    for i in (b..p.rename_regs as u64).step_by(p.banks as usize) {
                        m[(i / 64) as usize] |= 1 << (i % 64);
                    }
                    m
                })
                .collect(),
            cand: vec![vec![None; p.dsts as usize]; p.issue_ports as usize],
            free: vec![false; p.issue_ports as usize],
            p: p.clone(),
        }
    }

    fn set_used(&mut self, i: u64, v: bool) {
        if i < self.p.rename_regs as u64 {
            let (w, b) = ((i / 64) as usize, i % 64);
            if v {
                self.used[w] |= 1 << b;
            } else {
                self.used[w] &= !(1 << b);
            }
        }
    }

    /// Source lookup: (renamed, phys) of register `r` of warp `w` in a mode.
    fn lookup(&self, w: u64, pmode: bool, r: u64) -> (bool, u64) {
        let (Some(t), true) = (self.t.get(w as usize), r < self.p.regs as u64) else {
            return (false, 0);
        };
        let (pm, nm) = (t.p[r as usize], t.n[r as usize]);
        if pmode && pm.renamed {
            (true, pm.id)
        } else if nm.renamed {
            (true, nm.id)
        } else {
            (false, 0)
        }
    }

    /// Does destination `d` of port `k` write a register: valid and not
    /// naming a lower valid destination's register. At `dsts = 1` the one
    /// destination always counts.
    fn writes(&self, k: usize, d: usize) -> bool {
        let ids = &self.io.iss[k];
        let vld = |e: usize| ids.dst[e].vld.is_none_or(|v| self.frame.get_bool(v));
        let reg = |e: usize| self.frame.get_u64(ids.dst[e].reg);
        vld(d) && !(0..d).any(|e| vld(e) && reg(e) == reg(d))
    }

    /// Candidates of every port and destination, same-bank first, each
    /// excluding the registers reserved by lower ports and by the port's
    /// lower written destinations.
    fn candidates(&mut self) {
        let banks = self.p.banks as u64;
        // Registers neither in use nor reserved.
        let mut avail = std::mem::take(&mut self.avail);
        for ((a, &u), &all) in avail.iter_mut().zip(&self.used).zip(&self.all) {
            *a = !u & all;
        }
        fn lowest(mask: impl Iterator<Item = u64>) -> Option<u64> {
            mask.enumerate().find(|&(_, m)| m != 0).map(|(w, m)| w as u64 * 64 + m.trailing_zeros() as u64)
        }
        for k in 0..self.io.iss.len() {
            let mut free = avail.iter().any(|&a| a != 0);
            for d in 0..self.io.iss[k].dst.len() {
                let bank = (self.frame.get_u64(self.io.iss[k].dst[d].bank) & (banks - 1)) as usize;
                let in_bank = &self.bank_masks[bank];
                let c = lowest(avail.iter().zip(in_bank).map(|(&a, &b)| a & b)).or_else(|| lowest(avail.iter().copied()));
                if self.writes(k, d) {
                    free &= c.is_some();
                    if let Some(i) = c {
                        avail[(i / 64) as usize] &= !(1 << (i % 64));
                    }
                }
                self.cand[k][d] = c;
            }
            self.free[k] = free;
        }
        self.avail = avail;
    }

    fn free(&mut self, id: u64) {
        self.set_used(id, false);
    }

    /// Set an input; whether its value changed.
    pub(crate) fn set_changed(&mut self, port: PortId, value: &[u64]) -> bool {
        self.feeds.set(&mut self.frame, port, value)
    }

    /// Write the output that depends on the state alone (`used`), at the
    /// edge: it is valid without an `eval`.
    fn write_state_outputs(&mut self) {
        let used = std::mem::take(&mut self.used);
        self.frame.set(self.io.used, &used);
        self.used = used;
    }
}

impl Component for RenameModel {
    fn name(&self) -> &str {
        "rename"
    }
    sim::frame_ports!(frame, set_changed);

    fn eval(&mut self) {
        let dirty = self.feeds.take();
        let cand = dirty >> CANDIDATES & 1 == 1;
        if cand {
            self.candidates();
        }
        for k in 0..self.io.iss.len() {
            let ids = &self.io.iss[k];
            if dirty >> k & 1 == 1 {
                let (w, pm) = (self.frame.get_u64(ids.warp), self.frame.get_bool(ids.pmode));
                for j in 0..ids.src.len() {
                    let (ren, phys) = self.lookup(w, pm, self.frame.get_u64(ids.src[j]));
                    self.frame.set_bool(ids.lookup[j].renamed, ren);
                    self.frame.set_u64(ids.lookup[j].phys, phys);
                }
            }
            if cand {
                self.frame.set_bool(ids.free, self.free[k]);
                for (d, &c) in self.cand[k].iter().enumerate() {
                    self.frame.set_u64(ids.alloc_phys[d], c.unwrap_or(0));
                }
            }
        }
    }

    fn tick(&mut self) {
        self.edge();
        self.write_state_outputs();
    }
}

impl RenameModel {
    fn edge(&mut self) {
        // The candidates stand if nothing changed since the last `eval`.
        let stale = self.feeds.take() != 0;
        self.feeds.all();
        let regs = self.p.regs as usize;
        if self.frame.get_bool(self.io.rst) {
            self.used.fill(0);
            self.owner.fill(0);
            self.queued.fill(false);
            for t in &mut self.t {
                t.n.fill(Map::default());
                t.p.fill(Map::default());
            }
            return;
        }
        if self.frame.get_bool(self.io.init_en) {
            // Kernel start: the vector only (the tables hold no live mapping
            // under the exit protocol).
            for i in 0..self.used.len() {
                self.used[i] = self.frame.get(self.io.init_used)[i];
            }
            self.queued.fill(false);
            return;
        }
        // Only an allocation reads them.
        let allocating = self.io.iss.iter().any(|ids| self.frame.get_bool(ids.alloc) && self.frame.get_bool(ids.pmode));
        if stale && allocating {
            self.candidates();
        }
        // Frees of this cycle are applied before its allocations (they are
        // disjoint under the protocol; off it, an allocation wins).
        let mut allocs: Vec<(u64, u64)> = Vec::new();
        let mut handed: Vec<u64> = Vec::new();
        let warps = self.t.len() as u64;
        let (start, sw) = (self.frame.get_bool(self.io.start_en), self.frame.get_u64(self.io.start_warp));
        let io = Arc::clone(&self.io);
        for k in 0..io.iss.len() {
            let ids = &io.iss[k];
            let w = self.frame.get_u64(ids.warp);
            let cmd = |ids: &RenameIssue<PortId>| {
                [ids.alloc, ids.reuse, ids.write, ids.moved].into_iter().any(|id| self.frame.get_bool(id))
            };
            // A port with no command changes nothing.
            if !cmd(ids) {
                continue;
            }
            let blocked = (0..k).any(|j| self.frame.get_u64(self.io.iss[j].warp) == w && cmd(&self.io.iss[j]));
            if w >= warps || blocked {
                continue;
            }
            let wi = w as usize;
            for d in 0..ids.dst.len() {
                let dst = self.frame.get_u64(ids.dst[d].reg) as usize;
                if dst >= regs || !self.writes(k, d) {
                    continue;
                }
                if self.frame.get_bool(ids.pmode) {
                    if self.frame.get_bool(ids.alloc) && self.free[k] && !(start && sw == w) {
                        let c = self.cand[k][d].expect("free implies a candidate per written destination");
                        allocs.push((c, w));
                        self.t[wi].p[dst] = Map { id: c, renamed: true };
                    }
                } else if self.frame.get_bool(ids.reuse) {
                    let rp = self.frame.get_u64(ids.reuse_phys[d]);
                    handed.push(rp);
                    let old = self.t[wi].n[dst];
                    if old.renamed && old.id != rp {
                        self.free(old.id);
                    }
                    self.t[wi].n[dst] = Map { id: rp, renamed: true };
                } else if self.frame.get_bool(ids.write) {
                    let old = self.t[wi].n[dst];
                    if old.renamed {
                        self.free(old.id);
                        self.t[wi].n[dst].renamed = false;
                    }
                }
                if !self.frame.get_bool(ids.pmode) && self.frame.get_bool(ids.moved) {
                    // The reused value went home: its register returns.
                    let rp = self.frame.get_u64(ids.reuse_phys[d]);
                    self.free(rp);
                    handed.push(rp);
                }
            }
        }
        // An episode start or a warp's release walk frees what the warp's
        // episodes still own (tags as of the start of the cycle).
        let (rel_en, rel_w) = (self.frame.get_bool(self.io.rel_en), self.frame.get_u64(self.io.rel_warp));
        let dropped: Vec<u64> = if start || rel_en {
            (0..self.queued.len() as u64)
                .filter(|&i| {
                    let (q, o) = (self.queued[i as usize], self.owner[i as usize]);
                    q && ((start && o == sw) || (rel_en && o == rel_w))
                })
                .collect()
        } else {
            Vec::new()
        };
        if start && sw < warps {
            for m in &mut self.t[sw as usize].p {
                m.renamed = false;
            }
        }
        for &i in &dropped {
            self.free(i);
            self.queued[i as usize] = false;
        }
        for i in handed {
            if let Some(q) = self.queued.get_mut(i as usize) {
                *q = false;
            }
        }
        let (rw, rr) = (self.frame.get_u64(self.io.rel_warp), self.frame.get_u64(self.io.rel_reg) as usize);
        if self.frame.get_bool(self.io.rel_en) && rw < warps && rr < regs {
            let old = self.t[rw as usize].n[rr];
            if old.renamed {
                self.free(old.id);
                self.t[rw as usize].n[rr].renamed = false;
            }
        }
        for (c, w) in allocs {
            self.set_used(c, true);
            self.owner[c as usize] = w;
            self.queued[c as usize] = true;
        }
    }
}

impl Reference for RenameParams {
    type Model = RenameModel;
    fn model(&self) -> RenameModel {
        RenameModel::new(self)
    }
}
