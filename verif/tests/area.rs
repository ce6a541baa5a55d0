//! The hand-written area references (`verif/fixtures/area`) stay equal to the
//! emitted modules: yosys proves every fixture's step function equal to the
//! emitted module's, and a short random co-simulation (iverilog, driver
//! traffic interleaved with random inputs) agrees on every output. The
//! long co-simulations and the synthesis figures are in `make bench`.

use verif::area::{cosim_equal, prove_equal, stimulus, Reference, REFERENCES};
use verif::cosim::Simulator;

fn work(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("area").join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check(block: &str) {
    let r = REFERENCES.iter().find(|r| r.block == block).unwrap();
    let top = r.elaborate().unwrap();
    let dir = work(r.block);
    let proof = prove_equal(r, &top, &hw::verilog::emit(&top), &dir).unwrap();
    assert!(
        proof.holds(),
        "{} ({}): fixture {} differs from the emitted module: {} of {} $equiv cells proven, {} required; unproven: {:?} (log {})",
        r.block,
        r.params_text(),
        r.file,
        proof.proven,
        proof.cells,
        proof.required,
        proof.unproven,
        proof.log.display()
    );
    let stim = stimulus(r, &top, 2000, 7);
    let out = cosim_equal(r, &top, &stim, Simulator::Iverilog, false, &dir).unwrap();
    assert!(out.equal(), "{}: co-simulation of fixture {}: {:?}", r.block, r.file, out.hand);
}

macro_rules! equivalent {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            check(stringify!($name));
        }
    )*};
}
// One test per reference, so they run in parallel.
equivalent!(credit_tracker, warp_buffer, scoreboard, pqueue, mshr_table);

#[test]
fn every_reference_is_tested() {
    let tested = ["credit_tracker", "warp_buffer", "scoreboard", "pqueue", "mshr_table"];
    for r in REFERENCES {
        assert!(tested.contains(&r.block), "{} has no equivalence test", r.block);
    }
}

fn credit_tracker_ref() -> &'static Reference {
    REFERENCES.iter().find(|r| r.block == "credit_tracker").unwrap()
}

/// The proof is not vacuous: a different next state, a different output and
/// a different port list are each caught.
#[test]
fn the_proof_catches_a_difference() {
    let r = credit_tracker_ref();
    let top = r.elaborate().unwrap();
    let emitted = hw::verilog::emit(&top);
    let good = prove_equal(r, &top, &emitted, &work("mutant-none")).unwrap();
    assert!(good.holds(), "{good:?}");
    let mutate = |from: &str, to: &str| {
        let mut files = emitted.clone();
        let t = &mut files.last_mut().unwrap().text;
        assert!(t.contains(from), "emitted credit_tracker has no `{from}`");
        *t = t.replacen(from, to, 1);
        files
    };
    // Reset value of the state register.
    let files = mutate("7'd32", "7'd31");
    let p = prove_equal(r, &top, &files, &work("mutant-state")).unwrap();
    assert!(!p.holds() && p.unproven.iter().any(|u| u.contains("credits")), "{p:?}");
    // An output (the emitted expression is parenthesized, so this XORs all of it).
    let files = mutate("assign credit_avail = ", "assign credit_avail = credits[0] ^ ");
    let p = prove_equal(r, &top, &files, &work("mutant-output")).unwrap();
    assert!(!p.holds() && p.unproven.iter().any(|u| u.contains("credit_avail")), "{p:?}");
    // A port the fixture does not have.
    let files = mutate("output wire [6:0] pool", "output wire spare,\n    output wire [6:0] pool");
    let files = {
        let mut f = files;
        let t = &mut f.last_mut().unwrap().text;
        *t = t.replacen("assign pool = ", "assign spare = 1'b0;\n    assign pool = ", 1);
        f
    };
    assert!(prove_equal(r, &top, &files, &work("mutant-port")).is_err());
}

/// The co-simulation is not vacuous: a fixture whose pool counts one credit
/// too few after reset differs on `pool` in the first cycle.
#[test]
fn the_cosim_catches_a_difference() {
    let r = credit_tracker_ref();
    let top = r.elaborate().unwrap();
    let mut hand = r.hand_files(&top.name).unwrap();
    let t = &mut hand[0].text;
    assert!(t.contains("credits <= 7'd32;"));
    *t = t.replacen("credits <= 7'd32;", "credits <= 7'd31;", 1);
    let stim = stimulus(r, &top, 200, 3);
    let out = verif::area::cosim_files(&top, &hand, &stim, Simulator::Iverilog, false, &work("cosim-mutant")).unwrap();
    let m = out.hand.expect("the altered fixture must differ");
    assert_eq!((m.cycle, m.port.as_str()), (0, "pool"));
}
