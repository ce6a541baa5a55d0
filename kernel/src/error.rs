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
    #[error("{file}: cannot run `{tool}`: {err} (`make setup` installs clang-14 and nvcc)")]
    Spawn { file: String, tool: String, err: std::io::Error },
    #[error("{file}: nvcc not found: run `make setup` (installs NVIDIA's CUDA 13.5 compiler from the Python package index into .tools/cuda), or set CUDA_HOME or WARPFORGE_NVCC")]
    NoNvcc { file: String },
    /// The compiler's first error line (it names the file and line) and how many errors it reported.
    #[error("{first}{}", if *.errors > 1 { format!(" (and {} more errors)", .errors - 1) } else { String::new() })]
    Failed { first: String, errors: usize, stderr: String },
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
}

/// Register allocation failed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum AllocError {
    #[error(
        "{file}: kernel `{kernel}` needs {needed} 32-bit registers per thread even with spilling; the register file has {max}"
    )]
    TooManyRegs { file: String, kernel: String, needed: u32, max: u32 },
    #[error("{file}: kernel `{kernel}` needs {needed} predicate registers per thread even with spilling; there are {max}")]
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
    /// `bar.sync a, b` with a register operand out of range.
    BadBarrier { id: u64, threads: Option<u64> },
    /// `tex` with a handle that names no texture of the launch.
    NoTexture { handle: u64 },
    /// A recursive call deeper than the thread's stack holds.
    CallStackOverflow { depth: u32, frame: u32 },
    /// A decoupled kernel's streams disagree (a `deq` without its `enq`):
    /// the decoupling pass is wrong, never the program.
    Dac(String),
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
            Fault::CallStackOverflow { depth, frame } => {
                write!(f, "call stack overflow: {depth} nested calls of {frame}-byte frames fill the thread's stack ({} bytes)", crate::kernel::STACK_BYTES)
            }
            Fault::Dac(m) => write!(f, "DAC: {m}"),
            Fault::NoTexture { handle } => write!(f, "tex: handle {handle:#x} names no texture of the launch ([textures.NAME], passed as {{ texture = \"NAME\" }})"),
            Fault::BadBarrier { id, threads } => match threads {
                Some(t) => write!(f, "bar {id}, {t}: the barrier must be 0 to 15 and the count a positive multiple of 32"),
                None => write!(f, "bar {id}: the barrier must be 0 to 15"),
            },
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
    #[error("kernel `{kernel}` can never finish: in CTA ({}, {}, {}) every live warp is stuck ({detail}): nothing left to run can change memory", cta[0], cta[1], cta[2])]
    NoProgress { kernel: String, cta: [u32; 3], detail: String },
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
    #[error("{file}: no .entry kernel in the file")]
    NoEntry { file: String },
    /// A compiler pass produced code the front end rejects (a bug in the pass).
    #[error("{file}: internal: the {pass} pass produced PTX that does not load: {msg}")]
    Pass { file: String, pass: &'static str, msg: String },
    #[error("{file} holds several kernels ({available}): choose one with --kernel")]
    Several { file: String, available: String },
    #[error("{file}: no kernel `{name}` (kernels: {available})")]
    NoKernel { file: String, name: String, available: String },
    #[error("{file}: kernel name `{name}` is ambiguous: {matches}")]
    Ambiguous { file: String, name: String, matches: String },
}

/// Longest quoted token an error message repeats whole.
const CLIP_CHARS: usize = 40;

/// `msg` with every quoted token (between backticks or double quotes)
/// longer than 40 characters cut short and its length said, so an error
/// about a 1 MB token stays one readable line.
pub fn clip(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(256));
    let mut rest = msg;
    while let Some(i) = rest.find(['`', '"']) {
        let q = rest.as_bytes()[i] as char;
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        let Some(j) = rest.find(q) else { break };
        let token = &rest[..j];
        match token.char_indices().nth(CLIP_CHARS) {
            Some((cut, _)) => out.push_str(&format!("{}… ({} bytes)", &token[..cut], token.len())),
            None => out.push_str(token),
        }
        out.push(q);
        rest = &rest[j + 1..];
    }
    out.push_str(rest);
    out
}

/// A serde/TOML type error in the words of the file's author: Rust type
/// names (`u32`, `struct InitSpec`, `i128`) become what the key takes.
pub fn plain_types(msg: &str) -> String {
    let mut m = msg.replace(" as i128", "").replace(" as u128", "");
    let kinds = [
        ("invalid type: floating point ", "found the number "),
        ("invalid type: integer ", "found the integer "),
        ("invalid type: string ", "found the string "),
        ("invalid type: boolean ", "found "),
        ("invalid type: sequence", "found an array"),
        ("invalid type: map", "found a table"),
        ("invalid value: integer ", "the integer "),
        ("invalid value: floating point ", "the number "),
    ];
    for (from, to) in kinds {
        m = m.replace(from, to);
    }
    let wants = [
        ("u8", "a non-negative integer up to 255"),
        ("u16", "a non-negative integer up to 65535"),
        ("u32", "a non-negative integer up to 4294967295"),
        ("u64", "a non-negative integer"),
        ("usize", "a non-negative integer"),
        ("i8", "an integer in -128..=127"),
        ("i16", "an integer in -32768..=32767"),
        ("i32", "an integer in -2147483648..=2147483647"),
        ("i64", "an integer"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("a sequence", "an array"),
        ("a map", "a table"),
    ];
    for (from, to) in wants {
        if let Some(head) = m.strip_suffix(&format!("expected {from}")) {
            m = format!("{head}expected {to}");
        }
    }
    if let Some(i) = m.find("expected struct ") {
        m = format!("{}expected a table", &m[..i]);
    }
    clip(&m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tokens_are_clipped() {
        let long = "x".repeat(1 << 20);
        let m = clip(&format!("unknown opcode `{long}` here"));
        assert_eq!(m, format!("unknown opcode `{}… (1048576 bytes)` here", "x".repeat(40)));
        assert_eq!(clip("a `short` and \"q\" and `unclosed"), "a `short` and \"q\" and `unclosed");
    }

    #[test]
    fn no_rust_type_names() {
        assert_eq!(plain_types("invalid type: integer `5`, expected struct InitSpec"), "found the integer `5`, expected a table");
        assert_eq!(plain_types("invalid type: floating point `1.5`, expected u32"), "found the number `1.5`, expected a non-negative integer up to 4294967295");
        assert_eq!(plain_types("invalid value: integer `-3` as i128, expected u32"), "the integer `-3`, expected a non-negative integer up to 4294967295");
        assert_eq!(plain_types("invalid type: string \"x\", expected a sequence"), "found the string \"x\", expected an array");
    }
}
