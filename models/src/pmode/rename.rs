//! Reference model of `rename` (specification: `hw::blocks::pmode::rename`).

use crate::bits::bit;
use crate::Reference;
use hw::blocks::pmode::rename::{RenameIo, RenameIssue, RenameParams};
use sim::{words_for, Bind, Component, PortFrame, PortId};

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
    frame: PortFrame,
    io: RenameIo<PortId>,
    t: Vec<WarpTables>,
    /// Availability vector, set = in use (little-endian words).
    used: Vec<u64>,
    /// Per port: the candidate register (start-of-cycle state).
    cand: Vec<Option<u64>>,
}

impl RenameModel {
    pub fn new(p: &RenameParams) -> Self {
        let empty = WarpTables { n: vec![Map::default(); p.regs as usize], p: vec![Map::default(); p.regs as usize] };
        RenameModel {
            frame: p.frame(),
            io: p.ids(),
            t: vec![empty; p.warps as usize],
            used: vec![0; words_for(p.rename_regs)],
            cand: vec![None; p.issue_ports as usize],
            p: p.clone(),
        }
    }

    fn is_used(&self, i: u64) -> bool {
        bit(&self.used, i as usize)
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

    /// Candidates of every port, same-bank first, each port excluding the
    /// candidates of lower ports.
    fn candidates(&mut self) {
        let banks = self.p.banks as u64;
        for k in 0..self.io.iss.len() {
            let bank = self.frame.get_u64(self.io.iss[k].bank) & (banks - 1);
            let taken = |i: u64, me: &Self| me.is_used(i) || me.cand[..k].contains(&Some(i));
            let mut c = None;
            for i in (bank..self.p.rename_regs as u64).step_by(banks as usize) {
                if !taken(i, self) {
                    c = Some(i);
                    break;
                }
            }
            if c.is_none() {
                c = (0..self.p.rename_regs as u64).find(|&i| !taken(i, self));
            }
            self.cand[k] = c;
        }
    }

    fn free(&mut self, id: u64) {
        self.set_used(id, false);
    }
}

impl Component for RenameModel {
    fn name(&self) -> &str {
        "rename"
    }
    sim::frame_ports!(frame);

    fn eval(&mut self) {
        self.candidates();
        let used = std::mem::take(&mut self.used);
        self.frame.set(self.io.used, &used);
        self.used = used;
        for k in 0..self.io.iss.len() {
            let ids = &self.io.iss[k];
            let (w, pm) = (self.frame.get_u64(ids.warp), self.frame.get_bool(ids.pmode));
            for j in 0..2 {
                let (ren, phys) = self.lookup(w, pm, self.frame.get_u64(ids.src[j]));
                self.frame.set_bool(ids.lookup[j].renamed, ren);
                self.frame.set_u64(ids.lookup[j].phys, phys);
            }
            self.frame.set_bool(ids.free, self.cand[k].is_some());
            self.frame.set_u64(ids.alloc_phys, self.cand[k].unwrap_or(0));
        }
    }

    fn tick(&mut self) {
        let regs = self.p.regs as usize;
        if self.frame.get_bool(self.io.rst) {
            self.used.fill(0);
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
            return;
        }
        self.candidates();
        // Frees of this cycle are applied before its allocations (they are
        // disjoint under the protocol; off it, an allocation wins).
        let mut allocs: Vec<u64> = Vec::new();
        let warps = self.t.len() as u64;
        let (start, sw) = (self.frame.get_bool(self.io.start_en), self.frame.get_u64(self.io.start_warp));
        for k in 0..self.io.iss.len() {
            let ids = &self.io.iss[k];
            let w = self.frame.get_u64(ids.warp);
            let cmd = |ids: &RenameIssue<PortId>| self.frame.get_bool(ids.alloc) || self.frame.get_bool(ids.reuse) || self.frame.get_bool(ids.write);
            let blocked = (0..k).any(|j| self.frame.get_u64(self.io.iss[j].warp) == w && cmd(&self.io.iss[j]));
            let dst = self.frame.get_u64(ids.dst) as usize;
            if w >= warps || blocked || dst >= regs {
                continue;
            }
            let wi = w as usize;
            if self.frame.get_bool(ids.pmode) {
                if self.frame.get_bool(ids.alloc) && !(start && sw == w) {
                    if let Some(c) = self.cand[k] {
                        allocs.push(c);
                        self.t[wi].p[dst] = Map { id: c, renamed: true };
                    }
                }
            } else if self.frame.get_bool(ids.reuse) {
                let rp = self.frame.get_u64(ids.reuse_phys);
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
        }
        if start && sw < warps {
            for m in &mut self.t[sw as usize].p {
                m.renamed = false;
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
        for c in allocs {
            self.set_used(c, true);
        }
    }
}

impl Reference for RenameParams {
    type Model = RenameModel;
    fn model(&self) -> RenameModel {
        RenameModel::new(self)
    }
}
