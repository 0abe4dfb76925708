//! Command rules and the torchrun lint (SPEC.md section 3).

use super::syntax::{ZERO_WIDTH, mentions};
use super::{Cx, IssueCode, Report, field_path, require};
use crate::injected::PYTORCH_DISTRIBUTED;
use crate::quota::Plan;
use crate::task::{TaskSpec, TaskType};

/// Longest command, in bytes.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

pub(super) fn check(cx: &Cx, plan: Option<&Plan>, report: &mut Report) {
    let command = &cx.spec.environment.command;
    let path = field_path!(TaskSpec: environment.command);
    if !require(report, command, || path.clone()) {
        return;
    }
    if command.len() > MAX_COMMAND_BYTES {
        report.push(
            path,
            IssueCode::CommandTooLong {
                max_bytes: MAX_COMMAND_BYTES,
            },
        );
        return;
    }
    // The command is an argument of `bash -c`: a C string, which ends at a NUL, so the
    // task would be refused at its start, after its queue and admission.
    if command.contains('\0') {
        report.push(path, IssueCode::CommandNul);
        return;
    }
    if let Some((line, found)) = pasted_char(command) {
        let found = found.to_string();
        report.push(path.clone(), IssueCode::CommandPastedChar { line, found });
    }
    if cx.spec.basic.task_type != Some(TaskType::PyTorchJob) {
        return;
    }
    let replicas = cx.spec.replicas();
    if command.contains("torchrun") || command.contains("torch.distributed.run") {
        let gpus = gpus_per_replica(cx, plan).filter(|&g| g > 0);
        // Two launches with the same wrong number are one thing to fix. Kept as the
        // numbers, not the findings: comparing findings brings `IssueCode`'s equality,
        // kilobytes of the validator package.
        let mut nprocs = Vec::new();
        let mut nnodes = Vec::new();
        for launch in launches(command) {
            if let Some(gpus) = gpus
                && let Some(written) = launch.nproc.filter(|&n| n != gpus && !nprocs.contains(&n))
            {
                nprocs.push(written);
                report.push(
                    path.clone(),
                    IssueCode::CommandNprocMismatch { written, gpus },
                );
            }
            if let Some(written) = launch
                .nnodes
                .filter(|&n| n != replicas && !nnodes.contains(&n))
            {
                nnodes.push(written);
                report.push(
                    path.clone(),
                    IssueCode::CommandNnodesMismatch { written, replicas },
                );
            }
        }
    }
    if replicas > 1
        && !PYTORCH_DISTRIBUTED
            .iter()
            .any(|name| mentions(command, name))
        && !command.contains("PET_")
    {
        report.push(path, IssueCode::CommandDistributedEnvUnused);
    }
}

/// Quotes and dashes a paste brings for the shell's own, which look like them: a finding
/// shows them as they are (blanks by their code points alone).
pub(super) const LOOKALIKES: [char; 7] = ['“', '”', '‘', '’', '–', '—', '−'];

/// The first character of `command` that came with a paste from a chat or a web page
/// and that the shell reads as part of a word, with its line: `python3 -c “print(1)”`,
/// `torchrun —nproc_per_node=8` and a non-breaking space between two words all fail only
/// when the task runs, after its queue (pasting researcher). Inside quotes and comments
/// such characters are text; a carriage return (a spec from Windows) is one anywhere.
fn pasted_char(command: &str) -> Option<(u64, char)> {
    let mut line = 1;
    let mut quote = None;
    let mut escaped = false;
    let mut comment = false;
    let mut word_start = true;
    for c in command.chars() {
        match c {
            '\r' => return Some((line, c)),
            '\n' => {
                line += 1;
                comment = false;
            }
            _ if comment => {}
            _ if escaped => escaped = false,
            '\\' if quote != Some('\'') => escaped = true,
            '\'' | '"' if quote.is_none() => quote = Some(c),
            _ if quote == Some(c) => quote = None,
            _ if quote.is_some() => {}
            '#' if word_start => comment = true,
            '\u{a0}' | '\u{202f}' | '\u{3000}' => return Some((line, c)),
            _ if LOOKALIKES.contains(&c) || ZERO_WIDTH.contains(&c) => return Some((line, c)),
            _ => {}
        }
        word_start = matches!(c, ' ' | '\t' | '\n' | ';' | '&' | '|' | '(');
    }
    None
}

