//! Block parameters: declared once per block with the paper's defaults and
//! legal ranges, resolved from `name=value` strings given on the command line,
//! and turned into the block's typed parameter struct.

use std::fmt;

/// One parameter of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    /// The paper's value.
    pub default: u64,
    pub min: u64,
    pub max: u64,
    /// What the parameter is (and any rule beyond its range).
    pub doc: &'static str,
    /// Where the default comes from (paper table or section, or why it was
    /// chosen where the paper gives none).
    pub source: &'static str,
}

impl ParamSpec {
    /// The same spec under another name (a unit's `atq_entries` is the ATQ's
    /// `entries`).
    pub const fn renamed(self, name: &'static str) -> ParamSpec {
        ParamSpec { name, ..self }
    }
}

/// Errors in block parameters (always user input: never a panic).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("block `{block}` has no parameter `{name}` (parameters: {known})")]
    Unknown { block: String, name: String, known: String },
    #[error("parameter `{name}` of block `{block}`: `{value}` is not a non-negative integer")]
    NotANumber { block: String, name: String, value: String },
    #[error("parameter `{name}` of block `{block}` = {value} is out of range {min}..={max}")]
    OutOfRange { block: String, name: String, value: u64, min: u64, max: u64 },
    #[error("parameter `{0}` was given twice")]
    Duplicate(String),
    #[error("`{0}` is not of the form name=value")]
    Syntax(String),
    #[error("block `{block}`: {message}")]
    Invalid { block: String, message: String },
}

/// A complete, range-checked parameter set for one block (defaults filled in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    block: String,
    values: Vec<(&'static str, u64)>,
}

impl Params {
    /// Resolve `name=value` overrides against the block's specs.
    pub fn resolve(block: &str, specs: &[ParamSpec], overrides: &[(String, String)]) -> Result<Params, ParamError> {
        let mut values: Vec<(&'static str, u64)> = specs.iter().map(|s| (s.name, s.default)).collect();
        let mut seen: Vec<&str> = Vec::new();
        for (name, text) in overrides {
            let Some(idx) = specs.iter().position(|s| s.name == name) else {
                return Err(ParamError::Unknown {
                    block: block.to_string(),
                    name: name.clone(),
                    known: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
                });
            };
            if seen.contains(&name.as_str()) {
                return Err(ParamError::Duplicate(name.clone()));
            }
            seen.push(name);
            let value = parse_u64(text.trim()).ok_or_else(|| ParamError::NotANumber {
                block: block.to_string(),
                name: name.clone(),
                value: text.clone(),
            })?;
            let s = &specs[idx];
            if value < s.min || value > s.max {
                return Err(ParamError::OutOfRange {
                    block: block.to_string(),
                    name: name.clone(),
                    value,
                    min: s.min,
                    max: s.max,
                });
            }
            values[idx].1 = value;
        }
        Ok(Params { block: block.to_string(), values })
    }

    /// Every parameter at its default.
    pub fn defaults(block: &str, specs: &[ParamSpec]) -> Params {
        Params { block: block.to_string(), values: specs.iter().map(|s| (s.name, s.default)).collect() }
    }

    /// Parse `name=value` strings (as given to `--param`).
    pub fn parse_assignments(items: &[String]) -> Result<Vec<(String, String)>, ParamError> {
        items
            .iter()
            .map(|s| {
                let (k, v) = s.split_once('=').ok_or_else(|| ParamError::Syntax(s.clone()))?;
                if k.trim().is_empty() {
                    return Err(ParamError::Syntax(s.clone()));
                }
                Ok((k.trim().to_string(), v.trim().to_string()))
            })
            .collect()
    }

    pub fn block(&self) -> &str {
        &self.block
    }

    /// Value of a declared parameter. Asking for an undeclared name is a bug
    /// in the block's own code, not user input.
    pub fn get(&self, name: &str) -> u64 {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("internal: block `{}` reads undeclared parameter `{name}`", self.block))
    }

    /// `get` narrowed to `u32` (specs bound every parameter well below 2^32).
    pub fn get_u32(&self, name: &str) -> u32 {
        u32::try_from(self.get(name)).unwrap_or(u32::MAX)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.values.iter().copied()
    }

    /// Error for a cross-parameter constraint the block checks itself.
    pub fn invalid(&self, message: impl Into<String>) -> ParamError {
        ParamError::Invalid { block: self.block.clone(), message: message.into() }
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
        f.write_str(&parts.join(" "))
    }
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.replace('_', "");
    if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// A block's typed parameter struct, declared with [`crate::block_params!`]:
/// `Default` gives the paper's values.
pub trait BlockParams: Sized + Clone + fmt::Debug + Default {
    /// Every parameter with its default, range, meaning and source.
    const SPECS: &'static [ParamSpec];
    /// Build from a resolved set, checking cross-parameter constraints.
    fn from_params(p: &Params) -> Result<Self, ParamError>;
    /// The values in `SPECS` order.
    fn values(&self) -> Vec<u64>;

    /// This parameter set as a `Params` of block `block`.
    fn to_params(&self, block: &str) -> Params {
        Params { block: block.to_string(), values: Self::SPECS.iter().map(|s| s.name).zip(self.values()).collect() }
    }

