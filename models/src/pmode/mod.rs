//! Reference models of the P-mode blocks (specifications:
//! `hw::blocks::pmode`).

pub mod mode_ctrl;
pub mod pmode_unit;
pub mod pqueue;
pub mod rename;
pub mod scoreboard;
pub mod simt_stack;

use crate::ModelEntry;
use hw::blocks::pmode::{
    mode_ctrl::ModeCtrlParams, pmode_unit::PmodeUnitParams, pqueue::PqueueParams, rename::RenameParams,
    scoreboard::ScoreboardParams, simt_stack::SimtStackParams,
};

/// The family's models, in registry order.
pub static MODELS: &[&ModelEntry] = &[
    &ModelEntry::of::<ScoreboardParams>(),
    &ModelEntry::of::<PqueueParams>(),
    &ModelEntry::of::<RenameParams>(),
    &ModelEntry::of::<SimtStackParams>(),
    &ModelEntry::of::<ModeCtrlParams>(),
    &ModelEntry::of::<PmodeUnitParams>(),
];
