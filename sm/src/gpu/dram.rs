//! One GDDR5 DRAM channel with an FR-FCFS scheduler, modelled on GPGPU-Sim's
//! `dram_t` / `frfcfs_scheduler` (our own code, the same timing rules).
//!
//! Time is in DRAM command-clock cycles. Instead of GPGPU-Sim's count-down
//! counters we keep "earliest cycle allowed" stamps: the same rule (a counter set
//! to X at cycle t reaches zero at t + X) without touching every bank each cycle.

use std::collections::VecDeque;

/// GPGPU-Sim's `-gpgpu_dram_timing_opt` parameters, in DRAM command-clock cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramTiming {
    pub nbk: u32, pub ccd: u32, pub rrd: u32, pub rcd: u32, pub ras: u32, pub rp: u32, pub rc: u32,
    pub cl: u32, pub wl: u32, pub cdlr: u32, pub wr: u32, pub nbkgrp: u32, pub ccdl: u32, pub rtpl: u32,
}

const KEYS: [&str; 14] =
    ["nbk", "CCD", "RRD", "RCD", "RAS", "RP", "RC", "CL", "WL", "CDLR", "WR", "nbkgrp", "CCDL", "RTPL"];

impl DramTiming {
    /// Parse GPGPU-Sim's string, e.g.
    /// `"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"`.
    /// Fields are separated by `:` (or `;`, which GPGPU-Sim's parser also takes) with any
    /// whitespace around them; keys match case-insensitively. Every key is required exactly
    /// once, unknown keys are an error, `nbk` must be a power of two and `nbkgrp` divide it.
    pub fn parse(s: &str) -> Result<DramTiming, String> {
        let mut v: [Option<u32>; 14] = [None; 14];
        for field in s.split([':', ';']).map(str::trim).filter(|f| !f.is_empty()) {
            let (k, val) = field.split_once('=').ok_or_else(|| format!("DRAM timing field `{field}` is not key=value"))?;
            let (k, val) = (k.trim(), val.trim());
            let Some(i) = KEYS.iter().position(|x| x.eq_ignore_ascii_case(k)) else {
                return Err(format!("unknown DRAM timing key `{k}`"));
            };
            if v[i].is_some() {
                return Err(format!("DRAM timing key `{k}` given twice"));
            }
            v[i] = Some(val.parse().map_err(|_| format!("bad value `{val}` for DRAM timing key `{k}`"))?);
        }
        let mut x = [0u32; 14];
        for (i, val) in v.iter().enumerate() {
            x[i] = val.ok_or_else(|| format!("missing DRAM timing key `{}`", KEYS[i]))?;
        }
        let [nbk, ccd, rrd, rcd, ras, rp, rc, cl, wl, cdlr, wr, nbkgrp, ccdl, rtpl] = x;
        if !nbk.is_power_of_two() || nbkgrp == 0 || nbk % nbkgrp != 0 {
            return Err(format!("nbk={nbk} must be a power of two that nbkgrp={nbkgrp} divides"));
        }
        Ok(DramTiming { nbk, ccd, rrd, rcd, ras, rp, rc, cl, wl, cdlr, wr, nbkgrp, ccdl, rtpl })
    }
}

/// One request to the channel. `tag` is opaque to the DRAM (the caller's id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramRequest { pub tag: u64, pub bank: u32, pub row: u32, pub col: u32, pub write: bool, pub bytes: u32 }

/// Channel counters. `reads`/`writes` count requests (at their first column command),
/// not bursts; `row_hits` counts requests whose row was open when their bank took them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DramStats {
    pub reads: u64, pub writes: u64, pub activates: u64, pub precharges: u64, pub row_hits: u64,
    /// command-clock cycles the data bus carried data
    pub data_bus_busy: u64,
    pub cycles: u64,
    /// cycles the request queue was full when the caller wanted to push (caller counts via `note_full()`)
    pub queue_full: u64,
}

/// A queued request; `bursts == 0` marks an entry just handed to its bank.
#[derive(Clone, Copy, Debug)]
struct Pending { tag: u64, bank: u32, row: u32, write: bool, bursts: u32, seq: u64 }

/// The request a bank is serving (GPGPU-Sim's `bank_t::mrq`): bursts left, and whether
/// its first column command (which counts it and reserves its return slot) issued.
#[derive(Clone, Copy, Debug)]
struct Active { req: Pending, left: u32, started: bool }

