//! Launch files: good ones bind, bad ones give one error line naming the
//! file and the key.

mod common;
use kernel::{LaunchFile, Module};
use std::path::{Path, PathBuf};

fn vecadd() -> Module {
    common::module("vecadd")
}

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("launch").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const GOOD: &str = r#"
grid = [2]
block = [64]
args = ["a", "b", "c", 128]
[buffers.a]
type = "f32"
len = 128
init = { random = { seed = 1, min = -1, max = 1 } }
[buffers.b]
type = "f32"
len = 128
init = { values = [1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128] }
[buffers.c]
type = "f32"
len = 128
init = { zero = true }
"#;

/// Replace `from` by `to` in GOOD, parse and bind: the one-line error.
fn bad(from: &str, to: &str) -> String {
    let m = vecadd();
    let text = GOOD.replacen(from, to, 1);
    assert_ne!(text, GOOD, "{from} not found");
    let e = LaunchFile::parse(&text, Path::new("l.toml")).and_then(|l| l.bind(&m, m.kernel("vecadd").unwrap())).unwrap_err().to_string();
    assert_eq!(e.lines().count(), 1, "{e}");
    e
}

fn has(e: &str, want: &str) {
    assert!(e.contains(want), "got `{e}`, want `{want}`");
}

#[test]
fn good_launch_binds() {
    let m = vecadd();
    let k = m.kernel("vecadd").unwrap();
    let l = LaunchFile::parse(GOOD, Path::new("l.toml")).unwrap().bind(&m, k).unwrap();
    assert_eq!(l.grid, [2, 1, 1]);
    let a = l.buffers.iter().map(|b| (b.name.as_str(), b.base)).collect::<Vec<_>>();
    assert_eq!(a, vec![("a", 0x1000_0000), ("b", 0x1000_0300), ("c", 0x1000_0600)], "name order, 256-aligned, with gaps");
    let a = common::f32s(l.buffer(&l.memory, "a").unwrap());
    assert!(a.iter().all(|x| (-1.0..1.0).contains(x)) && a.iter().any(|&x| x != a[0]));
    assert_eq!(common::f32s(l.buffer(&l.memory, "b").unwrap())[0], 1.5);
    assert_eq!(&l.params[..8], &0x1000_0000u64.to_le_bytes());
    assert_eq!(&l.params[24..28], &128u32.to_le_bytes());
    // Same seed, same data.
    let l2 = LaunchFile::parse(GOOD, Path::new("l.toml")).unwrap().bind(&m, k).unwrap();
    assert!(l.memory == l2.memory);
}

