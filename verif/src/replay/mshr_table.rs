//! Verification of `mshr_table` (see `hw::blocks::replay::mshr_table` for the
//! specification, `models::replay::mshr_table` for the reference model): a
//! constrained-random driver and the closed-loop property [`check_properties`],
//! which runs on any [`Component`] with the block's ports.

use crate::stimulus::{Driver, Frame, InputLayout};
use hw::blocks::replay::mshr_table::{MshrTableIo, MshrTableParams, NAME};
use hw::iface::InterfaceExt;
use models::bits::{get_field, mask};
use models::replay::mshr_table::{MshrIn, MshrTable};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| Ok(Box::new(MshrTableDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

#[derive(Clone, Debug)]
struct Pending {
    line: u64,
    entry: u32,
    ids: Vec<u64>,
}

/// Expected outputs of one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MshrOut {
    pub probe_hit: bool,
    pub probe_entry: u32,
    pub req_ok: bool,
    pub req_merged: bool,
    pub req_entry: u32,
    pub free_count: u32,
    pub fill_ok: bool,
    pub fill_addr: u64,
    /// Tags woken by the fill, oldest first.
    pub wake: Vec<u64>,
}

/// The property's books: the table as a list of pending lines (no entry array), the
/// decision rules of the specification restated; [`check_properties`] checks the DUT's
/// answers and wake-ups against them.
#[derive(Clone, Debug)]
pub struct MshrBooks {
    p: MshrTableParams,
    lines: Vec<Pending>,
}

impl MshrBooks {
    pub fn new(p: &MshrTableParams) -> Self {
        MshrBooks { p: p.clone(), lines: Vec::new() }
    }

    /// Entries in use (their indices).
    pub fn used_entries(&self) -> impl Iterator<Item = u32> + '_ {
        self.lines.iter().map(|l| l.entry)
    }

    fn lowest_free(&self) -> Option<u32> {
        (0..self.p.entries).find(|e| !self.lines.iter().any(|l| l.entry == *e))
    }

    pub fn expect(&self, i: &MshrIn) -> MshrOut {
        let hit = self.lines.iter().find(|l| l.line == i.req_addr);
        let filled = if i.fill_valid { self.lines.iter().find(|l| l.entry == i.fill_entry) } else { None };
        let mut o = MshrOut {
            probe_hit: hit.is_some(),
            probe_entry: hit.map(|l| l.entry).unwrap_or(0),
            req_ok: false,
            req_merged: false,
            req_entry: 0,
            free_count: self.p.entries - self.lines.len() as u32,
            fill_ok: filled.is_some(),
            fill_addr: filled.map(|l| l.line).unwrap_or(0),
            wake: filled.map(|l| l.ids.clone()).unwrap_or_default(),
        };
        if i.req_valid {
            match hit {
                Some(l) => {
                    let being_filled = filled.is_some_and(|f| f.entry == l.entry);
                    if !being_filled && (l.ids.len() as u32) < self.p.merge_limit {
                        o.req_ok = true;
                        o.req_merged = true;
                        o.req_entry = l.entry;
                    }
                }
                None => {
                    if let Some(e) = self.lowest_free() {
                        o.req_ok = true;
                        o.req_entry = e;
                    }
                }
            }
        }
        o
    }

    pub fn step(&mut self, i: &MshrIn) {
        if i.rst {
            self.lines.clear();
            return;
        }
        let o = self.expect(i);
        if o.req_ok {
            if o.req_merged {
                self.lines.iter_mut().find(|l| l.line == i.req_addr).unwrap().ids.push(i.req_id);
            } else {
                self.lines.push(Pending { line: i.req_addr, entry: o.req_entry, ids: vec![i.req_id] });
            }
        }
        if o.fill_ok {
            self.lines.retain(|l| l.entry != i.fill_entry);
        }
    }
}