/// A bank's open row, request, and earliest cycles for ACT (RP after PRE, RC after ACT),
/// RD (RCD), WR (RCDWR) and PRE (RAS after ACT, read to PRE, write recovery).
#[derive(Clone, Copy, Debug, Default)]
struct Bank { open: Option<u32>, cur: Option<Active>, act_ok: u64, rd_ok: u64, wr_ok: u64, pre_ok: u64 }

/// Bank-group constraints: CCDL between column commands, RTPL from a read to a PRE.
#[derive(Clone, Copy, Debug, Default)]
struct Group { col_ok: u64, pre_ok: u64 }

/// One burst on the data bus, [start, end); `ret` is set on a read's last burst.
#[derive(Clone, Copy, Debug)]
struct Burst { start: u64, end: u64, ret: Option<u64> }

/// One DRAM channel: FR-FCFS queue, banks, shared command and data buses.
pub struct Dram {
    t: DramTiming,
    /// Banks per bank group, bytes per burst, data-bus cycles per burst.
    group_size: u32, burst_bytes: u32, burst_cycles: u64,
    /// A bank's group is its number's low bits, not its high bits.
    group_low: bool,
    /// GPGPU-Sim's derived delays: ACT to WR, read to write, write to read, write to PRE.
    rcdwr: u64, rtw: u64, wtr: u64, wtp: u64,
    queue: Vec<Pending>, queue_cap: usize,
    banks: Vec<Bank>, groups: Vec<Group>,
    /// Per-bank scratch for `assign`, kept so `cycle` never allocates.
    hit: Vec<Option<usize>>, any: Vec<Option<usize>>,
    /// Channel-wide earliest cycles: ACT (RRD), column (CCD), RD and WR (turnarounds).
    act_ok: u64, col_ok: u64, rd_ok: u64, wr_ok: u64,
    /// End of the last scheduled burst: bursts never overlap and stay in order.
    bus_free: u64,
    bursts: VecDeque<Burst>,
    returns: VecDeque<u64>, return_cap: usize,
    /// Reads started but not yet in `returns`; each owns a return-queue slot.
    reserved: usize,
    /// Arrival number of the next request: "oldest" means smallest.
    seq: u64,
    /// `stats.cycles` is also the current cycle.
    stats: DramStats,
}

impl Dram {
    /// `queue`: FR-FCFS scheduler queue entries (GTX 480: 16); `returns`: return queue entries (116);
    /// `burst_length` (8), `bus_bytes` = dram bus width in bytes × chips per controller (4 × 2 = 8),
    /// `data_command_ratio` (4: GDDR5 is QDR). A request of `bytes` takes
    /// ceil(bytes / (`burst_length` × `bus_bytes`)) bursts (at least one), each holding the data
    /// bus `burst_length` / `data_command_ratio` command cycles (at least one). A zero size,
    /// ratio, `returns`, nbk or nbkgrp is debug-asserted and taken as 1. As in GPGPU-Sim a
    /// request leaves the queue when its bank takes it, so up to `queue` + nbk are in the channel.
    pub fn new(
        t: DramTiming, queue: usize, returns: usize, burst_length: u32, bus_bytes: u32, data_command_ratio: u32,
    ) -> Dram {
        debug_assert!(t.nbk > 0 && t.nbkgrp > 0 && returns > 0);
        debug_assert!(burst_length > 0 && bus_bytes > 0 && data_command_ratio > 0);
        let (nbk, return_cap) = (t.nbk.max(1), returns.max(1));
        let ngroups = t.nbkgrp.clamp(1, nbk);
        let burst_cycles = u64::from((burst_length / data_command_ratio.max(1)).max(1));
        let (cl, wl) = (u64::from(t.cl), u64::from(t.wl));
        // At most one burst starts per cycle and none ends later than max(CL, WL) + burst.
        let max_bursts = usize::try_from(cl.max(wl) + burst_cycles + 2).unwrap_or(64);
        let burst_bytes = burst_length.max(1).saturating_mul(bus_bytes.max(1));
        Dram {
            t, group_size: (nbk / ngroups).max(1), burst_bytes, burst_cycles, group_low: false,
            rcdwr: u64::from(t.rcd.saturating_sub(t.wl.saturating_add(1))),
            rtw: (cl + burst_cycles + 2).saturating_sub(wl),
            wtr: wl + burst_cycles + u64::from(t.cdlr),
            wtp: wl + burst_cycles + u64::from(t.wr),
            queue: Vec::with_capacity(queue), queue_cap: queue,
            banks: vec![Bank::default(); nbk as usize], groups: vec![Group::default(); ngroups as usize],
            hit: vec![None; nbk as usize], any: vec![None; nbk as usize],
            act_ok: 0, col_ok: 0, rd_ok: 0, wr_ok: 0, bus_free: 0,
            bursts: VecDeque::with_capacity(max_bursts),
            returns: VecDeque::with_capacity(return_cap),
            return_cap, reserved: 0, seq: 0, stats: DramStats::default(),
        }
    }

