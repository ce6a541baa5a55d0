//! Reference models of the P-mode blocks (specifications:
//! `hw::blocks::pmode`).

pub mod mode_ctrl;
pub mod pmode_unit;
pub mod pqueue;
pub mod rename;
pub mod scoreboard;
pub mod simt_stack;

use crate::ModelEntry;
use sim::{PortFrame, PortId};
use hw::blocks::pmode::{
    mode_ctrl::ModeCtrlParams, pmode_unit::PmodeUnitParams, pqueue::PqueueParams, rename::RenameParams,
    scoreboard::ScoreboardParams, simt_stack::SimtStackParams,
};

/// For a model whose outputs are per issue port: by input port, the issue
/// port whose outputs it feeds (or every port's, or none); and the issue
/// ports whose outputs `eval` must compute again (their inputs changed, or
/// the state did).
pub(crate) struct PortFeeds {
    feeds: Vec<u8>,
    dirty: u64,
}

impl PortFeeds {
    /// An input every issue port's outputs depend on.
    pub const ALL: u8 = u8::MAX;
    /// An input no output depends on.
    pub const NONE: u8 = u8::MAX - 1;

    /// Every input of `frame` feeds `default` until `feed` says otherwise;
    /// every issue port is dirty.
    pub fn new(frame: &PortFrame, default: u8) -> Self {
        PortFeeds { feeds: vec![default; frame.specs().len()], dirty: u64::MAX }
    }

    /// Input `id` feeds issue port `k`'s outputs.
    pub fn feed(&mut self, id: PortId, k: usize) {
        self.feeds[id.0 as usize] = k as u8;
    }

    /// Store an input in `frame`; whether its value changed (then the ports
    /// it feeds are dirty).
    #[inline]
    pub fn set(&mut self, frame: &mut PortFrame, id: PortId, value: &[u64]) -> bool {
        let changed = frame.set_changed(id, value);
        if changed {
            self.dirty |= self.ports_of(id);
        }
        changed
    }

    /// [`PortFeeds::set`] of a frame that shares `words`
    /// ([`PortFrame::share`]).
    #[inline]
    pub fn set_in(&mut self, frame: &PortFrame, words: &mut [u64], id: PortId, value: &[u64]) -> bool {
        let changed = frame.set_changed_in(words, id, value);
        if changed {
            self.dirty |= self.ports_of(id);
        }
        changed
    }

    /// The issue ports input `id` feeds, a bit each.
    pub fn ports_of(&self, id: PortId) -> u64 {
        match self.feeds[id.0 as usize] {
            Self::ALL => u64::MAX,
            Self::NONE => 0,
            k => 1 << k,
        }
    }

    /// An input feeding `ports` (from [`PortFeeds::ports_of`]) changed.
    #[inline]
    pub fn mark(&mut self, ports: u64) {
        self.dirty |= ports;
    }

    /// The state changed: every issue port is dirty.
    pub fn all(&mut self) {
        self.dirty = u64::MAX;
    }

    /// The dirty issue ports (bit per port), now clean.
    pub fn take(&mut self) -> u64 {
        std::mem::take(&mut self.dirty)
    }
}

/// The family's models, in registry order.
pub static MODELS: &[&ModelEntry] = &[
    &ModelEntry::of::<ScoreboardParams>(),
    &ModelEntry::of::<PqueueParams>(),
    &ModelEntry::of::<RenameParams>(),
    &ModelEntry::of::<SimtStackParams>(),
    &ModelEntry::of::<ModeCtrlParams>(),
    &ModelEntry::of::<PmodeUnitParams>(),
];
