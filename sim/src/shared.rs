//! One copy of equal read-only tables: the models of a block built with the
//! same parameters (one per SM of a GPU) derive the same wiring and port
//! layouts. Sharing them keeps one copy in the host's caches instead of one
//! per SM, where each SM's step would miss on its own.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// `v`, or an equal handle made before (the handles live as long as the
/// process: one per distinct table).
fn intern<A: Any + Clone + PartialEq + Send + Sync>(v: A) -> A {
    type Pool = HashMap<TypeId, Vec<Box<dyn Any + Send + Sync>>>;
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    let mut pool = POOL.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let list = pool.entry(TypeId::of::<A>()).or_default();
    if let Some(a) = list.iter().filter_map(|b| b.downcast_ref::<A>()).find(|a| **a == v) {
        return a.clone();
    }
    list.push(Box::new(v.clone()));
    v
}

/// A table, shared with every equal one.
pub fn shared<T: PartialEq + Send + Sync + 'static>(v: T) -> Arc<T> {
    intern(Arc::new(v))
}

/// A slice, shared with every equal one.
pub fn shared_slice<T: PartialEq + Send + Sync + 'static>(v: Vec<T>) -> Arc<[T]> {
    intern(Arc::<[T]>::from(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tables_are_one_copy_and_others_are_not() {
        let a = shared(vec![1u32, 2, 3]);
        let b = shared(vec![1u32, 2, 3]);
        let c = shared(vec![1u32, 2, 4]);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(*c, vec![1, 2, 4]);
        // Tables of another type never match, even with equal contents.
        let s = shared_slice(vec![1u32, 2, 3]);
        let t = shared_slice(vec![1u32, 2, 3]);
        assert!(Arc::ptr_eq(&s, &t));
        assert_eq!(&*s, &[1, 2, 3]);
        let u = shared_slice(vec![1u64, 2, 3]);
        assert_eq!(&*u, &[1, 2, 3]);
    }
}
