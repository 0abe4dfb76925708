//! Command rules and the torchrun lint (SPEC.md section 3).

use super::syntax::mentions;
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
    if cx.spec.basic.task_type != Some(TaskType::PyTorchJob) {
        return;
    }
    let replicas = cx.spec.replicas();
    if command.contains("torchrun") || command.contains("torch.distributed.run") {
        if let Some(gpus) = gpus_per_replica(cx, plan).filter(|&g| g > 0)
            && let Some(written) =
                flag(command, &["--nproc_per_node", "--nproc-per-node"]).filter(|&n| n != gpus)
        {
            report.push(
                path.clone(),
                IssueCode::CommandNprocMismatch { written, gpus },
            );
        }
        if let Some(written) = flag(command, &["--nnodes"]).filter(|&n| n != replicas) {
            report.push(
                path.clone(),
                IssueCode::CommandNnodesMismatch { written, replicas },
            );
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

/// GPUs one replica gets with the spec the task would start on or queue for, which is
/// not the first of the list when that one is skipped (over quota, or no node hosts it);
/// with the first while no spec is usable.
fn gpus_per_replica(cx: &Cx, plan: Option<&Plan>) -> Option<u64> {
    let specs = &cx.spec.compute.specs;
    let id = plan
        .and_then(Plan::used)
        .map(|used| &used.spec)
        .or(specs.first())?;
    cx.cluster?
        .spec(id)?
        .per_unit
        .gpu
        .checked_mul(u64::from(cx.spec.compute.units_per_node))
}

/// The literal number given to one of `names` (`--flag 8` or `--flag=8`); `None` when
/// the flag is absent or its value is not a number (`"$WORLD_SIZE"`, `1:4`, `auto`).
fn flag(command: &str, names: &[&str]) -> Option<u64> {
    // A word can be the flag only if a name occurs in it, so the words wholly before the
    // first occurrence are skipped unread: splitting the whole command into words, once
    // per flag, was a twentieth of a `POST /validate`.
    let first = names.iter().filter_map(|name| command.find(name)).min()?;
    let start = command[..first]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(at, c)| at + c.len_utf8());
    flag_in_words(&command[start..], names)
}

/// The value of the first of `names` in `text`'s words, as `--name value` or
/// `--name=value`, quotes around either trimmed.
fn flag_in_words(text: &str, names: &[&str]) -> Option<u64> {
    let mut words = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''));
    while let Some(word) = words.next() {
        for name in names {
            if word == *name {
                return words
                    .next()?
                    .trim_matches(|c| c == '"' || c == '\'')
                    .parse()
                    .ok();
            }
            if let Some(value) = word
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
            {
                return value.trim_matches(|c| c == '"' || c == '\'').parse().ok();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::flag;

    /// [`flag`] as it read every word of the command (what skipping to the first
    /// name must not change).
    fn flag_of_every_word(command: &str, names: &[&str]) -> Option<u64> {
        super::flag_in_words(command, names)
    }

    #[test]
    fn skipping_to_the_first_name_reads_the_same_value() {
        let pieces = [
            "torchrun",
            "--nnodes",
            "--nnodes=2",
            "\"--nnodes\"",
            "'--nnodes=3'",
            "4",
            "\"5\"",
            "x--nnodes",
            "--nnodesx",
            "--nproc_per_node",
            "--nproc-per-node=8",
            "$WORLD_SIZE",
            "é",
            "--nnodes=\u{3000}",
            "1:4",
        ];
        let gaps = [" ", "  ", "\t", "\u{3000}", "\n", "\u{a0}"];
        let names: [&[&str]; 2] = [&["--nnodes"], &["--nproc_per_node", "--nproc-per-node"]];
        // Every command of up to four pieces, with gaps chosen by position.
        let mut commands = vec![String::new()];
        for length in 1..=4 {
            let mut next = Vec::new();
            for command in commands
                .iter()
                .filter(|c| c.split_whitespace().count() == length - 1)
            {
                for (i, piece) in pieces.iter().enumerate() {
                    let gap = gaps[(i + length) % gaps.len()];
                    next.push(format!("{command}{gap}{piece}"));
                }
            }
            commands.extend(next);
        }
        assert!(commands.len() > 50_000, "{}", commands.len());
        for command in &commands {
            for names in names {
                assert_eq!(
                    flag(command, names),
                    flag_of_every_word(command, names),
                    "{command:?}"
                );
            }
        }
    }

    #[test]
    fn reads_literal_flag_values_in_both_spellings() {
        assert_eq!(
            flag("torchrun --nproc_per_node 8 x.py", &["--nproc_per_node"]),
            Some(8)
        );
        assert_eq!(
            flag(
                "torchrun --nproc_per_node=\"4\" x.py",
                &["--nproc_per_node"]
            ),
            Some(4)
        );
        assert_eq!(
            flag("torchrun --nnodes \"$WORLD_SIZE\"", &["--nnodes"]),
            None
        );
        assert_eq!(flag("torchrun x.py", &["--nnodes"]), None);
    }
}
