//! Storage counted from the IR: the flip-flop and memory bits the emitted
//! hardware really contains, per instance and in total.

use crate::ir::Module;

/// One storage element of the hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageItem {
    /// Instance path below the top (`""` for the top module).
    pub scope: String,
    pub name: String,
    pub kind: StorageKind,
    pub bits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageKind {
    /// A register (flip-flops).
    Reg,
    /// A register array (flip-flops, reset).
    RegArray { depth: u32, width: u32 },
    /// A RAM (memory bits, no reset).
    Ram { depth: u32, width: u32 },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    pub items: Vec<StorageItem>,
}

impl Storage {
    pub fn of(top: &Module) -> Storage {
        let mut s = Storage::default();
        walk(top, "", &mut s.items);
        s
    }

    /// Flip-flop bits: registers and register arrays.
    pub fn ff_bits(&self) -> u64 {
        self.items.iter().filter(|i| !matches!(i.kind, StorageKind::Ram { .. })).map(|i| i.bits).sum()
    }

    /// RAM bits.
    pub fn mem_bits(&self) -> u64 {
        self.items.iter().filter(|i| matches!(i.kind, StorageKind::Ram { .. })).map(|i| i.bits).sum()
    }

    pub fn total_bits(&self) -> u64 {
        self.ff_bits() + self.mem_bits()
    }

    /// Bits of items whose scope or name starts with `prefix`.
    pub fn bits_under(&self, prefix: &str) -> u64 {
        self.items
            .iter()
            .filter(|i| {
                let path = if i.scope.is_empty() { i.name.clone() } else { format!("{}.{}", i.scope, i.name) };
                path.starts_with(prefix)
            })
            .map(|i| i.bits)
            .sum()
    }
}

fn walk(m: &Module, scope: &str, out: &mut Vec<StorageItem>) {
    for s in m.signals.iter().filter(|s| s.is_reg()) {
        out.push(StorageItem { scope: scope.to_string(), name: s.name.clone(), kind: StorageKind::Reg, bits: s.width as u64 });
    }
    for mem in &m.mems {
        let kind = if mem.reset.is_some() {
            StorageKind::RegArray { depth: mem.depth, width: mem.width }
        } else {
            StorageKind::Ram { depth: mem.depth, width: mem.width }
        };
        out.push(StorageItem { scope: scope.to_string(), name: mem.name.clone(), kind, bits: mem.depth as u64 * mem.width as u64 });
    }
    for inst in &m.instances {
        let sub = if scope.is_empty() { inst.name.clone() } else { format!("{scope}.{}", inst.name) };
        walk(&inst.module, &sub, out);
    }
}
