//! NVIDIA's fatbinary: the container nvcc embeds in a program
//! (`.nv_fatbin`) with each translation unit's device code — cubins (SASS)
//! for the `sm_XX` targets and PTX for the `compute_XX` ones, each entry
//! possibly compressed (LZ4 before CUDA 12.4's `--compress-mode`, zstd by
//! default in CUDA 13). Warpforge runs the PTX.
//!
//! Layout (little-endian; learned from the files nvcc writes, as ZLUDA and
//! GPGPU-Sim did before us):
//!
//! | at | what |
//! |---|---|
//! | wrapper (`__fatDeviceText`, `.nvFatBinSegment`) | `u32` magic `0x466243b1`, `u32` version (1, or 2 for relocatable device code), `u64` address of the fatbinary, `u64` (unused here) |
//! | fatbinary header | `u32` magic `0xba55ed50`, `u16` version, `u16` header bytes, `u64` bytes of entries that follow |
//! | entry header | `u16` kind (1 PTX, 2 cubin), `u16` version, `u32` header bytes, `u64` padded payload bytes, `u32` stored payload bytes at +16, `u32` target `sm_XX` at +28, `u64` flags at +40 (bit 13 LZ4, bit 15 zstd), `u64` uncompressed payload bytes at +56 |
//!
//! Every size is checked against the bytes actually there: a malformed
//! fatbinary is an error naming the byte offset, never a read past it.

use std::fmt;
use std::io::Read;

pub const WRAPPER_MAGIC: u32 = 0x4662_43b1;
pub const FATBIN_MAGIC: u32 = 0xba55_ed50;
/// Bytes of the fatbinary header.
pub const HEADER_BYTES: usize = 16;
/// Largest fatbinary (and decompressed entry) accepted: 1 GiB.
pub const MAX_BYTES: u64 = 1 << 30;
const ENTRY_MIN_HEADER: usize = 64;
const FLAG_LZ4: u64 = 0x2000;
const FLAG_ZSTD: u64 = 0x8000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ptx,
    Cubin,
    Other(u16),
}

/// One entry, its payload decompressed.
#[derive(Clone, Debug)]
pub struct Entry {
    pub kind: Kind,
    /// The `sm_XX` / `compute_XX` number (75 for sm_75).
    pub arch: u32,
    pub payload: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FatbinError {
    /// Byte offset in the fatbinary.
    pub offset: usize,
    pub msg: String,
}

impl fmt::Display for FatbinError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "malformed fatbinary at byte {:#x}: {}", self.offset, self.msg)
    }
}

impl std::error::Error for FatbinError {}

