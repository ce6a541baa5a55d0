//! Reference model of `warp_buffer` (see `hw::blocks::replay::warp_buffer` for the
//! specification), an independent program-order [`Shadow`] of the same specification, a
//! constrained-random [`WarpBufferDriver`], and property checks that run on any
//! [`Component`] with the block's ports:
//!
//! * [`figure_5_4`]: the thesis's Figure 5.4 walk-through, snapshot by snapshot;
//! * [`check_against_shadow`]: every output on every cycle of a recorded stimulus equals
//!   the program-order shadow's prediction;
//! * [`check_properties`]: closed-loop semantic properties — no slot is lost or issued
//!   after completing, every thread of a replayable instruction completes exactly once,
//!   a replay-ready instruction is offered (oldest first) and the buffer drains.

use super::bits::{get_field, mask, port_ids, put_field};
use crate::stimulus::{Driver, Frame, InputLayout, Slot, Stimulus};
use hw::blocks::replay::warp_buffer::{WarpBufferParams, NAME};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use hw::params::BlockParams;
use sim::{Component, ComponentExt, PortFrame, PortId, PortSpec};
use std::collections::VecDeque;
use std::sync::Arc;

/// Input port names, in port order.
pub const INPUTS: [&str; 8] =
    ["rst", "fill_count", "issue", "issue_replayable", "issue_mask", "cpl_valid", "cpl_slot", "cpl_mask"];
/// Output port names, in port order.
pub const OUTPUTS: [&str; 12] = [
    "offer_valid",
    "offer_slot",
    "offer_replay",
    "offer_pam",
    "fill_free",
    "fill_ptr",
    "issue_ptr",
    "issue_tail_ptr",
    "cpl_accept",
    "slot_valid",
    "slot_rdy",
    "slot_pam",
];

/// The block's ports, inputs then outputs.
pub fn ports(p: &WarpBufferParams) -> Vec<PortSpec> {
    let (s, c, w, n) = (p.slot_bits(), p.count_bits(), p.simt_width, p.slots);
    vec![
        PortSpec::input("rst", 1),
        PortSpec::input("fill_count", c),
        PortSpec::input("issue", 1),
        PortSpec::input("issue_replayable", 1),
        PortSpec::input("issue_mask", w),
        PortSpec::input("cpl_valid", 1),
        PortSpec::input("cpl_slot", s),
        PortSpec::input("cpl_mask", w),
        PortSpec::output("offer_valid", 1),
        PortSpec::output("offer_slot", s),
        PortSpec::output("offer_replay", 1),
        PortSpec::output("offer_pam", w),
        PortSpec::output("fill_free", c),
        PortSpec::output("fill_ptr", s),
        PortSpec::output("issue_ptr", s),
        PortSpec::output("issue_tail_ptr", s),
        PortSpec::output("cpl_accept", 1),
        PortSpec::output("slot_valid", n),
        PortSpec::output("slot_rdy", n),
        PortSpec::output("slot_pam", n * w),
    ]
}

/// One cycle of inputs, decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WbIn {
    pub rst: bool,
    pub fill_count: u32,
    pub issue: bool,
    pub replayable: bool,
    pub mask: u64,
    pub cpl_valid: bool,
    pub cpl_slot: u32,
    pub cpl_mask: u64,
}

impl WbIn {
    /// Values as words, in `INPUTS` order.
    pub fn values(&self) -> [u64; 8] {
        [
            self.rst as u64,
            self.fill_count as u64,
            self.issue as u64,
            self.replayable as u64,
            self.mask,
            self.cpl_valid as u64,
            self.cpl_slot as u64,
            self.cpl_mask,
        ]
    }

    /// Decode from input values in `INPUTS` order (already masked to the port widths).
    pub fn from_values(v: &[u64; 8]) -> Self {
        WbIn {
            rst: v[0] & 1 != 0,
            fill_count: v[1] as u32,
            issue: v[2] & 1 != 0,
            replayable: v[3] & 1 != 0,
            mask: v[4],
            cpl_valid: v[5] & 1 != 0,
            cpl_slot: v[6] as u32,
            cpl_mask: v[7],
        }
    }
}

