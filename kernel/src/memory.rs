//! Device memory of a launch: the address map and global memory (the
//! launch's buffers plus module-scope `.global` variables) and the constant
//! bank.
//!
//! # Address map
//!
//! | range | what |
//! |---|---|
//! | `0x0100_0000 .. 0x0200_0000` | generic window onto the CTA's shared memory (generic address = `SHARED_WINDOW` + shared offset) |
//! | `0x0200_0000 .. 0x0300_0000` | generic window onto the thread's local memory |
//! | `0x0300_0000 .. 0x0400_0000` | generic window onto the constant bank |
//! | `0x0800_0000 .. 0x1000_0000` | module-scope `.global` variables, in declaration order |
//! | `0x1000_0000 ..` | the launch file's buffers, in the order they are declared, each at a 256-byte aligned address with at least 256 bytes of unmapped gap before the next |
//!
//! Global addresses are the generic addresses (`cvta.global` is the
//! identity, as on NVIDIA GPUs). Address 0 and everything between regions
//! is unmapped: an access there is an error naming the address.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Generic address of shared offset 0.
pub const SHARED_WINDOW: u64 = 0x0100_0000;
/// Generic address of local offset 0.
pub const LOCAL_WINDOW: u64 = 0x0200_0000;
/// Generic address of constant-bank offset 0.
pub const CONST_WINDOW: u64 = 0x0300_0000;
/// Size of each generic window (and the limit on shared memory per CTA,
/// local memory per thread and the constant bank).
pub const WINDOW_BYTES: u64 = 0x0100_0000;
/// Device address of the first module-scope `.global` variable.
pub const GLOBAL_SYMBOLS_BASE: u64 = 0x0800_0000;
/// Room for module-scope `.global` variables.
pub const GLOBAL_SYMBOLS_LIMIT: u64 = 0x0800_0000;
/// Device address of the first buffer.
pub const BUFFERS_BASE: u64 = 0x1000_0000;
/// Buffer alignment (and the minimum gap between buffers).
pub const BUFFER_ALIGN: u64 = 256;
/// Parser-internal: dynamic shared memory addresses are relative to this
/// until the function's static shared size is known (static shared memory
/// is limited to this many bytes).
/// A `.local` offset at or above this names the next frame (a recursive
/// call's arguments and return values): `NEXT_FRAME + x` is offset `x` of
/// the frame one call deeper (`crate::exec`).
pub const NEXT_FRAME: u64 = 0x0040_0000;
pub const DYN_SHARED_MARK: u64 = 0x0080_0000;

/// What a region of global memory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// A buffer of the launch file.
    Buffer,
    /// A module-scope `.global` variable.
    Symbol,
}

/// One mapped range of global memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: String,
    pub kind: RegionKind,
    pub base: u64,
    pub data: Vec<u8>,
}

impl Region {
    pub fn end(&self) -> u64 {
        self.base + self.data.len() as u64
    }
}

/// Global memory and the constant bank of a launch.
#[derive(Debug, Default)]
pub struct Memory {
    /// Sorted by base address, non-overlapping.
    regions: Vec<Region>,
    /// The constant bank (module-scope `.const` variables).
    pub konst: Vec<u8>,
    /// Index of the region of the last access (a cache for `find`; atomic
    /// so that a `Memory` can be shared between threads).
    last: AtomicUsize,
}

impl Clone for Memory {
    fn clone(&self) -> Memory {
        Memory { regions: self.regions.clone(), konst: self.konst.clone(), last: AtomicUsize::new(self.last.load(Ordering::Relaxed)) }
    }
}

