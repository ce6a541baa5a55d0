//! Half-precision arithmetic: `.f16` (IEEE binary16) and `.bf16`
//! (bfloat16), alone or as packed pairs (`.f16x2`, `.bf16x2`: element 0 in
//! the low 16 bits), as PTX defines them: add, sub, mul and fma rounded to
//! nearest even, exactly (through `rustc_apfloat`, in the half's own
//! format: one rounding); min/max with the PTX ISA's NaN rules; neg, abs;
//! `ex2.approx` computed exactly rounded; comparisons and conversions
//! through the exact f64 value. `.ftz` flushes subnormal inputs and results
//! to signed zero, `.sat` clamps to [0, 1] (NaN to 0), `.relu` clamps
//! negative results to +0. NaN results are the canonical NaN 0x7fff.

use crate::inst::{AluOp, FMods, Rnd, Ty};
use rustc_apfloat::ieee::{BFloat, Double, Half};
use rustc_apfloat::{Float, FloatConvert, Round};

/// The canonical NaN of both formats.
pub const CANONICAL_NAN: u16 = 0x7fff;

fn round_of(r: Option<Rnd>) -> Round {
    match r {
        Some(Rnd::Rz | Rnd::Rzi) => Round::TowardZero,
        Some(Rnd::Rm | Rnd::Rmi) => Round::TowardNegative,
        Some(Rnd::Rp | Rnd::Rpi) => Round::TowardPositive,
        _ => Round::NearestTiesToEven,
    }
}

fn is_bf(ty: Ty) -> bool {
    matches!(ty, Ty::BF16 | Ty::BF16x2)
}

/// A half's exact value.
pub fn to_f64(bits: u16, bf: bool) -> f64 {
    if bf {
        f32::from_bits((bits as u32) << 16) as f64
    } else {
        let d: Double = Half::from_bits(bits as u128).convert(&mut false).value;
        f64::from_bits(d.to_bits() as u64)
    }
}

/// An f64 rounded to a half (one rounding).
pub fn from_f64(v: f64, bf: bool, r: Round) -> u16 {
    if v.is_nan() {
        return CANONICAL_NAN;
    }
    let d = Double::from_bits(v.to_bits() as u128);
    if bf {
        let h: BFloat = d.convert_r(r, &mut false).value;
        h.to_bits() as u16
    } else {
        let h: Half = d.convert_r(r, &mut false).value;
        h.to_bits() as u16
    }
}

/// An integer rounded to a half (one rounding).
pub fn from_int(v: i128, bf: bool, r: Option<Rnd>) -> u16 {
    if bf {
        BFloat::from_i128_r(v, round_of(r)).value.to_bits() as u16
    } else {
        Half::from_i128_r(v, round_of(r)).value.to_bits() as u16
    }
}

/// One element of a half ALU operation.
fn op1<F: Float + FloatConvert<Double>>(op: AluOp, fm: FMods, a: u16, b: u16, c: u16, bf: bool) -> u16 {
    let sub = |x: u16| -> bool {
        let v = F::from_bits(x as u128);
        v.is_denormal()
    };
    let ftz = |x: u16| if fm.ftz && sub(x) { x & 0x8000 } else { x };
    let (a, b, c) = (ftz(a), ftz(b), ftz(c));
    let (x, y, z) = (F::from_bits(a as u128), F::from_bits(b as u128), F::from_bits(c as u128));
    let rn = Round::NearestTiesToEven;
    let r: u16 = match op {
        AluOp::Add => x.add_r(y, rn).value.to_bits() as u16,
        AluOp::Sub => x.sub_r(y, rn).value.to_bits() as u16,
        AluOp::Mul => x.mul_r(y, rn).value.to_bits() as u16,
        AluOp::Mad => x.mul_add_r(y, z, rn).value.to_bits() as u16,
        AluOp::Neg => return a ^ 0x8000,
        AluOp::Abs => return a & 0x7fff,
        AluOp::Ex2 => from_f64(to_f64(a, bf).exp2(), bf, rn),
        AluOp::Min | AluOp::Max => {
            let (u, v) = (to_f64(a, bf), to_f64(b, bf));
            return match (u.is_nan(), v.is_nan()) {
                (true, true) => CANONICAL_NAN,
                (true, false) | (false, true) if fm.nan => CANONICAL_NAN,
                (true, false) => b,
                (false, true) => a,
                // -0 and +0: min is -0, max is +0.
                _ if u == v => if op == AluOp::Min { a | b } else { a & b },
                _ if (u < v) == (op == AluOp::Min) => a,
                _ => b,
            };
        }
        _ => unreachable!("not a half-precision operation: {op:?}"),
    };
    let v = F::from_bits(r as u128);
    if v.is_nan() {
        return CANONICAL_NAN;
    }
    let r = ftz(r);
    let negative = r & 0x8000 != 0 && r & 0x7fff != 0;
    if fm.sat {
        let one = from_f64(1.0, bf, rn);
        return if negative || r & 0x7fff == 0 { 0 } else if to_f64(r, bf) > 1.0 { one } else { r };
    }
    if fm.relu && r & 0x8000 != 0 {
        return 0;
    }
    r
}