    /// Bank groups by the bank number's low bits (GPGPU-Sim's
    /// `-dram_bnkgrp_indexing_policy 1`): consecutive banks alternate groups.
    pub fn with_low_group_bits(mut self) -> Dram {
        self.group_low = true;
        self
    }

    /// The scheduler queue has room.
    pub fn can_accept(&self) -> bool { self.queue.len() < self.queue_cap }

    /// Queue a request; the caller checked `can_accept` (debug-asserted; in release an
    /// over-full push is still queued rather than lost). A bank out of range is
    /// debug-asserted and wrapped.
    pub fn push(&mut self, r: DramRequest) {
        debug_assert!(self.can_accept(), "DRAM queue full");
        debug_assert!(r.bank < self.t.nbk, "bank {} out of range", r.bank);
        let bursts = r.bytes.div_ceil(self.burst_bytes).max(1);
        let bank = r.bank % self.t.nbk.max(1);
        self.queue.push(Pending { tag: r.tag, bank, row: r.row, write: r.write, bursts, seq: self.seq });
        self.seq += 1;
    }

    /// Count one cycle in which the caller found the queue full.
    pub fn note_full(&mut self) { self.stats.queue_full += 1 }

    /// One DRAM command-clock cycle: idle banks take requests (FR-FCFS), at most one
    /// command issues, the data bus advances. A read whose last burst has finished goes
    /// to the return queue; writes complete silently (no return entry: nobody waits on one).
    pub fn cycle(&mut self) {
        self.assign();
        self.issue();
        self.drive_bus();
        self.stats.cycles += 1;
    }

    /// The oldest completed read's tag.
    pub fn pop_return(&mut self) -> Option<u64> { self.returns.pop_front() }
    pub fn peek_return(&self) -> Option<u64> { self.returns.front().copied() }

    /// Anything queued, in a bank, on the data bus or in the return queue.
    pub fn busy(&self) -> bool {
        let in_bank = self.banks.iter().any(|b| b.cur.is_some());
        in_bank || !self.queue.is_empty() || !self.bursts.is_empty() || !self.returns.is_empty()
    }

    pub fn stats(&self) -> &DramStats { &self.stats }

    /// Bank group of a bank: the bank number's high bits (GPGPU-Sim's default) or low bits.
    fn group(&self, bank: usize) -> usize {
        if self.group_low { bank % self.groups.len() } else { (bank / self.group_size as usize).min(self.groups.len() - 1) }
    }

    /// FR-FCFS: each bank without a request takes the oldest queued request for its
    /// open row, else its oldest request (GPGPU-Sim's `frfcfs_scheduler::schedule`).
    /// One oldest-first pass over the queue: O(queue + banks).
    fn assign(&mut self) {
        let Dram { queue, banks, hit, any, stats, .. } = self;
        hit.fill(None);
        any.fill(None);
        for (i, p) in queue.iter().enumerate() {
            let b = p.bank as usize;
            if banks[b].cur.is_none() {
                any[b].get_or_insert(i);
                if hit[b].is_none() && banks[b].open == Some(p.row) {
                    hit[b] = Some(i);
                }
            }
        }
        for (b, bank) in banks.iter_mut().enumerate() {
            if let Some(i) = hit[b].or(any[b]) {
                let req = queue[i];
                stats.row_hits += u64::from(bank.open == Some(req.row));
                bank.cur = Some(Active { req, left: req.bursts, started: false });
                queue[i].bursts = 0;
            }
        }
        queue.retain(|p| p.bursts != 0);
    }

    /// A column command for bank `b` (whose row is open) is legal now.
    fn col_ready(&self, b: usize, a: &Active) -> bool {
        let (now, bank) = (self.stats.cycles, &self.banks[b]);
        if now < self.col_ok || now < self.groups[self.group(b)].col_ok {
            return false;
        }
        if a.req.write {
            return now >= bank.wr_ok && now >= self.wr_ok && now + u64::from(self.t.wl) >= self.bus_free;
        }
        // A read reserves its return slot at its first burst, so finished data never
        // waits for the return queue; a full one stalls new reads (as in GPGPU-Sim).
        let room = a.started || self.returns.len() + self.reserved < self.return_cap;
        room && now >= bank.rd_ok && now >= self.rd_ok && now + u64::from(self.t.cl) >= self.bus_free
    }

