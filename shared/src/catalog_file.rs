//! The catalog file: what `BERTH_CATALOG` names and the demo ships. It holds what is
//! offered ([`Catalog`]) and what is already in use when the server starts ([`Usage`]),
//! and is read by one loader, [`CatalogFile::from_json`].

use crate::catalog::Catalog;
use crate::usage::Usage;
use serde::Serialize;

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
    /// `max_units_per_node` of at least 1; or a node name used twice (usage is kept by
    /// node name).
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
