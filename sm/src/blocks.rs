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
use hw::params::Params;
use hw::registry::BlockInfo;
use sim::{Component, ComponentExt, PortId};

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
    pub params: Params,
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

/// Build `block` with `overrides` on `engine`.
pub fn instantiate(block: &'static BlockInfo, overrides: &[(&str, u64)], engine: Engine) -> Result<BlockInst, String> {
    let ov: Vec<(String, String)> = overrides.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let params = block.params(&ov).map_err(|e| e.to_string())?;
    let module = block.elaborate(&params).map_err(|e| e.to_string())?;
    let comp = match engine {
        Engine::Model => Engined::new(EngineComp::Model(crate::engines::reference_model(block.name, &params)?)),
        rtl => Engined::new(EngineComp::Rtl(sim::rtl_sim(&module, rtl, &sim::EngineOptions::default()).map_err(|e| e.to_string())?)),
    };
    Ok(BlockInst { name: block.name, params, comp })
}

fn port(c: &dyn Component, name: &str, input: bool) -> Result<PortId, String> {
    let r = if input { c.input(name) } else { c.output(name) };
    r.map_err(|e| e.to_string())
}

/// One issue port of the scoreboard.
struct IssuePort {
    warp: PortId,
    pmode: PortId,
    srcs: Vec<(PortId, PortId)>,
    dsts: Vec<(PortId, PortId)>,
    fire: PortId,
    long: PortId,
    skip: PortId,
    stall: PortId,
    long_dep: PortId,
}

struct WbPort {
    en: PortId,
    warp: PortId,
    reg: PortId,
    n: PortId,
    p: PortId,
}

