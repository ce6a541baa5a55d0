//! Choosing an engine: one vocabulary for every command and for the SM
//! (`model`/`reference`, `rtl`, `netlist`, `compiled`), and one constructor
//! that turns a block's module into a running RTL engine.

use crate::compiled::{CompileOptions, CompiledSim};
use crate::component::Component;
use crate::inspect::Inspect;
use crate::netlist::NetlistSim;
use hw::ir::Module;
use std::fmt;
use std::sync::Arc;

/// How a block is simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The block's plain-Rust reference model (`model`, alias `reference`).
    Model,
    /// The block's netlist on the fastest exact RTL engine available: the
    /// compiled engine when a C compiler is there, else the interpreter.
    Rtl,
    /// The netlist interpreter.
    Netlist,
    /// The netlist compiled to native code.
    Compiled,
}

impl Engine {
    /// Every accepted name, canonical ones first.
    pub const NAMES: [(&'static str, Engine); 5] = [
        ("reference", Engine::Model),
        ("rtl", Engine::Rtl),
        ("netlist", Engine::Netlist),
        ("compiled", Engine::Compiled),
        ("model", Engine::Model),
    ];

    /// The canonical name.
    pub fn name(self) -> &'static str {
        Engine::NAMES.iter().find(|(_, e)| *e == self).map(|(n, _)| *n).unwrap_or("?")
    }

    /// An RTL engine (one that runs the block's netlist)?
    pub fn is_rtl(self) -> bool {
        self != Engine::Model
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = EngineError;
    fn from_str(s: &str) -> Result<Engine, EngineError> {
        Engine::NAMES.iter().find(|(n, _)| *n == s).map(|(_, e)| *e).ok_or_else(|| EngineError::Unknown { name: s.to_string() })
    }
}

/// Which named signals an RTL engine keeps readable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Visibility {
    /// Every named signal and memory of the hierarchy, for waves and
    /// `peek_path` (the interpreter always keeps them).
    #[default]
    Full,
    /// Ports, registers and memories; internal wires that no output or state
    /// needs are not computed (fastest; what `make bench` measures).
    Ports,
}

/// How to build an RTL engine.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pub visibility: Visibility,
    /// Compiled-engine details (C compiler flags, function size, ...).
    pub compile: CompileOptions,
}

/// A running RTL engine: a [`Component`] whose signals can be read.
pub trait RtlSim: Component + Inspect + Send {
    /// Which engine this is (`Netlist` or `Compiled`).
    fn engine(&self) -> Engine;
    /// How the compiled engine got its code (build time, cache hit).
    fn build_info(&self) -> Option<&crate::compiled::BuildInfo> {
        None
    }
    /// Clock edges since construction.
    fn cycle(&self) -> u64;
}

impl RtlSim for NetlistSim {
    fn engine(&self) -> Engine {
        Engine::Netlist
    }
    fn cycle(&self) -> u64 {
        NetlistSim::cycle(self)
    }
}

/// Errors building an engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("unknown engine `{name}` (engines: reference (alias model), rtl, netlist, compiled)")]
    Unknown { name: String },
    #[error("the {engine} engine does not run a netlist: build the block's reference model from the block registry")]
    NotRtl { engine: Engine },
    #[error("the compiled engine needs a C compiler: `{cc}` could not be run ({reason}); install gcc (apt-get install -y gcc), set CC, or use --engine netlist")]
    NoCompiler { cc: String, reason: String },
    #[error("`{cc}` failed to compile the model of `{top}` (log: {log}):\n{tail}")]
    Compile { cc: String, top: String, log: String, tail: String },
    #[error("cannot load the compiled model {path}: {reason}")]
    Load { path: String, reason: String },
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Is the compiled engine usable here (a working C compiler)?
pub fn compiled_available() -> bool {
    crate::compiled::compiler_identity().is_ok()
}

/// The engine `Rtl` stands for on this machine.
pub fn resolve_rtl(engine: Engine) -> Engine {
    match engine {
        Engine::Rtl if compiled_available() => Engine::Compiled,
        Engine::Rtl => Engine::Netlist,
        e => e,
    }
}

/// Build an RTL engine for `top`: the interpreter, the compiled engine, or
/// (`Rtl`) the fastest one available. `Model` is an error: reference models
/// are built from the block registry, not from a netlist.
pub fn rtl_sim(top: &Arc<Module>, engine: Engine, opts: &EngineOptions) -> Result<Box<dyn RtlSim>, EngineError> {
    match resolve_rtl(engine) {
        Engine::Netlist => Ok(Box::new(NetlistSim::new(top))),
        Engine::Compiled => Ok(Box::new(CompiledSim::with_options(top, opts.visibility, &opts.compile)?)),
        e => Err(EngineError::NotRtl { engine: e }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names_round_trip() {
        for (name, e) in Engine::NAMES {
            assert_eq!(name.parse::<Engine>().unwrap(), e);
        }
        assert_eq!(Engine::Model.name(), "reference");
        assert!("fast".parse::<Engine>().is_err());
    }
}
