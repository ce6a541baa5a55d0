//! The hardware blocks in the SM's loop, each on the engine chosen at launch,
//! driven only through `sim::Component`: the dual-mode scoreboard at issue
//! and the MSHR table in the memory stage; in replay mode, a replay unit
//! per scheduler; in DAC mode, the DAC unit.
//!
//! Per cycle the SM sets a block's inputs as its stages run, may `eval`
//! several times to read combinational answers (the issue stage asks the
//! scoreboard about several warps through one query port; a query with
//! `fire` low changes nothing), and at the end of the cycle sets the final
//! inputs, `eval`s and `tick`s every block once.

use crate::config::Config;
use crate::core::op::{MAX_READS, MAX_WRITES, SB_REGS};
use hw::blocks::pmode::scoreboard::{ScoreboardIo, ScoreboardParams};
use hw::blocks::replay::mshr_predictor::PredictorMode;
use hw::blocks::replay::mshr_table::{MshrTableIo, MshrTableParams};
use hw::blocks::replay::replay_unit::{ReplayUnitIo, ReplayUnitParams, TrackerKind};
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
    Model(Box<dyn Component + Send>),
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
    widths: std::sync::Arc<[u32]>,
    /// Inputs changed (or the state ticked) since the last `eval`.
    dirty: bool,
}

