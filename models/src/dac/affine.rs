//! Affine tuples and their arithmetic: the ground truth of the DAC blocks
//! (Wang and Lin, ISCA 2017, §3 and §4.4).
//!
//! An affine tuple has one base and six offsets, one per thread and block index
//! dimension (§4.4: "DAC allows each dimension to have its own offset"):
//!
//! ```text
//! value = base + otx*tid.x + oty*tid.y + otz*tid.z
//!              + obx*ctaid.x + oby*ctaid.y + obz*ctaid.z        (mod 2^32)
//! ```
//!
//! A *scalar* tuple has all offsets zero. Addition and subtraction work field
//! by field (equation 2); multiplication and left shifts need one scalar
//! operand (equation 3). The remainder by a scalar divisor gives a *mod-type*
//! tuple `(base, offsets, mod_base, divisor)` whose value is
//! `base + ((mod_base + offsets . ids) mod divisor)`; it supports adding a
//! scalar and multiplying by a scalar (all fields, divisor included).
//!
//! Every operation reproduces the per-thread 32-bit wrapping arithmetic of the
//! GPU exactly; where a tuple cannot (a product of two non-scalars, a
//! remainder whose dividend wraps around 2^32 somewhere in the launch, a
//! mod-type multiply that would overflow), the operation returns `None` — the
//! compiler would have left that instruction non-affine (§4.7).
//!
//! The per-thread expansions at the end of the file (`thread_value`,
//! `warp_units`, `warp_pred_mask`, ...) are the references the address and
//! predicate expansion units are checked against: they evaluate each thread
//! directly and share no code with the units' models.

use std::collections::BTreeSet;

/// Index of each offset.
pub const TX: usize = 0;
pub const TY: usize = 1;
pub const TZ: usize = 2;
pub const BX: usize = 3;
pub const BY: usize = 4;
pub const BZ: usize = 5;

/// Thread and block indices of one thread, in offset order
/// (tid.x, tid.y, tid.z, ctaid.x, ctaid.y, ctaid.z).
pub type Ids = [u32; 6];

/// Grid and block dimensions of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub block: [u32; 3],
    pub grid: [u32; 3],
}

impl Launch {
    /// Upper bound of each index (dimension - 1), in offset order.
    pub fn max_ids(&self) -> Ids {
        let b = self.block;
        let g = self.grid;
        [b[0] - 1, b[1] - 1, b[2] - 1, g[0] - 1, g[1] - 1, g[2] - 1]
    }

    /// Every thread of the launch.
    pub fn threads(&self) -> impl Iterator<Item = Ids> + '_ {
        let m = self.max_ids();
        (0..=m[5]).flat_map(move |bz| {
            (0..=m[4]).flat_map(move |by| {
                (0..=m[3]).flat_map(move |bx| {
                    (0..=m[2]).flat_map(move |tz| {
                        (0..=m[1]).flat_map(move |ty| (0..=m[0]).map(move |tx| [tx, ty, tz, bx, by, bz]))
                    })
                })
            })
        })
    }
}

/// An affine tuple `(base, offsets)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aff {
    pub base: u32,
    pub off: [u32; 6],
}

/// A mod-type tuple: `base + ((mod_base + off . ids) mod divisor)`, the inner
/// sum in exact integers (offsets signed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModAff {
    pub base: u32,
    pub off: [i32; 6],
    pub mod_base: u32,
    pub divisor: u32,
}

/// Either kind of tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tuple {
    Aff(Aff),
    Mod(ModAff),
}

impl Aff {
    pub fn scalar(v: u32) -> Self {
        Aff { base: v, off: [0; 6] }
    }

    /// The tuple of one index (`tid.x` is `unit(TX)`).
    pub fn unit(i: usize) -> Self {
        let mut off = [0; 6];
        off[i] = 1;
        Aff { base: 0, off }
    }

    pub fn new(base: u32, off: [u32; 6]) -> Self {
        Aff { base, off }
    }

    /// All offsets zero: the same value in every thread of the launch.
    pub fn is_scalar(&self) -> bool {
        self.off == [0; 6]
    }

    /// Thread offsets zero: the same value in every thread of a CTA (the
    /// PEU's "scalar operand", §4.3).
    pub fn is_cta_uniform(&self) -> bool {
        self.off[TX] == 0 && self.off[TY] == 0 && self.off[TZ] == 0
    }

