//! The state every handler shares.

use crate::auth::Identity;
use crate::backend::local::LocalBackend;
pub use crate::config::{Config, ConfigError};
use crate::metrics::Metrics;
use crate::runner::Runner;
use shared::CatalogFile;
use shared::usage::Usage;
use shared::{Catalog, User};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What handlers share; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Settings.
    pub config: Arc<Config>,
    /// The catalog every request is checked against.
    pub catalog: Arc<Catalog>,
    /// Usage when the catalog was loaded (capacity taken outside Berth); live usage is
    /// the runner's.
    pub usage: Arc<Usage>,
    /// Tasks: the store, the scheduler and the backend. `None` only for commands that
    /// check specs without serving (`berth validate`).
    pub runner: Option<Arc<Runner>>,
    /// Prometheus metrics.
    pub metrics: Arc<Metrics>,
    /// How requests are tied to users.
    pub identity: Arc<Identity>,
}

/// The server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The configuration or catalog is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The task store could not be opened.
    #[error(
        "cannot open the task database {dir} (--database-url, BERTH_DATABASE_URL, database_url)"
    )]
    Store {
        /// The database: its file, or its URL without the password.
        dir: String,
        /// Why.
        #[source]
        source: crate::store::StoreError,
    },
    /// `backend = "kubernetes"` but no cluster configuration could be loaded.
    #[error("cannot connect to Kubernetes")]
    Kubernetes(#[source] kube::Error),
    /// The alert webhooks' client or mailer could not be made (`alerts_ca` unreadable,
    /// mail settings that cannot work).
    #[error("{0}")]
    Alerts(String),
}

impl AppState {
    /// Loads the catalog named by the configuration, or the demo catalog.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when the catalog file cannot be read or parsed, or the
    /// `[identity]` settings cannot work (an unreadable tokens file, a proxy with no
    /// trusted address).
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
        let file = CatalogFile::from_json(&text).map_err(|err| ConfigError::ParseCatalog {
            path,
            reason: crate::config::catalog_reason(&err),
        })?;
        let identity = Identity::from_config(&config)?;
        Ok(AppState {
            config: Arc::new(config),
            catalog: Arc::new(file.catalog),
            usage: Arc::new(file.usage),
            runner: None,
            metrics: Arc::new(Metrics::new()),
            identity: Arc::new(identity),
        })
    }

    /// Everything `berth serve` needs: the catalog, the task store (the database
    /// URL's, else `berth.db` in the data directory), the local backend running tasks
    /// under it, and the runner, recovered from the store (queued tasks queue again,
    /// tasks that were running are re-run or failed per their fault tolerance); with a
    /// shared Postgres store only the leading server recovers and places tasks.
    ///
    /// # Errors
    ///
    /// [`StartError`] when the catalog or the store cannot be read.
    pub async fn open(config: Config) -> Result<Self, StartError> {
        let mut state = AppState::new(config)?;
        let dir = state.config.data_dir.clone();
        // Named as the settings name it: a PostgreSQL store is no file of the data
        // directory, which the message named (multi-server exploration).
        let database = crate::store::described(state.config.database_url.as_deref(), &dir);
        let store = crate::store::open(state.config.database_url.as_deref(), &dir)
            .await
            .map_err(|source| StartError::Store {
                dir: database.clone(),
                source,
            })?;
        // By the catalog's capacity, which also names the idle offers' fragment nodes
        // (`idle/<cluster>/<offer>/<n>`) an idle task is placed on: the catalog's nodes
        // alone gave those 0 GPUs, and every idle GPU task failed to start.
        let catalog = Arc::clone(&state.catalog);
        // The Kubernetes backend, kept to read the cluster's usage again once running.
        let mut cluster = None;
        // Whether the startup read failed: the refresh then does not warn again until
        // a read has succeeded.
        let mut unread = false;
        let backend: Arc<dyn crate::backend::Backend> = match state.config.backend {
            crate::config::Backend::Local => {
                Arc::new(LocalBackend::new(dir.clone(), move |node| {
                    catalog.capacity(node).map_or(0, |c| c.gpu)
                }))
            }
            crate::config::Backend::Kubernetes => {
                let kube = crate::backend::kube::KubeBackend::connect(
                    state.config.kubernetes.clone(),
                    Arc::clone(&state.catalog),
                )
                .await
                .map_err(StartError::Kubernetes)?;
                // What runs outside Berth now replaces the catalog file's node usage.
                match kube.outside_usage().await {
                    Ok(nodes) => {
                        let mut usage = (*state.usage).clone();
                        usage.nodes = nodes;
                        state.usage = Arc::new(usage);
                    }
                    Err(error) => {
                        unread = true;
                        tracing::warn!(%error, "cannot read the cluster's usage; using the catalog's")
                    }
                }
                let kube = Arc::new(kube);
                cluster = Some(Arc::clone(&kube));
                kube
            }
        };
        let webhooks = crate::alerts::Webhooks::new(state.config.alerts_ca.as_deref())
            .map_err(StartError::Alerts)?;
        let mail =
            crate::alerts::Mailer::new(&state.config.mail, state.config.alerts_ca.as_deref())
                .map_err(StartError::Alerts)?;
        let mut runner = Runner::new(
            Arc::clone(&state.catalog),
            (*state.usage).clone(),
            store,
            backend,
            dir.clone(),
        )
        .with_admissions(state.metrics.admissions.clone())
        .with_backoff(state.config.retry_backoff)
        .with_webhooks(webhooks);
        if let Some(mail) = mail {
            runner = runner.with_mail(mail);
        }
        let runner = Arc::new(runner);
        runner.watch();
        let every = state.config.kubernetes.usage_refresh_seconds;
        if let Some(kube) = cluster.filter(|_| every > 0) {
            follow_outside_usage(
                kube,
                Arc::downgrade(&runner),
                Duration::from_secs(every),
                unread,
            );
        }
        runner.begin().await.map_err(|source| StartError::Store {
            dir: database,
            source,
        })?;
        state.runner = Some(runner);
        Ok(state)
    }

    /// Live usage: the runner's when tasks run here, else the catalog file's.
    ///
    /// # Errors
    ///
    /// [`crate::ApiError::StoreUnreachable`] when a server that does not lead cannot read
    /// it from the store (logged).
    pub async fn live_usage(&self) -> Result<Usage, crate::ApiError> {
        Ok((*self.shared_usage().await?).clone())
    }

    /// [`AppState::live_usage`], shared rather than copied: what each check of a spec
    /// reads.
    ///
    /// # Errors
    ///
    /// As [`AppState::live_usage`].
    pub async fn shared_usage(&self) -> Result<Arc<Usage>, crate::ApiError> {
        match &self.runner {
            Some(runner) => runner.usage_snapshot().await.map_err(|err| {
                tracing::error!(error = %crate::error_chain(&err), "cannot read usage from the store");
                crate::ApiError::StoreUnreachable
            }),
            None => Ok(Arc::clone(&self.usage)),
        }
    }

    /// What is taken outside Berth: what would be left with none of Berth's tasks
    /// running (the scheduler's base).
    pub fn outside_usage(&self) -> Usage {
        match &self.runner {
            Some(runner) => runner.base(),
            None => (*self.usage).clone(),
        }
    }

    /// The configured user (`--user`, `BERTH_USER`, `user`): who every request is in
    /// the default identity mode, and who `berth validate` checks specs as. Handlers
    /// take the caller from [`crate::auth::CurrentUser`] instead.
    pub fn user(&self) -> User {
        self.config.user_named(&self.config.user)
    }

    /// What in the settings and the catalog loads but is more likely a slip than meant:
    /// logged as the server starts, and printed by `berth validate` with no file.
    pub fn warnings(&self) -> Vec<String> {
        let mut said = crate::config::unknown_users(&self.config, &self.catalog);
        said.extend(crate::config::catalog_warnings(
            &self.catalog,
            &self.usage,
            &self.user(),
        ));
        // Several users on the local backend: each task runs as this server's own user,
        // so one user's task can read another's logs and hidden values (security
        // explorer: a group member's task found a colleague's token on disk, and the
        // start said nothing of it).
        let several = !matches!(
            self.config.identity,
            crate::config::IdentityConfig::Default {}
        );
        if several && self.config.backend == crate::config::Backend::Local {
            said.push(
                "the local backend runs every user's tasks as this server's own user: one user's task can read another's files, logs and hidden env values. Use it for one user or people who trust each other; for a lab, use the Kubernetes backend (README, \"Running tasks\")".to_owned(),
            );
        }
        said
    }
}

