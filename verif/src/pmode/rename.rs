//! Verification of `rename` (specification `hw::blocks::pmode::rename`,
//! model `models::pmode::rename`): its constrained-random driver, its
//! property check and its directed (golden) scenarios.

use super::InView;
use crate::stimulus::{Driver, Frame, InputLayout, Stimulus};
use hw::blocks::pmode::rename::{RenameIo, RenameIssue, RenameParams};
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
    /// Instructions renamed in the current/last episode, in order: per
    /// destination slot the (dst, phys) it was given, standing for P-queue
    /// entries; reused in order back in N-mode.
    fifo: VecDeque<Vec<Option<(u64, u64)>>>,
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
        // Episode start for one warp in N-mode, now and then with entries
        // left to reuse (the start drops them and frees their registers).
        let mut started = u64::MAX;
        if self.rng.random_range(0..6) == 0 {
            let w = self.rng.random_range(0..nw.min(8));
            let drop_left = self.rng.random_range(0..3) == 0;
            let d = &mut self.warps[w as usize];
            if !d.pmode && (d.fifo.is_empty() || drop_left) && d.releasing.is_none() {
                d.fifo.clear();
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
        // Ports: choose warps, operands and what each port will do first (the
        // outputs depend on the operands, not on the commands).
        #[derive(Clone, Copy, PartialEq)]
        enum Plan {
            Nothing,
            WrongMode,
            StartCorner,
            EndEpisode,
            Alloc,
            Reuse,
            Write,
        }
        let ks = p.issue_ports as usize;
        let nd = p.dsts as usize;
        let mut pw = [u64::MAX; 4];
        let mut plans = vec![Plan::Nothing; ks];
        // Per port, the recorded instruction a reuse names.
        let mut reused: Vec<Vec<Option<(u64, u64)>>> = vec![Vec::new(); ks];
        for k in 0..ks {
            let mut w = self.rng.random_range(0..nw.min(8));
            while pw[..k].contains(&w) && self.rng.random_range(0..20) != 0 {
                w = self.rng.random_range(0..nw);
            }
            if self.rng.random_range(0..300) == 0 {
                w = self.rng.random_range(0..=mask(p.warp_bits()));
            }
            pw[k] = w;
            let d = self.warps.get(w as usize).cloned();
            let pm = d.as_ref().is_some_and(|d| d.pmode);
            let s = self.io.iss[k].clone();
            let pm_set = if self.rng.random_range(0..100) == 0 { !pm } else { pm };
            f.set(s.warp, w);
            f.set_bool(s.pmode, pm_set);
            for &src in &s.src {
                f.set(src, self.rng.random_range(0..=p.regs as u64));
            }
            for x in &s.dst {
                f.set(x.bank, self.rng.random::<u64>());
            }
            plans[k] = match &d {
                None => Plan::Nothing,
                Some(_) if pm_set != pm => Plan::WrongMode,
                Some(d) if d.pmode && w == started => if self.rng.random_range(0..4) == 0 { Plan::StartCorner } else { Plan::Nothing },
                Some(d) if d.pmode && d.allocs_left == 0 => Plan::EndEpisode,
                Some(d) if d.pmode => if self.rng.random_range(0..3) == 0 { Plan::Alloc } else { Plan::Nothing },
                Some(d) if d.releasing.is_none() => match self.rng.random_range(0..10) {
                    0..4 if !d.fifo.is_empty() => Plan::Reuse,
                    0..7 => Plan::Write,
                    _ => Plan::Nothing,
                },
                Some(_) => Plan::Nothing,
            };
            // Destination slots (register, valid): a reuse names the recorded
            // instruction's; otherwise one register, a pair or a vector, now and
            // then a repeated or out-of-range register.
            let slots: Vec<(u64, bool)> = match (plans[k], &d) {
                (Plan::Reuse, Some(d)) => {
                    reused[k] = d.fifo[0].clone();
                    d.fifo[0].iter().map(|x| x.map_or((self.rng.random_range(0..p.regs as u64), false), |(r, _)| (r, true))).collect()
                }
                _ => {
                    let n = match self.rng.random_range(0..4) {
                        0 => self.rng.random_range(0..=nd),
                        1 => nd,
                        _ => 1,
                    };
                    let base = self.rng.random_range(0..p.regs as u64);
                    (0..nd)
                        .map(|x| {
                            let r = match self.rng.random_range(0..40) {
                                0 => p.regs as u64,
                                1..4 => base,
                                4..10 => self.rng.random_range(0..p.regs as u64),
                                _ => (base + x as u64) % p.regs as u64,
                            };
                            (r, x < n || nd == 1)
                        })
                        .collect()
                }
            };
            for (x, &(r, v)) in s.dst.iter().zip(&slots) {
                f.set(x.reg, r);
                if let Some(id) = x.vld {
                    f.set_bool(id, v);
                }
            }
        }
        self.push_to_shadow(f);
        // Commands, in port order.
        for k in 0..ks {
            let w = pw[k];
            let cmd = |j: usize| {
                let d = &self.io.iss[j];
                [d.alloc, d.reuse, d.write, d.moved].iter().any(|&id| f.get(id)[0] == 1)
            };
            let blocked = (0..k).any(|j| pw[j] == w && cmd(j));
            let s = self.io.iss[k].clone();
            let writes = written_slots(&s, f, p.regs);
            let Some(d) = self.warps.get_mut(w as usize) else {
                continue;
            };
            match plans[k] {
                Plan::Nothing => {}
                // A port driving the wrong mode: commands are ignored.
                Plan::WrongMode => {
                    f.set_bool(s.alloc, true);
                    f.set_bool(s.write, true);
                }
                // Corner: an allocation in the cycle the episode starts is
                // ignored (the start wins).
                Plan::StartCorner => f.set_bool(s.alloc, true),
                // The episode ends (the triggering load came back).
                Plan::EndEpisode => d.pmode = false,
                Plan::Alloc => {
                    f.set_bool(s.alloc, true);
                    if self.shadow.get_bool(s.free) && !blocked {
                        let entry: Vec<Option<(u64, u64)>> =
                            (0..nd).map(|x| writes[x].then(|| (f.get(s.dst[x].reg)[0], self.shadow.get_u64(s.alloc_phys[x])))).collect();
                        // Now and then unrecorded (a full P-queue): never
                        // reused, freed by the next start or the exit walk.
                        if entry.iter().any(Option::is_some) && self.rng.random_range(0..5) != 0 {
                            d.fifo.push_back(entry);
                        }
                    }
                    d.allocs_left = d.allocs_left.saturating_sub(1);
                }
                Plan::Reuse => {
                    // Renamed into the N table, or (now and then) moved home.
                    if self.rng.random_range(0..3) == 0 {
                        f.set_bool(s.moved, true);
                        f.set_bool(s.write, true);
                    } else {
                        f.set_bool(s.reuse, true);
                        f.set_bool(s.write, self.rng.random_range(0..10) == 0);
                    }
                    for (x, e) in reused[k].iter().enumerate() {
                        f.set(s.reuse_phys[x], e.map_or(0, |e| e.1));
                    }
                    if !blocked && d.fifo.front() == Some(&reused[k]) {
                        d.fifo.pop_front();
                    }
                }
                Plan::Write => f.set_bool(s.write, true),
            }
        }
        self.push_to_shadow(f);
        self.shadow.tick();
    }
}

