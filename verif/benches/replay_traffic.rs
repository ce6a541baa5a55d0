//! `make bench`: the MSHR tracker comparison of the replay unit (Turner, MASc thesis,
//! UBC 2012, sections 6.0.1 and 7.2), run on the netlist simulation of the generated
//! `replay_unit` hardware at the thesis's sizes (64 warps, 8 slots, 32 MSHRs): plain
//! replay, then the naive and the credit tracker with each MSHR-use predictor, with no
//! signalling delay and with 4 cycles of it. Per configuration: load issues (replays
//! included), MSHR hazards (replays caused by a rejected MSHR request; in brackets those
//! that met a full table), idle-MSHR cycles (a free MSHR while hazard avoidance held a
//! load back), refused picks, hit rate and mean MSHRs in use.
//!
//! Usage: cargo bench -p verif --bench replay_traffic [-- CYCLES]   (default 20000)

use std::time::Instant;
use verif::replay::traffic::print_netlist_table;

fn main() {
    let cycles: u64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(20_000);
    let t = Instant::now();
    if let Err(e) = print_netlist_table(cycles) {
        eprintln!("replay_traffic: {e}");
        std::process::exit(1);
    }
    println!("({:.1} s)", t.elapsed().as_secs_f64());
}
