//! Basic information rules (SPEC.md section 2).

use super::seen::Seen;
use super::syntax::{DNS_LABEL_MAX, is_label_key, is_label_value, max_name_prefix_len};
use super::{Cx, FieldPath, IssueCode, Report, field_key, field_path, require};
use crate::task::{Basic, RaySettings, Tag, TaskSpec, TaskType};

/// Most tags on one task.
pub const MAX_TAGS: usize = 20;

pub(super) fn check(cx: &Cx, report: &mut Report) {
    let basic = &cx.spec.basic;
    let at = |key| FieldPath::of(&[field_key!(TaskSpec: basic), key]);

    if require(report, &basic.region, || at(field_key!(Basic: region)))
        && cx.catalog.region(&basic.region).is_none()
    {
        report.push(at(field_key!(Basic: region)), IssueCode::RegionUnknown);
    }
    if require(report, &basic.cluster, || at(field_key!(Basic: cluster)))
        && cx.catalog.region(&basic.region).is_some()
        && cx.cluster.is_none()
    {
        report.push(at(field_key!(Basic: cluster)), IssueCode::ClusterUnknown);
    }
    if require(report, &basic.project_group, || {
        at(field_key!(Basic: project_group))
    }) {
        let member = cx
            .catalog
            .project_groups
            .iter()
            .any(|g| g.id == basic.project_group && g.members.contains(&cx.user.name));
        if !member {
            report.push(
                at(field_key!(Basic: project_group)),
                IssueCode::ProjectGroupNotMember,
            );
        }
    }
    name_prefix(cx, report);
    match basic.task_type {
        None => report.push(at(field_key!(Basic: task_type)), IssueCode::ValueRequired),
        // A PyTorchJob's spec with a RayJob's settings (an import, the API): they are
        // dropped on submit, as a switch of the type drops them; said at the type, since
        // the form shows no Ray section for it.
        Some(TaskType::PyTorchJob)
            if cx.spec.ray != RaySettings::default() || cx.spec.compute.head_spec.is_some() =>
        {
            report.push(at(field_key!(Basic: task_type)), IssueCode::TypeRayUnused);
        }
        Some(_) => {}
    }
    if require(report, &basic.time_zone, || {
        at(field_key!(Basic: time_zone))
    }) && !cx.catalog.time_zones.contains(&basic.time_zone)
    {
        report.push(at(field_key!(Basic: time_zone)), IssueCode::TimeZoneUnknown);
    }
    tags(cx, report);
}

fn name_prefix(cx: &Cx, report: &mut Report) {
    let prefix = &cx.spec.basic.name_prefix;
    let path = field_path!(TaskSpec: basic.name_prefix);
    if !require(report, prefix, || path.clone()) {
        return;
    }
    if !prefix
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        report.push(path.clone(), IssueCode::NamePrefixInvalidChars);
    }
    // The ends are judged only for characters the name may hold: an upper-case or
    // Chinese end is the characters' finding already, and "must end with a letter or
    // digit" beside `jumpA` read as wrong.
    if prefix.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        report.push(path.clone(), IssueCode::NamePrefixBadStart);
    }
    if prefix.ends_with('-') {
        report.push(path.clone(), IssueCode::NamePrefixBadEnd);
    }
    if let Some(task_type) = cx.spec.basic.task_type {
        let max = max_name_prefix_len(task_type, cx.spec.scheduled_workers());
        // Characters, as the message and the form's counter say: a valid prefix is ASCII,
        // so only one of other characters (already refused) counts otherwise than bytes.
        let len = prefix.chars().count();
        if len > max {
            report.push(path, IssueCode::NamePrefixTooLong { max, len });
        }
    }
}

/// Label-key prefixes (DNS domains) the platform and the operators own.
const RESERVED_TAG_DOMAINS: [&str; 8] = [
    "kubernetes.io",
    "k8s.io",
    "kueue.x-k8s.io",
    "volcano.sh",
    "ray.io",
    "kubeflow.org",
    "training.kubeflow.org",
    "scheduling.x-k8s.io",
];

