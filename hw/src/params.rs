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
    pub doc: &'static str,
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

/// A block's typed parameter struct. `Default` gives the paper's values.
pub trait BlockParams: Sized + Clone + fmt::Debug + Default {
    /// Every parameter with its default, range and meaning.
    const SPECS: &'static [ParamSpec];
    /// Build from a resolved set, checking cross-parameter constraints.
    fn from_params(p: &Params) -> Result<Self, ParamError>;
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
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "" },
        ParamSpec { name: "regs", default: 63, min: 1, max: 255, doc: "" },
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
