//! Robustness: mutated PTX (from the shipped kernels: dropped tokens,
//! swapped operands, random bytes, replaced tokens and numbers, dropped and
//! duplicated lines) and random launch files go through the parser, the
//! allocator, launch binding and the functional model: an error or a
//! result, never a panic or a hang (each run has an instruction budget).
//! `make fuzz` runs many more cases.

mod common;
use kernel::{CompileOptions, Compiler, LaunchFile, Module, RunOptions};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

const KERNELS: &[&str] = &[
    "vecadd",
    "saxpy",
    "reduction",
    "histogram",
    "scan",
    "transpose_naive",
    "transpose_tiled",
    "sgemm",
    "stencil2d",
    "spmv",
    "bfs",
    "pathfinder",
    "pmode_loop",
    "dac_fig4",
];

/// Kernels beyond the suite's subset (`kernels/nvcc`): calls, recursion, named
/// barriers, half precision, texture objects; the last two need nvcc.
const BEYOND: &[(&str, Compiler)] =
    &[("nvcc/calls", Compiler::Clang), ("nvcc/recursion", Compiler::Clang), ("nvcc/named_barriers", Compiler::Clang), ("nvcc/halves", Compiler::Nvcc), ("nvcc/textures", Compiler::Nvcc)];

const CORPUS: usize = KERNELS.len() + BEYOND.len();

/// (PTX text, launch file text) of every shipped kernel.
fn corpus() -> &'static Vec<(String, String)> {
    static C: OnceLock<Vec<(String, String)>> = OnceLock::new();
    C.get_or_init(|| {
        let launch = |k: &str| std::fs::read_to_string(common::kernels_dir().join(format!("{k}.toml"))).unwrap();
        let beyond = BEYOND.iter().map(|&(k, compiler)| {
            let opts = CompileOptions { compiler, ..common::compile_opts() };
            let ptx = kernel::compile_cuda(&common::kernels_dir().join(format!("{k}.cu")), &opts).unwrap_or_else(|e| panic!("{e}"));
            (ptx, launch(k))
        });
        KERNELS.iter().map(|k| (common::ptx(k), launch(k))).chain(beyond).collect()
    })
}

/// Cases per target: 1000 in `make test`, more under `make fuzz`
/// (`WARPFORGE_FUZZ_CASES`).
fn cases() -> u32 {
    std::env::var("WARPFORGE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000)
}

const BUDGET: RunOptions = RunOptions { max_warp_insts: 20_000, unmapped_reads_zero: false };

/// Parse, allocate, bind (when the launch fits) and run: must not panic.
fn exercise(ptx: &str, launch: &str) -> Reached {
    let Ok(m) = Module::from_ptx(ptx, "fuzz.ptx") else { return Reached::Nothing };
    trace_schedule(ptx, &m);
    let Ok(lf) = LaunchFile::parse(launch, Path::new("fuzz.toml")) else { return Reached::Parsed };
    let mut r = Reached::Parsed;
    for k in &m.kernels {
        let _ = k.listing();
        if let Ok(l) = lf.bind(&m, k) {
            r = match kernel::run_functional(k, &l, &BUDGET) {
                Ok(_) => Reached::Ran,
                Err(_) => Reached::RunError,
            };
            pre_execute(k, &l);
        }
    }
    r
}

/// Trace scheduling with a profile that calls every branch 90% taken:
/// never a panic, and what it prints loads (the pass checks; a
/// `KernelError::Pass` is its bug).
fn trace_schedule(ptx: &str, m: &Module) {
    let mut profile = kernel::tsched::Profile::default();
    for k in &m.kernels {
        let lines = profile.kernels.entry(k.name.clone()).or_default();
        for i in &k.insts {
            lines.insert(i.line, kernel::tsched::Counts { execs: 10, divergent: 1, taken: 9, not_taken: 1 });
        }
    }
    if let Err(e @ kernel::KernelError::Pass { .. }) = kernel::tsched::schedule(ptx, "fuzz.ptx", &profile, &Default::default()) {
        panic!("{e}");
    }
}

/// The SM's use of the API: a copy of a warp pre-executed without side
/// effects, skipping every third skippable instruction, until it is done,
/// fails or has run 500 instructions; memory must be unchanged.
fn pre_execute(k: &kernel::Kernel, l: &kernel::Launch) {
    let mut mem = l.memory.clone();
    let mut shared = vec![0u8; k.dynamic_shared_base() as usize + l.dynamic_shared as usize];
    let mut local = vec![0u8; (l.threads_per_cta() as usize * k.local_bytes as usize).min(1 << 24)];
    let mut w = kernel::WarpState::new(k, 0, l.block);
    let mut ctx = kernel::ExecCtx {
        global: kernel::memory::Global::Direct(&mut mem),
        shared: &mut shared,
        local: &mut local,
        params: &l.params,
        ntid: l.block,
        ctaid: [0; 3],
        nctaid: l.grid,
        side_effects: false,
        unmapped_reads_zero: false,
        clock: 0,
        clock_hz: 1,
        textures: &kernel::texture::Textures::EMPTY,
    };
    for n in 0..500 {
        if w.done {
            break;
        }
        let control = w.next_inst(k).is_none_or(|(_, i)| i.is_branch() || i.is_exit());
        let r = if n % 3 == 2 && !control { kernel::skip(k, &mut w).map(|_| ()) } else { kernel::exec(k, &mut w, &mut ctx).map(|_| ()) };
        if r.is_err() {
            break;
        }
    }
    assert!(mem == l.memory, "pre-execution without side effects changed memory");
}

/// How far one case got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reached {
    Nothing,
    Parsed,
    RunError,
    Ran,
}

