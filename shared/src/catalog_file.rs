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
