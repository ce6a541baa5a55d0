//! Progress bars for long runs: drawn on standard error only when it is a
//! terminal, and only once a run has taken a second (short runs and piped
//! output stay clean).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// A hidden bar that appears after a second on a terminal.
#[derive(Clone)]
pub struct Bar {
    pb: ProgressBar,
    start: Instant,
}

impl Bar {
    /// `len`: the end position (None: a counter without an end); `template`:
    /// indicatif's template.
    pub fn new(len: Option<u64>, template: &str) -> Bar {
        let pb = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        pb.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        Bar { pb, start: Instant::now() }
    }

    pub fn update(&self, pos: u64, msg: impl FnOnce() -> String) {
        if self.pb.is_hidden() {
            if self.start.elapsed() < Duration::from_secs(1) || !std::io::stderr().is_terminal() {
                return;
            }
            self.pb.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.pb.set_position(pos);
        self.pb.set_message(msg());
    }

    pub fn finish(&self) {
        self.pb.finish_and_clear();
    }
}

/// A spinner with the elapsed time for a long step that reports no
/// progress of its own (an external tool: Verilator, yosys), on a terminal
/// only.
pub struct Spinner(ProgressBar);

impl Spinner {
    pub fn new(what: String) -> Spinner {
        let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if std::io::stderr().is_terminal() {
            pb.set_draw_target(ProgressDrawTarget::stderr());
            pb.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("a valid template"));
            pb.set_message(what);
            pb.enable_steady_tick(Duration::from_millis(200));
        }
        Spinner(pb)
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
