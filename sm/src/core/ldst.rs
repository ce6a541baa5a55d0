//! The memory stage: one warp instruction at a time; global and local
//! accesses are coalesced into lines and handled one line per cycle (L1 tag
//! probe, the MSHR table block, the request queue toward L2); shared-memory
//! accesses take one cycle per bank-conflict degree; `.param`/`.const` loads
//! take one cycle and return after the constant-cache latency.
//!
//! Hazards (seed 004 §1.1.7) stall the stage and are counted per cycle:
//! DIV for the second and later lines of an instruction, BANK for extra
//! bank cycles, MSHR when the table rejects a request (full, merge limit, or
//! the line being filled this cycle) or the pending-load table is full, COMQ
//! when the queue toward L2 is full, RSV when no L1 way can be reserved.
//!
//! Replay mode (seed 004 chapter 5) never stalls: an instruction spends one
//! cycle in the stage per pass. A pass serves one line (global, local) or
//! one conflict-free set of lanes (shared); the threads served pass the
//! checkpoint, the rest are squashed and replay from the warp buffer — also
//! all of them when the line meets an MSHR, COMQ or RSV hazard. Hazards then
//! count squashing passes, not stalled cycles. The instruction completes
//! (writes back) when every thread has passed and every line returned.
//!
//! L1 policy (GPGPU-Sim's Fermi `L:L:m:N`): loads allocate on miss (the
//! victim way is reserved until the fill); global stores write through and
//! do not allocate; atomics bypass L1 and are performed at L2.

use super::op::{Access, Pool, Space};
use crate::blocks::{MshrReply, MshrTable};
use crate::config::{Config, READ_ONLY_CODE, READ_ONLY_CONST};
use crate::mem::cache::{Probe, TagArray, PENDING};
use crate::mem::coalesce::{bank_conflicts, bank_pass, coalesce, line_pass, Lines};
use crate::mem::direct_prefetch::DirectPrefetch;
use crate::mem::lower::{Kind, Lower, Request};
use crate::stats::{Hazards, L1Stats};
use std::collections::VecDeque;

/// Why the stage could not proceed this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    Mshr,
    Comq,
    Rsv,
}

/// What squashed the rest of an instruction's threads in a replay-mode pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayCause {
    Div,
    Bank,
    Mshr,
    Comq,
    Rsv,
}

/// The checkpoint of one replay-mode pass (seed 004 section 5.2.4).
#[derive(Clone, Copy, Debug)]
pub struct Checkpoint {
    pub inst: u32,
    /// Threads known to complete; the instruction's other pending threads replay.
    pub completed: u32,
    /// Squashed for MSHR, COMQ or RSV: known to need an MSHR.
    pub miss: bool,
    pub cause: Option<ReplayCause>,
    /// A global or local load's outcome for the tracker and predictor:
    /// (allocated an MSHR, missed in L1).
    pub load: Option<(bool, bool)>,
    /// The pass ends the instruction's stay in the stage (always when
    /// squashing; without, only its last cycle there).
    pub leaves: bool,
}