/// Whether a tag key lies under a prefix the platform or an operator owns.
///
/// "Under" a domain means the key's prefix (before `/`) is that domain or one of its
/// subdomains: whoever owns `kubernetes.io` owns `node.kubernetes.io/…` and
/// `node-role.kubernetes.io/…` too (Kubernetes reserves `*.kubernetes.io` and `*.k8s.io`
/// this way), and Volcano's `scheduling.volcano.sh/…` keys belong to it like
/// `volcano.sh/…`. A match is on whole DNS labels, so `x-k8s.io` is not under `k8s.io`
/// (it is listed on its own where it matters) and `notray.io` is not under `ray.io`.
/// `berth.` is a prefix of the key itself, not a domain: it covers every domain the
/// platform may use (`berth.dev/…`, `berth.io/…`) and an unprefixed `berth.x`, but not a
/// user's own domain that merely contains the word (`team.berth.example.com/…`: the
/// platform cannot own every domain with a `berth` label).
fn is_reserved_tag_key(key: &str) -> bool {
    if key.starts_with("berth.") {
        return true;
    }
    let Some((prefix, _)) = key.split_once('/') else {
        return false;
    };
    RESERVED_TAG_DOMAINS.iter().any(|domain| {
        prefix == *domain
            || prefix
                .strip_suffix(domain)
                .is_some_and(|sub| sub.ends_with('.'))
    })
}

fn tags(cx: &Cx, report: &mut Report) {
    let tags = &cx.spec.basic.tags;
    let list = field_path!(TaskSpec: basic.tags);
    if tags.len() > MAX_TAGS {
        report.push(list.clone(), IssueCode::TagsTooMany { max: MAX_TAGS });
    }
    let policy = &cx.catalog.tags;
    let mut seen: Seen<()> = Seen::new();
    for (i, tag) in tags.iter().enumerate() {
        let at = list.index(i);
        let key_ok = require(report, &tag.key, || at.key(field_key!(Tag: key)));
        // SPEC.md caps the whole key, an optional prefix included, at 63 characters (a
        // label key's name alone may be 63 under a prefix of 253).
        if key_ok && (tag.key.len() > DNS_LABEL_MAX || !is_label_key(&tag.key)) {
            report.push(at.key(field_key!(Tag: key)), IssueCode::TagKeyInvalid);
        } else if key_ok && is_reserved_tag_key(&tag.key) {
            report.push(at.key(field_key!(Tag: key)), IssueCode::TagKeyReserved);
        }
        if !is_label_value(&tag.value) {
            report.push(at.key(field_key!(Tag: value)), IssueCode::TagValueInvalid);
        }
        if key_ok && !seen.insert(tag.key.as_str()) {
            report.push(at.key(field_key!(Tag: key)), IssueCode::TagDuplicate);
        }
        if key_ok && policy.validation && !policy.maintained.contains(tag) {
            report.push(at.clone(), IssueCode::TagNotMaintained);
        }
    }
}

/// The part of a tag filter that breaks the tag rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagPart {
    /// The key.
    Key,
    /// The value.
    Value,
}

impl TagPart {
    /// Its name in English, as the API's refusal says it.
    pub fn as_str(self) -> &'static str {
        match self {
            TagPart::Key => "key",
            TagPart::Value => "value",
        }
    }
}

/// A task list's tag filter, `key` or `key=value`: the tasks with a tag of that key, of
/// that value too when one is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagFilter {
    /// The tag key.
    pub key: String,
    /// The value; `None` matches any value.
    pub value: Option<String>,
}

impl TagFilter {
    /// Reads `key` or `key=value`, spaces around either left out (`team = nlp`): no
    /// tag's key or value holds one at its ends, and a newcomer's filter was refused for
    /// them (newcomer explorer).
    pub fn parse(text: &str) -> TagFilter {
        match text.split_once('=') {
            Some((key, value)) => TagFilter {
                key: key.trim().to_owned(),
                value: Some(value.trim().to_owned()),
            },
            None => TagFilter {
                key: text.trim().to_owned(),
                value: None,
            },
        }
    }

