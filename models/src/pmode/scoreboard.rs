//! Reference model of the dual-mode scoreboard
//! (`hw::blocks::pmode::scoreboard`; Warped-Preexecution, HPCA 2016,
//! section 4), written from the block's port specification.

use super::PortFeeds;
use crate::Reference;
use hw::blocks::pmode::scoreboard::{ScoreboardIo, ScoreboardParams};
use sim::{Bind, Component, PortFrame, PortId};

/// One register array: bit `warp * regs + reg`, little-endian words.
#[derive(Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(bits: usize) -> Bits {
        Bits(vec![0; bits.div_ceil(64)])
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize, v: bool) {
        let (w, b) = (i / 64, i % 64);
        self.0[w] = self.0[w] & !(1 << b) | (v as u64) << b;
    }
}

/// Boards: index `[board][array]`, board 0 = N, 1 = P; array 0 = pending,
/// 1 = long; bit `warp * regs + reg`.
pub struct ScoreboardModel {
    p: ScoreboardParams,
    pub(crate) frame: PortFrame,
    io: std::sync::Arc<ScoreboardIo<PortId>>,
    boards: [[Bits; 2]; 2],
    /// The issue port whose answers an input feeds (the writebacks and the
    /// rest feed every port's); the ports whose inputs changed, or whose
    /// boards ticked, since their last `eval` (the others' answers stand).
    pub(crate) feeds: PortFeeds,
    /// The issue ports the last `eval` computed (bit k; the others'
    /// outputs are as they were).
    pub(crate) evaluated: u64,
}

/// Bit index of (warp, reg), if both are in range.
fn at(p: &ScoreboardParams, warp: u64, reg: u64) -> Option<usize> {
    (warp < p.warps as u64 && reg < p.regs as u64).then(|| (warp * p.regs as u64 + reg) as usize)
}

impl ScoreboardModel {
    pub fn new(p: &ScoreboardParams) -> Self {
        let bits = (p.warps * p.regs) as usize;
        let empty = || Bits::new(bits);
        let (frame, io) = (p.frame(), p.ids());
        let mut feeds = PortFeeds::new(&frame, PortFeeds::ALL);
        for (k, ip) in io.iss.iter().enumerate() {
            for id in [ip.warp, ip.pmode, ip.fire, ip.long, ip.skip].into_iter().chain(ip.src.iter().chain(&ip.dst).flat_map(|o| [o.reg, o.vld])) {
                feeds.feed(id, k);
            }
        }
        ScoreboardModel { p: p.clone(), frame, io: sim::shared::shared(io), boards: [[empty(), empty()], [empty(), empty()]], feeds, evaluated: 0 }
    }

    /// Set an input; whether its value changed.
    pub(crate) fn set_changed(&mut self, port: PortId, value: &[u64]) -> bool {
        self.feeds.set(&mut self.frame, port, value)
    }

    /// Pending/long bits of one register (for tests).
    pub fn bits(&self, pmode: bool, warp: u32, reg: u32) -> (bool, bool) {
        let b = pmode as usize;
        match at(&self.p, warp as u64, reg as u64) {
            Some(i) => (self.boards[b][0].get(i), self.boards[b][1].get(i)),
            None => (false, false),
        }
    }
}

impl Component for ScoreboardModel {
    fn name(&self) -> &str {
        "scoreboard"
    }
    sim::frame_ports!(frame, set_changed);

