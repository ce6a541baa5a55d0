//! The hardware blocks in the SM's loop, each on the engine chosen at launch,
//! driven only through `sim::Component`: the dual-mode scoreboard at issue
//! and the MSHR table in the memory stage.
//!
//! Per cycle the SM sets a block's inputs as its stages run, may `eval`
//! several times to read combinational answers (the issue stage asks the
//! scoreboard about several warps through one query port; a query with
//! `fire` low changes nothing), and at the end of the cycle sets the final
//! inputs, `eval`s and `tick`s every block once.

use crate::config::Config;
use crate::core::op::{MAX_READS, MAX_WRITES, SB_REGS};
use hw::blocks::pmode::scoreboard::{ScoreboardIo, ScoreboardParams};
use hw::blocks::replay::mshr_table::{MshrTableIo, MshrTableParams};
use sim::{Bind, Component, ComponentExt, PortId};

/// Which engine runs the blocks: the project's one vocabulary (`model`
/// alias `reference`, `rtl`, `netlist`, `compiled`).
pub use sim::Engine;

/// Parse an engine name (an error lists the names).
pub fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse::<Engine>().map_err(|e| e.to_string())
}

/// A block on its engine.
pub enum EngineComp {
    Rtl(Box<dyn sim::RtlSim>),
    Model(Box<dyn Component>),
}

/// A block on its engine, with a shadow of its narrow inputs: the SM sets
/// many inputs to the values they already hold, and those writes (and an
/// `eval` with nothing changed since the last one) are skipped. The block
/// sees exactly the same input values at every `eval` and `tick`.
pub struct Engined {
    pub engine: EngineComp,
    /// Last value written per port (inputs of at most 64 bits).
    shadow: Vec<u64>,
    /// Port widths (no dynamic call per `set`).
    widths: Vec<u32>,
    /// Inputs changed (or the state ticked) since the last `eval`.
    dirty: bool,
}

impl Engined {
    fn new(engine: EngineComp) -> Engined {
        let widths: Vec<u32> = match &engine {
            EngineComp::Rtl(n) => n.ports().iter().map(|p| p.width).collect(),
            EngineComp::Model(m) => m.ports().iter().map(|p| p.width).collect(),
        };
        Engined { engine, shadow: vec![u64::MAX; widths.len()], widths, dirty: true }
    }

    fn inner(&self) -> &dyn Component {
        match &self.engine {
            EngineComp::Rtl(n) => n.as_ref(),
            EngineComp::Model(m) => m.as_ref(),
        }
    }

    fn inner_mut(&mut self) -> &mut dyn Component {
        match &mut self.engine {
            EngineComp::Rtl(n) => n.as_mut(),
            EngineComp::Model(m) => m.as_mut(),
        }
    }
}

impl Component for Engined {
    fn name(&self) -> &str {
        self.inner().name()
    }
    fn ports(&self) -> &[sim::PortSpec] {
        self.inner().ports()
    }
    fn set(&mut self, port: PortId, value: &[u64]) {
        let i = port.0 as usize;
        let width = self.widths[i];
        if width <= 64 {
            let v = value[0] & sim::top_mask(width);
            if self.shadow[i] == v {
                return;
            }
            self.shadow[i] = v;
        }
        self.dirty = true;
        self.inner_mut().set(port, value);
    }
    fn get(&self, port: PortId) -> &[u64] {
        self.inner().get(port)
    }
    fn eval(&mut self) {
        if self.dirty {
            self.dirty = false;
            self.inner_mut().eval();
        }
    }
    fn tick(&mut self) {
        self.inner_mut().tick();
        self.dirty = true;
    }
}

/// A block instance of the SM: its component and parameters.
pub struct BlockInst {
    pub name: &'static str,
    pub params: hw::params::Params,
    pub comp: Engined,
}

impl BlockInst {
    /// The RTL engine, on an RTL engine (the VCD shows its internals).
    pub fn rtl(&self) -> Option<&dyn sim::RtlSim> {
        match &self.comp.engine {
            EngineComp::Rtl(n) => Some(n.as_ref()),
            EngineComp::Model(_) => None,
        }
    }

    /// The engine actually running the block (`rtl` resolved).
    pub fn engine(&self) -> Engine {
        match &self.comp.engine {
            EngineComp::Rtl(n) => n.engine(),
            EngineComp::Model(_) => Engine::Model,
        }
    }
}

