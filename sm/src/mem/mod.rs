//! The memory hierarchy below the memory stage: tag arrays, coalescing and
//! bank conflicts, and the interconnect / L2 / DRAM model.

pub mod cache;
pub mod coalesce;
pub mod direct_prefetch;
pub mod lower;
pub mod mta;
