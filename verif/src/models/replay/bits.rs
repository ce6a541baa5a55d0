//! Small helpers shared by the replay models: masks and packed fields in little-endian
//! word vectors (the `sim` port value format).

use sim::{Component, PortId};

/// `width` low bits set (`width` <= 64).
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
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

/// Read a field of at most 64 bits at bit `lsb` of `words`.
pub fn get_field(words: &[u64], lsb: usize, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let (w, o) = (lsb / 64, lsb % 64);
    let mut v = words[w] >> o;
    if o + width as usize > 64 {
        v |= words[w + 1] << (64 - o);
    }
    v & mask(width)
}

/// Bit `i` of a wide value.
pub fn get_bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 != 0
}

/// Resolve port names (inputs or outputs) of any component, for property checks that
/// run on either engine. A missing port is an error naming it.
pub fn port_ids<const K: usize>(c: &dyn Component, names: [&str; K]) -> Result<[PortId; K], String> {
    let mut out = [PortId(0); K];
    for (i, n) in names.iter().enumerate() {
        let idx = c
            .ports()
            .iter()
            .position(|p| p.name == *n)
            .ok_or_else(|| format!("component `{}` has no port `{n}`", c.name()))?;
        out[i] = PortId(idx as u32);
    }
    Ok(out)
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
        assert!(get_bit(&w, 130) && !get_bit(&w, 131));
        assert_eq!(mask(64), u64::MAX);
        let mut w = [u64::MAX; 2];
        put_field(&mut w, 0, 64, 5);
        put_field(&mut w, 64, 64, 7);
        assert_eq!(w, [5, 7]);
        put_field(&mut w, 32, 64, u64::MAX);
        assert_eq!(w, [0xffff_ffff_0000_0005, 0x0000_0000_ffff_ffff]);
        assert_eq!(get_field(&w, 32, 64), u64::MAX);
        assert_eq!(get_field(&w, 16, 64), 0xffff_ffff_ffff_0000);
    }
}
