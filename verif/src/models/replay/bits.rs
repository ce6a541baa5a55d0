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
    let value = value & mask(width);
    for b in 0..width as usize {
        let bit = lsb + b;
        let (w, o) = (bit / 64, bit % 64);
        if value >> b & 1 != 0 {
            words[w] |= 1 << o;
        } else {
            words[w] &= !(1 << o);
        }
    }
}

/// Read a field of at most 64 bits at bit `lsb` of `words`.
pub fn get_field(words: &[u64], lsb: usize, width: u32) -> u64 {
    let mut v = 0;
    for b in 0..width as usize {
        let bit = lsb + b;
        if words[bit / 64] >> (bit % 64) & 1 != 0 {
            v |= 1 << b;
        }
    }
    v
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
    }
}