/// Per destination slot of port `s` in frame `f`: does the instruction write
/// it — valid (always at `dsts = 1`), not naming a lower valid slot's
/// register, and in range (`< regs`).
fn written_slots(s: &RenameIssue<PortId>, f: &Frame, regs: u32) -> Vec<bool> {
    let vld = |x: usize| s.dst[x].vld.is_none_or(|v| f.get(v)[0] == 1);
    let reg = |x: usize| f.get(s.dst[x].reg)[0];
    (0..s.dst.len()).map(|x| vld(x) && !(0..x).any(|e| vld(e) && reg(e) == reg(x)) && reg(x) < regs as u64).collect()
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
/// - **no free register means a P-mode warp may not issue**: `free` is set
///   exactly when port k finds a register for each destination it writes
///   (and at least one), after the registers lower ports and its own lower
///   destinations reserve; each destination's register is the lowest free
///   one of its bank, else the lowest free one;
/// - **return to the vector**: `used` equals the checker's set every cycle
///   (frees on reuse over a mapping, normal write, release, and at an episode
///   start the registers the warp allocated that no reuse took over; none on
///   P-table overwrite).
pub fn check(p: &RenameParams, dut: &mut dyn Component, st: &Stimulus) -> Result<(), String> {
    crate::run::check_inputs(dut, st.layout())?;
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let (rst, init_en, init_used, sen, sw) = (io.rst, io.init_en, io.init_used, io.start_en, io.start_warp);
    let rel = [io.rel_en, io.rel_warp, io.rel_reg];
    let o_used = io.used;
    let (nr, regs) = (p.rename_regs as u64, p.regs as u64);
    // The checker's books.
    let mut used: BTreeSet<u64> = BTreeSet::new();
    let mut n_map: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut p_map: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    // Registers still owned by a P-queue entry: register -> warp.
    let mut queued: BTreeMap<u64, u64> = BTreeMap::new();
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
        // Per port: the register each destination slot would get (None when
        // none is left) and whether the port may allocate.
        let mut reserved: Vec<u64> = Vec::new();
        let mut offers: Vec<(Vec<Option<u64>>, bool)> = Vec::new();
        for (k, d) in io.iss.iter().enumerate() {
            let (w, pm) = (iv.u(d.warp), iv.b(d.pmode));
            for (j, (&src, l)) in d.src.iter().zip(&d.lookup).enumerate() {
                let r = iv.u(src);
                let want = if pm { p_map.get(&(w, r)).or(n_map.get(&(w, r))) } else { n_map.get(&(w, r)) };
                let got = (dut.get(l.renamed)[0] == 1, dut.get(l.phys)[0]);
                if got != (want.is_some(), want.copied().unwrap_or(0)) {
                    return err(format!("port {k} warp {w} src{j} r{r} (pmode {pm}): reads {got:?}, expected {want:?}"));
                }
            }
            // A slot takes a register when the instruction writes it (valid,
            // always at dsts = 1, and not a repeated register).
            let vld = |x: usize| d.dst[x].vld.is_none_or(|v| iv.b(v));
            let takes = |x: usize| vld(x) && !(0..x).any(|e| vld(e) && iv.u(d.dst[e].reg) == iv.u(d.dst[x].reg));
            let avail_k = (0..nr).filter(|i| !used.contains(i) && !reserved.contains(i)).count();
            let mut want_free = avail_k > 0;
            let mut cands = Vec::new();
            for (x, o) in d.dst.iter().enumerate() {
                let avail: Vec<u64> = (0..nr).filter(|i| !used.contains(i) && !reserved.contains(i)).collect();
                let bank = iv.u(o.bank) % p.banks as u64;
                let want = avail.iter().copied().find(|i| i % p.banks as u64 == bank).or(avail.first().copied());
                let phys = dut.get(d.alloc_phys[x])[0];
                if phys != want.unwrap_or(0) {
                    return err(format!("port {k} destination {x}: offers register {phys}, expected {want:?} (bank {bank})"));
                }
                if takes(x) {
                    want_free &= want.is_some();
                    reserved.extend(want);
                }
                cands.push(want);
            }
            let free = dut.get(d.free)[0] == 1;
            if free != want_free {
                return err(format!("port {k}: free = {free} with {avail_k} registers available to it"));
            }
            offers.push((cands, free));
        }
        // Next state of the books.
        if iv.b(rst) {
            used.clear();
            n_map.clear();
            p_map.clear();
            queued.clear();
        } else if iv.b(init_en) {
            // Kernel start loads the vector; the tables are kept.
            used = (0..nr).filter(|&i| bit(iv.slot(init_used), i as usize)).collect();
            queued.clear();
        } else {
            let start = iv.b(sen).then(|| iv.u(sw));
            let mut busy = Vec::new();
            let mut new_regs: Vec<(u64, u64)> = Vec::new();
            let mut handed = Vec::new();
            for (k, d) in io.iss.iter().enumerate() {
                let (w, pm) = (iv.u(d.warp), iv.b(d.pmode));
                let (alloc, reuse, write, moved) = (iv.b(d.alloc), iv.b(d.reuse), iv.b(d.write), iv.b(d.moved));
                let blocked = busy.contains(&w);
                if alloc || reuse || write || moved {
                    busy.push(w);
                }
                if w >= p.warps as u64 || blocked {
                    continue;
                }
                let vld = |x: usize| d.dst[x].vld.is_none_or(|v| iv.b(v));
                for (x, o) in d.dst.iter().enumerate() {
                    let dst = iv.u(o.reg);
                    let repeated = (0..x).any(|e| vld(e) && iv.u(d.dst[e].reg) == dst);
                    if !vld(x) || repeated || dst >= regs {
                        continue;
                    }
                    if pm {
                        if let (true, true, true, Some(r)) = (alloc, start != Some(w), offers[k].1, offers[k].0[x]) {
                            if used.contains(&r) || n_map.values().any(|&v| v == r) || new_regs.iter().any(|x| x.0 == r) {
                                return err(format!("port {k}: register {r} handed out while live"));
                            }
                            new_regs.push((r, w));
                            p_map.insert((w, dst), r);
                        }
                    } else if reuse {
                        let rp = iv.u(d.reuse_phys[x]);
                        handed.push(rp);
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
                    if !pm && moved {
                        let rp = iv.u(d.reuse_phys[x]);
                        used.remove(&rp);
                        handed.push(rp);
                    }
                }
            }
            if let Some(w) = start {
                p_map.retain(|&(pw, _), _| pw != w);
                let dropped: Vec<u64> = queued.iter().filter(|&(_, &qw)| qw == w).map(|(&r, _)| r).collect();
                for r in dropped {
                    queued.remove(&r);
                    used.remove(&r);
                }
            }
            for r in handed {
                queued.remove(&r);
            }
            if iv.b(rel[0]) {
                let w = iv.u(rel[1]);
                let dropped: Vec<u64> = queued.iter().filter(|&(_, &qw)| qw == w).map(|(&r, _)| r).collect();
                for r in dropped {
                    queued.remove(&r);
                    used.remove(&r);
                }
            }
            if iv.b(rel[0]) && iv.u(rel[1]) < p.warps as u64 && iv.u(rel[2]) < regs {
                if let Some(old) = n_map.remove(&(iv.u(rel[1]), iv.u(rel[2]))) {
                    used.remove(&old);
                }
            }
            for (r, w) in new_regs {
                used.insert(r);
                queued.insert(r, w);
            }
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
        /// P-mode allocation on port 0: `warp` renames `dst` (destination
        /// bank `bank`); one cycle.
        fn alloc(&mut self, io: &RenameIo<PortId>, warp: u64, dst: u64, bank: u64) {
            self.set(io.iss[0].warp, warp);
            self.set(io.iss[0].pmode, 1);
            self.set(io.iss[0].dst[0].reg, dst);
            self.set(io.iss[0].dst[0].bank, bank);
            self.set(io.iss[0].alloc, 1);
            self.step();
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
        t.set(io.iss[0].dst[0].bank, 1);
        t.set(io.iss[1].dst[0].bank, 2);
        assert_eq!((t.get(io.iss[0].free), t.get(io.iss[0].alloc_phys[0])), (1, 13));
        assert_eq!((t.get(io.iss[1].free), t.get(io.iss[1].alloc_phys[0])), (1, 6));
        // Port 1 asking for the same bank gets the next one in that bank.
        t.set(io.iss[1].dst[0].bank, 1);
        assert_eq!(t.get(io.iss[1].alloc_phys[0]), 17);
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
        t.set(io.iss[0].dst[0].bank, 3);
        t.set(io.iss[1].dst[0].bank, 3);
        assert_eq!((t.get(io.iss[0].alloc_phys[0]), t.get(io.iss[1].alloc_phys[0])), (8, 9));
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
        assert_eq!((t.get(io.iss[0].free), t.get(io.iss[0].alloc_phys[0]), t.get(io.iss[1].free)), (1, 127, 0));
    }

    /// The life of a rename register: allocated in P-mode, kept across the
    /// episode end and a P-table overwrite, reused into the N table, freed
    /// when the N mapping is overwritten or the register is written
    /// normally, at warp release, or — while its episode still owns it (an
    /// entry never reused, a result never recorded) — by the warp's next
    /// episode start or its exit.
    pub fn when_a_register_returns_to_the_vector(p: &RenameParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m);
        // Episode of warp 3: $r1 <- p0, then $r1 <- p1 (P-table overwrite), $r2 <- p2.
        t.set(io.start_en, 1);
        t.set(io.start_warp, 3);
        t.step();
        for dst in [1, 1, 2] {
            t.alloc(&io, 3, dst, 0);
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
            t.set(io.iss[0].dst[0].reg, 1);
            t.set(io.iss[0].reuse, 1);
            t.set(io.iss[0].reuse_phys[0], phys);
            t.step();
        }
        assert_eq!(t.used(io.used), vec![4, 8]);
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].src[0], 1);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 4));
        t.clear();
        // Reuse p2 into $r2.
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].dst[0].reg, 2);
        t.set(io.iss[0].reuse, 1);
        t.set(io.iss[0].reuse_phys[0], 8);
        t.step();
        // A new episode: P-mode falls back to the N table for $r1; the start
        // frees nothing (every entry was reused).
        t.set(io.start_en, 1);
        t.set(io.start_warp, 3);
        t.step();
        assert_eq!(t.used(io.used), vec![4, 8]);
        t.set(io.iss[0].warp, 3);
        t.set(io.iss[0].pmode, 1);
        t.set(io.iss[0].src[0], 1);
        assert_eq!((t.get(io.iss[0].lookup[0].renamed), t.get(io.iss[0].lookup[0].phys)), (1, 4));
        t.clear();
        // A normal write of $r1 frees p1.
        t.set(io.iss[1].warp, 3);
        t.set(io.iss[1].dst[0].reg, 1);
        t.set(io.iss[1].write, 1);
        t.step();
        assert_eq!(t.used(io.used), vec![8]);
        // Warp exit: releasing $r2 frees p2.
        t.set(io.rel_en, 1);
        t.set(io.rel_warp, 3);
        t.set(io.rel_reg, 2);
        t.step();
        assert_eq!(t.used(io.used), Vec::<u64>::new());
        // Entries left unreused: warp 3 renames $r5 -> p0 and warp 4 $r5 ->
        // p4; warp 3 reuses nothing and starts again: p0 returns, warp 4's
        // p4 stays.
        for w in [3, 4] {
            t.alloc(&io, w, 5, 0);
        }
        assert_eq!(t.used(io.used), vec![0, 4]);
        t.set(io.start_en, 1);
        t.set(io.start_warp, 3);
        t.step();
        assert_eq!(t.used(io.used), vec![4]);
        // Warp 4 exits: the first release of its walk frees p4 (an
        // unrecorded result, or an entry never reached).
        t.set(io.rel_en, 1);
        t.set(io.rel_warp, 4);
        t.set(io.rel_reg, 0);
        t.step();
        assert_eq!(t.used(io.used), Vec::<u64>::new());
        // A reuse that moves the value home (the unit at `release = 1`):
        // $r9 -> p0 is freed at once and $r9 reads its architected location.
        t.alloc(&io, 5, 9, 0);
        assert_eq!(t.used(io.used), vec![0]);
        t.set(io.iss[0].warp, 5);
        t.set(io.iss[0].dst[0].reg, 9);
        t.set(io.iss[0].moved, 1);
        t.set(io.iss[0].write, 1);
        t.set(io.iss[0].reuse_phys[0], 0);
        t.step();
        assert_eq!(t.used(io.used), Vec::<u64>::new());
        t.set(io.iss[0].warp, 5);
        t.set(io.iss[0].src[0], 9);
        assert_eq!(t.get(io.iss[0].lookup[0].renamed), 0);
    }

    /// Same-cycle corners: a reuse of the register the mapping already holds
    /// frees nothing; a release sees a same-cycle reuse or write of its
    /// register; a kernel start keeps the tables; off the protocol, an
    /// allocation wins over a free of the same register.
    pub fn same_cycle_corners(p: &RenameParams, m: &mut dyn Component) {
        let io = p.bind(m).unwrap();
        let mut t = T::new(m);
        let reuse = |t: &mut T, io: &RenameIo<PortId>, k: u32, warp: u64, dst: u64, phys: u64| {
            t.set(io.iss[k as usize].warp, warp);
            t.set(io.iss[k as usize].dst[0].reg, dst);
            t.set(io.iss[k as usize].reuse, 1);
            t.set(io.iss[k as usize].reuse_phys[0], phys);
        };
        let release = |t: &mut T, io: &RenameIo<PortId>, warp: u64, reg: u64| {
            t.set(io.rel_en, 1);
            t.set(io.rel_warp, warp);
            t.set(io.rel_reg, reg);
        };
        t.set(io.start_en, 1);
        t.set(io.start_warp, 1);
        t.step();
        t.alloc(&io, 1, 2, 0);
        t.alloc(&io, 1, 3, 1);
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
        t.set(io.iss[1].dst[0].reg, 2);
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
        t.set(io.iss[0].dst[0].reg, 4);
        t.set(io.iss[0].write, 1);
        t.set(io.iss[1].warp, 3);
        t.set(io.iss[1].pmode, 1);
        t.set(io.iss[1].dst[0].reg, 0);
        t.set(io.iss[1].dst[0].bank, 1);
        t.set(io.iss[1].alloc, 1);
        assert_eq!(t.get(io.iss[1].alloc_phys[0]), 5);
        t.step();
        assert_eq!(t.used(io.used), vec![0, 1, 2, 3, 4, 5]);
    }
}

