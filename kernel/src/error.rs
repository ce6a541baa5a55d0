//! Error types. Each displays as one line naming the file, line, key or
//! kernel it is about.

use crate::inst::{MemKind, Space};
use std::path::PathBuf;
use thiserror::Error;

/// A PTX syntax or subset error.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}:{col}: {msg}")]
pub struct ParseError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub msg: String,
}

/// Compiling CUDA C failed.
#[derive(Debug, Error)]
pub enum CompileError {
    #[error("{file}: cannot run `{clang}`: {err} (install clang-14, e.g. `make setup`)")]
    Spawn { file: String, clang: String, err: std::io::Error },
    /// clang's first error line (it names `file:line:column`) and how many errors it reported.
    #[error("{first}{}", if *.errors > 1 { format!(" (and {} more errors)", .errors - 1) } else { String::new() })]
    Clang { first: String, errors: usize, stderr: String },
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
}

/// Register allocation failed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum AllocError {
    #[error(
        "{file}: kernel `{kernel}` needs {needed} 32-bit registers per thread; the register file has {max} (spilling is not supported)"
    )]
    TooManyRegs { file: String, kernel: String, needed: u32, max: u32 },
    #[error("{file}: kernel `{kernel}` needs {needed} predicate registers per thread; there are {max}")]
    TooManyPreds { file: String, kernel: String, needed: u32, max: u32 },
}

/// A launch file problem: `file: key: message`.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{}{}{msg}", file.display(), if key.is_empty() { ": ".to_string() } else { format!(": {key}: ") })]
pub struct LaunchError {
    pub file: PathBuf,
    /// The key, dotted (`buffers.a.len`, `args[2]`), or a line (`line 4`).
    pub key: String,
    pub msg: String,
}

/// What went wrong executing an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// An access outside the space's mapped memory.
    OutOfBounds { space: Space, kind: MemKind, addr: u64, bytes: u32 },
    /// An access not aligned to its size.
    Misaligned { space: Space, kind: MemKind, addr: u64, bytes: u32 },
    /// A store or atomic to a read-only space (`.param`, `.const`).
    ReadOnly { space: Space },
    /// `exec` on a warp that has finished.
    WarpDone,
    /// The warp's PC is not an instruction.
    BadPc,
    /// `skip` of a branch or exit.
    SkipControl,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = |k: &MemKind| match k {
            MemKind::Load => "load",
            MemKind::Store => "store",
            MemKind::Atomic => "atomic",
        };
        match self {
            Fault::OutOfBounds { space: Space::Global, kind: k, addr, bytes } => {
                write!(f, "{} of {bytes} bytes at {addr:#x} is outside every buffer and global variable", kind(k))
            }
            Fault::OutOfBounds { space, kind: k, addr, bytes } => {
                write!(f, ".{} {} of {bytes} bytes at offset {addr:#x} is out of bounds", space.name(), kind(k))
            }
            Fault::Misaligned { space, kind: k, addr, bytes } => {
                write!(f, "misaligned .{} {} of {bytes} bytes at {addr:#x}", space.name(), kind(k))
            }
            Fault::ReadOnly { space } => write!(f, "write to read-only .{} space", space.name()),
            Fault::WarpDone => write!(f, "the warp has already exited"),
            Fault::BadPc => write!(f, "the PC is not an instruction"),
            Fault::SkipControl => write!(f, "branches and exits cannot be skipped"),
        }
    }
}

/// An instruction failed: names the kernel, PC, source line, CTA, warp and thread.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("kernel `{kernel}`: pc {pc:#x} (line {line}), CTA ({}, {}, {}), warp {warp}{}: {fault}",
    cta[0], cta[1], cta[2],
    thread.map(|t| format!(", thread ({}, {}, {})", t[0], t[1], t[2])).unwrap_or_default())]
pub struct ExecError {
    pub kernel: String,
    pub pc: u32,
    pub line: u32,
    pub cta: [u32; 3],
    pub warp: u32,
    pub thread: Option<[u32; 3]>,
    pub fault: Fault,
}

/// A whole-launch run failed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RunError {
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error("kernel `{kernel}`: instruction budget of {budget} warp instructions exceeded (CTA ({}, {}, {})); raise it with --max-instructions if the kernel is meant to run this long", cta[0], cta[1], cta[2])]
    Budget { kernel: String, budget: u64, cta: [u32; 3] },
    #[error("kernel `{kernel}`: {msg}")]
    Launch { kernel: String, msg: String },
}

/// Any error of the crate's front door (load a file, find a kernel, run it).
#[derive(Debug, Error)]
pub enum KernelError {
    #[error("{path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Compile(#[from] CompileError),
    #[error(transparent)]
    Alloc(#[from] AllocError),
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{file}: no kernel `{name}` (kernels: {available})")]
    NoKernel { file: String, name: String, available: String },
    #[error("{file}: kernel name `{name}` is ambiguous: {matches}")]
    Ambiguous { file: String, name: String, matches: String },
}
