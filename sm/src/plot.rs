//! SVG stacked-bar chart of the scheduler-cycle breakdown across runs, in the
//! style of seed 000's Figures 3 and 13: one bar per run, grouped by kernel,
//! each bar's height the run's scheduler-cycles normalized to the first run
//! of its kernel (so a faster configuration draws a shorter bar).

use crate::stats::{Stall, Stats};
use plotters::prelude::*;
use std::path::Path;

/// Colours per category, Figure 3's order.
const COLOURS: [RGBColor; 9] = [
    RGBColor(0x4c, 0x9a, 0x2a), // issued
    RGBColor(0xc0, 0x39, 0x2b), // long RAW
    RGBColor(0xe6, 0x7e, 0x22), // short RAW
    RGBColor(0x29, 0x80, 0xb9), // LSU full
    RGBColor(0x8e, 0x44, 0xad), // SP/SFU full
    RGBColor(0x95, 0xa5, 0xa6), // ibuffer empty
    RGBColor(0xf1, 0xc4, 0x0f), // barrier
    RGBColor(0x16, 0xa0, 0x85), // DAC dequeue
    RGBColor(0x34, 0x49, 0x5e), // no instruction left
];

/// The label under a run's bar: its mode (and policy, engine or config when
/// runs of one kernel differ in those).
fn bar_label(s: &Stats, runs: &[&Stats]) -> String {
    let mut parts = vec![s.mode.clone()];
    if runs.iter().any(|r| r.variant != s.variant) && !s.variant.is_empty() {
        parts.push(s.variant.clone());
    }
    if runs.iter().any(|r| r.policy != s.policy) {
        parts.push(s.policy.clone());
    }
    if runs.iter().any(|r| r.config != s.config) {
        parts.push(s.config.clone());
    }
    if runs.iter().any(|r| r.engine != s.engine) {
        parts.push(s.engine.clone());
    }
    parts.join("/")
}

/// Draw the chart of `runs` into `path` (SVG).
pub fn breakdown_svg(runs: &[Stats], path: &Path, title: &str) -> Result<(), String> {
    if runs.is_empty() {
        return Err("no runs to plot".into());
    }
    // Group by kernel, keeping first-appearance order.
    let mut kernels: Vec<&str> = Vec::new();
    for r in runs {
        if !kernels.contains(&r.kernel.as_str()) {
            kernels.push(&r.kernel);
        }
    }
    let mut bars: Vec<(String, String, [f64; 9])> = Vec::new();
    for k in &kernels {
        let group: Vec<&Stats> = runs.iter().filter(|r| r.kernel == *k).collect();
        let base = group[0].scheduler_cycles.max(1) as f64;
        for s in &group {
            let mut v = [0.0; 9];
            for c in Stall::ALL {
                v[c as usize] = s.breakdown.get(c) as f64 / base;
            }
            bars.push((k.to_string(), bar_label(s, &group), v));
        }
    }
    let ymax = bars.iter().map(|b| b.2.iter().sum::<f64>()).fold(1.0f64, f64::max) * 1.05;
    let n = bars.len() as u32;
    let width = (160 + 36 * n).max(640);
    let err = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let root = SVGBackend::new(path, (width, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(110)
        .y_label_area_size(60)
        .right_y_label_area_size(10)
        .build_cartesian_2d(0u32..n, 0f64..ymax)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n as usize)
        .x_label_formatter(&|i: &u32| bars.get(*i as usize).map(|b| format!("{} {}", b.0, b.1)).unwrap_or_default())
        .x_label_style(("sans-serif", 11).into_font().transform(FontTransform::Rotate90))
        .y_desc("scheduler-cycles (normalized to the kernel's first run)")
        .draw()
        .map_err(|e| err(&e))?;
    for c in Stall::ALL {
        let colour = COLOURS[c as usize];
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let below: f64 = b.2[..c as usize].iter().sum();
                let i = i as u32;
                Rectangle::new([(i, below), (i + 1, below + b.2[c as usize])], colour.filled())
            }))
            .map_err(|e| err(&e))?
            .label(c.label())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_category_and_bar() {
        let mut a = Stats { kernel: "sgemm".into(), mode: "baseline".into(), scheduler_cycles: 100, ..Stats::default() };
        a.breakdown.0 = [40, 30, 10, 5, 5, 5, 5, 0, 0];
        let mut b = Stats { kernel: "sgemm".into(), mode: "pmode".into(), scheduler_cycles: 80, ..Stats::default() };
        b.breakdown.0 = [40, 10, 10, 5, 5, 5, 5, 0, 0];
        let dir = std::env::temp_dir().join(format!("wf-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("b.svg");
        breakdown_svg(&[a, b], &p, "test").unwrap();
        let svg = std::fs::read_to_string(&p).unwrap();
        for c in Stall::ALL {
            assert!(svg.contains(c.label()), "legend lacks {}", c.label());
        }
        assert!(svg.contains("sgemm baseline") && svg.contains("sgemm pmode"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
