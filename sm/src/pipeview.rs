//! Pipeline view: a Kanata log (format version 0004) that the Konata
//! pipeline viewer opens. One record per warp instruction; its stages are
//! `F` (fetch + decode), `Is` (issue; the instruction waits in the
//! instruction buffer until then), `Rr` (operand read in a collector unit),
//! `Ex` (execute, or the memory stage and the memory system for loads and
//! stores) and `Wb` (writeback), in that order, then a retire.
//!
//! Kanata lines: `Kanata 0004` header, `C=` start cycle, `C n` advance,
//! `I id seq thread` new instruction, `L id 0 text` label, `S id 0 stage`
//! stage start (ends the previous stage), `E id 0 stage` stage end, `R id
//! retire_id 0|1` retire / flush. Fields are tab-separated.

use std::fmt::Write as _;
use std::io::{self, Write};

pub const STAGES: [&str; 5] = ["F", "Is", "Rr", "Ex", "Wb"];

pub struct Kanata<W: Write> {
    out: W,
    /// Cycle of the last line written.
    now: u64,
    started: bool,
    retired: u64,
    line: String,
}

impl<W: Write> Kanata<W> {
    pub fn new(out: W) -> Self {
        Kanata { out, now: 0, started: false, retired: 0, line: String::with_capacity(128) }
    }

    fn at(&mut self, cycle: u64) -> io::Result<()> {
        if !self.started {
            writeln!(self.out, "Kanata\t0004\nC=\t{cycle}")?;
            self.started = true;
            self.now = cycle;
        } else if cycle > self.now {
            writeln!(self.out, "C\t{}", cycle - self.now)?;
            self.now = cycle;
        }
        Ok(())
    }

    /// A new instruction (`id` unique in the log), with its label.
    pub fn start(&mut self, cycle: u64, id: u64, warp: u32, label: &str) -> io::Result<()> {
        self.at(cycle)?;
        self.line.clear();
        let _ = write!(self.line, "I\t{id}\t{id}\t{warp}\nL\t{id}\t0\t{label}\nS\t{id}\t0\t{}\n", STAGES[0]);
        self.out.write_all(self.line.as_bytes())
    }

    /// Enter a stage (the previous one ends).
    pub fn stage(&mut self, cycle: u64, id: u64, stage: &str) -> io::Result<()> {
        self.at(cycle)?;
        writeln!(self.out, "S\t{id}\t0\t{stage}")
    }

    /// Retire (`flush` = squashed: fetched but never issued).
    pub fn retire(&mut self, cycle: u64, id: u64, flush: bool) -> io::Result<()> {
        self.at(cycle)?;
        let rid = self.retired;
        self.retired += 1;
        writeln!(self.out, "R\t{id}\t{rid}\t{}", flush as u8)
    }

    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One instruction read back from a Kanata log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub id: u64,
    pub label: String,
    /// (stage, start cycle) in the order they were entered.
    pub stages: Vec<(String, u64)>,
    pub retired: Option<(u64, bool)>,
}

/// Parse a Kanata log (what Konata reads) back into records, checking the
/// syntax; used by tests and `warpforge` itself to validate its output.
pub fn parse(text: &str) -> Result<Vec<Record>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, "Kanata\t0004")) => {}
        other => return Err(format!("line 1: expected `Kanata\\t0004`, found {other:?}")),
    }
    let mut now: Option<u64> = None;
    let mut recs: Vec<Record> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (n, l) in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let num = |i: usize| -> Result<u64, String> {
            f.get(i).and_then(|s| s.parse().ok()).ok_or_else(|| format!("line {}: bad field {i} in `{l}`", n + 1))
        };
        match f[0] {
            "C=" => now = Some(num(1)?),
            "C" => *now.as_mut().ok_or(format!("line {}: C before C=", n + 1))? += num(1)?,
            "I" => {
                let id = num(1)?;
                if index.insert(id, recs.len()).is_some() {
                    return Err(format!("line {}: instruction {id} declared twice", n + 1));
                }
                recs.push(Record { id, label: String::new(), stages: vec![], retired: None });
            }
            "L" => {
                let i = find(&index, num(1)?, n)?;
                recs[i].label = f.get(3).unwrap_or(&"").to_string();
            }
            "S" => {
                let i = find(&index, num(1)?, n)?;
                let t = now.ok_or(format!("line {}: S before C=", n + 1))?;
                recs[i].stages.push((f.get(3).unwrap_or(&"").to_string(), t));
            }
            "E" => {
                find(&index, num(1)?, n)?;
            }
            "R" => {
                let i = find(&index, num(1)?, n)?;
                let t = now.ok_or(format!("line {}: R before C=", n + 1))?;
                recs[i].retired = Some((t, num(3)? == 1));
            }
            "W" => {}
            other => return Err(format!("line {}: unknown command `{other}`", n + 1)),
        }
    }
    Ok(recs)
}

fn find(index: &std::collections::HashMap<u64, usize>, id: u64, n: usize) -> Result<usize, String> {
    index.get(&id).copied().ok_or_else(|| format!("line {}: unknown instruction {id}", n + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut k = Kanata::new(Vec::new());
        k.start(10, 0, 3, "w3 0x0080 ld.global.f32").unwrap();
        k.start(10, 1, 3, "w3 0x0088 add.s32").unwrap();
        k.stage(12, 0, "Is").unwrap();
        k.retire(12, 1, true).unwrap();
        k.stage(13, 0, "Rr").unwrap();
        k.stage(15, 0, "Ex").unwrap();
        k.stage(455, 0, "Wb").unwrap();
        k.retire(456, 0, false).unwrap();
        let text = String::from_utf8(k.finish().unwrap()).unwrap();
        let r = parse(&text).unwrap();
        assert_eq!(r[0].label, "w3 0x0080 ld.global.f32");
        let names: Vec<&str> = r[0].stages.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, STAGES);
        assert_eq!(r[0].stages[4].1, 455);
        assert_eq!(r[0].retired, Some((456, false)));
        assert_eq!(r[1].retired, Some((12, true)));
        assert!(parse("Kanata\t0004\nX\t1").is_err());
    }
}
