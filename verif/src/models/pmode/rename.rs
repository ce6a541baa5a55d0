//! Reference model of `rename` (specification: `hw::blocks::pmode::rename`),
//! its constrained-random driver and its property checks.

use super::common::{bit, mask, out, slot, InView};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::pmode::rename::RenameParams;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{words_for, Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

/// Every port of `rename`, inputs first (`rst` first), in declaration order.
pub fn ports(p: &RenameParams) -> Vec<PortSpec> {
    let (w, a, r, b) = (p.warp_bits(), p.reg_bits(), p.phys_bits(), p.bank_bits());
    let mut v = vec![
        PortSpec::input("rst", 1),
        PortSpec::input("init_en", 1),
        PortSpec::input("init_used", p.rename_regs),
        PortSpec::input("start_en", 1),
        PortSpec::input("start_warp", w),
        PortSpec::input("rel_en", 1),
        PortSpec::input("rel_warp", w),
        PortSpec::input("rel_reg", a),
    ];
    for k in 0..p.issue_ports {
        v.push(PortSpec::input(format!("iss{k}_warp"), w));
        v.push(PortSpec::input(format!("iss{k}_pmode"), 1));
        v.push(PortSpec::input(format!("iss{k}_src0"), a));
        v.push(PortSpec::input(format!("iss{k}_src1"), a));
        v.push(PortSpec::input(format!("iss{k}_dst"), a));
        v.push(PortSpec::input(format!("iss{k}_bank"), b));
        v.push(PortSpec::input(format!("iss{k}_alloc"), 1));
        v.push(PortSpec::input(format!("iss{k}_reuse"), 1));
        v.push(PortSpec::input(format!("iss{k}_reuse_phys"), r));
        v.push(PortSpec::input(format!("iss{k}_write"), 1));
    }
    v.push(PortSpec::output("used", p.rename_regs));
    for k in 0..p.issue_ports {
        v.push(PortSpec::output(format!("iss{k}_src0_renamed"), 1));
        v.push(PortSpec::output(format!("iss{k}_src0_phys"), r));
        v.push(PortSpec::output(format!("iss{k}_src1_renamed"), 1));
        v.push(PortSpec::output(format!("iss{k}_src1_phys"), r));
        v.push(PortSpec::output(format!("iss{k}_free"), 1));
        v.push(PortSpec::output(format!("iss{k}_alloc_phys"), r));
    }
    v
}

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

struct IssIds {
    warp: PortId,
    pmode: PortId,
    src: [PortId; 2],
    dst: PortId,
    bank: PortId,
    alloc: PortId,
    reuse: PortId,
    reuse_phys: PortId,
    write: PortId,
    o_ren: [PortId; 2],
    o_phys: [PortId; 2],
    o_free: PortId,
    o_alloc: PortId,
}

/// Cycle-accurate reference model of `rename`.
pub struct RenameModel {
    p: RenameParams,
    io: PortFrame,
    rst: PortId,
    init_en: PortId,
    init_used: PortId,
    start_en: PortId,
    start_warp: PortId,
    rel: [PortId; 3],
    o_used: PortId,
    iss: Vec<IssIds>,
    t: Vec<WarpTables>,
    /// Availability vector, set = in use (little-endian words).
    used: Vec<u64>,
    /// Per port: the candidate register (start-of-cycle state).
    cand: Vec<Option<u64>>,
}

impl RenameModel {
    pub fn new(p: &RenameParams) -> Self {
        let io = PortFrame::new(ports(p));
        let iss = (0..p.issue_ports)
            .map(|k| {
                let n = |s: &str| io.id(&format!("iss{k}_{s}"));
                IssIds {
                    warp: n("warp"),
                    pmode: n("pmode"),
                    src: [n("src0"), n("src1")],
                    dst: n("dst"),
                    bank: n("bank"),
                    alloc: n("alloc"),
                    reuse: n("reuse"),
                    reuse_phys: n("reuse_phys"),
                    write: n("write"),
                    o_ren: [n("src0_renamed"), n("src1_renamed")],
                    o_phys: [n("src0_phys"), n("src1_phys")],
                    o_free: n("free"),
                    o_alloc: n("alloc_phys"),
                }
            })
            .collect();
        let empty = WarpTables { n: vec![Map::default(); p.regs as usize], p: vec![Map::default(); p.regs as usize] };
        RenameModel {
            rst: io.id("rst"),
            init_en: io.id("init_en"),
            init_used: io.id("init_used"),
            start_en: io.id("start_en"),
            start_warp: io.id("start_warp"),
            rel: [io.id("rel_en"), io.id("rel_warp"), io.id("rel_reg")],
            o_used: io.id("used"),
            iss,
            t: vec![empty; p.warps as usize],
            used: vec![0; words_for(p.rename_regs)],
            cand: vec![None; p.issue_ports as usize],
            p: p.clone(),
            io,
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
        for k in 0..self.iss.len() {
            let bank = self.io.get_u64(self.iss[k].bank) & (banks - 1);
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
    sim::frame_ports!(io);

    fn eval(&mut self) {
        self.candidates();
        let used = std::mem::take(&mut self.used);
        self.io.set(self.o_used, &used);
        self.used = used;
        for k in 0..self.iss.len() {
            let ids = &self.iss[k];
            let (w, pm) = (self.io.get_u64(ids.warp), self.io.get_bool(ids.pmode));
            for j in 0..2 {
                let (ren, phys) = self.lookup(w, pm, self.io.get_u64(ids.src[j]));
                self.io.set_bool(ids.o_ren[j], ren);
                self.io.set_u64(ids.o_phys[j], phys);
            }
            self.io.set_bool(ids.o_free, self.cand[k].is_some());
            self.io.set_u64(ids.o_alloc, self.cand[k].unwrap_or(0));
        }
    }

    fn tick(&mut self) {
        let regs = self.p.regs as usize;
        if self.io.get_bool(self.rst) {
            self.used.fill(0);
            for t in &mut self.t {
                t.n.fill(Map::default());
                t.p.fill(Map::default());
            }
            return;
        }
        if self.io.get_bool(self.init_en) {
            // Kernel start: the vector only (the tables hold no live mapping
            // under the exit protocol).
            for i in 0..self.used.len() {
                self.used[i] = self.io.get(self.init_used)[i];
            }
            return;
        }
        self.candidates();
        // Frees of this cycle are applied before its allocations (they are
        // disjoint under the protocol; off it, an allocation wins).
        let mut allocs: Vec<u64> = Vec::new();
        let warps = self.t.len() as u64;
        let (start, sw) = (self.io.get_bool(self.start_en), self.io.get_u64(self.start_warp));
        for k in 0..self.iss.len() {
            let ids = &self.iss[k];
            let w = self.io.get_u64(ids.warp);
            let cmd = |ids: &IssIds| self.io.get_bool(ids.alloc) || self.io.get_bool(ids.reuse) || self.io.get_bool(ids.write);
            let blocked = (0..k).any(|j| self.io.get_u64(self.iss[j].warp) == w && cmd(&self.iss[j]));
            let dst = self.io.get_u64(ids.dst) as usize;
            if w >= warps || blocked || dst >= regs {
                continue;
            }
            let wi = w as usize;
            if self.io.get_bool(ids.pmode) {
                if self.io.get_bool(ids.alloc) && !(start && sw == w) {
                    if let Some(c) = self.cand[k] {
                        allocs.push(c);
                        self.t[wi].p[dst] = Map { id: c, renamed: true };
                    }
                }
            } else if self.io.get_bool(ids.reuse) {
                let rp = self.io.get_u64(ids.reuse_phys);
                let old = self.t[wi].n[dst];
                if old.renamed && old.id != rp {
                    self.free(old.id);
                }
                self.t[wi].n[dst] = Map { id: rp, renamed: true };
            } else if self.io.get_bool(ids.write) {
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
        let (rw, rr) = (self.io.get_u64(self.rel[1]), self.io.get_u64(self.rel[2]) as usize);
        if self.io.get_bool(self.rel[0]) && rw < warps && rr < regs {
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

/// Registry entry: reference model and driver of `rename`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "rename",
    model: |p| Ok(Box::new(RenameModel::new(&<RenameParams as hw::BlockParams>::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(RenameDriver::new(&<RenameParams as hw::BlockParams>::from_params(p)?, seed))),
};

// ---------------------------------------------------------------------------
// Driver

#[derive(Clone, Debug, Default)]
struct DrvWarp {
    pmode: bool,
    /// Registers allocated in the current/last episode, in order: (dst, phys),
    /// standing for P-queue entries; reused in order back in N-mode.
    fifo: VecDeque<(u64, u64)>,
    allocs_left: u32,
    /// Warp-exit release walk in progress: next register.
    releasing: Option<u64>,
}

/// Constrained-random stimulus for `rename`: episodes of allocations in
/// P-mode, reuses in order in N-mode interleaved with normal writes, warp-exit
/// release walks, kernel starts with varying compiler register use (down to no
/// free register at all), and the odd protocol corner.
///
/// The driver keeps a private copy of the reference model as its shadow to
/// learn which register each allocation got (it never sees the component
/// under test; the recorded stimulus replays unchanged).
pub struct RenameDriver {
    p: RenameParams,
    layout: Arc<InputLayout>,
    rng: ChaCha8Rng,
    shadow: RenameModel,
    s: BTreeMap<String, Slot>,
    warps: Vec<DrvWarp>,
    cycle: u64,
    need_init: bool,
}

impl RenameDriver {
    pub fn new(p: &RenameParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let shadow = RenameModel::new(p);
        let s = layout.ports().iter().enumerate().map(|(i, q)| (q.name.clone(), Slot(i))).collect();
        RenameDriver {
            p: p.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            shadow,
            s,
            warps: vec![DrvWarp::default(); p.warps as usize],
            cycle: 0,
            need_init: false,
            layout,
        }
    }

    fn sl(&self, n: &str) -> Slot {
        self.s[n]
    }

    fn init_frame(&mut self, f: &mut Frame) {
        let n = self.p.rename_regs as usize;
        let density = [0.0, 0.3, 0.7, 0.95, 1.0][self.rng.random_range(0..5)];
        let mut words = vec![0u64; words_for(self.p.rename_regs)];
        for i in 0..n {
            if self.rng.random_bool(density) {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        f.set_bool(self.sl("init_en"), true);
        f.set_wide(self.sl("init_used"), &words);
        for w in &mut self.warps {
            *w = DrvWarp::default();
        }
    }

    fn push_to_shadow(&mut self, f: &Frame) {
        self.shadow.set_inputs(f.words());
        self.shadow.eval();
    }
}

impl Driver for RenameDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, f: &mut Frame) {
        let c = self.cycle;
        self.cycle += 1;
        let p = self.p.clone();
        let nw = p.warps as u64;
        if c == 0 || self.rng.random_range(0..3000) == 0 {
            f.set_bool(self.sl("rst"), true);
            for w in &mut self.warps {
                *w = DrvWarp::default();
            }
            self.need_init = true;
            self.push_to_shadow(f);
            self.shadow.tick();
            return;
        }
        // A kernel starts after a reset (no live mapping; see the spec).
        if self.need_init {
            self.need_init = false;
            self.init_frame(f);
            self.push_to_shadow(f);
            self.shadow.tick();
            return;
        }
        // Episode start for one warp in N-mode with nothing left to reuse.
        let mut started = u64::MAX;
        if self.rng.random_range(0..6) == 0 {
            let w = self.rng.random_range(0..nw.min(8));
            let d = &mut self.warps[w as usize];
            if !d.pmode && d.fifo.is_empty() && d.releasing.is_none() {
                d.pmode = true;
                d.allocs_left = self.rng.random_range(1..12);
                started = w;
                f.set_bool(self.sl("start_en"), true);
                f.set(self.sl("start_warp"), w);
            }
        }
        // Release walk of an exiting warp (one register per cycle).
        let rel = [self.sl("rel_en"), self.sl("rel_warp"), self.sl("rel_reg")];
        if let Some((w, d)) = self.warps.iter_mut().enumerate().find(|(_, d)| d.releasing.is_some()) {
            let r = d.releasing.unwrap_or(0);
            f.set_bool(rel[0], true);
            f.set(rel[1], w as u64);
            f.set(rel[2], r);
            d.releasing = (r + 1 < p.regs as u64).then_some(r + 1);
        } else if self.rng.random_range(0..400) == 0 {
            let w = self.rng.random_range(0..nw.min(8)) as usize;
            if !self.warps[w].pmode && self.warps[w].fifo.is_empty() && started != w as u64 {
                self.warps[w].releasing = Some(0);
            }
        }
        // Ports: choose warps and operands first (outputs depend on them only).
        let mut pw = [u64::MAX; 4];
        for k in 0..p.issue_ports as usize {
            let mut w = self.rng.random_range(0..nw.min(8));
            while pw[..k].contains(&w) && self.rng.random_range(0..20) != 0 {
                w = self.rng.random_range(0..nw);
            }
            if self.rng.random_range(0..300) == 0 {
                w = self.rng.random_range(0..=mask(p.warp_bits()));
            }
            pw[k] = w;
            let d = self.warps.get(w as usize);
            let pm = d.is_some_and(|d| d.pmode);
            f.set(self.sl(&format!("iss{k}_warp")), w);
            f.set_bool(self.sl(&format!("iss{k}_pmode")), if self.rng.random_range(0..100) == 0 { !pm } else { pm });
            for j in 0..2 {
                f.set(self.sl(&format!("iss{k}_src{j}")), self.rng.random_range(0..=p.regs as u64));
            }
            f.set(self.sl(&format!("iss{k}_bank")), self.rng.random::<u64>());
        }
        self.push_to_shadow(f);
        // Commands.
        for k in 0..p.issue_ports as usize {
            let w = pw[k];
            let cmd = |j: usize| ["alloc", "reuse", "write"].iter().any(|n| f.get(self.s[&format!("iss{j}_{n}")])[0] == 1);
            let blocked = (0..k).any(|j| pw[j] == w && cmd(j));
            let Some(d) = self.warps.get_mut(w as usize) else {
                continue;
            };
            let sl = |n: &str| self.s[&format!("iss{k}_{n}")];
            let pm = f.get(sl("pmode"))[0] == 1;
            if pm != d.pmode {
                // A port driving the wrong mode: commands are ignored.
                f.set_bool(sl("alloc"), true);
                f.set_bool(sl("write"), true);
                continue;
            }
            if d.pmode {
                if w == started {
                    // Corner: an allocation in the cycle the episode starts is
                    // ignored (the start wins).
                    if self.rng.random_range(0..4) == 0 {
                        f.set(sl("dst"), self.rng.random_range(0..p.regs as u64));
                        f.set_bool(sl("alloc"), true);
                    }
                    continue;
                }
                if d.allocs_left == 0 {
                    // Episode ends (the triggering load came back).
                    d.pmode = false;
                    continue;
                }
                if self.rng.random_range(0..3) == 0 {
                    let dst = if self.rng.random_range(0..50) == 0 { p.regs as u64 } else { self.rng.random_range(0..p.regs as u64) };
                    f.set(sl("dst"), dst);
                    f.set_bool(sl("alloc"), true);
                    let free = self.shadow.get_bool(self.shadow.iss[k].o_free);
                    if free && !blocked && dst < p.regs as u64 {
                        d.fifo.push_back((dst, self.shadow.get_u64(self.shadow.iss[k].o_alloc)));
                    }
                    d.allocs_left -= 1;
                }
            } else if d.releasing.is_none() {
                match self.rng.random_range(0..10) {
                    0..4 if !d.fifo.is_empty() => {
                        let (dst, phys) = d.fifo[0];
                        f.set(sl("dst"), dst);
                        f.set_bool(sl("reuse"), true);
                        f.set(sl("reuse_phys"), phys);
                        f.set_bool(sl("write"), self.rng.random_range(0..10) == 0);
                        if !blocked {
                            d.fifo.pop_front();
                        }
                    }
                    0..7 => {
                        f.set(sl("dst"), self.rng.random_range(0..p.regs as u64));
                        f.set_bool(sl("write"), true);
                    }
                    _ => {}
                }
            }
        }
        self.push_to_shadow(f);
        self.shadow.tick();
    }
}

// ---------------------------------------------------------------------------
// Property checks

/// Run `st` through `dut` and check, every cycle, against bookkeeping kept in
/// ordered maps (who owns which rename register):
/// - **a register is never handed to two live mappings**: an allocated
///   register is free in the checker's books (not compiler-used, not
///   allocated and unreused, not mapped by an N table) and differs from every
///   other port's register this cycle;
/// - **a source reads the renamed register exactly when its renamed bit is
///   set**: every lookup equals the checker's tables (P before N in P-mode);
/// - **no free register means a P-mode warp may not issue**: `free` is clear
///   exactly when fewer than k+1 registers are free for port k; the chosen
///   register is the lowest free one of the requested bank, else the lowest
///   free one;
/// - **return to the vector**: `used` equals the checker's set every cycle
///   (frees on reuse over a mapping, normal write, release; none on P-table
///   overwrite or episode start).
pub fn check(p: &RenameParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    let layout = st.layout().clone();
    crate::run::check_inputs(dut, &layout)?;
    let li = |n: &str| slot(&layout, n);
    let (rst, init_en, init_used, sen, sw) = (li("rst")?, li("init_en")?, li("init_used")?, li("start_en")?, li("start_warp")?);
    let rel = [li("rel_en")?, li("rel_warp")?, li("rel_reg")?];
    let o_used = out(dut, "used")?;
    let names = ["warp", "pmode", "src0", "src1", "dst", "bank", "alloc", "reuse", "reuse_phys", "write"];
    let onames = ["src0_renamed", "src0_phys", "src1_renamed", "src1_phys", "free", "alloc_phys"];
    let mut ks = Vec::new();
    for k in 0..p.issue_ports {
        let i: Vec<Slot> = names.iter().map(|n| li(&format!("iss{k}_{n}"))).collect::<Result<_, _>>()?;
        let o: Vec<PortId> = onames.iter().map(|n| out(dut, &format!("iss{k}_{n}"))).collect::<Result<_, _>>()?;
        ks.push((i, o));
    }
    let (nr, regs) = (p.rename_regs as u64, p.regs as u64);
    // The checker's books.
    let mut used: BTreeSet<u64> = BTreeSet::new();
    let mut n_map: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut p_map: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    for c in 0..st.cycles() {
        let iv = InView::new(st, c);
        dut.set_inputs(st.cycle(c));
        dut.eval();
        let err = |m: String| Err(format!("cycle {c}: {m}"));
        let got: BTreeSet<u64> = (0..nr).filter(|&i| bit(dut.get(o_used), i as usize)).collect();
        if got != used {
            let extra: Vec<_> = got.difference(&used).collect();
            let missing: Vec<_> = used.difference(&got).collect();
            return err(format!("`used` differs: set but free {extra:?}, clear but in use {missing:?}"));
        }
        let mut handed: Vec<Option<u64>> = Vec::new();
        for (k, (i, o)) in ks.iter().enumerate() {
            let (w, pm) = (iv.u(i[0]), iv.b(i[1]));
            for j in 0..2 {
                let r = iv.u(i[2 + j]);
                let want = if pm { p_map.get(&(w, r)).or(n_map.get(&(w, r))) } else { n_map.get(&(w, r)) };
                let got = (dut.get(o[2 * j])[0] == 1, dut.get(o[2 * j + 1])[0]);
                if got != (want.is_some(), want.copied().unwrap_or(0)) {
                    return err(format!("port {k} warp {w} src{j} r{r} (pmode {pm}): reads {got:?}, expected {want:?}"));
                }
            }
            let avail: Vec<u64> = (0..nr).filter(|i| !used.contains(i) && !handed.contains(&Some(*i))).collect();
            let bank = iv.u(i[5]) % p.banks as u64;
            let want = avail.iter().copied().find(|i| i % p.banks as u64 == bank).or(avail.first().copied());
            let (free, phys) = (dut.get(o[4])[0] == 1, dut.get(o[5])[0]);
            if free != want.is_some() {
                return err(format!("port {k}: free = {free} with {} registers available to it", avail.len()));
            }
            if let Some(x) = want {
                if phys != x {
                    return err(format!("port {k}: offers register {phys}, expected {x} (bank {bank})"));
                }
            }
            handed.push(want);
        }
        // Next state of the books.
        if iv.b(rst) {
            used.clear();
            n_map.clear();
            p_map.clear();
        } else if iv.b(init_en) {
            // Kernel start loads the vector; the tables are kept.
            used = (0..nr).filter(|&i| bit(iv.slot(init_used), i as usize)).collect();
        } else {
            let start = iv.b(sen).then(|| iv.u(sw));
            let mut busy = Vec::new();
            let mut new_regs = Vec::new();
            for (k, (i, _)) in ks.iter().enumerate() {
                let (w, pm, dst) = (iv.u(i[0]), iv.b(i[1]), iv.u(i[4]));
                let (alloc, reuse, write) = (iv.b(i[6]), iv.b(i[7]), iv.b(i[9]));
                let blocked = busy.contains(&w);
                if alloc || reuse || write {
                    busy.push(w);
                }
                if w >= p.warps as u64 || blocked || dst >= regs {
                    continue;
                }
                if pm {
                    if let (true, true, Some(x)) = (alloc, start != Some(w), handed[k]) {
                        if used.contains(&x) || n_map.values().any(|&v| v == x) {
                            return err(format!("port {k}: register {x} handed out while live"));
                        }
                        new_regs.push(x);
                        p_map.insert((w, dst), x);
                    }
                } else if reuse {
                    let rp = iv.u(i[8]);
                    if let Some(old) = n_map.insert((w, dst), rp) {
                        if old != rp {
                            used.remove(&old);
                        }
                    }
                } else if write {
                    if let Some(old) = n_map.remove(&(w, dst)) {
                        used.remove(&old);
                    }
                }
            }
            if let Some(w) = start {
                p_map.retain(|&(pw, _), _| pw != w);
            }
            if iv.b(rel[0]) && iv.u(rel[1]) < p.warps as u64 && iv.u(rel[2]) < regs {
                if let Some(old) = n_map.remove(&(iv.u(rel[1]), iv.u(rel[2]))) {
                    used.remove(&old);
                }
            }
            used.extend(new_regs);
        }
        dut.tick();
    }
    Ok(())
}

/// Directed tests at the default parameters, written against the ports only:
/// run on the reference model here and on the generated hardware in
/// `verif/tests/pmode.rs`.
pub mod golden {
    use super::*;

    crate::poke_harness!(T);

    impl<'a> T<'a> {
        fn used(&mut self) -> Vec<u64> {
            self.m.eval();
            let id = self.m.output("used").unwrap();
            let n = self.m.ports()[id.0 as usize].width as u64;
            (0..n).filter(|&i| bit(self.m.get(id), i as usize)).collect()
        }
    }

    /// Same-bank-first search with the compiler's registers pre-marked.
    pub fn same_bank_first_and_compiler_registers(m: &mut dyn Component) {
        let mut t = T::new(m);
        // Compiler uses rename registers 0..=5 and 9.
        t.set("init_en", 1);
        let idinit = t.m.input("init_used").unwrap();
        t.m.set(idinit, &[0b10_0011_1111, 0]);
        t.step();
        // Bank 1 (ids 1, 5, 9, 13, ...): 1, 5, 9 used -> 13. Bank 2: 2 and 6? 6 free -> 6.
        t.set("iss0_bank", 1);
        t.set("iss1_bank", 2);
        assert_eq!((t.get("iss0_free"), t.get("iss0_alloc_phys")), (1, 13));
        assert_eq!((t.get("iss1_free"), t.get("iss1_alloc_phys")), (1, 6));
        // Port 1 asking for the same bank gets the next one in that bank.
        t.set("iss1_bank", 1);
        assert_eq!(t.get("iss1_alloc_phys"), 17);
        // All of bank 3 used -> lowest free anywhere.
        let mut words = [0u64; 2];
        for i in 0..128 {
            if i % 4 == 3 || i < 7 {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        t.clear();
        t.set("init_en", 1);
        t.m.set(idinit, &words);
        t.step();
        t.set("iss0_bank", 3);
        t.set("iss1_bank", 3);
        assert_eq!((t.get("iss0_alloc_phys"), t.get("iss1_alloc_phys")), (8, 9));
        // Nothing free: no port may allocate.
        t.clear();
        t.set("init_en", 1);
        t.m.set(idinit, &[u64::MAX, u64::MAX]);
        t.step();
        assert_eq!((t.get("iss0_free"), t.get("iss1_free")), (0, 0));
        // Exactly one free: port 0 only.
        t.set("init_en", 1);
        t.m.set(idinit, &[u64::MAX, u64::MAX >> 1]);
        t.step();
        assert_eq!((t.get("iss0_free"), t.get("iss0_alloc_phys"), t.get("iss1_free")), (1, 127, 0));
    }

    /// The life of a rename register: allocated in P-mode, kept across the
    /// episode end and a P-table overwrite, reused into the N table, freed
    /// when the N mapping is overwritten or the register is written
    /// normally, or at warp release.
    pub fn when_a_register_returns_to_the_vector(m: &mut dyn Component) {
        let mut t = T::new(m);
        // Episode of warp 3: $r1 <- p0, then $r1 <- p1 (P-table overwrite), $r2 <- p2.
        t.set("start_en", 1);
        t.set("start_warp", 3);
        t.step();
        for dst in [1, 1, 2] {
            t.set("iss0_warp", 3);
            t.set("iss0_pmode", 1);
            t.set("iss0_dst", dst);
            t.set("iss0_bank", 0);
            t.set("iss0_alloc", 1);
            t.step();
        }
        assert_eq!(t.used(), vec![0, 4, 8]);
        // P-mode reads $r1 from p1 (latest), $r3 not renamed.
        t.set("iss0_warp", 3);
        t.set("iss0_pmode", 1);
        t.set("iss0_src0", 1);
        t.set("iss0_src1", 3);
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys"), t.get("iss0_src1_renamed")), (1, 4, 0));
        // N-mode does not see the P table.
        t.set("iss0_pmode", 0);
        assert_eq!(t.get("iss0_src0_renamed"), 0);
        t.clear();
        // Back in N-mode: reuse p0 into $r1, then p1 into $r1 -> p0 freed.
        for phys in [0, 4] {
            t.set("iss0_warp", 3);
            t.set("iss0_dst", 1);
            t.set("iss0_reuse", 1);
            t.set("iss0_reuse_phys", phys);
            t.step();
        }
        assert_eq!(t.used(), vec![4, 8]);
        t.set("iss0_warp", 3);
        t.set("iss0_src0", 1);
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 4));
        t.clear();
        // A new episode: P-mode falls back to the N table for $r1.
        t.set("start_en", 1);
        t.set("start_warp", 3);
        t.step();
        t.set("iss0_warp", 3);
        t.set("iss0_pmode", 1);
        t.set("iss0_src0", 1);
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 4));
        t.clear();
        // Reuse p2 into $r2, then a normal write of $r1 frees p1.
        t.set("iss0_warp", 3);
        t.set("iss0_dst", 2);
        t.set("iss0_reuse", 1);
        t.set("iss0_reuse_phys", 8);
        t.step();
        t.set("iss1_warp", 3);
        t.set("iss1_dst", 1);
        t.set("iss1_write", 1);
        t.step();
        assert_eq!(t.used(), vec![8]);
        // Warp exit: releasing $r2 frees p2.
        t.set("rel_en", 1);
        t.set("rel_warp", 3);
        t.set("rel_reg", 2);
        t.step();
        assert_eq!(t.used(), Vec::<u64>::new());
    }

    /// Same-cycle corners: a reuse of the register the mapping already holds
    /// frees nothing; a release sees a same-cycle reuse or write of its
    /// register; a kernel start keeps the tables; off the protocol, an
    /// allocation wins over a free of the same register.
    pub fn same_cycle_corners(m: &mut dyn Component) {
        let mut t = T::new(m);
        let alloc = |t: &mut T, warp: u64, dst: u64, bank: u64| {
            t.set("iss0_warp", warp);
            t.set("iss0_pmode", 1);
            t.set("iss0_dst", dst);
            t.set("iss0_bank", bank);
            t.set("iss0_alloc", 1);
            t.step();
        };
        let reuse = |t: &mut T, k: u32, warp: u64, dst: u64, phys: u64| {
            t.set(&format!("iss{k}_warp"), warp);
            t.set(&format!("iss{k}_dst"), dst);
            t.set(&format!("iss{k}_reuse"), 1);
            t.set(&format!("iss{k}_reuse_phys"), phys);
        };
        let release = |t: &mut T, warp: u64, reg: u64| {
            t.set("rel_en", 1);
            t.set("rel_warp", warp);
            t.set("rel_reg", reg);
        };
        t.set("start_en", 1);
        t.set("start_warp", 1);
        t.step();
        alloc(&mut t, 1, 2, 0);
        alloc(&mut t, 1, 3, 1);
        assert_eq!(t.used(), vec![0, 1]);
        for _ in 0..2 {
            reuse(&mut t, 0, 1, 2, 0);
            t.step();
            assert_eq!(t.used(), vec![0, 1]);
        }
        // Reuse of $r3 and its release in one cycle: freed at once.
        reuse(&mut t, 0, 1, 3, 1);
        release(&mut t, 1, 3);
        t.step();
        assert_eq!(t.used(), vec![0]);
        t.set("iss0_warp", 1);
        t.set("iss0_src0", 3);
        t.set("iss0_src1", 2);
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src1_renamed"), t.get("iss0_src1_phys")), (0, 1, 0));
        t.clear();
        // A normal write of $r2 and its release in one cycle: freed once.
        t.set("iss1_warp", 1);
        t.set("iss1_dst", 2);
        t.set("iss1_write", 1);
        release(&mut t, 1, 2);
        t.step();
        assert_eq!(t.used(), Vec::<u64>::new());
        // Off the protocol: warp 2's $r4 maps register 5, which the vector
        // shows free. A kernel start keeps the mapping.
        reuse(&mut t, 0, 2, 4, 5);
        t.step();
        let id = t.m.input("init_used").unwrap();
        t.m.set(id, &[0b1_1111, 0]);
        t.set("init_en", 1);
        t.step();
        t.set("iss0_warp", 2);
        t.set("iss0_src0", 4);
        assert_eq!((t.get("iss0_src0_renamed"), t.get("iss0_src0_phys")), (1, 5));
        // Port 0 writes $r4 (frees 5) while port 1 allocates 5: allocated.
        t.set("iss0_dst", 4);
        t.set("iss0_write", 1);
        t.set("iss1_warp", 3);
        t.set("iss1_pmode", 1);
        t.set("iss1_dst", 0);
        t.set("iss1_bank", 1);
        t.set("iss1_alloc", 1);
        assert_eq!(t.get("iss1_alloc_phys"), 5);
        t.step();
        assert_eq!(t.used(), vec![0, 1, 2, 3, 4, 5]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bank_first_and_compiler_registers() {
        golden::same_bank_first_and_compiler_registers(&mut RenameModel::new(&RenameParams::default()));
    }

    #[test]
    fn when_a_register_returns_to_the_vector() {
        golden::when_a_register_returns_to_the_vector(&mut RenameModel::new(&RenameParams::default()));
    }

    #[test]
    fn same_cycle_corners() {
        golden::same_cycle_corners(&mut RenameModel::new(&RenameParams::default()));
    }

    #[test]
    fn random_traffic_satisfies_properties() {
        let small = RenameParams { warps: 5, regs: 8, rename_regs: 16, banks: 4, issue_ports: 2 };
        for (p, seed) in [(RenameParams::default(), 1u64), (small.clone(), 2), (RenameParams { issue_ports: 3, banks: 2, ..small }, 3)] {
            let st = Stimulus::record(&mut RenameDriver::new(&p, seed), 10_000);
            let mut m = RenameModel::new(&p);
            check(&p, &mut m, &st).unwrap();
        }
    }

    #[test]
    fn driver_exercises_the_interesting_cases() {
        let p = RenameParams { warps: 5, regs: 8, rename_regs: 16, banks: 4, issue_ports: 2 };
        let st = Stimulus::record(&mut RenameDriver::new(&p, 9), 20_000);
        let mut m = RenameModel::new(&p);
        crate::run::check_inputs(&m, st.layout()).unwrap();
        let (alloc, pm, reuse, write) = (st.layout().expect("iss0_alloc"), st.layout().expect("iss0_pmode"), st.layout().expect("iss0_reuse"), st.layout().expect("iss0_write"));
        let (free, used) = (m.output("iss0_free").unwrap(), m.output("used").unwrap());
        let mut n = [0u32; 5];
        for c in 0..st.cycles() {
            m.set_inputs(st.cycle(c));
            m.eval();
            let iv = InView::new(&st, c);
            let before = m.get(used)[0].count_ones();
            n[0] += (iv.b(pm) && iv.b(alloc) && m.get_bool(free)) as u32;
            n[1] += (iv.b(pm) && iv.b(alloc) && !m.get_bool(free)) as u32;
            m.tick();
            m.eval();
            let after = m.get(used)[0].count_ones();
            n[2] += (!iv.b(pm) && iv.b(reuse) && after < before) as u32;
            n[3] += (!iv.b(pm) && !iv.b(reuse) && iv.b(write) && after < before) as u32;
            n[4] += (before == 16) as u32;
        }
        // allocated, refused (none free), freed by reuse, freed by write, vector full
        assert!(n.iter().all(|&x| x > 20), "{n:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, failure_persistence: None, ..Default::default() })]
        #[test]
        fn prop_random_params(seed in 0u64..1_000_000, regs in 2u32..12, rr in 1u32..5, bank_log in 0u32..3, ports in 1u32..4) {
            let p = RenameParams { warps: 3, regs, rename_regs: 8 * rr, banks: 1 << bank_log, issue_ports: ports };
            let st = Stimulus::record(&mut RenameDriver::new(&p, seed), 3_000);
            let mut m = RenameModel::new(&p);
            proptest::prop_assert_eq!(check(&p, &mut m, &st), Ok(()));
        }
    }
}