fn err<T>(offset: usize, msg: impl Into<String>) -> Result<T, FatbinError> {
    Err(FatbinError { offset, msg: msg.into() })
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The wrapper's fields: (version, address of the fatbinary).
pub fn wrapper(w: &[u8; 24]) -> Result<(u32, u64), FatbinError> {
    let magic = u32_at(w, 0);
    if magic != WRAPPER_MAGIC {
        return err(0, format!("the registered wrapper has magic {magic:#010x}, not {WRAPPER_MAGIC:#010x} (not an nvcc fatbinary wrapper)"));
    }
    Ok((u32_at(w, 4), u64_at(w, 8)))
}

/// Total bytes of the fatbinary that starts with `header`.
pub fn total_bytes(header: &[u8; HEADER_BYTES]) -> Result<usize, FatbinError> {
    let magic = u32_at(header, 0);
    if magic != FATBIN_MAGIC {
        return err(0, format!("magic {magic:#010x}, not {FATBIN_MAGIC:#010x}"));
    }
    let hsize = u16_at(header, 6) as u64;
    let body = u64_at(header, 8);
    if hsize < HEADER_BYTES as u64 {
        return err(6, format!("header of {hsize} bytes (at least {HEADER_BYTES})"));
    }
    match hsize.checked_add(body) {
        Some(n) if n <= MAX_BYTES => Ok(n as usize),
        _ => err(8, format!("{body} bytes of entries: more than the 1 GiB accepted")),
    }
}

/// Every entry of a fatbinary, payloads decompressed.
pub fn entries(fb: &[u8]) -> Result<Vec<Entry>, FatbinError> {
    let Some(header) = fb.get(..HEADER_BYTES) else {
        return err(0, format!("{} bytes; the header alone is {HEADER_BYTES}", fb.len()));
    };
    let total = total_bytes(header.try_into().expect("16 bytes"))?;
    if total > fb.len() {
        return err(8, format!("the header claims {total} bytes; there are {}", fb.len()));
    }
    let mut at = u16_at(fb, 6) as usize;
    let mut out = Vec::new();
    while at < total {
        if total - at < ENTRY_MIN_HEADER {
            return err(at, format!("{} bytes left; an entry header is at least {ENTRY_MIN_HEADER}", total - at));
        }
        let e = &fb[at..total];
        let kind = match u16_at(e, 0) {
            1 => Kind::Ptx,
            2 => Kind::Cubin,
            k => Kind::Other(k),
        };
        let hsize = u32_at(e, 4) as usize;
        let padded = u64_at(e, 8);
        let stored = u32_at(e, 16) as u64;
        let arch = u32_at(e, 28);
        let flags = u64_at(e, 40);
        let raw = u64_at(e, 56);
        if hsize < ENTRY_MIN_HEADER || hsize > e.len() {
            return err(at + 4, format!("entry header of {hsize} bytes ({} bytes left)", e.len()));
        }
        if padded > (e.len() - hsize) as u64 {
            return err(at + 8, format!("entry payload of {padded} bytes; {} bytes left", e.len() - hsize));
        }
        let payload = &e[hsize..hsize + padded as usize];
        let compressed = flags & (FLAG_LZ4 | FLAG_ZSTD) != 0;
        let payload = if compressed {
            if stored > padded {
                return err(at + 16, format!("compressed payload of {stored} bytes in {padded} bytes"));
            }
            if raw > MAX_BYTES {
                return err(at + 56, format!("decompresses to {raw} bytes: more than the 1 GiB accepted"));
            }
            let data = &payload[..stored as usize];
            let decoded = if flags & FLAG_ZSTD != 0 { unzstd(data, raw) } else { unlz4(data, raw) };
            decoded.map_err(|m| FatbinError { offset: at + hsize, msg: m })?
        } else {
            payload.to_vec()
        };
        out.push(Entry { kind, arch, payload });
        at += hsize + padded as usize;
    }
    Ok(out)
}

fn unzstd(data: &[u8], raw: u64) -> Result<Vec<u8>, String> {
    let d = ruzstd::decoding::StreamingDecoder::new(data).map_err(|e| format!("zstd: {e}"))?;
    let mut out = Vec::with_capacity(raw.min(1 << 24) as usize);
    d.take(raw + 1).read_to_end(&mut out).map_err(|e| format!("zstd: {e}"))?;
    if out.len() as u64 != raw {
        return Err(format!("zstd payload decompresses to {} bytes; the header says {raw}", out.len()));
    }
    Ok(out)
}

fn unlz4(data: &[u8], raw: u64) -> Result<Vec<u8>, String> {
    // LZ4 expands at most 255-fold: a larger claim is a damaged header.
    if raw > data.len() as u64 * 255 + 64 {
        return Err(format!("{} bytes of lz4 cannot decompress to the {raw} the header says", data.len()));
    }
    let mut out = vec![0u8; raw as usize];
    let n = lz4_flex::block::decompress_into(data, &mut out).map_err(|e| format!("lz4: {e}"))?;
    if n as u64 != raw {
        return Err(format!("lz4 payload decompresses to {n} bytes; the header says {raw}"));
    }
    Ok(out)
}

/// The PTX of a fatbinary (of the oldest target if there are several),
/// without the padding NULs; `Ok(None)` if it holds only cubins.
pub fn ptx(fb: &[u8]) -> Result<Option<String>, FatbinError> {
    let all = entries(fb)?;
    let Some(e) = all.iter().filter(|e| e.kind == Kind::Ptx).min_by_key(|e| e.arch) else {
        return Ok(None);
    };
    let end = e.payload.iter().position(|&b| b == 0).unwrap_or(e.payload.len());
    match std::str::from_utf8(&e.payload[..end]) {
        Ok(s) => Ok(Some(s.to_string())),
        Err(u) => err(0, format!("the compute_{} PTX is not UTF-8 text (byte {} of it)", e.arch, u.valid_up_to())),
    }
}

/// The targets of the cubins (for the message when there is no PTX).
pub fn cubin_archs(fb: &[u8]) -> Vec<u32> {
    entries(fb).map(|v| v.iter().filter(|e| e.kind == Kind::Cubin).map(|e| e.arch).collect()).unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fatbinary of `entries` (kind, arch, flags, payload as stored,
    /// uncompressed size) as nvcc lays one out.
    pub fn build(entries: &[(u16, u32, u64, Vec<u8>, u64)]) -> Vec<u8> {
        let mut body = Vec::new();
        for (kind, arch, flags, payload, raw) in entries {
            let padded = payload.len().div_ceil(8) * 8;
            let mut h = vec![0u8; 80];
            h[0..2].copy_from_slice(&kind.to_le_bytes());
            h[2..4].copy_from_slice(&0x101u16.to_le_bytes());
            h[4..8].copy_from_slice(&80u32.to_le_bytes());
            h[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
            h[16..20].copy_from_slice(&(payload.len() as u32).to_le_bytes());
            h[28..32].copy_from_slice(&arch.to_le_bytes());
            h[40..48].copy_from_slice(&(flags | 0x11).to_le_bytes());
            h[56..64].copy_from_slice(&raw.to_le_bytes());
            body.extend_from_slice(&h);
            body.extend_from_slice(payload);
            body.resize(body.len() + padded - payload.len(), 0);
        }
        let mut fb = Vec::new();
        fb.extend_from_slice(&FATBIN_MAGIC.to_le_bytes());
        fb.extend_from_slice(&1u16.to_le_bytes());
        fb.extend_from_slice(&16u16.to_le_bytes());
        fb.extend_from_slice(&(body.len() as u64).to_le_bytes());
        fb.extend_from_slice(&body);
        fb
    }

    const PTX: &str = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k() { ret; }\n";

    #[test]
    fn plain_lz4_and_zstd_ptx() {
        let text = PTX.as_bytes().to_vec();
        let plain = build(&[(2, 75, 0, vec![0x7f, b'E', b'L', b'F'], 4), (1, 75, 0, text.clone(), text.len() as u64)]);
        assert_eq!(ptx(&plain).unwrap().as_deref(), Some(PTX));
        let lz4 = lz4_flex::block::compress(&text);
        let fb = build(&[(1, 75, FLAG_LZ4, lz4, text.len() as u64)]);
        assert_eq!(ptx(&fb).unwrap().as_deref(), Some(PTX));
        let zstd = ruzstd::encoding::compress_to_vec(&text[..], ruzstd::encoding::CompressionLevel::Fastest);
        let fb = build(&[(1, 80, FLAG_ZSTD, zstd.clone(), text.len() as u64), (1, 75, 0, text.clone(), text.len() as u64)]);
        assert_eq!(ptx(&fb).unwrap().as_deref(), Some(PTX), "the oldest target's PTX");
        // A wrong uncompressed size is an error, not a truncation.
        let fb = build(&[(1, 75, FLAG_ZSTD, zstd, text.len() as u64 - 1)]);
        assert!(ptx(&fb).unwrap_err().msg.contains("decompresses to"));
        let only_cubin = build(&[(2, 75, 0, vec![1, 2, 3], 3)]);
        assert_eq!(ptx(&only_cubin).unwrap(), None);
        assert_eq!(cubin_archs(&only_cubin), vec![75]);
    }

    fn sample() -> Vec<u8> {
        let text = PTX.as_bytes().to_vec();
        let lz4 = lz4_flex::block::compress(&text);
        let zstd = ruzstd::encoding::compress_to_vec(&text[..], ruzstd::encoding::CompressionLevel::Fastest);
        build(&[
            (2, 75, 0, vec![0x7f, b'E', b'L', b'F', 2, 1, 1], 7),
            (1, 75, FLAG_ZSTD, zstd, text.len() as u64),
            (1, 80, FLAG_LZ4, lz4, text.len() as u64),
        ])
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            std::env::var("WARPFORGE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)))]

        /// Damaged fatbinaries (bytes overwritten, the file cut short):
        /// an error or a result, never a panic or a read past the end.
        #[test]
        fn damaged_fatbinaries(edits in proptest::collection::vec((0usize..4096, proptest::num::u8::ANY), 1..6), cut in 0usize..4096) {
            let mut fb = sample();
            for (at, v) in edits {
                let i = at % fb.len();
                fb[i] = v;
            }
            let cut = fb.len() - cut % fb.len();
            let _ = ptx(&fb[..cut]);
            let _ = cubin_archs(&fb);
        }
    }

    #[test]
    fn sizes_are_checked() {
        let text = PTX.as_bytes().to_vec();
        let fb = build(&[(1, 75, 0, text.clone(), text.len() as u64)]);
        assert!(entries(&fb[..fb.len() - 1]).unwrap_err().msg.contains("the header claims"));
        let mut bad = fb.clone();
        bad[16 + 8] = 0xff; // padded payload beyond the end
        assert!(entries(&bad).unwrap_err().msg.contains("entry payload"));
        let mut bad = fb.clone();
        bad[0] = 0;
        assert!(entries(&bad).unwrap_err().msg.contains("magic"));
        assert!(entries(&fb[..10]).is_err());
    }
}
