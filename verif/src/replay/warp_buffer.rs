//! Verification of `warp_buffer` (see `hw::blocks::replay::warp_buffer` for the
//! specification, `models::replay::warp_buffer` for the reference model): a
//! constrained-random [`WarpBufferDriver`] and property checks that run on any
//! [`Component`] with the block's ports:
//!
//! * [`figure_5_4`]: the thesis's Figure 5.4 walk-through, snapshot by snapshot;
//! * [`check_properties`]: closed-loop semantic properties — no slot is lost or issued
//!   after completing, every thread of a replayable instruction completes exactly once,
//!   a replay-ready instruction is offered (oldest first) and the buffer drains.
//!
//! The reference model is the only cycle-level oracle: the earlier program-order
//! `Shadow` predicted every output too (a second model of the same ports); the
//! properties above are the independent, pointer-free check, so it is gone.

use crate::stimulus::{Driver, Frame, InputLayout};
use hw::blocks::replay::warp_buffer::{WarpBufferIo, WarpBufferParams, NAME};
use hw::iface::InterfaceExt;
use models::bits::{get_field, mask};
use models::replay::warp_buffer::{WarpBuffer, WbIn};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::{Bind, Component, ComponentExt, PortId};
use std::collections::VecDeque;
use std::sync::Arc;

/// Registry entry: the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    driver: |p, seed| Ok(Box::new(WarpBufferDriver::new(&hw::params::BlockParams::from_params(p)?, seed))),
};

/// Legal fill / issue / completion traffic chosen from a private copy of the reference
/// model (what it offers, how many slots are free, which instructions are in flight), with
/// phases of different rates (so the buffer runs full, empty and fully wrapped), occasional
/// illegal commands (which the specification ignores) and occasional resets.
pub struct WarpBufferDriver {
    layout: Arc<InputLayout>,
    io: WarpBufferIo<PortId>,
    model: WarpBuffer,
    rng: ChaCha8Rng,
    p: WarpBufferParams,
    cycle: u64,
    p_fill: f64,
    p_issue: f64,
    p_cpl: f64,
}

impl WarpBufferDriver {
    pub fn new(p: &WarpBufferParams, seed: u64) -> Self {
        WarpBufferDriver {
            layout: InputLayout::of(&p.ports()),
            io: p.ids(),
            model: WarpBuffer::new(p),
            rng: ChaCha8Rng::seed_from_u64(seed),
            p: p.clone(),
            cycle: 0,
            p_fill: 0.5,
            p_issue: 0.5,
            p_cpl: 0.5,
        }
    }

    fn random_mask(&mut self) -> u64 {
        let w = mask(self.p.simt_width);
        match self.rng.random_range(0..20) {
            0..=12 => w,
            13 => 0,
            _ => self.rng.random::<u64>() & w,
        }
    }

    fn choose(&mut self) -> WbIn {
        if self.cycle.is_multiple_of(400) {
            self.p_fill = [0.1, 0.5, 0.9][self.rng.random_range(0..3)];
            self.p_issue = [0.1, 0.5, 0.9][self.rng.random_range(0..3)];
            self.p_cpl = [0.05, 0.4, 0.9][self.rng.random_range(0..3)];
        }
        self.cycle += 1;
        let w = mask(self.p.simt_width);
        let n = self.p.slots;
        if self.cycle == 1 || self.rng.random_bool(0.003) {
            // Reset with garbage on the other inputs: reset must override them.
            return WbIn {
                rst: true,
                fill_count: self.rng.random_range(0..=n),
                issue: self.rng.random(),
                replayable: self.rng.random(),
                mask: self.rng.random::<u64>() & w,
                cpl_valid: self.rng.random(),
                cpl_slot: self.rng.random_range(0..n),
                cpl_mask: self.rng.random::<u64>() & w,
                flush: self.rng.random(),
            };
        }
        let mut i = WbIn::default();
        let free = self.model.fill_free();
        let max_count = (1u32 << self.p.count_bits()) - 1;
        if self.rng.random_bool(self.p_fill) {
            i.fill_count = match self.rng.random_range(0..20) {
                0..=14 if free >= 2 => 2,
                15..=17 if free >= 1 => self.rng.random_range(1..=free),
                18 => self.rng.random_range(0..=max_count), // possibly too many: ignored
                _ => 0,
            };
        }
        let (offer_valid, _, _) = self.model.offer();
        if (offer_valid && self.rng.random_bool(self.p_issue)) || self.rng.random_bool(0.02) {
            i.issue = true;
            i.replayable = self.rng.random_bool(0.6);
            i.mask = self.random_mask();
            i.flush = self.rng.random_bool(0.1);
        }
        if self.rng.random_bool(self.p_cpl) {
            let in_flight = self.model.in_flight();
            if !in_flight.is_empty() {
                let (slot, pam) = in_flight[self.rng.random_range(0..in_flight.len())];
                i.cpl_valid = true;
                i.cpl_slot = slot;
                i.cpl_mask = match self.rng.random_range(0..20) {
                    0..=8 => pam,
                    9..=11 => 0,
                    12..=17 => pam & self.rng.random::<u64>(),
                    _ => self.rng.random::<u64>() & w, // threads outside the PAM are ignored
                };
            }
        }
        if !i.cpl_valid && self.rng.random_bool(0.02) {
            // A stray completion: legal only if it happens to name an in-flight slot.
            i.cpl_valid = true;
            i.cpl_slot = self.rng.random_range(0..n);
            i.cpl_mask = self.rng.random::<u64>() & w;
        }
        i
    }
}