struct Ids {
    rst: PortId,
    fill_count: PortId,
    issue: PortId,
    issue_replayable: PortId,
    issue_mask: PortId,
    cpl_valid: PortId,
    cpl_slot: PortId,
    cpl_mask: PortId,
    offer_valid: PortId,
    offer_slot: PortId,
    offer_replay: PortId,
    offer_pam: PortId,
    fill_free: PortId,
    fill_ptr: PortId,
    issue_ptr: PortId,
    issue_tail_ptr: PortId,
    cpl_accept: PortId,
    slot_valid: PortId,
    slot_rdy: PortId,
    slot_pam: PortId,
}

/// The reference model: registers exactly as the specification lists them.
pub struct WarpBuffer {
    p: WarpBufferParams,
    io: PortFrame,
    id: Ids,
    valid: Vec<bool>,
    rdy: Vec<bool>,
    pam: Vec<u64>,
    /// Pointer registers: positions modulo 2N (slot = low bits, plus a wrap bit).
    ip: u32,
    fp: u32,
    itp: u32,
    scratch: Vec<u64>,
}

impl WarpBuffer {
    pub fn new(p: &WarpBufferParams) -> Self {
        let io = PortFrame::new(ports(p));
        let id = Ids {
            rst: io.id("rst"),
            fill_count: io.id("fill_count"),
            issue: io.id("issue"),
            issue_replayable: io.id("issue_replayable"),
            issue_mask: io.id("issue_mask"),
            cpl_valid: io.id("cpl_valid"),
            cpl_slot: io.id("cpl_slot"),
            cpl_mask: io.id("cpl_mask"),
            offer_valid: io.id("offer_valid"),
            offer_slot: io.id("offer_slot"),
            offer_replay: io.id("offer_replay"),
            offer_pam: io.id("offer_pam"),
            fill_free: io.id("fill_free"),
            fill_ptr: io.id("fill_ptr"),
            issue_ptr: io.id("issue_ptr"),
            issue_tail_ptr: io.id("issue_tail_ptr"),
            cpl_accept: io.id("cpl_accept"),
            slot_valid: io.id("slot_valid"),
            slot_rdy: io.id("slot_rdy"),
            slot_pam: io.id("slot_pam"),
        };
        let n = p.slots as usize;
        let words = (n * p.simt_width as usize).div_ceil(64).max(1);
        let mut m = WarpBuffer {
            p: p.clone(),
            io,
            id,
            valid: vec![false; n],
            rdy: vec![false; n],
            pam: vec![0; n],
            ip: 0,
            fp: 0,
            itp: 0,
            scratch: vec![0; words],
        };
        m.reset();
        m
    }

    fn reset(&mut self) {
        self.valid.fill(false);
        self.rdy.fill(false);
        self.pam.fill(0);
        self.ip = 0;
        self.fp = 0;
        self.itp = 2 * self.p.slots - 1;
    }

    fn n(&self) -> u32 {
        self.p.slots
    }

    /// `to - from` modulo 2N.
    fn dist(&self, from: u32, to: u32) -> u32 {
        let n2 = 2 * self.n();
        (to + n2 - from) % n2
    }

    /// TP = ITP + 1: the oldest retained instruction, or IP.
    fn tp(&self) -> u32 {
        (self.itp + 1) % (2 * self.n())
    }

    fn fill_free(&self) -> u32 {
        self.n() - self.dist(self.tp(), self.fp)
    }

    /// (valid, slot, replay): oldest replay-ready slot from TP, else the slot at IP.
    fn offer(&self) -> (bool, u32, bool) {
        let n = self.n();
        let tp = self.tp();
        for k in 0..n {
            let s = (tp + k) % n;
            if self.rdy[s as usize] {
                return (true, s, true);
            }
        }
        if self.dist(self.ip, self.fp) > 0 {
            (true, self.ip % n, false)
        } else {
            (false, 0, false)
        }
    }

