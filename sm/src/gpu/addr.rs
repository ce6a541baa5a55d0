//! GPGPU-Sim's linear-to-DRAM address decoder (`addrdec.cc`, `CONSECUTIVE` partition
//! indexing), our own code: a mask string names which address bits hold the row,
//! bank and column, and the channel comes from D bits or from a `dramid@` split.

/// Where a byte address lives in the memory system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramAddr {
    pub channel: u32,
    /// Global index: channel * subs + (bank & (subs-1)).
    pub sub_partition: u32,
    pub bank: u32,
    pub row: u32,
    /// Column including the burst (S) bits, as in GPGPU-Sim.
    pub col: u32,
}

/// A parsed `-gpgpu_mem_addr_mapping`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressMap {
    /// `dramid@` start bit when `channels` is not a power of two: GPGPU-Sim's "gap"
    /// path divides the address above this bit by `channels`.
    gap_start: Option<u32>,
    channels: u32,
    subs: u32,
    /// Bit masks of the channel, bank, row and column fields (a field's value is its
    /// bits gathered in order, lowest first).
    chip: u64,
    bank: u64,
    row: u64,
    col: u64,
}

/// The bits of `val` under `mask`, packed to the bottom (lowest mask bit first).
fn gather(mask: u64, val: u64) -> u64 {
    let (mut m, mut out, mut pos) = (mask, 0u64, 0);
    while m != 0 {
        let bit = m & m.wrapping_neg();
        out |= u64::from(val & bit != 0) << pos;
        pos += 1;
        m &= m - 1;
    }
    out
}

impl AddressMap {
    /// `mapping` is GPGPU-Sim's `-gpgpu_mem_addr_mapping` string, e.g.
    /// "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS"
    /// (64 mask characters after the ';' ignoring '.', '|' and spaces, most significant bit
    /// first; letters R row, B bank, C column, S burst (also part of the column), D chip,
    /// 0 unused; case-insensitive). `channels` memory channels, `sub_partitions` per
    /// channel (power of two).
    ///
    /// With `dramid@N` the channel comes from the address bits from N up; the mask then
    /// describes the address with the channel removed. When `channels` is not a power of
    /// two the channel is (addr >> N) % channels and the quotient is stitched back above
    /// the low N bits before the mask decodes it (GPGPU-Sim's "gap" path). When it is a
    /// power of two, GPGPU-Sim instead inserts log2(channels) chip bits at N, moving the
    /// mask's bits from N up by that much; we do the same (it gives the same result as
    /// the division). Without `dramid@` the channel is the D bits, which must number
    /// log2(channels).
    ///
    /// Err(String) names what is wrong (bad length, unknown letter, sub_partitions not a
    /// power of two or more than the bank bits allow, channels 0, a D/dramid@ conflict).
    pub fn parse(mapping: &str, channels: u32, sub_partitions: u32) -> Result<AddressMap, String> {
        if channels == 0 {
            return Err("memory channels must be at least 1".into());
        }
        if !sub_partitions.is_power_of_two() {
            return Err(format!("sub_partitions={sub_partitions} is not a power of two"));
        }
        if channels.checked_mul(sub_partitions).is_none() {
            return Err(format!("{channels} channels × {sub_partitions} sub-partitions overflow"));
        }
        let (head, bits) = mapping.split_once(';').unwrap_or(("", mapping));
        let dramid = match head.trim() {
            "" => None,
            h => match h.strip_prefix("dramid@").map(str::parse::<u32>) {
                Some(Ok(n)) if n < 64 => Some(n),
                _ => return Err(format!("`{h}` is not dramid@<bit below 64>")),
            },
        };
        // Masks for D, B, R, C (S counts as C).
        let mut m = [0u64; 4];
        let mut n = 0u32; // mask characters seen
        for c in bits.chars() {
            let field = match c.to_ascii_uppercase() {
                '.' | '|' => continue,
                c if c.is_whitespace() => continue,
                'D' => Some(0),
                'B' => Some(1),
                'R' => Some(2),
                'C' | 'S' => Some(3),
                '0' => None,
                _ => return Err(format!("unknown address mapping letter `{c}`")),
            };
            if n >= 64 {
                return Err("address mapping has more than 64 bits".into());
            }
            if let Some(f) = field {
                m[f] |= 1u64 << (63 - n);
            }
            n += 1;
        }
        if n != 64 {
            return Err(format!("address mapping has {n} bits, not 64"));
        }
        let [mut chip, mut bank, mut row, mut col] = m;
        for (name, mask) in [("bank", bank), ("row", row), ("column", col)] {
            if mask.count_ones() > 32 {
                return Err(format!("the {name} field has more than 32 bits"));
            }
        }
        if u64::from(sub_partitions) > 1u64 << bank.count_ones() {
            return Err(format!("{sub_partitions} sub-partitions need more than {} bank bits", bank.count_ones()));
        }
        let log2ch = channels.trailing_zeros();
        let mut gap_start = None;
        match dramid {
            Some(_) if chip != 0 => return Err("D bits and dramid@ both given".into()),
            Some(s) if !channels.is_power_of_two() => gap_start = Some(s),
            Some(s) => {
                // Insert the chip bits at s: mask bits from s up move up by log2(channels).
                if s + log2ch > 64 {
                    return Err(format!("dramid@{s} leaves no room for {log2ch} channel bits"));
                }
                let low = (1u64 << s) - 1;
                for f in [&mut bank, &mut row, &mut col] {
                    *f = ((*f & !low) << log2ch) | (*f & low); // bits pushed past 63 drop, as in GPGPU-Sim
                }
                chip = ((1u64 << log2ch) - 1) << s;
            }
            None if !channels.is_power_of_two() || chip.count_ones() != log2ch => {
                return Err(format!("{} D bits cannot address {channels} channels without dramid@", chip.count_ones()));
            }
            None => {}
        }
        Ok(AddressMap { gap_start, channels, subs: sub_partitions, chip, bank, row, col })
    }

