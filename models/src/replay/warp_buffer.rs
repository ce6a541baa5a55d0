//! Reference model of `warp_buffer` (see `hw::blocks::replay::warp_buffer` for the
//! specification): the registers exactly as the specification lists them.

use crate::bits::{mask, put_field};
use crate::Reference;
use hw::blocks::replay::warp_buffer::{WarpBufferIo, WarpBufferParams, NAME};
use sim::{Bind, Component, PortFrame, PortId};

/// One cycle of the warp buffer's inputs, decoded (also what drivers and
/// checkers build and read).
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
    pub flush: bool,
}

impl WbIn {
    /// Read the inputs through `get` (a frame, a component, a recorded cycle).
    pub fn read(io: &WarpBufferIo<PortId>, get: impl Fn(PortId) -> u64) -> Self {
        WbIn {
            rst: get(io.rst) & 1 != 0,
            fill_count: get(io.fill_count) as u32,
            issue: get(io.issue) & 1 != 0,
            replayable: get(io.issue_replayable) & 1 != 0,
            mask: get(io.issue_mask),
            cpl_valid: get(io.cpl_valid) & 1 != 0,
            cpl_slot: get(io.cpl_slot) as u32,
            cpl_mask: get(io.cpl_mask),
            flush: get(io.flush) & 1 != 0,
        }
    }

    /// Write every input through `set`.
    pub fn write(&self, io: &WarpBufferIo<PortId>, mut set: impl FnMut(PortId, u64)) {
        set(io.rst, self.rst as u64);
        set(io.fill_count, self.fill_count as u64);
        set(io.issue, self.issue as u64);
        set(io.issue_replayable, self.replayable as u64);
        set(io.issue_mask, self.mask);
        set(io.cpl_valid, self.cpl_valid as u64);
        set(io.cpl_slot, self.cpl_slot as u64);
        set(io.cpl_mask, self.cpl_mask);
        set(io.flush, self.flush as u64);
    }
}

/// The reference model: registers exactly as the specification lists them.
pub struct WarpBuffer {
    p: WarpBufferParams,
    frame: PortFrame,
    io: WarpBufferIo<PortId>,
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
        let n = p.slots as usize;
        let words = (n * p.simt_width as usize).div_ceil(64).max(1);
        let mut m = WarpBuffer {
            p: p.clone(),
            frame: p.frame(),
            io: p.ids(),
            valid: vec![false; n],
            rdy: vec![false; n],
            pam: vec![0; n],
            ip: 0,
            fp: 0,
            itp: 0,
            scratch: vec![0; words],
        };
        m.reset();
        m.publish();
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

    /// Slots fetch may fill now (the `fill_free` output).
    pub fn fill_free(&self) -> u32 {
        self.n() - self.dist(self.tp(), self.fp)
    }

    /// (valid, slot, replay): oldest replay-ready slot from TP, else the slot at IP.
    pub fn offer(&self) -> (bool, u32, bool) {
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

    /// Slots whose instruction is in flight (a completion for them is legal),
    /// with their private active masks: what a memory stage may complete.
    pub fn in_flight(&self) -> Vec<(u32, u64)> {
        (0..self.n()).filter(|&s| self.accepts(true, s)).map(|s| (s, self.pam[s as usize])).collect()
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
        WbIn::read(&self.io, |id| self.frame.get_u64(id))
    }
}

impl Component for WarpBuffer {
    fn name(&self) -> &str {
        NAME
    }
    sim::frame_ports!(frame);

    fn eval(&mut self) {
        // Every other output depends on the registers only (`publish`).
        let i = self.inputs();
        let accept = self.accepts(i.cpl_valid, i.cpl_slot);
        self.frame.set_bool(self.io.cpl_accept, accept);
    }

    fn tick(&mut self) {
        self.clock();
        self.publish();
    }
}

impl WarpBuffer {
    /// The outputs that depend on the registers only, after every change of them.
    fn publish(&mut self) {
        let n = self.n();
        let (ov, os, orep) = self.offer();
        let pam = if ov { self.pam[os as usize] } else { 0 };
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
        let id = &self.io;
        let io = &mut self.frame;
        io.set_bool(id.offer_valid, ov);
        io.set_u64(id.offer_slot, os as u64);
        io.set_bool(id.offer_replay, orep);
        io.set_u64(id.offer_pam, pam);
        io.set_u64(id.fill_free, free as u64);
        io.set_u64(id.fill_ptr, fp as u64);
        io.set_u64(id.issue_ptr, ip as u64);
        io.set_u64(id.issue_tail_ptr, itp as u64);
        io.set_u64(id.slot_valid, sv);
        io.set_u64(id.slot_rdy, sr);
        io.set(id.slot_pam, &self.scratch);
    }

    fn clock(&mut self) {
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
        // Flush the unissued IP' .. FP (a fill is ignored), or fill at FP, never past ITP.
        if i.flush {
            for k in 0..self.dist(ip, self.fp) {
                self.valid[((ip + k) % n) as usize] = false;
            }
            self.fp = ip;
        } else if i.fill_count > 0 && i.fill_count <= free {
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

impl Reference for WarpBufferParams {
    type Model = WarpBuffer;
    fn model(&self) -> WarpBuffer {
        WarpBuffer::new(self)
    }
}
