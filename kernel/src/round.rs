//! Directed rounding (`.rz`, `.rm`, `.rp`) of the floating-point operations
//! PTX lets carry it: add, sub, mul, fma/mad, div, rcp, sqrt, and cvt from
//! integers and from f64 to f32. Each result is the exact value rounded in
//! the given direction, as the PTX ISA defines it — computed exactly, never
//! approximated: add, sub, mul, fma, div and the conversions through
//! `rustc_apfloat` (the Rust port of LLVM's APFloat, which rustc uses to
//! fold constants), sqrt by the sign of the exact remainder `a - q*q`.
//! NaN results are the native operation's (a rounding direction does not
//! change a NaN).

use crate::inst::Rnd;
use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, FloatConvert, Round};
use std::cmp::Ordering;

/// The apfloat rounding of a directed PTX mode (`.rn` maps to ties-to-even).
fn round_of(r: Rnd) -> Round {
    match r {
        Rnd::Rz => Round::TowardZero,
        Rnd::Rm => Round::TowardNegative,
        Rnd::Rp => Round::TowardPositive,
        _ => Round::NearestTiesToEven,
    }
}

/// The operations that round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundedOp {
    Add,
    Sub,
    Mul,
    Fma,
    Div,
    Rcp,
    Sqrt,
}

/// Move `rn` (the correctly rounded-to-nearest result) one step in the
/// direction `r` asks for, given how the exact value compares with it.
fn adjust<F: Copy>(rn: F, exact_vs_rn: Ordering, r: Rnd, up: impl Fn(F) -> F, down: impl Fn(F) -> F, negative: bool) -> F {
    match (r, exact_vs_rn) {
        (_, Ordering::Equal) | (Rnd::Rn, _) => rn,
        (Rnd::Rm, Ordering::Less) => down(rn),
        (Rnd::Rp, Ordering::Greater) => up(rn),
        (Rnd::Rz, Ordering::Less) if !negative => down(rn),
        (Rnd::Rz, Ordering::Greater) if negative => up(rn),
        _ => rn,
    }
}

macro_rules! directed {
    ($name:ident, $f:ty, $soft:ty, $sqrt_rem:expr) => {
        /// `op` on `a`, `b`, `c` (fma: a * b + c) rounded by `r`.
        pub fn $name(op: RoundedOp, r: Rnd, a: $f, b: $f, c: $f) -> $f {
            let native = match op {
                RoundedOp::Add => a + b,
                RoundedOp::Sub => a - b,
                RoundedOp::Mul => a * b,
                RoundedOp::Fma => a.mul_add(b, c),
                RoundedOp::Div => a / b,
                RoundedOp::Rcp => 1.0 / a,
                RoundedOp::Sqrt => a.sqrt(),
            };
            if native.is_nan() || r == Rnd::Rn {
                return native;
            }
            let s = |x: $f| <$soft>::from_bits(x.to_bits() as u128);
            let round = round_of(r);
            let v = match op {
                RoundedOp::Add => s(a).add_r(s(b), round).value,
                RoundedOp::Sub => s(a).sub_r(s(b), round).value,
                RoundedOp::Mul => s(a).mul_r(s(b), round).value,
                RoundedOp::Fma => s(a).mul_add_r(s(b), s(c), round).value,
                RoundedOp::Div => s(a).div_r(s(b), round).value,
                RoundedOp::Rcp => s(1.0).div_r(s(a), round).value,
                RoundedOp::Sqrt => {
                    if native == 0.0 || native.is_infinite() {
                        return native;
                    }
                    let exact_vs_rn: Ordering = $sqrt_rem(a, native);
                    return adjust(native, exact_vs_rn, r, <$f>::next_up, <$f>::next_down, false);
                }
            };
            <$f>::from_bits(v.to_bits() as _)
        }
    };
}

