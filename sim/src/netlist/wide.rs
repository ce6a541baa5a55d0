//! Operations on values wider than 64 bits, as little-endian word slices.
//! Every result is masked to its width (bits above it stay zero).

use crate::component::top_mask;
use std::cmp::Ordering;

pub fn mask_top(d: &mut [u64], width: u32) {
    let n = d.len();
    d[n - 1] &= top_mask(width);
}

/// `len <= 64` bits of `src` starting at bit `pos` (bits past the end read 0).
pub fn get_bits(src: &[u64], pos: u32, len: u32) -> u64 {
    let (w, o) = ((pos / 64) as usize, pos % 64);
    let lo = src.get(w).copied().unwrap_or(0) >> o;
    let hi = if o == 0 { 0 } else { src.get(w + 1).copied().unwrap_or(0) << (64 - o) };
    let v = lo | hi;
    if len >= 64 {
        v
    } else {
        v & ((1u64 << len) - 1)
    }
}

/// Write the low `len <= 64` bits of `v` into `dst` at bit `pos`.
pub fn set_bits(dst: &mut [u64], pos: u32, len: u32, v: u64) {
    let (w, o) = ((pos / 64) as usize, pos % 64);
    let m = if len >= 64 { u64::MAX } else { (1u64 << len) - 1 };
    let v = v & m;
    dst[w] = (dst[w] & !(m << o)) | (v << o);
    if o != 0 && o + len > 64 {
        let (m2, v2) = (m >> (64 - o), v >> (64 - o));
        dst[w + 1] = (dst[w + 1] & !m2) | v2;
    }
}

/// Copy `n` bits from `src` at `src_lo` to `dst` at `dst_lo`.
pub fn copy_bits(dst: &mut [u64], dst_lo: u32, src: &[u64], src_lo: u32, n: u32) {
    let mut done = 0;
    while done < n {
        let len = (n - done).min(64);
        set_bits(dst, dst_lo + done, len, get_bits(src, src_lo + done, len));
        done += len;
    }
}

pub fn add(d: &mut [u64], a: &[u64], b: &[u64], width: u32) {
    let mut carry = false;
    for i in 0..d.len() {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        d[i] = s2;
        carry = c1 || c2;
    }
    mask_top(d, width);
}

pub fn sub(d: &mut [u64], a: &[u64], b: &[u64], width: u32) {
    let mut borrow = false;
    for i in 0..d.len() {
        let (s1, b1) = a[i].overflowing_sub(b[i]);
        let (s2, b2) = s1.overflowing_sub(borrow as u64);
        d[i] = s2;
        borrow = b1 || b2;
    }
    mask_top(d, width);
}

/// Full product, truncated to `d`'s width.
pub fn mul(d: &mut [u64], a: &[u64], b: &[u64], width: u32) {
    d.fill(0);
    for (i, &x) in a.iter().enumerate() {
        let mut carry: u128 = 0;
        for (j, &y) in b.iter().enumerate() {
            if i + j >= d.len() {
                break;
            }
            let t = d[i + j] as u128 + (x as u128) * (y as u128) + carry;
            d[i + j] = t as u64;
            carry = t >> 64;
        }
        let mut k = i + b.len();
        while carry != 0 && k < d.len() {
            let t = d[k] as u128 + carry;
            d[k] = t as u64;
            carry = t >> 64;
            k += 1;
        }
    }
    mask_top(d, width);
}

pub fn cmp_u(a: &[u64], b: &[u64]) -> Ordering {
    for i in (0..a.len()).rev() {
        match a[i].cmp(&b[i]) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
}

pub fn sign(a: &[u64], width: u32) -> bool {
    get_bits(a, width - 1, 1) == 1
}

pub fn cmp_s(a: &[u64], b: &[u64], width: u32) -> Ordering {
    match (sign(a, width), sign(b, width)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => cmp_u(a, b),
    }
}

/// A shift amount, saturated to `u64::MAX` when it does not fit a word.
pub fn amount(a: &[u64]) -> u64 {
    if a[1..].iter().any(|&w| w != 0) {
        u64::MAX
    } else {
        a[0]
    }
}

pub fn shl(d: &mut [u64], a: &[u64], amt: u64, width: u32) {
    d.fill(0);
    if amt < width as u64 {
        let amt = amt as u32;
        copy_bits(d, amt, a, 0, width - amt);
    }
    mask_top(d, width);
}

pub fn shr(d: &mut [u64], a: &[u64], amt: u64, width: u32) {
    d.fill(0);
    if amt < width as u64 {
        let amt = amt as u32;
        copy_bits(d, 0, a, amt, width - amt);
    }
}

pub fn sra(d: &mut [u64], a: &[u64], amt: u64, width: u32) {
    let neg = sign(a, width);
    let amt = amt.min(width as u64) as u32;
    shr(d, a, amt as u64, width);
    if neg {
        let mut p = width - amt;
        while p < width {
            let len = (width - p).min(64);
            set_bits(d, p, len, u64::MAX);
            p += len;
        }
    }
}

pub fn red_and(a: &[u64], width: u32) -> bool {
    let n = a.len();
    a[..n - 1].iter().all(|&w| w == u64::MAX) && a[n - 1] == top_mask(width)
}

pub fn red_or(a: &[u64]) -> bool {
    a.iter().any(|&w| w != 0)
}

pub fn popcount(a: &[u64]) -> u64 {
    a.iter().map(|w| w.count_ones() as u64).sum()
}

pub fn ffs(a: &[u64]) -> u64 {
    for (i, &w) in a.iter().enumerate() {
        if w != 0 {
            return i as u64 * 64 + w.trailing_zeros() as u64;
        }
    }
    0
}

/// Extend `a` (`wa` bits) into `d` (`wd` bits).
pub fn ext(d: &mut [u64], a: &[u64], wa: u32, wd: u32, signed: bool) {
    d.fill(0);
    copy_bits(d, 0, a, 0, wa);
    if signed && sign(a, wa) {
        let mut p = wa;
        while p < wd {
            let len = (wd - p).min(64);
            set_bits(d, p, len, u64::MAX);
            p += len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_moves() {
        let src = [0xdead_beef_0123_4567u64, 0x89ab_cdef_0000_ffff];
        assert_eq!(get_bits(&src, 60, 8), 0xfd);
        let mut d = [0u64; 2];
        copy_bits(&mut d, 4, &src, 0, 100);
        assert_eq!(d[0], 0xeadb_eef0_1234_5670);
        assert_eq!(get_bits(&d, 64, 36), (src[1] << 4 | src[0] >> 60) & 0xf_ffff_ffff);
    }

    #[test]
    fn arithmetic() {
        let mut d = [0u64; 2];
        add(&mut d, &[u64::MAX, 0], &[1, 0], 65);
        assert_eq!(d, [0, 1]);
        sub(&mut d, &[0, 0], &[1, 0], 65);
        assert_eq!(d, [u64::MAX, 1]);
        mul(&mut d, &[u64::MAX, 0], &[u64::MAX, 0], 128);
        assert_eq!(d, [1, u64::MAX - 1]);
        sra(&mut d, &[0, 1], 64, 65);
        assert_eq!(d, [u64::MAX, 1]);
        shl(&mut d, &[1, 0], 64, 65);
        assert_eq!(d, [0, 1]);
        shl(&mut d, &[1, 0], 65, 65);
        assert_eq!(d, [0, 0]);
        assert_eq!(cmp_s(&[0, 1], &[5, 0], 65), Ordering::Less);
        assert_eq!(ffs(&[0, 8]), 67);
    }
}
