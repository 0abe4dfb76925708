//! The catalog file: what `BERTH_CATALOG` names and the demo ships. It holds what is
//! offered ([`Catalog`]) and what is already in use when the server starts ([`Usage`]),
//! and is read by one loader, [`CatalogFile::from_json`].

use crate::catalog::Catalog;
use crate::resources::Resources;
use crate::usage::Usage;
use crate::vocab::wire_name;
use serde::Serialize;

/// A value's name in the catalog file (`on_demand`).
fn wire(value: &impl Serialize) -> String {
    wire_name(value).unwrap_or_default()
}

/// A catalog file, as `BERTH_CATALOG` names it and as the demo ships: what is offered,
/// and what is already in use when the server starts (capacity taken outside Berth).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct CatalogFile {
    /// What is offered.
    pub catalog: Catalog,
    /// What is in use at start.
    pub usage: Usage,
}

impl CatalogFile {
    /// Reads a catalog file from JSON.
    ///
    /// # Errors
    ///
    /// The JSON error (a syntax error names the line and column, a value of the wrong
    /// shape its place, `catalog.regions[0].name`); an instance spec without a
    /// `max_units_per_node` of at least 1; a node name used twice (usage is kept by
    /// node name); an id used twice (a region's, a cluster's, a pool's, a
    /// spec's in its cluster, a project group's); a quota line that names a pool not in
    /// the catalog or a spec its pool's cluster does not sell; or an idle offer of a spec
    /// its cluster does not sell.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        let file: CatalogFile = crate::read::from_json(text)?;
        // A spec no node can host one unit of could never be chosen; and 0 is what a
        // units finding says when no known spec bounds the units.
        let specs = file
            .catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .flat_map(|c| &c.specs);
        if let Some(spec) = specs.into_iter().find(|s| s.max_units_per_node == 0) {
            return Err(serde::de::Error::custom(format!(
                "instance spec `{}` has no `max_units_per_node` (or 0); it must be at least 1",
                spec.id
            )));
        }
        // A cluster's queue and priority class names go into each job's labels, which
        // the API server checks: a wrong one refused every job there, while the catalog
        // loaded and every check passed (manifest audit). They also name objects (a
        // LocalQueue, a Volcano Queue, a PriorityClass), so no capital or '_' either.
        for cluster in file.catalog.regions.iter().flat_map(|r| &r.clusters) {
            let kube = &cluster.kubernetes;
            let queue = match &kube.admission {
                crate::catalog::Admission::None => None,
                crate::catalog::Admission::Kueue { local_queue } => {
                    Some(("admission.local_queue", local_queue))
                }
                crate::catalog::Admission::Volcano { queue } => Some(("admission.queue", queue)),
            };
            let classes = &kube.priority_classes;
            let named = queue.into_iter().chain(
                [
                    ("priority_classes.low", &classes.low),
                    ("priority_classes.normal", &classes.normal),
                    ("priority_classes.high", &classes.high),
                ]
                .into_iter()
                .filter_map(|(key, name)| name.as_ref().map(|n| (key, n))),
            );
            for (key, name) in named {
                // An object name (a subdomain, never empty) that fits a label value.
                let fits = crate::validate::is_dns_subdomain(name)
                    && crate::validate::is_label_value(name);
                if !fits {
                    return Err(serde::de::Error::custom(format!(
                        "cluster `{}`: kubernetes.{key} `{name}` cannot name the object and be a label value on each job: 1 to 63 lower-case letters, digits, '-' or '.', a letter or digit at each end",
                        cluster.id
                    )));
                }
            }
        }
        check_ids(&file.catalog)?;
        check_contents(&file.catalog)?;
        let mut names = std::collections::BTreeSet::new();
        for node in file.catalog.nodes() {
            if !names.insert(node.name.as_str()) {
                return Err(serde::de::Error::custom(format!(
                    "node name `{}` is used twice; node names must be unique in the catalog",
                    node.name
                )));
            }
        }
        if let Some(name) = file
            .usage
            .nodes
            .keys()
            .find(|n| !names.contains(n.as_str()))
        {
            return Err(serde::de::Error::custom(format!(
                "usage names node `{name}`, which is not in the catalog"
            )));
        }
        Ok(file)
    }
}