    /// Expansion, equation (1).
    pub fn eval(&self, ids: &Ids) -> u32 {
        let mut v = self.base;
        for i in 0..6 {
            v = v.wrapping_add(self.off[i].wrapping_mul(ids[i]));
        }
        v
    }

    /// Equation (2).
    pub fn add(&self, o: &Aff) -> Aff {
        let mut r = *self;
        r.base = r.base.wrapping_add(o.base);
        for i in 0..6 {
            r.off[i] = r.off[i].wrapping_add(o.off[i]);
        }
        r
    }

    pub fn sub(&self, o: &Aff) -> Aff {
        let mut r = *self;
        r.base = r.base.wrapping_sub(o.base);
        for i in 0..6 {
            r.off[i] = r.off[i].wrapping_sub(o.off[i]);
        }
        r
    }

    /// Multiply every field by a scalar.
    pub fn scale(&self, k: u32) -> Aff {
        let mut r = *self;
        r.base = r.base.wrapping_mul(k);
        for i in 0..6 {
            r.off[i] = r.off[i].wrapping_mul(k);
        }
        r
    }

    /// Equation (3): one operand must be scalar.
    pub fn mul(&self, o: &Aff) -> Option<Aff> {
        if o.is_scalar() {
            Some(self.scale(o.base))
        } else if self.is_scalar() {
            Some(o.scale(self.base))
        } else {
            None
        }
    }

    /// `shl` by a scalar amount (PTX `shl.b32` clamps amounts above 31 to a
    /// zero result).
    pub fn shl(&self, amount: &Aff) -> Option<Aff> {
        if !amount.is_scalar() {
            return None;
        }
        Some(if amount.base >= 32 { Aff::scalar(0) } else { self.scale(1u32 << amount.base) })
    }

    /// Exact range of the values over the launch (offsets read as signed).
    fn range(&self, l: &Launch) -> (i64, i64) {
        let m = l.max_ids();
        let mut lo = self.base as i64;
        let mut hi = self.base as i64;
        for i in 0..6 {
            let t = self.off[i] as i32 as i64 * m[i] as i64;
            if t < 0 {
                lo += t;
            } else {
                hi += t;
            }
        }
        (lo, hi)
    }

    /// Remainder by a scalar divisor (`rem.u32`). A scalar dividend gives a
    /// scalar; an affine one gives a mod-type tuple when the dividend does not
    /// wrap around 2^32 anywhere in the launch.
    pub fn rem(&self, d: &Aff, l: &Launch) -> Option<Tuple> {
        if !d.is_scalar() || d.base == 0 {
            return None;
        }
        let d = d.base;
        if self.is_scalar() {
            return Some(Tuple::Aff(Aff::scalar(self.base % d)));
        }
        let (lo, hi) = self.range(l);
        if lo < 0 || hi > u32::MAX as i64 {
            return None;
        }
        Some(Tuple::Mod(ModAff { base: 0, off: self.off.map(|o| o as i32), mod_base: self.base % d, divisor: d }))
    }
}

impl ModAff {
    pub fn eval(&self, ids: &Ids) -> u32 {
        let mut inner = self.mod_base as i64;
        for i in 0..6 {
            inner += self.off[i] as i64 * ids[i] as i64;
        }
        self.base.wrapping_add(inner.rem_euclid(self.divisor as i64) as u32)
    }

    /// Multiply all fields, the divisor included (§4.4); `None` when a field
    /// would overflow (the identity `k*(x mod d) = (k*x) mod (k*d)` then no
    /// longer matches 32-bit arithmetic).
    pub fn scale(&self, k: u32) -> Option<Tuple> {
        if k == 0 {
            return Some(Tuple::Aff(Aff::scalar(0)));
        }
        let divisor = self.divisor.checked_mul(k)?;
        let mod_base = self.mod_base.checked_mul(k)?;
        let mut off = [0i32; 6];
        for i in 0..6 {
            off[i] = i32::try_from(self.off[i] as i64 * k as i64).ok()?;
        }
        Some(Tuple::Mod(ModAff { base: self.base.wrapping_mul(k), off, mod_base, divisor }))
    }
}