/// The dual-mode scoreboard (N board only outside P-mode).
pub struct Scoreboard {
    pub inst: BlockInst,
    rst: PortId,
    iss: Vec<IssuePort>,
    wb: Vec<WbPort>,
    copy_en: PortId,
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
        let info = hw::registry::find("scoreboard").map_err(|e| e.to_string())?;
        let wb_ports = c.units.writeback_width as u64 * MAX_WRITES as u64;
        let inst = instantiate(
            info,
            &[
                ("warps", c.core.max_warps as u64),
                ("regs", SB_REGS as u64),
                ("issue_ports", c.core.schedulers as u64),
                ("wb_ports", wb_ports),
                ("srcs", MAX_READS as u64),
                ("dsts", MAX_WRITES as u64),
            ],
            engine,
        )?;
        let c_: &dyn Component = &inst.comp;
        let iss = (0..c.core.schedulers)
            .map(|k| -> Result<IssuePort, String> {
                let i = |n: &str| port(c_, &format!("iss{k}_{n}"), true);
                let srcs = (0..MAX_READS).map(|s| Ok((i(&format!("src{s}"))?, i(&format!("src{s}_vld"))?))).collect::<Result<_, String>>()?;
                let dsts = (0..MAX_WRITES)
                    .map(|d| {
                        let n = if d == 0 { "dst".to_string() } else { format!("dst{d}") };
                        Ok((i(&n)?, i(&format!("{n}_vld"))?))
                    })
                    .collect::<Result<_, String>>()?;
                Ok(IssuePort {
                    warp: i("warp")?,
                    pmode: i("pmode")?,
                    srcs,
                    dsts,
                    fire: i("fire")?,
                    long: i("long")?,
                    skip: i("skip")?,
                    stall: port(c_, &format!("iss{k}_stall"), false)?,
                    long_dep: port(c_, &format!("iss{k}_long_dep"), false)?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let wb = (0..wb_ports)
            .map(|j| -> Result<WbPort, String> {
                let i = |n: &str| port(c_, &format!("wb{j}_{n}"), true);
                Ok(WbPort { en: i("en")?, warp: i("warp")?, reg: i("reg")?, n: i("n")?, p: i("p")? })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let rst = port(c_, "rst", true)?;
        let copy_en = port(c_, "copy_en", true)?;
        Ok(Scoreboard { inst, rst, iss, wb, copy_en, wb_used: 0, commanded: false })
    }

    /// Put an instruction on issue port `k` (fire low: a query).
    fn present(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8]) {
        let c = &mut self.inst.comp;
        let p = &self.iss[k];
        c.set_u64(p.warp, warp as u64);
        c.set_bool(p.pmode, false);
        for (s, &(r, v)) in p.srcs.iter().enumerate() {
            let reg = reads.get(s).copied();
            c.set_u64(r, reg.unwrap_or(0) as u64);
            c.set_bool(v, reg.is_some());
        }
        for (d, &(r, v)) in p.dsts.iter().enumerate() {
            let reg = writes.get(d).copied();
            c.set_u64(r, reg.unwrap_or(0) as u64);
            c.set_bool(v, reg.is_some());
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
        SbAnswer { stall: c.get_bool(self.iss[k].stall), long_dep: c.get_bool(self.iss[k].long_dep) }
    }

    /// The instruction on port `k` issues: its destinations become pending
    /// (and long, for a long-latency operation) at the clock edge.
    pub fn fire(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8], long: bool) {
        self.present(k, warp, reads, writes);
        let c = &mut self.inst.comp;
        c.set_bool(self.iss[k].fire, true);
        c.set_bool(self.iss[k].long, long);
        self.commanded = true;
    }

    /// Port `k` issues nothing this cycle.
    pub fn idle(&mut self, k: usize) {
        let c = &mut self.inst.comp;
        c.set_bool(self.iss[k].fire, false);
        c.set_bool(self.iss[k].skip, false);
    }

    /// Free writeback port slots left this cycle.
    pub fn wb_free(&self) -> usize {
        self.wb.len() - self.wb_used
    }

    /// A register of `warp` is written back this cycle (clears the N board).
    pub fn writeback(&mut self, warp: u16, reg: u8) {
        let j = self.wb_used;
        self.wb_used += 1;
        self.commanded = true;
        let c = &mut self.inst.comp;
        let p = &self.wb[j];
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
        for p in &self.wb {
            c.set_bool(p.en, false);
        }
        for k in 0..self.iss.len() {
            c.set_bool(self.iss[k].fire, false);
            c.set_bool(self.iss[k].skip, false);
        }
        c.set_bool(self.copy_en, false);
        c.set_bool(self.rst, false);
    }

    /// The reset cycle every run starts with.
    pub fn reset(&mut self) {
        let c = &mut self.inst.comp;
        c.set_bool(self.rst, true);
        c.eval();
        c.tick();
        c.set_bool(self.rst, false);
    }
}

/// The MSHR table of the L1 data cache.
pub struct MshrTable {
    pub inst: BlockInst,
    rst: PortId,
    req_valid: PortId,
    req_addr: PortId,
    req_id: PortId,
    fill_valid: PortId,
    fill_entry: PortId,
    probe_hit: PortId,
    req_ok: PortId,
    req_merged: PortId,
    req_entry: PortId,
    free_count: PortId,
    fill_ok: PortId,
    fill_addr: PortId,
    wake_valid: PortId,
    wake_ids: PortId,
    merge: u32,
    id_bits: u32,
    pub line_bits: u32,
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
        let info = hw::registry::find("mshr_table").map_err(|e| e.to_string())?;
        // Byte addresses are 32 bits (the SM's address space); a line
        // address drops the offset bits.
        let line_bits = 32 - c.l1.line.trailing_zeros();
        let inst = instantiate(
            info,
            &[("entries", c.l1.mshrs as u64), ("merge_limit", c.l1.merge as u64), ("line_bits", line_bits as u64), ("id_bits", Self::ID_BITS as u64)],
            engine,
        )?;
        let c_: &dyn Component = &inst.comp;
        let i = |n: &str| port(c_, n, true);
        let o = |n: &str| port(c_, n, false);
        Ok(MshrTable {
            rst: i("rst")?,
            req_valid: i("req_valid")?,
            req_addr: i("req_addr")?,
            req_id: i("req_id")?,
            fill_valid: i("fill_valid")?,
            fill_entry: i("fill_entry")?,
            probe_hit: o("probe_hit")?,
            req_ok: o("req_ok")?,
            req_merged: o("req_merged")?,
            req_entry: o("req_entry")?,
            free_count: o("free_count")?,
            fill_ok: o("fill_ok")?,
            fill_addr: o("fill_addr")?,
            wake_valid: o("wake_valid")?,
            wake_ids: o("wake_ids")?,
            merge: c.l1.merge,
            id_bits: Self::ID_BITS,
            line_bits,
            commanded: false,
            inst,
        })
    }

    pub fn begin_cycle(&mut self) {
        self.commanded = false;
        let c = &mut self.inst.comp;
        c.set_bool(self.req_valid, false);
        c.set_bool(self.fill_valid, false);
        c.set_bool(self.rst, false);
    }

    pub fn reset(&mut self) {
        let c = &mut self.inst.comp;
        c.set_bool(self.rst, true);
        c.eval();
        c.tick();
        c.set_bool(self.rst, false);
    }

    /// A line returns for `entry` this cycle.
    pub fn set_fill(&mut self, entry: u32) {
        self.commanded = true;
        let c = &mut self.inst.comp;
        c.set_bool(self.fill_valid, true);
        c.set_u64(self.fill_entry, entry as u64);
    }

    /// Does a pending entry hold `line` (combinational probe)?
    pub fn probe(&mut self, line: u64) -> bool {
        let c = &mut self.inst.comp;
        c.set_u64(self.req_addr, line);
        c.eval();
        c.get_bool(self.probe_hit)
    }

    /// Ask for an entry for `line` on behalf of pending load `id`.
    pub fn request(&mut self, line: u64, id: u32) -> MshrReply {
        let c = &mut self.inst.comp;
        c.set_bool(self.req_valid, true);
        c.set_u64(self.req_addr, line);
        c.set_u64(self.req_id, id as u64);
        c.eval();
        if !c.get_bool(self.req_ok) {
            // A rejected request changes nothing: withdraw it.
            c.set_bool(self.req_valid, false);
            return MshrReply::Rejected;
        }
        let e = c.get_u64(self.req_entry) as u32;
        self.commanded = true;
        if c.get_bool(self.req_merged) {
            MshrReply::Merged(e)
        } else {
            MshrReply::Allocated(e)
        }
    }

    /// After `set_fill` and `eval`: the filled line and the woken request ids.
    pub fn filled(&mut self, woken: &mut Vec<u32>) -> Option<u64> {
        let c = &mut self.inst.comp;
        c.eval();
        if !c.get_bool(self.fill_ok) {
            return None;
        }
        let valid = c.get_u64(self.wake_valid);
        let ids = c.get(self.wake_ids);
        woken.clear();
        for k in 0..self.merge {
            if valid >> k & 1 == 1 {
                let bit = (k * self.id_bits) as usize;
                let word = ids[bit / 64] >> (bit % 64);
                let word = if bit % 64 + self.id_bits as usize > 64 { word | ids[bit / 64 + 1] << (64 - bit % 64) } else { word };
                woken.push((word & ((1 << self.id_bits) - 1)) as u32);
            }
        }
        Some(c.get_u64(self.fill_addr))
    }

    /// Free entries at the start of this cycle.
    pub fn free(&mut self) -> u32 {
        self.inst.comp.eval();
        self.inst.comp.get_u64(self.free_count) as u32
    }
}