/// GPUs one replica gets with the spec the task would start on or queue for, which is
/// not the first of the list when that one is skipped (over quota, or no node hosts it);
/// with the first while no spec is usable.
#[inline(always)]
fn gpus_per_replica(cx: &Cx, plan: Option<&Plan>) -> Option<u64> {
    let specs = &cx.spec.compute.specs;
    let id = plan
        .and_then(Plan::used)
        .map(|used| &used.spec)
        .or(specs.first())?;
    let spec = cx.cluster?.spec(id)?;
    // More than it takes is refused at its field: no number of processes matches it.
    let units = cx.spec.compute.units_per_node;
    if units > spec.max_units_per_node {
        return None;
    }
    spec.per_unit.gpu.checked_mul(u64::from(units))
}

/// What one launch of torchrun (or `python -m torch.distributed.run`) is given, as
/// literal numbers: `None` when absent or not a number (`"$WORLD_SIZE"`, `1:4`, `auto`).
#[derive(Debug, Default, PartialEq)]
struct Launch {
    nproc: Option<u64>,
    nnodes: Option<u64>,
}

/// Every launch of torchrun in `command`, each read from its own options only: those
/// between the launcher and its script, in the same simple command (`&&`, `||`, `;`,
/// `|`, `&` and line ends end one, unless after a backslash or in quotes). A flag of
/// another program (`prep.py --nnodes 3 && torchrun …`) or of the script (`train.py
/// --nnodes 3`) is not torchrun's, and a second launch (an evaluation after the training)
/// is read too. A comment (`#` starting a word, to the line's end) is not read, and
/// neither is what `echo` or `printf` prints.
fn launches(command: &str) -> Vec<Launch> {
    let mut found = Vec::new();
    let mut read = |segment: &str| found.extend(launch(segment));
    // Where the simple command being read began; `None` in a comment. Bytes, as every
    // separator is ASCII: a cut is always at a character's boundary.
    let mut from = Some(0);
    // A backslash keeps the character after it (a line continued with `\` goes on), but
    // not in single quotes; quotes keep separators and `#` (`echo "step #1" && torchrun`).
    let (mut escaped, mut word_start, mut quote) = (false, true, None);
    for (at, &b) in command.as_bytes().iter().enumerate() {
        match from {
            Some(start)
                if !escaped
                    && quote.is_none()
                    && (matches!(b, b';' | b'&' | b'|' | b'\n') || (b == b'#' && word_start)) =>
            {
                read(&command[start..at]);
                from = (b != b'#').then_some(at + 1);
            }
            Some(_) if !escaped && matches!(b, b'\'' | b'"') => {
                quote = match quote {
                    None => Some(b),
                    Some(q) if q == b => None,
                    open => open,
                };
            }
            None if b == b'\n' => from = Some(at + 1),
            _ => {}
        }
        word_start = b.is_ascii_whitespace() || matches!(b, b';' | b'&' | b'|' | b'(');
        escaped = !escaped && b == b'\\' && quote != Some(b'\'');
    }
    if let Some(start) = from {
        read(&command[start..]);
    }
    found
}

/// `word` without the quotes, backslashes and brackets around it.
fn unquote(word: &str) -> &str {
    word.trim_matches(|c| matches!(c, '"' | '\'' | '\\' | '(' | ')' | '{' | '}'))
}

/// The launch of torchrun in one simple command, if it has one.
#[inline(never)]
fn launch(segment: &str) -> Option<Launch> {
    let mut words = segment
        .split_whitespace()
        .map(unquote)
        .filter(|w| !w.is_empty());
    // What `echo` or `printf` prints is no launch: `printed` is set at the first word.
    let (mut module, mut first, mut printed) = (false, true, false);
    words.by_ref().find(|&word| {
        printed |= first && (word == "echo" || word == "printf");
        first = false;
        let is = (word.ends_with("torchrun")
            && (word.len() == 8 || word[..word.len() - 8].ends_with('/')))
            || (module && word == "torch.distributed.run");
        module = word == "-m";
        is && !printed
    })?;
    let mut launch = Launch::default();
    while let Some(word) = words.next() {
        // The script: what follows is its own.
        if !word.starts_with('-') {
            break;
        }
        let (name, inline) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (word, None),
        };
        // torchrun's options that take no value.
        if inline.is_none()
            && [
                "-m",
                "--module",
                "--standalone",
                "--no_python",
                "--no-python",
                "--run_path",
                "--run-path",
                "--virtual_local_rank",
                "--virtual-local-rank",
            ]
            .contains(&name)
        {
            continue;
        }
        let value = inline
            .or_else(|| words.next())
            .and_then(|v| unquote(v).parse().ok());
        // argparse keeps an option's last value.
        match name {
            "--nproc_per_node" | "--nproc-per-node" => launch.nproc = value,
            "--nnodes" => launch.nnodes = value,
            _ => {}
        }
    }
    Some(launch)
}