impl Tuple {
    pub fn eval(&self, ids: &Ids) -> u32 {
        match self {
            Tuple::Aff(a) => a.eval(ids),
            Tuple::Mod(m) => m.eval(ids),
        }
    }

    fn scalar_of(&self) -> Option<u32> {
        match self {
            Tuple::Aff(a) if a.is_scalar() => Some(a.base),
            _ => None,
        }
    }

    pub fn add(&self, o: &Tuple) -> Option<Tuple> {
        match (self, o) {
            (Tuple::Aff(a), Tuple::Aff(b)) => Some(Tuple::Aff(a.add(b))),
            (Tuple::Mod(m), t) | (t, Tuple::Mod(m)) => {
                let c = t.scalar_of()?;
                Some(Tuple::Mod(ModAff { base: m.base.wrapping_add(c), ..*m }))
            }
        }
    }

    pub fn sub(&self, o: &Tuple) -> Option<Tuple> {
        match (self, o) {
            (Tuple::Aff(a), Tuple::Aff(b)) => Some(Tuple::Aff(a.sub(b))),
            (Tuple::Mod(m), t) => {
                let c = t.scalar_of()?;
                Some(Tuple::Mod(ModAff { base: m.base.wrapping_sub(c), ..*m }))
            }
            // scalar - mod would need a negative remainder term
            (Tuple::Aff(_), Tuple::Mod(_)) => None,
        }
    }

    pub fn mul(&self, o: &Tuple) -> Option<Tuple> {
        match (self, o) {
            (Tuple::Aff(a), Tuple::Aff(b)) => a.mul(b).map(Tuple::Aff),
            (Tuple::Mod(m), t) | (t, Tuple::Mod(m)) => m.scale(t.scalar_of()?),
        }
    }

    pub fn shl(&self, amount: &Tuple) -> Option<Tuple> {
        let a = amount.scalar_of()?;
        match self {
            Tuple::Aff(x) => x.shl(&Aff::scalar(a)).map(Tuple::Aff),
            Tuple::Mod(m) => {
                if a >= 32 {
                    Some(Tuple::Aff(Aff::scalar(0)))
                } else {
                    m.scale(1u32 << a)
                }
            }
        }
    }

