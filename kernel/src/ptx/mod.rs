//! The PTX front end: lexer, parser (to [`crate::inst::Inst`] with virtual
//! registers) and the C++ base-name demangler.

pub mod lex;
pub mod parse;

pub use parse::{parse, parse_after, ParsedFunc, ParsedModule, VRegInfo, VarDecl};

/// The base name of an Itanium-mangled C++ function name: `_Z6vecaddPKfS0_Pfi`
/// gives `vecadd`, `_ZN2ns3fooEv` gives `foo`. Names that are not mangled
/// come back unchanged.
pub fn base_name(name: &str) -> String {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name.to_string();
    };
    let b = rest.as_bytes();
    let read = |i: &mut usize| -> Option<String> {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        let len: usize = rest.get(start..*i)?.parse().ok()?;
        let s = rest.get(*i..*i + len)?.to_string();
        *i += len;
        Some(s)
    };
    let mut i = 0;
    if b.first() == Some(&b'N') {
        i = 1;
        // Skip CV-qualifiers of member functions.
        while i < b.len() && matches!(b[i], b'K' | b'V' | b'r') {
            i += 1;
        }
        let mut last = None;
        while i < b.len() && b[i].is_ascii_digit() {
            match read(&mut i) {
                Some(s) => last = Some(s),
                None => return name.to_string(),
            }
        }
        return last.unwrap_or_else(|| name.to_string());
    }
    read(&mut i).unwrap_or_else(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::base_name;

    #[test]
    fn demangle_base_names() {
        assert_eq!(base_name("_Z6vecaddPKfS0_Pfi"), "vecadd");
        assert_eq!(base_name("_Z14dynproc_kerneliPiS_S_iiii"), "dynproc_kernel");
        assert_eq!(base_name("_ZN2ns6kernelEPf"), "kernel");
        assert_eq!(base_name("plain"), "plain");
        assert_eq!(base_name("_Z"), "_Z");
        assert_eq!(base_name("_Z99x"), "_Z99x");
    }
}
