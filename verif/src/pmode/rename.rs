//! Verification of `rename` (specification `hw::blocks::pmode::rename`,
//! model `models::pmode::rename`): its constrained-random driver, its
//! property check and its directed (golden) scenarios.

use super::InView;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::rename::{RenameIo, RenameParams};
use hw::iface::InterfaceExt;
use models::bits::{bit, mask};
use models::pmode::rename::RenameModel;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{words_for, Bind, Component, ComponentExt, PortId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

/// Registry entry: the driver of `rename`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "rename",
    driver: |p, seed| Ok(Box::new(RenameDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

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
    io: RenameIo<PortId>,
    warps: Vec<DrvWarp>,
    cycle: u64,
    need_init: bool,
}

impl RenameDriver {
    pub fn new(p: &RenameParams, seed: u64) -> Self {
        let layout = InputLayout::of(&p.ports());
        let shadow = RenameModel::new(p);
        RenameDriver {
            io: p.ids(),
            p: p.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            shadow,
            warps: vec![DrvWarp::default(); p.warps as usize],
            cycle: 0,
            need_init: false,
            layout,
        }
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
        f.set_bool(self.io.init_en, true);
        f.set_wide(self.io.init_used, &words);
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
            f.set_bool(self.io.rst, true);
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
                f.set_bool(self.io.start_en, true);
                f.set(self.io.start_warp, w);
            }
        }
        // Release walk of an exiting warp (one register per cycle).
        let rel = [self.io.rel_en, self.io.rel_warp, self.io.rel_reg];
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
            f.set(self.io.iss[k].warp, w);
            f.set_bool(self.io.iss[k].pmode, if self.rng.random_range(0..100) == 0 { !pm } else { pm });
            for j in 0..2 {
                f.set(self.io.iss[k].src[j], self.rng.random_range(0..=p.regs as u64));
            }
            f.set(self.io.iss[k].bank, self.rng.random::<u64>());
        }
        self.push_to_shadow(f);
        // Commands.
        for k in 0..p.issue_ports as usize {
            let w = pw[k];
            let cmd = |j: usize| {
                let d = &self.io.iss[j];
                [d.alloc, d.reuse, d.write].iter().any(|&id| f.get(id)[0] == 1)
            };
            let blocked = (0..k).any(|j| pw[j] == w && cmd(j));
            let Some(d) = self.warps.get_mut(w as usize) else {
                continue;
            };
            let s = &self.io.iss[k];
            let pm = f.get(s.pmode)[0] == 1;
            if pm != d.pmode {
                // A port driving the wrong mode: commands are ignored.
                f.set_bool(s.alloc, true);
                f.set_bool(s.write, true);
                continue;
            }
            if d.pmode {
                if w == started {
                    // Corner: an allocation in the cycle the episode starts is
                    // ignored (the start wins).
                    if self.rng.random_range(0..4) == 0 {
                        f.set(s.dst, self.rng.random_range(0..p.regs as u64));
                        f.set_bool(s.alloc, true);
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
                    f.set(s.dst, dst);
                    f.set_bool(s.alloc, true);
                    let free = self.shadow.get_bool(s.free);
                    if free && !blocked && dst < p.regs as u64 {
                        d.fifo.push_back((dst, self.shadow.get_u64(s.alloc_phys)));
                    }
                    d.allocs_left -= 1;
                }
            } else if d.releasing.is_none() {
                match self.rng.random_range(0..10) {
                    0..4 if !d.fifo.is_empty() => {
                        let (dst, phys) = d.fifo[0];
                        f.set(s.dst, dst);
                        f.set_bool(s.reuse, true);
                        f.set(s.reuse_phys, phys);
                        f.set_bool(s.write, self.rng.random_range(0..10) == 0);
                        if !blocked {
                            d.fifo.pop_front();
                        }
                    }
                    0..7 => {
                        f.set(s.dst, self.rng.random_range(0..p.regs as u64));
                        f.set_bool(s.write, true);
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
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (rst, init_en, init_used, sen, sw) = (io.rst, io.init_en, io.init_used, io.start_en, io.start_warp);
    let rel = [io.rel_en, io.rel_warp, io.rel_reg];
    let o_used = io.used;
    // Per port: the inputs (warp, pmode, src0, src1, dst, bank, alloc, reuse,
    // reuse_phys, write) and the outputs (two lookups, free, alloc_phys).
    let ks: Vec<(Vec<PortId>, Vec<PortId>)> = io
        .iss
        .iter()
        .map(|d| {
            let i = vec![d.warp, d.pmode, d.src[0], d.src[1], d.dst, d.bank, d.alloc, d.reuse, d.reuse_phys, d.write];
            let l = &d.lookup;
            (i, vec![l[0].renamed, l[0].phys, l[1].renamed, l[1].phys, d.free, d.alloc_phys])
        })
        .collect();
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

/// Directed tests at the default parameters, written against the ports only,
/// run on the reference model and on the generated hardware
/// (`verif/tests/blocks/rename.rs`).
pub mod golden {
    use super::*;

    crate::poke_harness!(T);

    impl<'a> T<'a> {
        fn used(&mut self, id: PortId) -> Vec<u64> {
            self.m.eval();
            let n = self.m.ports()[id.0 as usize].width as u64;
            (0..n).filter(|&i| bit(self.m.get(id), i as usize)).collect()
        }
    }

    /// Same-bank-first search with the compiler's registers pre-marked.
    pub fn same_bank_first_and_compiler_registers(p: &RenameParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m);
        // Compiler uses rename registers 0..=5 and 9.
        t.set(io.init_en, 1);
        let idinit = io.init_used;
        t.m.set(idinit, &[0b10_0011_1111, 0]);
        t.step();
        // Bank 1 (ids 1, 5, 9, 13, ...): 1, 5, 9 used -> 13. Bank 2: 2 and 6? 6 free -> 6.
        t.set(io.iss[0].bank, 1);
        t.set(io.iss[1].bank, 2);
        assert_eq!((t.get(io.iss[0].free), t.get(io.iss[0].alloc_phys)), (1, 13));
        assert_eq!((t.get(io.iss[1].free), t.get(io.iss[1].alloc_phys)), (1, 6));
        // Port 1 asking for the same bank gets the next one in that bank.
        t.set(io.iss[1].bank, 1);
        assert_eq!(t.get(io.iss[1].alloc_phys), 17);
        // All of bank 3 used -> lowest free anywhere.
        let mut words = [0u64; 2];
        for i in 0..128 {
            if i % 4 == 3 || i < 7 {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        t.clear();
        t.set(io.init_en, 1);
        t.m.set(idinit, &words);
        t.step();
        t.set(io.iss[0].bank, 3);
        t.set(io.iss[1].bank, 3);
        assert_eq!((t.get(io.iss[0].alloc_phys), t.get(io.iss[1].alloc_phys)), (8, 9));
        // Nothing free: no port may allocate.
        t.clear();
        t.set(io.init_en, 1);
        t.m.set(idinit, &[u64::MAX, u64::MAX]);
        t.step();
        assert_eq!((t.get(io.iss[0].free), t.get(io.iss[1].free)), (0, 0));
        // Exactly one free: port 0 only.
        t.set(io.init_en, 1);
        t.m.set(idinit, &[u64::MAX, u64::MAX >> 1]);
        t.step();
        assert_eq!((t.get(io.iss[0].free), t.get(io.iss[0].alloc_phys), t.get(io.iss[1].free)), (1, 127, 0));
    }

    /// The life of a rename register: allocated in P-mode, kept across the
    /// episode end and a P-table overwrite, reused into the N table, freed
    /// when the N mapping is overwritten or the register is written
    /// normally, or at warp release.
    pub fn when_a_register_returns_to_the_vector(p: &RenameParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m);
        // Episode of warp 3: $r1 <- p0, then $r1 <- p1 (P-table overwrite), $r2 <- p2.
        t.set(io.start_en, 1);
        t.set(io.start_warp, 3);
        t.step();
        for dst in [1, 1, 2] {
            t.set(io.iss[0].warp, 3);
            t.set(io.iss[0].pmode, 1);
            t.set(io.iss[0].dst, dst);
            t.set(io.iss[0].bank, 0);
            t.set(io.iss[0].alloc, 1);
            t.step();
        }
        assert_eq!(t.used(io.used), vec![0, 4, 8]);
        // P-mode reads $r1 from p1 (latest), $r3 not renamed.
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].pmode, 1);
        t.set(io.iss[0].src[0], 1);
        t.set(io.iss[0].src[1], 3);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys), t.get(io.iss[0].lookup[1].renamed)), (1, 4, 0));
        // N-mode does not see the P table.
        t.set(io.iss[0].pmode, 0);
        assert_eq!(t.get(io.iss[0].lookup[0].renamed), 0);
        t.clear();
        // Back in N-mode: reuse p0 into $r1, then p1 into $r1 -> p0 freed.
        for phys in [0, 4] {
            t.set(io.iss[0].warp, 3);
            t.set(io.iss[0].dst, 1);
            t.set(io.iss[0].reuse, 1);
            t.set(io.iss[0].reuse_phys, phys);
            t.step();
        }
        assert_eq!(t.used(io.used), vec![4, 8]);
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].src[0], 1);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 4));
        t.clear();
        // A new episode: P-mode falls back to the N table for $r1.
        t.set(io.start_en, 1);
        t.set(io.start_warp, 3);
        t.step();
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].pmode, 1);
        t.set(io.iss[0].src[0], 1);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 4));
        t.clear();
        // Reuse p2 into $r2, then a normal write of $r1 frees p1.
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].dst, 2);
        t.set(io.iss[0].reuse, 1);
        t.set(io.iss[0].reuse_phys, 8);
        t.step();
        t.set(io.iss[1].warp, 3);
        t.set(io.iss[1].dst, 1);
        t.set(io.iss[1].write, 1);
        t.step();
        assert_eq!(t.used(io.used), vec![8]);
        // Warp exit: releasing $r2 frees p2.
        t.set(io.rel_en, 1);
        t.set(io.rel_warp, 3);
        t.set(io.rel_reg, 2);
        t.step();
        assert_eq!(t.used(io.used), Vec::<u64>::new());
    }

    /// Same-cycle corners: a reuse of the register the mapping already holds
    /// frees nothing; a release sees a same-cycle reuse or write of its
    /// register; a kernel start keeps the tables; off the protocol, an
    /// allocation wins over a free of the same register.
    pub fn same_cycle_corners(p: &RenameParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m);
        let alloc = |t: &mut T, io: &RenameIo<PortId>, warp: u64, dst: u64, bank: u64| {
            t.set(io.iss[0].warp, warp);
            t.set(io.iss[0].pmode, 1);
            t.set(io.iss[0].dst, dst);
            t.set(io.iss[0].bank, bank);
            t.set(io.iss[0].alloc, 1);
            t.step();
        };
        let reuse = |t: &mut T, io: &RenameIo<PortId>, k: u32, warp: u64, dst: u64, phys: u64| {
            t.set(io.iss[k as usize].warp, warp);
            t.set(io.iss[k as usize].dst, dst);
            t.set(io.iss[k as usize].reuse, 1);
            t.set(io.iss[k as usize].reuse_phys, phys);
        };
        let release = |t: &mut T, io: &RenameIo<PortId>, warp: u64, reg: u64| {
            t.set(io.rel_en, 1);
            t.set(io.rel_warp, warp);
            t.set(io.rel_reg, reg);
        };
        t.set(io.start_en, 1);
        t.set(io.start_warp, 1);
        t.step();
        alloc(&mut t, &io, 1, 2, 0);
        alloc(&mut t, &io, 1, 3, 1);
        assert_eq!(t.used(io.used), vec![0, 1]);
        for _ in 0..2 {
            reuse(&mut t, &io, 0, 1, 2, 0);
            t.step();
            assert_eq!(t.used(io.used), vec![0, 1]);
        }
        // Reuse of $r3 and its release in one cycle: freed at once.
        reuse(&mut t, &io, 0, 1, 3, 1);
        release(&mut t, &io, 1, 3);
        t.step();
        assert_eq!(t.used(io.used), vec![0]);
        t.set(io.iss[0].warp, 1);
        t.set(io.iss[0].src[0], 3);
        t.set(io.iss[0].src[1], 2);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[1].renamed), t.get(io.iss[0].lookup[1].phys)), (0, 1, 0));
        t.clear();
        // A normal write of $r2 and its release in one cycle: freed once.
        t.set(io.iss[1].warp, 1);
        t.set(io.iss[1].dst, 2);
        t.set(io.iss[1].write, 1);
        release(&mut t, &io, 1, 2);
        t.step();
        assert_eq!(t.used(io.used), Vec::<u64>::new());
        // Off the protocol: warp 2's $r4 maps register 5, which the vector
        // shows free. A kernel start keeps the mapping.
        reuse(&mut t, &io, 0, 2, 4, 5);
        t.step();
        let id = io.init_used;
        t.m.set(id, &[0b1_1111, 0]);
        t.set(io.init_en, 1);
        t.step();
        t.set(io.iss[0].warp, 2);
        t.set(io.iss[0].src[0], 4);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 5));
        // Port 0 writes $r4 (frees 5) while port 1 allocates 5: allocated.
        t.set(io.iss[0].dst, 4);
        t.set(io.iss[0].write, 1);
        t.set(io.iss[1].warp, 3);
        t.set(io.iss[1].pmode, 1);
        t.set(io.iss[1].dst, 0);
        t.set(io.iss[1].bank, 1);
        t.set(io.iss[1].alloc, 1);
        assert_eq!(t.get(io.iss[1].alloc_phys), 5);
        t.step();
        assert_eq!(t.used(io.used), vec![0, 1, 2, 3, 4, 5]);
    }
}

