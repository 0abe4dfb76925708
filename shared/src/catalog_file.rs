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
    /// shape its place, `catalog.regions[0].name`); or a node name used twice (usage is
    /// kept by node name).
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        let file: CatalogFile = crate::read::from_json(text)?;
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
