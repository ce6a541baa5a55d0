//! Reference model of `simt_stack` (specification:
//! `hw::blocks::pmode::simt_stack`).

use crate::bits::mask;
use crate::Reference;
use hw::blocks::pmode::simt_stack::{SimtStackIo, SimtStackParams};
use sim::{Bind, Component, PortFrame, PortId};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ent {
    pc: u64,
    rpc: u64,
    mask: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Stack {
    e: Vec<Ent>,
    top: usize,
}

impl Stack {
    fn new(depth: usize) -> Self {
        Stack { e: vec![Ent::default(); depth], top: 0 }
    }
}

/// Per-warp N and P stacks.
#[derive(Clone, Debug)]
struct Warp {
    n: Stack,
    p: Stack,
}

/// Cycle-accurate reference model of `simt_stack`.
pub struct SimtStackModel {
    p: SimtStackParams,
    pub(crate) frame: PortFrame,
    io: std::sync::Arc<SimtStackIo<PortId>>,
    w: Vec<Warp>,
    idle: Stack,
    overflow: bool,
}

impl SimtStackModel {
    pub fn new(p: &SimtStackParams) -> Self {
        let d = p.depth as usize;
        SimtStackModel {
            frame: p.frame(),
            io: sim::shared::shared(p.ids()),
            w: vec![Warp { n: Stack::new(d), p: Stack::new(d) }; p.warps as usize],
            idle: Stack::new(d),
            overflow: false,
            p: p.clone(),
        }
    }

    /// One path taken by all active threads: `next` becomes the top PC, or the
    /// top entry pops when `next` is its reconvergence PC.
    fn single(st: &mut Stack, next: u64) {
        if next == st.e[st.top].rpc && st.top > 0 {
            st.top -= 1;
        } else {
            st.e[st.top].pc = next;
        }
    }

    /// A branch on stack `st`; returns false (and leaves the stack unchanged)
    /// when it would need more than `depth` entries.
    fn branch(p: &SimtStackParams, st: &mut Stack, taken: u64, target: u64, reconv: u64) -> bool {
        let tos = st.e[st.top];
        let fall = tos.pc.wrapping_add(p.inst_bytes as u64) & mask(p.pc_bits);
        let t = taken & tos.mask;
        let n = tos.mask & !taken;
        if t == 0 || n == 0 || target == fall {
            Self::single(st, if t != 0 { target } else { fall });
            return true;
        }
        // Divergence (GPGPU-Sim order: not-taken path first, taken on top).
        let (big_r, r) = (tos.rpc, reconv);
        let mut writes = [(0usize, Ent::default()); 3];
        let mut nw = 0;
        let mut cur = st.top;
        let mut diverged = false;
        for (pc, m) in [(fall, n), (target, t)] {
            if pc == big_r {
                continue;
            }
            if !diverged {
                diverged = true;
                if r != big_r {
                    writes[nw] = (cur, Ent { pc: r, ..tos });
                    nw += 1;
                    cur += 1;
                }
            }
            if pc == r {
                continue;
            }
            writes[nw] = (cur, Ent { pc, rpc: r, mask: m });
            nw += 1;
            cur += 1;
        }
        let new_top = cur - 1;
        if new_top >= st.e.len() {
            return false;
        }
        for &(i, e) in &writes[..nw] {
            st.e[i] = e;
        }
        st.top = new_top;
        true
    }
}

impl Component for SimtStackModel {
    fn name(&self) -> &str {
        "simt_stack"
    }
    sim::frame_ports!(frame);

    fn eval(&mut self) {
        for ids in &self.io.iss {
            let w = self.frame.get_u64(ids.warp) as usize;
            let pm = self.frame.get_bool(ids.pmode);
            let st = self.w.get(w).map_or(&self.idle, |x| if pm { &x.p } else { &x.n });
            let e = st.e[st.top];
            self.frame.set_u64(ids.pc, e.pc);
            self.frame.set_u64(ids.rpc, e.rpc);
            self.frame.set_u64(ids.mask, e.mask);
        }
    }

    /// The edge; then the output that depends on the state alone
    /// (`overflow`), valid without an `eval`.
    fn tick(&mut self) {
        self.edge();
        self.frame.set_bool(self.io.overflow, self.overflow);
    }
}

impl SimtStackModel {
    fn edge(&mut self) {
        if self.frame.get_bool(self.io.rst) {
            for w in &mut self.w {
                for st in [&mut w.n, &mut w.p] {
                    st.e.fill(Ent::default());
                    st.top = 0;
                }
            }
            self.overflow = false;
            return;
        }
        let nwarps = self.w.len() as u64;
        let (len, lw) = (self.frame.get_bool(self.io.launch_en), self.frame.get_u64(self.io.launch_warp));
        let (cen, cw) = (self.frame.get_bool(self.io.copy_en), self.frame.get_u64(self.io.copy_warp));
        for k in 0..self.io.iss.len() {
            let ids = &self.io.iss[k];
            let w = self.frame.get_u64(ids.warp);
            let (adv, br) = (self.frame.get_bool(ids.adv), self.frame.get_bool(ids.br));
            let blocked = (0..k).any(|j| {
                let o = &self.io.iss[j];
                self.frame.get_u64(o.warp) == w && (self.frame.get_bool(o.adv) || self.frame.get_bool(o.br))
            });
            let pm = self.frame.get_bool(ids.pmode);
            if w >= nwarps || blocked || (pm && cen && cw == w) || (!pm && len && lw == w) {
                continue;
            }
            let (taken, target, reconv) =
                (self.frame.get_u64(ids.taken), self.frame.get_u64(ids.target), self.frame.get_u64(ids.reconv));
            let wp = &mut self.w[w as usize];
            let st = if pm { &mut wp.p } else { &mut wp.n };
            if br {
                if !Self::branch(&self.p, st, taken, target, reconv) {
                    self.overflow = true;
                }
            } else if adv {
                let next = st.e[st.top].pc.wrapping_add(self.p.inst_bytes as u64) & mask(self.p.pc_bits);
                Self::single(st, next);
            }
        }
        if len && lw < nwarps {
            let n = &mut self.w[lw as usize].n;
            n.top = 0;
            n.e[0] = Ent { pc: self.frame.get_u64(self.io.launch_pc), rpc: self.p.rpc_none(), mask: self.frame.get_u64(self.io.launch_mask) };
        }
        if cen && cw < nwarps {
            let Warp { n, p } = &mut self.w[cw as usize];
            p.e.copy_from_slice(&n.e);
            p.top = n.top;
        }
    }
}

impl Reference for SimtStackParams {
    type Model = SimtStackModel;
    fn model(&self) -> SimtStackModel {
        SimtStackModel::new(self)
    }
}
