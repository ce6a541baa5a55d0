//! Reference model of `mshr_table` (specification in `hw::blocks::replay::mshr_table`),
//! an independent line-keyed [`MshrShadow`], a constrained-random [`MshrTableDriver`] and
//! checks that run on any [`Component`] with the block's ports:
//! * [`check_against_shadow`]: every output on every cycle of a recorded stimulus;
//! * [`check_properties`]: closed loop — accept/merge/reject decisions, allocation order,
//!   full, and every accepted request woken exactly once, in merge order, by its line's
//!   fill.

use super::bits::{get_field, mask, port_ids, put_field};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::replay::mshr_table::{MshrTableParams, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::sync::Arc;

pub const INPUTS: [&str; 6] = ["rst", "req_valid", "req_addr", "req_id", "fill_valid", "fill_entry"];
pub const OUTPUTS: [&str; 11] = [
    "probe_hit",
    "probe_entry",
    "req_ok",
    "req_merged",
    "req_entry",
    "full",
    "free_count",
    "fill_ok",
    "fill_addr",
    "wake_valid",
    "wake_ids",
];

pub fn ports(p: &MshrTableParams) -> Vec<PortSpec> {
    let (e, l, i, m) = (p.entry_bits(), p.line_bits, p.id_bits, p.merge_limit);
    vec![
        PortSpec::input("rst", 1),
        PortSpec::input("req_valid", 1),
        PortSpec::input("req_addr", l),
        PortSpec::input("req_id", i),
        PortSpec::input("fill_valid", 1),
        PortSpec::input("fill_entry", e),
        PortSpec::output("probe_hit", 1),
        PortSpec::output("probe_entry", e),
        PortSpec::output("req_ok", 1),
        PortSpec::output("req_merged", 1),
        PortSpec::output("req_entry", e),
        PortSpec::output("full", 1),
        PortSpec::output("free_count", p.count_bits()),
        PortSpec::output("fill_ok", 1),
        PortSpec::output("fill_addr", l),
        PortSpec::output("wake_valid", m),
        PortSpec::output("wake_ids", m * i),
    ]
}

/// One cycle of inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MshrIn {
    pub rst: bool,
    pub req_valid: bool,
    pub req_addr: u64,
    pub req_id: u64,
    pub fill_valid: bool,
    pub fill_entry: u32,
}

