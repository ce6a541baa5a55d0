//! Compare two VCD files signal by signal: every variable whose full dotted
//! path appears in both files must have the same value at every time either
//! file records. Values are compared as bit strings with leading zeros
//! dropped (VCD allows either form); `x` and `z` are kept, so an unknown in
//! one file against a known value in the other is a difference.

use std::collections::{BTreeMap, HashMap};
use std::io::BufReader;
use std::path::Path;
use vcd::Command;

/// The first point where two traces disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub time: u64,
    pub path: String,
    pub a: String,
    pub b: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("--from {from} is past the end of both traces ({a} ends at {a_end}, {b} at {b_end})")]
    PastEnd { from: u64, a: String, a_end: u64, b: String, b_end: u64 },
    #[error("{a} and {b} have no signal paths in common")]
    NothingInCommon { a: String, b: String },
}

/// Changes of every variable of one file, by path.
struct Trace {
    changes: HashMap<String, Vec<(u64, String)>>,
    /// The last timestamp in the file.
    end: u64,
}

fn normalize(bits: &str) -> String {
    let t = bits.trim_start_matches('0');
    if t.is_empty() {
        "0".into()
    } else {
        t.to_ascii_lowercase()
    }
}

type Parser = vcd::Parser<BufReader<std::fs::File>>;

fn read_err(path: &Path) -> impl Fn(String) -> DiffError + '_ {
    move |message| DiffError::Read { path: path.display().to_string(), message }
}

/// Open a VCD file and read its header: the parser, now at the first value
/// change, and the full dotted paths of each identifier code. The scopes
/// are walked with a path stack, not by recursion, so no nesting depth
/// overflows the call stack.
fn open(path: &Path) -> Result<(Parser, HashMap<String, Vec<String>>), DiffError> {
    let err = read_err(path);
    let f = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
    let mut p = vcd::Parser::new(BufReader::new(f));
    let mut codes: HashMap<String, Vec<String>> = HashMap::new();
    let mut scope: Vec<String> = Vec::new();
    let dotted = |scope: &[String], name: &str| if scope.is_empty() { name.to_string() } else { format!("{}.{name}", scope.join(".")) };
    loop {
        match p.next() {
            None => return Err(err("end of file before `$enddefinitions`".into())),
            Some(Err(e)) => return Err(err(e.to_string())),
            Some(Ok(Command::ScopeDef(_, name))) => scope.push(name),
            Some(Ok(Command::Upscope)) => {
                if scope.pop().is_none() {
                    return Err(err("`$upscope` outside any scope".into()));
                }
            }
            Some(Ok(Command::VarDef(_, _, code, reference, _))) => codes.entry(code.to_string()).or_default().push(dotted(&scope, &reference)),
            Some(Ok(Command::Enddefinitions)) => break,
            Some(Ok(_)) => {}
        }
    }
    Ok((p, codes))
}

/// Every signal path a VCD file declares (`TOP.inst.name`), sorted.
pub fn signal_paths(path: &Path) -> Result<Vec<String>, DiffError> {
    let (_, codes) = open(path)?;
    let mut all: Vec<String> = codes.into_values().flatten().collect();
    all.sort();
    Ok(all)
}

fn read(path: &Path) -> Result<Trace, DiffError> {
    let err = read_err(path);
    let (p, codes) = open(path)?;
    let mut changes: HashMap<String, Vec<(u64, String)>> = HashMap::new();
    let mut time = 0u64;
    for cmd in p {
        let cmd = cmd.map_err(|e| err(e.to_string()))?;
        let (code, value) = match cmd {
            Command::Timestamp(t) => {
                time = time.max(t);
                continue;
            }
            Command::ChangeScalar(c, v) => (c, v.to_string()),
            Command::ChangeVector(c, v) => (c, v.to_string()),
            _ => continue,
        };
        if let Some(paths) = codes.get(&code.to_string()) {
            let v = normalize(&value);
            for path in paths {
                let list = changes.entry(path.clone()).or_default();
                match list.last_mut() {
                    Some(last) if last.0 == time => last.1 = v.clone(),
                    _ => list.push((time, v.clone())),
                }
            }
        }
    }
    Ok(Trace { changes, end: time })
}