static COUNTS: std::sync::Mutex<[[u32; 4]; 3]> = std::sync::Mutex::new([[0; 4]; 3]);

fn count(which: usize, r: Reached) {
    if let Ok(mut c) = COUNTS.lock() {
        c[which][r as usize] += 1;
        if std::env::var_os("FUZZ_STATS").is_some() {
            eprintln!("{which}: nothing/parsed/run-error/ran = {:?}", c[which]);
        }
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    DropToken(usize, usize),
    SwapOperands(usize, usize, usize),
    InsertBytes(usize, Vec<u8>),
    ReplaceToken(usize, usize, usize, usize),
    Number(usize, usize, i64),
    DropLine(usize),
    DupLine(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let u = || any::<usize>();
    prop_oneof![
        (u(), u()).prop_map(|(a, b)| Mutation::DropToken(a, b)),
        (u(), u(), u()).prop_map(|(a, b, c)| Mutation::SwapOperands(a, b, c)),
        (u(), proptest::collection::vec(any::<u8>(), 1..6)).prop_map(|(a, b)| Mutation::InsertBytes(a, b)),
        (u(), u(), u(), u()).prop_map(|(a, b, c, d)| Mutation::ReplaceToken(a, b, c, d)),
        (u(), u(), prop_oneof![Just(0i64), Just(-1), Just(1), Just(63), Just(64), Just(1 << 31), Just(i64::MAX), any::<i64>()])
            .prop_map(|(a, b, c)| Mutation::Number(a, b, c)),
        u().prop_map(Mutation::DropLine),
        (u(), u()).prop_map(|(a, b)| Mutation::DupLine(a, b)),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut lines: Vec<Vec<String>> = text.lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
    for m in muts {
        let n = lines.len().max(1);
        match m {
            Mutation::DropToken(l, t) => {
                let line = &mut lines[l % n];
                if !line.is_empty() {
                    let t = t % line.len();
                    line.remove(t);
                }
            }
            Mutation::SwapOperands(l, a, b) => {
                let line = &mut lines[l % n];
                if line.len() > 1 {
                    let ops = line[1..].join(" ");
                    let mut parts: Vec<&str> = ops.trim_end_matches(';').split(',').collect();
                    let (a, b) = (a % parts.len(), b % parts.len());
                    parts.swap(a, b);
                    let joined = parts.join(",") + if ops.ends_with(';') { ";" } else { "" };
                    line.truncate(1);
                    line.push(joined);
                }
            }
            Mutation::InsertBytes(at, bytes) => {
                let mut flat = lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n").into_bytes();
                let at = at % (flat.len() + 1);
                flat.splice(at..at, bytes.iter().copied());
                let s = String::from_utf8_lossy(&flat).to_string();
                lines = s.lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
            }
            Mutation::ReplaceToken(l, t, l2, t2) => {
                let src = &lines[l2 % n];
                if src.is_empty() {
                    continue;
                }
                let tok = src[t2 % src.len()].clone();
                let line = &mut lines[l % n];
                if !line.is_empty() {
                    let t = t % line.len();
                    line[t] = tok;
                }
            }
            Mutation::Number(l, t, v) => {
                let line = &mut lines[l % n];
                let punct = [',', ';', ']', '[', '{', '}'];
                let nums: Vec<usize> = (0..line.len()).filter(|&i| line[i].trim_matches(punct).parse::<i64>().is_ok()).collect();
                if !nums.is_empty() {
                    let i = nums[t % nums.len()];
                    let head: String = line[i].chars().take_while(|c| punct.contains(c)).collect();
                    let tail: String =
                        line[i].chars().rev().take_while(|c| punct.contains(c)).collect::<Vec<_>>().into_iter().rev().collect();
                    line[i] = format!("{head}{v}{tail}");
                }
            }
            Mutation::DropLine(l) => {
                if !lines.is_empty() {
                    lines.remove(l % n);
                }
            }
            Mutation::DupLine(l, to) => {
                let line = lines[l % n].clone();
                lines.insert(to % (n + 1), line);
            }
        }
    }
    lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_ptx_never_panics(k in 0..CORPUS, muts in proptest::collection::vec(mutation(), 1..4)) {
        let (ptx, launch) = &corpus()[k];
        count(0, exercise(&apply(ptx, &muts), launch));
    }

    #[test]
    fn random_launch_files_never_panic(k in 0..CORPUS, parts in launch_parts(), fit in any::<bool>(), picks in proptest::collection::vec(0usize..3, 8)) {
        let (ptx, _) = &corpus()[k];
        let (grid, block, args, bufs, extra) = parts;
        // Half the cases take arguments and buffers that fit the kernel's
        // parameters (buffers a, b, c for pointers, small integers
        // otherwise), so that they bind and run; the others stay random.
        let text = if fit {
            let m = Module::from_ptx(ptx, "k.ptx").unwrap();
            let args: Vec<String> = m.kernels[0]
                .params
                .iter()
                .zip(picks.iter().cycle())
                .map(|(p, &i)| if p.ty.bits() == 64 { format!("\"{}\"", ["a", "b", "c"][i]) } else { (i * 7 + 1).to_string() })
                .collect();
            let bufs: String = ["a", "b", "c"]
                .iter()
                .zip(&picks)
                .map(|(n, &i)| format!("[buffers.{n}]\ntype = \"{}\"\nlen = {}\ninit = {{ random = {{ seed = {i}, min = 0, max = 50 }} }}\n", ["i32", "f32", "u8"][i], [16, 300, 4000][i]))
                .collect();
            format!("grid = {grid}\nblock = {block}\nargs = [{}]\n{bufs}", args.join(", "))
        } else {
            format!("grid = {grid}\nblock = {block}\nargs = [{}]\n{extra}{}", args.join(", "), bufs.join(""))
        };
        count(1, exercise(ptx, &text));
    }

    #[test]
    fn mutated_launch_files_never_panic(k in 0..CORPUS, muts in proptest::collection::vec(mutation(), 1..3)) {
        let (ptx, launch) = &corpus()[k];
        count(2, exercise(ptx, &apply(launch, &muts)));
    }
}

/// Parts of a random launch file (grid, block, args, buffers, extra keys):
/// real and wrong keys, types and values.
#[allow(clippy::type_complexity)]
fn launch_parts() -> impl Strategy<Value = (String, String, Vec<String>, Vec<String>, &'static str)> {
    let dim = prop_oneof![
        Just("[1]".to_string()),
        Just("[2, 2]".to_string()),
        Just("[64]".to_string()),
        Just("[0]".to_string()),
        Just("[4096]".to_string()),
        Just("[1, 1, 1, 1]".to_string()),
        Just("\"x\"".to_string()),
        Just("[2147483647]".to_string()),
        (1u32..300).prop_map(|n| format!("[{n}]")),
    ];
    let scalar = prop_oneof![
        Just("\"a\"".to_string()),
        Just("\"b\"".to_string()),
        Just("\"zz\"".to_string()),
        Just("1.5".to_string()),
        Just("-1".to_string()),
        Just("99999999999".to_string()),
        Just("{ x = 1 }".to_string()),
        Just("true".to_string()),
        (0i64..2000).prop_map(|n| n.to_string()),
    ];
    let ty = prop_oneof![Just("f32"), Just("i32"), Just("u8"), Just("u64"), Just("f64"), Just("i16"), Just("q7")];
    let len = prop_oneof![Just(0u64), Just(1), Just(16), Just(300), Just(2000), Just(1 << 40)];
    let init = prop_oneof![
        Just(String::new()),
        Just("init = { zero = true }\n".to_string()),
        Just("init = { zero = false }\n".to_string()),
        Just("init = { file = \"nope.bin\" }\n".to_string()),
        Just("init = { values = [1, 2.5, -3] }\n".to_string()),
        Just("init = { random = { seed = 3, min = 0, max = 10 } }\n".to_string()),
        Just("init = { random = { seed = 3, min = 10, max = 0 } }\n".to_string()),
        Just("init = { random = { seed = 3, min = -1.5, max = 1e30 } }\n".to_string()),
        Just("init = { values = [], zero = true }\n".to_string()),
        Just("init = 5\n".to_string()),
    ];
    let buffer = ("[abc]", ty, len, init).prop_map(|(n, t, l, i)| format!("[buffers.{n}]\ntype = \"{t}\"\nlen = {l}\n{i}"));
    (
        dim.clone(),
        dim,
        proptest::collection::vec(scalar, 0..8),
        proptest::collection::vec(buffer, 0..4),
        prop_oneof![
            Just(""),
            Just("shared_bytes = 64\n"),
            Just("bogus = 1\n"),
            Just("shared_bytes = 99999999\n"),
            Just("[symbols.x]\ntype = \"u8\"\nlen = 1\n")
        ],
    )
}

/// The mutation machinery does change the text (the fuzz test is not vacuous)
/// and most single mutations still parse or fail cleanly.
#[test]
fn mutations_change_the_ptx() {
    let (ptx, _) = &corpus()[0];
    let m = apply(ptx, &[Mutation::DropLine(20)]);
    assert_ne!(m.lines().count(), ptx.lines().count());
    let s = apply(ptx, &[Mutation::InsertBytes(300, vec![0xff, b'#'])]);
    assert!(Module::from_ptx(&s, "x.ptx").is_err());
}