impl PartialEq for Memory {
    fn eq(&self, o: &Memory) -> bool {
        self.regions == o.regions && self.konst == o.konst
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Map a region; `Err` names the region it would overlap.
    pub fn add(&mut self, r: Region) -> Result<(), String> {
        if let Some(o) = self.regions.iter().find(|o| r.base < o.end() && o.base < r.end()) {
            return Err(format!("`{}` at {:#x} overlaps `{}`", r.name, r.base, o.name));
        }
        let at = self.regions.partition_point(|o| o.base < r.base);
        self.regions.insert(at, r);
        Ok(())
    }

    /// Unmap the region that starts at `base` (`cudaFree`).
    pub fn remove(&mut self, base: u64) -> Option<Region> {
        let i = self.regions.iter().position(|r| r.base == base)?;
        self.last.store(0, Ordering::Relaxed);
        Some(self.regions.remove(i))
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The regions, to write in place (their bases and sizes stay).
    pub fn regions_mut(&mut self) -> &mut [Region] {
        &mut self.regions
    }

    /// Where `self` and `other` (images of the same launch) first differ,
    /// as one line: the region, byte offset and both bytes, and how many
    /// bytes differ in all; `None` if they are equal.
    pub fn difference(&self, other: &Memory) -> Option<String> {
        let mut first = None;
        let mut count = 0usize;
        for (a, b) in self.regions.iter().zip(&other.regions) {
            for (i, (x, y)) in a.data.iter().zip(&b.data).enumerate().filter(|(_, (x, y))| x != y) {
                count += 1;
                first.get_or_insert_with(|| format!("`{}` byte {i:#x} is {x:#04x} against {y:#04x}", a.name));
            }
        }
        if self.konst != other.konst {
            count += 1;
            first.get_or_insert_with(|| "the constant bank".into());
        }
        first.map(|f| format!("{f} ({count} byte(s) differ)"))
    }

    pub fn region(&self, name: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.name == name)
    }

    pub fn region_mut(&mut self, name: &str) -> Option<&mut Region> {
        self.regions.iter_mut().find(|r| r.name == name)
    }

    /// The first free 256-byte aligned address after every region, leaving a
    /// gap of at least `BUFFER_ALIGN` bytes (so that running off the end of a
    /// buffer is an error, not an access to the next one).
    pub fn next_buffer_base(&self) -> u64 {
        let end = self.regions.iter().map(|r| r.end()).filter(|&e| e >= BUFFERS_BASE).max();
        match end {
            None => BUFFERS_BASE,
            Some(e) => (e + BUFFER_ALIGN).div_ceil(BUFFER_ALIGN) * BUFFER_ALIGN,
        }
    }

    /// (region index, offset) of `[addr, addr + bytes)` if one region holds all of it.
    #[inline]
    pub fn find(&self, addr: u64, bytes: u64) -> Option<(usize, usize)> {
        let last = self.last.load(Ordering::Relaxed);
        if let Some(r) = self.regions.get(last) {
            if addr >= r.base && addr.wrapping_add(bytes) <= r.end() && addr.checked_add(bytes).is_some() {
                return Some((last, (addr - r.base) as usize));
            }
        }
        let i = self.regions.partition_point(|r| r.base <= addr).checked_sub(1)?;
        let r = &self.regions[i];
        let end = addr.checked_add(bytes)?;
        if end <= r.end() {
            self.last.store(i, Ordering::Relaxed);
            Some((i, (addr - r.base) as usize))
        } else {
            None
        }
    }

    /// Read `bytes` (1, 2, 4 or 8) little-endian at a device address.
    #[inline]
    pub fn read(&self, addr: u64, bytes: u32) -> Option<u64> {
        let (i, off) = self.find(addr, bytes as u64)?;
        Some(read_le(&self.regions[i].data[off..off + bytes as usize]))
    }

    /// Write the low `bytes` of `v` little-endian at a device address.
    #[inline]
    pub fn write(&mut self, addr: u64, bytes: u32, v: u64) -> Option<()> {
        let (i, off) = self.find(addr, bytes as u64)?;
        write_le(&mut self.regions[i].data[off..off + bytes as usize], v);
        Some(())
    }
}

/// Global memory as one instruction sees it: the memory itself (the
/// functional model, a single SM), or — inside a whole-GPU cycle, where SMs
/// step in parallel — the memory as the previous cycle left it under this
/// SM's own writes of this cycle (`Stage`), which the GPU commits in SM
/// order after every SM has stepped. That order, not the thread schedule,
/// decides what one SM sees of another's writes, so runs are identical at
/// any thread count.
pub enum Global<'a> {
    Direct(&'a mut Memory),
    Staged(&'a Memory, &'a mut Stage),
}

impl Global<'_> {
    pub fn memory(&self) -> &Memory {
        match self {
            Global::Direct(m) => m,
            Global::Staged(m, _) => m,
        }
    }

    #[inline]
    pub fn read(&self, addr: u64, bytes: u32) -> Option<u64> {
        match self {
            Global::Direct(m) => m.read(addr, bytes),
            Global::Staged(m, s) => {
                let v = m.read(addr, bytes)?;
                Some(if s.writes.is_empty() { v } else { s.overlay(addr, bytes, v) })
            }
        }
    }

    #[inline]
    pub fn write(&mut self, addr: u64, bytes: u32, v: u64) -> Option<()> {
        match self {
            Global::Direct(m) => m.write(addr, bytes, v),
            Global::Staged(m, s) => {
                m.find(addr, bytes as u64)?;
                s.writes.push(StagedWrite { addr, bytes, value: v, atomic: None });
                Some(())
            }
        }
    }

    /// The write just made was an atomic's: commit re-performs it on the
    /// memory of that moment and reports a different old value.
    pub(crate) fn mark_atomic(&mut self, a: StagedAtomic) {
        if let Global::Staged(_, s) = self {
            if let Some(w) = s.writes.last_mut() {
                w.atomic = Some(a);
            }
        }
    }
}

/// One SM's global-memory writes of one GPU cycle, in program order.
#[derive(Clone, Debug, Default)]
pub struct Stage {
    writes: Vec<StagedWrite>,
}