/// First difference between the common signals of two VCD files (restricted
/// to paths starting with `prefix` when given, and to times from `from`),
/// or `None` if they agree.
pub fn diff_files(a: &Path, b: &Path, prefix: Option<&str>, from: u64) -> Result<Option<Difference>, DiffError> {
    let (ta, tb) = (read(a)?, read(b)?);
    if from > ta.end && from > tb.end {
        return Err(DiffError::PastEnd { from, a: a.display().to_string(), a_end: ta.end, b: b.display().to_string(), b_end: tb.end });
    }
    let mut common: Vec<&String> =
        ta.changes.keys().filter(|k| tb.changes.contains_key(*k) && prefix.is_none_or(|p| k.starts_with(p))).collect();
    if common.is_empty() {
        return Err(DiffError::NothingInCommon { a: a.display().to_string(), b: b.display().to_string() });
    }
    common.sort();
    let mut first: Option<Difference> = None;
    for path in common {
        let (ca, cb) = (&ta.changes[path], &tb.changes[path]);
        let mut times: BTreeMap<u64, ()> = BTreeMap::new();
        for (t, _) in ca.iter().chain(cb.iter()) {
            times.insert(*t, ());
        }
        let value_at = |list: &[(u64, String)], t: u64| -> String {
            match list.partition_point(|(ct, _)| *ct <= t) {
                0 => "x".to_string(),
                i => list[i - 1].1.clone(),
            }
        };
        times.insert(from, ());
        for &t in times.range(from..).map(|(t, _)| t) {
            if first.as_ref().is_some_and(|f| f.time <= t) {
                break;
            }
            let (va, vb) = (value_at(ca, t), value_at(cb, t));
            if va != vb {
                first = Some(Difference { time: t, path: path.clone(), a: va, b: vb });
                break;
            }
        }
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VcdWriter;

    fn write(path: &Path, scope: &str, values: &[u64]) {
        let f = std::fs::File::create(path).unwrap();
        let mut w = VcdWriter::new(std::io::BufWriter::new(f), "").unwrap();
        w.scope("TOP").unwrap();
        w.scope(scope).unwrap();
        let v = w.var("count", 8).unwrap();
        w.end_header().unwrap();
        for (t, x) in values.iter().enumerate() {
            w.time(t as u64 * 10).unwrap();
            w.change(v, &[*x]).unwrap();
        }
        w.flush().unwrap();
    }

    #[test]
    fn finds_first_difference() {
        let dir = std::env::temp_dir().join(format!("wf-diff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b, c) = (dir.join("a.vcd"), dir.join("b.vcd"), dir.join("c.vcd"));
        write(&a, "m", &[0, 1, 2, 3]);
        write(&b, "m", &[0, 1, 5, 3]);
        write(&c, "other", &[0]);
        assert_eq!(diff_files(&a, &a, None, 0).unwrap(), None);
        assert_eq!(diff_files(&a, &b, None, 30).unwrap(), None);
        let d = diff_files(&a, &b, None, 0).unwrap().unwrap();
        assert_eq!((d.time, d.path.as_str(), d.a.as_str(), d.b.as_str()), (20, "TOP.m.count", "10", "101"));
        assert!(matches!(diff_files(&a, &c, None, 0), Err(DiffError::NothingInCommon { .. })));
        assert_eq!(diff_files(&a, &b, None, 30).unwrap(), None);
        let e = diff_files(&a, &b, None, 31).unwrap_err().to_string();
        assert!(e.starts_with("--from 31 is past the end of both traces") && e.contains("ends at 30"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