    fn eval(&mut self) {
        let dirty = self.feeds.take();
        self.evaluated = dirty;
        if dirty == 0 {
            return;
        }
        // This cycle's writebacks (the same-cycle bypass): warp, register,
        // the boards they clear (bit 0: N, bit 1: P).
        let mut wbs = [(0u64, 0u64, 0u8); 8];
        let mut n = 0;
        for wb in &self.io.wb {
            let f = &self.frame;
            if f.get_bool(wb.en) {
                wbs[n] = (f.get_u64(wb.warp), f.get_u64(wb.reg), f.get_bool(wb.n) as u8 | (f.get_bool(wb.p) as u8) << 1);
                n += 1;
            }
        }
        let wbs = &wbs[..n];
        // A register's (pending, long) bits as a query sees them.
        let (p, boards) = (&self.p, &self.boards);
        let bits = |board: usize, warp: u64, reg: u64| match at(p, warp, reg) {
            Some(i) if !wbs.iter().any(|&(w, r, b)| b >> board & 1 == 1 && w == warp && r == reg) => (boards[board][0].get(i), boards[board][1].get(i)),
            _ => (false, false),
        };
        for k in 0..self.io.iss.len() {
            if dirty >> k & 1 == 0 {
                continue;
            }
            let ip = &self.io.iss[k];
            let f = &self.frame;
            let board = f.get_bool(ip.pmode) as usize;
            let warp = f.get_u64(ip.warp);
            let mut src_pending = false;
            let mut long_dep = false;
            let mut src_long = [false; 8];
            for (s, src) in ip.src.iter().enumerate() {
                if f.get_bool(src.vld) {
                    let (pending, long) = bits(board, warp, f.get_u64(src.reg));
                    src_pending |= pending;
                    src_long[s] = long;
                    long_dep |= long;
                }
            }
            let (mut dst_bits, mut dst_long) = (0u64, false);
            for (d, o) in ip.dst.iter().enumerate() {
                if f.get_bool(o.vld) {
                    let (pending, long) = bits(board, warp, f.get_u64(o.reg));
                    dst_bits |= (pending as u64) << d;
                    dst_long |= long;
                }
            }
            let dst_pending = dst_bits != 0;
            self.frame.set_bool(ip.dst_long, dst_long);
            if let Some(id) = ip.dst_pending_bits {
                self.frame.set_u64(id, dst_bits);
            }
            let (a, b, c, d, n) = (ip.src_pending, ip.dst_pending, ip.stall, ip.long_dep, ip.src_long.len());
            self.frame.set_bool(a, src_pending);
            self.frame.set_bool(b, dst_pending);
            self.frame.set_bool(c, src_pending || dst_pending);
            self.frame.set_bool(d, long_dep);
            for (s, &long) in src_long.iter().enumerate().take(n) {
                let id = self.io.iss[k].src_long[s];
                self.frame.set_bool(id, long);
            }
        }
    }

    fn tick(&mut self) {
        self.feeds.all();
        if self.frame.get_bool(self.io.rst) {
            for board in &mut self.boards {
                for array in board.iter_mut() {
                    array.0.fill(0);
                }
            }
            return;
        }
        // 1. Writebacks clear both bits on the boards they name.
        for j in 0..self.io.wb.len() {
            let wb = &self.io.wb[j];
            let f = &self.frame;
            if !f.get_bool(wb.en) {
                continue;
            }
            if let Some(i) = at(&self.p, f.get_u64(wb.warp), f.get_u64(wb.reg)) {
                for (board, sel) in [(0, wb.n), (1, wb.p)] {
                    if f.get_bool(sel) {
                        self.boards[board][0].set(i, false);
                        self.boards[board][1].set(i, false);
                    }
                }
            }
        }
        // 2. Issues: every issuing port first clears `long` of its valid
        //    destinations, then sets pending (and long for long-latency ops);
        //    skips set long.
        for pass in 0..2 {
            for k in 0..self.io.iss.len() {
                for d in 0..self.io.iss[k].dst.len() {
                    let ip = &self.io.iss[k];
                    let f = &self.frame;
                    if !f.get_bool(ip.dst[d].vld) {
                        continue;
                    }
                    let board = f.get_bool(ip.pmode) as usize;
                    let Some(i) = at(&self.p, f.get_u64(ip.warp), f.get_u64(ip.dst[d].reg)) else { continue };
                    let (fire, long, skip) = (f.get_bool(ip.fire), f.get_bool(ip.long), f.get_bool(ip.skip));
                    if pass == 0 && fire {
                        self.boards[board][1].set(i, false);
                    }
                    if pass == 1 {
                        if fire {
                            self.boards[board][0].set(i, true);
                        }
                        if (fire && long) || skip {
                            self.boards[board][1].set(i, true);
                        }
                    }
                }
            }
        }
        // 3. Mode entry: the P board of the warp becomes its (updated) N board.
        let cw = self.frame.get_u64(self.io.copy_warp);
        if self.frame.get_bool(self.io.copy_en) && cw < self.p.warps as u64 {
            let regs = self.p.regs as usize;
            for array in 0..2 {
                for i in cw as usize * regs..(cw as usize + 1) * regs {
                    let v = self.boards[0][array].get(i);
                    self.boards[1][array].set(i, v);
                }
            }
        }
    }
}

impl Reference for ScoreboardParams {
    type Model = ScoreboardModel;
    fn model(&self) -> ScoreboardModel {
        ScoreboardModel::new(self)
    }
}