    /// The completion targets an in-flight slot: valid, not waiting for replay, issued.
    fn accepts(&self, cpl_valid: bool, s: u32) -> bool {
        let n = self.n();
        if !cpl_valid || s >= n {
            return false;
        }
        let tp = self.tp();
        let issued = self.dist(tp, self.ip);
        let offset = (s + n - tp % n) % n;
        self.valid[s as usize] && !self.rdy[s as usize] && offset < issued
    }

    fn inputs(&self) -> WbIn {
        let g = |id| self.io.get_u64(id);
        WbIn {
            rst: g(self.id.rst) & 1 != 0,
            fill_count: g(self.id.fill_count) as u32,
            issue: g(self.id.issue) & 1 != 0,
            replayable: g(self.id.issue_replayable) & 1 != 0,
            mask: g(self.id.issue_mask),
            cpl_valid: g(self.id.cpl_valid) & 1 != 0,
            cpl_slot: g(self.id.cpl_slot) as u32,
            cpl_mask: g(self.id.cpl_mask),
        }
    }
}

impl Component for WarpBuffer {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(io);

    fn eval(&mut self) {
        let i = self.inputs();
        let n = self.n();
        let (ov, os, orep) = self.offer();
        let pam = if ov { self.pam[os as usize] } else { 0 };
        let accept = self.accepts(i.cpl_valid, i.cpl_slot);
        let free = self.fill_free();
        let (fp, ip, itp) = (self.fp % n, self.ip % n, self.itp % n);
        let mut sv = 0u64;
        let mut sr = 0u64;
        for s in 0..n as usize {
            sv |= (self.valid[s] as u64) << s;
            sr |= (self.rdy[s] as u64) << s;
        }
        let w = self.p.simt_width;
        self.scratch.fill(0);
        for s in 0..n as usize {
            put_field(&mut self.scratch, s * w as usize, w, self.pam[s]);
        }
        let id = &self.id;
        let io = &mut self.io;
        io.set_bool(id.offer_valid, ov);
        io.set_u64(id.offer_slot, os as u64);
        io.set_bool(id.offer_replay, orep);
        io.set_u64(id.offer_pam, pam);
        io.set_u64(id.fill_free, free as u64);
        io.set_u64(id.fill_ptr, fp as u64);
        io.set_u64(id.issue_ptr, ip as u64);
        io.set_u64(id.issue_tail_ptr, itp as u64);
        io.set_bool(id.cpl_accept, accept);
        io.set_u64(id.slot_valid, sv);
        io.set_u64(id.slot_rdy, sr);
        io.set(id.slot_pam, &self.scratch);
    }

    fn tick(&mut self) {
        let i = self.inputs();
        if i.rst {
            self.reset();
            return;
        }
        let n = self.n();
        let n2 = 2 * n;
        let wmask = mask(self.p.simt_width);
        let (ov, os, orep) = self.offer();
        let free = self.fill_free();
        let tp = self.tp();
        // Completion from the memory-stage checkpoint.
        if self.accepts(i.cpl_valid, i.cpl_slot) {
            let s = i.cpl_slot as usize;
            let rem = self.pam[s] & !i.cpl_mask;
            self.pam[s] = rem;
            if rem == 0 {
                self.valid[s] = false;
                self.rdy[s] = false;
            } else {
                self.rdy[s] = true;
            }
        }
        // Issue of the offered instruction.
        let mut ip = self.ip;
        if i.issue && ov {
            let s = os as usize;
            if orep {
                self.rdy[s] = false;
            } else {
                if i.replayable {
                    self.pam[s] = i.mask & wmask;
                } else {
                    self.valid[s] = false;
                    self.pam[s] = 0;
                }
                ip = (ip + 1) % n2;
            }
        }
        // Fill at FP, never past ITP.
        if i.fill_count > 0 && i.fill_count <= free {
            for k in 0..i.fill_count {
                self.valid[((self.fp + k) % n) as usize] = true;
            }
            self.fp = (self.fp + i.fill_count) % n2;
        }
        // Tail: first valid position in TP ..< IP', else IP'.
        let mut tp_new = ip;
        for k in 0..self.dist(tp, ip) {
            let pos = (tp + k) % n2;
            if self.valid[(pos % n) as usize] {
                tp_new = pos;
                break;
            }
        }
        self.ip = ip;
        self.itp = (tp_new + n2 - 1) % n2;
    }
}

