//! Elaboration errors: each names the module, the signal(s) and the
//! generator's source line, and none panics.

use hw::ir::*;
use std::sync::Arc;

fn err(r: Result<Arc<Module>, HwError>) -> HwError {
    r.expect_err("elaboration must fail")
}

#[test]
fn width_mismatch_names_both_signals_and_the_line() {
    let m = ModuleBuilder::new("widths");
    let a = m.input("issue_dst", 6);
    let b = m.input("wb_dst", 7);
    let o = m.output("same", 1);
    let line = line!() + 1;
    o.set(a.eq(b));
    let e = err(m.finish());
    assert_eq!(e.module, "widths");
    assert!(e.message.contains("`issue_dst` (6 bits)") && e.message.contains("`wb_dst` (7 bits)"), "{e}");
    assert_eq!(e.location, format!("{}:{line}", file!()));
}

#[test]
fn assignment_width_must_match_exactly() {
    let m = ModuleBuilder::new("assign_w");
    let a = m.input("a", 8);
    let o = m.output("o", 9);
    o.set(a);
    let e = err(m.finish());
    assert!(e.message.contains("`o` is 9 bits but is assigned `a` (8 bits)"), "{e}");
}

#[test]
fn literal_must_fit() {
    let m = ModuleBuilder::new("lits");
    let a = m.input("a", 4);
    let o = m.output("o", 4);
    o.set(a + 16u64);
    assert!(err(m.finish()).message.contains("literal 16 does not fit in 4 bits"));
}

#[test]
fn undriven_and_doubly_driven_signals() {
    let m = ModuleBuilder::new("drivers");
    let _ = m.input("a", 1);
    let _o = m.output("never", 1);
    assert!(err(m.finish()).message.contains("output `never` is never driven"));

    let m = ModuleBuilder::new("drivers2");
    let a = m.input("a", 1);
    let w = m.wire("twice", 1);
    w.set(a);
    w.set(!a);
    m.output("o", 1).set(w);
    assert!(err(m.finish()).message.contains("`twice` is driven twice (first at"));

    let m = ModuleBuilder::new("drivers3");
    let a = m.input("a", 1);
    let w = m.wire("latchy", 1);
    w.set_if(a, a);
    m.output("o", 1).set(w);
    assert!(err(m.finish()).message.contains("would be a latch"));
}

#[test]
fn combinational_loop_is_reported_with_its_signals() {
    let m = ModuleBuilder::new("loopy");
    let a = m.input("a", 1);
    let x = m.wire("x", 1);
    let y = m.wire("y", 1);
    x.set(y & a);
    y.set(!x);
    m.output("o", 1).set(y);
    let e = err(m.finish());
    assert!(e.message.contains("combinational loop") && e.message.contains("`x`") && e.message.contains("`y`"), "{e}");
}

#[test]
fn loop_through_an_instance_is_found() {
    let inner = {
        let m = ModuleBuilder::new("passthru");
        let i = m.input("i", 1);
        m.output("o", 1).set(!i);
        m.finish().unwrap()
    };
    let m = ModuleBuilder::new("outer");
    let u = m.instance("u", &inner);
    u.connect("i", u.output("o"));
    m.output("o", 1).set(u.output("o"));
    assert!(err(m.finish()).message.contains("combinational loop"));
}

#[test]
fn a_register_breaks_a_loop() {
    let m = ModuleBuilder::new("counter");
    let r = m.reg("count", 4, 0);
    r.set(r + 1u64);
    m.output("q", 4).set(r);
    let module = m.finish().unwrap();
    assert!(module.uses_clock && module.uses_reset);
}

#[test]
fn names_are_checked() {
    let m = ModuleBuilder::new("names");
    let _ = m.input("reg", 1);
    assert!(err(m.finish()).message.contains("`reg` is not a valid name"));
    let m = ModuleBuilder::new("names2");
    let _ = m.input("a", 1);
    let _ = m.input("a", 2);
    assert!(err(m.finish()).message.contains("name `a` is already used"));
    assert!(err(ModuleBuilder::new("9bad").finish()).message.contains("not a valid module name"));
}