/// Build block `P` with parameters `p` on `engine`, and bind its port
/// description to the component.
pub fn instantiate<P: models::Reference + Bind>(p: &P, engine: Engine) -> Result<(BlockInst, P::Io<PortId>), String> {
    let comp = match engine {
        Engine::Model => Engined::new(EngineComp::Model(Box::new(p.model()))),
        rtl => {
            let module = p.elaborate().map_err(|e| e.to_string())?;
            Engined::new(EngineComp::Rtl(sim::rtl_sim(&module, rtl, &sim::EngineOptions::default()).map_err(|e| e.to_string())?))
        }
    };
    let io = p.bind(&comp).map_err(|e| e.to_string())?;
    Ok((BlockInst { name: P::NAME, params: p.to_params(P::NAME), comp }, io))
}

/// The dual-mode scoreboard (N board only outside P-mode).
pub struct Scoreboard {
    pub inst: BlockInst,
    io: ScoreboardIo<PortId>,
    /// Writeback port slots used this cycle.
    wb_used: usize,
    /// A command (issue, writeback) was given this cycle: the state changes
    /// at the edge. Without one the clock can be gated.
    pub commanded: bool,
}

/// The scoreboard's answer for one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SbAnswer {
    pub stall: bool,
    pub long_dep: bool,
}

impl Scoreboard {
    pub fn new(c: &Config, engine: Engine) -> Result<Scoreboard, String> {
        let p = ScoreboardParams {
            warps: c.core.max_warps,
            regs: SB_REGS,
            issue_ports: c.core.schedulers,
            wb_ports: c.units.writeback_width * MAX_WRITES as u32,
            srcs: MAX_READS as u32,
            dsts: MAX_WRITES as u32,
        };
        let (inst, io) = instantiate(&p, engine)?;
        Ok(Scoreboard { inst, io, wb_used: 0, commanded: false })
    }

    /// Put an instruction on issue port `k` (fire low: a query).
    fn present(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8]) {
        let c = &mut self.inst.comp;
        let p = &self.io.iss[k];
        c.set_u64(p.warp, warp as u64);
        c.set_bool(p.pmode, false);
        for (ops, regs) in [(&p.src, reads), (&p.dst, writes)] {
            for (i, o) in ops.iter().enumerate() {
                let reg = regs.get(i).copied();
                c.set_u64(o.reg, reg.unwrap_or(0) as u64);
                c.set_bool(o.vld, reg.is_some());
            }
        }
        c.set_bool(p.fire, false);
        c.set_bool(p.long, false);
        c.set_bool(p.skip, false);
    }

    /// Ask whether an instruction of `warp` may issue (this cycle's
    /// writebacks already count, the scoreboard's same-cycle bypass).
    pub fn query(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8]) -> SbAnswer {
        self.present(k, warp, reads, writes);
        let c = &mut self.inst.comp;
        c.eval();
        SbAnswer { stall: c.get_bool(self.io.iss[k].stall), long_dep: c.get_bool(self.io.iss[k].long_dep) }
    }

    /// The instruction on port `k` issues: its destinations become pending
    /// (and long, for a long-latency operation) at the clock edge.
    pub fn fire(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8], long: bool) {
        self.present(k, warp, reads, writes);
        let c = &mut self.inst.comp;
        c.set_bool(self.io.iss[k].fire, true);
        c.set_bool(self.io.iss[k].long, long);
        self.commanded = true;
    }

    /// Port `k` issues nothing this cycle.
    pub fn idle(&mut self, k: usize) {
        let c = &mut self.inst.comp;
        c.set_bool(self.io.iss[k].fire, false);
        c.set_bool(self.io.iss[k].skip, false);
    }

    /// Free writeback port slots left this cycle.
    pub fn wb_free(&self) -> usize {
        self.io.wb.len() - self.wb_used
    }

    /// A register of `warp` is written back this cycle (clears the N board).
    pub fn writeback(&mut self, warp: u16, reg: u8) {
        let j = self.wb_used;
        self.wb_used += 1;
        self.commanded = true;
        let c = &mut self.inst.comp;
        let p = &self.io.wb[j];
        c.set_bool(p.en, true);
        c.set_u64(p.warp, warp as u64);
        c.set_u64(p.reg, reg as u64);
        c.set_bool(p.n, true);
        c.set_bool(p.p, false);
    }

    /// Start of a cycle: no writebacks, no issues.
    pub fn begin_cycle(&mut self) {
        self.wb_used = 0;
        self.commanded = false;
        let c = &mut self.inst.comp;
        for p in &self.io.wb {
            c.set_bool(p.en, false);
        }
        for k in 0..self.io.iss.len() {
            c.set_bool(self.io.iss[k].fire, false);
            c.set_bool(self.io.iss[k].skip, false);
        }
        c.set_bool(self.io.copy_en, false);
        c.set_bool(self.io.rst, false);
    }

    /// The reset cycle every run starts with.
    pub fn reset(&mut self) {
        let c = &mut self.inst.comp;
        c.set_bool(self.io.rst, true);
        c.eval();
        c.tick();
        c.set_bool(self.io.rst, false);
    }
}

