//! Runtime envs read by Berth's reader against PyYAML itself, the reader Ray uses: the
//! same texts go to both, and every text one accepts and the other refuses, or reads to
//! another value, is a failure. The texts are made here from pieces of the runtime envs
//! researchers write (keys, flow lists and mappings, quoted values, comments) joined by
//! the separators where YAML readers differ: tabs above all, which PyYAML refuses
//! anywhere but inside quotes, a block scalar's text or a comment.
//!
//! PyYAML comes from `.tools/venv` (scripts/install-tools.sh), or the Python named by
//! `BERTH_PYYAML_PYTHON`. Where yaml-rust2 is known to differ, outside what these texts
//! hold, the reader's own tests say so (`shared/src/validate/pyyaml.rs`).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A small deterministic generator (xorshift64*): the same texts on every run.
struct Pieces(u64);

impl Pieces {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// One runtime env: a few top-level keys, each with a value, a separator before it
    /// and maybe something after it.
    fn runtime_env(&mut self) -> String {
        const KEYS: &[&str] = &["pip", "env_vars", "working_dir", "conda", "py_modules"];
        const SEPARATORS: &[&str] = &[": ", ":\t", ": \t", ":  ", ":", ":\t\t"];
        const VALUES: &[&str] = &[
            "[torch, numpy]",
            "[torch,\tnumpy]",
            "[torch\t]",
            "[\ttorch]",
            "\t[torch]",
            "{HF_HOME: \"/data/hf\"}",
            "{HF_HOME:\t\"/data/hf\"}",
            "{A: '1', B: \"2\"}",
            "./src",
            "\"/data\tdir\"",
            "'tab\tinside'",
            "",
            "\n  - torch",
            "\n\t- torch",
            "\n  - torch\t",
            "\n  HF_HOME: \"/data/hf\"",
            "\n  HF_HOME:\t\"/data/hf\"",
            "\n  HF_HOME: /data/hf\t",
            "|\n  line\twith tab\n",
            "|\t\n  text\n",
            "1",
            "\"1\"",
            "yes",
            "[torch, numpy",
            "\"unclosed",
        ];
        const AFTER: &[&str] = &["", "\t", " ", " # note", "\t# note", " # a\ttab in a note"];
        const END: &[&str] = &["", "\n", "\n\t", "\n\n", "\n# end\t\n"];
        let mut text = String::new();
        for i in 0..=self.below(3) {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(self.pick(KEYS));
            text.push_str(self.pick(SEPARATORS));
            let value = self.pick(VALUES);
            text.push_str(value);
            // A block scalar's text ends at its line's end.
            if !value.ends_with('\n') {
                text.push_str(self.pick(AFTER));
            }
        }
        text.push_str(self.pick(END));
        text
    }
}

fn python() -> PathBuf {
    std::env::var_os("BERTH_PYYAML_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.tools/venv/bin/python"),
        PathBuf::from,
    )
}

#[test]
fn runtime_envs_are_accepted_refused_and_read_as_pyyaml_reads_them() {
    let mut pieces = Pieces(0x9e37_79b9_7f4a_7c15);
    let texts: Vec<String> = (0..4000).map(|_| pieces.runtime_env()).collect();
    let answers: Vec<serde_json::Value> = texts
        .iter()
        .map(|t| serde_json::from_str(&shared::validate::read_runtime_env(t)).expect("JSON"))
        .collect();
    let python = python();
    let mut oracle = Command::new(&python)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/pyyaml_oracle.py"
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): run scripts/install-tools.sh, or name a Python with \
                 PyYAML in BERTH_PYYAML_PYTHON",
                python.display()
            )
        });
    let input = serde_json::json!({ "texts": texts, "answers": answers }).to_string();
    oracle
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("the oracle reads");
    let output = oracle.wait_with_output().expect("the oracle ends");
    assert!(output.status.success(), "the oracle failed");
    let differences = String::from_utf8_lossy(&output.stdout);
    let count = differences.lines().count();
    let first: Vec<&str> = differences.lines().take(10).collect();
    assert_eq!(
        count,
        0,
        "{count} of {} texts read otherwise than by PyYAML, first:\n{}",
        texts.len(),
        first.join("\n")
    );
    // The texts are worth the name: both readers accept some and refuse some.
    let read = answers.iter().filter(|a| a[0] == "docs").count();
    assert!(read > 100 && read < texts.len() - 100, "{read} read");
}
