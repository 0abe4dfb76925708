//! The state every handler shares.

pub use crate::config::{Config, ConfigError};
use shared::CatalogFile;
use shared::usage::Usage;
use shared::{Catalog, User};
use std::path::PathBuf;
use std::sync::Arc;

/// What handlers share; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Settings.
    pub config: Arc<Config>,
    /// The catalog every request is checked against.
    pub catalog: Arc<Catalog>,
    /// Live usage of the catalog's nodes and quota lines.
    pub usage: Arc<Usage>,
}

impl AppState {
    /// Loads the catalog named by the configuration, or the demo catalog.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when the catalog file cannot be read or parsed.
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        // The demo goes through the same loader as a file named by BERTH_CATALOG.
        let (path, text) = match &config.catalog {
            Some(path) => (
                path.clone(),
                std::fs::read_to_string(path).map_err(|source| ConfigError::ReadCatalog {
                    path: path.clone(),
                    source,
                })?,
            ),
            None => (
                PathBuf::from("(the demo catalog)"),
                shared::demo::CATALOG_FILE.to_owned(),
            ),
        };
        let file = CatalogFile::from_json(&text)
            .map_err(|source| ConfigError::ParseCatalog { path, source })?;
        Ok(AppState {
            config: Arc::new(config),
            catalog: Arc::new(file.catalog),
            usage: Arc::new(file.usage),
        })
    }

    /// The user a request acts as.
    pub fn user(&self) -> User {
        if let Some(user) = self
            .config
            .users
            .iter()
            .find(|u| u.name == self.config.user)
        {
            return user.clone();
        }
        let demo = shared::demo::user();
        if self.config.user == demo.name {
            demo
        } else {
            User {
                name: self.config.user.clone(),
                ..demo
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config_with_catalog(text: &str) -> Config {
        let path = std::env::temp_dir().join(format!(
            "berth-catalog-{}-{}.json",
            std::process::id(),
            text.len()
        ));
        std::fs::write(&path, text).expect("temp dir is writable");
        Config {
            catalog: Some(path),
            ..Config::demo(PathBuf::from("dist"))
        }
    }

    #[test]
    fn a_catalog_file_with_a_misspelt_field_is_refused_and_named() {
        let err = AppState::new(config_with_catalog(
            r#"{"catalog": {"regions": [], "time_zone": ["UTC"]}}"#,
        ))
        .err()
        .expect("refused");
        let text = format!(
            "{err}: {}",
            std::error::Error::source(&err).expect("has a cause")
        );
        assert!(text.contains("unknown field `time_zone`"), "{text}");
        assert!(text.contains("line 1"), "{text}");
    }

    #[test]
    fn a_valid_catalog_file_replaces_the_demo() {
        let mut catalog = shared::demo::catalog();
        catalog.time_zones = vec!["UTC".into()];
        let file = CatalogFile {
            catalog,
            usage: shared::demo::usage(),
        };
        let state = AppState::new(config_with_catalog(&serde_json::to_string(&file).unwrap()))
            .expect("loads");
        assert_eq!(state.catalog.time_zones, ["UTC"]);
    }
}