    /// Module name for this parameter set: `base` at the paper's defaults,
    /// otherwise with `_<param><value>` appended for every parameter that
    /// differs (`scoreboard_warps16`), so each parameter set is its own
    /// Verilog module. The one naming rule of every block and sub-module.
    fn module_name(&self, base: &str) -> String {
        let mut name = base.to_string();
        for (spec, v) in Self::SPECS.iter().zip(self.values()) {
            if v != spec.default {
                name.push_str(&format!("_{}{}", spec.name, v));
            }
        }
        name
    }
}

/// A parameter's Rust type: `u32` or a small enum numbered like its spec.
pub trait ParamValue: Sized {
    fn from_u64(v: u64) -> Option<Self>;
    fn to_u64(&self) -> u64;
}

impl ParamValue for u32 {
    fn from_u64(v: u64) -> Option<Self> {
        u32::try_from(v).ok()
    }
    fn to_u64(&self) -> u64 {
        *self as u64
    }
}

/// Are two names equal (usable in constants: the parameter macro checks that
/// a shared spec has its field's name).
pub const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Declare a block's parameter struct once: each field with its spec, either
/// inline or a
/// spec shared with the block's family (`= shared(PATH)`, the constant's
/// name must be the field's). Inline specs are written
/// `spec { default, min ..= max, "doc", "source" }`. Generates the struct, `Default` (the paper's
/// values), and [`BlockParams`] (`SPECS`, `from_params`, `values`); an
/// optional `check = expr;` gives a `fn(&Self) -> Result<(), String>` for
/// cross-parameter rules.
///
/// ```ignore
/// hw::block_params! {
///     /// Parameters of the dual-mode scoreboard.
///     pub struct ScoreboardParams {
///         warps: u32 = shared(super::WARPS),
///         srcs: u32 = spec { 2, 1..=8, "source operands per instruction", "P-queue entry: 2 sources" },
///     }
/// }
/// ```
#[macro_export]
macro_rules! block_params {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $kind:tt $spec:tt ),* $(,)?
        }
        $( check = $check:expr; )?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $crate::params::BlockParams for $name {
            const SPECS: &'static [$crate::params::ParamSpec] = &[ $( $crate::__param_spec!($field, $kind $spec) ),* ];

            fn from_params(p: &$crate::params::Params) -> Result<Self, $crate::params::ParamError> {
                let v = $name {
                    $( $field: <$ty as $crate::params::ParamValue>::from_u64(p.get(stringify!($field)))
                        .ok_or_else(|| p.invalid(format!("`{}` = {} is not a valid value", stringify!($field), p.get(stringify!($field)))))?, )*
                };
                $( ($check)(&v).map_err(|m: String| p.invalid(m))?; )?
                Ok(v)
            }

            fn values(&self) -> Vec<u64> {
                vec![ $( $crate::params::ParamValue::to_u64(&self.$field) ),* ]
            }
        }

        impl Default for $name {
            fn default() -> Self {
                let p = $crate::params::Params::defaults(stringify!($name), <Self as $crate::params::BlockParams>::SPECS);
                <Self as $crate::params::BlockParams>::from_params(&p).expect("the paper's defaults are valid")
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __param_spec {
    ($field:ident, shared ($spec:expr)) => {{
        const S: $crate::params::ParamSpec = $spec;
        const _: () = assert!($crate::params::same_name(S.name, stringify!($field)), "a shared spec must have its field's name");
        S
    }};
    ($field:ident, spec { $default:expr, $min:literal ..= $max:literal, $doc:expr, $source:expr $(,)? }) => {
        $crate::params::ParamSpec { name: stringify!($field), default: $default, min: $min, max: $max, doc: $doc, source: $source }
    };
}

/// `ceil(log2(n))`, at least 1: the width of an index into `n` things.
pub fn clog2(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "", source: "" },
        ParamSpec { name: "regs", default: 63, min: 1, max: 255, doc: "", source: "" },
    ];

    fn ov(items: &[&str]) -> Vec<(String, String)> {
        Params::parse_assignments(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn resolves_defaults_and_overrides() {
        let p = Params::resolve("sb", SPECS, &ov(&["regs=0x10"])).unwrap();
        assert_eq!(p.get("warps"), 48);
        assert_eq!(p.get("regs"), 16);
        assert_eq!(p.to_string(), "warps=48 regs=16");
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(Params::resolve("sb", SPECS, &ov(&["regs=0"])), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(Params::resolve("sb", SPECS, &ov(&["lanes=4"])), Err(ParamError::Unknown { .. })));
        assert!(matches!(Params::resolve("sb", SPECS, &ov(&["regs=x"])), Err(ParamError::NotANumber { .. })));
        assert!(matches!(Params::resolve("sb", SPECS, &ov(&["regs=1", "regs=2"])), Err(ParamError::Duplicate(_))));
        assert!(Params::parse_assignments(&["regs".to_string()]).is_err());
    }

    #[test]
    fn clog2_widths() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 48, 63, 64, 65].map(clog2), [1, 1, 2, 2, 3, 3, 4, 6, 6, 6, 7]);
    }
}