#[derive(Clone, Copy, Debug)]
struct StagedWrite {
    addr: u64,
    bytes: u32,
    value: u64,
    atomic: Option<StagedAtomic>,
}

/// An atomic's operation and the old value its lane was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StagedAtomic {
    pub op: crate::inst::AtomOp,
    pub ty: crate::inst::Ty,
    pub b: u64,
    pub c: u64,
    pub old: u64,
    pub lane: u8,
    /// Instruction index, and the warp slot the caller tags it with.
    pub inst: u32,
    pub warp: u32,
}

impl Stage {
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }

    /// Tag the atomics staged since `from` writes with the warp that made them.
    pub fn tag_warp(&mut self, from: usize, warp: u32) {
        for a in self.writes[from..].iter_mut().filter_map(|w| w.atomic.as_mut()) {
            a.warp = warp;
        }
    }

    pub fn len(&self) -> usize {
        self.writes.len()
    }

    /// `v` (read from the memory at `addr`) under the staged writes.
    fn overlay(&self, addr: u64, bytes: u32, v: u64) -> u64 {
        let mut b = v.to_le_bytes();
        let end = addr + bytes as u64;
        for w in self.writes.iter().filter(|w| w.addr < end && addr < w.addr + w.bytes as u64) {
            let wb = w.value.to_le_bytes();
            for a in w.addr.max(addr)..(w.addr + w.bytes as u64).min(end) {
                b[(a - addr) as usize] = wb[(a - w.addr) as usize];
            }
        }
        read_le(&b[..bytes as usize])
    }

    /// Perform the staged writes on `mem` in order, and empty the stage.
    /// An atomic is performed again on the value it finds now; when that
    /// differs from the old value its lane was given, `patch` gets the
    /// atomic and the value the lane must see instead (another SM's atomic
    /// on the same word came first).
    pub fn commit(&mut self, mem: &mut Memory, mut patch: impl FnMut(&StagedAtomic, u64)) {
        for w in self.writes.drain(..) {
            let Some(a) = w.atomic else {
                mem.write(w.addr, w.bytes, w.value);
                continue;
            };
            // Mapped when staged; the map does not change during a launch.
            let old = mem.read(w.addr, w.bytes).unwrap_or(a.old);
            let new = crate::exec::atom1(a.op, a.ty, old, a.b, a.c);
            mem.write(w.addr, w.bytes, zext_bytes(new, w.bytes));
            if old != a.old {
                patch(&a, old);
            }
        }
    }
}

fn zext_bytes(v: u64, bytes: u32) -> u64 {
    if bytes >= 8 {
        v
    } else {
        v & ((1u64 << (bytes * 8)) - 1)
    }
}

/// Little-endian value of up to 8 bytes.
#[inline]
pub fn read_le(b: &[u8]) -> u64 {
    // The access sizes as fixed-size loads: a variable-length copy into a
    // buffer costs a library call and a store-forwarding stall per access.
    match *b {
        [x] => x as u64,
        [x, y] => u16::from_le_bytes([x, y]) as u64,
        [x0, x1, x2, x3] => u32::from_le_bytes([x0, x1, x2, x3]) as u64,
        [x0, x1, x2, x3, x4, x5, x6, x7] => u64::from_le_bytes([x0, x1, x2, x3, x4, x5, x6, x7]),
        _ => {
            let mut v = [0u8; 8];
            v[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(v)
        }
    }
}

/// Store the low `b.len()` bytes of `v` little-endian.
#[inline]
pub fn write_le(b: &mut [u8], v: u64) {
    match b.len() {
        1 => b[0] = v as u8,
        2 => b.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b.copy_from_slice(&(v as u32).to_le_bytes()),
        8 => b.copy_from_slice(&v.to_le_bytes()),
        n => b.copy_from_slice(&v.to_le_bytes()[..n]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(name: &str, base: u64, len: usize) -> Region {
        Region { name: name.into(), kind: RegionKind::Buffer, base, data: vec![0; len] }
    }

    #[test]
    fn regions_map_and_bound() {
        let mut m = Memory::new();
        m.add(region("a", BUFFERS_BASE, 16)).unwrap();
        let b = m.next_buffer_base();
        assert_eq!(b, BUFFERS_BASE + 512);
        m.add(region("b", b, 8)).unwrap();
        assert!(m.add(region("c", BUFFERS_BASE + 8, 8)).is_err());
        m.write(BUFFERS_BASE + 12, 4, 0xdead_beef).unwrap();
        assert_eq!(m.read(BUFFERS_BASE + 12, 4), Some(0xdead_beef));
        assert_eq!(m.read(BUFFERS_BASE + 14, 4), None, "runs off the end");
        assert_eq!(m.read(BUFFERS_BASE - 4, 4), None);
        assert_eq!(m.read(b + 4, 4), Some(0));
        assert_eq!(m.read(u64::MAX - 1, 4), None);
        assert_eq!(m.read(0, 1), None);
    }
}
