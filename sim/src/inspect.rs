//! Looking inside a running RTL engine: the instance hierarchy, its named
//! signals and its memories, read in place. Both RTL engines (the netlist
//! interpreter and the compiled engine) implement [`Inspect`]; the VCD tracer,
//! the GTKWave save file and `peek_path` work through it, so they serve
//! either engine (and the SM's block scopes) the same way.

use crate::component::words_for;

/// A level of the instance hierarchy (the top module is scope 0).
#[derive(Clone, Debug)]
pub struct Scope {
    pub name: String,
    pub module: String,
    pub parent: Option<u32>,
}

/// A named signal of the hierarchy and where its value lives (a word offset
/// into the engine's state, read with [`Inspect::slot_words`]).
#[derive(Clone, Debug)]
pub struct SimSignal {
    pub scope: u32,
    pub name: String,
    pub width: u32,
    pub slot: u32,
    pub is_port: bool,
}

/// A memory (RAM or register array) of the hierarchy.
#[derive(Clone, Debug)]
pub struct SimMem {
    pub scope: u32,
    pub name: String,
    pub depth: u32,
    pub width: u32,
    /// First word of the memory in the engine's memory storage, and words
    /// per entry.
    pub(crate) base: usize,
    pub(crate) stride: usize,
}

/// Read access to a running RTL engine's signals and memories. Values are
/// valid after `eval` (registers and memories also right after `tick`).
pub trait Inspect {
    fn scopes(&self) -> &[Scope];
    /// Every named signal the engine keeps (all of the hierarchy's, unless
    /// the engine was built to keep only ports and state).
    fn signals(&self) -> &[SimSignal];
    fn memories(&self) -> &[SimMem];
    /// `n` words at a signal's slot.
    fn slot_words(&self, slot: u32, n: usize) -> &[u64];
    /// Current contents of word `i` of a memory.
    fn mem_word(&self, m: &SimMem, i: u32) -> &[u64];

    /// Current value of a signal.
    fn value(&self, s: &SimSignal) -> &[u64] {
        self.slot_words(s.slot, words_for(s.width))
    }

    /// Path of a scope below the top (`""` for the top, `inst.sub` below).
    fn scope_path(&self, scope: u32) -> String {
        let scopes = self.scopes();
        let mut parts = Vec::new();
        let mut sc = scope;
        while let Some(p) = scopes[sc as usize].parent {
            parts.push(scopes[sc as usize].name.clone());
            sc = p;
        }
        parts.reverse();
        parts.join(".")
    }

    /// Hierarchical path of a signal below the top scope (`inst.sub.name`).
    fn path(&self, s: &SimSignal) -> String {
        join_path(&self.scope_path(s.scope), &s.name)
    }

    /// Hierarchical path of a memory below the top scope.
    fn mem_path(&self, m: &SimMem) -> String {
        join_path(&self.scope_path(m.scope), &m.name)
    }

    /// Value of a named signal by hierarchical path (`sb.pending` or a
    /// top-level name); for tests and debugging, not the hot path.
    fn peek_path(&self, path: &str) -> Option<&[u64]> {
        self.signals().iter().find(|s| self.path(s) == path).map(|s| self.value(s))
    }
}

fn join_path(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}
