//! `naive_tracker` — the naive MSHR tracker (Turner, MASc thesis, UBC 2012, seed 004:
//! §6.0.1 "MSHR Trackers", compared with the credit tracker in §7.2.2).
//!
//! "The naive merely checks the current number of MSHRs and only schedules warps that are
//! predicted to need an MSHR when an MSHR is available." It keeps no account of the loads
//! it has already let into the pipeline, so with a pipeline between issue and memory stage
//! it oversubscribes the MSHRs. The thesis simulated it with no signalling delay and notes
//! that "such a delay could only make this tracker worse" (§6.0.1, §8.1): `delay` adds it.
//!
//! The memory stage only needs to send one bit (`free_count > 0` of the MSHR table), so the
//! block is a `delay`-stage delay line of that bit.
//!
//! # Parameters
//!
//! | name    | default | range  | meaning |
//! |---------|---------|--------|---------|
//! | `delay` | 0       | 0..=16 | register stages between the memory stage and the issue stage |
//!
//! # Ports
//!
//! | port            | dir | width | meaning |
//! |-----------------|-----|-------|---------|
//! | `rst`           | in  | 1     | synchronous active-high reset (only with `delay > 0`) |
//! | `mshr_avail`    | in  | 1     | the memory stage currently shows a free MSHR |
//! | `miss_issue_ok` | out | 1     | a load predicted to miss may issue |
//!
//! # Cycle semantics
//!
//! `delay = 0`: `miss_issue_ok = mshr_avail`, combinationally (the thesis's instant view).
//! The block then has no state and, as every stateless module of the IR, no `clk` and no
//! `rst` port. (`keep_clock_and_reset` would keep the port list parameter-independent, but
//! the registry's storage check requires a clocked block to have storage; `replay_unit`
//! does not care, its instances get `rst` only when they have state.)
//! `delay = d > 0`: `miss_issue_ok` is `mshr_avail` of `d` cycles earlier, through a
//! `d`-stage shift register whose reset value is 1 (after reset every MSHR is free), so
//! for the first `d` cycles after reset `miss_issue_ok = 1`.
//!
//! # Storage
//!
//! `delay` flip-flops: **0 bits** at the default. No thesis figure; no `paper_storage`.

use super::typed_module_name;
use crate::ir::{cat, HwError, Module, ModuleBuilder};
use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use crate::registry::{BlockError, BlockInfo, PaperFigure};
use std::sync::Arc;

/// Block name.
pub const NAME: &str = "naive_tracker";

/// Parameters of the naive MSHR tracker.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NaiveTrackerParams {
    pub delay: u32,
}

impl BlockParams for NaiveTrackerParams {
    const SPECS: &'static [ParamSpec] = &[ParamSpec {
        name: "delay",
        default: 0,
        min: 0,
        max: 16,
        doc: "register stages between the memory stage's MSHR status and the issue stage (thesis: 0)",
    }];

    fn from_params(p: &Params) -> Result<Self, ParamError> {
        Ok(NaiveTrackerParams { delay: p.get_u32("delay") })
    }
}

impl NaiveTrackerParams {
    /// Whether the block has registers (and therefore `clk` and `rst`).
    pub fn has_state(&self) -> bool {
        self.delay > 0
    }
}

/// Flip-flops of the hardware.
pub fn storage_bits(p: &NaiveTrackerParams) -> u64 {
    p.delay as u64
}

/// Module name for a parameter set (`naive_tracker` at the defaults).
pub fn module_name(p: &NaiveTrackerParams) -> String {
    typed_module_name(NAME, NaiveTrackerParams::SPECS, &[p.delay as u64])
}

/// Generate the naive tracker.
pub fn naive_tracker(p: &NaiveTrackerParams, name: &str) -> Result<Arc<Module>, HwError> {
    let m = ModuleBuilder::new(name);
    m.doc(&format!(
        "Naive MSHR tracker (Turner, MASc thesis, UBC 2012, section 6.0.1): the memory stage's \
         MSHR-available bit, {} register stage(s) late.",
        p.delay
    ));
    let avail = m.input("mshr_avail", 1);
    let ok = m.output("miss_issue_ok", 1);
    if p.delay == 0 {
        ok.set(avail);
    } else {
        // Bit 0 takes this cycle's value, bit delay-1 is the oldest; reset: all free.
        let line = m.reg("avail_line", p.delay, (1u64 << p.delay) - 1);
        line.set(if p.delay == 1 { avail } else { cat(&[line.trunc(p.delay - 1), avail]) });
        ok.set(line.msb());
    }
    m.finish()
}

fn build(params: &Params) -> Result<Arc<Module>, BlockError> {
    let p = NaiveTrackerParams::from_params(params)?;
    Ok(naive_tracker(&p, &module_name(&p))?)
}

/// No thesis figure.
fn paper_storage(_: &Params) -> Vec<PaperFigure> {
    Vec::new()
}

pub static BLOCK: BlockInfo = BlockInfo {
    name: NAME,
    summary: "naive MSHR tracker: issue loads predicted to miss while the memory stage shows a free MSHR",
    source: "Turner, MASc thesis, UBC 2012, section 6.0.1",
    params: NaiveTrackerParams::SPECS,
    build,
    paper_storage,
    composed: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs() {
        let p = Params::resolve(NAME, NaiveTrackerParams::SPECS, &[]).unwrap();
        assert_eq!(NaiveTrackerParams::from_params(&p).unwrap(), NaiveTrackerParams::default());
        assert_eq!(storage_bits(&NaiveTrackerParams::default()), 0);
    }
}