/// `op` on each half of `a`, `b`, `c` (one element for `.f16`/`.bf16`,
/// two for the pairs).
pub fn alu(op: AluOp, ty: Ty, fm: FMods, a: u64, b: u64, c: u64) -> u64 {
    let bf = is_bf(ty);
    let one = |k: u32| -> u64 {
        let h = |v: u64| (v >> (16 * k)) as u16;
        let r = if bf { op1::<BFloat>(op, fm, h(a), h(b), h(c), bf) } else { op1::<Half>(op, fm, h(a), h(b), h(c), bf) };
        (r as u64) << (16 * k)
    };
    if ty.is_x2() {
        one(0) | one(1)
    } else {
        one(0)
    }
}

/// The exact values of element `k` of a half operand (for comparisons).
pub fn element(v: u64, ty: Ty, k: u32) -> f64 {
    to_f64((v >> (16 * k)) as u16, is_bf(ty))
}

/// `cvt` with a half on either side (not both pairs): `v` holds the source.
pub fn cvt(v: u64, dty: Ty, sty: Ty, rnd: Option<Rnd>, ftz: bool, sat: bool) -> u64 {
    let x = if sty.is_half() {
        to_f64(v as u16, is_bf(sty))
    } else if sty == Ty::F32 {
        let f = f32::from_bits(v as u32);
        (if ftz && f.is_subnormal() { f32::from_bits(f.to_bits() & 0x8000_0000) } else { f }) as f64
    } else if sty == Ty::F64 {
        f64::from_bits(v)
    } else {
        let i = if sty.is_signed() { ((v << (64 - sty.bits())) as i64 >> (64 - sty.bits())) as i128 } else { (v & (u64::MAX >> (64 - sty.bits()))) as i128 };
        let r = from_int(i, is_bf(dty), rnd);
        return sat_half(r, is_bf(dty), sat) as u64;
    };
    if dty.is_half() {
        let bf = is_bf(dty);
        let r = match rnd {
            Some(Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi) => from_f64(integral(x, rnd), bf, Round::NearestTiesToEven),
            _ => from_f64(x, bf, round_of(rnd)),
        };
        let r = if ftz && is_sub(r, bf) { r & 0x8000 } else { r };
        return sat_half(r, bf, sat) as u64;
    }
    if dty == Ty::F32 {
        let f = x as f32; // exact: every half is an f32
        let f = if sat { if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) } } else { f };
        return f.to_bits() as u64;
    }
    if dty == Ty::F64 {
        let f = if sat { if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) } } else { x };
        return f.to_bits();
    }
    // To an integer: round to integral, NaN to 0, saturate to the type's range.
    if x.is_nan() {
        return 0;
    }
    let i = integral(x, rnd) as i128;
    let (lo, hi) = dty.int_range();
    (i.clamp(lo, hi) as u64) & (u64::MAX >> (64 - dty.bits()))
}

fn integral(x: f64, rnd: Option<Rnd>) -> f64 {
    match rnd {
        Some(Rnd::Rzi) => x.trunc(),
        Some(Rnd::Rmi) => x.floor(),
        Some(Rnd::Rpi) => x.ceil(),
        _ => x.round_ties_even(),
    }
}

fn is_sub(r: u16, bf: bool) -> bool {
    if bf {
        BFloat::from_bits(r as u128).is_denormal()
    } else {
        Half::from_bits(r as u128).is_denormal()
    }
}