pub struct MemStage {
    line_bytes: u32,
    hit_latency: u64,
    shared_latency: u64,
    const_latency: u64,
    /// The constant cache (`None`: ideal).
    pub const_cache: Option<crate::mem::cache::FillCache>,
    /// Constant loads waiting for lines filling from memory: (instruction,
    /// its constant-cache lines not there yet).
    const_waiting: Vec<(u32, Vec<u64>)>,
    /// `l1.const_serial`: the distinct lines of the constant load in the
    /// stage, the next to look up, when those looked up are there, and the
    /// ones on their way from memory.
    const_serial: bool,
    const_lines: Vec<u64>,
    const_next: usize,
    const_there: u64,
    const_waits: Vec<u64>,
    /// Instruction- and constant-cache misses waiting to leave below L1
    /// (`l1.read_only_misses = "memory"`); they go before L1's own.
    read_only_out: VecDeque<Request>,
    /// L1 lines of code that arrived this cycle (the fetch stage takes them).
    pub inst_fills: Vec<u64>,
    /// `memory.store_acks`: per warp slot, its stores L2 has not
    /// acknowledged (a warp is done only once they are, as GPGPU-Sim's
    /// `stores_done`); the warps whose last one arrived this cycle.
    store_acks: bool,
    pub stores_out: Vec<u32>,
    pub stores_done: Vec<u16>,
    shared_banks: u32,
    now: u64,
    /// The instruction in the stage, and its progress.
    cur: Option<u32>,
    started: bool,
    lines: Lines,
    next_line: usize,
    bank_cycles_left: u32,
    bank_cycles_total: u32,
    load_id: Option<u32>,
    pub l1: TagArray,
    pub mshr: MshrTable,
    /// Pending loads and atomics by request id (the MSHR tags).
    loads: Vec<Option<u32>>,
    free_ids: Vec<u32>,
    /// L1 hits returning: (ready cycle, load id).
    hits: VecDeque<(u64, u32)>,
    /// Shared / const accesses returning: (ready cycle, instruction).
    timed: VecDeque<(u64, u32)>,
    /// Requests below L1 waiting out `l1.miss_delay` (GPGPU-Sim's L1
    /// latency queue, which a miss passes before it leaves): (cycle it may
    /// leave, request). They count against the queue's room.
    delayed: VecDeque<(u64, Request)>,
    miss_delay: u64,
    pub lower: Lower,
    woken: Vec<u32>,
    /// Instructions finished this cycle (the caller drains it).
    pub done: Vec<u32>,
    pub l1_stats: L1Stats,
    pub hazards: Hazards,
    /// This cycle's hazard code for the VCD: 0 none, 1 DIV, 2 BANK, 3 MSHR,
    /// 4 COMQ, 5 RSV.
    pub hazard_now: u8,
    pub shared_accesses: u64,
    /// Line requests of N-mode loads, and those that hit or merged (P-mode's
    /// pre-loads and prefetches excluded: seed 000 Figure 14).
    pub n_accesses: u64,
    pub n_hit_or_merge: u64,
    cur_pmode: bool,
    /// Replay mode: this cycle's checkpoint, the warp whose load allocated
    /// the MSHR freed this cycle, each MSHR's allocating warp, the warp in
    /// the stage and the last line request's outcome (allocated, missed).
    /// `squash`: passes and checkpoints; else (hazard prediction without
    /// replay) the stage stalls and reports each load line accepted and
    /// each instruction leaving (`report`).
    replay: bool,
    squash: bool,
    pub checkpoint: Option<Checkpoint>,
    pub mshr_freed_by: Option<u16>,
    mshr_owner: Vec<u16>,
    cur_warp: u16,
    last_line: (bool, bool),
    /// MTA mode: the prefetcher and its prefetch buffer.
    pub mta: Option<Box<crate::mem::mta::Mta>>,
    /// Prefetch mode: DirectPrefetch's history tables and queue.
    pub direct: Option<Box<DirectPrefetch>>,
}

/// Look `a` up in the constant cache at `now`: a line there by a known
/// cycle raises `there`, one on its way from memory joins `waits`.
fn const_lookup(c: &mut crate::mem::cache::FillCache, a: u64, now: u64, there: &mut u64, waits: &mut Vec<u64>) {
    match c.access(a, now) {
        PENDING => {
            if !waits.contains(&c.line(a)) {
                waits.push(c.line(a));
            }
        }
        t => *there = (*there).max(t),
    }
}