    /// Why no tag could match this filter, if none could: which part breaks the tag
    /// rules and the tag rule's finding. The rules are the spec
    /// check's own, run on a spec with this one tag, so that the server's refusal and the
    /// console's cannot drift from what a tag may be. Whether the tag is one of the
    /// maintained ones is no reason: a filter may look for any tag tasks have.
    pub fn refusal(
        &self,
        catalog: &crate::Catalog,
        user: &crate::User,
    ) -> Option<(TagPart, super::Issue)> {
        let mut spec = TaskSpec::default();
        spec.basic.tags = vec![Tag {
            key: self.key.clone(),
            value: self.value.clone().unwrap_or_default(),
        }];
        let report = super::check(&spec, catalog, &crate::Usage::default(), user).issues;
        let at = field_path!(TaskSpec: basic.tags);
        let broken = report.under(&at).find(|issue| {
            matches!(
                issue.code,
                IssueCode::TagKeyInvalid
                    | IssueCode::TagKeyReserved
                    | IssueCode::TagValueInvalid
                    | IssueCode::ValueRequired
            )
        })?;
        let part = if broken.code == IssueCode::TagValueInvalid {
            TagPart::Value
        } else {
            TagPart::Key
        };
        Some((part, broken.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::{TagFilter, is_reserved_tag_key};

    #[test]
    fn tag_filters_read_key_or_key_value_without_edge_spaces() {
        let filter = |key: &str, value: Option<&str>| TagFilter {
            key: key.into(),
            value: value.map(Into::into),
        };
        assert_eq!(TagFilter::parse("team=nlp"), filter("team", Some("nlp")));
        assert_eq!(
            TagFilter::parse(" team = nlp "),
            filter("team", Some("nlp"))
        );
        assert_eq!(TagFilter::parse("team"), filter("team", None));
        assert_eq!(TagFilter::parse("team="), filter("team", Some("")));
    }

    /// A filter is refused exactly when no tag could have its key or value (README: a
    /// filter no tag could match is a mistake to say); a tag the catalog does not
    /// maintain may still be on tasks made before its policy, so it is looked for.
    #[cfg(feature = "demo")]
    #[test]
    fn a_tag_filter_is_refused_for_the_part_no_tag_could_have() {
        let (mut catalog, user) = (crate::demo::catalog(), crate::demo::user());
        catalog.tags.validation = true;
        for (text, part) in [
            ("=x", "key"),
            ("-team", "key"),
            ("bad key!!", "key"),
            // Kubernetes' own prefixes, which no task's tag may take (low-vision recheck:
            // applied without a word, it found nothing).
            ("kubernetes.io/x=1", "key"),
            ("a.k8s.io/team", "key"),
            ("a=b=c", "value"),
            ("team=bad value", "value"),
        ] {
            let refusal = TagFilter::parse(text).refusal(&catalog, &user);
            assert_eq!(
                refusal.as_ref().map(|r| r.0.as_str()),
                Some(part),
                "{text:?}: {refusal:?}"
            );
        }
        for text in [
            "team",
            "team=nlp",
            "team=",
            "example.com/team=a.b_c-1",
            "never-maintained=x",
        ] {
            let refusal = TagFilter::parse(text).refusal(&catalog, &user);
            assert!(refusal.is_none(), "{text:?}: {refusal:?}");
        }
    }

    #[test]
    fn reserved_tag_keys_are_whole_domains_and_their_subdomains() {
        for key in [
            "kubernetes.io/x",
            "node.kubernetes.io/x",
            "k8s.io/x",
            "kueue.x-k8s.io/queue-name",
            "scheduling.x-k8s.io/pod-group",
            "scheduling.volcano.sh/queue-name",
            "ray.io/node-type",
            "training.kubeflow.org/job-name",
            "berth.dev/gpu-model",
            "berth.x",
        ] {
            assert!(is_reserved_tag_key(key), "{key}");
        }
        for key in [
            "team",
            "x-k8s.io/x",
            "notray.io/x",
            "kubernetes.iox/x",
            "example.com/kubernetes.io",
            "team.berth.example.com/x",
            "berth",
        ] {
            assert!(!is_reserved_tag_key(key), "{key}");
        }
    }
}

#[cfg(test)]
mod prefix_tests {
    use crate::IssueCode;
    use crate::validate::Lang;

    #[test]
    fn a_prefix_too_long_is_said_its_length_in_characters() {
        let spec = crate::demo::ray().with(|s| s.basic.name_prefix = "训".repeat(42));
        let said: Vec<_> = crate::validate(
            &spec,
            &crate::demo::catalog(),
            &crate::demo::usage(),
            &crate::demo::user(),
        )
        .into_localized(Lang::En)
        .into_iter()
        .filter(|i| matches!(i.code, IssueCode::NamePrefixTooLong { .. }))
        .map(|i| (i.code, i.message))
        .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].0, IssueCode::NamePrefixTooLong { max: 41, len: 42 });
        assert!(said[0].1.contains("42 characters"), "{}", said[0].1);
    }
}