    /// The address with the channel bits taken out, as GPGPU-Sim's
    /// `partition_address` (which also takes out the bank bits that select
    /// the sub-partition; this keeps them). On the "gap" path the quotient
    /// above `dramid@` stitched onto the bits below it; otherwise every bit
    /// but the channel's.
    pub fn partition_address(&self, addr: u64) -> u64 {
        match self.gap_start {
            Some(s) => (((addr >> s) / u64::from(self.channels)) << s) | (addr & ((1u64 << s) - 1)),
            None => gather(!self.chip, addr),
        }
    }

    pub fn decode(&self, addr: u64) -> DramAddr {
        let (channel, rest) = match self.gap_start {
            Some(s) => (((addr >> s) % u64::from(self.channels)) as u32, self.partition_address(addr)),
            None => (gather(self.chip, addr) as u32, addr),
        };
        let bank = gather(self.bank, rest) as u32;
        DramAddr {
            channel,
            sub_partition: channel * self.subs + (bank & (self.subs - 1)),
            bank,
            row: gather(self.row, rest) as u32,
            col: gather(self.col, rest) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GTX480: &str = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";

    fn at(channel: u32, sub_partition: u32, bank: u32, row: u32, col: u32) -> DramAddr {
        DramAddr { channel, sub_partition, bank, row, col }
    }

    #[test]
    fn gtx480_six_channels() {
        // Mask, from bit 0: S 0-5, C 6-7, B 8, C 9-12, B 13-15, R 16-27. So bank =
        // a8 | a13..15 << 1, col = a0..7 | a9..12 << 8, row = a16..27. Six channels is
        // not a power of two: channel = (a >> 8) % 6, rest = (a >> 8) / 6 << 8 | a & 0xff,
        // sub-partition = 2 * channel + (bank & 1).
        let m = AddressMap::parse(GTX480, 6, 2).unwrap();
        let cases = [
            (0x0, at(0, 0, 0, 0, 0)),
            (0x100, at(1, 2, 0, 0, 0)),   // a >> 8 = 1: channel 1, rest 0
            (0x200, at(2, 4, 0, 0, 0)),   // channel 2
            (0x5ff, at(5, 10, 0, 0, 0xff)), // channel 5, rest 0xff: all column
            (0x600, at(0, 1, 1, 0, 0)),   // 6 % 6 = 0, quotient 1: rest 0x100 = bank bit 0
            // 0x100 % 6 = 4, quotient 42 = 0b101010: rest 0x2a00 has a9, a11 (col 0b0101 << 8)
            // and a13 (bank 0b0010).
            (0x10000, at(4, 8, 2, 0, 0x500)),
            // 0x123456 = 6 × 0x308b9: channel 0, rest 0x308b978: a8 a13 a15 set (bank 0b1011),
            // a9..12 = 0b1100 (col 0xc78), row 0x308.
            (0x1234_5678, at(0, 1, 11, 0x308, 0xc78)),
            // 0x1000000 = 6 × 0x2aaaaa + 4: rest 0x2aaaaa00: a13 a15 (bank 0b1010),
            // a9..12 = 0b0101 (col 0x500), row bits 0xaaa (a29 is unmapped).
            (0x1_0000_0000, at(4, 8, 10, 0xaaa, 0x500)),
        ];
        for (a, want) in cases {
            assert_eq!(m.decode(a), want, "{a:#x}");
        }
    }

    #[test]
    fn chunks_spread_over_all_sub_partitions() {
        // 256 B chunk k: channel k % 6, bank bit 0 = (k / 6) & 1; twelve chunks, twelve
        // different sub-partitions.
        let m = AddressMap::parse(GTX480, 6, 2).unwrap();
        let mut seen: Vec<u32> = (0..12).map(|k| m.decode(k * 256).sub_partition).collect();
        assert_eq!(seen, [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11]);
        seen.sort_unstable();
        assert_eq!(seen, (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn power_of_two_channels_insert_chip_bits() {
        // 8 channels: chip bits 8-10 are inserted, the mask's bits from 8 up move up 3:
        // bank a11 | a16..18 << 1, col a0..7 | a12..15 << 8, row a19..30.
        let m = AddressMap::parse(GTX480, 8, 2).unwrap();
        assert_eq!(m.decode(0x700), at(7, 14, 0, 0, 0));
        assert_eq!(m.decode(0x800), at(0, 1, 1, 0, 0));
        // 0x12345678: a8..10 = 0b110, a11 = 0, a16..18 = 0b100 (bank 8), a12..15 = 0x5
        // (col 0x578), a19..30 = 0x246.
        assert_eq!(m.decode(0x1234_5678), at(6, 12, 8, 0x246, 0x578));
        // Explicit D bits instead of dramid@: chip = a6..7.
        let d = AddressMap::parse(&GTX480[9..].replace("CCSSSSSS", "DDSSSSSS"), 4, 1).unwrap();
        assert_eq!(d.decode(0xc0), at(3, 3, 0, 0, 0));
        assert_eq!(d.decode(0x140), at(1, 1, 1, 0, 0));
    }

    #[test]
    fn errors() {
        let d_bits = GTX480[9..].replace("CCSSSSSS", "DDSSSSSS");
        for (map, ch, subs, want) in [
            (GTX480.replacen('0', "", 1), 6, 2, "63 bits"),
            (format!("{GTX480}0"), 6, 2, "more than 64"),
            (GTX480.replacen('0', "X", 1), 6, 2, "`X`"),
            (GTX480.into(), 6, 3, "power of two"),
            (GTX480.into(), 6, 32, "bank bits"),
            (GTX480.into(), 0, 2, "channels"),
            (GTX480.replace("dramid@8", "dramid@x"), 6, 2, "dramid@x"),
            (format!("dramid@8;{d_bits}"), 4, 1, "dramid@"),
            (d_bits.clone(), 8, 1, "2 D bits"),
            (GTX480[9..].to_string(), 6, 2, "0 D bits"),
        ] {
            let e = AddressMap::parse(&map, ch, subs).unwrap_err();
            assert!(e.contains(want), "{e:?} should name {want:?}");
        }
    }
}