impl MemStage {
    pub fn new(c: &Config, mshr: MshrTable) -> Self {
        let n = 1usize << MshrTable::ID_BITS;
        MemStage {
            line_bytes: c.l1.line,
            hit_latency: c.l1.hit_latency as u64,
            shared_latency: c.l1.shared_latency as u64,
            const_latency: c.l1.const_latency as u64,
            const_cache: c.l1.read_only_cache(c.l1.const_sets, c.l1.const_ways, c.l1.const_line, c.l1.const_miss_latency),
            const_waiting: Vec::new(),
            const_serial: c.l1.const_serial,
            const_lines: Vec::new(),
            const_next: 0,
            const_there: 0,
            const_waits: Vec::new(),
            read_only_out: VecDeque::new(),
            inst_fills: Vec::new(),
            store_acks: c.memory.store_acks,
            stores_out: vec![0; c.core.max_warps as usize],
            stores_done: Vec::new(),
            shared_banks: c.l1.shared_banks,
            now: 0,
            cur: None,
            started: false,
            lines: Lines::default(),
            next_line: 0,
            bank_cycles_left: 0,
            bank_cycles_total: 0,
            load_id: None,
            l1: TagArray::new(c.l1.sets, c.l1.ways, c.l1.line),
            mshr,
            loads: vec![None; n],
            free_ids: (0..n as u32).rev().collect(),
            hits: VecDeque::new(),
            timed: VecDeque::new(),
            delayed: VecDeque::new(),
            miss_delay: c.l1.miss_delay as u64,
            lower: Lower::new(c),
            woken: Vec::with_capacity(64),
            done: Vec::with_capacity(8),
            l1_stats: L1Stats::default(),
            hazards: Hazards::default(),
            hazard_now: 0,
            shared_accesses: 0,
            n_accesses: 0,
            n_hit_or_merge: 0,
            cur_pmode: false,
            replay: c.mode == crate::config::Mode::Replay,
            squash: c.mode == crate::config::Mode::Replay && c.replay.squash,
            checkpoint: None,
            mshr_freed_by: None,
            mshr_owner: vec![0; c.l1.mshrs as usize],
            cur_warp: 0,
            last_line: (false, false),
            mta: (c.mode == crate::config::Mode::Mta).then(|| Box::new(crate::mem::mta::Mta::new(&c.mta, c.l1.line, c.core.max_warps))),
            direct: (c.mode == crate::config::Mode::Prefetch).then(|| Box::new(DirectPrefetch::new(&c.prefetch, c.l1.line, c.core.max_warps))),
        }
    }

    pub fn can_accept(&self) -> bool {
        self.cur.is_none()
    }

    pub fn accept(&mut self, inst: u32) {
        self.cur = Some(inst);
        self.started = false;
    }

    /// The instruction in the stage, for reports.
    pub fn current(&self) -> Option<u32> {
        self.cur
    }

    /// Anything still in flight (stage, pending loads, memory below).
    pub fn busy(&self) -> bool {
        self.cur.is_some()
            || self.free_ids.len() < self.loads.len()
            || !self.timed.is_empty()
            || !self.delayed.is_empty()
            || !self.read_only_out.is_empty()
            || self.lower.busy()
            || self.mta.as_ref().is_some_and(|m| m.busy())
    }

    /// A request below L1: now, or after `l1.miss_delay`.
    fn send(&mut self, r: Request) {
        if self.miss_delay == 0 {
            self.lower.push(r);
        } else {
            self.delayed.push_back((self.now + self.miss_delay, r));
        }
    }

    /// Room for requests below L1, the delayed ones counted.
    fn room(&self) -> usize {
        self.lower.queue_space().saturating_sub(self.delayed.len())
    }

    /// One cycle. Returns whether anything moved (for deadlock detection).
    pub fn cycle(&mut self, now: u64, pool: &mut Pool) -> bool {
        self.now = now;
        self.hazard_now = 0;
        self.checkpoint = None;
        self.mshr_freed_by = None;
        let mut progress = false;
        while !self.read_only_out.is_empty() && self.lower.queue_space() > 0 {
            let r = self.read_only_out.pop_front().expect("a request");
            self.lower.push(r);
        }
        while self.delayed.front().is_some_and(|&(t, _)| t <= now) && self.lower.queue_space() > 0 {
            let (_, r) = self.delayed.pop_front().expect("a delayed request");
            self.lower.push(r);
        }
        self.lower.cycle(now);
        // A response entering the SM: a line fill goes through the MSHR
        // table (this cycle's request sees it), an atomic returns directly.
        let response = self.lower.pop_response(now);
        match response.map(|r| r.kind) {
            Some(Kind::Read { mshr }) => {
                self.mshr.set_fill(mshr);
                if self.replay {
                    self.mshr_freed_by = Some(self.mshr_owner[mshr as usize]);
                }
            }
            Some(Kind::Atomic { load }) => {
                self.line_done(load, pool);
            }
            Some(Kind::Prefetch) => {
                let line = response.expect("a response").line;
                self.mta.as_mut().expect("MTA mode").fill(line);
            }
            Some(Kind::Inst) => self.inst_fills.push(response.expect("a response").line),
            Some(Kind::Store { warp }) => {
                self.stores_out[warp as usize] -= 1;
                if self.stores_out[warp as usize] == 0 {
                    self.stores_done.push(warp);
                }
            }
            Some(Kind::Const) => self.const_filled(response.expect("a response").line),
            _ => {}
        }
        if response.is_some() {
            progress = true;
        }
        if let Some(inst) = self.cur {
            progress |= if self.squash { self.pass(now, inst, pool) } else { self.step(now, inst, pool) };
        }
        if let Some(Kind::Read { .. }) = response.map(|r| r.kind) {
            let mut woken = std::mem::take(&mut self.woken);
            if let Some(line) = self.mshr.filled(&mut woken) {
                self.l1.fill(line);
            }
            for &id in &woken {
                self.line_done(id, pool);
            }
            self.woken = woken;
        }
        while let Some(&(t, id)) = self.hits.front() {
            if t > now {
                break;
            }
            self.hits.pop_front();
            self.line_done(id, pool);
        }
        while let Some(&(t, inst)) = self.timed.front() {
            if t > now {
                break;
            }
            self.timed.pop_front();
            if self.squash {
                pool.get_mut(inst).lines_left -= 1;
                self.maybe_done(inst, pool);
            } else {
                self.done.push(inst);
            }
        }
        if self.mta.is_some() {
            self.prefetch(now);
        }
        let occupied = self.mshr_occupied();
        self.l1_stats.mshr_occupancy_sum += occupied;
        self.l1_stats.mshr_peak = self.l1_stats.mshr_peak.max(occupied);
        progress
    }