impl Driver for WarpBufferDriver {
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

// ---------------------------------------------------------------------------------------
// Checks that run on any engine.
// ---------------------------------------------------------------------------------------

/// A warp buffer under test, reached through its port description.
pub struct Dut {
    pub io: WarpBufferIo<PortId>,
}

impl Dut {
    pub fn of(p: &WarpBufferParams, c: &dyn Component) -> Result<Self, String> {
        Ok(Dut { io: p.bind(c).map_err(|e| e.to_string())? })
    }
    pub fn set(&self, c: &mut dyn Component, i: &WbIn) {
        i.write(&self.io, |id, v| c.set_u64(id, v));
    }
    fn out(&self, c: &dyn Component, id: PortId) -> u64 {
        c.get_u64(id)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IState {
    Unissued,
    InFlight,
    Ready,
    Done,
}

#[derive(Clone, Copy, Debug)]
struct Instr {
    replayable: bool,
    active: u64,
    completed: u64,
    inflight: u64,
    st: IState,
}

/// Statistics of a [`check_properties`] run (to see that it exercised something).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PropStats {
    pub filled: u64,
    pub first_issues: u64,
    pub replays: u64,
    pub completions: u64,
    pub full_cycles: u64,
    pub flushed: u64,
}

/// Closed-loop semantic properties on `dut` (a warp buffer with parameters `p`), over
/// `cycles` cycles of random traffic driven from the DUT's own outputs, then a drain:
/// * no slot is lost: instructions are first-issued exactly once each, in program order,
///   and a fill never lands on a live slot;
/// * no instruction is issued after completing, and the mask of every replay is exactly
///   the threads not yet completed, so every thread of a replayable instruction completes
///   exactly once;
/// * forward progress: whenever an instruction is ready to replay, the oldest such one is
///   offered; with completions arriving, everything drains;
/// * a flush with an issue drops exactly the instructions filled after the issued one
///   (a fill in the same cycle is ignored), and they are never offered.
pub fn check_properties(dut: &mut dyn Component, p: &WarpBufferParams, seed: u64, cycles: u64) -> Result<PropStats, String> {
    let d = Dut::of(p, dut)?;
    let n = p.slots;
    let wm = mask(p.simt_width);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut prog: Vec<Instr> = Vec::new(); // by instruction id (program order)
    let mut slot_of: Vec<Option<usize>> = vec![None; n as usize];
    let mut next_first = 0usize;
    let mut pending: VecDeque<(u64, usize)> = VecDeque::new(); // (due cycle, id)
    let mut st = PropStats::default();
    d.set(dut, &WbIn { rst: true, ..Default::default() });
    dut.step();
    let total = cycles + 64 * n as u64 + 1000;
    let (mut p_fill, mut p_issue) = (0.6, 0.6);
    for cyc in 0..total {
        let draining = cyc >= cycles;
        if cyc % 300 == 0 && !draining {
            p_fill = [0.2, 0.6, 1.0][rng.random_range(0..3)];
            p_issue = [0.2, 0.6, 1.0][rng.random_range(0..3)];
        }
        let err = |m: String| format!("cycle {cyc}: {m}");
        d.set(dut, &WbIn::default());
        dut.eval();
        let ov = d.out(dut, d.io.offer_valid) != 0;
        let os = d.out(dut, d.io.offer_slot) as u32;
        let orep = d.out(dut, d.io.offer_replay) != 0;
        let opam = d.out(dut, d.io.offer_pam);
        let free = d.out(dut, d.io.fill_free) as u32;
        let fptr = d.out(dut, d.io.fill_ptr) as u32;
        if free == 0 {
            st.full_cycles += 1;
        }
        // Forward progress and oldest-first.
        let oldest_ready = prog.iter().position(|x| x.st == IState::Ready);
        let any_unissued = next_first < prog.len();
        if let Some(r) = oldest_ready {
            if !(ov && orep && slot_of[os as usize] == Some(r)) {
                return Err(err(format!(
                    "instruction {r} is the oldest ready to replay but the offer is valid={ov} replay={orep} slot={os}"
                )));
            }
        } else if any_unissued && (!ov || orep) {
            return Err(err(format!("instruction {next_first} waits for its first issue but the offer is valid={ov} replay={orep}")));
        } else if !any_unissued && ov {
            return Err(err(format!("nothing to issue but slot {os} is offered (replay={orep})")));
        }
        let mut inp = WbIn::default();
        // Issue what is offered.
        let mut issued: Option<(usize, bool)> = None;
        if ov && (draining || rng.random_bool(p_issue)) {
            let id = slot_of[os as usize].ok_or_else(|| err(format!("offered slot {os} holds no instruction")))?;
            if orep {
                let x = &prog[id];
                if x.st != IState::Ready {
                    return Err(err(format!("instruction {id} offered for replay in state {:?}", x.st)));
                }
                let remaining = x.active & !x.completed;
                if opam != remaining {
                    return Err(err(format!("replay of {id} with mask {opam:#x}, threads not completed {remaining:#x}")));
                }
            } else if id != next_first {
                return Err(err(format!("first issue of instruction {id}, expected {next_first} (program order)")));
            }
            inp.issue = true;
            inp.replayable = rng.random_bool(0.6);
            inp.mask = match rng.random_range(0..10) {
                0..=6 => wm,
                7 => 0,
                _ => rng.random::<u64>() & wm,
            };
            inp.flush = rng.random_bool(0.1);
            issued = Some((id, orep));
        }
        // Fill two at a time (ignored under a flush).
        let mut filled = 0;
        if !draining && free >= 2 && rng.random_bool(p_fill) {
            inp.fill_count = 2;
            filled = if inp.flush { 0 } else { 2 };
        }
        // At most one completion per cycle, oldest due first.
        let mut cpl: Option<(usize, u64)> = None;
        if let Some(&(due, id)) = pending.front() {
            if due <= cyc {
                pending.pop_front();
                let x = &prog[id];
                let m = match rng.random_range(0..10) {
                    _ if draining => x.inflight,
                    0..=4 => x.inflight,
                    5..=6 => 0,
                    _ => x.inflight & rng.random::<u64>(),
                };
                let slot = slot_of.iter().position(|s| *s == Some(id)).unwrap() as u32;
                inp.cpl_valid = true;
                inp.cpl_slot = slot;
                inp.cpl_mask = m;
                cpl = Some((id, m));
            }
        }
        d.set(dut, &inp);
        dut.eval();
        if cpl.is_some() && d.out(dut, d.io.cpl_accept) == 0 {
            return Err(err(format!("legal completion of slot {} rejected", inp.cpl_slot)));
        }
        dut.tick();
        // Environment state after the edge.
        if let Some((id, m)) = cpl {
            st.completions += 1;
            let x = &mut prog[id];
            if m & x.completed != 0 {
                return Err(err(format!("threads {:#x} of {id} complete twice", m & x.completed)));
            }
            x.completed |= m;
            x.inflight = 0;
            if x.active & !x.completed == 0 {
                x.st = IState::Done;
                let s = slot_of.iter().position(|s| *s == Some(id)).unwrap();
                slot_of[s] = None;
            } else {
                x.st = IState::Ready;
            }
        }
        if let Some((id, replay)) = issued {
            let lat = rng.random_range(1..=8);
            let x = &mut prog[id];
            if replay {
                st.replays += 1;
                x.st = IState::InFlight;
                x.inflight = x.active & !x.completed;
                pending.push_back((cyc + lat, id));
            } else {
                st.first_issues += 1;
                next_first += 1;
                x.replayable = inp.replayable;
                x.active = inp.mask;
                if x.replayable {
                    x.st = IState::InFlight;
                    x.inflight = inp.mask;
                    pending.push_back((cyc + lat, id));
                } else {
                    x.st = IState::Done;
                    let s = slot_of.iter().position(|s| *s == Some(id)).unwrap();
                    slot_of[s] = None;
                }
            }
            if inp.flush {
                for s in slot_of.iter_mut() {
                    if s.is_some_and(|x| x >= next_first) {
                        *s = None;
                    }
                }
                st.flushed += (prog.len() - next_first) as u64;
                prog.truncate(next_first);
            }
        }
        for k in 0..filled {
            let s = ((fptr + k) % n) as usize;
            if let Some(old) = slot_of[s] {
                return Err(err(format!("fill overwrote slot {s} holding live instruction {old}")));
            }
            slot_of[s] = Some(prog.len());
            prog.push(Instr { replayable: false, active: 0, completed: 0, inflight: 0, st: IState::Unissued });
            st.filled += 1;
        }
        if draining && next_first == prog.len() && prog.iter().all(|x| x.st == IState::Done) {
            break;
        }
    }
    // Drained: every instruction issued once, every replayable one fully completed.
    if next_first != prog.len() {
        return Err(format!("{} instructions never issued", prog.len() - next_first));
    }
    for (id, x) in prog.iter().enumerate() {
        if x.st != IState::Done {
            return Err(format!("instruction {id} never completed (state {:?})", x.st));
        }
        if x.replayable && x.completed != x.active {
            return Err(format!("instruction {id}: completed threads {:#x} != active {:#x}", x.completed, x.active));
        }
    }
    d.set(dut, &WbIn::default());
    dut.eval();
    if d.out(dut, d.io.slot_valid) != 0 || d.out(dut, d.io.fill_free) != n as u64 {
        return Err("drained, but the buffer still holds valid slots".into());
    }
    Ok(st)
}

/// One snapshot of Figure 5.4: pointers, the offer, and (V, R, PAM) per slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub ip: u64,
    pub itp: u64,
    pub fp: u64,
    pub fill_free: u64,
    /// (slot, replay) offered to the scheduler.
    pub offer: Option<(u64, bool)>,
    /// (V, R, PAM) per slot, PAM with thread t at bit t.
    pub slots: [(bool, bool, u64); 4],
}

pub fn snapshot(c: &mut dyn Component, d: &Dut) -> Snapshot {
    d.set(c, &WbIn::default());
    c.eval();
    let v = d.out(c, d.io.slot_valid);
    let r = d.out(c, d.io.slot_rdy);
    let pams = c.get(d.io.slot_pam).to_vec();
    let mut slots = [(false, false, 0); 4];
    for (s, e) in slots.iter_mut().enumerate() {
        *e = (v >> s & 1 != 0, r >> s & 1 != 0, get_field(&pams, s * 4, 4));
    }
    Snapshot {
        ip: d.out(c, d.io.issue_ptr),
        itp: d.out(c, d.io.issue_tail_ptr),
        fp: d.out(c, d.io.fill_ptr),
        fill_free: d.out(c, d.io.fill_free),
        offer: (d.out(c, d.io.offer_valid) != 0).then(|| (d.out(c, d.io.offer_slot), d.out(c, d.io.offer_replay) != 0)),
        slots,
    }
}

/// Threads (listed) as a PAM.
const fn threads(list: &[u32]) -> u64 {
    let mut m = 0;
    let mut k = 0;
    while k < list.len() {
        m |= 1 << list[k];
        k += 1;
    }
    m
}

/// The five snapshots of Figure 5.4, written down from the prose of §5.3 (not computed).
///
/// Reconstruction (the figure itself is missing): 4 slots, 4-wide SIMT, fetch fills
/// aligned pairs. The stream is Z, A, B, C, D, E where Z is the instruction before A
/// (needed because fills come in pairs: (Z, A) into slots 0-1, (B, C) into 2-3, later
/// (D, E) into 0-1 again). Z is a non-replayable instruction issued before the first
/// snapshot. A and C are loads (replayable), B is the branch after which only threads 0
/// and 1 continue. A's first completion covers threads 0 and 1 (the prose says "two of
/// the four"; which two is our choice), C's first completion covers none (an MSHR, COMQ
/// or RSV hazard). Slots are written (V, R, PAM), PAM thread 0 = bit 0 (the figure
/// likely drew thread 0 leftmost).
pub fn figure_5_4_expected() -> [Snapshot; 5] {
    const F: (bool, bool, u64) = (false, false, 0);
    const ALL: u64 = threads(&[0, 1, 2, 3]);
    [
        // 1: "instruction A being issued for the first time ... IP points to it and the
        //    ITP is pointing to the slot behind it." B and C wait; FP needs A's slot.
        Snapshot {
            ip: 1,
            itp: 0,
            fp: 0,
            fill_free: 1,
            offer: Some((1, false)),
            slots: [F, (true, false, 0), (true, false, 0), (true, false, 0)],
        },
        // 2: "C is being issued, and B has already been issued. B ... was immediately
        //    freed. A ... retained ... The IP advanced to C but the ITP was unable to
        //    advance due to A. The FP has not advanced ... requires A's space. A's private
        //    warp mask has been updated ...: all threads were executing together."
        Snapshot {
            ip: 3,
            itp: 0,
            fp: 0,
            fill_free: 1,
            offer: Some((3, false)),
            slots: [F, (true, false, ALL), F, (true, false, 0)],
        },
        // 3: "C's private warp mask has been updated ... only the first two threads."
        //    Nothing is left to offer.
        Snapshot {
            ip: 0,
            itp: 0,
            fp: 0,
            fill_free: 1,
            offer: None,
            slots: [F, (true, false, ALL), F, (true, false, threads(&[0, 1]))],
        },
        // 4: "both A and C have received completion signals ... None of the threads in C
        //    have completed. Only two of the four threads in A ... both instructions were
        //    marked for replay. Being the oldest instruction ready to issue, A is issued."
        Snapshot {
            ip: 0,
            itp: 0,
            fp: 0,
            fill_free: 1,
            offer: Some((1, true)),
            slots: [F, (true, true, threads(&[2, 3])), F, (true, true, threads(&[0, 1]))],
        },
        // 5: "the remaining threads in A have completed ... A was freed. Freeing A allowed
        //    the ITP to advance" (to slot 2, behind C: §5.2.4's definition; the prose's
        //    "after instruction C" contradicts it) "... fill D and E, advancing the FP ...
        //    The IP advances to D. C, being the oldest instruction ready, is selected."
        Snapshot {
            ip: 0,
            itp: 2,
            fp: 2,
            fill_free: 1,
            offer: Some((3, true)),
            slots: [(true, false, 0), (true, false, 0), F, (true, true, threads(&[0, 1]))],
        },
    ]
}

/// Drive the Figure 5.4 walk-through into `dut` (built with `slots = 4`,
/// `simt_width = 4`) and compare the five snapshots with [`figure_5_4_expected`].
pub fn figure_5_4(dut: &mut dyn Component) -> Result<(), String> {
    let d = Dut::of(&WarpBufferParams { slots: 4, simt_width: 4 }, dut)?;
    let exp = figure_5_4_expected();
    let all = threads(&[0, 1, 2, 3]);
    let step = |c: &mut dyn Component, i: WbIn| {
        d.set(c, &i);
        c.step();
    };
    let issue = |replayable: bool, mask: u64| WbIn { issue: true, replayable, mask, ..Default::default() };
    let cpl = |slot: u32, mask: u64| WbIn { cpl_valid: true, cpl_slot: slot, cpl_mask: mask, ..Default::default() };
    let check = |c: &mut dyn Component, k: usize| -> Result<(), String> {
        let got = snapshot(c, &d);
        if got != exp[k] {
            return Err(format!("Figure 5.4 snapshot {}:\n  got      {got:?}\n  expected {:?}", k + 1, exp[k]));
        }
        Ok(())
    };
    step(dut, WbIn { rst: true, ..Default::default() });
    step(dut, WbIn { fill_count: 2, ..Default::default() }); // Z, A -> slots 0, 1
    step(dut, WbIn { fill_count: 2, ..issue(false, all) }); // B, C -> slots 2, 3; Z issues, freed
    check(dut, 0)?;
    step(dut, issue(true, all)); // A: replayable, all four threads
    step(dut, issue(false, all)); // B: the branch, not replayable
    check(dut, 1)?;
    step(dut, issue(true, threads(&[0, 1]))); // C: threads 0 and 1 active
    check(dut, 2)?;
    step(dut, cpl(1, threads(&[0, 1]))); // A: two threads complete (DIV/BANK)
    step(dut, cpl(3, 0)); // C: none (MSHR/COMQ/RSV)
    check(dut, 3)?;
    step(dut, issue(true, 0)); // A replays (replayable/mask ignored for a replay)
    step(dut, cpl(1, threads(&[2, 3]))); // A's remaining threads complete: freed
    step(dut, WbIn { fill_count: 2, ..Default::default() }); // D, E -> slots 0, 1
    check(dut, 4)
}


