//! `make bench`: the MSHR tracker comparison of the replay unit (Turner, MASc thesis,
//! UBC 2012, sections 6.0.1 and 7.2), run on the netlist simulation of the generated
//! `replay_unit` hardware at the thesis's sizes (64 warps, 8 slots, 32 MSHRs): plain
//! replay, then the naive and the credit tracker with each MSHR-use predictor, with no
//! signalling delay and with 4 cycles of it. Per configuration: load issues (replays
//! included), MSHR hazards (replays caused by a rejected MSHR request; in brackets those
//! that met a full table), idle-MSHR cycles (a free MSHR while hazard avoidance held a
//! load back), refused picks, hit rate and mean MSHRs in use.
//!
//! Usage: cargo bench -p verif --bench replay_traffic [-- CYCLES]

use hw::blocks::replay::replay_unit::ReplayUnitParams;
use std::time::Instant;
use verif::models::replay::traffic::{netlist_table, TrafficCfg};

fn main() {
    let cycles: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(20_000);
    let p = ReplayUnitParams::default();
    let cfg = TrafficCfg::default();
    println!(
        "replay unit tracker comparison: netlist simulation of the generated hardware, {} warps, {} slots, {} MSHRs, \
         {cycles} cycles per configuration; traffic: hit rate {}, loads {:.0}% of instructions, {} cycles issue to memory \
         stage, {} cycles memory latency, DIV rate {}",
        p.warps,
        p.slots,
        p.mshrs,
        cfg.hit_rate,
        cfg.load_frac * 100.0,
        cfg.pipe,
        cfg.mem_lat,
        cfg.div_rate
    );
    let t = Instant::now();
    match netlist_table(&p, cfg, cycles, &[0, 4]) {
        Ok(table) => {
            println!("{table}");
            println!("({:.1} s)", t.elapsed().as_secs_f64());
        }
        Err(e) => {
            eprintln!("replay_traffic: {e}");
            std::process::exit(1);
        }
    }
}