    pub fn mshr_occupied(&mut self) -> u64 {
        let entries = self.mshr.inst.params.get("entries");
        entries - self.mshr.free() as u64
    }

    /// A line of pending load `id` arrived.
    fn line_done(&mut self, id: u32, pool: &mut Pool) {
        let inst = self.loads[id as usize].expect("a line for a pending load");
        let i = pool.get_mut(inst);
        i.lines_left -= 1;
        if self.squash {
            self.maybe_done(inst, pool);
            return;
        }
        if i.lines_left == 0 && self.cur != Some(inst) {
            self.loads[id as usize] = None;
            self.free_ids.push(id);
            self.done.push(inst);
        }
    }

    /// Replay mode: an instruction whose threads have all passed the
    /// checkpoint and whose lines have all returned is done.
    fn maybe_done(&mut self, inst: u32, pool: &mut Pool) {
        let i = pool.get_mut(inst);
        if i.lines_left == 0 && i.pending == 0 && self.cur != Some(inst) {
            if let Some(id) = i.load_id.take() {
                self.loads[id as usize] = None;
                self.free_ids.push(id);
            }
            self.done.push(inst);
        }
    }

    /// Replay mode: one pass of the instruction in the stage, ending at the
    /// checkpoint; true if any thread completed (a squash is no progress).
    fn pass(&mut self, now: u64, inst: u32, pool: &mut Pool) -> bool {
        self.cur = None;
        let (space, access, pending, warp) = {
            let i = pool.get_mut(inst);
            i.passes += 1;
            (i.space, i.access.expect("memory instruction"), i.pending, i.warp)
        };
        self.cur_warp = warp;
        let mut cp = Checkpoint { inst, completed: 0, miss: false, cause: None, load: None, leaves: true };
        match space {
            Space::Const => {
                cp.completed = pending;
                pool.get_mut(inst).lines_left += 1;
                let t = self.const_ready(now, pool, inst, pending);
                self.timed.push_back((t, inst));
            }
            Space::Shared => {
                let i = pool.get(inst);
                if i.passes == 1 {
                    self.shared_accesses += 1;
                }
                cp.completed = bank_pass(&i.addrs, pending, i.bytes, self.shared_banks);
                if cp.completed != pending {
                    cp.cause = Some(ReplayCause::Bank);
                    self.hazards.bank += 1;
                    self.hazard_now = 2;
                }
                if pending != 0 {
                    pool.get_mut(inst).lines_left += 1;
                    self.timed.push_back((now + self.shared_latency, inst));
                }
            }
            Space::Global | Space::Local => {
                let i = pool.get(inst);
                let (served, line) = line_pass(&i.addrs, pending, self.line_bytes);
                let mut id = i.load_id;
                if pending != 0 && access != Access::Store && id.is_none() {
                    id = self.free_ids.pop();
                    if let Some(id) = id {
                        self.loads[id as usize] = Some(inst);
                        pool.get_mut(inst).load_id = Some(id);
                    }
                }
                let r = if pending == 0 {
                    Ok(())
                } else if access != Access::Store && id.is_none() {
                    self.last_line = (false, true);
                    Err(Hazard::Mshr)
                } else {
                    self.load_id = id;
                    match access {
                        Access::Load => self.load_line(line),
                        Access::Store => self.store_line(line),
                        Access::Atomic => self.atomic_line(line),
                    }
                };
                match r {
                    Ok(()) => {
                        cp.completed = served;
                        if pending != 0 && access != Access::Store {
                            pool.get_mut(inst).lines_left += 1;
                        }
                        if served != pending {
                            cp.cause = Some(ReplayCause::Div);
                            self.hazards.div += 1;
                            self.hazard_now = 1;
                        }
                    }
                    Err(h) => {
                        cp.miss = true;
                        cp.cause = Some(match h {
                            Hazard::Mshr => ReplayCause::Mshr,
                            Hazard::Comq => ReplayCause::Comq,
                            Hazard::Rsv => ReplayCause::Rsv,
                        });
                        self.count_hazard(h);
                    }
                }
                if access == Access::Load && pending != 0 {
                    cp.load = Some(self.last_line);
                }
            }
        }
        pool.get_mut(inst).pending &= !cp.completed;
        self.checkpoint = Some(cp);
        self.maybe_done(inst, pool);
        cp.completed != 0 || pending == 0
    }

