//! The Kubernetes names the operators derive from a task's name, and their limits
//! (k8s/RULES.md section 1). Validation uses them for the name-prefix maximum; manifest
//! rendering uses them for the objects and pods it names.

use crate::vocab::TaskType;

/// Characters Berth appends to a name prefix: `-` and a 5-character random suffix.
pub const NAME_SUFFIX_LEN: usize = 6;

/// KubeRay's limit on a RayJob name (k8s/RULES.md 1.2).
pub const RAYJOB_NAME_MAX: usize = 47;

/// Longest DNS-1035 label, which Service names must be.
pub const DNS_LABEL_MAX: usize = 63;

/// The longest name prefix that keeps every derived Kubernetes name valid.
///
/// A PyTorchJob gets a Service per replica, `<name>-master-0` and `<name>-worker-<i>` for
/// `i < workers`, each at most 63 characters; a RayJob name is at most 47.
pub fn max_name_prefix_len(task_type: TaskType, workers: u32) -> usize {
    let name_max = match task_type {
        TaskType::RayJob => RAYJOB_NAME_MAX,
        TaskType::PyTorchJob => {
            let master = "-master-0".len();
            let worker = match workers {
                0 => 0,
                w => "-worker-".len() + (w - 1).to_string().len(),
            };
            DNS_LABEL_MAX - master.max(worker)
        }
    };
    name_max - NAME_SUFFIX_LEN
}

/// The alphabet of the random suffix: the API server's `generateName` alphabet (no
/// vowels, no `y`, no `0 1 3`), so no word or look-alike digit appears by chance.
pub const SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// The task's final name: `<prefix>-<suffix>`. The caller draws the suffix (this crate
/// has no randomness), from [`SUFFIX_ALPHABET`], [`NAME_SUFFIX_LEN`] − 1 characters long.
pub fn final_name(prefix: &str, suffix: &str) -> String {
    format!("{prefix}-{suffix}")
}

/// The five-character suffix for a 64-bit seed, in [`SUFFIX_ALPHABET`]: callers derive
/// the seed from the submit request id, so a retried submit gets the same name.
pub fn suffix_from(mut seed: u64) -> String {
    let base = SUFFIX_ALPHABET.len() as u64;
    (0..NAME_SUFFIX_LEN - 1)
        .map(|_| {
            let c = SUFFIX_ALPHABET[(seed % base) as usize] as char;
            seed /= base;
            c
        })
        .collect()
}

/// The PyTorchJob master's pod and Service name: `<name>-master-0`.
pub fn pytorch_master(name: &str) -> String {
    format!("{name}-master-0")
}

/// A PyTorchJob worker's pod and Service name: `<name>-worker-<i>`, `i` from 0.
pub fn pytorch_worker(name: &str, index: u32) -> String {
    format!("{name}-worker-{index}")
}

/// The Volcano PodGroup of a RayJob: `ray-<name>-pg`.
pub fn ray_pod_group(name: &str) -> String {
    format!("ray-{name}-pg")
}

/// The stable head Service KubeRay keeps for a RayJob: `<name>-head-svc`.
pub fn ray_head_service(name: &str) -> String {
    format!("{name}-head-svc")
}