fn compare(c: &dyn Component, io: &MshrTableIo<PortId>, want: &MshrOut, p: &MshrTableParams) -> Result<(), String> {
    let o = [
        io.probe_hit,
        io.probe_entry,
        io.req_ok,
        io.req_merged,
        io.req_entry,
        io.full,
        io.free_count,
        io.fill_ok,
        io.fill_addr,
        io.wake_valid,
    ];
    let g = |k: usize| c.get_u64(o[k]);
    let mut wake_valid = 0u64;
    for k in 0..want.wake.len() {
        wake_valid |= 1 << k;
    }
    let scalar = [
        ("probe_hit", want.probe_hit as u64),
        ("probe_entry", want.probe_entry as u64),
        ("req_ok", want.req_ok as u64),
        ("req_merged", want.req_merged as u64),
        ("req_entry", want.req_entry as u64),
        ("full", (want.free_count == 0) as u64),
        ("free_count", want.free_count as u64),
        ("fill_ok", want.fill_ok as u64),
        ("fill_addr", want.fill_addr),
        ("wake_valid", wake_valid),
    ];
    for (k, (name, v)) in scalar.iter().enumerate() {
        if g(k) != *v {
            return Err(format!("{name} = {:#x}, expected {v:#x}", g(k)));
        }
    }
    let ids = c.get(io.wake_ids);
    for k in 0..p.merge_limit as usize {
        let got = get_field(ids, k * p.id_bits as usize, p.id_bits);
        let exp = want.wake.get(k).copied().unwrap_or(0);
        if got != exp {
            return Err(format!("wake_ids[{k}] = {got:#x}, expected {exp:#x}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Driver.
// ---------------------------------------------------------------------------------------

/// Requests over a line pool whose size changes by phase (small pools merge and hit the
/// merge limit, large ones fill the table), fills of pending entries after a while,
/// occasional fills of free or out-of-range entries, requests to a line being filled, and
/// resets.
pub struct MshrTableDriver {
    layout: Arc<InputLayout>,
    io: MshrTableIo<PortId>,
    /// A private copy of the reference model: which entries are pending.
    model: MshrTable,
    rng: ChaCha8Rng,
    p: MshrTableParams,
    cycle: u64,
    pool: u64,
    base: u64,
    p_req: f64,
    p_fill: f64,
}

impl MshrTableDriver {
    pub fn new(p: &MshrTableParams, seed: u64) -> Self {
        MshrTableDriver {
            layout: InputLayout::of(&p.ports()),
            io: p.ids(),
            model: MshrTable::new(p),
            rng: ChaCha8Rng::seed_from_u64(seed),
            p: p.clone(),
            cycle: 0,
            pool: 16,
            base: 0,
            p_req: 0.8,
            p_fill: 0.2,
        }
    }

    fn choose(&mut self) -> MshrIn {
        if self.cycle.is_multiple_of(500) {
            self.pool = [2, 8, 40, 1 << 20][self.rng.random_range(0..4)];
            self.base = self.rng.random();
            self.p_req = [0.3, 0.8, 1.0][self.rng.random_range(0..3)];
            self.p_fill = [0.05, 0.2, 0.5][self.rng.random_range(0..3)];
        }
        self.cycle += 1;
        let lm = mask(self.p.line_bits);
        let im = mask(self.p.id_bits);
        if self.cycle == 1 || self.rng.random_bool(0.002) {
            return MshrIn {
                rst: true,
                req_valid: self.rng.random(),
                req_addr: self.rng.random::<u64>() & lm,
                req_id: self.rng.random::<u64>() & im,
                fill_valid: self.rng.random(),
                fill_entry: self.rng.random_range(0..self.p.entries),
            };
        }
        let mut i = MshrIn::default();
        let used: Vec<u32> = self.model.used_entries();
        if self.rng.random_bool(self.p_fill) && !used.is_empty() {
            i.fill_valid = true;
            i.fill_entry = used[self.rng.random_range(0..used.len())];
        } else if self.rng.random_bool(0.02) {
            i.fill_valid = true;
            i.fill_entry = self.rng.random_range(0..(1u32 << self.p.entry_bits()));
        }
        if self.rng.random_bool(self.p_req) {
            i.req_valid = true;
            i.req_id = self.rng.random::<u64>() & im;
            i.req_addr = self.base.wrapping_add(self.rng.random_range(0..self.pool)) & lm;
        }
        i
    }
}

impl Driver for MshrTableDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }
    fn next(&mut self, frame: &mut Frame) {
        let i = self.choose();
        i.write(&self.io, |id, v| frame.set(id, v));
        i.write(&self.io, |id, v| self.model.set_u64(id, v));
        self.model.eval();
        self.model.tick();
    }
}

fn set_inputs(c: &mut dyn Component, io: &MshrTableIo<PortId>, i: &MshrIn) {
    i.write(io, |id, v| c.set_u64(id, v));
}

/// Result counts of [`check_properties`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MshrStats {
    pub allocated: u64,
    pub merged: u64,
    pub rejected_full: u64,
    pub rejected_merge: u64,
    pub woken: u64,
}

/// Closed loop on `dut`: random requests (unique serial tags), fills of pending lines
/// chosen from the DUT's own answers, then a drain. Checks every decision and output
/// against the property's books ([`MshrBooks`]) and that each accepted request is woken
/// exactly once, by the fill of its line, in the order it was merged.
pub fn check_properties(dut: &mut dyn Component, p: &MshrTableParams, seed: u64, cycles: u64) -> Result<MshrStats, String> {
    let io = p.bind(dut).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sh = MshrBooks::new(p);
    let lm = mask(p.line_bits);
    let im = mask(p.id_bits);
    // Outstanding accepted requests, by (entry) in acceptance order: (line, serial).
    let mut outstanding: Vec<Vec<(u64, u64)>> = vec![Vec::new(); p.entries as usize];
    let mut serial = 0u64;
    let mut st = MshrStats::default();
    set_inputs(dut, &io, &MshrIn { rst: true, ..Default::default() });
    dut.step();
    let pool = (p.entries as u64 * 2).min(lm.saturating_add(1)).max(1);
    for cyc in 0..cycles + 4 * p.entries as u64 {
        let draining = cyc >= cycles;
        let mut i = MshrIn::default();
        if !draining && rng.random_bool(0.8) {
            i.req_valid = true;
            i.req_addr = rng.random_range(0..pool) & lm;
            i.req_id = serial & im;
        }
        let busy: Vec<u32> = (0..p.entries).filter(|e| !outstanding[*e as usize].is_empty()).collect();
        if !busy.is_empty() && (draining || rng.random_bool(0.25)) {
            i.fill_valid = true;
            i.fill_entry = busy[rng.random_range(0..busy.len())];
        }
        set_inputs(dut, &io, &i);
        dut.eval();
        let want = sh.expect(&i);
        compare(dut, &io, &want, p).map_err(|e| format!("cycle {cyc}: {e} (inputs {i:?})"))?;
        if i.req_valid {
            if want.req_ok {
                outstanding[want.req_entry as usize].push((i.req_addr, serial));
                serial += 1;
                if want.req_merged {
                    st.merged += 1;
                } else {
                    st.allocated += 1;
                }
            } else if want.probe_hit {
                st.rejected_merge += 1;
            } else {
                st.rejected_full += 1;
            }
        }
        if i.fill_valid {
            let e = i.fill_entry as usize;
            let woken = std::mem::take(&mut outstanding[e]);
            let ids = dut.get(io.wake_ids);
            for (k, (line, s)) in woken.iter().enumerate() {
                let got = get_field(ids, k * p.id_bits as usize, p.id_bits);
                if got != s & im || *line != dut.get_u64(io.fill_addr) {
                    return Err(format!("cycle {cyc}: fill of entry {e} woke tag {got:#x}, expected request {s} of line {line:#x}"));
                }
            }
            if dut.get_u64(io.wake_valid) != mask(woken.len() as u32) {
                return Err(format!("cycle {cyc}: fill of entry {e} woke {:#x}, expected {} requests", dut.get_u64(io.wake_valid), woken.len()));
            }
            st.woken += woken.len() as u64;
        }
        dut.tick();
        sh.step(&i);
        if draining && outstanding.iter().all(|v| v.is_empty()) {
            break;
        }
    }
    if st.woken != st.allocated + st.merged {
        return Err(format!("accepted {} requests but woke {}", st.allocated + st.merged, st.woken));
    }
    set_inputs(dut, &io, &MshrIn::default());
    dut.eval();
    if dut.get_u64(io.free_count) != p.entries as u64 {
        return Err("drained, but entries are still in use".into());
    }
    Ok(st)
}


