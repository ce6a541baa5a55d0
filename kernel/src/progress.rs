//! The no-forward-progress detector: a warp is *spinning* when its
//! architectural state (PC, SIMT stack, registers, predicates, exited
//! lanes) returns to an earlier value while no memory has changed since.
//!
//! "Memory changed" means a store, or an atomic that wrote a value other
//! than the one it read; counting a store of the value already there as a
//! change only makes the detector more conservative.
//!
//! A decoupled kernel's warp (DAC) that dequeued a record since has made
//! progress its registers may not show (the loop counter went to the
//! affine stream): it is not the same state.
//!
//! Why that is sound: with memory unchanged, a warp's next state is a
//! function of its own state (its loads read the same bytes, a failed
//! `atom.cas` returns the same value), whatever the other warps do and in
//! whatever order they are scheduled. A warp whose state recurs will
//! therefore repeat the same loop until some other warp changes memory.
//! When every live warp of the running CTAs is spinning or waiting at a
//! barrier, nothing can ever change memory again: the kernel can never
//! finish (a flag that is set after a barrier the spinner never reaches,
//! an intra-warp spin lock under SIMT reconvergence, a CTA waiting for a
//! later one). A loop that counts (`while (!flag) tries++;`) does not
//! recur and is stopped by the instruction or cycle budget instead.
//!
//! Cost: Brent's cycle detection, one snapshot per power of two of
//! instructions since the last memory change, compared only when the PC
//! matches the snapshot's.

use crate::exec::WarpState;

/// Instructions before the first snapshot.
const FIRST_WINDOW: u64 = 64;

/// Per-warp recurrence detector; see the module docs.
#[derive(Clone, Debug)]
pub struct SpinDetector {
    /// The snapshot's storage is kept across resets (no allocation per
    /// memory change); `taken` says whether it holds a snapshot.
    snap: Option<WarpState>,
    taken: bool,
    steps: u64,
    window: u64,
    /// The memory generation the snapshot belongs to.
    generation: u64,
    spinning: bool,
}

impl Default for SpinDetector {
    fn default() -> Self {
        SpinDetector { snap: None, taken: false, steps: 0, window: FIRST_WINDOW, generation: 0, spinning: false }
    }
}

fn same_state(a: &WarpState, b: &WarpState) -> bool {
    a.stack == b.stack && a.exited == b.exited && a.preds == b.preds && a.carry == b.carry && a.regs == b.regs && a.dequeued == b.dequeued
}

impl SpinDetector {
    /// Forget the warp's history (a new warp in the slot).
    pub fn reset(&mut self) {
        self.taken = false;
        self.steps = 0;
        self.window = FIRST_WINDOW;
        self.spinning = false;
    }

    /// Call after warp `w` executed an instruction, with `generation` the
    /// count of instructions so far that changed memory (any warp, any
    /// space). Returns whether the warp is spinning.
    #[inline]
    pub fn step(&mut self, w: &WarpState, generation: u64) -> bool {
        if generation != self.generation {
            self.reset();
            self.generation = generation;
            return false;
        }
        if self.spinning {
            return true;
        }
        self.steps += 1;
        if let Some(s) = self.snap.as_ref().filter(|_| self.taken) {
            if s.stack.last().map(|e| e.pc) == w.stack.last().map(|e| e.pc) && same_state(s, w) {
                self.spinning = true;
                return true;
            }
        }
        if self.steps >= self.window {
            match &mut self.snap {
                Some(s) => s.clone_from(w),
                None => self.snap = Some(w.clone()),
            }
            self.taken = true;
            self.window *= 2;
            self.steps = 0;
        }
        false
    }

    /// Whether the warp was found spinning with memory as it is at
    /// `generation`.
    pub fn spinning(&self, generation: u64) -> bool {
        self.spinning && self.generation == generation
    }
}