    pub fn rem(&self, d: &Tuple, l: &Launch) -> Option<Tuple> {
        match (self, d) {
            (Tuple::Aff(a), Tuple::Aff(b)) => a.rem(b, l),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Per-thread expansion: the references for the AEU and PEU.
// ---------------------------------------------------------------------------

/// One CTA as the expansion units see it: block dimensions (each >= 1) and
/// the CTA's block index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtaGeom {
    pub dims: [u32; 3],
    pub bid: [u32; 3],
}

impl CtaGeom {
    /// Threads of the CTA, capped at 1024 (the hardware's counters; a legal
    /// CUDA block never exceeds it).
    pub fn threads(&self) -> u32 {
        (self.dims[0] as u64 * self.dims[1] as u64 * self.dims[2] as u64).min(1024) as u32
    }

    pub fn warps(&self) -> u32 {
        self.threads().div_ceil(32)
    }

    /// Ids of the thread with linear index `lin` (x fastest, as CUDA numbers
    /// threads into warps).
    pub fn ids(&self, lin: u32) -> Ids {
        let [dx, dy, _] = self.dims;
        let tx = lin % dx;
        let ty = (lin / dx) % dy;
        let tz = lin / (dx * dy);
        [tx, ty, tz, self.bid[0], self.bid[1], self.bid[2]]
    }

    /// Linear thread indices of warp `w` of the CTA.
    pub fn warp_threads(&self, w: u32) -> std::ops::Range<u32> {
        let n = self.threads();
        (w * 32).min(n)..((w + 1) * 32).min(n)
    }
}

/// Value of one thread.
pub fn thread_value(t: &Aff, g: &CtaGeom, lin: u32) -> u32 {
    t.eval(&g.ids(lin))
}

/// Bytes per access unit for a granularity code (0 byte, 1 half, 2 or 3 word).
pub fn gran_bytes(gran: u64) -> u32 {
    match gran & 3 {
        0 => 1,
        1 => 2,
        _ => 4,
    }
}

/// The set of access units (byte address rounded down to the granularity) the
/// active threads (`lanes`, bit i = thread 32w+i) of warp `w` touch: what the
/// warp's address records must cover.
pub fn warp_units(t: &Aff, g: &CtaGeom, w: u32, gran: u64, lanes: u32) -> BTreeSet<u32> {
    let gb = gran_bytes(gran);
    g.warp_threads(w).filter(|lin| lanes >> (lin % 32) & 1 != 0).map(|lin| thread_value(t, g, lin) / gb * gb).collect()
}

/// Comparison `a OP b` for an op code of [`hw::blocks::dac::tuple`].
pub fn compare(op: u64, a: u32, b: u32) -> bool {
    use hw::blocks::dac::tuple::*;
    let signed = op & CMP_SIGNED != 0;
    let (x, y) = if signed { (a as i32 as i64, b as i32 as i64) } else { (a as i64, b as i64) };
    match op & 7 {
        CMP_LT => x < y,
        CMP_LE => x <= y,
        CMP_GT => x > y,
        CMP_GE => x >= y,
        CMP_EQ => x == y,
        CMP_NE => x != y,
        CMP_NEVER => false,
        _ => true,
    }
}

/// Predicate mask of warp `w`: bit `i` is thread `32w+i`'s `value OP rhs`.
pub fn warp_pred_mask(t: &Aff, rhs: u32, op: u64, g: &CtaGeom, w: u32) -> u32 {
    let mut m = 0u32;
    for lin in g.warp_threads(w) {
        if compare(op, thread_value(t, g, lin), rhs) {
            m |= 1 << (lin % 32);
        }
    }
    m
}

// ---------------------------------------------------------------------------
// Expressions, evaluated per thread directly: the test oracle for the tuple
// arithmetic above.
// ---------------------------------------------------------------------------

/// A small integer expression over thread/block ids and constants, with the
/// GPU's 32-bit semantics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Id(usize),
    /// `blockDim` (0..3) or `gridDim` (3..6) component.
    Dim(usize),
    Const(u32),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Shl(Box<Expr>, Box<Expr>),
    Rem(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Direct evaluation in one thread; `None` for a remainder by zero.
    pub fn eval(&self, l: &Launch, ids: &Ids) -> Option<u32> {
        Some(match self {
            Expr::Id(i) => ids[*i],
            Expr::Dim(i) => {
                if *i < 3 {
                    l.block[*i]
                } else {
                    l.grid[*i - 3]
                }
            }
            Expr::Const(c) => *c,
            Expr::Add(a, b) => a.eval(l, ids)?.wrapping_add(b.eval(l, ids)?),
            Expr::Sub(a, b) => a.eval(l, ids)?.wrapping_sub(b.eval(l, ids)?),
            Expr::Mul(a, b) => a.eval(l, ids)?.wrapping_mul(b.eval(l, ids)?),
            Expr::Shl(a, b) => {
                let (x, s) = (a.eval(l, ids)?, b.eval(l, ids)?);
                if s >= 32 {
                    0
                } else {
                    x << s
                }
            }
            Expr::Rem(a, b) => {
                let (x, d) = (a.eval(l, ids)?, b.eval(l, ids)?);
                if d == 0 {
                    return None;
                }
                x % d
            }
        })
    }

    /// The expression as a tuple, or `None` if it is not affine.
    pub fn tuple(&self, l: &Launch) -> Option<Tuple> {
        Some(match self {
            Expr::Id(i) => Tuple::Aff(Aff::unit(*i)),
            Expr::Dim(i) => Tuple::Aff(Aff::scalar(if *i < 3 { l.block[*i] } else { l.grid[*i - 3] })),
            Expr::Const(c) => Tuple::Aff(Aff::scalar(*c)),
            Expr::Add(a, b) => a.tuple(l)?.add(&b.tuple(l)?)?,
            Expr::Sub(a, b) => a.tuple(l)?.sub(&b.tuple(l)?)?,
            Expr::Mul(a, b) => a.tuple(l)?.mul(&b.tuple(l)?)?,
            Expr::Shl(a, b) => a.tuple(l)?.shl(&b.tuple(l)?)?,
            Expr::Rem(a, b) => a.tuple(l)?.rem(&b.tuple(l)?, l)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn b(e: Expr) -> Box<Expr> {
        Box::new(e)
    }

    /// Figure 1: A = (0x100, 4), B = (0x200, 0), C = A + B = (0x300, 4).
    #[test]
    fn figure_1() {
        let a = Aff::new(0x100, [4, 0, 0, 0, 0, 0]);
        let bb = Aff::scalar(0x200);
        let c = a.add(&bb);
        assert_eq!(c, Aff::new(0x300, [4, 0, 0, 0, 0, 0]));
        let ids = |t: u32| [t, 0, 0, 0, 0, 0];
        assert_eq!([0, 1, 2, 31].map(|t| a.eval(&ids(t))), [0x100, 0x104, 0x108, 0x17c]);
        assert_eq!([0, 1, 2, 31].map(|t| c.eval(&ids(t))), [0x300, 0x304, 0x308, 0x37c]);
    }

    /// Figure 5, from the kernel of Figure 4 with A[] = 0x80000, num = 0x400,
    /// block 0, threads 0..2.
    #[test]
    fn figure_5() {
        let l = Launch { block: [256, 1, 1], grid: [4, 1, 1] };
        // tid = blockIdx.x*blockDim.x + threadIdx.x; r1 = tid*4
        let tid = Expr::Add(b(Expr::Mul(b(Expr::Id(BX)), b(Expr::Dim(0)))), b(Expr::Id(TX)));
        let r1 = Expr::Mul(b(tid), b(Expr::Const(4)));
        let addr_a = Expr::Add(b(Expr::Const(0x80000)), b(r1.clone()));
        let r3 = Expr::Mul(b(Expr::Const(0x400)), b(Expr::Const(4)));
        let addr_a2 = Expr::Add(b(r3.clone()), b(addr_a.clone()));
        let t = |e: &Expr| match e.tuple(&l).unwrap() {
            Tuple::Aff(a) => a,
            _ => panic!(),
        };
        // Figure 5 lists (base, offset) per thread id; the block offset is
        // blockDim.x * 4 (block 0 in the figure).
        assert_eq!(t(&r1), Aff::new(0, [4, 0, 0, 1024, 0, 0]));
        assert_eq!(t(&addr_a), Aff::new(0x80000, [4, 0, 0, 1024, 0, 0]));
        assert_eq!(t(&r3), Aff::scalar(0x1000));
        assert_eq!(t(&addr_a2), Aff::new(0x81000, [4, 0, 0, 1024, 0, 0]));
        let v: Vec<u32> = (0..3).map(|x| t(&addr_a2).eval(&[x, 0, 0, 0, 0, 0])).collect();
        assert_eq!(v, [0x81000, 0x81004, 0x81008]);
    }

    #[test]
    fn non_affine_products_are_refused() {
        let l = Launch { block: [8, 1, 1], grid: [1, 1, 1] };
        let e = Expr::Mul(b(Expr::Id(TX)), b(Expr::Id(TX)));
        assert_eq!(e.tuple(&l), None);
        // a remainder whose dividend wraps in the launch
        let e = Expr::Rem(b(Expr::Sub(b(Expr::Id(TX)), b(Expr::Const(3)))), b(Expr::Const(5)));
        assert_eq!(e.tuple(&l), None);
        // ... but not when it stays in range
        let e = Expr::Rem(b(Expr::Add(b(Expr::Id(TX)), b(Expr::Const(3)))), b(Expr::Const(5)));
        assert!(matches!(e.tuple(&l), Some(Tuple::Mod(_))));
    }

    fn leaf() -> impl Strategy<Value = Expr> {
        prop_oneof![
            (0usize..6).prop_map(Expr::Id),
            (0usize..6).prop_map(Expr::Dim),
            prop_oneof![0u32..8, 1u32..300, any::<u32>(), Just(u32::MAX), Just(0x8000_0000)].prop_map(Expr::Const),
        ]
    }

    fn expr() -> impl Strategy<Value = Expr> {
        leaf().prop_recursive(5, 24, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, c)| Expr::Add(b(a), b(c))),
                (inner.clone(), inner.clone()).prop_map(|(a, c)| Expr::Sub(b(a), b(c))),
                (inner.clone(), inner.clone()).prop_map(|(a, c)| Expr::Mul(b(a), b(c))),
                (inner.clone(), prop_oneof![0u32..8, 28u32..40].prop_map(Expr::Const))
                    .prop_map(|(a, c)| Expr::Shl(b(a), b(c))),
                (inner.clone(), prop_oneof![1u32..9, 1u32..100_000, any::<u32>()].prop_map(Expr::Const))
                    .prop_map(|(a, c)| Expr::Rem(b(a), b(c))),
                (inner.clone(), inner).prop_map(|(a, c)| Expr::Rem(b(a), b(c))),
            ]
        })
    }

    fn launch() -> impl Strategy<Value = Launch> {
        ([1u32..6, 1..4, 1..3], [1u32..4, 1..3, 1..3]).prop_map(|(block, grid)| Launch { block, grid })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Every expression the tuple algebra accepts expands, in every thread
        /// of the launch, to exactly the directly computed 32-bit value.
        #[test]
        fn tuples_expand_to_direct_values(e in expr(), l in launch()) {
            if let Some(t) = e.tuple(&l) {
                for ids in l.threads() {
                    match e.eval(&l, &ids) {
                        Some(v) => prop_assert_eq!(t.eval(&ids), v, "ids {:?} tuple {:?}", ids, t),
                        // a remainder by a zero that only some threads see
                        // cannot come from an accepted tuple: divisors are scalar
                        None => prop_assert!(false, "accepted tuple but division by zero at {:?}", ids),
                    }
                }
            }
        }
    }

    /// The generator above is not vacuous: most expressions are affine and
    /// mod-type tuples and scaled mod-type tuples occur.
    #[test]
    fn expression_coverage() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let (mut affine, mut modt, mut total) = (0, 0, 0);
        for _ in 0..3000 {
            let e = expr().new_tree(&mut runner).unwrap().current();
            let l = launch().new_tree(&mut runner).unwrap().current();
            total += 1;
            match e.tuple(&l) {
                Some(Tuple::Aff(a)) if !a.is_scalar() => affine += 1,
                Some(Tuple::Mod(_)) => modt += 1,
                _ => {}
            }
        }
        assert!(affine * 10 > total, "only {affine}/{total} non-scalar affine");
        assert!(modt * 50 > total, "only {modt}/{total} mod-type");
    }

