//! Reference model of the dual-mode scoreboard
//! (`hw::blocks::pmode::scoreboard`; Warped-Preexecution, HPCA 2016,
//! section 4), written from the block's port specification.

use crate::Reference;
use bitvec::prelude::*;
use hw::blocks::pmode::scoreboard::{ScoreboardIo, ScoreboardParams};
use sim::{Bind, Component, PortFrame, PortId};

/// Boards: index `[board][array]`, board 0 = N, 1 = P; array 0 = pending,
/// 1 = long; bit `warp * regs + reg`.
pub struct ScoreboardModel {
    p: ScoreboardParams,
    pub(crate) frame: PortFrame,
    io: ScoreboardIo<PortId>,
    boards: [[BitVec; 2]; 2],
}

impl ScoreboardModel {
    pub fn new(p: &ScoreboardParams) -> Self {
        let bits = (p.warps * p.regs) as usize;
        let empty = || bitvec![0; bits];
        ScoreboardModel {
            p: p.clone(),
            frame: p.frame(),
            io: p.ids(),
            boards: [[empty(), empty()], [empty(), empty()]],
        }
    }

    /// Bit index of (warp, reg), if both are in range.
    fn at(&self, warp: u64, reg: u64) -> Option<usize> {
        (warp < self.p.warps as u64 && reg < self.p.regs as u64).then(|| (warp * self.p.regs as u64 + reg) as usize)
    }

    /// Is (warp, reg) written back on `board` this cycle?
    fn written_back(&self, board: usize, warp: u64, reg: u64) -> bool {
        self.io.wb.iter().any(|wb| {
            let f = &self.frame;
            f.get_bool(wb.en)
                && f.get_bool(if board == 1 { wb.p } else { wb.n })
                && f.get_u64(wb.warp) == warp
                && f.get_u64(wb.reg) == reg
        })
    }

    /// A bit as a query sees it this cycle (writeback bypass).
    fn query(&self, board: usize, array: usize, warp: u64, reg: u64) -> bool {
        match self.at(warp, reg) {
            Some(i) => self.boards[board][array][i] && !self.written_back(board, warp, reg),
            None => false,
        }
    }

    /// Pending/long bits of one register (for tests).
    pub fn bits(&self, pmode: bool, warp: u32, reg: u32) -> (bool, bool) {
        let b = pmode as usize;
        match self.at(warp as u64, reg as u64) {
            Some(i) => (self.boards[b][0][i], self.boards[b][1][i]),
            None => (false, false),
        }
    }
}

impl Component for ScoreboardModel {
    fn name(&self) -> &str {
        "scoreboard"
    }

    sim::frame_ports!(frame);

    fn eval(&mut self) {
        for k in 0..self.io.iss.len() {
            let ip = &self.io.iss[k];
            let f = &self.frame;
            let board = f.get_bool(ip.pmode) as usize;
            let warp = f.get_u64(ip.warp);
            let mut src_pending = false;
            let mut long_dep = false;
            let mut src_long = [false; 8];
            for (s, src) in ip.src.iter().enumerate() {
                if f.get_bool(src.vld) {
                    src_pending |= self.query(board, 0, warp, f.get_u64(src.reg));
                    src_long[s] = self.query(board, 1, warp, f.get_u64(src.reg));
                    long_dep |= src_long[s];
                }
            }
            let dst_bits = ip.dst.iter().enumerate().fold(0u64, |acc, (d, o)| {
                acc | (((f.get_bool(o.vld) && self.query(board, 0, warp, f.get_u64(o.reg))) as u64) << d)
            });
            let dst_pending = dst_bits != 0;
            let dst_long = ip.dst.iter().any(|o| f.get_bool(o.vld) && self.query(board, 1, warp, f.get_u64(o.reg)));
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
        if self.frame.get_bool(self.io.rst) {
            for board in &mut self.boards {
                for array in board.iter_mut() {
                    array.fill(false);
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
            if let Some(i) = self.at(f.get_u64(wb.warp), f.get_u64(wb.reg)) {
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
                    let Some(i) = self.at(f.get_u64(ip.warp), f.get_u64(ip.dst[d].reg)) else { continue };
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
            let r = cw as usize * regs..(cw as usize + 1) * regs;
            for array in 0..2 {
                let row: BitVec = self.boards[0][array][r.clone()].to_bitvec();
                self.boards[1][array][r.clone()].copy_from_bitslice(&row);
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
