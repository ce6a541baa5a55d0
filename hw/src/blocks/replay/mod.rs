//! Replay and memory-hazard avoidance blocks: Turner, MASc thesis, UBC 2012
//! (seed 004), chapters 5 and 6.
//!
//! * [`warp_buffer`]: one warp's replay warp buffer (§5.2-5.3, Figure 5.4).
//! * [`mshr_table`]: L1D MSHRs with request merging (§1.1.7).
//! * [`credit_tracker`], [`naive_tracker`]: MSHR trackers (§6.0.1).
//! * [`mshr_predictor`]: MSHR-use predictors (§6.1); the oracle is simulation-only.
//! * [`replay_unit`]: warp buffers + tracker + predictor for one SM.
//!
//! The replay generators select with AND-OR logic (`crate::util::gate`), see there why.

pub mod credit_tracker;
pub mod mshr_predictor;
pub mod mshr_table;
pub mod naive_tracker;
pub mod replay_unit;
pub mod warp_buffer;

use crate::registry::BlockInfo;

/// The blocks of this family, in registry order.
pub static BLOCKS: &[&BlockInfo] = &[
    &warp_buffer::BLOCK,
    &mshr_table::BLOCK,
    &credit_tracker::BLOCK,
    &naive_tracker::BLOCK,
    &mshr_predictor::BLOCK,
    &replay_unit::BLOCK,
];
