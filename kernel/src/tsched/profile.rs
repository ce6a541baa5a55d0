//! The training run's profile: per instruction, how often warps executed
//! it, how often with part of their live threads inactive (divergent), and
//! for a branch how many threads took it and how many fell through — the
//! paper's per-thread branch counters (section 2), reduced per branch.
//!
//! Counts are collected by instruction index on the allocated kernel
//! ([`InstProfile`], filled by [`crate::run_profiled`]) and kept by PTX
//! source line ([`Profile`]), which the pass finds again in the parsed
//! text whatever register allocation and spilling did to the indices.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::exec::Executed;
use crate::Kernel;

/// Counts of one instruction (or one source line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Warp executions.
    pub execs: u64,
    /// Warp executions with some live thread inactive.
    pub divergent: u64,
    /// Threads that took the branch (guard true).
    pub taken: u64,
    /// Threads that fell through.
    pub not_taken: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.execs += o.execs;
        self.divergent += o.divergent;
        self.taken += o.taken;
        self.not_taken += o.not_taken;
    }
}

/// Counts by instruction index of one kernel, during a run.
#[derive(Clone, Debug, Default)]
pub struct InstProfile {
    pub counts: Vec<Counts>,
}

impl InstProfile {
    pub fn new(k: &Kernel) -> InstProfile {
        InstProfile { counts: vec![Counts::default(); k.insts.len()] }
    }

    /// One warp instruction: `live` = the warp's threads that had not exited.
    pub fn record(&mut self, ex: &Executed, live: u32) {
        let Some(c) = self.counts.get_mut(ex.inst as usize) else { return };
        c.execs += 1;
        c.divergent += (ex.active != live) as u64;
        if let Some(b) = ex.branch {
            c.taken += b.taken.count_ones() as u64;
            c.not_taken += b.not_taken.count_ones() as u64;
        }
    }
}

/// Counts by kernel (PTX name) and PTX source line, summed over launches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub kernels: BTreeMap<String, BTreeMap<u32, Counts>>,
}

impl Profile {
    /// Add one launch's counts. An instruction the allocator added (a
    /// spill) carries its source line and adds to it; only the first
    /// instruction of a line counts executions, so a line's `execs` is how
    /// often its statement ran.
    pub fn add(&mut self, k: &Kernel, p: &InstProfile) {
        let lines = self.kernels.entry(k.name.clone()).or_default();
        let mut prev = None;
        for (inst, c) in k.insts.iter().zip(&p.counts) {
            let e = lines.entry(inst.line).or_default();
            if prev == Some(inst.line) {
                e.taken += c.taken;
                e.not_taken += c.not_taken;
            } else {
                e.add(c);
            }
            prev = Some(inst.line);
        }
    }

    pub fn merge(&mut self, o: &Profile) {
        for (k, lines) in &o.kernels {
            let mine = self.kernels.entry(k.clone()).or_default();
            for (l, c) in lines {
                mine.entry(*l).or_default().add(c);
            }
        }
    }

    pub fn counts(&self, kernel: &str, line: u32) -> Counts {
        self.kernels.get(kernel).and_then(|l| l.get(&line)).copied().unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a profile serializes")
    }

    pub fn from_json(text: &str, file: &str) -> Result<Profile, String> {
        serde_json::from_str(text).map_err(|e| format!("{file}: not a branch profile: {e}"))
    }

    /// Read a profile written by [`Profile::save`].
    pub fn load(path: &Path) -> Result<Profile, String> {
        let text = crate::input::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Profile::from_json(&text, &path.display().to_string())
    }

    /// Write (replacing the file whole: a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, self.to_json()).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