/// GPUs one replica of `task` gets with its `plan` (see the torchrun lint): the
/// `--nproc_per_node` a launch of it takes, which the form's example launch says.
pub fn gpus_per_replica_of(
    task: &TaskSpec,
    catalog: &crate::Catalog,
    usage: &crate::usage::Usage,
    user: &crate::User,
    plan: Option<&Plan>,
) -> Option<u64> {
    let cluster = catalog.cluster(&task.basic.region, &task.basic.cluster);
    let cx = Cx {
        spec: task,
        catalog,
        usage,
        user,
        cluster,
    };
    gpus_per_replica(&cx, plan)
}

#[cfg(test)]
mod tests {
    use super::{Launch, launches, pasted_char};

    /// What a paste from a chat or a web page brings is found at its line, as the shell
    /// would read it: outside quotes and comments only, but a carriage return anywhere
    /// (pasting researcher: each of these ran and failed).
    #[test]
    fn pasted_characters_are_found_where_the_shell_reads_them() {
        let cases = [
            ("python3 -c “print(1)”", Some((1, '“'))),
            (
                "cd /app\ntorchrun —nproc_per_node=8 train.py",
                Some((2, '—')),
            ),
            ("echo\u{a0}hello", Some((1, '\u{a0}'))),
            ("\u{feff}echo hi", Some((1, '\u{feff}'))),
            ("echo a\r\necho b", Some((1, '\r'))),
            ("echo \"He said “hi” — 你好\u{3000}世界\"", None),
            ("echo 'it’s – fine'", None),
            ("# copied from “the wiki” — step 1\necho ok", None),
            ("echo \"a \\\" “b”\" ok", None),
            ("echo a#“b”", Some((1, '“'))),
            ("echo 'a\nb' —x", Some((2, '—'))),
            ("torchrun --nproc_per_node=8 train.py", None),
        ];
        for (command, found) in cases {
            assert_eq!(pasted_char(command), found, "{command:?}");
        }
    }

    fn all(command: &str) -> Vec<Launch> {
        launches(command)
    }

    fn launch(nproc: Option<u64>, nnodes: Option<u64>) -> Launch {
        Launch { nproc, nnodes }
    }

    /// Units per node over what the spec takes are refused where they are typed; torchrun
    /// is not told to match them (portal explorer: "--nproc_per_node is 2 but one replica
    /// has 99 GPUs", read from the refused 99). Within the range it is.
    #[test]
    fn torchrun_is_not_told_to_match_units_per_node_out_of_range() {
        let codes = |units: u32| {
            let spec = crate::demo::pytorch().with(|s| {
                s.compute.specs = vec!["a100-1g".into()];
                s.compute.units_per_node = units;
                s.environment.command =
                    "torchrun --nnodes \"$WORLD_SIZE\" --nproc_per_node 2 train.py".into();
            });
            let report = crate::validate(
                &spec,
                &crate::demo::catalog(),
                &Default::default(),
                &crate::demo::user(),
            );
            report.codes()
        };
        let over = codes(99);
        assert!(
            over.contains(&"compute.units_per_node.out_of_range"),
            "{over:?}"
        );
        assert!(
            !over.contains(&"command.torchrun.nproc_per_node"),
            "{over:?}"
        );
        let within = codes(4);
        assert!(
            within.contains(&"command.torchrun.nproc_per_node"),
            "{within:?}"
        );
    }

