//! Findings: [`Issue`] (path, code, severity) and the [`Report`] that lists them.

use super::code::IssueCode;
pub use crate::messages::Lang;
use crate::path::FieldPath;
use serde::{Deserialize, Serialize};
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        LocalizedIssue {
            path: self.path.clone(),
            code: self.code.clone(),
            severity: self.severity,
            message: self.message(lang),
        }
    }
}

/// A finding as the API sends it: the [`Issue`] and its message in the reader's language
/// (`?lang=` or `Accept-Language`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

    /// The stable codes, in order: what tests and the corpus compare.
    pub fn codes(&self) -> Vec<&'static str> {
        self.0.iter().map(|i| i.code.code()).collect()
    }
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
