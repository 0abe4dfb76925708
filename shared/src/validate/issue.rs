//! Findings: [`Issue`] (path, code, severity) and the [`Report`] that lists them.

use super::code::IssueCode;
pub use crate::messages::Lang;
use crate::path::FieldPath;
use serde::de;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// How much a finding matters (SPEC.md: errors block submission).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Blocks submission; the server answers 422.
    Error,
    /// Shown next to the field; the task may still be submitted.
    Warning,
    /// A hint.
    Info,
}

impl Severity {
    /// CSS-friendly name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding: where, which rule, how bad. Its message is rendered from the code and
/// its parameters only when someone reads it ([`Issue::message`]), in their language.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Issue {
    /// Field the finding is about (`compute.specs[0]`); empty for the whole spec.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub path: FieldPath,
    /// The rule and its parameters; on the wire `code` plus `params`.
    #[serde(flatten)]
    pub code: IssueCode,
    /// Error, warning or info; fixed per code.
    pub severity: Severity,
}

impl Issue {
    /// A finding at `path` for `code`, with its severity filled in.
    pub fn new(path: FieldPath, code: IssueCode) -> Self {
        Issue {
            path,
            severity: code.severity(),
            code,
        }
    }

    /// The message in one language.
    pub fn message(&self, lang: Lang) -> String {
        self.code.message(lang)
    }

    /// The finding as the API sends it, with its message in `lang`.
    pub fn localized(&self, lang: Lang) -> LocalizedIssue {
        self.clone().into_localized(lang)
    }

    /// [`Issue::localized`], moving the finding in: the validator package then carries
    /// no copy of every code's clone.
    pub fn into_localized(self, lang: Lang) -> LocalizedIssue {
        LocalizedIssue {
            message: self.message(lang),
            path: self.path,
            code: self.code,
            severity: self.severity,
        }
    }
}

/// A finding as the API sends it: where, which rule and how severe, with its message in
/// the reader's language (`?lang=` or `Accept-Language`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LocalizedIssue {
    /// Field the finding is about (`compute.specs[0]`); empty for the whole spec.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub path: FieldPath,
    /// The rule and its parameters; on the wire `code` plus `params`.
    #[serde(flatten)]
    pub code: IssueCode,
    /// Error, warning or info.
    pub severity: Severity,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// [`Issue`] and [`LocalizedIssue`] as the wire has them: the code's fields side by side
/// with the finding's. Read through this plain struct, not derived with
/// `#[serde(flatten)]`, which buffers the whole finding in serde's `Content` and reads
/// the code from there (BENCHMARKS.md). Other keys are ignored, as before.
#[derive(Deserialize)]
#[serde(rename = "Issue")]
struct WireIssue {
    path: FieldPath,
    code: String,
    #[serde(default)]
    params: Option<serde_json::Value>,
    severity: Severity,
    #[serde(default)]
    message: Option<String>,
}

impl WireIssue {
    fn read<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<(Issue, Option<String>), D::Error> {
        let wire = WireIssue::deserialize(deserializer)?;
        let code = IssueCode::from_wire(&wire.code, wire.params).map_err(de::Error::custom)?;
        let issue = Issue {
            path: wire.path,
            code,
            severity: wire.severity,
        };
        Ok((issue, wire.message))
    }
}

impl<'de> Deserialize<'de> for Issue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        WireIssue::read(deserializer).map(|(issue, _)| issue)
    }
}

impl<'de> Deserialize<'de> for LocalizedIssue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (issue, message) = WireIssue::read(deserializer)?;
        let message = message.ok_or_else(|| de::Error::missing_field("message"))?;
        Ok(LocalizedIssue {
            path: issue.path,
            code: issue.code,
            severity: issue.severity,
            message,
        })
    }
}

