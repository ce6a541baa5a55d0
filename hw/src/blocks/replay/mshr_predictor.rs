//! `mshr_predictor` — the MSHR-use (cache-miss) predictor that tells the issue stage
//! whether a load will need an MSHR (Turner, MASc thesis, UBC 2012, seed 004: §6.1 "MSHR
//! Use Predictors"; results in §7.2.1 and Table 7.1).
//!
//! Every predictor first uses what is known: a load squashed for an MSHR, COMQ or RSV
//! hazard has missed in the cache and is *known to miss* (the `known_miss` input, kept per
//! warp-buffer slot by `replay_unit`); a load squashed for DIV is not (its next access is a
//! different address). Otherwise the prediction depends on `mode`:
//!
//! | `mode` | thesis name             | prediction when not known to miss |
//! |--------|-------------------------|-----------------------------------|
//! | 0      | Predict Hit ("false")   | hit: only known misses need an MSHR (at most one MSHR replay per load) |
//! | 1      | Predict Miss ("true")   | miss: every load needs an MSHR |
//! | 2      | Saturating Counter      | per-PC counter: miss iff its top bit is set |
//!
//! One block with an elaboration-time `mode` rather than three blocks: all three share the
//! ports (so `replay_unit` and the traffic harness swap them with a parameter), modes 0 and
//! 1 are plain wires, and only mode 2 builds the counter table.
//!
//! The fourth predictor of the thesis, the **oracle** (checks the L1 at issue time), is not
//! hardware — "in hardware operation the issue stage does not have access to the memory
//! stage caches and could in any case not check the cache until the address was known"
//! (§6.1). It is simulation-only and belongs to the composed SM model in `sim`: a
//! behavioural component with these same ports whose `pred_miss` comes from probing the L1
//! model, used in place of this block. It is deliberately not a mode here.
//!
//! The thesis's counter table was one table shared by all cores with instant updates, an
//! upper bound it calls impractical (§6.1); here it is one table per SM (per instance),
//! direct-mapped by the low PC bits, untagged (aliasing is accepted, as in branch
//! predictors). The thesis gives no size: 256 entries of 2 bits are chosen.
//!
//! # Parameters
//!
//! | name           | default | range          | meaning |
//! |----------------|---------|----------------|---------|
//! | `mode`         | 0       | 0..=2          | 0 always-hit, 1 always-miss, 2 per-PC counters; default = the thesis's best (§8: credit tracker + predict hit) |
//! | `entries`      | 256     | 1..=4096, 2^k  | counters (mode 2) |
//! | `counter_bits` | 2       | 1..=8          | bits per saturating counter (mode 2) |
//! | `pc_bits`      | 32      | 1..=64         | width of a PC (instruction address in instruction units) |
//!
//! # Ports
//!
//! | port         | dir | width   | meaning |
//! |--------------|-----|---------|---------|
//! | `rst`        | in  | 1       | synchronous active-high reset (mode 2 only: modes 0 and 1 have no state, so no `clk`/`rst`) |
//! | `pc`         | in  | pc_bits | PC of the load being considered for issue |
//! | `known_miss` | in  | 1       | the load was squashed for an MSHR/COMQ/RSV hazard |
//! | `upd_valid`  | in  | 1       | a load was resolved at the memory stage (training) |
//! | `upd_pc`     | in  | pc_bits | its PC |
//! | `upd_miss`   | in  | 1       | it missed in the cache (line absent or pending) |
//! | `pred_miss`  | out | 1       | the load is predicted to need an MSHR |
//!
//! # Cycle semantics
//!
//! Combinational: mode 0 `pred_miss = known_miss`; mode 1 `pred_miss = 1`; mode 2
//! `pred_miss = known_miss | ctr[pc mod entries] >= 2^(counter_bits-1)`, the counter read
//! from the registers (an update in the same cycle is not bypassed).
//!
//! At the rising edge (mode 2 only; modes 0 and 1 have no state): if `upd_valid`,
//! `ctr[upd_pc mod entries]` saturating-increments on `upd_miss`, saturating-decrements
//! otherwise. Reset (`rst`, synchronous) sets every counter to weakly-hit,
//! `2^(counter_bits-1) - 1`, so one miss flips a fresh entry to predict miss.
//!
//! # Storage
//!
//! Mode 2: `entries * counter_bits` flip-flops (512 bits for 256 x 2); modes 0 and 1: none,
//! so **0 bits** at the defaults (mode 0). The counters are registers, not a memory, so
//! that reset can clear them in one cycle. The thesis gives no figure ("would depend on
//! the size of the saturating counter table", §7.2.4); no `paper_storage`.
//!
//! Known limitation of the emitted Verilog (a foundation issue, reported): the reset of a
//! register array deeper than 64 words is a `for` loop of non-blocking assignments, which
//! Verilator rejects (`BLKLOOPINIT`). So mode 2 with the default 256 entries passes
//! iverilog and yosys but not Verilator; up to 64 entries it passes all three. The
//! netlist simulation is unaffected.