#[test]
fn file_init_is_relative_to_the_launch_file() {
    let d = dir("file_init");
    let data: Vec<u8> = (0..128u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    std::fs::write(d.join("a.bin"), &data).unwrap();
    std::fs::write(d.join("short.bin"), &data[..8]).unwrap();
    let text = GOOD.replacen("init = { random = { seed = 1, min = -1, max = 1 } }", "init = { file = \"a.bin\" }", 1);
    let path = d.join("l.toml");
    std::fs::write(&path, &text).unwrap();
    let m = vecadd();
    let k = m.kernel("vecadd").unwrap();
    let l = LaunchFile::load(&path).unwrap().bind(&m, k).unwrap();
    assert_eq!(l.buffer(&l.memory, "a").unwrap(), &data[..]);
    std::fs::write(&path, text.replace("a.bin", "short.bin")).unwrap();
    let e = LaunchFile::load(&path).unwrap().bind(&m, k).unwrap_err().to_string();
    has(&e, "l.toml: buffers.a.init.file: ");
    has(&e, "short.bin holds 8 bytes; the buffer is 128 x f32 = 512 bytes");
    std::fs::write(&path, text.replace("a.bin", "missing.bin")).unwrap();
    let e = LaunchFile::load(&path).unwrap().bind(&m, k).unwrap_err().to_string();
    has(&e, "l.toml: buffers.a.init.file: cannot read ");
    has(&e, "missing.bin");
    let e = LaunchFile::load(&d.join("nope.toml")).unwrap_err().to_string();
    has(&e, "nope.toml: cannot read");
}

#[test]
fn bad_launch_files_name_the_key() {
    has(&bad("grid = [2]", "gird = [2]"), "l.toml: gird (line 2): unknown field `gird`, expected one of `grid`");
    has(
        &bad("type = \"f32\"\nlen = 128\ninit = { zero", "type = \"f32\"\nlength = 128\ninit = { zero"),
        "l.toml: buffers.c.length (line 15): unknown field `length`, expected one of `type`, `len`, `init`",
    );
    has(
        &bad("len = 128\ninit = { zero", "len = \"many\"\ninit = { zero"),
        "l.toml: buffers.c.len (line 15): found the string \"many\", expected a non-negative integer",
    );
    has(&bad("block = [64]", "block = 64"), "l.toml: block (line 3): found the integer `64`, expected an array");
    has(
        &bad("type = \"f32\"\nlen = 128\ninit = { zero", "type = \"f16\"\nlen = 128\ninit = { zero"),
        "l.toml: buffers.c.type (line 14): unknown variant `f16`",
    );
    has(
        &bad("args = [\"a\", \"b\", \"c\", 128]", "args = [\"a\", \"b\", \"c\"]"),
        "l.toml: args: 3 arguments for kernel `vecadd`, which takes 4 (.u64, .u64, .u64, .u32)",
    );
    has(&bad("\"c\", 128]", "\"c\", \"a\"]"), "l.toml: args[3]: buffer `a` passed to a .u32 parameter");
    has(
        &bad("\"c\", 128]", "\"c\", 1.5]"),
        "l.toml: args[3]: expected an integer or a buffer name for the .u32 parameter, found float 1.5",
    );
    has(&bad("\"c\", 128]", "\"c\", 5000000000]"), "l.toml: args[3]: 5000000000 does not fit the .u32 parameter");
    has(&bad("args = [\"a\"", "args = [\"zz\""), "l.toml: args[0]: no buffer `zz` (buffers: a, b, c)");
    has(&bad("init = { values = [1.5, ", "init = { values = ["), "l.toml: buffers.b.init.values: 127 values for len = 128");
    has(
        &bad("init = { values = [1.5, ", "init = { values = [\"x\", "),
        "l.toml: buffers.b.init.values[0]: expected a number for a f32 element, found string \"x\"",
    );
    has(
        &bad("init = { zero = true }", "init = { zero = true, file = \"x\" }"),
        "l.toml: buffers.c.init: give exactly one of file, zero, values, random",
    );
    has(&bad("init = { zero = true }", "init = { zero = false }"), "l.toml: buffers.c.init.zero: must be true");
    has(&bad("min = -1, max = 1", "min = 1, max = 1"), "l.toml: buffers.a.init.random: min (1) must be less than max (1)");
    has(
        &bad("min = -1, max = 1", "min = \"a\", max = 1"),
        "l.toml: buffers.a.init.random.min: expected a finite number, found string \"a\"",
    );
    has(&bad("block = [64]", "block = [2048]"), "l.toml: block: 2048 threads per CTA; at most 1024");
    has(&bad("block = [64]", "block = [64, 0]"), "l.toml: block[1]: must be at least 1");
    has(&bad("block = [64]", "block = [1, 1, 1, 1]"), "l.toml: block: needs 1 to 3 dimensions, found 4");
    has(
        &bad("[buffers.c]", "[symbols.tbl]\ntype = \"u8\"\nlen = 1\n[buffers.c]"),
        "l.toml: symbols.tbl: no module-scope .global or .const variable `tbl`",
    );
    has(
        &bad("len = 128\ninit = { zero", "len = 99999999999999\ninit = { zero"),
        "l.toml: buffers.c.len: 99999999999999 elements is too large",
    );
    has(&bad("grid = [2]", "grid = [2"), "l.toml: line 3: missing comma between array elements");
    has(&bad("grid = [2]", "shared_bytes = -1\ngrid = [2]"), "l.toml: shared_bytes (line 2): the integer `-1`, expected a non-negative integer up to 4294967295");
}

#[test]
fn integer_buffers_check_ranges() {
    let m = vecadd();
    let k = m.kernel("vecadd").unwrap();
    let text =
        GOOD.replacen("type = \"f32\"\nlen = 128\ninit = { zero = true }", "type = \"u8\"\nlen = 2\ninit = { values = [1, 300] }", 1);
    let e = LaunchFile::parse(&text, Path::new("l.toml")).unwrap().bind(&m, k).unwrap_err().to_string();
    has(&e, "l.toml: buffers.c.init.values[1]: 300 does not fit u8");
    let text = GOOD.replacen(
        "type = \"f32\"\nlen = 128\ninit = { zero = true }",
        "type = \"i16\"\nlen = 3\ninit = { random = { seed = 2, min = -5, max = 40000 } }",
        1,
    );
    let e = LaunchFile::parse(&text, Path::new("l.toml")).unwrap().bind(&m, k).unwrap_err().to_string();
    has(&e, "l.toml: buffers.c.init.random.max: 40000 does not fit i16");
    let text = GOOD.replacen(
        "type = \"f32\"\nlen = 128\ninit = { zero = true }",
        "type = \"i16\"\nlen = 300\ninit = { random = { seed = 2, min = -5, max = 5 } }",
        1,
    );
    let l = LaunchFile::parse(&text, Path::new("l.toml")).unwrap().bind(&m, k).unwrap();
    let c: Vec<i16> = l.buffer(&l.memory, "c").unwrap().chunks(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    assert!(c.iter().all(|x| (-5..=5).contains(x)));
    assert!(c.contains(&-5) && c.contains(&5), "inclusive range");
}
