//! Whole-unit reference model of `replay_unit` (specification in
//! `hw::blocks::replay::replay_unit`), built from the sub-blocks' reference models used
//! through their port descriptions.

use super::credit_tracker::CreditTracker;
use super::mshr_predictor::MshrPredictor;
use super::naive_tracker::NaiveTracker;
use super::warp_buffer::WarpBuffer;
use crate::bits::{mask, put_field};
use crate::Reference;
use hw::blocks::replay::credit_tracker::CreditTrackerIo;
use hw::blocks::replay::mshr_predictor::MshrPredictorIo;
use hw::blocks::replay::naive_tracker::NaiveTrackerIo;
use hw::blocks::replay::replay_unit::{ReplayUnitIo, ReplayUnitParams, TrackerKind, NAME};
use hw::blocks::replay::warp_buffer::WarpBufferIo;
use sim::{Bind, Component, ComponentExt, PortFrame, PortId};

enum Tracker {
    None,
    Naive(NaiveTracker, NaiveTrackerIo<PortId>),
    Credit(CreditTracker, CreditTrackerIo<PortId>),
}

/// What the last `eval` decided (used by `tick`).
#[derive(Clone, Copy, Default)]
struct Decided {
    rst: bool,
    fill: Option<usize>,
    issue: Option<usize>,
    cpl: Option<usize>,
    first_issue: Option<(usize, usize)>,
    accepted_cpl: Option<(usize, usize, bool)>,
}

/// A warp buffer's outputs with idle inputs: they depend on its registers
/// only (`cpl_accept` aside), so they are kept until the buffer is clocked
/// with a command.
#[derive(Clone, Copy, Default)]
struct Idle {
    valid: bool,
    replay: bool,
    slot: u64,
    pam: u64,
    fill_free: u64,
    fill_ptr: u64,
}

/// The reference model: sub-block reference models wired as the specification says.
pub struct ReplayUnit {
    p: ReplayUnitParams,
    frame: PortFrame,
    io: ReplayUnitIo<PortId>,
    wbs: Vec<WarpBuffer>,
    wb: WarpBufferIo<PortId>,
    /// Known-miss bit per warp and slot.
    km: Vec<Vec<bool>>,
    tracker: Tracker,
    pred: MshrPredictor,
    pred_io: MshrPredictorIo<PortId>,
    slot_vec: Vec<u64>,
    decided: Decided,
    idle: Vec<Idle>,
    /// Warp buffers whose `idle` outputs are out of date.
    stale: Vec<usize>,
    /// The per-warp offer vectors, packed from `idle` and the known-miss bits.
    packed: [u64; 4],
}

impl ReplayUnit {
    pub fn new(p: &ReplayUnitParams) -> Self {
        let wbs: Vec<WarpBuffer> = (0..p.warps).map(|_| WarpBuffer::new(&p.warp_buffer())).collect();
        let tracker = match p.tracker {
            TrackerKind::None => Tracker::None,
            TrackerKind::Naive => Tracker::Naive(NaiveTracker::new(&p.naive()), p.naive().ids()),
            TrackerKind::Credit => Tracker::Credit(CreditTracker::new(&p.credit()), p.credit().ids()),
        };
        let words = (p.warps as usize * p.warp_buffer().slot_bits() as usize).div_ceil(64).max(1);
        ReplayUnit {
            p: p.clone(),
            frame: p.frame(),
            io: p.ids(),
            wbs,
            wb: p.warp_buffer().ids(),
            km: vec![vec![false; p.slots as usize]; p.warps as usize],
            tracker,
            pred: MshrPredictor::new(&p.predictor()),
            pred_io: p.predictor().ids(),
            slot_vec: vec![0; words],
            decided: Decided::default(),
            idle: vec![Idle::default(); p.warps as usize],
            stale: (0..p.warps as usize).collect(),
            packed: [0; 4],
        }
    }

    fn inp(&self, id: PortId) -> u64 {
        self.frame.get_u64(id)
    }

    /// The warp an index input selects, if in range.
    fn warp(&self, id: PortId) -> Option<usize> {
        let w = self.inp(id) as usize;
        (w < self.p.warps as usize).then_some(w)
    }