impl MshrIn {
    pub fn values(&self) -> [u64; 6] {
        [
            self.rst as u64,
            self.req_valid as u64,
            self.req_addr,
            self.req_id,
            self.fill_valid as u64,
            self.fill_entry as u64,
        ]
    }
    pub fn from_values(v: &[u64; 6]) -> Self {
        MshrIn {
            rst: v[0] & 1 != 0,
            req_valid: v[1] & 1 != 0,
            req_addr: v[2],
            req_id: v[3],
            fill_valid: v[4] & 1 != 0,
            fill_entry: v[5] as u32,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Decision {
    None,
    Merge(usize),
    Alloc(usize),
    Reject,
}

/// The reference model.
pub struct MshrTable {
    p: MshrTableParams,
    io: PortFrame,
    i: [PortId; 6],
    o: [PortId; 11],
    valid: Vec<bool>,
    addr: Vec<u64>,
    /// Requests - 1 per entry.
    more: Vec<u32>,
    /// `tags[k][e]`: memory k, request k of entry e (not reset).
    tags: Vec<Vec<u64>>,
    scratch: Vec<u64>,
}

impl MshrTable {
    pub fn new(p: &MshrTableParams) -> Self {
        let io = PortFrame::new(ports(p));
        let i = INPUTS.map(|n| io.id(n));
        let o = OUTPUTS.map(|n| io.id(n));
        let e = p.entries as usize;
        let words = (p.merge_limit as usize * p.id_bits as usize).div_ceil(64).max(1);
        MshrTable {
            p: p.clone(),
            io,
            i,
            o,
            valid: vec![false; e],
            addr: vec![0; e],
            more: vec![0; e],
            tags: vec![vec![0; e]; p.merge_limit as usize],
            scratch: vec![0; words],
        }
    }

    fn inputs(&self) -> MshrIn {
        let mut v = [0u64; 6];
        for (k, id) in self.i.iter().enumerate() {
            v[k] = self.io.get_u64(*id);
        }
        MshrIn::from_values(&v)
    }

    fn probe(&self, line: u64) -> Option<usize> {
        (0..self.valid.len()).find(|&e| self.valid[e] && self.addr[e] == line)
    }

    fn fill_ok(&self, i: &MshrIn) -> bool {
        i.fill_valid && (i.fill_entry as usize) < self.valid.len() && self.valid[i.fill_entry as usize]
    }

    fn decide(&self, i: &MshrIn) -> Decision {
        if !i.req_valid {
            return Decision::None;
        }
        match self.probe(i.req_addr) {
            Some(e) if self.fill_ok(i) && i.fill_entry as usize == e => Decision::Reject,
            Some(e) if self.more[e] + 1 < self.p.merge_limit => Decision::Merge(e),
            Some(_) => Decision::Reject,
            None => match self.valid.iter().position(|v| !v) {
                Some(e) => Decision::Alloc(e),
                None => Decision::Reject,
            },
        }
    }
}

impl Component for MshrTable {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);

    fn eval(&mut self) {
        let i = self.inputs();
        let probe = self.probe(i.req_addr);
        let d = self.decide(&i);
        let free = self.valid.iter().filter(|v| !**v).count() as u64;
        let fill_ok = self.fill_ok(&i);
        let (req_ok, merged, entry) = match d {
            Decision::Merge(e) => (true, true, e as u64),
            Decision::Alloc(e) => (true, false, e as u64),
            _ => (false, false, 0),
        };
        self.scratch.fill(0);
        let (mut wake_valid, mut fill_addr) = (0u64, 0u64);
        if fill_ok {
            let e = i.fill_entry as usize;
            fill_addr = self.addr[e];
            for k in 0..=self.more[e] as usize {
                wake_valid |= 1 << k;
                put_field(&mut self.scratch, k * self.p.id_bits as usize, self.p.id_bits, self.tags[k][e]);
            }
        }
        let o = self.o;
        self.io.set_bool(o[0], probe.is_some());
        self.io.set_u64(o[1], probe.unwrap_or(0) as u64);
        self.io.set_bool(o[2], req_ok);
        self.io.set_bool(o[3], merged);
        self.io.set_u64(o[4], entry);
        self.io.set_bool(o[5], free == 0);
        self.io.set_u64(o[6], free);
        self.io.set_bool(o[7], fill_ok);
        self.io.set_u64(o[8], fill_addr);
        self.io.set_u64(o[9], wake_valid);
        self.io.set(o[10], &self.scratch);
    }

    fn tick(&mut self) {
        let i = self.inputs();
        if i.rst {
            self.valid.fill(false);
            self.addr.fill(0);
            self.more.fill(0);
            return;
        }
        let d = self.decide(&i);
        let fill_ok = self.fill_ok(&i);
        match d {
            Decision::Merge(e) => {
                self.more[e] += 1;
                self.tags[self.more[e] as usize][e] = i.req_id;
            }
            Decision::Alloc(e) => {
                self.valid[e] = true;
                self.addr[e] = i.req_addr;
                self.more[e] = 0;
                self.tags[0][e] = i.req_id;
            }
            _ => {}
        }
        if fill_ok {
            self.valid[i.fill_entry as usize] = false;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Shadow: pending lines, each with the entry it sits in and its requests.
// ---------------------------------------------------------------------------------------

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

/// The table as a list of pending lines (no entry array): the specification restated.
#[derive(Clone, Debug)]
pub struct MshrShadow {
    p: MshrTableParams,
    lines: Vec<Pending>,
}

impl MshrShadow {
    pub fn new(p: &MshrTableParams) -> Self {
        MshrShadow { p: p.clone(), lines: Vec::new() }
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

fn compare(c: &dyn Component, o: &[PortId; 11], want: &MshrOut, p: &MshrTableParams) -> Result<(), String> {
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
    let ids = c.get(o[10]);
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
    slots: [Slot; 6],
    shadow: MshrShadow,
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
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.map(|n| layout.expect(n));
        MshrTableDriver {
            layout,
            slots,
            shadow: MshrShadow::new(p),
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
        let used: Vec<u32> = self.shadow.used_entries().collect();
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
        for (k, v) in i.values().iter().enumerate() {
            frame.set(self.slots[k], *v);
        }
        self.shadow.step(&i);
    }
}

// ---------------------------------------------------------------------------------------
// Checks on any engine.
// ---------------------------------------------------------------------------------------

fn set_inputs(c: &mut dyn Component, ids: &[PortId; 6], i: &MshrIn) {
    for (k, v) in i.values().iter().enumerate() {
        c.set_u64(ids[k], *v);
    }
}

/// Every output on every cycle of `stim` equals the shadow's prediction.
pub fn check_against_shadow(dut: &mut dyn Component, p: &MshrTableParams, stim: &Stimulus) -> Result<(), String> {
    let ii = port_ids(dut, INPUTS)?;
    let oo = port_ids(dut, OUTPUTS)?;
    let layout = stim.layout();
    let slots = INPUTS.map(|n| layout.expect(n));
    let mut sh = MshrShadow::new(p);
    for c in 0..stim.cycles() {
        let words = stim.cycle(c);
        let v = slots.map(|s| words[layout.range(s).start]);
        let i = MshrIn::from_values(&v);
        set_inputs(dut, &ii, &i);
        dut.eval();
        compare(dut, &oo, &sh.expect(&i), p).map_err(|e| format!("cycle {c}: {e} (inputs {i:?})"))?;
        dut.tick();
        sh.step(&i);
    }
    Ok(())
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
/// against the shadow and that each accepted request is woken exactly once, by the fill
/// of its line, in the order it was merged.
pub fn check_properties(dut: &mut dyn Component, p: &MshrTableParams, seed: u64, cycles: u64) -> Result<MshrStats, String> {
    let ii = port_ids(dut, INPUTS)?;
    let oo = port_ids(dut, OUTPUTS)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sh = MshrShadow::new(p);
    let lm = mask(p.line_bits);
    let im = mask(p.id_bits);
    // Outstanding accepted requests, by (entry) in acceptance order: (line, serial).
    let mut outstanding: Vec<Vec<(u64, u64)>> = vec![Vec::new(); p.entries as usize];
    let mut serial = 0u64;
    let mut st = MshrStats::default();
    set_inputs(dut, &ii, &MshrIn { rst: true, ..Default::default() });
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
        set_inputs(dut, &ii, &i);
        dut.eval();
        let want = sh.expect(&i);
        compare(dut, &oo, &want, p).map_err(|e| format!("cycle {cyc}: {e} (inputs {i:?})"))?;
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
            let ids = dut.get(oo[10]);
            for (k, (line, s)) in woken.iter().enumerate() {
                let got = get_field(ids, k * p.id_bits as usize, p.id_bits);
                if got != s & im || *line != dut.get_u64(oo[8]) {
                    return Err(format!("cycle {cyc}: fill of entry {e} woke tag {got:#x}, expected request {s} of line {line:#x}"));
                }
            }
            if dut.get_u64(oo[9]) != mask(woken.len() as u32) {
                return Err(format!("cycle {cyc}: fill of entry {e} woke {:#x}, expected {} requests", dut.get_u64(oo[9]), woken.len()));
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
    set_inputs(dut, &ii, &MshrIn::default());
    dut.eval();
    if dut.get_u64(oo[6]) != p.entries as u64 {
        return Err("drained, but entries are still in use".into());
    }
    Ok(st)
}


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(MshrTable::new(&MshrTableParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(MshrTableDriver::new(&MshrTableParams::from_params(p)?, seed))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    struct T {
        m: MshrTable,
        i: [PortId; 6],
        o: [PortId; 11],
    }

    impl T {
        fn new(p: &MshrTableParams) -> Self {
            let m = MshrTable::new(p);
            let i = port_ids(&m, INPUTS).unwrap();
            let o = port_ids(&m, OUTPUTS).unwrap();
            let mut t = T { m, i, o };
            t.cycle(MshrIn { rst: true, ..Default::default() });
            t
        }
        /// Drive, eval, read (req_ok, req_merged, req_entry, fill_ok, wake_valid), tick.
        fn cycle(&mut self, i: MshrIn) -> (bool, bool, u64, bool, u64) {
            set_inputs(&mut self.m, &self.i, &i);
            self.m.eval();
            let g = |k: usize| self.m.get_u64(self.o[k]);
            let r = (g(2) != 0, g(3) != 0, g(4), g(7) != 0, g(9));
            self.m.tick();
            r
        }
        fn req(&mut self, line: u64, id: u64) -> (bool, bool, u64, bool, u64) {
            self.cycle(MshrIn { req_valid: true, req_addr: line, req_id: id, ..Default::default() })
        }
    }

    #[test]
    fn merge_up_to_the_limit_and_wake_all() {
        let p = MshrTableParams { entries: 2, merge_limit: 3, line_bits: 8, id_bits: 4 };
        let mut t = T::new(&p);
        assert_eq!(t.req(0x10, 1), (true, false, 0, false, 0)); // allocate entry 0
        assert_eq!(t.req(0x10, 2), (true, true, 0, false, 0)); // merge
        assert_eq!(t.req(0x20, 3), (true, false, 1, false, 0)); // allocate entry 1
        assert_eq!(t.req(0x10, 4), (true, true, 0, false, 0)); // third request: limit reached
        assert!(!t.req(0x10, 5).0); // over the merge limit: rejected
        assert!(!t.req(0x30, 6).0); // no free entry: rejected
        set_inputs(&mut t.m, &t.i, &MshrIn { fill_valid: true, fill_entry: 0, ..Default::default() });
        t.m.eval();
        assert_eq!(t.m.get_u64(t.o[8]), 0x10);
        assert_eq!(t.m.get_u64(t.o[9]), 0b111);
        assert_eq!(t.m.get(t.o[10])[0], 1 | 2 << 4 | 4 << 8);
        t.m.tick();
        assert_eq!(t.req(0x30, 7), (true, false, 0, false, 0)); // entry 0 reused
    }

    #[test]
    fn request_to_line_being_filled_is_rejected_and_freed_entry_waits_a_cycle() {
        let p = MshrTableParams { entries: 1, merge_limit: 4, line_bits: 8, id_bits: 4 };
        let mut t = T::new(&p);
        t.req(0x10, 1);
        // Same line while its fill arrives: rejected, woken set unchanged.
        let r = t.cycle(MshrIn { req_valid: true, req_addr: 0x10, req_id: 2, fill_valid: true, fill_entry: 0, ..Default::default() });
        assert_eq!(r, (false, false, 0, true, 0b1));
        t.req(0x10, 1);
        // Other line while the only entry is being filled: still full this cycle.
        let r = t.cycle(MshrIn { req_valid: true, req_addr: 0x20, req_id: 2, fill_valid: true, fill_entry: 0, ..Default::default() });
        assert_eq!(r, (false, false, 0, true, 0b1));
        assert_eq!(t.req(0x20, 2), (true, false, 0, false, 0));
        // Fill of a free entry or out of range does nothing.
        assert!(!t.cycle(MshrIn { fill_valid: true, fill_entry: 1, ..Default::default() }).3);
    }

    #[test]
    fn properties_at_defaults() {
        let p = MshrTableParams::default();
        let mut m = MshrTable::new(&p);
        let st = check_properties(&mut m, &p, 3, 20_000).unwrap();
        assert!(st.merged > 1000 && st.rejected_full > 100 && st.rejected_merge > 10, "{st:?}");
    }

    #[test]
    fn driver_stimulus_matches_shadow_at_defaults() {
        let p = MshrTableParams::default();
        let stim = Stimulus::record(&mut MshrTableDriver::new(&p, 11), 20_000);
        check_against_shadow(&mut MshrTable::new(&p), &p, &stim).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn model_matches_shadow(seed in any::<u64>(), entries in 1u32..=40, merge in 1u32..=10,
                                line_bits in 1u32..=64, id_bits in 1u32..=32) {
            let p = MshrTableParams { entries, merge_limit: merge, line_bits, id_bits };
            let stim = Stimulus::record(&mut MshrTableDriver::new(&p, seed), 3000);
            prop_assert_eq!(check_against_shadow(&mut MshrTable::new(&p), &p, &stim), Ok(()));
        }

        #[test]
        fn closed_loop_properties(seed in any::<u64>(), entries in 1u32..=40, merge in 1u32..=10,
                                  line_bits in 1u32..=64, id_bits in 1u32..=32) {
            let p = MshrTableParams { entries, merge_limit: merge, line_bits, id_bits };
            let r = check_properties(&mut MshrTable::new(&p), &p, seed, 2000);
            prop_assert!(r.is_ok(), "{:?}", r);
        }
    }
}
