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

use super::typed_module_name;
use crate::ir::{lit, mux, HwError, Module, ModuleBuilder, Sig};
use crate::params::{clog2, BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{BlockError, BlockInfo, PaperFigure};
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

/// Parameters of the MSHR-use predictor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MshrPredictorParams {
    pub mode: PredictorMode,
    pub entries: u32,
    pub counter_bits: u32,
    pub pc_bits: u32,
}

impl Default for MshrPredictorParams {
    fn default() -> Self {
        MshrPredictorParams { mode: PredictorMode::AlwaysHit, entries: 256, counter_bits: 2, pc_bits: 32 }
    }
}

impl BlockParams for MshrPredictorParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "mode",
            default: 0,
            min: 0,
            max: 2,
            doc: "0 always-hit (known misses only), 1 always-miss, 2 per-PC saturating counters",
        },
        ParamSpec { name: "entries", default: 256, min: 1, max: 4096, doc: "counter table entries, a power of two (mode 2)" },
        ParamSpec { name: "counter_bits", default: 2, min: 1, max: 8, doc: "bits per saturating counter (mode 2)" },
        ParamSpec { name: "pc_bits", default: 32, min: 1, max: 64, doc: "PC width" },
    ];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let entries = p.get_u32("entries");
        if !entries.is_power_of_two() {
            return Err(p.invalid(format!("entries = {entries} must be a power of two (indexed by low PC bits)")));
        }
        let mode = PredictorMode::from_u32(p.get_u32("mode")).ok_or_else(|| p.invalid("mode must be 0, 1 or 2"))?;
        Ok(MshrPredictorParams { mode, entries, counter_bits: p.get_u32("counter_bits"), pc_bits: p.get_u32("pc_bits") })
    }
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
}

impl MshrPredictorParams {
    /// Whether the block has registers (and therefore `clk` and `rst`): mode 2 only.
    pub fn has_state(&self) -> bool {
        self.mode == PredictorMode::Counter
    }
}

/// Flip-flops of the hardware.
pub fn storage_bits(p: &MshrPredictorParams) -> u64 {
    match p.mode {
        PredictorMode::Counter => p.entries as u64 * p.counter_bits as u64,
        _ => 0,
    }
}

/// Module name for a parameter set (`mshr_predictor` at the defaults).
pub fn module_name(p: &MshrPredictorParams) -> String {
    let v = [p.mode as u64, p.entries as u64, p.counter_bits as u64, p.pc_bits as u64];
    typed_module_name(NAME, MshrPredictorParams::SPECS, &v)
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
    let pc = m.input("pc", p.pc_bits);
    let known_miss = m.input("known_miss", 1);
    let upd_valid = m.input("upd_valid", 1);
    let upd_pc = m.input("upd_pc", p.pc_bits);
    let upd_miss = m.input("upd_miss", 1);
    let pred = m.output("pred_miss", 1);
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
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = MshrPredictorParams::from_params(params)?;
    Ok(mshr_predictor(&p, &module_name(&p))?)
}

/// The thesis gives no figure (section 7.2.4).
fn paper_storage(_: &Params) -> Vec<PaperFigure> {
    Vec::new()
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: NAME,
    summary: "MSHR-use predictor: always-hit, always-miss or per-PC saturating counters, known misses first",
    source: "Turner, MASc thesis, UBC 2012, section 6.1",
    params: MshrPredictorParams::SPECS,
    build,
    paper_storage,
    composed: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs_and_storage() {
        let p = Params::resolve(NAME, MshrPredictorParams::SPECS, &[]).unwrap();
        let d = MshrPredictorParams::from_params(&p).unwrap();
        assert_eq!(d, MshrPredictorParams::default());
        assert_eq!(storage_bits(&d), 0);
        assert_eq!(storage_bits(&MshrPredictorParams { mode: PredictorMode::Counter, ..d.clone() }), 512);
        assert_eq!((d.threshold(), d.reset_count(), d.max_count()), (2, 1, 3));
    }

    #[test]
    fn rejects_bad_entries() {
        let p = Params::resolve(NAME, MshrPredictorParams::SPECS, &[("entries".into(), "100".into())]).unwrap();
        assert!(MshrPredictorParams::from_params(&p).is_err());
    }
}