    #[test]
    fn mod_type_fields_follow_the_paper() {
        let l = Launch { block: [64, 1, 1], grid: [1, 1, 1] };
        // (tid*4 + 6) mod 40, then + 100, then * 3
        let t = Tuple::Aff(Aff::new(6, [4, 0, 0, 0, 0, 0])).rem(&Tuple::Aff(Aff::scalar(40)), &l).unwrap();
        assert_eq!(t, Tuple::Mod(ModAff { base: 0, off: [4, 0, 0, 0, 0, 0], mod_base: 6, divisor: 40 }));
        let t = t.add(&Tuple::Aff(Aff::scalar(100))).unwrap();
        let t = t.mul(&Tuple::Aff(Aff::scalar(3))).unwrap();
        assert_eq!(t, Tuple::Mod(ModAff { base: 300, off: [12, 0, 0, 0, 0, 0], mod_base: 18, divisor: 120 }));
        for x in 0..64u32 {
            assert_eq!(t.eval(&[x, 0, 0, 0, 0, 0]), (((x * 4 + 6) % 40) + 100) * 3);
        }
        // overflowing the divisor is refused
        assert_eq!(t.mul(&Tuple::Aff(Aff::scalar(0x4000_0000))), None);
    }

    #[test]
    fn geometry_numbers_threads_x_fastest() {
        let g = CtaGeom { dims: [5, 3, 2], bid: [7, 8, 9] };
        assert_eq!(g.threads(), 30);
        assert_eq!(g.warps(), 1);
        assert_eq!(g.ids(0), [0, 0, 0, 7, 8, 9]);
        assert_eq!(g.ids(6), [1, 1, 0, 7, 8, 9]);
        assert_eq!(g.ids(29), [4, 2, 1, 7, 8, 9]);
        let g = CtaGeom { dims: [1024, 1024, 64], bid: [0; 3] };
        assert_eq!(g.threads(), 1024);
        assert_eq!(g.warp_threads(31), 992..1024);
    }
}