/// Reads what pods outside Berth take on the catalog's nodes every `every`, for as long
/// as the runner lives, and gives it to the runner: others' pods come and go, and read
/// once at startup the fit check drifted from the cluster. A failed read keeps the last
/// one (and says so in the log once until a read succeeds again; `failing`: the last
/// read, at startup, failed and was said).
pub fn follow_outside_usage(
    kube: Arc<crate::backend::kube::KubeBackend>,
    runner: std::sync::Weak<Runner>,
    every: Duration,
    failing: bool,
) {
    tokio::spawn(async move {
        let mut failing = failing;
        loop {
            tokio::time::sleep(every).await;
            let Some(runner) = runner.upgrade() else {
                return;
            };
            match kube.outside_usage().await {
                Ok(nodes) => {
                    if failing {
                        tracing::info!("the cluster's usage can be read again");
                    }
                    failing = false;
                    runner.set_outside_usage(nodes).await;
                }
                Err(error) if !failing => {
                    failing = true;
                    tracing::warn!(%error, "cannot read the cluster's usage again; keeping the last read");
                }
                Err(_) => {}
            }
        }
    });
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
        let text = err.to_string();
        // The field's place in the file, where serde's derive gave a line and column.
        assert!(
            text.contains("catalog: unknown field `time_zone`"),
            "{text}"
        );
    }

    #[test]
    fn several_users_on_the_local_backend_are_warned_of_at_start() {
        let dist = PathBuf::from("dist");
        let warned = |config: Config| {
            AppState::new(config)
                .expect("loads")
                .warnings()
                .iter()
                .any(|w| w.starts_with("the local backend runs every user's tasks"))
        };
        assert!(!warned(Config::demo(dist.clone())), "one user");
        let tokens = std::env::temp_dir().join(format!("berth-tokens-{}.toml", std::process::id()));
        std::fs::write(
            &tokens,
            "\"8c1f4e0b2d7a4f6e9b3c5a1d0e7f2b6c\" = \"alice\"\n",
        )
        .expect("writes");
        assert!(warned(Config {
            identity: crate::config::IdentityConfig::Tokens {
                tokens_file: tokens.clone(),
            },
            ..Config::demo(dist)
        }));
        let _ = std::fs::remove_file(tokens);
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