use crate::iface::{Binder, Interface, InterfaceExt};
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, ParamSpec, ParamValue};
use crate::registry::{Block, StorageAccount};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "mshr_predictor";

/// Predictor kinds (the `mode` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredictorMode {
    /// Predict hit unless known to miss (thesis "false").
    AlwaysHit = 0,
    /// Predict miss (thesis "true").
    AlwaysMiss = 1,
    /// Per-PC saturating counters (thesis "predictor").
    Counter = 2,
}

impl PredictorMode {
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(PredictorMode::AlwaysHit),
            1 => Some(PredictorMode::AlwaysMiss),
            2 => Some(PredictorMode::Counter),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            PredictorMode::AlwaysHit => "always-hit",
            PredictorMode::AlwaysMiss => "always-miss",
            PredictorMode::Counter => "counter",
        }
    }
}

impl ParamValue for PredictorMode {
    fn from_u64(v: u64) -> Option<Self> {
        PredictorMode::from_u32(u32::try_from(v).ok()?)
    }
    fn to_u64(&self) -> u64 {
        *self as u64
    }
}

/// The predictor's specs, shared with `replay_unit` (as `pred_*`).
pub const MODE: ParamSpec = ParamSpec {
    name: "mode",
    default: 0,
    min: 0,
    max: 2,
    doc: "0 always-hit (known misses only), 1 always-miss, 2 per-PC saturating counters",
    source: "thesis section 6.1: always-hit is the thesis's default",
};
pub const ENTRIES: ParamSpec = ParamSpec {
    name: "entries",
    default: 256,
    min: 1,
    max: 4096,
    doc: "counter table entries, a power of two (mode 2)",
    source: "not in the thesis: a 256-entry table",
};
pub const COUNTER_BITS: ParamSpec = ParamSpec {
    name: "counter_bits",
    default: 2,
    min: 1,
    max: 8,
    doc: "bits per saturating counter (mode 2)",
    source: "the usual 2-bit saturating counter",
};
pub const PC_BITS: ParamSpec =
    ParamSpec { name: "pc_bits", default: 32, min: 1, max: 64, doc: "PC width", source: "32-bit PCs" };

crate::block_params! {
    /// Parameters of the MSHR-use predictor.
    pub struct MshrPredictorParams {
        mode: PredictorMode = shared(MODE),
        entries: u32 = shared(ENTRIES),
        counter_bits: u32 = shared(COUNTER_BITS),
        pc_bits: u32 = shared(PC_BITS),
    }
    check = |p: &MshrPredictorParams| power_of_two_entries(p.entries);
}

/// The counter table is indexed by low PC bits.
pub(crate) fn power_of_two_entries(entries: u32) -> Result<(), String> {
    if !entries.is_power_of_two() {
        return Err(format!("entries = {entries} must be a power of two (indexed by low PC bits)"));
    }
    Ok(())
}

impl MshrPredictorParams {
    /// Width of a table index (at least 1, as every index).
    pub fn index_bits(&self) -> u32 {
        clog2(self.entries as u64)
    }
    /// Counter value at and above which a miss is predicted.
    pub fn threshold(&self) -> u32 {
        1 << (self.counter_bits - 1)
    }
    /// Largest counter value.
    pub fn max_count(&self) -> u32 {
        (1u32 << self.counter_bits) - 1
    }
    /// Counter value after reset (weakly hit).
    pub fn reset_count(&self) -> u32 {
        self.threshold() - 1
    }
    /// Whether the block has registers (and therefore `clk` and `rst`): mode 2 only.
    pub fn has_state(&self) -> bool {
        self.mode == PredictorMode::Counter
    }
}