impl From<LocalizedIssue> for Issue {
    fn from(issue: LocalizedIssue) -> Self {
        Issue {
            path: issue.path,
            code: issue.code,
            severity: issue.severity,
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.message(Lang::En);
        if self.path.is_root() {
            write!(f, "{message} [{}]", self.code.code())
        } else {
            write!(f, "{}: {message} [{}]", self.path, self.code.code())
        }
    }
}

/// Every finding for one spec, in rule order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Report(Vec<Issue>);

impl Report {
    /// No findings.
    pub fn new() -> Self {
        Report(Vec::new())
    }

    /// Adds a finding at `path`.
    pub fn push(&mut self, path: FieldPath, code: IssueCode) {
        self.0.push(Issue::new(path, code));
    }

    /// Adds a finding made elsewhere (one read from the wire).
    pub fn push_issue(&mut self, issue: Issue) {
        self.0.push(issue);
    }

    /// Adds every finding of another report.
    pub fn extend(&mut self, other: Report) {
        self.0.extend(other.0);
    }

    /// All findings.
    pub fn issues(&self) -> &[Issue] {
        &self.0
    }

    /// Whether any finding blocks submission.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|i| i.severity == Severity::Error)
    }

    /// Whether there are no findings at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Findings at exactly this path.
    pub fn at<'a>(&'a self, path: &'a FieldPath) -> impl Iterator<Item = &'a Issue> + 'a {
        self.0.iter().filter(move |i| i.path == *path)
    }

    /// Findings at this path or beneath it.
    pub fn under<'a>(&'a self, path: &'a FieldPath) -> impl Iterator<Item = &'a Issue> + 'a {
        self.0.iter().filter(move |i| i.path.starts_with(path))
    }

    /// Blocking findings.
    pub fn errors(&self) -> impl Iterator<Item = &Issue> {
        self.0.iter().filter(|i| i.severity == Severity::Error)
    }

    /// Warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Issue> {
        self.0.iter().filter(|i| i.severity == Severity::Warning)
    }

    /// Every finding with its message in `lang`, as the API sends them.
    pub fn localized(&self, lang: Lang) -> Vec<LocalizedIssue> {
        self.0.iter().map(|i| i.localized(lang)).collect()
    }

    /// [`Report::localized`], moving the findings in.
    pub fn into_localized(self, lang: Lang) -> Vec<LocalizedIssue> {
        self.0.into_iter().map(|i| i.into_localized(lang)).collect()
    }

    /// The findings an answer keeps ([`cap_findings`]) and how many it leaves out.
    pub fn capped(self) -> (Report, usize) {
        let (kept, left_out) = cap_findings(self.0, |i| (i.code.code(), &i.path));
        (Report(kept), left_out)
    }

    /// The stable codes, in order: what tests and the corpus compare.
    pub fn codes(&self) -> Vec<&'static str> {
        self.0.iter().map(|i| i.code.code()).collect()
    }
}

/// Keeps, in order, at most [`MAX_FINDINGS_PER_CODE`](crate::api::MAX_FINDINGS_PER_CODE)
/// findings of one code at one field, and returns them with how many were left out.
///
/// A field is a path with its list positions left out: `environment.env[3].name` and
/// `environment.env[7].name` are one field, `environment.storage[0].path` and
/// `environment.datasets[0].path` are two. So the same mistake repeated down a list is
/// shown a few times and counted, while each field that has it is shown; the answer
/// stays bounded by the spec's fields and codes, whatever the size of the request.
pub fn cap_findings<T>(
    findings: Vec<T>,
    key: impl Fn(&T) -> (&'static str, &FieldPath),
) -> (Vec<T>, usize) {
    let total = findings.len();
    // Few findings cannot exceed the cap in any group: nothing to count.
    if total <= crate::api::MAX_FINDINGS_PER_CODE {
        return (findings, 0);
    }
    let mut seen: std::collections::HashMap<(&'static str, String), usize> =
        std::collections::HashMap::new();
    let mut kept = Vec::new();
    for finding in findings {
        let (code, path) = key(&finding);
        let n = seen.entry((code, field_of(path))).or_default();
        *n += 1;
        if *n <= crate::api::MAX_FINDINGS_PER_CODE {
            kept.push(finding);
        }
    }
    let left_out = total - kept.len();
    (kept, left_out)
}

/// A path's field: its text with the list positions left out
/// (`environment.env[].name`).
fn field_of(path: &FieldPath) -> String {
    let mut field = String::new();
    let mut in_index = false;
    for c in path.to_string().chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            _ if in_index && c.is_ascii_digit() => continue,
            _ => {}
        }
        field.push(c);
    }
    field
}