    /// Drive warp buffer `v`'s inputs: this cycle's commands for it (`issue` as given).
    fn drive(&mut self, v: usize, issue: bool) {
        let (io, w, d) = (&self.io, &self.wb, &self.decided);
        let vals = [
            (w.rst, d.rst as u64),
            (w.fill_count, if d.fill == Some(v) { self.frame.get_u64(io.fill_count) } else { 0 }),
            (w.issue, issue as u64),
            (w.issue_replayable, self.frame.get_u64(io.iss_replayable)),
            (w.issue_mask, self.frame.get_u64(io.iss_mask)),
            (w.cpl_valid, (d.cpl == Some(v)) as u64),
            (w.cpl_slot, self.frame.get_u64(io.cpl_slot)),
            (w.cpl_mask, self.frame.get_u64(io.cpl_mask)),
            (w.flush, (issue && self.frame.get_u64(io.iss_flush) & 1 != 0) as u64),
        ];
        let wb = &mut self.wbs[v];
        for (id, x) in vals {
            wb.set_u64(id, x);
        }
    }

    /// Bring warp buffer `v`'s idle outputs and its bits of the offer vectors up to date.
    fn refresh(&mut self, v: usize) {
        // The offer outputs depend on the registers only: no `eval` needed.
        let w = &self.wb;
        let wb = &self.wbs[v];
        self.idle[v] = Idle {
            valid: wb.get_bool(w.offer_valid),
            replay: wb.get_bool(w.offer_replay),
            slot: wb.get_u64(w.offer_slot),
            pam: wb.get_u64(w.offer_pam),
            fill_free: wb.get_u64(w.fill_free),
            fill_ptr: wb.get_u64(w.fill_ptr),
        };
        let x = self.idle[v];
        let sb = self.p.warp_buffer().slot_bits();
        let bits = [x.valid, x.replay, x.replay && self.km[v][x.slot as usize], x.fill_free >= self.p.fill_width as u64];
        for (word, b) in self.packed.iter_mut().zip(bits) {
            *word = *word & !(1 << v) | (b as u64) << v;
        }
        put_field(&mut self.slot_vec, v * sb as usize, sb, x.slot);
    }
}

impl Component for ReplayUnit {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(frame);