fn sat_half(r: u16, bf: bool, sat: bool) -> u16 {
    if !sat {
        return r;
    }
    let x = to_f64(r, bf);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x > 1.0 {
        from_f64(1.0, bf, Round::NearestTiesToEven)
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: FMods = FMods { approx: false, ftz: false, sat: false, rnd: None, carry: 0, relu: false, nan: false };

    #[test]
    fn add_rounds_once_to_nearest_even() {
        // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): even is 1.
        let one = 0x3c00;
        let tiny = 0x1000; // 2^-11
        assert_eq!(alu(AluOp::Add, Ty::F16, F, one, tiny, 0), 0x3c00);
        // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: even is 1 + 2^-9.
        assert_eq!(alu(AluOp::Add, Ty::F16, F, one, 0x1600, 0), 0x3c02);
        // bf16: 1 + 2^-8 is a tie, to 1.
        assert_eq!(alu(AluOp::Add, Ty::BF16, F, 0x3f80, 0x3b80, 0), 0x3f80);
    }

    #[test]
    fn fma_is_fused_and_pairs_are_elementwise() {
        // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 fused (a subnormal), 0 if the
        // product were rounded first.
        let a = 0x3c01;
        let r = alu(AluOp::Mad, Ty::F16, F, a, a, 0xbc02);
        assert_eq!(to_f64(r as u16, false), 2f64.powi(-20));
        let pair = alu(AluOp::Mul, Ty::F16x2, F, 0x4000_3c00, 0x4200_4400, 0);
        assert_eq!(pair, (0x4600 << 16) | 0x4400, "2*3 and 1*4");
    }

    #[test]
    fn nan_min_max_sat_relu() {
        let nan = 0x7e00;
        assert_eq!(alu(AluOp::Add, Ty::F16, F, nan, 0x3c00, 0), CANONICAL_NAN as u64);
        assert_eq!(alu(AluOp::Min, Ty::F16, F, nan, 0x3c00, 0), 0x3c00);
        assert_eq!(alu(AluOp::Min, Ty::F16, FMods { nan: true, ..F }, nan, 0x3c00, 0), CANONICAL_NAN as u64);
        assert_eq!(alu(AluOp::Max, Ty::F16, F, 0x8000, 0x0000, 0), 0x0000);
        assert_eq!(alu(AluOp::Min, Ty::F16, F, 0x8000, 0x0000, 0), 0x8000);
        assert_eq!(alu(AluOp::Add, Ty::F16, FMods { sat: true, ..F }, 0x4000, 0x3c00, 0), 0x3c00);
        assert_eq!(alu(AluOp::Mad, Ty::F16, FMods { relu: true, ..F }, 0xbc00, 0x3c00, 0), 0);
        // ftz: the smallest subnormal flushes to a signed zero.
        assert_eq!(alu(AluOp::Add, Ty::F16, FMods { ftz: true, ..F }, 0x8001, 0x8000, 0), 0x8000);
    }

    #[test]
    fn conversions_round_as_asked() {
        // 1 + 2^-11 + 2^-20 in f32: nearest is 1 + 2^-10, toward zero 1.
        let x = (1.0f32 + 2f32.powi(-11) + 2f32.powi(-20)).to_bits() as u64;
        assert_eq!(cvt(x, Ty::F16, Ty::F32, Some(Rnd::Rn), false, false), 0x3c01);
        assert_eq!(cvt(x, Ty::F16, Ty::F32, Some(Rnd::Rz), false, false), 0x3c00);
        assert_eq!(cvt(0x3c01, Ty::F32, Ty::F16, None, false, false), (1.0f32 + 2f32.powi(-10)).to_bits() as u64);
        assert_eq!(cvt(65520.0f32.to_bits() as u64, Ty::F16, Ty::F32, Some(Rnd::Rn), false, false), 0x7c00, "overflow to inf");
        assert_eq!(cvt(0xc500, Ty::S32, Ty::F16, Some(Rnd::Rzi), false, false), (-5i32) as u32 as u64);
        assert_eq!(cvt(2049, Ty::F16, Ty::U32, Some(Rnd::Rn), false, false), 0x6800, "2049 -> 2048 (even)");
        assert_eq!(cvt(1.5f32.to_bits() as u64, Ty::BF16, Ty::F32, Some(Rnd::Rn), false, false), 0x3fc0);
    }
}