    /// When a constant load of `lanes` is done: after the constant cache's
    /// latency, once every line it reads is there (`PENDING`: once the lines
    /// filling from memory arrive, `const_filled`).
    fn const_ready(&mut self, now: u64, pool: &Pool, inst: u32, lanes: u32) -> u64 {
        let Some(c) = self.const_cache.as_mut() else { return now + self.const_latency };
        let addrs = &pool.get(inst).addrs;
        let mut seen = [u64::MAX; 4];
        let mut there = now;
        let mut waits = Vec::new();
        for l in (0..32).filter(|l| lanes >> l & 1 != 0) {
            // Lanes mostly share a line: look each line up once.
            let a = addrs[l as usize];
            if seen.contains(&c.line(a)) {
                continue;
            }
            seen.rotate_right(1);
            seen[0] = c.line(a);
            const_lookup(c, a, now, &mut there, &mut waits);
        }
        self.const_requests();
        if waits.is_empty() {
            return there + self.const_latency;
        }
        self.const_waiting.push((inst, waits));
        PENDING
    }

    /// The constant cache's new misses go below L1.
    fn const_requests(&mut self) {
        let Some(c) = self.const_cache.as_mut() else { return };
        let bytes = c.line_bytes();
        for line in c.take_requests() {
            self.read_only_out.push_back(Request { line: (READ_ONLY_CONST + line * bytes) / self.line_bytes as u64, kind: Kind::Const });
        }
    }

    /// An L1 line of the constant and parameter banks arrived: the constant
    /// loads it completes are done after the cache's latency.
    fn const_filled(&mut self, l1_line: u64) {
        let Some(c) = self.const_cache.as_mut() else { return };
        let now = self.now;
        let bytes = c.line_bytes();
        let first = (l1_line * self.line_bytes as u64 - READ_ONLY_CONST) / bytes;
        let lines = first..first + (self.line_bytes as u64 / bytes).max(1);
        for line in lines.clone() {
            c.fill(line, now);
        }
        let done = now + self.const_latency;
        // The load in the stage (`l1.const_serial`) has the line from now.
        if self.const_waits.iter().any(|l| lines.contains(l)) {
            self.const_waits.retain(|l| !lines.contains(l));
            self.const_there = self.const_there.max(now);
        }
        let timed = &mut self.timed;
        self.const_waiting.retain_mut(|(inst, waits)| {
            waits.retain(|l| !lines.contains(l));
            if !waits.is_empty() {
                return true;
            }
            if let Some(e) = timed.iter_mut().find(|e| e.1 == *inst && e.0 == PENDING) {
                e.0 = done;
            }
            false
        });
    }

