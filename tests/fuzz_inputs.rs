//! Robustness of the text inputs besides PTX and launch files (those are in
//! `kernel/tests/fuzz.rs`): SM configurations and `--set` overrides,
//! stimulus files and VCD files, mutated line by line and byte by byte from
//! real ones. Each case gives a result or one error line, never a panic, a
//! hang or a stack overflow. `make fuzz` runs many more cases
//! (`WARPFORGE_FUZZ_CASES`).

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Cases per target: a short slice in `make test`, more under `make fuzz`.
fn cases() -> u32 {
    std::env::var("WARPFORGE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

#[derive(Clone, Debug)]
enum Mutation {
    DropLine(usize),
    DupLine(usize, usize),
    /// Repeat a line many times (deep nesting when it opens a scope).
    Repeat(usize, usize),
    SwapLines(usize, usize),
    ReplaceToken(usize, usize, usize),
    InsertBytes(usize, Vec<u8>),
    Truncate(usize),
}

/// Tokens that break parsers: wrong types, huge numbers, brackets, VCD
/// keywords, stimulus words.
const TOKENS: &[&str] = &[
    "0", "-1", "1.5", "nan", "inf", "99999999999999999999", "18446744073709551616", "\"x\"", "[", "]", "{", "}", "=", "[1,", "true",
    "$scope", "$upscope", "$end", "$var", "$enddefinitions", "#", "#18446744073709551615", "x", "z", "b101", "ports", "rst:1", "ffffffffffffffffffffff", ":", "",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let u = || any::<usize>();
    prop_oneof![
        u().prop_map(Mutation::DropLine),
        (u(), u()).prop_map(|(a, b)| Mutation::DupLine(a, b)),
        (u(), prop_oneof![Just(2usize), Just(100), Just(20_000)]).prop_map(|(a, n)| Mutation::Repeat(a, n)),
        (u(), u()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (u(), u(), u()).prop_map(|(a, b, c)| Mutation::ReplaceToken(a, b, c)),
        (u(), proptest::collection::vec(any::<u8>(), 1..8)).prop_map(|(a, b)| Mutation::InsertBytes(a, b)),
        u().prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for m in muts {
        let n = lines.len().max(1);
        if lines.is_empty() {
            lines.push(String::new());
        }
        match m {
            Mutation::DropLine(l) => {
                lines.remove(l % n);
            }
            Mutation::DupLine(l, to) => {
                let line = lines[l % n].clone();
                lines.insert(to % (n + 1), line);
            }
            Mutation::Repeat(l, k) => {
                let line = lines[l % n].clone();
                let at = l % n;
                lines.splice(at..at, std::iter::repeat_n(line, *k));
            }
            Mutation::SwapLines(a, b) => lines.swap(a % n, b % n),
            Mutation::ReplaceToken(l, t, k) => {
                let mut words: Vec<&str> = lines[l % n].split(' ').collect();
                let t = t % words.len();
                words[t] = TOKENS[k % TOKENS.len()];
                lines[l % n] = words.join(" ");
            }
            Mutation::InsertBytes(at, bytes) => {
                let mut flat = lines.join("\n").into_bytes();
                let at = at % (flat.len() + 1);
                flat.splice(at..at, bytes.iter().copied());
                lines = String::from_utf8_lossy(&flat).lines().map(String::from).collect();
            }
            Mutation::Truncate(at) => {
                let flat = lines.join("\n");
                let mut at = at % (flat.len() + 1);
                while !flat.is_char_boundary(at) {
                    at -= 1;
                }
                lines = flat[..at].lines().map(String::from).collect();
            }
        }
    }
    (lines.join("\n") + "\n").into_bytes()
}

fn one_line(e: &str) {
    assert_eq!(e.lines().count(), 1, "not one line: {e}");
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz_inputs");
    std::fs::create_dir_all(&d).unwrap();
    d.join(format!("{name}-{:?}", std::thread::current().id()))
}

/// A stimulus file of the scoreboard (2 warps) and its port layout.
fn stimulus() -> &'static (String, std::sync::Arc<verif::stimulus::InputLayout>) {
    static S: OnceLock<(String, std::sync::Arc<verif::stimulus::InputLayout>)> = OnceLock::new();
    S.get_or_init(|| {
        let info = hw::registry::find("scoreboard").unwrap();
        let p = info.params(&[("warps".to_string(), "2".to_string())]).unwrap();
        let m = info.elaborate(&p).unwrap();
        let layout = verif::stimulus::InputLayout::of(&verif::cosim::component_ports(&m));
        let mut d = (verif::registry::find("scoreboard").unwrap().driver)(&p, 1).unwrap();
        let st = verif::stimulus::Stimulus::record(d.as_mut(), 20);
        let path = scratch("good.stim");
        st.write_text(&path, "fuzz seed").unwrap();
        (std::fs::read_to_string(&path).unwrap(), layout)
    })
}

/// A small VCD with nested scopes, vectors and scalars.
fn vcd() -> &'static String {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| {
        let path = scratch("good.vcd");
        let mut w = waves::VcdWriter::new(std::io::BufWriter::new(std::fs::File::create(&path).unwrap()), "fuzz").unwrap();
        w.scope("TOP").unwrap();
        let clk = w.var("clk", 1).unwrap();
        w.scope("u").unwrap();
        let q = w.var("q", 12).unwrap();
        w.upscope().unwrap();
        w.end_header().unwrap();
        for t in 0..10u64 {
            w.time(t * 10).unwrap();
            w.change(clk, &[t & 1]).unwrap();
            w.change(q, &[t * 37 % 4096]).unwrap();
        }
        w.flush().unwrap();
        std::fs::read_to_string(&path).unwrap()
    })
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_configs_never_panic(preset in 0..sm::config::PRESETS.len(), muts in proptest::collection::vec(mutation(), 1..4)) {
        let text = apply(sm::config::PRESETS[preset].1, &muts);
        if let Err(e) = sm::Config::parse(&String::from_utf8_lossy(&text), "fuzz.toml") {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn random_overrides_never_panic(key in 0..TOKENS.len() + 8, value in 0..TOKENS.len(), section in 0..4usize) {
        let keys = ["core.max_warps", "l1.sets", "mode", "core.policy", "limits", "units.int_latency", "memory.dram_latency", "pmode.rename_regs"];
        let key = if key < keys.len() { keys[key].to_string() } else { format!("{}.{}", ["core", "l1", "x", ""][section], TOKENS[key - keys.len()]) };
        let c = sm::Config::preset("hpca16_pmode");
        if let Err(e) = c.with_override(&format!("{key}={}", TOKENS[value])) {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn mutated_stimulus_files_never_panic(muts in proptest::collection::vec(mutation(), 1..4)) {
        let (text, layout) = stimulus();
        let path = write("case.stim", &apply(text, &muts));
        if let Err(e) = verif::stimulus::Stimulus::read_text(&path, layout) {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn mutated_vcds_never_panic(muts in proptest::collection::vec(mutation(), 1..4), from in prop_oneof![Just(0u64), 0..200u64]) {
        let good = write("good-copy.vcd", vcd().as_bytes());
        let path = write("case.vcd", &apply(vcd(), &muts));
        for (a, b) in [(&path, &good), (&path, &path)] {
            if let Err(e) = waves::diff_files(a, b, None, from) {
                one_line(&e.to_string());
            }
        }
        let _ = waves::signal_paths(Path::new(&path));
    }
}