    /// A row command (PRE if another row is open, else ACT) for bank `b` is legal now.
    fn row_ready(&self, b: usize) -> bool {
        let (now, bank) = (self.stats.cycles, &self.banks[b]);
        match bank.open {
            Some(_) => now >= bank.pre_ok && now >= self.groups[self.group(b)].pre_ok,
            None => now >= bank.act_ok && now >= self.act_ok,
        }
    }

    /// Issue at most one command: the oldest ready column command, else the oldest
    /// ready row command (columns first keep the data bus busy).
    fn issue(&mut self) {
        // (seq, bank) of the oldest ready column and row commands.
        let (mut col, mut row) = (None::<(u64, usize)>, None::<(u64, usize)>);
        for (b, bank) in self.banks.iter().enumerate() {
            let Some(a) = bank.cur else { continue };
            let (best, ready) =
                if bank.open == Some(a.req.row) { (&mut col, self.col_ready(b, &a)) } else { (&mut row, self.row_ready(b)) };
            if ready && best.is_none_or(|(s, _)| a.req.seq < s) {
                *best = Some((a.req.seq, b));
            }
        }
        if let Some((_, b)) = col {
            self.issue_col(b);
        } else if let Some((_, b)) = row {
            self.issue_row(b);
        }
    }

    fn issue_col(&mut self, b: usize) {
        let (now, g) = (self.stats.cycles, self.group(b));
        let Some(mut a) = self.banks[b].cur else { return };
        self.col_ok = now + u64::from(self.t.ccd);
        self.groups[g].col_ok = now + u64::from(self.t.ccdl);
        let bank = &mut self.banks[b];
        let lat = if a.req.write {
            self.stats.writes += u64::from(!a.started);
            self.rd_ok = self.rd_ok.max(now + self.wtr);
            bank.pre_ok = bank.pre_ok.max(now + self.wtp); // write recovery
            u64::from(self.t.wl)
        } else {
            self.stats.reads += u64::from(!a.started);
            self.reserved += usize::from(!a.started);
            self.wr_ok = self.wr_ok.max(now + self.rtw);
            bank.pre_ok = bank.pre_ok.max(now + self.burst_cycles); // read to precharge
            self.groups[g].pre_ok = self.groups[g].pre_ok.max(now + u64::from(self.t.rtpl));
            u64::from(self.t.cl)
        };
        a.started = true;
        a.left = a.left.saturating_sub(1);
        let done = a.left == 0;
        bank.cur = if done { None } else { Some(a) };
        let start = now + lat;
        self.bus_free = start + self.burst_cycles;
        let ret = (done && !a.req.write).then_some(a.req.tag);
        self.bursts.push_back(Burst { start, end: self.bus_free, ret });
    }

    fn issue_row(&mut self, b: usize) {
        let (now, t) = (self.stats.cycles, self.t);
        let bank = &mut self.banks[b];
        let Some(a) = bank.cur else { return };
        if bank.open.is_some() {
            bank.open = None;
            bank.act_ok = bank.act_ok.max(now + u64::from(t.rp));
            self.stats.precharges += 1;
        } else {
            bank.open = Some(a.req.row);
            bank.rd_ok = now + u64::from(t.rcd);
            bank.wr_ok = now + self.rcdwr;
            bank.pre_ok = bank.pre_ok.max(now + u64::from(t.ras));
            bank.act_ok = now + u64::from(t.rc);
            self.act_ok = now + u64::from(t.rrd);
            self.stats.activates += 1;
        }
    }