    /// Request a line of code below L1 (an instruction-cache miss filling
    /// from memory); it arrives in `inst_fills`.
    pub fn request_code(&mut self, pc: u64) {
        self.read_only_out.push_back(Request { line: (READ_ONLY_CODE + pc) / self.line_bytes as u64, kind: Kind::Inst });
    }

    /// The code addresses an L1 line of code that arrived holds.
    pub fn code_range(&self, l1_line: u64) -> std::ops::Range<u64> {
        let start = l1_line * self.line_bytes as u64 - READ_ONLY_CODE;
        start..start + self.line_bytes as u64
    }

    fn count_hazard(&mut self, h: Hazard) {
        match h {
            Hazard::Mshr => self.hazards.mshr += 1,
            Hazard::Comq => {
                self.hazards.comq += 1;
            }
            Hazard::Rsv => self.hazards.rsv += 1,
        }
        self.hazard_now = 3 + h as u8;
    }

    /// Work on the instruction in the stage; true if it advanced.
    fn step(&mut self, now: u64, inst: u32, pool: &mut Pool) -> bool {
        let (space, access) = {
            let i = pool.get(inst);
            (i.space, i.access.expect("memory instruction"))
        };
        if !self.started {
            self.started = true;
            let i = pool.get(inst);
            self.cur_pmode = i.pmode || i.hw_prefetch;
            self.cur_warp = i.warp;
            match space {
                Space::Const if self.const_serial => {
                    // GPGPU-Sim's access per distinct line, in its order.
                    let bytes = self.const_cache.as_ref().map_or(64, |c| c.line_bytes());
                    let lines: std::collections::BTreeSet<u64> = (0..32).filter(|l| i.active >> l & 1 != 0).map(|l| i.addrs[l as usize] / bytes * bytes).collect();
                    self.const_lines.clear();
                    self.const_lines.extend(lines.into_iter().rev());
                    self.const_next = 0;
                    self.const_there = now;
                    self.const_waits.clear();
                }
                Space::Const => {
                    let t = self.const_ready(now, pool, inst, i.active);
                    self.timed.push_back((t, inst));
                    self.cur = None;
                    self.report(inst, None, Some(pool.get(inst).active));
                    return true;
                }
                Space::Shared => {
                    self.shared_accesses += 1;
                    let d = bank_conflicts(&i.addrs, i.active, i.bytes, self.shared_banks).max(1);
                    self.hazards.bank += d as u64 - 1;
                    self.bank_cycles_left = d;
                    self.bank_cycles_total = d;
                }
                Space::Global | Space::Local => {
                    coalesce(&i.addrs, i.active, i.bytes, self.line_bytes, &mut self.lines);
                    self.next_line = 0;
                    if space == Space::Global && access == Access::Load && !i.pmode && !i.hw_prefetch && i.active != 0 {
                        let first = i.addrs[i.active.trailing_zeros() as usize];
                        if let Some(m) = self.mta.as_mut() {
                            m.train(i.op, i.warp, first, self.lines.as_slice());
                        }
                        if let Some(d) = self.direct.as_mut() {
                            d.train(i.op, i.warp, first, self.lines.as_slice());
                        }
                    }
                    self.hazards.div += self.lines.len().saturating_sub(1) as u64;
                    let n = self.lines.len() as u32;
                    pool.get_mut(inst).lines_left = n;
                    if access != Access::Store && n > 0 {
                        match self.free_ids.pop() {
                            Some(id) => {
                                self.load_id = Some(id);
                                self.loads[id as usize] = Some(inst);
                            }
                            None => {
                                self.started = false;
                                self.hazards.mshr += 1;
                                self.hazard_now = 3;
                                return false;
                            }
                        }
                    } else {
                        self.load_id = None;
                    }
                }
            }
        }
        match space {
            Space::Const => {
                // One line a cycle; a miss with no free MSHR waits.
                if let (Some(c), Some(&a)) = (self.const_cache.as_mut(), self.const_lines.get(self.const_next)) {
                    if !c.has(a) && !c.can_miss() {
                        self.count_hazard(Hazard::Rsv);
                        return false;
                    }
                    const_lookup(c, a, now, &mut self.const_there, &mut self.const_waits);
                    self.const_requests();
                }
                self.const_next += 1;
                if self.const_next < self.const_lines.len() {
                    return true;
                }
                // Also a load of no active thread: done after the latency.
                let t = if self.const_waits.is_empty() {
                    self.const_there + self.const_latency
                } else {
                    self.const_waiting.push((inst, std::mem::take(&mut self.const_waits)));
                    PENDING
                };
                self.timed.push_back((t, inst));
                self.cur = None;
                self.report(inst, None, Some(pool.get(inst).active));
                true
            }
            Space::Shared => {
                if self.bank_cycles_left < self.bank_cycles_total {
                    self.hazard_now = 2;
                }
                self.bank_cycles_left -= 1;
                if self.bank_cycles_left == 0 {
                    self.timed.push_back((now + self.shared_latency, inst));
                    self.cur = None;
                    self.report(inst, None, Some(pool.get(inst).active));
                }
                true
            }
            Space::Global | Space::Local => {
                if self.next_line == self.lines.len() {
                    // No active lane: nothing to access.
                    self.finish_global(inst, access, pool);
                    return true;
                }
                let line = self.lines.as_slice()[self.next_line];
                if self.next_line > 0 {
                    self.hazard_now = 1;
                }
                let r = match access {
                    Access::Load => self.load_line(line),
                    Access::Store => self.store_line(line),
                    Access::Atomic => self.atomic_line(line),
                };
                match r {
                    Ok(()) => {
                        if access == Access::Load {
                            self.report(inst, Some(self.last_line), None);
                            self.dac_lock(pool, inst, line);
                        }
                        self.next_line += 1;
                        if self.next_line == self.lines.len() {
                            self.finish_global(inst, access, pool);
                        }
                        true
                    }
                    Err(h) => {
                        self.count_hazard(h);
                        false
                    }
                }
            }
        }
    }

