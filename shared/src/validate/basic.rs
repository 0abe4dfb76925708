//! Basic information rules (SPEC.md section 2).

use super::syntax::{is_label_key, is_label_value, max_name_prefix_len};
use super::{Cx, FieldPath, IssueCode, Report, require};
use std::collections::HashSet;

/// Most tags on one task.
pub const MAX_TAGS: usize = 20;

pub(super) fn check(cx: &Cx, report: &mut Report) {
    let basic = &cx.spec.basic;
    let at = |key| FieldPath::of(&["basic", key]);

    if require(report, &basic.region, || at("region")) && cx.catalog.region(&basic.region).is_none()
    {
        report.push(at("region"), IssueCode::RegionUnknown);
    }
    if require(report, &basic.cluster, || at("cluster"))
        && cx.catalog.region(&basic.region).is_some()
        && cx.cluster.is_none()
    {
        report.push(at("cluster"), IssueCode::ClusterUnknown);
    }
    if require(report, &basic.project_group, || at("project_group")) {
        let member = cx
            .catalog
            .project_groups
            .iter()
            .any(|g| g.id == basic.project_group && g.members.contains(&cx.user.name));
        if !member {
            report.push(at("project_group"), IssueCode::ProjectGroupNotMember);
        }
    }
    name_prefix(cx, report);
    if basic.task_type.is_none() {
        report.push(at("task_type"), IssueCode::ValueRequired);
    }
    if require(report, &basic.time_zone, || at("time_zone"))
        && !cx.catalog.time_zones.contains(&basic.time_zone)
    {
        report.push(at("time_zone"), IssueCode::TimeZoneUnknown);
    }
    tags(cx, report);
}

fn name_prefix(cx: &Cx, report: &mut Report) {
    let prefix = &cx.spec.basic.name_prefix;
    let path = FieldPath::of(&["basic", "name_prefix"]);
    if !require(report, prefix, || path.clone()) {
        return;
    }
    if !prefix
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        report.push(path.clone(), IssueCode::NamePrefixInvalidChars);
    }
    if !prefix.starts_with(|c: char| c.is_ascii_lowercase()) {
        report.push(path.clone(), IssueCode::NamePrefixBadStart);
    }
    if !prefix.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        report.push(path.clone(), IssueCode::NamePrefixBadEnd);
    }
    if let Some(task_type) = cx.spec.basic.task_type {
        let max = max_name_prefix_len(task_type, cx.spec.scheduled_workers());
        if prefix.len() > max {
            report.push(
                path,
                IssueCode::NamePrefixTooLong {
                    max,
                    len: prefix.len(),
                },
            );
        }
    }
}

fn tags(cx: &Cx, report: &mut Report) {
    let tags = &cx.spec.basic.tags;
    let list = FieldPath::of(&["basic", "tags"]);
    if tags.len() > MAX_TAGS {
        report.push(list.clone(), IssueCode::TagsTooMany { max: MAX_TAGS });
    }
    let policy = &cx.catalog.tags;
    let mut seen = HashSet::new();
    for (i, tag) in tags.iter().enumerate() {
        let at = list.index(i);
        let key_ok = require(report, &tag.key, || at.key("key"));
        if key_ok && !is_label_key(&tag.key) {
            report.push(at.key("key"), IssueCode::TagKeyInvalid);
        }
        if !is_label_value(&tag.value) {
            report.push(at.key("value"), IssueCode::TagValueInvalid);
        }
        if key_ok && !seen.insert(tag.key.as_str()) {
            report.push(at.key("key"), IssueCode::TagDuplicate);
        }
        if key_ok && policy.validation && !policy.maintained.contains(tag) {
            report.push(at.clone(), IssueCode::TagNotMaintained);
        }
    }
}
