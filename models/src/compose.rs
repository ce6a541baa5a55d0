//! What a composed block's model needs to evaluate only the sub-blocks whose
//! outputs can have changed: which inputs of a sub-block reach its outputs
//! combinationally, from the sub-block's generator.

use hw::ir::Module;
use hw::registry::Block;
use sim::{Dir, PortFrame, PortId, PortSpec};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

/// By port of a component of `m`'s ports: true for an input with a
/// combinational path to some output of `m` (`Module::comb_deps`), and for a
/// port `m` does not list (the reset: conservatively). A block's outputs are
/// a function of its state and those inputs, so a change of any other input
/// (a command acted on at the clock edge) needs no new `eval`.
fn comb_inputs(m: &Module, ports: &[PortSpec]) -> Vec<bool> {
    let inputs: Vec<&str> = m.inputs().map(|s| s.name.as_str()).collect();
    let comb: HashSet<&str> = m.comb_deps.iter().flatten().map(|&i| inputs[i as usize]).collect();
    let known: HashSet<&str> = inputs.iter().copied().collect();
    ports.iter().map(|p| p.dir == Dir::In && (!known.contains(p.name.as_str()) || comb.contains(p.name.as_str()))).collect()
}

/// [`comb_inputs`] of a block's generator, elaborated once per parameter
/// set (cached by module name: one name, one module).
pub fn block_comb<B: Block>(p: &B, ports: &[PortSpec]) -> Arc<Vec<bool>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Vec<bool>>>>> = OnceLock::new();
    let name = p.name();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let v = cache.entry(name).or_insert_with_key(|name| {
        let m = p.elaborate().unwrap_or_else(|e| panic!("the generator of `{name}` builds at parameters its model accepts: {e}"));
        Arc::new(comb_inputs(&m, ports))
    });
    Arc::clone(v)
}

/// A sub-block's inputs in a composition: its frame, its combinational
/// inputs, whether its outputs must be evaluated again (`dirty`) and
/// whether any input changed since its last `eval` (`stale`: the next state
/// that `eval` computed no longer holds).
pub struct SubIn<'a> {
    pub frame: &'a mut PortFrame,
    pub comb: &'a [bool],
    pub dirty: &'a mut bool,
    pub stale: &'a mut bool,
}

impl SubIn<'_> {
    /// Drive an input.
    #[inline]
    pub fn put(&mut self, id: PortId, v: &[u64]) {
        if self.frame.set_changed(id, v) {
            *self.dirty |= self.comb[id.0 as usize];
            *self.stale = true;
        }
    }
}

/// Which of `N` sub-blocks each of `G` groups of wires has not read since
/// the sub-block was last evaluated: per sub-block an `eval` count, per
/// group the counts it last read. A wire whose source has not been
/// evaluated since is left as it is.
pub struct Reads<const N: usize, const G: usize> {
    evals: [u64; N],
    seen: [[u64; N]; G],
}

impl<const N: usize, const G: usize> Default for Reads<N, G> {
    /// Every sub-block unread by every group.
    fn default() -> Self {
        Reads { evals: [1; N], seen: [[0; N]; G] }
    }
}

impl<const N: usize, const G: usize> Reads<N, G> {
    /// Sub-block `c` was evaluated.
    pub fn evaluated(&mut self, c: usize) {
        self.evals[c] += 1;
    }

    /// Per sub-block: whether it was evaluated since group `g` last read
    /// its outputs (and marks them read).
    pub fn unseen(&mut self, g: usize) -> [bool; N] {
        let fresh = std::array::from_fn(|c| self.seen[g][c] != self.evals[c]);
        self.seen[g] = self.evals;
        fresh
    }
}