impl Engined {
    fn new(engine: EngineComp) -> Engined {
        let widths: Vec<u32> = match &engine {
            EngineComp::Rtl(n) => n.ports().iter().map(|p| p.width).collect(),
            EngineComp::Model(m) => m.ports().iter().map(|p| p.width).collect(),
        };
        Engined { engine, shadow: vec![u64::MAX; widths.len()], widths: sim::shared::shared_slice(widths), dirty: true }
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
    fn eval_outputs(&mut self, outputs: &[PortId]) {
        // Still dirty: the other outputs are settled by the next `eval`.
        if self.dirty {
            self.inner_mut().eval_outputs(outputs);
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

    /// One clock cycle with `rst` high (the reset every run starts with).
    pub fn reset(&mut self, rst: PortId) {
        let c = &mut self.comp;
        c.set_bool(rst, true);
        c.eval();
        c.tick();
        c.set_bool(rst, false);
    }

    /// Settle before a clock edge, where the engine needs it: an RTL
    /// engine's edge takes its settled values; a reference model's edge
    /// reads its inputs alone (the P-mode unit's settles itself first), so
    /// its settle waits for the next query.
    pub fn settle_for_edge(&mut self) {
        if self.engine() != Engine::Model {
            self.comp.eval();
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
    // The SM builds parameter structs directly: hold them to the block's ranges.
    for (spec, v) in P::SPECS.iter().zip(p.values()) {
        if v < spec.min || v > spec.max {
            return Err(format!("block `{}`: parameter `{}` = {v} is out of range {}..={}", P::NAME, spec.name, spec.min, spec.max));
        }
    }
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

/// Operand ports of the issue blocks (the scoreboard, the P-mode unit):
/// as many as the kernel's widest instruction reads and writes, at most
/// `MAX_READS` and `MAX_WRITES`. A port no instruction uses is never valid,
/// so the answers are those of the widest blocks; the models have less to
/// route and read. The writeback ports take `writeback_width` instructions
/// of the most destinations.
#[derive(Clone, Copy, Debug)]
pub struct Operands {
    pub reads: u32,
    pub writes: u32,
}

impl Operands {
    pub fn of(ops: &[crate::core::op::Op]) -> Operands {
        let (r, w) = ops.iter().fold((1, 1), |(r, w), o| (r.max(o.n_reads as u32), w.max(o.n_writes as u32)));
        Operands { reads: r.min(MAX_READS as u32), writes: w.min(MAX_WRITES as u32) }
    }
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
    /// Per issue port: the instruction its operand inputs hold (an issue
    /// follows the query of the same instruction).
    presented: Vec<Option<Presented>>,
}

/// An instruction on an issue port: warp, sources, destinations.
type Presented = (u16, [Option<u8>; MAX_READS], [Option<u8>; MAX_WRITES]);

/// The scoreboard's answer for one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SbAnswer {
    pub stall: bool,
    pub long_dep: bool,
}

impl Scoreboard {
    pub fn new(c: &Config, engine: Engine, operands: Operands) -> Result<Scoreboard, String> {
        let p = ScoreboardParams {
            warps: c.core.max_warps,
            regs: SB_REGS,
            issue_ports: c.core.schedulers,
            wb_ports: c.units.writeback_width * operands.writes,
            srcs: operands.reads,
            dsts: operands.writes,
        };
        let (mut inst, io) = instantiate(&p, engine)?;
        for p in &io.iss {
            inst.comp.set_bool(p.pmode, false); // the N board only
        }
        let presented = vec![None; io.iss.len()];
        Ok(Scoreboard { inst, io, wb_used: 0, commanded: false, presented })
    }

    /// Put an instruction on issue port `k` (fire low: a query).
    fn present(&mut self, k: usize, warp: u16, reads: &[u8], writes: &[u8]) {
        let c = &mut self.inst.comp;
        let p = &self.io.iss[k];
        let inst = (warp, std::array::from_fn(|i| reads.get(i).copied()), std::array::from_fn(|i| writes.get(i).copied()));
        if self.presented[k] != Some(inst) {
            self.presented[k] = Some(inst);
            c.set_u64(p.warp, warp as u64);
            for (ops, regs) in [(&p.src, &inst.1[..]), (&p.dst, &inst.2[..])] {
                for (o, &reg) in ops.iter().zip(regs) {
                    c.set_u64(o.reg, reg.unwrap_or(0) as u64);
                    c.set_bool(o.vld, reg.is_some());
                }
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
        self.inst.reset(self.io.rst);
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
        self.inst.reset(self.io.rst);
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

/// What the P-mode unit decided for an offered instruction
/// (`mode_ctrl::action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Stall,
    Issue,
    Reuse,
    Trigger,
    Preexec,
    Preload,
    Skip,
    Halt,
}

impl Action {
    fn from_code(c: u64) -> Action {
        use hw::blocks::pmode::mode_ctrl::action as a;
        match c {
            a::ISSUE => Action::Issue,
            a::REUSE => Action::Reuse,
            a::TRIGGER => Action::Trigger,
            a::PREEXEC => Action::Preexec,
            a::PRELOAD => Action::Preload,
            a::SKIP => Action::Skip,
            a::HALT => Action::Halt,
            _ => Action::Stall,
        }
    }
}

/// What an N-mode warp's P-queue head says at fetch (§5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchMatch {
    /// A ready match: it leaves the queue for the instruction buffer, with
    /// the rename registers of its results.
    Moved([u16; MAX_WRITES]),
    /// The head matches; its result is not back yet.
    Wait,
    /// No match: fetched and decoded as usual.
    Fetch,
}

/// An instruction offered to the P-mode unit.
pub struct Offer<'a> {
    pub warp: u16,
    pub pc: u32,
    /// `mode_ctrl::op` class.
    pub class: u64,
    pub reads: &'a [u8],
    pub writes: &'a [u8],
    /// Branch outcome: threads taking it, target, reconvergence PC.
    pub branch: (u32, u32, u32),
    /// Moved from the P-queue at fetch, with its rename registers.
    pub reuse: Option<[u16; MAX_WRITES]>,
}

/// The P-mode unit (`pmode_unit`: dual-mode scoreboard, P-queue, rename
/// tables, SIMT stack pair, mode controller) at the issue stage, in place of
/// the plain scoreboard when `mode = "pmode"`.
pub struct PmodeBlock {
    pub inst: BlockInst,
    io: std::sync::Arc<hw::blocks::pmode::pmode_unit::PmodeUnitIo<PortId>>,
    wb_used: usize,
    pub commanded: bool,
    warps: u32,
    /// Rename registers the compiler's allocation occupies (kernel start).
    compiler_regs: u32,
    /// The last `status`.
    status: Option<UnitStatus>,
    /// Bit k: issue port k presents valid destinations.
    dsts_presented: u64,
}

/// What the SM reads of the P-mode unit after a clock edge.
#[derive(Clone, Copy, Debug)]
pub struct UnitStatus {
    pub mode: u64,
    pub halted: u64,
    /// Rename registers in use beyond the compiler's.
    pub rename_held: u32,
    pub overflow: bool,
}

impl PmodeBlock {
    pub fn new(c: &Config, engine: Engine, operands: Operands) -> Result<PmodeBlock, String> {
        let p = hw::blocks::pmode::pmode_unit::PmodeUnitParams {
            warps: c.core.max_warps,
            regs: SB_REGS,
            rename_regs: c.pmode.rename_regs,
            entries: c.pmode.pqueue_entries,
            depth: c.pmode.stack_depth,
            issue_ports: c.core.schedulers,
            fetch_ports: c.core.fetch_width,
            wb_ports: c.units.writeback_width * operands.writes,
            srcs: operands.reads,
            dsts: operands.writes,
            release: (c.pmode.release == crate::config::Release::Move) as u32,
            ..Default::default()
        };
        let (inst, io) = instantiate(&p, engine)?;
        Ok(PmodeBlock { inst, io: sim::shared::shared(io), wb_used: 0, commanded: false, warps: c.core.max_warps, compiler_regs: 0, status: None, dsts_presented: 0 })
    }

    pub fn begin_cycle(&mut self) {
        self.wb_used = 0;
        self.commanded = false;
        self.clear_commands();
    }

    /// No instruction offered, nothing written back, launched or released.
    fn clear_commands(&mut self) {
        let c = &mut self.inst.comp;
        for p in &self.io.wb {
            c.set_bool(p.en, false);
        }
        for p in &self.io.iss {
            c.set_bool(p.valid, false);
        }
        for x in [self.io.rst, self.io.init_en, self.io.launch_en, self.io.rel_en] {
            c.set_bool(x, false);
        }
        for p in &self.io.fe {
            c.set_bool(p.pop, false);
        }
    }

    /// The reset cycle, then the kernel start: `used` marks the rename
    /// registers the compiler's allocation occupies.
    pub fn reset(&mut self, used: &[u64]) {
        self.compiler_regs = used.iter().map(|w| w.count_ones()).sum();
        self.inst.reset(self.io.rst);
        let c = &mut self.inst.comp;
        c.set_bool(self.io.init_en, true);
        c.set(self.io.init_used, used);
        c.eval();
        c.tick();
        c.set_bool(self.io.init_en, false);
    }

    /// Offer an instruction on port `k`; the unit's decision. The offer
    /// commits at the end of the cycle unless withdrawn.
    pub fn offer(&mut self, k: usize, o: &Offer) -> Action {
        let c = &mut self.inst.comp;
        let p = &self.io.iss[k];
        c.set_bool(p.valid, true);
        c.set_u64(p.warp, o.warp as u64);
        c.set_u64(p.pc, o.pc as u64);
        c.set_u64(p.op, o.class);
        for (ops, regs) in [(&p.src, o.reads), (&p.dst, o.writes)] {
            for (i, x) in ops.iter().enumerate() {
                let reg = regs.get(i).copied();
                c.set_u64(x.reg, reg.unwrap_or(0) as u64);
                c.set_bool(x.vld, reg.is_some());
            }
        }
        c.set_u64(p.taken, o.branch.0 as u64);
        c.set_u64(p.target, o.branch.1 as u64);
        c.set_u64(p.reconv, o.branch.2 as u64);
        c.set_bool(p.reuse, o.reuse.is_some());
        self.dsts_presented = self.dsts_presented & !(1 << k) | ((!o.writes.is_empty()) as u64) << k;
        for (&id, &r) in p.reuse_pdst.iter().zip(&o.reuse.unwrap_or_default()) {
            c.set_u64(id, r as u64);
        }
        // The decision and the scoreboard's answer (`stall_reason`).
        c.eval_outputs(&[p.action, p.stall, p.long_dep]);
        Action::from_code(c.get_u64(p.action))
    }

    /// Fetch port `f` (§5.2): compare `warp`'s P-queue head with the
    /// instruction at `pc`; a ready match moves from the queue at the edge.
    pub fn fetch(&mut self, f: usize, warp: u16, pc: u32) -> FetchMatch {
        let c = &mut self.inst.comp;
        let p = &self.io.fe[f];
        c.set_u64(p.warp, warp as u64);
        c.set_u64(p.pc, pc as u64);
        c.eval();
        if !c.get_bool(p.hit) {
            return FetchMatch::Fetch;
        }
        if !c.get_bool(p.rdy) {
            return FetchMatch::Wait;
        }
        let mut pdst = [0u16; MAX_WRITES];
        for (x, &id) in pdst.iter_mut().zip(&p.pdst) {
            *x = c.get_u64(id) as u16;
        }
        c.set_bool(p.pop, true);
        self.commanded = true;
        FetchMatch::Moved(pdst)
    }

    /// Why the last offer on port `k` stalled, as far as the scoreboard
    /// knows: (operands pending, a source pending on a long-latency load).
    pub fn stall_reason(&self, k: usize) -> (bool, bool) {
        let c = &self.inst.comp;
        (c.get_bool(self.io.iss[k].stall), c.get_bool(self.io.iss[k].long_dep))
    }

    /// The offer on port `k` does not happen: the port presents no
    /// instruction. Its operands are cleared too, because a lower port's
    /// valid destinations reserve rename registers for the ports above it;
    /// a stale offer left there would move their choice (and it would
    /// depend on which warps were offered last).
    pub fn withdraw(&mut self, k: usize) {
        let c = &mut self.inst.comp;
        let p = &self.io.iss[k];
        c.set_bool(p.valid, false);
        for x in p.src.iter().chain(&p.dst) {
            c.set_bool(x.vld, false);
        }
        self.dsts_presented &= !(1 << k);
    }

    /// The offer on port `k` happens (its action changes state at the edge).
    pub fn commit(&mut self) {
        self.commanded = true;
    }

    /// P-queue index of the instruction pre-executed on port `k`, if the
    /// queue recorded it (not when it was full).
    pub fn pq_idx(&self, k: usize) -> Option<u32> {
        let c = &self.inst.comp;
        c.get_bool(self.io.iss[k].recorded).then(|| c.get_u64(self.io.iss[k].pq_idx) as u32)
    }

    pub fn wb_free(&self) -> usize {
        self.io.wb.len() - self.wb_used
    }

    /// A register is written back: by an N-mode instruction, or by a P-mode
    /// one (with its P-queue index if it was recorded).
    pub fn writeback(&mut self, warp: u16, reg: u8, pmode: bool, pq: Option<u32>) {
        let j = self.wb_used;
        self.wb_used += 1;
        self.commanded = true;
        let c = &mut self.inst.comp;
        let p = &self.io.wb[j];
        c.set_bool(p.en, true);
        c.set_u64(p.warp, warp as u64);
        c.set_u64(p.reg, reg as u64);
        c.set_bool(p.pmode, pmode);
        c.set_bool(p.rec, pq.is_some());
        c.set_u64(p.idx, pq.unwrap_or(0) as u64);
    }

    /// A warp starts (N-mode, SIMT stack base entry at PC 0 with `mask`).
    pub fn launch(&mut self, warp: u16, mask: u32) {
        self.commanded = true;
        let c = &mut self.inst.comp;
        c.set_bool(self.io.launch_en, true);
        c.set_u64(self.io.launch_warp, warp as u64);
        c.set_u64(self.io.launch_pc, 0);
        c.set_u64(self.io.launch_mask, mask as u64);
    }

    /// Release one N-table mapping of an exited warp.
    pub fn release(&mut self, warp: u16, reg: u8) {
        self.commanded = true;
        let c = &mut self.inst.comp;
        c.set_bool(self.io.rel_en, true);
        c.set_u64(self.io.rel_warp, warp as u64);
        c.set_u64(self.io.rel_reg, reg as u64);
    }

    /// The unit's state after this cycle's edge: per-warp mode and halted
    /// bits, rename registers P-mode holds, the stack overflow flag (all
    /// outputs of state alone). Read again only when the unit was clocked
    /// with a command (otherwise its state, and so all of these, is last
    /// cycle's).
    pub fn status(&mut self, clocked: bool) -> UnitStatus {
        if clocked || self.status.is_none() {
            // This cycle's commands were carried out at the edge.
            self.clear_commands();
            // The reference model's outputs of state alone are valid after
            // the edge (`PmodeUnitModel`), an RTL engine's after a settle.
            // The model's settle waits for the next offer or fetch.
            if self.inst.engine() != Engine::Model {
                self.inst.comp.eval();
            }
            let c = &mut self.inst.comp;
            let mask = if self.warps >= 64 { u64::MAX } else { (1u64 << self.warps) - 1 };
            let used: u32 = c.get(self.io.used).iter().map(|w| w.count_ones()).sum();
            self.status = Some(UnitStatus {
                mode: c.get_u64(self.io.mode) & mask,
                halted: c.get_u64(self.io.halted) & mask,
                rename_held: used - self.compiler_regs,
                overflow: c.get_bool(self.io.overflow),
            });
        }
        self.status.expect("read above")
    }

    /// Rename registers free (not in the availability vector). The vector
    /// is state: the last status read after an edge says.
    pub fn renames_free(&self) -> Option<u32> {
        let size = self.inst.comp.ports()[self.io.used.0 as usize].width;
        self.status.map(|s| size - s.rename_held - self.compiler_regs)
    }

    /// A port below `k` presents valid destinations this cycle: the
    /// rename block reserves registers for them before port `k` chooses.
    pub fn reserved_below(&self, k: usize) -> bool {
        self.dsts_presented & ((1 << k) - 1) != 0
    }

    /// The status last read, if it was read.
    pub fn last_status(&self) -> Option<UnitStatus> {
        self.status
    }

    /// Rename registers in use (the availability vector), and its size. The
    /// vector depends on the unit's state only: read after an offer's `eval`.
    pub fn rename_used(&self) -> (u32, u32) {
        let c = &self.inst.comp;
        let v = c.get(self.io.used);
        (v.iter().map(|w| w.count_ones()).sum(), c.ports()[self.io.used.0 as usize].width)
    }
}

/// One scheduler's `replay_unit` (replay mode): the warp buffers of its warps
/// (local index `w / schedulers`), their known-miss bits, an MSHR-use
/// predictor and an MSHR tracker holding its share of the credits.
pub struct ReplayUnit {
    pub inst: BlockInst,
    io: ReplayUnitIo<PortId>,
    slot_bits: u32,
    /// A fill, issue, completion or MSHR event this cycle.
    pub commanded: bool,
    /// Clocked at this cycle's edge.
    pub clocked: bool,
    offers: Offers,
}

/// The offer vectors of one cycle.
#[derive(Default)]
struct Offers {
    valid: u64,
    replay: u64,
    known_miss: u64,
    slots: Vec<u64>,
}

/// What a warp offers the scheduler (after `eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOffer {
    pub valid: bool,
    /// A retained instruction to replay (else the first issue at the issue pointer).
    pub replay: bool,
    /// A replay squashed for MSHR, COMQ or RSV.
    pub known_miss: bool,
    pub slot: u32,
}

/// The unit's answer for a picked warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayGrant {
    pub slot: u32,
    pub replay: bool,
    /// The threads a replay executes (its private active mask).
    pub pam: u32,
    pub credited: bool,
}

impl ReplayUnit {
    pub fn new(c: &Config, warps: u32, engine: Engine) -> Result<ReplayUnit, String> {
        use crate::config::{Predictor, Tracker};
        let r = &c.replay;
        let p = ReplayUnitParams {
            warps,
            slots: c.core.ibuffer_entries,
            simt_width: 32,
            fill_width: 1,
            mshrs: c.l1.mshrs / c.core.schedulers,
            tracker: match r.tracker {
                Tracker::None => TrackerKind::None,
                Tracker::Naive => TrackerKind::Naive,
                Tracker::Credit => TrackerKind::Credit,
            },
            delay: r.delay,
            pred_mode: match r.predictor {
                Predictor::AlwaysHit => PredictorMode::AlwaysHit,
                // The oracle's answer comes as `iss_load`.
                Predictor::AlwaysMiss | Predictor::Oracle => PredictorMode::AlwaysMiss,
                Predictor::Counter => PredictorMode::Counter,
            },
            pred_entries: r.counter_entries,
            pred_counter_bits: r.counter_bits,
            pc_bits: 32,
        };
        let slot_bits = p.warp_buffer().slot_bits();
        let (inst, io) = instantiate(&p, engine)?;
        Ok(ReplayUnit { inst, io, slot_bits, commanded: false, clocked: true, offers: Offers::default() })
    }

    pub fn reset(&mut self) {
        self.inst.reset(self.io.rst);
    }

    /// Start of a cycle: no fill, issue, completion or MSHR event; the
    /// naive tracker sees whether the MSHR table has a free entry.
    pub fn begin_cycle(&mut self, mshr_avail: bool) {
        self.commanded = false;
        let (c, io) = (&mut self.inst.comp, &self.io);
        for p in [io.rst, io.iss_valid, io.iss_flush, io.cpl_valid, io.mem_valid, io.mshr_free] {
            c.set_bool(p, false);
        }
        c.set_u64(io.fill_count, 0);
        c.set_bool(io.mshr_avail, mshr_avail);
    }

    /// Read every warp's offer (registers only: valid for the whole cycle).
    pub fn read_offers(&mut self) {
        let (c, io, o) = (&mut self.inst.comp, &self.io, &mut self.offers);
        c.eval();
        o.valid = c.get_u64(io.offer_valid);
        o.replay = c.get_u64(io.offer_replay);
        o.known_miss = c.get_u64(io.offer_known_miss);
        o.slots.clear();
        o.slots.extend_from_slice(c.get(io.offer_slot));
    }

    /// Warp `w`'s offer (as of `read_offers`).
    pub fn offer(&self, w: u32) -> ReplayOffer {
        let o = &self.offers;
        ReplayOffer {
            valid: o.valid >> w & 1 != 0,
            replay: o.replay >> w & 1 != 0,
            known_miss: o.known_miss >> w & 1 != 0,
            slot: models::bits::get_field(&o.slots, (w * self.slot_bits) as usize, self.slot_bits) as u32,
        }
    }

    /// The tracker lets a load predicted to need an MSHR issue.
    pub fn miss_issue_ok(&mut self) -> bool {
        self.inst.comp.eval();
        self.inst.comp.get_bool(self.io.miss_issue_ok)
    }

    /// Warp `w` has a free slot for fetch.
    pub fn fill_rdy(&mut self, w: u32) -> bool {
        self.inst.comp.eval();
        self.inst.comp.get(self.io.fill_rdy)[0] >> w & 1 != 0
    }

    /// Fetch writes one instruction of warp `w`: its slot.
    pub fn fill(&mut self, w: u32) -> u32 {
        self.commanded = true;
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.set_u64(io.fill_warp, w as u64);
        c.set_u64(io.fill_count, 1);
        c.eval();
        c.get_u64(io.fill_slot) as u32
    }

    /// The scheduler picks warp `w`'s offer (`load`: a global or local load,
    /// which may need an MSHR); `None` if the unit refuses it.
    pub fn pick(&mut self, w: u32, load: bool, pc: u32) -> Option<ReplayGrant> {
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.set_bool(io.iss_valid, true);
        c.set_u64(io.iss_warp, w as u64);
        c.set_bool(io.iss_load, load);
        c.set_u64(io.iss_pc, pc as u64);
        c.set_bool(io.iss_replayable, false);
        c.set_u64(io.iss_mask, 0);
        c.eval();
        if !c.get_bool(io.iss_ok) {
            return None;
        }
        self.commanded = true;
        Some(ReplayGrant {
            slot: c.get_u64(io.iss_slot) as u32,
            replay: c.get_bool(io.iss_replay),
            pam: c.get_u64(io.iss_pam) as u32,
            credited: c.get_bool(io.iss_credited),
        })
    }

    /// A first issue (after `pick`): a memory instruction is retained with
    /// the threads that access memory as its private active mask.
    pub fn first_issue(&mut self, replayable: bool, mask: u32) {
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.set_bool(io.iss_replayable, replayable);
        c.set_u64(io.iss_mask, mask as u64);
    }

    /// The issued instruction redirected its warp: drop what fetch brought after it.
    pub fn flush(&mut self) {
        self.inst.comp.set_bool(self.io.iss_flush, true);
    }

    /// The memory-stage checkpoint: threads `mask` of warp `w`'s slot completed; the
    /// rest replay (`miss`: squashed for MSHR, COMQ or RSV).
    pub fn complete(&mut self, w: u32, slot: u32, mask: u32, miss: bool) {
        self.commanded = true;
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.set_bool(io.cpl_valid, true);
        c.set_u64(io.cpl_warp, w as u64);
        c.set_u64(io.cpl_slot, slot as u64);
        c.set_u64(io.cpl_mask, mask as u64);
        c.set_bool(io.cpl_miss, miss);
    }

    /// A global or local load was resolved at the memory stage (tracker and predictor).
    pub fn resolved(&mut self, credited: bool, alloc: bool, miss: bool, pc: u32) {
        self.commanded = true;
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.set_bool(io.mem_valid, true);
        c.set_bool(io.mem_credited, credited);
        c.set_bool(io.mem_alloc, alloc);
        c.set_bool(io.mem_miss, miss);
        c.set_u64(io.mem_pc, pc as u64);
    }

    /// An MSHR this unit's load allocated was freed.
    pub fn mshr_freed(&mut self) {
        self.commanded = true;
        self.inst.comp.set_bool(self.io.mshr_free, true);
    }

    /// Credits in the pool (two's complement in the port; credit tracker only).
    pub fn credits(&mut self) -> i64 {
        let (c, io) = (&mut self.inst.comp, &self.io);
        c.eval();
        let w = c.ports()[io.credit_pool.0 as usize].width;
        let v = c.get_u64(io.credit_pool);
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

/// The DAC unit (`dac_unit`: ATQ, AEU, PEU, PWAQ, PWPQ; seed 003 Figure 9)
/// of DAC mode: the affine warps' `enq`s go in, the non-affine warps' `deq`s
/// take records and masks out; the SM watches its queue writes.
pub struct DacBlock {
    pub inst: BlockInst,
    io: hw::blocks::dac::dac_unit::DacUnitIo<PortId>,
    warp_bits: u32,
    cta: models::dac::CtaConfig,
}

/// What the unit does this cycle (outputs of the state and this cycle's
/// lane masks).
#[derive(Clone, Copy, Debug, Default)]
pub struct DacStatus {
    pub atq_count: u32,
    pub aeu_idle: bool,
    pub peu_idle: bool,
    /// The AEU writes a record into warp `.0`'s PWAQ partition (`.1`: the
    /// warp's last for the tuple), and `l1`, a data record's line to L1.
    pub aeu_push: Option<(u16, bool)>,
    pub l1: Option<u64>,
    /// The PEU writes a mask into warp `.0`'s PWPQ partition.
    pub peu_push: Option<u16>,
    /// The PEU's path counters: scalar, two-compare, serial, comparisons.
    pub peu_paths: [u64; 4],
}

impl DacBlock {
    /// Per-warp partitions of `entries / max_warps` records (at least one).
    pub fn new(c: &Config, engine: Engine) -> Result<DacBlock, String> {
        let warps = c.core.max_warps;
        let per = |entries: u32| (entries / warps).max(1) * warps;
        let p = hw::blocks::dac::dac_unit::DacUnitParams {
            warps,
            ctas: c.core.max_ctas,
            atq_entries: c.dac.atq_entries,
            pwaq_entries: per(c.dac.pwaq_entries),
            pwpq_entries: per(c.dac.pwpq_entries),
        };
        let (inst, io) = instantiate(&p, engine)?;
        let n = c.core.max_ctas as usize;
        let cta = models::dac::CtaConfig { dims: [1, 1, 1], valid: vec![false; n], bid: vec![[0; 3]; n], warp0: vec![0; n] };
        Ok(DacBlock { inst, io, warp_bits: p.warp_bits(), cta })
    }

    pub fn reset(&mut self) {
        self.inst.reset(self.io.rst);
    }

    /// CTA slot `slot` holds a CTA of `dims` threads and block index `bid`
    /// (16 bits a dimension: a wider index is left 0, its CTA's tuples carry
    /// their block-index terms in their base) whose warps are the
    /// consecutive slots from `warp0`.
    pub fn launch(&mut self, slot: usize, warp0: u16, dims: [u32; 3], bid: [u32; 3]) {
        self.cta.valid[slot] = true;
        self.cta.warp0[slot] = warp0 as u32;
        self.cta.bid[slot] = if hw::blocks::dac::cta::bid_fits(bid) { bid } else { [0; 3] };
        self.cta.dims = dims;
        let c = &mut self.inst.comp;
        self.cta.write(&self.io.cta, self.warp_bits, |id, v| c.set(id, v));
    }

    /// The CTA slots whose expansion of the AEU's tuple waits for their
    /// warps to pass a barrier (section 4.2).
    pub fn set_aeu_hold(&mut self, ctas: u16) {
        self.inst.comp.set_u64(self.io.aeu_cta_hold, ctas as u64);
    }

    /// The active threads, per warp slot, of the tuples the AEU (`pred`
    /// false) or the PEU works on.
    pub fn set_lanes(&mut self, pred: bool, lanes: &[u32]) {
        let id = if pred { self.io.peu_lane_mask } else { self.io.aeu_lane_mask };
        self.inst.comp.set(id, &models::dac::warp_words(lanes));
    }

    /// Clear the commands of the last cycle.
    pub fn begin_cycle(&mut self) {
        let c = &mut self.inst.comp;
        for id in [self.io.enq_valid, self.io.deq_addr, self.io.deq_pred] {
            c.set_bool(id, false);
        }
    }

    pub fn status(&mut self) -> DacStatus {
        let c = &mut self.inst.comp;
        c.eval();
        let io = &self.io;
        let peu_paths = [io.peu_cnt_scalar, io.peu_cnt_uniform, io.peu_cnt_serial, io.peu_cnt_cmp].map(|id| c.get_u64(id));
        DacStatus {
            atq_count: c.get_u64(io.atq_count) as u32,
            aeu_idle: c.get_bool(io.aeu_idle),
            peu_idle: c.get_bool(io.peu_idle),
            aeu_push: c.get_bool(io.aeu_push).then(|| (c.get_u64(io.aeu_push_warp) as u16, c.get_bool(io.aeu_push_last))),
            l1: c.get_bool(io.l1_req).then(|| c.get_u64(io.l1_req_line)),
            peu_push: c.get_bool(io.peu_push).then(|| c.get_u64(io.peu_push_warp) as u16),
            peu_paths,
        }
    }

    /// Would the ATQ take an `enq` of this kind now (§4.1: not while it is
    /// full or some warp's queue of the kind is): the unit's ready of the
    /// kind, from its state alone.
    pub fn enq_ready(&mut self, kind: u64) -> bool {
        let c = &mut self.inst.comp;
        c.eval();
        c.get_bool(if kind == hw::blocks::dac::tuple::KIND_PRED { self.io.enq_ready_pred } else { self.io.enq_ready_addr })
    }

    /// The affine warp enqueues `t` this cycle.
    pub fn enq(&mut self, t: &models::dac::TupleCmd) {
        let c = &mut self.inst.comp;
        c.set(self.io.enq_tuple, &t.pack());
        c.set_bool(self.io.enq_valid, true);
    }

    /// The head record of warp `w`'s PWAQ partition, taken at this edge.
    pub fn take_record(&mut self, w: u16) -> Option<models::dac::Record> {
        let c = &mut self.inst.comp;
        c.set_u64(self.io.deq_addr_warp, w as u64);
        c.eval();
        let head = (!c.get_bool(self.io.addr_empty)).then(|| models::dac::Record::unpack(c.get_u64(self.io.addr_rec)));
        c.set_bool(self.io.deq_addr, head.is_some());
        head
    }

    /// The head mask of warp `w`'s PWPQ partition, taken at this edge.
    pub fn take_mask(&mut self, w: u16) -> Option<u32> {
        let c = &mut self.inst.comp;
        c.set_u64(self.io.deq_pred_warp, w as u64);
        c.eval();
        let head = (!c.get_bool(self.io.pred_empty)).then(|| c.get_u64(self.io.pred_mask) as u32);
        c.set_bool(self.io.deq_pred, head.is_some());
        head
    }

    /// The end of the cycle: the edge.
    pub fn end_cycle(&mut self) {
        let c = &mut self.inst.comp;
        c.eval();
        c.tick();
    }
}