    /// Hazard prediction without replay: each load line accepted (its
    /// outcome) and the instruction leaving the stage (`leaves`: its lanes,
    /// all complete) go to the replay unit, at most one checkpoint a cycle.
    fn report(&mut self, inst: u32, load: Option<(bool, bool)>, leaves: Option<u32>) {
        if !self.replay {
            return;
        }
        match self.checkpoint.as_mut() {
            // The last line's cycle is the one the instruction leaves in.
            Some(cp) if cp.inst == inst => {
                cp.leaves = true;
                cp.completed = leaves.unwrap_or(0);
            }
            _ => {
                let completed = leaves.unwrap_or(0);
                self.checkpoint = Some(Checkpoint { inst, completed, miss: false, cause: None, load, leaves: leaves.is_some() });
            }
        }
    }

    /// All lines requested: the instruction leaves the stage.
    fn finish_global(&mut self, inst: u32, access: Access, pool: &mut Pool) {
        self.cur = None;
        self.report(inst, None, Some(pool.get(inst).active));
        match (access, self.load_id.take()) {
            (Access::Store, _) | (_, None) => self.done.push(inst),
            (_, Some(id)) => {
                // Lines that already returned (none can, before the last
                // request) leave the rest pending.
                if pool.get(inst).lines_left == 0 {
                    self.loads[id as usize] = None;
                    self.free_ids.push(id);
                    self.done.push(inst);
                }
            }
        }
    }

    fn load_line(&mut self, line: u64) -> Result<(), Hazard> {
        let id = self.load_id.expect("a load id");
        match self.l1.probe(line) {
            Probe::Hit => {
                self.last_line = (false, false);
                self.count_n(true);
                self.l1.touch(line);
                self.hits.push_back((self.now + self.hit_latency, id));
                self.l1_stats.accesses += 1;
                self.l1_stats.hits += 1;
                Ok(())
            }
            Probe::Miss if self.mta.as_mut().is_some_and(|m| m.demand(line)) => {
                // MTA: the prefetch buffer has it.
                self.last_line = (false, false);
                self.count_n(true);
                self.hits.push_back((self.now + self.hit_latency, id));
                self.l1_stats.accesses += 1;
                self.l1_stats.hits += 1;
                Ok(())
            }
            Probe::HitReserved | Probe::Miss => {
                let pending = self.mshr.probe(line);
                self.last_line = (false, true);
                if !pending {
                    if self.room() == 0 {
                        return Err(Hazard::Comq);
                    }
                    if !self.l1.can_reserve(line) {
                        return Err(Hazard::Rsv);
                    }
                }
                match self.mshr.request(line, id) {
                    MshrReply::Merged(_) => {
                        self.count_n(true);
                        self.l1_stats.accesses += 1;
                        self.l1_stats.merges += 1;
                                Ok(())
                    }
                    MshrReply::Allocated(e) => {
                        self.last_line = (true, true);
                        if self.replay {
                            self.mshr_owner[e as usize] = self.cur_warp;
                        }
                        self.count_n(false);
                        self.l1.reserve(line);
                        self.send(Request { line, kind: Kind::Read { mshr: e } });
                        self.l1_stats.accesses += 1;
                        self.l1_stats.misses += 1;
                        Ok(())
                    }
                    MshrReply::Rejected => Err(Hazard::Mshr),
                }
            }
        }
    }