/// sqrt(a) against q = RN(sqrt(a)) for f32: a - q*q is exact in f64.
fn sqrt_rem32(a: f32, q: f32) -> Ordering {
    let rem = a as f64 - (q as f64) * (q as f64);
    rem.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

/// sqrt(a) against q = RN(sqrt(a)) for f64: the remainder a - q*q, exact
/// by fma when a is scaled out of the subnormal range first (by 2^108, so
/// that q scales by 2^54 exactly).
fn sqrt_rem64(a: f64, q: f64) -> Ordering {
    let (a, q) = if a < f64::MIN_POSITIVE { (a * 2f64.powi(108), q * 2f64.powi(54)) } else { (a, q) };
    let rem = (-q).mul_add(q, a);
    rem.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

directed!(f32_directed, f32, Single, sqrt_rem32);
directed!(f64_directed, f64, Double, sqrt_rem64);

/// An integer converted to f32 or f64 (`dst_f32`) with rounding `r`.
pub fn int_to_float(x: i128, dst_f32: bool, r: Rnd) -> u64 {
    let round = round_of(r);
    if dst_f32 {
        Single::from_i128_r(x, round).value.to_bits() as u64
    } else {
        Double::from_i128_r(x, round).value.to_bits() as u64
    }
}

/// An f64 narrowed to f32 with rounding `r`.
pub fn f64_to_f32(x: f64, r: Rnd) -> f32 {
    if x.is_nan() || r == Rnd::Rn {
        return x as f32;
    }
    let mut loses = false;
    let v: rustc_apfloat::StatusAnd<Single> = Double::from_bits(x.to_bits() as u128).convert_r(round_of(r), &mut loses);
    f32::from_bits(v.value.to_bits() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent values: an exact product/quotient/root in f64 (or by
    /// hand) and the neighbouring f32s.
    #[test]
    fn directed_f32_against_exact_values() {
        // 1 + 2^-30 is between 1 and next_up(1) = 1 + 2^-23.
        let t = 2f32.powi(-30);
        assert_eq!(f32_directed(RoundedOp::Add, Rnd::Rn, 1.0, t, 0.0), 1.0);
        assert_eq!(f32_directed(RoundedOp::Add, Rnd::Rp, 1.0, t, 0.0), 1.0f32.next_up());
        assert_eq!(f32_directed(RoundedOp::Add, Rnd::Rm, 1.0, t, 0.0), 1.0);
        assert_eq!(f32_directed(RoundedOp::Add, Rnd::Rm, -1.0, -t, 0.0), (-1.0f32).next_down());
        assert_eq!(f32_directed(RoundedOp::Add, Rnd::Rz, -1.0, -t, 0.0), -1.0);
        // 1/3: the f64 quotient brackets the f32 ones.
        let third = 1.0f64 / 3.0;
        let (dn, up) = (f32_directed(RoundedOp::Div, Rnd::Rm, 1.0, 3.0, 0.0), f32_directed(RoundedOp::Div, Rnd::Rp, 1.0, 3.0, 0.0));
        assert!((dn as f64) < third && (up as f64) > third && dn.next_up() == up);
        assert_eq!(f32_directed(RoundedOp::Rcp, Rnd::Rz, 3.0, 0.0, 0.0), dn);
        // sqrt(2) likewise; exact roots stay exact.
        let (dn, up) = (f32_directed(RoundedOp::Sqrt, Rnd::Rm, 2.0, 0.0, 0.0), f32_directed(RoundedOp::Sqrt, Rnd::Rp, 2.0, 0.0, 0.0));
        assert!((dn as f64) < 2f64.sqrt() && (up as f64) > 2f64.sqrt() && dn.next_up() == up);
        assert_eq!(f32_directed(RoundedOp::Sqrt, Rnd::Rm, 16.0, 0.0, 0.0), 4.0);
        // fma with the exact product: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly.
        let x = 1.0 + 2f32.powi(-12);
        assert_eq!(f32_directed(RoundedOp::Fma, Rnd::Rm, x, x, -1.0), 2f32.powi(-11) + 2f32.powi(-24));
        // Overflow: toward zero gives the largest finite value.
        assert_eq!(f32_directed(RoundedOp::Mul, Rnd::Rz, f32::MAX, 2.0, 0.0), f32::MAX);
        assert_eq!(f32_directed(RoundedOp::Mul, Rnd::Rp, f32::MAX, 2.0, 0.0), f32::INFINITY);
        assert!(f32_directed(RoundedOp::Sqrt, Rnd::Rm, -1.0, 0.0, 0.0).is_nan());
    }

    #[test]
    fn directed_f64_sqrt_and_conversions() {
        let (dn, up) = (f64_directed(RoundedOp::Sqrt, Rnd::Rm, 2.0, 0.0, 0.0), f64_directed(RoundedOp::Sqrt, Rnd::Rp, 2.0, 0.0, 0.0));
        assert_eq!(dn.next_up(), up);
        // sqrt(2)^2 = 2: dn^2 < 2 < up^2, checked with the exact products.
        assert!(dn.mul_add(dn, -2.0) < 0.0 && up.mul_add(up, -2.0) > 0.0);
        // A subnormal input: sqrt(2^-1074) = 2^-537 exactly.
        assert_eq!(f64_directed(RoundedOp::Sqrt, Rnd::Rp, f64::from_bits(1), 0.0, 0.0), 2f64.powi(-537));
        // 2^24 + 1 is not an f32: down gives 2^24, up 2^24 + 2.
        assert_eq!(int_to_float((1 << 24) + 1, true, Rnd::Rm), (16777216f32).to_bits() as u64);
        assert_eq!(int_to_float((1 << 24) + 1, true, Rnd::Rp), (16777218f32).to_bits() as u64);
        assert_eq!(int_to_float(-((1 << 24) + 1), true, Rnd::Rz), (-16777216f32).to_bits() as u64);
        assert_eq!(f64_to_f32(1.0 + 2f64.powi(-40), Rnd::Rp), 1.0f32.next_up());
        assert_eq!(f64_to_f32(1.0 + 2f64.powi(-40), Rnd::Rz), 1.0);
        assert_eq!(f64_to_f32(1e300, Rnd::Rz), f32::MAX);
    }
}