// ---------------------------------------------------------------------------------------
// Program-order shadow: the same specification seen as a window of instructions.
// ---------------------------------------------------------------------------------------

/// State of an instruction in the shadow's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryState {
    Unissued,
    InFlight,
    Ready,
    Done,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    slot: u32,
    st: EntryState,
    pam: u64,
}

/// The offer as the shadow predicts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub valid: bool,
    pub slot: u32,
    pub replay: bool,
    pub pam: u64,
}

/// The warp buffer as a program-ordered window of instructions, from the oldest one not
/// done (retained or unissued) to the newest filled; done instructions inside the window
/// are holes. No pointers: the window's length is the space it occupies.
#[derive(Clone, Debug)]
pub struct Shadow {
    n: u32,
    wmask: u64,
    win: VecDeque<Entry>,
    next_fill: u32,
}

impl Shadow {
    pub fn new(p: &WarpBufferParams) -> Self {
        Shadow { n: p.slots, wmask: mask(p.simt_width), win: VecDeque::with_capacity(p.slots as usize), next_fill: 0 }
    }

    pub fn reset(&mut self) {
        self.win.clear();
        self.next_fill = 0;
    }

    pub fn fill_free(&self) -> u32 {
        self.n - self.win.len() as u32
    }

    pub fn fill_ptr(&self) -> u32 {
        self.next_fill
    }

    pub fn issue_ptr(&self) -> u32 {
        self.win.iter().find(|e| e.st == EntryState::Unissued).map(|e| e.slot).unwrap_or(self.next_fill)
    }

    pub fn issue_tail_ptr(&self) -> u32 {
        let tp = self.win.front().map(|e| e.slot).unwrap_or(self.next_fill);
        (tp + self.n - 1) % self.n
    }

    pub fn offer(&self) -> Offer {
        if let Some(e) = self.win.iter().find(|e| e.st == EntryState::Ready) {
            return Offer { valid: true, slot: e.slot, replay: true, pam: e.pam };
        }
        if let Some(e) = self.win.iter().find(|e| e.st == EntryState::Unissued) {
            return Offer { valid: true, slot: e.slot, replay: false, pam: 0 };
        }
        Offer { valid: false, slot: 0, replay: false, pam: 0 }
    }

    fn entry(&self, slot: u32) -> Option<&Entry> {
        self.win.iter().find(|e| e.slot == slot && e.st != EntryState::Done)
    }

    /// (V, R, PAM) of a slot.
    pub fn slot(&self, slot: u32) -> (bool, bool, u64) {
        match self.entry(slot) {
            Some(e) => (true, e.st == EntryState::Ready, e.pam),
            None => (false, false, 0),
        }
    }

    pub fn accepts(&self, cpl_valid: bool, slot: u32) -> bool {
        cpl_valid && self.entry(slot).is_some_and(|e| e.st == EntryState::InFlight)
    }

    /// Slots of instructions in flight (completions are legal for them).
    pub fn in_flight(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.win.iter().filter(|e| e.st == EntryState::InFlight).map(|e| (e.slot, e.pam))
    }