/// What a catalog that reads can still get wrong, each of which loaded and was met by
/// users only as "can never start" or "no quota" (lab admin explorer): a field left out
/// reads as 0 or none, so a spec without `per_unit` let any task through.
fn check_contents(catalog: &crate::catalog::Catalog) -> Result<(), serde_json::Error> {
    let fail = |what: String| Err(serde::de::Error::custom(what));
    for cluster in catalog.regions.iter().flat_map(|r| &r.clusters) {
        let c = &cluster.id;
        if let Some(spec) = cluster.specs.iter().find(|s| s.per_unit == Resources::ZERO) {
            return fail(format!(
                "cluster `{c}`: instance spec `{}` has no `per_unit` (or all 0): give the `gpu`, `vcpu` and `memory_gib` one unit has",
                spec.id
            ));
        }
        let nodes = || cluster.pools.iter().flat_map(|p| &p.nodes);
        if let Some(node) = nodes().find(|n| n.total == Resources::ZERO) {
            return fail(format!(
                "cluster `{c}`: node `{}` has no `total` (or all 0): give the `gpu`, `vcpu` and `memory_gib` it has",
                node.name
            ));
        }
        // A GPU model written otherwise than its nodes': only a case apart is surely a
        // slip (a spec may be sold before its nodes are listed).
        for spec in &cluster.specs {
            let Some(model) = &spec.gpu_model else {
                continue;
            };
            let models: Vec<&str> = nodes().filter_map(|n| n.gpu_model.as_deref()).collect();
            if !models.contains(&model.as_str())
                && let Some(near) = models.iter().find(|m| m.eq_ignore_ascii_case(model))
            {
                return fail(format!(
                    "cluster `{c}`: instance spec `{}` has GPU model `{model}`, and its nodes `{near}`: write it as the nodes do (the model is compared exactly)",
                    spec.id
                ));
            }
        }
        for (what, ids) in [
            (
                "volume",
                cluster
                    .volumes
                    .iter()
                    .map(|v| v.id.as_str())
                    .collect::<Vec<_>>(),
            ),
            (
                "dataset",
                cluster.datasets.iter().map(|d| d.id.as_str()).collect(),
            ),
            (
                "model",
                cluster.models.iter().map(|m| m.id.as_str()).collect(),
            ),
        ] {
            if let Some(id) = ids
                .iter()
                .enumerate()
                .find_map(|(i, id)| ids[..i].contains(id).then_some(id))
            {
                return fail(format!(
                    "cluster `{c}`: {what} id `{id}` is used twice; a mount names its {what} by id, so each must be unique in its cluster"
                ));
            }
        }
    }
    for (i, quota) in catalog.quotas.iter().enumerate() {
        let Some(kind) = quota.kind else {
            return fail(format!(
                "quotas[{i}] (user `{}`) has no `kind`: give `reserved` or `on_demand`",
                quota.user
            ));
        };
        let pool = catalog
            .regions
            .iter()
            .flat_map(|r| &r.clusters)
            .find_map(|c| c.pool(&quota.pool));
        if let Some(pool) = pool.filter(|p| !p.kinds.contains(&kind)) {
            return fail(format!(
                "quotas[{i}] (user `{}`) is of kind `{}`, which pool `{}` does not serve (its `kinds`: {}); such a line could never be used",
                quota.user,
                wire(&kind),
                pool.id,
                pool.kinds
                    .iter()
                    .map(|k| format!("`{}`", wire(k)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(())
}

/// Ids are what choices, quotas and usage name: one used twice, or a name that matches
/// none, loaded and left users without a choice or a quota, said only at the form as
/// "you have no quota" (operator's exploratory test).
fn check_ids(catalog: &crate::catalog::Catalog) -> Result<(), serde_json::Error> {
    use std::collections::{BTreeMap, BTreeSet};
    let fail = |what: String| Err(serde::de::Error::custom(what));
    let mut regions = BTreeSet::new();
    // Across regions too: idle capacity is kept by cluster id (`idle/<cluster>/…`), so
    // two regions' clusters of one id would share it (review).
    let mut clusters = BTreeSet::new();
    let mut pools = BTreeMap::new();
    for region in &catalog.regions {
        if !regions.insert(region.id.as_str()) {
            return fail(format!(
                "region id `{}` is used twice; region ids must be unique in the catalog",
                region.id
            ));
        }
        for cluster in &region.clusters {
            if !clusters.insert(cluster.id.as_str()) {
                return fail(format!(
                    "region `{}`: cluster id `{}` is used twice; cluster ids must be unique in the catalog, across regions",
                    region.id, cluster.id
                ));
            }
            let mut specs = BTreeSet::new();
            for spec in &cluster.specs {
                if !specs.insert(spec.id.as_str()) {
                    return fail(format!(
                        "cluster `{}`: instance spec id `{}` is used twice; spec ids must be unique in their cluster",
                        cluster.id, spec.id
                    ));
                }
            }
            for pool in &cluster.pools {
                if pools.insert(pool.id.as_str(), cluster).is_some() {
                    return fail(format!(
                        "pool id `{}` is used twice; pool ids must be unique in the catalog, as quotas name a pool by its id alone",
                        pool.id
                    ));
                }
            }
            if let Some(offer) = cluster
                .idle
                .iter()
                .find(|o| cluster.spec(&o.spec).is_none())
            {
                return fail(format!(
                    "cluster `{}`: an idle offer names spec `{}`, which the cluster's `specs` do not list",
                    cluster.id, offer.spec
                ));
            }
        }
    }
    let mut groups = BTreeSet::new();
    if let Some(group) = catalog
        .project_groups
        .iter()
        .find(|g| !groups.insert(g.id.as_str()))
    {
        return fail(format!(
            "project group id `{}` is used twice; group ids must be unique in the catalog",
            group.id
        ));
    }
    for (i, quota) in catalog.quotas.iter().enumerate() {
        match pools.get(quota.pool.as_str()) {
            None => {
                return fail(format!(
                    "quotas[{i}] (user `{}`) names pool `{}`, which is not in the catalog",
                    quota.user, quota.pool
                ));
            }
            Some(cluster) if cluster.spec(&quota.spec).is_none() => {
                return fail(format!(
                    "quotas[{i}] (user `{}`) names spec `{}`, which cluster `{}` of pool `{}` does not list in its `specs`",
                    quota.user, quota.spec, cluster.id, quota.pool
                ));
            }
            Some(_) => {}
        }
        // A line given twice: the first was used and the second, written to tighten
        // or widen it, silently not (operator explorer).
        if let Some(first) = catalog.quotas[..i].iter().position(|q| {
            (&q.user, q.kind, &q.pool, &q.spec)
                == (&quota.user, quota.kind, &quota.pool, &quota.spec)
        }) {
            return fail(format!(
                "quotas[{i}] gives user `{}` a quota of spec `{}` in pool `{}` that quotas[{first}] gives already: give each user, kind, pool and spec one line",
                quota.user, quota.spec, quota.pool
            ));
        }
    }
    // A persistent env var is put into every task of its user: a name twice gave the
    // task two values (operator explorer). Its name is not checked by the env rules
    // here: calling them from this loader too cost the validator package, which
    // carries them, past its 100 KB goal (README, known gaps).
    for (i, var) in catalog.persistent_env.iter().enumerate() {
        if catalog.persistent_env[..i]
            .iter()
            .any(|v| v.user == var.user && v.name == var.name)
        {
            return fail(format!(
                "persistent_env[{i}] names `{}` for user `{}` again: give each user's variable once",
                var.name, var.user
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::CatalogFile;

    fn kube_of(file: &mut CatalogFile) -> &mut crate::catalog::KubeSettings {
        &mut file.catalog.regions[0].clusters[0].kubernetes
    }

    #[test]
    fn queue_and_priority_class_names_that_no_label_can_hold_are_refused() {
        let text = include_str!("../demo/catalog.json");
        let file = CatalogFile::from_json(text).expect("the demo catalog reads");
        for (bad, key) in [
            ("Berth Queue!", "admission.local_queue"),
            ("Berth_Queue", "admission.local_queue"),
            ("berth_queue", "admission.queue"),
            ("Berth-High", "priority_classes.normal"),
            ("berth-.high", "priority_classes.normal"),
            (&*"q".repeat(64), "admission.queue"),
            ("", "admission.queue"),
            (&*"n".repeat(64), "priority_classes.normal"),
        ] {
            let mut changed = file.clone();
            let kube = kube_of(&mut changed);
            match key {
                "admission.local_queue" => {
                    kube.admission = crate::catalog::Admission::Kueue {
                        local_queue: bad.to_owned(),
                    }
                }
                "admission.queue" => {
                    kube.admission = crate::catalog::Admission::Volcano {
                        queue: bad.to_owned(),
                    }
                }
                _ => kube.priority_classes.normal = Some(bad.to_owned()),
            }
            let text = serde_json::to_string(&changed).expect("JSON");
            let err = CatalogFile::from_json(&text).expect_err(key).to_string();
            assert!(err.contains(&format!("kubernetes.{key} `{bad}`")), "{err}");
        }
        let mut fine = file.clone();
        kube_of(&mut fine).admission = crate::catalog::Admission::Volcano {
            queue: "q".repeat(63),
        };
        let text = serde_json::to_string(&fine).expect("JSON");
        CatalogFile::from_json(&text).expect("63 characters fit a label");
        kube_of(&mut fine).priority_classes.high = Some("berth.high-1".to_owned());
        let text = serde_json::to_string(&fine).expect("JSON");
        CatalogFile::from_json(&text).expect("dots and dashes inside a name are fine");
    }

    /// The demo catalog with one change made to its JSON, read.
    fn demo_changed(change: impl FnOnce(&mut serde_json::Value)) -> Result<CatalogFile, String> {
        let mut value: serde_json::Value =
            serde_json::from_str(include_str!("../demo/catalog.json")).expect("JSON");
        change(&mut value);
        CatalogFile::from_json(&value.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn ids_used_twice_and_names_that_match_no_id_are_refused_by_name() {
        demo_changed(|_| {}).expect("the demo catalog reads");
        type Change = fn(&mut serde_json::Value);
        let cases: [(&str, Change); 11] = [
            ("quotas[0] (user `alice`) names spec `nosuch`", |c| {
                c["catalog"]["quotas"][0]["spec"] = "nosuch".into();
            }),
            (
                "quotas[0] (user `alice`) names pool `nosuch`, which is not in the catalog",
                |c| {
                    c["catalog"]["quotas"][0]["pool"] = "nosuch".into();
                },
            ),
            ("instance spec id `h100-1g` is used twice", |c| {
                let specs = &mut c["catalog"]["regions"][0]["clusters"][0]["specs"];
                let first = specs[0].clone();
                specs.as_array_mut().unwrap().push(first);
            }),
            (
                "is used twice; pool ids must be unique in the catalog",
                |c| {
                    let pools = &mut c["catalog"]["regions"][0]["clusters"][0]["pools"];
                    let mut first = pools[0].clone();
                    first["nodes"] = serde_json::json!([]);
                    pools.as_array_mut().unwrap().push(first);
                },
            ),
            ("region id `", |c| {
                let regions = &mut c["catalog"]["regions"];
                let mut first = regions[0].clone();
                first["clusters"] = serde_json::json!([]);
                regions.as_array_mut().unwrap().push(first);
            }),
            ("cluster id `", |c| {
                let clusters = &mut c["catalog"]["regions"][0]["clusters"];
                let mut first = serde_json::json!({"id": clusters[0]["id"].clone()});
                first["name"] = "again".into();
                clusters.as_array_mut().unwrap().push(first);
            }),
            ("unique in the catalog, across regions", |c| {
                let id = c["catalog"]["regions"][0]["clusters"][0]["id"].clone();
                let clusters = &mut c["catalog"]["regions"][1]["clusters"];
                clusters
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!({"id": id}));
            }),
            ("an idle offer names spec `nosuch`", |c| {
                let cluster = &mut c["catalog"]["regions"][0]["clusters"][0];
                cluster["idle"] = serde_json::json!([{
                    "spec": "nosuch", "stability": "high", "quantity": 1, "fragments": []
                }]);
            }),
            ("project group id `", |c| {
                let groups = &mut c["catalog"]["project_groups"];
                let first = groups[0].clone();
                groups.as_array_mut().unwrap().push(first);
            }),
            // The operator explorer's: a line given again to tighten it, silently not.
            ("that quotas[0] gives already", |c| {
                let quotas = &mut c["catalog"]["quotas"];
                let mut again = quotas[0].clone();
                again["limit"] = serde_json::json!({"gpu": 2});
                quotas.as_array_mut().unwrap().push(again);
            }),
            ("for user `alice` again", |c| {
                let vars = &mut c["catalog"]["persistent_env"];
                let first = vars[0].clone();
                vars.as_array_mut().unwrap().push(first);
            }),
        ];
        for (said, change) in cases {
            let err = demo_changed(change).expect_err(said);
            assert!(err.contains(said), "{said}: {err}");
        }
    }

    /// Lab admin explorer: a field left out read as 0 or none and the catalog loaded (a
    /// spec without `per_unit` let any task through its quota); a GPU model a case apart
    /// from its nodes', a quota of a kind its pool does not serve and a mount id twice
    /// loaded too, each met by users as "can never start" or "no quota".
    #[test]
    fn what_reads_but_cannot_be_meant_is_refused_by_name() {
        type Change = fn(&mut serde_json::Value);
        let cases: [(&str, Change); 7] = [
            (
                "instance spec `h100-1g` has no `per_unit` (or all 0)",
                |c| {
                    let spec = &mut c["catalog"]["regions"][0]["clusters"][0]["specs"][0];
                    spec.as_object_mut().unwrap().remove("per_unit");
                },
            ),
            ("has no `total` (or all 0)", |c| {
                let node = &mut c["catalog"]["regions"][0]["clusters"][0]["pools"][0]["nodes"][0];
                node.as_object_mut().unwrap().remove("total");
            }),
            ("has GPU model `h100`, and its nodes `H100`", |c| {
                let spec = &mut c["catalog"]["regions"][0]["clusters"][0]["specs"][0];
                spec["gpu_model"] = "h100".into();
            }),
            ("volume id `", |c| {
                let volumes = &mut c["catalog"]["regions"][0]["clusters"][0]["volumes"];
                let first = volumes[0].clone();
                volumes.as_array_mut().unwrap().push(first);
            }),
            ("dataset id `", |c| {
                let datasets = &mut c["catalog"]["regions"][0]["clusters"][0]["datasets"];
                let first = datasets[0].clone();
                datasets.as_array_mut().unwrap().push(first);
            }),
            ("quotas[0] (user `alice`) has no `kind`", |c| {
                c["catalog"]["quotas"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("kind");
            }),
            ("which pool `sh-a-h100` does not serve", |c| {
                c["catalog"]["quotas"][0]["kind"] = "spot".into();
            }),
        ];
        for (said, change) in cases {
            let err = demo_changed(change).expect_err(said);
            assert!(err.contains(said), "{said}: {err}");
        }
    }

    #[test]
    fn a_spec_that_hosts_no_unit_is_refused_by_name() {
        let text = include_str!("../demo/catalog.json");
        let first = text
            .find("\"max_units_per_node\": ")
            .expect("the demo catalog has specs");
        let digits = text[first + 22..]
            .find(|c: char| !c.is_ascii_digit())
            .expect("a number");
        let zero = format!("{}0{}", &text[..first + 22], &text[first + 22 + digits..]);
        let err = CatalogFile::from_json(&zero).expect_err("0 units is refused");
        assert!(
            err.to_string().contains("instance spec `h100-1g`")
                && err.to_string().contains("must be at least 1"),
            "{err}"
        );
        assert!(CatalogFile::from_json(text).is_ok());
    }
}
