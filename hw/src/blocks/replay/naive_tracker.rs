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
//! | `rst`           | in  | 1     | synchronous active-high reset |
//! | `mshr_avail`    | in  | 1     | the memory stage currently shows a free MSHR |
//! | `miss_issue_ok` | out | 1     | a load predicted to miss may issue |
//!
//! # Cycle semantics
//!
//! `delay = 0`: `miss_issue_ok = mshr_avail`, combinationally (the thesis's instant view).
//! `delay = d > 0`: `miss_issue_ok` is `mshr_avail` of `d` cycles earlier, through a
//! `d`-stage shift register whose reset value is 1 (after reset every MSHR is free), so
//! for the first `d` cycles after reset `miss_issue_ok = 1`.
//!
//! # Storage
//!
//! `delay` flip-flops: **0 bits** at the default. No thesis figure; no `paper_storage`.

use crate::params::{BlockParams, ParamError, ParamSpec, Params};

/// Block name.
pub const BLOCK: &str = "naive_tracker";

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

/// Flip-flops of the hardware.
pub fn storage_bits(p: &NaiveTrackerParams) -> u64 {
    p.delay as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs() {
        let p = Params::resolve(BLOCK, NaiveTrackerParams::SPECS, &[]).unwrap();
        assert_eq!(NaiveTrackerParams::from_params(&p).unwrap(), NaiveTrackerParams::default());
        assert_eq!(storage_bits(&NaiveTrackerParams::default()), 0);
    }
}
