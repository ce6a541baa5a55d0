//! Reference models of the replay blocks (specifications:
//! `hw::blocks::replay`).

pub mod credit_tracker;
pub mod mshr_predictor;
pub mod mshr_table;
pub mod naive_tracker;
pub mod replay_unit;
pub mod warp_buffer;

use crate::ModelEntry;
use hw::blocks::replay::{
    credit_tracker::CreditTrackerParams, mshr_predictor::MshrPredictorParams, mshr_table::MshrTableParams,
    naive_tracker::NaiveTrackerParams, replay_unit::ReplayUnitParams, warp_buffer::WarpBufferParams,
};

/// The family's models, in registry order.
pub static MODELS: &[&ModelEntry] = &[
    &ModelEntry::of::<WarpBufferParams>(),
    &ModelEntry::of::<MshrTableParams>(),
    &ModelEntry::of::<CreditTrackerParams>(),
    &ModelEntry::of::<NaiveTrackerParams>(),
    &ModelEntry::of::<MshrPredictorParams>(),
    &ModelEntry::of::<ReplayUnitParams>(),
];