    /// DAC: a prefetch locks its lines in L1 (at most `ways - 1` per set);
    /// the `[deq.data]` load of the same record takes the locks off.
    fn dac_lock(&mut self, pool: &mut Pool, inst: u32, line: u64) {
        let k = self.next_line;
        if k >= 64 {
            return;
        }
        let i = pool.get_mut(inst);
        if i.dac_record.is_some() {
            if self.l1.can_lock(line) {
                self.l1.lock(line);
                i.dac_lines |= 1 << k;
                self.l1_stats.dac_locked += 1;
            } else {
                self.l1_stats.dac_lock_refused += 1;
            }
        } else if i.dac_lines >> k & 1 == 1 {
            self.l1.unlock(line);
        }
    }

    /// MTA: send the next useful candidate below L1 when the request queue
    /// keeps room for a demand miss; drop those L1 or the buffer has or
    /// will have.
    fn prefetch(&mut self, now: u64) {
        let room = self.room();
        let m = self.mta.as_mut().expect("MTA mode");
        m.cycle(now);
        while let Some(line) = m.candidates.pop_front() {
            if self.l1.probe(line) != Probe::Miss || m.has(line) {
                m.stats.redundant += 1;
                continue;
            }
            if room < 2 {
                m.candidates.push_front(line);
                return;
            }
            m.sent(line);
            self.send(Request { line, kind: Kind::Prefetch });
            return;
        }
    }

    /// Prefetch mode: the prefetch queue's next line that L1 neither has
    /// nor is fetching, as a pool instruction that loads it and writes no
    /// register: (warp slot, pool index). Called when the stage is free.
    pub fn take_direct_prefetch(&mut self, pool: &mut Pool, uid: u64) -> Option<(u16, u32)> {
        let d = self.direct.as_mut()?;
        while let Some((w, line)) = d.queue.pop_front() {
            if self.l1.probe(line) != Probe::Miss {
                d.stats.redundant += 1;
                continue;
            }
            d.stats.issued += 1;
            let mut addrs = [0; 32];
            addrs[0] = line * self.line_bytes as u64;
            let idx = pool.alloc();
            *pool.get_mut(idx) = super::op::Inst::prefetch(uid, w, 1, 4, addrs);
            return Some((w, idx));
        }
        None
    }

    fn count_n(&mut self, hit_or_merge: bool) {
        if !self.cur_pmode {
            self.n_accesses += 1;
            self.n_hit_or_merge += hit_or_merge as u64;
        }
    }

    fn store_line(&mut self, line: u64) -> Result<(), Hazard> {
        if self.room() == 0 {
            return Err(Hazard::Comq);
        }
        if self.l1.probe(line) == Probe::Hit {
            self.l1.touch(line);
        }
        let kind = if self.store_acks {
            self.stores_out[self.cur_warp as usize] += 1;
            Kind::Store { warp: self.cur_warp }
        } else {
            Kind::Write
        };
        self.send(Request { line, kind });
        self.l1_stats.stores += 1;
        Ok(())
    }

    fn atomic_line(&mut self, line: u64) -> Result<(), Hazard> {
        if self.room() == 0 {
            return Err(Hazard::Comq);
        }
        let id = self.load_id.expect("a load id");
        self.send(Request { line, kind: Kind::Atomic { load: id } });
        self.l1_stats.atomics += 1;
        Ok(())
    }
}