    fn eval(&mut self) {
        let io = &self.io;
        let rst = self.inp(io.rst);
        let fill_warp = self.warp(io.fill_warp);
        let fill = if self.inp(io.fill_count) != 0 { fill_warp } else { None };
        let iss_warp = if self.inp(io.iss_valid) & 1 != 0 { self.warp(io.iss_warp) } else { None };
        let cpl_warp = if self.inp(io.cpl_valid) & 1 != 0 { self.warp(io.cpl_warp) } else { None };

        // Warp buffers' offers (registers only): those clocked with a command since.
        while let Some(v) = self.stale.pop() {
            self.refresh(v);
        }
        let [ov, orep, okm, frdy] = self.packed;

        // Tracker.
        let (f, io) = (&self.frame, &self.io);
        let miss_issue_ok = match &mut self.tracker {
            Tracker::None => true,
            Tracker::Naive(t, tio) => {
                if let Some(r) = tio.rst {
                    t.set_u64(r, rst);
                }
                t.set_u64(tio.mshr_avail, f.get_u64(io.mshr_avail));
                t.eval();
                t.get_bool(tio.miss_issue_ok)
            }
            Tracker::Credit(t, tio) => {
                let vals = [
                    (tio.rst, rst),
                    (tio.iss_take, 0),
                    (tio.mem_valid, f.get_u64(io.mem_valid)),
                    (tio.mem_credited, f.get_u64(io.mem_credited)),
                    (tio.mem_alloc, f.get_u64(io.mem_alloc)),
                    (tio.mshr_free, f.get_u64(io.mshr_free)),
                ];
                for (id, x) in vals {
                    t.set_u64(id, x);
                }
                t.eval();
                t.get_bool(tio.credit_avail)
            }
        };

        // Predictor lookup for the picked warp's offer.
        let known = iss_warp.is_some_and(|w| okm >> w & 1 != 0);
        let (io, pio) = (&self.io, &self.pred_io);
        if let Some(r) = pio.rst {
            self.pred.set_u64(r, rst);
        }
        let pv = [
            (pio.pc, self.inp(io.iss_pc)),
            (pio.known_miss, known as u64),
            (pio.upd_valid, self.inp(io.mem_valid)),
            (pio.upd_pc, self.inp(io.mem_pc)),
            (pio.upd_miss, self.inp(io.mem_miss)),
        ];
        for (id, x) in pv {
            self.pred.set_u64(id, x);
        }
        self.pred.eval();
        let need = self.inp(io.iss_load) & 1 != 0 && self.pred.get_bool(pio.pred_miss);

        // Issue decision.
        let iss_ok = iss_warp.is_some_and(|w| ov >> w & 1 != 0) && (!need || miss_issue_ok);
        let credited = iss_ok && need && self.p.tracker == TrackerKind::Credit;
        let (mut iss_slot, mut iss_replay, mut iss_pam) = (0u64, false, 0u64);
        let mut first_issue = None;
        if let (true, Some(w)) = (iss_ok, iss_warp) {
            let x = self.idle[w];
            iss_slot = x.slot;
            iss_replay = x.replay;
            iss_pam = if iss_replay { x.pam } else { self.frame.get_u64(self.io.iss_mask) };
            if !iss_replay {
                first_issue = Some((w, iss_slot as usize));
            }
        }
        if let Tracker::Credit(t, tio) = &mut self.tracker {
            t.set_u64(tio.iss_take, credited as u64);
            t.eval();
        }
        // The completion's legality (the only warp-buffer output that reads inputs).
        self.decided = Decided { rst: rst & 1 != 0, fill, issue: if iss_ok { iss_warp } else { None }, cpl: cpl_warp, ..Decided::default() };
        let cpl_accept = match cpl_warp {
            Some(v) => {
                self.drive(v, self.decided.issue == Some(v));
                self.wbs[v].eval();
                self.wbs[v].get_bool(self.wb.cpl_accept)
            }
            None => false,
        };
        let pool = match &self.tracker {
            Tracker::Credit(t, tio) => t.get_u64(tio.pool),
            _ => 0,
        };
        let fill_slot = fill_warp.map(|w| self.idle[w].fill_ptr).unwrap_or(0);
        self.decided.first_issue = first_issue;
        self.decided.accepted_cpl =
            if cpl_accept { cpl_warp.map(|w| (w, self.inp(self.io.cpl_slot) as usize, self.inp(self.io.cpl_miss) & 1 != 0)) } else { None };

        let (o, f) = (&self.io, &mut self.frame);
        f.set_u64(o.offer_valid, ov);
        f.set_u64(o.offer_replay, orep);
        f.set_u64(o.offer_known_miss, okm);
        f.set(o.offer_slot, &self.slot_vec);
        f.set_u64(o.fill_rdy, frdy);
        f.set_u64(o.fill_slot, fill_slot);
        f.set_bool(o.miss_issue_ok, miss_issue_ok);
        f.set_bool(o.iss_ok, iss_ok);
        f.set_u64(o.iss_slot, iss_slot);
        f.set_bool(o.iss_replay, iss_replay);
        f.set_u64(o.iss_pam, iss_pam & mask(self.p.simt_width));
        f.set_bool(o.iss_pred_miss, need);
        f.set_bool(o.iss_credited, credited);
        f.set_bool(o.cpl_accept, cpl_accept);
        f.set_u64(o.credit_pool, pool);
    }

    fn tick(&mut self) {
        let d = self.decided;
        if d.rst {
            for row in &mut self.km {
                row.fill(false);
            }
        } else {
            if let Some((w, s, miss)) = d.accepted_cpl {
                self.km[w][s] = miss;
            }
            if let Some((w, s)) = d.first_issue {
                self.km[w][s] = false;
            }
        }
        // Only a warp buffer given a command (or reset) changes state.
        for v in 0..self.wbs.len() {
            if d.rst || d.fill == Some(v) || d.issue == Some(v) || d.cpl == Some(v) {
                self.drive(v, d.issue == Some(v));
                self.wbs[v].tick();
                self.stale.push(v);
            }
        }
        match &mut self.tracker {
            Tracker::None => {}
            Tracker::Naive(t, _) => t.tick(),
            Tracker::Credit(t, _) => t.tick(),
        }
        self.pred.tick();
    }
}

impl Reference for ReplayUnitParams {
    type Model = ReplayUnit;
    fn model(&self) -> ReplayUnit {
        ReplayUnit::new(self)
    }
}
