//! Bit fields in little-endian word vectors (the `sim` port value format),
//! shared by the models of every family.

/// `width` low bits set (`width` <= 64).
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Bit `i` of a little-endian multi-word value (0 past its end).
pub fn bit(words: &[u64], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 != 0)
}

/// Write `value` (at most 64 bits wide) at bit `lsb` of `words`.
pub fn put_field(words: &mut [u64], lsb: usize, width: u32, value: u64) {
    if width == 0 {
        return;
    }
    let m = mask(width);
    let value = value & m;
    let (w, o) = (lsb / 64, lsb % 64);
    words[w] = (words[w] & !(m << o)) | (value << o);
    if o + width as usize > 64 {
        let hi = 64 - o as u32; // bits that went into words[w]
        let m2 = m >> hi;
        words[w + 1] = (words[w + 1] & !m2) | (value >> hi);
    }
}

/// Read a field of at most 64 bits at bit `lsb` of `words` (0 past its end).
pub fn get_field(words: &[u64], lsb: usize, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let (w, o) = (lsb / 64, lsb % 64);
    let mut v = words.get(w).copied().unwrap_or(0) >> o;
    if o != 0 && o + width as usize > 64 {
        v |= words.get(w + 1).copied().unwrap_or(0) << (64 - o);
    }
    v & mask(width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_across_words() {
        let mut w = [0u64; 3];
        put_field(&mut w, 60, 10, 0x3ff);
        put_field(&mut w, 130, 3, 5);
        assert_eq!(get_field(&w, 60, 10), 0x3ff);
        assert_eq!(get_field(&w, 130, 3), 5);
        put_field(&mut w, 62, 2, 0);
        assert_eq!(get_field(&w, 60, 10), 0x3f3);
        assert!(bit(&w, 130) && !bit(&w, 131) && !bit(&w, 500));
        assert_eq!(mask(64), u64::MAX);
        let mut w = [u64::MAX; 2];
        put_field(&mut w, 0, 64, 5);
        put_field(&mut w, 64, 64, 7);
        assert_eq!(w, [5, 7]);
        put_field(&mut w, 32, 64, u64::MAX);
        assert_eq!(w, [0xffff_ffff_0000_0005, 0x0000_0000_ffff_ffff]);
        assert_eq!(get_field(&w, 32, 64), u64::MAX);
        assert_eq!(get_field(&w, 16, 64), 0xffff_ffff_ffff_0000);
        assert_eq!(get_field(&w, 88, 16), 0x00ff);
        assert_eq!(get_field(&w, 120, 16), 0);
    }
}