/// The predictor's ports: `rst` only with state (mode 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MshrPredictorIo<H> {
    pub rst: Option<H>,
    pub pc: H,
    pub known_miss: H,
    pub upd_valid: H,
    pub upd_pc: H,
    pub upd_miss: H,
    pub pred_miss: H,
}

impl Interface for MshrPredictorParams {
    type Io<H> = MshrPredictorIo<H>;

    fn describe<B: Binder>(&self, b: &mut B) -> MshrPredictorIo<B::H> {
        MshrPredictorIo {
            rst: self.has_state().then(|| b.reset()),
            pc: b.input("pc", self.pc_bits),
            known_miss: b.input("known_miss", 1),
            upd_valid: b.input("upd_valid", 1),
            upd_pc: b.input("upd_pc", self.pc_bits),
            upd_miss: b.input("upd_miss", 1),
            pred_miss: b.output("pred_miss", 1),
        }
    }
}

impl Block for MshrPredictorParams {
    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "MSHR-use predictor: always-hit, always-miss or per-PC saturating counters, known misses first";
    const SOURCE: &'static str = "Turner, MASc thesis, UBC 2012, section 6.1";

    fn generate(&self, name: &str) -> Result<Arc<Module>, HwError> {
        mshr_predictor(self, name)
    }

    /// No thesis figure.
    fn storage(&self) -> StorageAccount {
        let bits = if self.has_state() { self.entries as i64 * self.counter_bits as i64 } else { 0 };
        StorageAccount::default().differs(bits, "the per-PC counter table, mode 2 (no thesis figure)")
    }
}

/// Generate the predictor.
pub fn mshr_predictor(p: &MshrPredictorParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    let what = match p.mode {
        PredictorMode::Counter => format!("{} saturating {}-bit counters indexed by the low PC bits", p.entries, p.counter_bits),
        mode => format!("{} (no state)", mode.name()),
    };
    m.doc(&format!(
        "MSHR-use predictor (Turner, MASc thesis, UBC 2012, section 6.1): known misses (squashed for an MSHR, \
         COMQ or RSV hazard) need an MSHR; otherwise {what}."
    ));
    let io = p.decls();
    let pc = m.port(&io.pc);
    let known_miss = m.port(&io.known_miss);
    let upd_valid = m.port(&io.upd_valid);
    let upd_pc = m.port(&io.upd_pc);
    let upd_miss = m.port(&io.upd_miss);
    let pred = m.port(&io.pred_miss);
    match p.mode {
        PredictorMode::AlwaysHit => pred.set(known_miss),
        PredictorMode::AlwaysMiss => pred.set(lit(1, 1)),
        PredictorMode::Counter => {
            let (cb, ib) = (p.counter_bits, p.index_bits());
            let ctr = m.reg_array("ctr", p.entries, cb, p.reset_count() as u64);
            // Direct-mapped by the low PC bits (a single entry: always entry 0).
            let index = |x: Sig| if p.entries == 1 { lit(0, ib) } else { x.resize(ib) };
            let look = ctr.read(index(pc)).named("ctr_look");
            pred.set(known_miss | look.msb());
            let at = index(upd_pc);
            let c = ctr.read(at).named("ctr_upd");
            let max = p.max_count() as u64;
            let inc = mux(c.eq(max), c, c + 1u64);
            let dec = mux(c.eq(0u64), c, c - 1u64);
            ctr.write(at, mux(upd_miss, inc, dec), upd_valid);
        }
    }
    m.finish_io(p)
}

pub static BLOCK: crate::registry::BlockInfo = crate::registry::BlockInfo::of::<MshrPredictorParams>();

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{BlockParams, Params};

    #[test]
    fn defaults_and_storage() {
        let d = MshrPredictorParams::default();
        assert_eq!(d.storage().expected_bits(), 0);
        assert_eq!(MshrPredictorParams { mode: PredictorMode::Counter, ..d.clone() }.storage().expected_bits(), 512);
        assert_eq!((d.threshold(), d.reset_count(), d.max_count()), (2, 1, 3));
    }

    #[test]
    fn rejects_bad_entries() {
        let p = Params::resolve(NAME, MshrPredictorParams::SPECS, &[("entries".into(), "100".into())]).unwrap();
        assert!(MshrPredictorParams::from_params(&p).is_err());
    }
}