#[test]
fn slices_memories_and_instances_are_checked() {
    let m = ModuleBuilder::new("misc");
    let a = m.input("a", 8);
    let _ = a.bits(8, 0);
    assert!(err(m.finish()).message.contains("slice [0 +: 9] is outside `a` (8 bits)"));

    let m = ModuleBuilder::new("mems");
    let a = m.input("a", 5);
    let t = m.mem("tbl", 48, 8);
    let _ = t.read(a);
    assert!(err(m.finish()).message.contains("address of `tbl` (48 words) must be 6 bits"));

    let inner = {
        let m = ModuleBuilder::new("leaf");
        let i = m.input("i", 1);
        m.output("o", 1).set(i);
        m.finish().unwrap()
    };
    let m = ModuleBuilder::new("ports");
    let u = m.instance("u", &inner);
    u.connect("nope", lit(0, 1));
    assert!(err(m.finish()).message.contains("has no input port `nope` (has: i)"));
    let m = ModuleBuilder::new("ports2");
    let _u = m.instance("u", &inner);
    assert!(err(m.finish()).message.contains("instance input `u_i` is never driven"));
}

#[test]
fn signals_cannot_cross_modules() {
    let outer = ModuleBuilder::new("outer_x");
    let a = outer.input("a", 1);
    let inner = ModuleBuilder::new("inner_x");
    inner.output("o", 1).set(a);
    assert!(err(inner.finish()).message.contains("another module"));
    outer.output("o", 1).set(a);
    assert!(outer.finish().is_ok());
}

#[test]
fn two_different_modules_with_one_name_are_rejected() {
    let mk = |w| {
        let m = ModuleBuilder::new("same_name");
        let i = m.input("i", w);
        m.output("o", w).set(i);
        m.finish().unwrap()
    };
    let (x, y) = (mk(1), mk(2));
    let m = ModuleBuilder::new("top_dup");
    let (ux, uy) = (m.instance("x", &x), m.instance("y", &y));
    ux.connect("i", lit(0, 1));
    uy.connect("i", lit(0, 2));
    assert!(err(m.finish()).message.contains("two different modules are both named `same_name`"));
}

#[test]
fn wide_values_up_to_1024_bits_and_beyond() {
    let m = ModuleBuilder::new("wide");
    let a = m.input("a", 1024);
    let b = m.input("b", 1024);
    let r = m.reg("acc", 2048, 0);
    r.set(a * b);
    m.output("o", 2048).set(r);
    assert!(m.finish().is_ok());
}

#[test]
fn constant_identities_fold_and_duplicates_are_shared() {
    let m = ModuleBuilder::new("fold");
    let a = m.input("a", 8);
    let x = (a & lit(0xff, 8)) | lit(0, 8);
    let y = (a & lit(0xff, 8)) | lit(0, 8);
    assert_eq!(x.node(), a.node());
    assert_eq!(x.node(), y.node());
    let p = a + 1u64;
    let q = a + 1u64;
    assert_eq!(p.node(), q.node());
    m.output("o", 8).set(p ^ x);
    let module = m.finish().unwrap();
    assert!(module.nodes.len() < 10, "{}", module.nodes.len());
}

/// Every block's declared parameters are sane, its generator declares
/// exactly its port description, and its storage account (paper figures +
/// differences with reasons) adds up to the bits counted in the emitted IR,
/// at the defaults and with each parameter at its minimum.
#[test]
fn every_block_declares_its_ports_and_accounts_for_its_storage() {
    for info in hw::registry::blocks() {
        let mut sets = vec![info.default_params()];
        for spec in info.params {
            assert!(spec.min <= spec.default && spec.default <= spec.max, "{}: {}", info.name, spec.name);
            assert!(!spec.doc.is_empty() && !spec.source.is_empty(), "{}: {} needs a doc and a source", info.name, spec.name);
            if let Ok(p) = info.params(&[(spec.name.to_string(), spec.min.to_string())]) {
                sets.push(p);
            }
        }
        let names: std::collections::HashSet<&str> = info.params.iter().map(|s| s.name).collect();
        assert_eq!(names.len(), info.params.len(), "{}: duplicate parameter", info.name);
        for p in sets {
            let m = match info.elaborate(&p) {
                Ok(m) => m,
                Err(hw::BlockError::Param(_)) => continue, // a cross-parameter rule rejects this set
                Err(e) => panic!("{} {p}: {e}", info.name),
            };
            let acc = (info.storage)(&p).unwrap();
            let emitted = hw::stats::Storage::of(&m).total_bits() as i64;
            assert_eq!(emitted, acc.expected_bits(), "{} {p}: emitted storage vs {acc:#?}", info.name);
        }
    }
}
