//! Reference model of `mshr_table` (see `hw::blocks::replay::mshr_table` for the
//! specification).

use crate::bits::put_field;
use crate::Reference;
use hw::blocks::replay::mshr_table::{MshrTableIo, MshrTableParams, NAME};
use sim::{Bind, Component, PortFrame, PortId};

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
    /// Read the inputs through `get` (a frame, a component, a recorded cycle).
    pub fn read(io: &MshrTableIo<PortId>, get: impl Fn(PortId) -> u64) -> Self {
        MshrIn {
            rst: get(io.rst) & 1 != 0,
            req_valid: get(io.req_valid) & 1 != 0,
            req_addr: get(io.req_addr),
            req_id: get(io.req_id),
            fill_valid: get(io.fill_valid) & 1 != 0,
            fill_entry: get(io.fill_entry) as u32,
        }
    }

    /// Write every input through `set`.
    pub fn write(&self, io: &MshrTableIo<PortId>, mut set: impl FnMut(PortId, u64)) {
        set(io.rst, self.rst as u64);
        set(io.req_valid, self.req_valid as u64);
        set(io.req_addr, self.req_addr);
        set(io.req_id, self.req_id);
        set(io.fill_valid, self.fill_valid as u64);
        set(io.fill_entry, self.fill_entry as u64);
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
    frame: PortFrame,
    io: MshrTableIo<PortId>,
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
        let e = p.entries as usize;
        let words = (p.merge_limit as usize * p.id_bits as usize).div_ceil(64).max(1);
        MshrTable {
            p: p.clone(),
            frame: p.frame(),
            io: p.ids(),
            valid: vec![false; e],
            addr: vec![0; e],
            more: vec![0; e],
            tags: vec![vec![0; e]; p.merge_limit as usize],
            scratch: vec![0; words],
        }
    }

    fn inputs(&self) -> MshrIn {
        MshrIn::read(&self.io, |id| self.frame.get_u64(id))
    }

    /// Entries holding a pending line.
    pub fn used_entries(&self) -> Vec<u32> {
        (0..self.valid.len() as u32).filter(|&e| self.valid[e as usize]).collect()
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
    sim::frame_ports!(frame);

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
        let (o, f) = (&self.io, &mut self.frame);
        f.set_bool(o.probe_hit, probe.is_some());
        f.set_u64(o.probe_entry, probe.unwrap_or(0) as u64);
        f.set_bool(o.req_ok, req_ok);
        f.set_bool(o.req_merged, merged);
        f.set_u64(o.req_entry, entry);
        f.set_bool(o.full, free == 0);
        f.set_u64(o.free_count, free);
        f.set_bool(o.fill_ok, fill_ok);
        f.set_u64(o.fill_addr, fill_addr);
        f.set_u64(o.wake_valid, wake_valid);
        f.set(o.wake_ids, &self.scratch);
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

impl Reference for MshrTableParams {
    type Model = MshrTable;
    fn model(&self) -> MshrTable {
        MshrTable::new(self)
    }
}