    /// Apply one clock edge with these inputs.
    pub fn step(&mut self, i: &WbIn) {
        if i.rst {
            self.reset();
            return;
        }
        let offer = self.offer();
        let free = self.fill_free();
        if self.accepts(i.cpl_valid, i.cpl_slot) {
            let e = self.win.iter_mut().find(|e| e.slot == i.cpl_slot && e.st == EntryState::InFlight).unwrap();
            e.pam &= !i.cpl_mask;
            e.st = if e.pam == 0 { EntryState::Done } else { EntryState::Ready };
        }
        if i.issue && offer.valid {
            let want = if offer.replay { EntryState::Ready } else { EntryState::Unissued };
            let e = self.win.iter_mut().find(|e| e.slot == offer.slot && e.st == want).unwrap();
            if offer.replay {
                e.st = EntryState::InFlight;
            } else if i.replayable {
                e.st = EntryState::InFlight;
                e.pam = i.mask & self.wmask;
            } else {
                e.st = EntryState::Done;
            }
        }
        if i.fill_count > 0 && i.fill_count <= free {
            for _ in 0..i.fill_count {
                self.win.push_back(Entry { slot: self.next_fill, st: EntryState::Unissued, pam: 0 });
                self.next_fill = (self.next_fill + 1) % self.n;
            }
        }
        while self.win.front().is_some_and(|e| e.st == EntryState::Done) {
            self.win.pop_front();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Constrained-random driver.
// ---------------------------------------------------------------------------------------

/// Legal fill / issue / completion traffic chosen from a private [`Shadow`], with phases of
/// different rates (so the buffer runs full, empty and fully wrapped), occasional illegal
/// commands (which the specification ignores) and occasional resets.
pub struct WarpBufferDriver {
    layout: Arc<InputLayout>,
    slots: [Slot; 8],
    shadow: Shadow,
    rng: ChaCha8Rng,
    p: WarpBufferParams,
    cycle: u64,
    p_fill: f64,
    p_issue: f64,
    p_cpl: f64,
}

impl WarpBufferDriver {
    pub fn new(p: &WarpBufferParams, seed: u64) -> Self {
        let layout = InputLayout::of(&ports(p));
        let slots = INPUTS.map(|n| layout.expect(n));
        WarpBufferDriver {
            layout,
            slots,
            shadow: Shadow::new(p),
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
            };
        }
        let mut i = WbIn::default();
        let free = self.shadow.fill_free();
        let max_count = (1u32 << self.p.count_bits()) - 1;
        if self.rng.random_bool(self.p_fill) {
            i.fill_count = match self.rng.random_range(0..20) {
                0..=14 if free >= 2 => 2,
                15..=17 if free >= 1 => self.rng.random_range(1..=free),
                18 => self.rng.random_range(0..=max_count), // possibly too many: ignored
                _ => 0,
            };
        }
        let offer = self.shadow.offer();
        if (offer.valid && self.rng.random_bool(self.p_issue)) || self.rng.random_bool(0.02) {
            i.issue = true;
            i.replayable = self.rng.random_bool(0.6);
            i.mask = self.random_mask();
        }
        if self.rng.random_bool(self.p_cpl) {
            let k = self.shadow.in_flight().count();
            if k > 0 {
                let pick = self.rng.random_range(0..k);
                let (slot, pam) = self.shadow.in_flight().nth(pick).unwrap();
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
        for (k, v) in i.values().iter().enumerate() {
            frame.set(self.slots[k], *v);
        }
        self.shadow.step(&i);
    }
}

// ---------------------------------------------------------------------------------------
// Checks that run on any engine.
// ---------------------------------------------------------------------------------------

struct Dut {
    i: [PortId; 8],
    o: [PortId; 12],
}

impl Dut {
    fn of(c: &dyn Component) -> Result<Self, String> {
        Ok(Dut { i: port_ids(c, INPUTS)?, o: port_ids(c, OUTPUTS)? })
    }
    fn set(&self, c: &mut dyn Component, i: &WbIn) {
        for (k, v) in i.values().iter().enumerate() {
            c.set_u64(self.i[k], *v);
        }
    }
    fn out(&self, c: &dyn Component, name: usize) -> u64 {
        c.get_u64(self.o[name])
    }
}

const O_OFFER_VALID: usize = 0;
const O_OFFER_SLOT: usize = 1;
const O_OFFER_REPLAY: usize = 2;
const O_OFFER_PAM: usize = 3;
const O_FILL_FREE: usize = 4;
const O_FILL_PTR: usize = 5;
const O_ISSUE_PTR: usize = 6;
const O_ITP: usize = 7;
const O_CPL_ACCEPT: usize = 8;
const O_SLOT_VALID: usize = 9;
const O_SLOT_RDY: usize = 10;
const O_SLOT_PAM: usize = 11;

/// Compare every output with the shadow's prediction (after `eval`).
fn compare(c: &dyn Component, d: &Dut, sh: &Shadow, i: &WbIn, p: &WarpBufferParams) -> Result<(), String> {
    let off = sh.offer();
    let mut want = vec![
        ("offer_valid", off.valid as u64),
        ("offer_slot", off.slot as u64),
        ("offer_replay", off.replay as u64),
        ("offer_pam", off.pam),
        ("fill_free", sh.fill_free() as u64),
        ("fill_ptr", sh.fill_ptr() as u64),
        ("issue_ptr", sh.issue_ptr() as u64),
        ("issue_tail_ptr", sh.issue_tail_ptr() as u64),
        ("cpl_accept", sh.accepts(i.cpl_valid, i.cpl_slot) as u64),
    ];
    let (mut sv, mut sr) = (0u64, 0u64);
    for s in 0..p.slots {
        let (v, r, _) = sh.slot(s);
        sv |= (v as u64) << s;
        sr |= (r as u64) << s;
    }
    want.push(("slot_valid", sv));
    want.push(("slot_rdy", sr));
    for (k, (name, v)) in want.iter().enumerate() {
        let got = d.out(c, k);
        if got != *v {
            return Err(format!("{name} = {got:#x}, expected {v:#x}"));
        }
    }
    let pams = c.get(d.o[O_SLOT_PAM]);
    let w = p.simt_width;
    for s in 0..p.slots {
        let got = get_field(pams, (s * w) as usize, w);
        let exp = sh.slot(s).2;
        if got != exp {
            return Err(format!("slot_pam[{s}] = {got:#x}, expected {exp:#x}"));
        }
    }
    Ok(())
}

/// Run a recorded stimulus through `dut` and the program-order shadow; every output must
/// agree on every cycle.
pub fn check_against_shadow(dut: &mut dyn Component, p: &WarpBufferParams, stim: &Stimulus) -> Result<(), String> {
    let d = Dut::of(dut)?;
    let layout = stim.layout();
    let slots = INPUTS.map(|n| layout.expect(n));
    let mut sh = Shadow::new(p);
    for c in 0..stim.cycles() {
        let words = stim.cycle(c);
        let mut v = [0u64; 8];
        for (k, s) in slots.iter().enumerate() {
            v[k] = words[layout.range(*s).start];
        }
        let i = WbIn::from_values(&v);
        d.set(dut, &i);
        dut.eval();
        compare(dut, &d, &sh, &i, p).map_err(|e| format!("cycle {c}: {e} (inputs {i:?})"))?;
        dut.tick();
        sh.step(&i);
    }
    Ok(())
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
}

/// Closed-loop semantic properties on `dut` (a warp buffer with parameters `p`), over
/// `cycles` cycles of random traffic driven from the DUT's own outputs, then a drain:
/// * no slot is lost: instructions are first-issued exactly once each, in program order,
///   and a fill never lands on a live slot;
/// * no instruction is issued after completing, and the mask of every replay is exactly
///   the threads not yet completed, so every thread of a replayable instruction completes
///   exactly once;
/// * forward progress: whenever an instruction is ready to replay, the oldest such one is
///   offered; with completions arriving, everything drains.
pub fn check_properties(dut: &mut dyn Component, p: &WarpBufferParams, seed: u64, cycles: u64) -> Result<PropStats, String> {
    let d = Dut::of(dut)?;
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
        let ov = d.out(dut, O_OFFER_VALID) != 0;
        let os = d.out(dut, O_OFFER_SLOT) as u32;
        let orep = d.out(dut, O_OFFER_REPLAY) != 0;
        let opam = d.out(dut, O_OFFER_PAM);
        let free = d.out(dut, O_FILL_FREE) as u32;
        let fptr = d.out(dut, O_FILL_PTR) as u32;
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
            issued = Some((id, orep));
        }
        // Fill two at a time.
        let mut filled = 0;
        if !draining && free >= 2 && rng.random_bool(p_fill) {
            inp.fill_count = 2;
            filled = 2;
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
        if cpl.is_some() && d.out(dut, O_CPL_ACCEPT) == 0 {
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
    if d.out(dut, O_SLOT_VALID) != 0 || d.out(dut, O_FILL_FREE) != n as u64 {
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

fn snapshot(c: &mut dyn Component, d: &Dut) -> Snapshot {
    d.set(c, &WbIn::default());
    c.eval();
    let v = d.out(c, O_SLOT_VALID);
    let r = d.out(c, O_SLOT_RDY);
    let pams = c.get(d.o[O_SLOT_PAM]).to_vec();
    let mut slots = [(false, false, 0); 4];
    for (s, e) in slots.iter_mut().enumerate() {
        *e = (v >> s & 1 != 0, r >> s & 1 != 0, get_field(&pams, s * 4, 4));
    }
    Snapshot {
        ip: d.out(c, O_ISSUE_PTR),
        itp: d.out(c, O_ITP),
        fp: d.out(c, O_FILL_PTR),
        fill_free: d.out(c, O_FILL_FREE),
        offer: (d.out(c, O_OFFER_VALID) != 0).then(|| (d.out(c, O_OFFER_SLOT), d.out(c, O_OFFER_REPLAY) != 0)),
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
    let d = Dut::of(dut)?;
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


/// Registry entry: the reference model and the driver for any parameter set.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: NAME,
    model: |p| Ok(Box::new(WarpBuffer::new(&WarpBufferParams::from_params(p)?))),
    driver: |p, seed| Ok(Box::new(WarpBufferDriver::new(&WarpBufferParams::from_params(p)?, seed))),
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn wb(slots: u32, simt_width: u32) -> (WarpBufferParams, WarpBuffer) {
        let p = WarpBufferParams { slots, simt_width };
        let m = WarpBuffer::new(&p);
        (p, m)
    }

    #[test]
    fn figure_5_4_golden() {
        let (_, mut m) = wb(4, 4);
        figure_5_4(&mut m).unwrap();
    }

    #[test]
    fn ports_match_spec_widths() {
        let p = WarpBufferParams::default();
        let ps = ports(&p);
        let w = |n: &str| ps.iter().find(|x| x.name == n).unwrap().width;
        assert_eq!(ps[0].name, "rst");
        assert_eq!((w("fill_count"), w("cpl_slot"), w("issue_mask"), w("slot_pam")), (4, 3, 32, 256));
        assert_eq!(ps.iter().filter(|x| x.dir == sim::Dir::In).count(), INPUTS.len());
    }

    /// All slots issued with the oldest retained at IP: IP == FP == ITP + 1, the state
    /// the wrap bits exist for.
    #[test]
    fn fully_issued_ring_is_full_not_empty() {
        let (_, mut m) = wb(4, 4);
        let d = Dut::of(&m).unwrap();
        let go = |m: &mut WarpBuffer, i: WbIn| {
            d.set(m, &i);
            m.step();
        };
        go(&mut m, WbIn { rst: true, ..Default::default() });
        go(&mut m, WbIn { fill_count: 2, ..Default::default() });
        go(&mut m, WbIn { fill_count: 2, ..Default::default() });
        let s = snapshot(&mut m, &d);
        assert_eq!((s.fill_free, s.offer, s.ip, s.fp, s.itp), (0, Some((0, false)), 0, 0, 3));
        go(&mut m, WbIn { issue: true, replayable: true, mask: 0xf, ..Default::default() });
        for _ in 0..3 {
            go(&mut m, WbIn { issue: true, replayable: false, mask: 0xf, ..Default::default() });
        }
        let s = snapshot(&mut m, &d);
        assert_eq!((s.fill_free, s.offer, s.ip, s.fp, s.itp), (0, None, 0, 0, 3));
        assert_eq!(s.slots[0], (true, false, 0xf));
        // A fill now would pass the tail: ignored.
        go(&mut m, WbIn { fill_count: 1, ..Default::default() });
        assert_eq!(snapshot(&mut m, &d).slots[1], (false, false, 0));
        // Completing the one retained load empties the ring.
        d.set(&mut m, &WbIn { cpl_valid: true, cpl_slot: 0, cpl_mask: 0xf, ..Default::default() });
        m.eval();
        assert_eq!(m.get_u64(d.o[O_CPL_ACCEPT]), 1);
        m.tick();
        let s = snapshot(&mut m, &d);
        assert_eq!((s.fill_free, s.offer, s.itp), (4, None, 3));
    }

    #[test]
    fn illegal_completions_are_ignored() {
        let (_, mut m) = wb(4, 4);
        let d = Dut::of(&m).unwrap();
        d.set(&mut m, &WbIn { rst: true, ..Default::default() });
        m.step();
        d.set(&mut m, &WbIn { fill_count: 2, ..Default::default() });
        m.step();
        // Slot 0 is unissued, slot 2 free: completions for them do nothing.
        for slot in [0, 2] {
            d.set(&mut m, &WbIn { cpl_valid: true, cpl_slot: slot, cpl_mask: 0xf, ..Default::default() });
            m.eval();
            assert_eq!(m.get_u64(d.o[O_CPL_ACCEPT]), 0);
            m.tick();
        }
        let s = snapshot(&mut m, &d);
        assert_eq!(s.slots[0], (true, false, 0));
        assert_eq!(s.offer, Some((0, false)));
    }

    #[test]
    fn driver_stimulus_matches_shadow_at_defaults() {
        let p = WarpBufferParams::default();
        let mut drv = WarpBufferDriver::new(&p, 7);
        let stim = Stimulus::record(&mut drv, 20_000);
        let mut m = WarpBuffer::new(&p);
        check_against_shadow(&mut m, &p, &stim).unwrap();
    }

    #[test]
    fn properties_at_defaults() {
        let p = WarpBufferParams::default();
        let mut m = WarpBuffer::new(&p);
        let st = check_properties(&mut m, &p, 1, 20_000).unwrap();
        assert!(st.replays > 1000 && st.full_cycles > 100 && st.first_issues > 3000, "{st:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn model_matches_shadow(seed in any::<u64>(), log in 1u32..=5, width in 1u32..=64) {
            let p = WarpBufferParams { slots: 1 << log, simt_width: width };
            let mut drv = WarpBufferDriver::new(&p, seed);
            let stim = Stimulus::record(&mut drv, 3000);
            let mut m = WarpBuffer::new(&p);
            prop_assert_eq!(check_against_shadow(&mut m, &p, &stim), Ok(()));
        }

        #[test]
        fn semantic_properties(seed in any::<u64>(), log in 1u32..=5, width in 1u32..=64) {
            let p = WarpBufferParams { slots: 1 << log, simt_width: width };
            let mut m = WarpBuffer::new(&p);
            prop_assert!(check_properties(&mut m, &p, seed, 3000).is_ok());
        }
    }
}