/// The MSHR table of the L1 data cache.
pub struct MshrTable {
    pub inst: BlockInst,
    io: MshrTableIo<PortId>,
    merge: u32,
    id_bits: u32,
    /// A fill or an accepted request this cycle (see `Scoreboard::commanded`).
    pub commanded: bool,
}

/// Outcome of a request to the MSHR table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MshrReply {
    Merged(u32),
    Allocated(u32),
    Rejected,
}

impl MshrTable {
    /// Request ids index the SM's pending-load table of 256 entries.
    pub const ID_BITS: u32 = 8;

    pub fn new(c: &Config, engine: Engine) -> Result<MshrTable, String> {
        // Byte addresses are 32 bits (the SM's address space); a line
        // address drops the offset bits.
        let p = MshrTableParams {
            entries: c.l1.mshrs,
            merge_limit: c.l1.merge,
            line_bits: 32 - c.l1.line.trailing_zeros(),
            id_bits: Self::ID_BITS,
        };
        let (inst, io) = instantiate(&p, engine)?;
        Ok(MshrTable { inst, io, merge: c.l1.merge, id_bits: Self::ID_BITS, commanded: false })
    }

    pub fn begin_cycle(&mut self) {
        self.commanded = false;
        let c = &mut self.inst.comp;
        c.set_bool(self.io.req_valid, false);
        c.set_bool(self.io.fill_valid, false);
        c.set_bool(self.io.rst, false);
    }

    pub fn reset(&mut self) {
        let c = &mut self.inst.comp;
        c.set_bool(self.io.rst, true);
        c.eval();
        c.tick();
        c.set_bool(self.io.rst, false);
    }

    /// A line returns for `entry` this cycle.
    pub fn set_fill(&mut self, entry: u32) {
        self.commanded = true;
        let c = &mut self.inst.comp;
        c.set_bool(self.io.fill_valid, true);
        c.set_u64(self.io.fill_entry, entry as u64);
    }

    /// Does a pending entry hold `line` (combinational probe)?
    pub fn probe(&mut self, line: u64) -> bool {
        let c = &mut self.inst.comp;
        c.set_u64(self.io.req_addr, line);
        c.eval();
        c.get_bool(self.io.probe_hit)
    }

    /// Ask for an entry for `line` on behalf of pending load `id`.
    pub fn request(&mut self, line: u64, id: u32) -> MshrReply {
        let c = &mut self.inst.comp;
        c.set_bool(self.io.req_valid, true);
        c.set_u64(self.io.req_addr, line);
        c.set_u64(self.io.req_id, id as u64);
        c.eval();
        if !c.get_bool(self.io.req_ok) {
            // A rejected request changes nothing: withdraw it.
            c.set_bool(self.io.req_valid, false);
            return MshrReply::Rejected;
        }
        let e = c.get_u64(self.io.req_entry) as u32;
        self.commanded = true;
        if c.get_bool(self.io.req_merged) {
            MshrReply::Merged(e)
        } else {
            MshrReply::Allocated(e)
        }
    }

    /// After `set_fill` and `eval`: the filled line and the woken request ids.
    pub fn filled(&mut self, woken: &mut Vec<u32>) -> Option<u64> {
        let c = &mut self.inst.comp;
        c.eval();
        if !c.get_bool(self.io.fill_ok) {
            return None;
        }
        let valid = c.get_u64(self.io.wake_valid);
        let ids = c.get(self.io.wake_ids);
        woken.clear();
        for k in 0..self.merge {
            if valid >> k & 1 == 1 {
                let bit = (k * self.id_bits) as usize;
                let word = ids[bit / 64] >> (bit % 64);
                let word = if bit % 64 + self.id_bits as usize > 64 { word | ids[bit / 64 + 1] << (64 - bit % 64) } else { word };
                woken.push((word & ((1 << self.id_bits) - 1)) as u32);
            }
        }
        Some(c.get_u64(self.io.fill_addr))
    }

    /// Free entries at the start of this cycle.
    pub fn free(&mut self) -> u32 {
        self.inst.comp.eval();
        self.inst.comp.get_u64(self.io.free_count) as u32
    }
}
