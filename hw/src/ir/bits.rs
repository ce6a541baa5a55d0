//! Constant bit vectors of any width (literals and reset values).

use std::fmt;

/// A constant of `width` bits, little-endian 64-bit words, bits above the width
/// always zero.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bits {
    width: u32,
    words: Vec<u64>,
}

pub(crate) fn words_for(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

pub(crate) fn top_mask(width: u32) -> u64 {
    match width % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

impl Bits {
    pub fn zero(width: u32) -> Self {
        Bits { width, words: vec![0; words_for(width)] }
    }

    /// `value` in `width` bits; `None` if it does not fit.
    pub fn from_u64(value: u64, width: u32) -> Option<Self> {
        if width < 64 && value >> width != 0 {
            return None;
        }
        let mut b = Bits::zero(width);
        b.words[0] = value;
        Some(b)
    }

    /// From little-endian words; `None` if a bit above `width` is set.
    pub fn from_words(words: &[u64], width: u32) -> Option<Self> {
        let mut b = Bits::zero(width);
        for (i, &w) in words.iter().enumerate() {
            if i < b.words.len() {
                b.words[i] = w;
            } else if w != 0 {
                return None;
            }
        }
        let n = b.words.len();
        if b.words[n - 1] & !top_mask(width) != 0 {
            return None;
        }
        Some(b)
    }

    /// All ones.
    pub fn ones(width: u32) -> Self {
        let mut b = Bits { width, words: vec![u64::MAX; words_for(width)] };
        let n = b.words.len();
        b.words[n - 1] &= top_mask(width);
        b
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn bit(&self, i: u32) -> bool {
        i < self.width && (self.words[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// The value if it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        if self.words[1..].iter().any(|&w| w != 0) {
            None
        } else {
            Some(self.words[0])
        }
    }

    /// Verilog literal, sized to the width: `6'd5`, `70'h3f_0000000000000001`.
    pub fn verilog(&self) -> String {
        match self.to_u64() {
            Some(v) if v < 1 << 20 => format!("{}'d{}", self.width, v),
            _ => format!("{}'h{}", self.width, self.hex()),
        }
    }

    /// Hexadecimal digits without prefix or leading zeros.
    pub fn hex(&self) -> String {
        let top = self.words.iter().rposition(|&w| w != 0);
        match top {
            None => "0".to_string(),
            Some(t) => {
                let mut s = format!("{:x}", self.words[t]);
                for k in (0..t).rev() {
                    s.push_str(&format!("{:016x}", self.words[k]));
                }
                s
            }
        }
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'h{}", self.width, self.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(Bits::from_u64(5, 6).unwrap().verilog(), "6'd5");
        assert!(Bits::from_u64(64, 6).is_none());
        let w = Bits::from_words(&[1, 0x3f], 70).unwrap();
        assert_eq!(w.verilog(), "70'h3f0000000000000001");
        assert!(Bits::from_words(&[1, 0x40], 70).is_none());
        assert_eq!(Bits::ones(65).words(), &[u64::MAX, 1]);
        assert!(Bits::ones(65).bit(64) && !Bits::ones(65).bit(65));
    }
}