    /// Count this cycle's bus use and retire the burst whose last data cycle is now.
    fn drive_bus(&mut self) {
        let now = self.stats.cycles;
        if self.bursts.front().is_some_and(|f| f.start <= now && now < f.end) {
            self.stats.data_bus_busy += 1;
        }
        while let Some(f) = self.bursts.front().copied().filter(|f| f.end <= now + 1) {
            self.bursts.pop_front();
            if let Some(tag) = f.ret {
                self.returns.push_back(tag);
                self.reserved = self.reserved.saturating_sub(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // GTX 480 (GPGPU-Sim configs/deprecated-cfgs/GTX480). BL 8 × 8 bus bytes = 64 B a
    // burst, so 128 B is 2 bursts of BL/ratio = 8/4 = 2 bus cycles. A column command in
    // the cycle() call with now = t puts data on [t + CL, t + CL + 2), and a read
    // returns after the call for its last data cycle: stats.cycles = last RD + 12 + 2.
    const GTX480: &str = "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:
                          CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2";

    fn chan(returns: usize) -> Dram { Dram::new(DramTiming::parse(GTX480).unwrap(), 16, returns, 8, 8, 4) }
    fn req(tag: u64, bank: u32, row: u32, write: bool) -> DramRequest { DramRequest { tag, bank, row, col: 0, write, bytes: 128 } }

    /// Push `reqs` (tag, bank, row, write), cycle until `n` reads returned: (tag, cycles).
    fn run(d: &mut Dram, reqs: &[(u64, u32, u32, bool)], n: usize) -> Vec<(u64, u64)> {
        reqs.iter().for_each(|&(t, b, r, w)| d.push(req(t, b, r, w)));
        let mut out = Vec::new();
        while out.len() < n && d.stats().cycles < 10_000 {
            d.cycle();
            while let Some(t) = d.pop_return() {
                out.push((t, d.stats().cycles));
            }
        }
        out
    }

    #[test]
    fn parse_gtx480_and_errors() {
        let t = DramTiming::parse(GTX480).unwrap();
        assert_eq!((t.nbk, t.ccd, t.rrd, t.rcd, t.ras, t.rp, t.rc), (16, 2, 6, 12, 28, 12, 40));
        assert_eq!((t.cl, t.wl, t.cdlr, t.wr, t.nbkgrp, t.ccdl, t.rtpl), (12, 4, 5, 12, 4, 3, 2));
        for (s, want) in [
            (format!("{GTX480}:XYZ=1"), "XYZ"),                 // unknown key
            (GTX480.replace("CDLR=5:", ""), "CDLR"),            // missing key
            (GTX480.replace("RAS=28", "RAS=2x8"), "2x8"),       // bad value
            (GTX480.replace("RAS=28", "RAS"), "RAS"),           // no '='
            (format!("{GTX480}:CL=3"), "CL"),                   // twice
            (GTX480.replace("nbk=16", "nbk=12"), "nbk=12"),     // not a power of two
            (GTX480.replace("nbkgrp=4", "nbkgrp=3"), "nbkgrp=3"), // does not divide
        ] {
            let e = DramTiming::parse(&s).unwrap_err();
            assert!(e.contains(want), "{e:?} should name {want:?}");
        }
    }

    #[test]
    fn latencies() {
        type Case<'a> = (&'a [(u64, u32, u32, bool)], &'a [(u64, u64)], [u64; 4]);
        // Requests (tag, bank, row, write), returns (tag, cycles), [ACT, PRE, row hits, bus cycles].
        let cases: [Case; 6] = [
            // Closed bank: ACT 0; RD at RCD = 12; the 2nd burst (same bank group) waits
            // CCDL: RD at 15; returns 15 + 14 = 29 = RCD + CCDL + CL + 2.
            (&[(7, 3, 5, false)], &[(7, 29)], [1, 0, 0, 4]),
            // Same row: B takes bank 0 after A's last RD (15), row open, a hit without ACT.
            // Its RDs are CCDL-bound (same group): 18 and 21; returns 21 + 14 = 35.
            (&[(1, 0, 9, false), (2, 0, 9, false)], &[(1, 29), (2, 35)], [1, 0, 1, 8]),
            // Other row, same bank: PRE waits RAS from the ACT at 0: 28 (read to PRE 15 + 2
            // and RTPL 15 + 2 are earlier); ACT at max(28 + RP, 0 + RC) = 40; RDs at 52, 55;
            // returns 55 + 14 = 69.
            (&[(1, 0, 1, false), (2, 0, 2, false)], &[(1, 29), (2, 69)], [2, 1, 0, 8]),
            // Other bank (4, group 1): ACT RRD = 6 after bank 0's; RDs at 6 + RCD = 18 (CCD
            // after 15 met, its data at 30 after bank 0's ends at 29) and 21: returns 35.
            (&[(1, 0, 1, false), (2, 4, 1, false)], &[(1, 29), (2, 35)], [2, 0, 0, 8]),
            // FR-FCFS: X (row 1), Y (row 2, older), Z (row 1, younger) in bank 0. After X,
            // Z is the row hit and goes as B above (35); Y then PRE 28, ACT 40: 69.
            (&[(1, 0, 1, false), (2, 0, 2, false), (3, 0, 1, false)], &[(1, 29), (3, 35), (2, 69)], [2, 1, 1, 12]),
            // Write then read: ACT 0; WR at RCDWR = RCD - (WL + 1) = 7, 2nd WR at 10 (CCDL).
            // Write to read = WL + 2 + CDLR = 11 after the last WR: RDs at 21, 24; returns
            // 24 + 14 = 38. The write returns nothing.
            (&[(1, 0, 1, true), (2, 0, 1, false)], &[(2, 38)], [1, 0, 1, 8]),
        ];
        for (reqs, want, [act, pre, hits, bus]) in cases {
            let mut d = chan(116);
            assert_eq!(run(&mut d, reqs, want.len()), want);
            let s = *d.stats();
            assert_eq!([s.activates, s.precharges, s.row_hits, s.data_bus_busy], [act, pre, hits, bus], "{reqs:?}");
            assert_eq!(s.reads + s.writes, reqs.len() as u64);
            assert!(!d.busy());
        }
    }

    /// 64-byte reads alternating between banks 0 and 1 (one row each): with
    /// high-bit groups (banks 0-3 one group) consecutive RDs wait CCDL = 3,
    /// with low-bit groups the banks are in different groups and RDs go every
    /// CCD = 2 cycles, one burst (2 cycles) each: the data bus full.
    #[test]
    fn low_bit_bank_groups_alternate() {
        let gaps = |mut d: Dram| {
            for t in 0..16 {
                d.push(DramRequest { tag: t, bank: (t % 2) as u32, row: 1, col: 0, write: false, bytes: 64 });
            }
            let out = run(&mut d, &[], 16);
            let mut g: Vec<u64> = out.windows(2).map(|w| w[1].1 - w[0].1).collect();
            g.sort();
            g[g.len() / 2]
        };
        assert_eq!(gaps(chan(116)), 3);
        assert_eq!(gaps(chan(116).with_low_group_bits()), 2);
    }

    #[test]
    fn full_queues() {
        let mut d = chan(116);
        (0..16).for_each(|i| d.push(req(i, 0, 0, false)));
        d.note_full();
        assert_eq!((d.can_accept(), d.stats().queue_full), (false, 1));
        d.cycle(); // bank 0 takes one request, freeing a slot
        assert!(d.can_accept());

        let mut d = chan(1);
        run(&mut d, &[(1, 0, 1, false), (2, 0, 1, false)], 0);
        (0..200).for_each(|_| d.cycle());
        // A holds the only return slot from its first RD on, so B never starts.
        assert_eq!((d.peek_return(), d.stats().reads, d.busy()), (Some(1), 1, true));
        assert_eq!(d.pop_return(), Some(1));
        // All other constraints expired long ago: RDs at 200, 203 (CCDL), data until
        // 203 + 14 = 217 = 200 + 17 cycles.
        (0..16).for_each(|_| d.cycle());
        assert_eq!(d.peek_return(), None);
        assert_eq!(run(&mut d, &[], 1), vec![(2, 217)]);
    }

    #[test]
    fn row_hits_reach_data_bus_limit() {
        let (mut d, mut pushed, mut got) = (chan(116), 0u64, 0);
        while got < 64 && d.stats().cycles < 10_000 {
            while pushed < 64 && d.can_accept() {
                // One bank per bank group so CCDL never binds; one row per bank.
                d.push(req(pushed, [0, 4, 8, 12][pushed as usize % 4], 7, false));
                pushed += 1;
            }
            d.cycle();
            got += std::iter::from_fn(|| d.pop_return()).count();
        }
        let s = *d.stats();
        // 64 requests × 2 bursts × 2 cycles = 256 busy cycles; 4 ACTs, 60 hits.
        assert_eq!((got, s.data_bus_busy, s.activates, s.row_hits), (64, 256, 4, 60));
        // Data can't start before RCD + CL = 24, so >= 24 + 256 = 280. While the banks
        // open (RRD apart) the bus idles twice for a cycle, at 26 (bank 0's 2nd RD waits
        // CCDL) and 29 (bank 4 is ready only at 18); from then on a RD issues every
        // CCD = 2 cycles: 282.
        assert_eq!(s.cycles, 282);
    }
}