impl IntoIterator for Report {
    type Item = Issue;
    type IntoIter = std::vec::IntoIter<Issue>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for issue in &self.0 {
            writeln!(f, "{issue}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

#[cfg(all(test, feature = "demo"))]
mod tests {
    use crate::api::MAX_FINDINGS_PER_CODE;
    use crate::demo;

    fn check(spec: &crate::TaskSpec) -> super::Report {
        crate::check(spec, &demo::catalog(), &demo::usage(), &demo::user()).issues
    }

    fn count(report: &super::Report, code: &str, field: &str) -> usize {
        report
            .issues()
            .iter()
            .filter(|i| i.code.code() == code && super::field_of(&i.path) == field)
            .count()
    }

    fn with_bad_env(n: usize) -> crate::TaskSpec {
        demo::pytorch().with(|s| {
            let var = crate::task::EnvVar {
                name: "1BAD".into(),
                value: "x".into(),
                hidden: false,
            };
            s.environment.env = vec![var; n];
        })
    }

    #[test]
    fn thousands_of_env_vars_with_one_bad_name_give_a_bounded_answer_and_a_count() {
        let full = check(&with_bad_env(5_000));
        let all = full.issues().len();
        assert_eq!(
            count(&full, "env.name.invalid", "environment.env[].name"),
            5_000
        );
        let (kept, left_out) = full.capped();
        // Twenty of the repeated finding, the rest counted.
        assert_eq!(
            count(&kept, "env.name.invalid", "environment.env[].name"),
            MAX_FINDINGS_PER_CODE
        );
        assert_eq!(kept.issues().len() + left_out, all);
        // The first ones are kept, in order.
        let first = &kept.issues()[0];
        assert_eq!(first.path.to_string(), "environment.env[0].name");
        // Twice the entries: the same answer, a larger count.
        let twice = check(&with_bad_env(10_000));
        let all_twice = twice.issues().len();
        let (kept_twice, left_out_twice) = twice.capped();
        assert_eq!(kept_twice, kept);
        assert_eq!(left_out_twice, all_twice - kept.issues().len());
        let text = serde_json::to_string(&kept.localized(super::Lang::En)).expect("serialises");
        assert!(text.len() < 32 * 1024, "{} bytes", text.len());
    }

    #[test]
    fn one_code_at_two_fields_is_shown_at_each() {
        // Thirty relative volume paths and thirty relative dataset paths: one code,
        // two fields, twenty shown at each (a cap per code alone showed only volumes).
        let spec = demo::pytorch().with(|s| {
            let volume = s.environment.storage[0].clone();
            let dataset = s.environment.datasets[0].clone();
            s.environment.storage = (0..30)
                .map(|i| {
                    let mut m = volume.clone();
                    m.path = format!("rel/v{i}");
                    m
                })
                .collect();
            s.environment.datasets = (0..30)
                .map(|i| {
                    let mut m = dataset.clone();
                    m.path = format!("rel/d{i}");
                    m
                })
                .collect();
        });
        let full = check(&spec);
        let code = "mount.path.not_absolute";
        assert_eq!(count(&full, code, "environment.storage[].path"), 30);
        assert_eq!(count(&full, code, "environment.datasets[].path"), 30);
        let (kept, left_out) = full.capped();
        assert_eq!(count(&kept, code, "environment.storage[].path"), 20);
        assert_eq!(count(&kept, code, "environment.datasets[].path"), 20);
        assert!(left_out >= 20);
    }

    #[test]
    fn a_short_report_is_kept_whole() {
        let full = check(&with_bad_env(3));
        let (kept, left_out) = full.clone().capped();
        assert_eq!((kept, left_out), (full, 0));
    }
}