/// A name prefix made of `text` by the prefix rules, `None` when nothing of it is left:
/// lower case, each run of other characters one `-`, from its first letter, at most `max`
/// characters, ending in a letter or digit. The console offers it beside a prefix that
/// breaks the rules ("My Run_2" → "my-run-2"; novice explorer: told the rule, left to
/// apply it). The console's alone, with its texts: in the validator package, which has no
/// use for it, its code still moved the package's own (+86 B in brotli). Full-width
/// letters and digits are read as theirs (`ｂｅｒｔ－ｆｔ`, typed in a Chinese input
/// method's full-width mode), and zero-width characters, pasted unseen, as nothing: they
/// cut `bert` into `be-rt` (pasting researcher).
#[cfg(feature = "console-texts")]
pub fn prefix_suggestion(text: &str, max: usize) -> Option<String> {
    let mut made = String::new();
    let plain = |c: char| match u32::from(c) {
        full @ 0xff01..=0xff5e => char::from_u32(full - 0xfee0).unwrap_or(c),
        _ => c,
    };
    let seen = text
        .chars()
        .filter(|c| !crate::validate::ZERO_WIDTH.contains(c));
    for c in seen.map(plain).map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || (c.is_ascii_digit() && !made.is_empty()) {
            made.push(c);
        } else if !made.is_empty() && !made.ends_with('-') {
            made.push('-');
        }
    }
    // ASCII only: bytes are characters.
    made.truncate(max);
    while made.ends_with('-') {
        made.pop();
    }
    (!made.is_empty()).then_some(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "console-texts")]
    #[test]
    fn a_prefix_suggestion_keeps_the_prefix_rules() {
        let suggested = |text: &str, max| prefix_suggestion(text, max);
        assert_eq!(suggested("My Run_2", 41).as_deref(), Some("my-run-2"));
        assert_eq!(
            suggested("ResNet50 基线 v1!", 41).as_deref(),
            Some("resnet50-v1")
        );
        assert_eq!(suggested("2nd--try-", 41).as_deref(), Some("nd-try"));
        assert_eq!(suggested("abc-def", 4).as_deref(), Some("abc"));
        assert_eq!(suggested("实验 1", 41), None);
        assert_eq!(
            suggested("ｂｅｒｔ－ｆｔ２", 41).as_deref(),
            Some("bert-ft2")
        );
        assert_eq!(suggested("be\u{200b}rt-ft", 41).as_deref(), Some("bert-ft"));
    }

    /// Whatever it is given, what it makes passes the prefix's own rules, as the check
    /// judges them.
    #[cfg(feature = "demo")]
    #[test]
    fn a_prefix_suggestion_passes_the_check() {
        let long = "Xy_".repeat(30);
        for text in ["A", "-a-", "a b c", "Z9 9", "__x__", "Ab.Cd", long.as_str()] {
            let mut spec = crate::demo::pytorch();
            let max = max_name_prefix_len(TaskType::PyTorchJob, spec.compute.workers);
            spec.basic.name_prefix = prefix_suggestion(text, max).expect(text);
            let check = crate::check(
                &spec,
                &crate::demo::catalog(),
                &crate::demo::usage(),
                &crate::demo::user(),
            );
            let at = crate::FieldPath::parse("basic.name_prefix");
            assert_eq!(
                check.issues.under(&at).count(),
                0,
                "{text} → {}: {:?}",
                spec.basic.name_prefix,
                check.issues
            );
        }
    }

    #[test]
    fn pytorch_prefix_shrinks_with_replica_digits() {
        assert_eq!(max_name_prefix_len(TaskType::PyTorchJob, 0), 48);
        assert_eq!(max_name_prefix_len(TaskType::PyTorchJob, 10), 48);
        assert_eq!(max_name_prefix_len(TaskType::PyTorchJob, 11), 47);
        assert_eq!(max_name_prefix_len(TaskType::PyTorchJob, 1024), 45);
        assert_eq!(max_name_prefix_len(TaskType::RayJob, 3), 41);
    }

    #[test]
    fn the_longest_worker_service_name_is_a_dns_label() {
        for workers in [1u32, 9, 10, 11, 100, 101, 1000, 1024] {
            let prefix = "a".repeat(max_name_prefix_len(TaskType::PyTorchJob, workers));
            let service = format!("{prefix}-abcde-worker-{}", workers - 1);
            // Exactly 63: one more prefix character would break the Service name.
            assert_eq!(service.len(), DNS_LABEL_MAX, "{service}");
        }
    }

    #[test]
    fn suffixes_are_five_characters_of_the_alphabet_and_stable() {
        let s = suffix_from(123_456_789);
        assert_eq!(s.len(), 5);
        assert!(s.bytes().all(|b| SUFFIX_ALPHABET.contains(&b)));
        assert_eq!(s, suffix_from(123_456_789));
        assert_ne!(s, suffix_from(123_456_790));
    }

    #[test]
    fn every_derived_pytorch_name_is_a_dns_label_at_the_longest_prefix() {
        for workers in [0u32, 1, 10, 11, 1024] {
            let prefix = "a".repeat(max_name_prefix_len(TaskType::PyTorchJob, workers));
            let name = final_name(&prefix, &suffix_from(7));
            assert!(pytorch_master(&name).len() <= DNS_LABEL_MAX);
            if workers > 0 {
                assert!(pytorch_worker(&name, workers - 1).len() <= DNS_LABEL_MAX);
            }
        }
        let ray = final_name(
            &"a".repeat(max_name_prefix_len(TaskType::RayJob, 3)),
            "bcdfg",
        );
        assert_eq!(ray.len(), RAYJOB_NAME_MAX);
    }
}
