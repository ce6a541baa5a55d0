//! Comparing runs of a sweep: per kernel, each run's speedup over the
//! kernel's baseline run and its long-latency RAW share of scheduler-cycles
//! (seed 000 Figures 12 and 13), from the CSV `warpforge sweep` writes.

use crate::stats::Stall;
use std::fmt::Write as _;

/// One row of a sweep CSV: its columns by name.
pub struct Row {
    cols: Vec<(String, String)>,
}

impl Row {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.cols.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
    fn num(&self, name: &str) -> Result<f64, String> {
        let v = self.get(name).ok_or_else(|| format!("no column `{name}`"))?;
        v.parse().map_err(|_| format!("column `{name}`: `{v}` is not a number"))
    }
}

/// Parse a sweep CSV (header line, then rows; a quoted last field may hold
/// commas).
pub fn parse_csv(text: &str, file: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().ok_or_else(|| format!("{file}: empty"))?.split(',').map(String::from).collect();
    let mut rows = Vec::new();
    for (i, l) in lines.enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let mut fields: Vec<String> = Vec::new();
        let mut rest = l;
        while !rest.is_empty() {
            if let Some(q) = rest.strip_prefix('"') {
                let end = q.find('"').ok_or_else(|| format!("{file}: line {}: unterminated quote", i + 2))?;
                fields.push(q[..end].to_string());
                rest = q[end + 1..].strip_prefix(',').unwrap_or("");
            } else {
                let (f, r) = rest.split_once(',').unwrap_or((rest, ""));
                fields.push(f.to_string());
                rest = r;
            }
        }
        if fields.len() < header.len() - 1 {
            return Err(format!("{file}: line {}: {} fields, the header has {}", i + 2, fields.len(), header.len()));
        }
        rows.push(Row { cols: header.iter().cloned().zip(fields).collect() });
    }
    Ok(rows)
}

/// The comparison table: per kernel, every run against the kernel's first
/// `baseline` run.
pub fn compare(rows: &[Row]) -> Result<String, String> {
    let cats: Vec<&str> = Stall::ALL.iter().map(|c| c.name()).collect();
    let mut kernels: Vec<&str> = Vec::new();
    for r in rows {
        let k = r.get("kernel").ok_or("no column `kernel`")?;
        if !kernels.contains(&k) {
            kernels.push(k);
        }
    }
    let share = |r: &Row, c: &str| -> Result<f64, String> {
        let total: f64 = cats.iter().map(|c| r.num(c)).sum::<Result<f64, String>>()?;
        Ok(if total == 0.0 { 0.0 } else { 100.0 * r.num(c)? / total })
    };
    if !rows.iter().any(|r| r.get("mode") == Some("baseline")) {
        return Err("no baseline run to compare with (a sweep with `--modes baseline,...` writes one per kernel)".into());
    }
    let mut s = String::new();
    let _ = writeln!(s, "{:<18} {:<40} {:>10} {:>8} {:>9} {:>9}", "kernel", "run", "cycles", "speedup", "long RAW", "issued");
    let mut logs: Vec<(String, f64)> = Vec::new();
    for k in kernels {
        let group: Vec<&Row> = rows.iter().filter(|r| r.get("kernel") == Some(k)).collect();
        let Some(base) = group.iter().find(|r| r.get("mode") == Some("baseline")) else { continue };
        let bc = base.num("cycles")?;
        for r in &group {
            let label = format!("{} {} {}", r.get("mode").unwrap_or(""), r.get("policy").unwrap_or(""), r.get("overrides").unwrap_or("")).trim().to_string();
            let sp = bc / r.num("cycles")?;
            let _ = writeln!(
                s,
                "{:<18} {:<40} {:>10} {:>8.3} {:>8.1}% {:>8.1}%",
                k,
                label,
                r.num("cycles")? as u64,
                sp,
                share(r, "long_raw")?,
                share(r, "issued")?
            );
            if !std::ptr::eq(*r, *base) {
                logs.push((label, sp.ln()));
            }
        }
    }
    let mut labels: Vec<&str> = logs.iter().map(|(l, _)| l.as_str()).collect();
    labels.sort();
    labels.dedup();
    for l in labels {
        let v: Vec<f64> = logs.iter().filter(|(x, _)| x == l).map(|(_, y)| *y).collect();
        let _ = writeln!(s, "geometric-mean speedup of `{l}` over baseline: {:.3} ({} kernels)", (v.iter().sum::<f64>() / v.len() as f64).exp(), v.len());
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Stats;

    #[test]
    fn speedups_against_the_baseline() {
        let mut b = Stats { kernel: "k".into(), mode: "baseline".into(), policy: "gto".into(), cycles: 200, ..Stats::default() };
        b.breakdown.0 = [100, 200, 0, 0, 0, 100, 0, 0, 0];
        let mut p = b.clone();
        p.mode = "pmode".into();
        p.cycles = 100;
        p.breakdown.0 = [100, 50, 0, 0, 0, 50, 0, 0, 0];
        let header = format!("point,{},overrides", Stats::csv_header());
        let csv = format!("{header}\n0,{},\"\"\n1,{},\"mode=pmode\"\n", b.csv_row(), p.csv_row());
        let rows = parse_csv(&csv, "t.csv").unwrap();
        let t = compare(&rows).unwrap();
        assert!(t.contains("2.000") && t.contains("50.0%") && t.contains("25.0%"), "{t}");
        assert!(t.contains("geometric-mean speedup"), "{t}");
    }
}
