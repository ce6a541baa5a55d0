//! Sweeps: a grid of runs (kernels x configurations x modes x engines x
//! policies x overrides) in parallel across cores, deterministically — every
//! run is independent and results are written in grid order, so the CSV is
//! the same at any thread count — with `--shard i/n` to spread a large grid
//! over machines (job `i` of `n` takes the grid points `p` with `p % n == i`,
//! e.g. `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`).

use rayon::prelude::*;

/// `i/n`: this machine's slice of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    pub fn parse(s: &str) -> Result<Shard, String> {
        let err = || format!("--shard `{s}`: expected i/n with 0 <= i < n (e.g. 3/16)");
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let (index, count): (usize, usize) = (i.trim().parse().map_err(|_| err())?, n.trim().parse().map_err(|_| err())?);
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }

    pub fn takes(&self, point: usize) -> bool {
        point % self.count == self.index
    }
}

/// Run `f` on every grid point of this shard with `threads` workers (0 =
/// one per core); `tick` is called once per finished point (a progress bar).
/// Results come back in grid order.
pub fn run<J: Sync, R: Send>(
    points: &[J],
    shard: Shard,
    threads: usize,
    f: impl Fn(&J) -> R + Sync,
    tick: impl Fn() + Sync,
) -> Result<Vec<(usize, R)>, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| format!("thread pool: {e}"))?;
    let mine: Vec<usize> = (0..points.len()).filter(|&p| shard.takes(p)).collect();
    let mut out: Vec<(usize, R)> = pool.install(|| {
        mine.par_iter()
            .map(|&p| {
                let r = f(&points[p]);
                tick();
                (p, r)
            })
            .collect()
    });
    out.sort_by_key(|(p, _)| *p);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_grid() {
        assert_eq!(Shard::parse("3/16").unwrap(), Shard { index: 3, count: 16 });
        assert!(Shard::parse("16/16").is_err() && Shard::parse("1").is_err() && Shard::parse("a/b").is_err());
        let points: Vec<u64> = (0..10).collect();
        let mut all = vec![];
        for i in 0..3 {
            let r = run(&points, Shard { index: i, count: 3 }, 2, |x| x * x, || {}).unwrap();
            all.extend(r);
        }
        all.sort();
        assert_eq!(all, points.iter().map(|&x| (x as usize, x * x)).collect::<Vec<_>>());
    }

    #[test]
    fn same_results_at_any_thread_count() {
        let points: Vec<u64> = (0..40).collect();
        let a = run(&points, Shard::ALL, 1, |x| x.wrapping_mul(0x9e3779b9), || {}).unwrap();
        let b = run(&points, Shard::ALL, 4, |x| x.wrapping_mul(0x9e3779b9), || {}).unwrap();
        assert_eq!(a, b);
    }
}