    #[test]
    fn reads_literal_values_in_every_spelling() {
        for (command, nproc, nnodes) in [
            (
                "torchrun --nproc_per_node 8 --nnodes 2 x.py",
                Some(8),
                Some(2),
            ),
            (
                "torchrun --nproc-per-node=\"4\" --nnodes='3' x.py",
                Some(4),
                Some(3),
            ),
            (
                "/opt/conda/bin/torchrun --nproc_per_node=2 x.py",
                Some(2),
                None,
            ),
            (
                "python -m torch.distributed.run --nnodes=4 x.py",
                None,
                Some(4),
            ),
            (
                "torchrun --nnodes \"$WORLD_SIZE\" --nproc_per_node auto x.py",
                None,
                None,
            ),
            ("torchrun --nnodes 1:4 x.py", None, None),
            ("torchrun x.py", None, None),
        ] {
            assert_eq!(all(command), [launch(nproc, nnodes)], "{command}");
        }
    }

    #[test]
    fn only_the_launchers_own_options_count() {
        // Another program's flag before it, the script's after it (explorer: the first
        // `--nnodes` anywhere in the command was read).
        assert_eq!(
            all(
                "python prep.py --nnodes 3 && torchrun --nnodes \"$WORLD_SIZE\" --nproc_per_node 2 train.py --nnodes 5"
            ),
            [launch(Some(2), None)]
        );
        // Options with values and options without are stepped over, not taken for the
        // script.
        assert_eq!(
            all(
                "torchrun --standalone --master_port 29500 --rdzv-backend=c10d --no-python --nnodes 2 train.py"
            ),
            [launch(None, Some(2))]
        );
        // argparse keeps the last value given.
        assert_eq!(
            all("torchrun --nnodes 2 --nnodes 3 t.py"),
            [launch(None, Some(3))]
        );
    }

    #[test]
    fn every_launch_is_read() {
        for sep in [" && ", " || ", "; ", "\n", " | ", " & "] {
            let command = format!(
                "torchrun --nnodes 2 --nproc_per_node 2 train.py{sep}torchrun --nproc_per_node 8 eval.py"
            );
            assert_eq!(
                all(&command),
                [launch(Some(2), Some(2)), launch(Some(8), None)],
                "{command:?}"
            );
        }
    }

    #[test]
    fn comments_and_printed_text_are_not_launches() {
        // Verify helper: a commented-out launch and an echoed one were read.
        assert_eq!(
            all(
                "# torchrun --nnodes 3 old.py\ntorchrun --nnodes 2 train.py # not --nnodes 4; torchrun --nnodes 5"
            ),
            [launch(None, Some(2))]
        );
        assert_eq!(
            all("echo \"torchrun --nnodes 3\" && printf '%s' torchrun --nnodes 3"),
            []
        );
        // A `#` inside a word is no comment.
        assert_eq!(
            all("torchrun --rdzv-id=run#1 --nnodes 2 t.py"),
            [launch(None, Some(2))]
        );
    }

    #[test]
    fn quotes_keep_separators_and_hashes() {
        // Review: a quoted `#` was read as a comment, and the launch after it missed.
        for command in [
            "echo \"== step #1 ==\" && torchrun --nnodes 3 t.py",
            "NAME='exp #1' torchrun --nnodes 3 t.py",
            "echo \"a;#b\"; torchrun --nnodes 3 t.py",
            "echo 'a\\'; torchrun --nnodes 3 t.py",
        ] {
            assert_eq!(all(command), [launch(None, Some(3))], "{command}");
        }
    }

    #[test]
    fn launches_in_brackets_and_flags_without_values_are_read() {
        assert_eq!(
            all("(torchrun --nnodes 2 t.py) && { torchrun --nproc_per_node 4 e.py; }"),
            [launch(None, Some(2)), launch(Some(4), None)]
        );
        assert_eq!(
            all("torchrun --virtual-local-rank --nnodes 2 t.py"),
            [launch(None, Some(2))]
        );
    }

    #[test]
    fn continued_lines_do_not_cut_a_command() {
        assert_eq!(
            all("torchrun \\\n  --nnodes 3 \\\n  --nproc_per_node 2 train.py"),
            [launch(Some(2), Some(3))]
        );
        // After the script, a quoted separator cuts nothing that counts.
        assert_eq!(
            all("torchrun --nnodes 2 train.py --note \"a; --nnodes 5\""),
            [launch(None, Some(2))]
        );
    }
}
