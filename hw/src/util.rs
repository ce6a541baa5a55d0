//! A small hardware library shared by every block family (in the spirit of
//! `chisel3.util`): index checks, circular pointers, masks, rotates, priority
//! pickers, AND-OR selection and the address arithmetic of per-warp rows.
//!
//! Every helper builds ordinary IR in the module under construction and is
//! written so that its logic is the cheapest exact form (a constant where
//! the range makes a check redundant, a plain add where a pointer wraps
//! naturally).

use crate::ir::{cat, lit, lit_bits, mux, Bits, Sig};
use crate::params::clog2;

/// Width of an index into `n` things (at least 1).
pub fn idx_bits(n: u32) -> u32 {
    clog2(n as u64)
}

/// `x < n` for an index `x` (constant 1 when every value of its width is
/// below `n`, e.g. a warp id when the warp count is a power of two).
pub fn below(x: Sig, n: impl Into<u64>) -> Sig {
    let n: u64 = n.into();
    if x.width() < 64 && n >= 1u64 << x.width() {
        lit(1, 1)
    } else {
        x.lt(n)
    }
}

/// `(x + 1) mod n` for a circular pointer or counter `x < n`: a plain
/// increment when `n` is `2^width(x)` (it wraps by itself), else an explicit
/// wrap to 0 after `n - 1`.
pub fn inc_mod(x: Sig, n: u32) -> Sig {
    if x.width() < 64 && n as u64 == 1u64 << x.width() {
        x + 1u64
    } else {
        mux(x.eq((n - 1) as u64), lit(0, x.width()), x + 1u64)
    }
}

/// `(x + 1) mod n` always as the explicit compare-and-wrap (`x == n-1 ? 0 :
/// x + 1`), even when `n` is `2^width(x)`: the DAC family's queue pointers
/// (ATQ, PWAQ, PWPQ) are written this way at every depth, so their Verilog
/// reads the same for every size. The same function as [`inc_mod`].
pub fn inc_wrap(x: Sig, n: u32) -> Sig {
    mux(x.eq((n - 1) as u64), lit(0, x.width()), x + 1u64)
}

/// All ones, `width` bits.
pub fn ones(width: u32) -> Sig {
    lit_bits(&Bits::ones(width))
}

/// The low `n` bits of a `width`-bit mask set (`n` may reach or pass the
/// width: all ones then). A thermometer code.
pub fn low_mask(n: Sig, width: u32) -> Sig {
    !ones(width).shl(n)
}

/// Rotate the `w`-bit `v` right by `amt` (< w): bit `amt` lands at bit 0.
pub fn rotate_right(v: Sig, amt: Sig) -> Sig {
    let w = v.width();
    cat(&[v, v]).shr(amt).trunc(w)
}

/// Rotate the `w`-bit `v` left by `amt` (< w): bit 0 lands at bit `amt`.
pub fn rotate_left(v: Sig, amt: Sig) -> Sig {
    let w = v.width();
    cat(&[v, v]).shl(amt).slice(w, w)
}

/// `x` when `cond`, else 0, as an AND gate.
///
/// The replay generators select shifter and memory-read results with AND-OR
/// logic rather than `mux`: yosys's `share` pass (part of generic `synth`)
/// tries to merge every pair of shifters / memory reads whose results pass
/// through multiplexers, one SAT query over the whole flattened module per
/// pair. With 64 warp buffers that was 4,352 queries and 91% of a 260 s
/// synthesis; with AND-OR selection it has nothing to try. The logic is the
/// same (a multiplexer is AND-OR after mapping).
pub fn gate(cond: Sig, x: Sig) -> Sig {
    x & cond.sext(x.width())
}

/// `cond ? t : f` as AND-OR logic (see [`gate`]).
pub fn and_or(cond: Sig, t: Sig, f: Sig) -> Sig {
    gate(cond, t) | gate(!cond, f)
}

/// `items[k]` for the one `k` with `hot[k]` set (0 if none), as AND-OR logic
/// (see [`gate`]); `hot` must be one-hot or zero.
pub fn select_onehot(hot: &[Sig], items: &[Sig]) -> Sig {
    let mut acc = gate(hot[0], items[0]);
    for (h, x) in hot.iter().zip(items).skip(1) {
        acc = acc | gate(*h, *x);
    }
    acc
}

/// Address of word `idx` of `row`'s slice in a memory of `rows x per` words
/// (`row * per + idx`, a shift when `per` is a power of two). Only
/// meaningful for `row < rows` and `idx < per`: callers gate writes and mask
/// reads.
pub fn row_addr(row: Sig, idx: Sig, rows: u32, per: u32) -> Sig {
    let aw = idx_bits(rows * per);
    let base = if per.is_power_of_two() {
        row.zext(aw) << per.trailing_zeros()
    } else {
        (row.zext(aw) * lit(per as u64, aw)).trunc(aw)
    };
    base + idx.resize(aw)
}

/// Circular priority pick: the first set bit of `v` at or after position
/// `start` (wrapping), as `(found, index)`. One rotate and a priority
/// encoder; `v.width()` must be a power of two (the index wraps by
/// truncation).
pub fn first_from(v: Sig, start: Sig) -> (Sig, Sig) {
    let w = start.width();
    let rot = rotate_right(v, start);
    (v.any(), start + rot.ffs().resize(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ModuleBuilder;

    /// The helpers elaborate to width-correct logic (the simulator and the
    /// per-block co-simulations check their values).
    #[test]
    fn helpers_elaborate() {
        let m = ModuleBuilder::new("util_demo");
        let x = m.input("x", 3);
        let v = m.input("v", 8);
        m.output("a", 1).set(below(x, 5u32));
        m.output("b", 1).set(below(x, 8u32));
        m.output("c", 3).set(inc_mod(x, 8));
        m.output("d", 3).set(inc_mod(x, 6));
        m.output("e", 8).set(low_mask(x, 8) ^ rotate_left(v, x) ^ rotate_right(v, x));
        let (f, i) = first_from(v, x);
        m.output("f", 1).set(f);
        m.output("i", 3).set(i);
        m.output("g", 8).set(and_or(f, v, ones(8)) | select_onehot(&[f, !f], &[v, v]));
        m.output("r", 4).set(row_addr(x.trunc(1), x.trunc(1), 2, 8));
        m.finish().unwrap();
    }
}
