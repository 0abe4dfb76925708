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

/// SPEC.md section 8 (the platform's value wins) on a cluster: the RayJob submitter's
/// script takes the platform's context variables (`TASK_UUID`, `X_*`) out of the runtime
/// env's `env_vars` before `ray job submit` reads the file, and leaves the rest (KubeRay's
/// `RAY_*` too, which Ray reads as settings). Runs the rendered lines themselves (the
/// file's write and the filter, the file moved and Python named as here) with bash and
/// PyYAML, and reads the file back with PyYAML.
#[test]
fn the_submitter_takes_the_platforms_variables_out_of_the_runtime_env() {
    use shared::manifest::ray::{RUNTIME_ENV_FILE, submitter_command};
    let dir = std::env::temp_dir().join(format!("berth-runtime-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("runtime-env.yaml");
    let python = python();
    let run = |runtime_env: &str| {
        let command = submitter_command("python main.py", runtime_env);
        assert_eq!(command[..2], ["bash", "-ce"]);
        assert_eq!(command[3], "berth-submitter");
        // The kubelet hands the runtime env over with `$$` as `$` too.
        let runtime_env_arg = command[4].replace("$$", "$");
        // The kubelet hands the script over with `$$` as `$`.
        let script = command[2].replace("$$", "$");
        // From the file's write to the submit (a YAML's lines are lines of the script).
        let start = script
            .find("printf '%s' ")
            .expect("the runtime env is written");
        let end = script
            .find("\nif ! ray job status")
            .expect("then submitted");
        let steps = script[start..end]
            .replace(RUNTIME_ENV_FILE, &file.display().to_string())
            .replacen("\npython -c", &format!("\n{} -c", python.display()), 1);
        assert_eq!(
            steps.matches(" -c ").count(),
            1,
            "the write and the filter: {steps}"
        );
        let status = Command::new("bash")
            .arg("-ce")
            .arg(&steps)
            .arg("berth-submitter")
            .arg(&runtime_env_arg)
            .status()
            .expect("bash runs");
        assert!(status.success(), "{steps}");
        let read = Command::new(&python)
            .args([
                "-c",
                "import sys,yaml,json;print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
            ])
            .arg(&file)
            .output()
            .expect("python runs");
        assert!(read.status.success(), "{read:?}");
        let text = std::fs::read_to_string(&file).expect("written");
        let value: serde_json::Value = serde_json::from_slice(&read.stdout).expect("JSON");
        (text, value)
    };

    let (_, env) = run(
        "pip:\n  - ray[tune]==2.40.0\nenv_vars:\n  TASK_UUID: mine\n  X_USER_NAME: 'someone else'\n  \
         OMP_NUM_THREADS: \"8\"\n  RAY_DEDUP_LOGS: \"0\"\n  X_CLUSTER: $HOME\n",
    );
    assert_eq!(
        env,
        serde_json::json!({
            "pip": ["ray[tune]==2.40.0"],
            "env_vars": { "OMP_NUM_THREADS": "8", "RAY_DEDUP_LOGS": "0" }
        })
    );
    // Nothing of the platform's there: the file is as written, comments and all.
    let kept = "# tuned\nenv_vars:\n  OMP_NUM_THREADS: \"8\"  # per node\nworking_dir: .\n";
    let (text, _) = run(kept);
    assert_eq!(text, kept);
    // Not a mapping, no `env_vars`, or `env_vars` not a mapping: left to `ray job submit`
    // to judge.
    for kept in [
        "pip: [torch]\n",
        "- a\n- b\n",
        "env_vars:\n",
        "env_vars: [TASK_UUID]\n",
    ] {
        let (text, _) = run(kept);
        assert_eq!(text, kept);
    }
    std::fs::remove_dir_all(&dir).ok();
}
