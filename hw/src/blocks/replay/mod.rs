//! Replay and memory-hazard avoidance blocks: Turner, MASc thesis, UBC 2012
//! (seed 004), chapters 5 and 6.
//!
//! * [`warp_buffer`]: one warp's replay warp buffer (§5.2-5.3, Figure 5.4).
//! * [`mshr_table`]: L1D MSHRs with request merging (§1.1.7).
//! * [`credit_tracker`], [`naive_tracker`]: MSHR trackers (§6.0.1).
//! * [`mshr_predictor`]: MSHR-use predictors (§6.1); the oracle is simulation-only.
//! * [`replay_unit`]: warp buffers + tracker + predictor for one SM.

pub mod credit_tracker;
pub mod mshr_predictor;
pub mod mshr_table;
pub mod naive_tracker;
pub mod replay_unit;
pub mod warp_buffer;

use crate::ir::{lit_bits, Bits, Sig};
use crate::params::ParamSpec;
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

/// Module name for typed parameter values (in `specs` order), by the same rule as
/// [`crate::registry::module_name`]: the block name, plus `_<param><value>` for every
/// value that differs from the paper's default. Used for sub-module instances, whose
/// parameters come from the enclosing unit rather than from a `Params`.
pub(crate) fn typed_module_name(base: &str, specs: &[ParamSpec], values: &[u64]) -> String {
    let mut name = base.to_string();
    for (spec, &v) in specs.iter().zip(values) {
        if v != spec.default {
            name.push_str(&format!("_{}{}", spec.name, v));
        }
    }
    name
}

/// All ones, `width` bits.
pub(crate) fn ones(width: u32) -> Sig {
    lit_bits(&Bits::ones(width))
}

/// Bits `0 .. n` set (`n` may be anything up to and past the width: all ones then).
pub(crate) fn low_mask(n: Sig, width: u32) -> Sig {
    !ones(width).shl(n)
}

/// Rotate the `w`-bit `v` right by `amt` (< w): bit `amt` lands at bit 0.
pub(crate) fn rotate_right(v: Sig, amt: Sig) -> Sig {
    let w = v.width();
    crate::ir::cat(&[v, v]).shr(amt).trunc(w)
}

/// Rotate the `w`-bit `v` left by `amt` (< w): bit 0 lands at bit `amt`.
pub(crate) fn rotate_left(v: Sig, amt: Sig) -> Sig {
    let w = v.width();
    crate::ir::cat(&[v, v]).shl(amt).slice(w, w)
}

/// `x` when `cond`, else 0, as an AND gate.
///
/// The replay generators select shifter and memory-read results with AND-OR logic
/// rather than `mux`: yosys's `share` pass (part of generic `synth`) tries to merge
/// every pair of shifters / memory reads whose results pass through multiplexers, one
/// SAT query over the whole flattened module per pair. With 64 warp buffers that was
/// 4,352 queries and 91% of a 260 s synthesis; with AND-OR selection it has nothing to
/// try. The logic is the same (a multiplexer is AND-OR after mapping).
pub(crate) fn gate(cond: Sig, x: Sig) -> Sig {
    x & cond.sext(x.width())
}

/// `cond ? t : f` as AND-OR logic (see [`gate`]).
pub(crate) fn and_or(cond: Sig, t: Sig, f: Sig) -> Sig {
    gate(cond, t) | gate(!cond, f)
}

/// `items[k]` for the one `k` with `hot[k]` set (0 if none), as AND-OR logic (see
/// [`gate`]); `hot` must be one-hot or zero.
pub(crate) fn select_onehot(hot: &[Sig], items: &[Sig]) -> Sig {
    let mut acc = gate(hot[0], items[0]);
    for (h, x) in hot.iter().zip(items).skip(1) {
        acc = acc | gate(*h, *x);
    }
    acc
}
