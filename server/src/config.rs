//! Settings: the command line, `BERTH_*` variables and a TOML file, merged into [`Config`].
//!
//! Each setting is looked up in order: a flag, then its variable (both through clap),
//! then the config file (`--config`/`BERTH_CONFIG`), then the default. The file holds
//! what outgrows variables: users, the backend and limits.

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Deserialize;
use shared::User;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default listen address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// Default user requests act as in the default identity mode.
pub const DEFAULT_USER: &str = "alice";
/// Largest request body accepted by default: a spec's env values alone may reach 256 KiB.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// How long a client may take to send a request's head, and then its body, by default:
/// a slow link sends the largest body (1 MiB) in that time at 300 kbit/s.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Reading the configuration failed.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The config file could not be read.
    #[error("cannot read the config file {path}")]
    ReadConfig {
        /// The file named by `--config` or `BERTH_CONFIG`.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The config file is not valid TOML of the expected shape; the reason names the
    /// line and its key.
    #[error("the config file {path} is not valid: {reason}")]
    ParseConfig {
        /// The file named by `--config` or `BERTH_CONFIG`.
        path: PathBuf,
        /// Why, with line, column and key ([`toml_reason`]).
        reason: String,
    },
    /// The catalog file could not be read.
    #[error("cannot read the catalog file {}", resolved(path))]
    ReadCatalog {
        /// The file named by `BERTH_CATALOG`.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The tokens file of `[identity] mode = "tokens"` could not be read.
    #[error("cannot read the tokens file {}", resolved(path))]
    ReadTokens {
        /// The file named by `[identity] tokens_file`.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The tokens file is not a TOML or JSON map of token to user.
    #[error("the tokens file {path} is not valid: {reason}")]
    ParseTokens {
        /// The file named by `[identity] tokens_file`.
        path: PathBuf,
        /// Why, with line and column where the parser gives them.
        reason: String,
    },
    /// The `[identity]` table cannot work as written.
    #[error("the [identity] settings cannot work: {0}")]
    Identity(String),
    /// Settings that cannot work together or at all, each named with where it is set.
    #[error("{0}")]
    Settings(String),
    /// The catalog file is not a catalog.
    #[error("the catalog file {path} is not a valid catalog: {reason}")]
    ParseCatalog {
        /// The file named by `BERTH_CATALOG`.
        path: PathBuf,
        /// Why ([`catalog_reason`]).
        reason: String,
    },
}

/// The catalog reader's words, less a persistent env var's value: a hidden one written
/// as a number (an API key of digits) was printed whole in "invalid type: the number
/// …" (operator exploration). Elsewhere the number helps find the line.
pub fn catalog_reason(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let in_env = text
        .split_once(": ")
        .is_some_and(|(path, _)| path.contains("persistent_env"));
    // A catalog given without its wrapper (`{"regions": …}`) was refused as "unknown
    // field `regions`, expected one of `catalog`, `usage`" (operator exploration).
    if text.starts_with("unknown field `") && text.contains("expected one of `catalog`, `usage`") {
        return format!(
            "{text}: a catalog file is {{\"catalog\": {{\"regions\": …}}, \"usage\": {{…}}}}; \
             put the catalog's fields inside `catalog`"
        );
    }
    match text.find("the number ") {
        Some(at) if in_env => {
            let rest = &text[at + "the number ".len()..];
            let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == '-'));
            format!(
                "{}a number{}",
                &text[..at],
                &rest[digits.unwrap_or(rest.len())..]
            )
        }
        _ => text,
    }
}

/// `path` as a message names it: a relative one with where it was looked for, as a
/// config file's `catalog = "cat.json"` is read from the directory Berth starts in, not
/// the file's (operator exploration).
fn resolved(path: &Path) -> String {
    match std::path::absolute(path) {
        Ok(absolute) if path.is_relative() => format!(
            "{} ({}: a relative path is read from the directory berth starts in)",
            path.display(),
            absolute.display()
        ),
        _ => path.display().to_string(),
    }
}

/// `berth`: Berth's server and tools.
#[derive(Debug, Parser)]
#[command(name = "berth", version, about)]
pub struct Cli {
    /// Settings: `--catalog`, `--user` and `--config` of every command (given after it
    /// too), the others the server's.
    #[command(flatten)]
    pub settings: Settings,
    /// What to do; `serve` when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `berth` does.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API and the console (the default). Its settings may come before
    /// `serve` too, and from their `BERTH_*` variables (`berth --help` lists them).
    // The serve-only settings are `berth`'s own and this command's, not global: global,
    // `berth validate --help` listed a listen address and mail relay it never used
    // (operator exploration). This copy reads flags only, so that a flag before
    // `serve` still beats a variable ([`Settings::with_flags`]).
    #[command(mut_args(|arg| arg.env(None)))]
    Serve(Box<Settings>),
    /// Check task spec files (JSON or YAML) against the catalog, as `POST /api/v1/validate`
    /// does. Exit code 1 when any file has an error finding, 2 when a file cannot be read
    /// or is not JSON or YAML.
    Validate(ValidateArgs),
    /// Print the Kubernetes objects task spec files become, as one YAML stream, as
    /// `POST /api/v1/render` answers (name suffix `xxxxx`, hidden values masked). Exit
    /// code 1 when a spec has errors (its findings go to stderr), 2 when a file cannot
    /// be read or rendered.
    Render(RenderArgs),
}

/// `berth render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Spec files; `.yaml`/`.yml` are read as YAML, `.json` as JSON, others by content;
    /// `-` is standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Language of the findings of a spec with errors.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
}

/// `berth validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Spec files; `.yaml`/`.yml` are read as YAML, `.json` as JSON, others by content;
    /// `-` is standard input. With none, the catalog and settings alone are checked.
    pub files: Vec<PathBuf>,
    /// Language of the messages.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// Output: lines for people, or one JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A language messages can be read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Simplified Chinese.
    #[value(name = "zh-CN", alias = "zh")]
    ZhCn,
}

impl From<LangArg> for shared::Lang {
    fn from(lang: LangArg) -> Self {
        match lang {
            LangArg::En => shared::Lang::En,
            LangArg::ZhCn => shared::Lang::Zh,
        }
    }
}

/// How `berth validate` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per finding.
    Text,
    /// A JSON array, one object per file.
    Json,
}

/// The settings a flag or a variable can give; `None` when neither did.
#[derive(Clone, Debug, Default, Args)]
pub struct Settings {
    /// Listen address; port 0 picks a free port [default: 127.0.0.1:8080].
    #[arg(long, env = "BERTH_ADDR")]
    pub addr: Option<String>,
    /// The console built by trunk [default: dist].
    #[arg(long, env = "BERTH_DIST")]
    pub dist: Option<PathBuf>,
    /// A catalog JSON file [default: the demo catalog].
    #[arg(long, env = "BERTH_CATALOG", global = true)]
    pub catalog: Option<PathBuf>,
    /// The user every request acts as in the default identity mode (`[identity]` proxy
    /// and tokens modes name theirs), and the user `berth validate` and `berth render`
    /// check as [default: alice].
    #[arg(long, env = "BERTH_USER", global = true)]
    pub user: Option<String>,
    /// Where Berth keeps its data [default: ./data].
    #[arg(long, env = "BERTH_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// The task database: `postgres://…` for a PostgreSQL database several servers
    /// can share, `sqlite://…` for a SQLite file [default: berth.db in the data dir].
    #[arg(long, env = "BERTH_DATABASE_URL")]
    pub database_url: Option<String>,
    /// A TOML config file for what outgrows variables (users, backend, limits).
    #[arg(long, env = "BERTH_CONFIG", global = true)]
    pub config: Option<PathBuf>,

    // The backend: which one, and the Kubernetes settings a variable may override.
    /// Where tasks run [default: local].
    #[arg(long, env = "BERTH_BACKEND", value_enum)]
    pub backend: Option<Backend>,
    /// Kubernetes: the namespace template, `{group}` being the project group
    /// [default: berth-{group}].
    #[arg(long, env = "BERTH_KUBE_NAMESPACE")]
    pub kube_namespace: Option<String>,
    /// Kubernetes: the kubeconfig context [default: its current context].
    #[arg(long, env = "BERTH_KUBE_CONTEXT")]
    pub kube_context: Option<String>,
    /// A PEM file of CA certificates that alert webhooks' HTTPS servers may be signed
    /// by, besides the system's (a company's own CA).
    #[arg(long, env = "BERTH_ALERTS_CA")]
    pub alerts_ca: Option<PathBuf>,

    // The mail relay alert emails go through; none, and an email alert is recorded as
    // not sent.
    /// The SMTP relay alert emails are sent through [default: none: no email is sent].
    #[arg(long, env = "BERTH_SMTP_HOST")]
    pub smtp_host: Option<String>,
    /// The relay's port [default: 587 for starttls, 465 for tls, 25 for none].
    #[arg(long, env = "BERTH_SMTP_PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub smtp_port: Option<u16>,
    /// How the relay is spoken to: STARTTLS, implicit TLS, or plain [default: starttls].
    #[arg(long, env = "BERTH_SMTP_TLS", value_enum)]
    pub smtp_tls: Option<SmtpTls>,
    /// The user name the relay is logged in with [default: no login].
    #[arg(long, env = "BERTH_SMTP_USER")]
    pub smtp_user: Option<String>,
    /// A file holding the relay's password (its first line).
    #[arg(long, env = "BERTH_SMTP_PASSWORD_FILE")]
    pub smtp_password_file: Option<PathBuf>,
    /// The relay's password, from `BERTH_SMTP_PASSWORD` only: a flag would show it to
    /// anyone who lists the processes (see [`Config::load`]).
    #[arg(skip)]
    pub smtp_password: Option<Secret>,
    /// The address alert emails come from (`Berth <berth@example.com>`).
    #[arg(long, env = "BERTH_MAIL_FROM")]
    pub mail_from: Option<String>,
}

impl Settings {
    /// These settings with each one `flags` gives replacing its own: `berth serve`'s
    /// flags over those before `serve` and the variables.
    #[must_use]
    pub fn with_flags(self, flags: Settings) -> Settings {
        Settings {
            addr: flags.addr.or(self.addr),
            dist: flags.dist.or(self.dist),
            catalog: flags.catalog.or(self.catalog),
            user: flags.user.or(self.user),
            data_dir: flags.data_dir.or(self.data_dir),
            database_url: flags.database_url.or(self.database_url),
            config: flags.config.or(self.config),
            backend: flags.backend.or(self.backend),
            kube_namespace: flags.kube_namespace.or(self.kube_namespace),
            kube_context: flags.kube_context.or(self.kube_context),
            alerts_ca: flags.alerts_ca.or(self.alerts_ca),
            smtp_host: flags.smtp_host.or(self.smtp_host),
            smtp_port: flags.smtp_port.or(self.smtp_port),
            smtp_tls: flags.smtp_tls.or(self.smtp_tls),
            smtp_user: flags.smtp_user.or(self.smtp_user),
            smtp_password_file: flags.smtp_password_file.or(self.smtp_password_file),
            smtp_password: flags.smtp_password.or(self.smtp_password),
            mail_from: flags.mail_from.or(self.mail_from),
        }
    }
}

/// How the mail relay is spoken to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum SmtpTls {
    /// Plain SMTP, then STARTTLS before anything is sent (refused if the relay does not
    /// offer it).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS).
    Tls,
    /// No TLS at all: for a relay on this machine or a trusted network only.
    None,
}

impl SmtpTls {
    /// The port a relay speaking this way usually listens on.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpTls::Starttls => 587,
            SmtpTls::Tls => 465,
            SmtpTls::None => 25,
        }
    }
}

/// A password: never printed, so a `Debug` of the configuration cannot show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps `text`.
    pub fn new(text: impl Into<String>) -> Self {
        Secret(text.into())
    }

    /// The password itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(hidden)")
    }
}

/// The mail relay's settings, merged (see [`Settings`] for each).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mail {
    /// The relay's host; `None`: no email is sent.
    pub smtp_host: Option<String>,
    /// The relay's port; `None`: the TLS mode's usual one.
    pub smtp_port: Option<u16>,
    /// STARTTLS, implicit TLS or plain.
    pub smtp_tls: SmtpTls,
    /// The login's user name.
    pub smtp_user: Option<String>,
    /// The login's password, from `BERTH_SMTP_PASSWORD`.
    pub smtp_password: Option<Secret>,
    /// A file holding the login's password.
    pub smtp_password_file: Option<PathBuf>,
    /// The sender's address.
    pub mail_from: Option<String>,
}

/// The config file. Every field is optional; an unknown one is refused with its name
/// and line.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FileConfig {
    /// As `--addr`.
    pub addr: Option<String>,
    /// As `--dist`.
    pub dist: Option<PathBuf>,
    /// As `--catalog`; relative to the working directory.
    pub catalog: Option<PathBuf>,
    /// As `--user`.
    pub user: Option<String>,
    /// As `--data-dir`.
    pub data_dir: Option<PathBuf>,
    /// As `--database-url`.
    pub database_url: Option<String>,
    /// As `--backend`: `local` or `kubernetes`.
    pub backend: Option<Backend>,
    /// `[kubernetes]`: the Kubernetes backend's settings.
    pub kubernetes: Option<crate::backend::kube::KubeSettings>,
    /// Who may act: `[[users]]` with `name`, `org`, `tenant_id`.
    pub users: Vec<UserEntry>,
    /// `[limits]`.
    pub limits: Limits,
    /// `[retries]`: how long a failed attempt's retry waits.
    pub retries: Retries,
    /// `[identity]`: how requests are tied to users.
    pub identity: Option<IdentityConfig>,
    /// `[cors]`: other sites whose pages may call the API.
    pub cors: Cors,
    /// As `--alerts-ca`.
    pub alerts_ca: Option<PathBuf>,
    /// As `--smtp-host`.
    pub smtp_host: Option<String>,
    /// As `--smtp-port`: from 1 to 65535.
    #[serde(deserialize_with = "port")]
    pub smtp_port: Option<u16>,
    /// As `--smtp-tls`: `starttls`, `tls` or `none`.
    pub smtp_tls: Option<SmtpTls>,
    /// As `--smtp-user`.
    pub smtp_user: Option<String>,
    /// As `--smtp-password-file`. The password itself has no key here: the file is
    /// read by more people than the password should be.
    pub smtp_password_file: Option<PathBuf>,
    /// As `--mail-from`.
    pub mail_from: Option<String>,
}

/// Reads a port, refused out of range as other numbers are ([`whole_number`]): it was
/// "expected u16".
fn port<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u16>, D::Error> {
    let n = whole_number(deserializer, 1, u64::from(u16::MAX))?;
    // In range: no larger than u16::MAX.
    Ok(u16::try_from(n).ok())
}

/// `[cors]` of the config file: the sites whose pages may call the API from the browser,
/// such as a portal embedding the create form (`mountTaskForm` with an `apiBase` on
/// this server). Their requests carry the browser's credentials for this server (the
/// cookie an authenticating proxy checks), so each site is named, never `*`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cors {
    /// Each an origin as browsers send it, `scheme://host[:port]`:
    /// `https://portal.example.com`.
    #[serde(deserialize_with = "origins")]
    pub origins: Vec<String>,
}

/// A proxy `[identity] trusted` names: one address (`10.0.0.5`), or a network
/// (`10.0.0.0/8`, `fd00::/8`) for a proxy whose address comes and goes within one, as an
/// ingress's pods do. A network was refused as "invalid IP address syntax" (operator
/// exploration).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Trusted {
    net: IpAddr,
    prefix: u8,
}

impl Trusted {
    /// Whether `peer` is this address or in this network; an IPv4 peer seen through an
    /// IPv6 socket (`::ffff:10.0.0.5`) as itself.
    pub fn contains(&self, peer: IpAddr) -> bool {
        match (self.net, peer.to_canonical()) {
            (IpAddr::V4(_), peer @ IpAddr::V4(_)) | (IpAddr::V6(_), peer @ IpAddr::V6(_)) => {
                Self::masked(peer, self.prefix) == self.network()
            }
            _ => false,
        }
    }

    /// The address with its host bits cleared.
    fn network(&self) -> IpAddr {
        Self::masked(self.net, self.prefix)
    }

    fn masked(address: IpAddr, prefix: u8) -> IpAddr {
        match address {
            IpAddr::V4(v4) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
                IpAddr::V4((u32::from(v4) & mask).into())
            }
            IpAddr::V6(v6) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
                IpAddr::V6((u128::from(v6) & mask).into())
            }
        }
    }
}

impl std::str::FromStr for Trusted {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let fix = "write a proxy's address (10.0.0.5, ::1) or its network (10.0.0.0/8)";
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let net: IpAddr = address
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or network: {fix}"))?;
        let most = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= most)
                .ok_or_else(|| {
                    format!("{text:?} has no network length from 0 to {most} after '/': {fix}")
                })?,
        };
        // An IPv4 address as an IPv6 socket reports it (`::ffff:10.0.0.5`) is that IPv4
        // address, as the peer is compared (review: such an entry stopped matching).
        let trusted = match net {
            IpAddr::V6(v6) if prefix >= 96 && v6.to_ipv4_mapped().is_some() => Trusted {
                net: IpAddr::V4(
                    v6.to_ipv4_mapped()
                        .unwrap_or(std::net::Ipv4Addr::UNSPECIFIED),
                ),
                prefix: prefix - 96,
            },
            _ => Trusted { net, prefix },
        };
        // After the mapping: `::ffff:0.0.0.0/96` is every IPv4 address (second review).
        if trusted.prefix == 0 {
            return Err(format!(
                "{text:?} trusts every address, so any client could name itself in the \
                 headers: {fix}"
            ));
        }
        // `10.0.0.1/8` may mean the one proxy or its whole network, which trust very
        // different sets of clients: asked, not guessed (it was taken as 10.0.0.0/8
        // without a word).
        let network = trusted.network();
        if network != trusted.net {
            let most = if network.is_ipv4() { 32 } else { 128 };
            return Err(format!(
                "{text:?} has address bits set past its /{prefix}: write its network \
                 ({network}/{bits}) or the one address ({address}/{most} or {address})",
                bits = trusted.prefix,
                address = trusted.net,
            ));
        }
        Ok(trusted)
    }
}

impl std::fmt::Display for Trusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let most = if self.net.is_ipv4() { 32 } else { 128 };
        if self.prefix == most {
            write!(f, "{}", self.net)
        } else {
            write!(f, "{}/{}", self.net, self.prefix)
        }
    }
}

impl std::fmt::Debug for Trusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

impl<'de> Deserialize<'de> for Trusted {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        String::deserialize(de)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Reads `[cors] origins`, refusing what a browser never sends as an `Origin`.
/// One origin written as a string is taken as a list of one: it was refused as "invalid
/// type: string …, expected a sequence" (operator exploration).
fn origins<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<String>, D::Error> {
    struct OneOrMany;
    impl<'de> serde::de::Visitor<'de> for OneOrMany {
        type Value = Vec<String>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of origins, as [\"https://portal.example.com\"]")
        }

        fn visit_str<E: serde::de::Error>(self, origin: &str) -> Result<Vec<String>, E> {
            Ok(vec![origin.to_owned()])
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Vec<String>, A::Error> {
            let mut origins = Vec::new();
            while let Some(origin) = seq.next_element::<String>()? {
                origins.push(origin);
            }
            Ok(origins)
        }
    }
    let origins = de.deserialize_any(OneOrMany)?;
    for origin in &origins {
        if !is_origin(origin) {
            return Err(serde::de::Error::custom(format!(
                "{origin:?} is not an origin: write scheme://host[:port], like \
                 https://portal.example.com, in lowercase, with no path, no trailing '/', \
                 no default port and no '*'"
            )));
        }
    }
    Ok(origins)
}

/// Whether `text` is an origin as the `Origin` header carries it.
fn is_origin(text: &str) -> bool {
    let Ok(uri) = text.parse::<axum::http::Uri>() else {
        return false;
    };
    matches!(uri.scheme_str(), Some("http" | "https"))
        && uri
            .authority()
            .is_some_and(|a| !a.host().is_empty() && !a.as_str().contains(['@', '*']))
        && !text.bytes().any(|b| b.is_ascii_uppercase())
        // Browsers leave the scheme's own port out of an Origin.
        && !matches!(
            (uri.scheme_str(), uri.port_u16()),
            (Some("http"), Some(80)) | (Some("https"), Some(443))
        )
        && format!(
            "{}://{}",
            uri.scheme_str().unwrap_or_default(),
            uri.authority().map_or("", |a| a.as_str())
        ) == text
}

/// `[identity]` of the config file: how a request is tied to a user.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "IdentityFile")]
pub enum IdentityConfig {
    /// Every request acts as the configured user (`--user`, `BERTH_USER`, `user`).
    Default {},
    /// An authenticating proxy names the user in headers; believed only from `trusted`.
    Proxy {
        /// Header with the user name [default: `X-Forwarded-User`].
        user_header: String,
        /// Header with the organisation, if the proxy sets one.
        org_header: Option<String>,
        /// Header with the tenant id, if the proxy sets one.
        tenant_header: Option<String>,
        /// The addresses the proxy connects from (at least one).
        trusted: Vec<Trusted>,
    },
    /// `Authorization: Bearer <token>`, each token mapped to a user in a file.
    Tokens {
        /// A TOML or JSON file: token → user name, or token → `{name, org, tenant_id}`.
        tokens_file: PathBuf,
    },
}

/// `[identity]` as written: every mode's keys, read as a plain table so that a misspelt
/// key or a bad address is named at its own line (read as a tagged enum, the table was
/// buffered first and every error pointed at `[identity]`, a bad address without its
/// key; README exploration); then checked into [`IdentityConfig`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdentityFile {
    mode: IdentityMode,
    user_header: Option<String>,
    org_header: Option<String>,
    tenant_header: Option<String>,
    trusted: Option<Vec<Trusted>>,
    tokens_file: Option<PathBuf>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum IdentityMode {
    Default,
    Proxy,
    Tokens,
}

impl TryFrom<IdentityFile> for IdentityConfig {
    type Error = String;

    /// Refuses a key of another mode: a half-edited table (`mode = "default"` left above
    /// `tokens_file`) served everyone as the configured user without a word.
    fn try_from(file: IdentityFile) -> Result<Self, String> {
        let (mode, theirs): (&str, &[(&str, bool)]) = match file.mode {
            IdentityMode::Default => ("default", &[]),
            IdentityMode::Proxy => (
                "proxy",
                &[
                    ("user_header", true),
                    ("org_header", true),
                    ("tenant_header", true),
                    ("trusted", true),
                ],
            ),
            IdentityMode::Tokens => ("tokens", &[("tokens_file", true)]),
        };
        let given = [
            ("user_header", file.user_header.is_some()),
            ("org_header", file.org_header.is_some()),
            ("tenant_header", file.tenant_header.is_some()),
            ("trusted", file.trusted.is_some()),
            ("tokens_file", file.tokens_file.is_some()),
        ];
        if let Some((key, _)) = given
            .iter()
            .find(|(key, set)| *set && !theirs.iter().any(|(k, _)| k == key))
        {
            return Err(format!(
                "[identity] {key} is no key of mode = \"{mode}\": remove it, or set the mode it belongs to"
            ));
        }
        // A header name no request can carry (`X User`, empty) left every request 401.
        for (key, name) in [
            ("user_header", &file.user_header),
            ("org_header", &file.org_header),
            ("tenant_header", &file.tenant_header),
        ] {
            if let Some(name) = name
                && http::HeaderName::from_bytes(name.as_bytes()).is_err()
            {
                return Err(format!(
                    "[identity] {key} = \"{name}\" is no HTTP header name: use letters, digits and '-', as X-Forwarded-User"
                ));
            }
        }
        let missing = |key: &str| format!("[identity] mode = \"{mode}\" needs `{key}`");
        Ok(match file.mode {
            IdentityMode::Default => IdentityConfig::Default {},
            IdentityMode::Proxy => IdentityConfig::Proxy {
                user_header: file.user_header.unwrap_or_else(default_user_header),
                org_header: file.org_header,
                tenant_header: file.tenant_header,
                trusted: file.trusted.ok_or_else(|| missing("trusted"))?,
            },
            IdentityMode::Tokens => IdentityConfig::Tokens {
                tokens_file: file.tokens_file.ok_or_else(|| missing("tokens_file"))?,
            },
        })
    }
}

impl Default for IdentityConfig {
    fn default() -> Self {
        IdentityConfig::Default {}
    }
}

fn default_user_header() -> String {
    "x-forwarded-user".to_owned()
}

/// A user of the config file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserEntry {
    /// Login name.
    pub name: String,
    /// Organisation.
    pub org: String,
    /// Tenant id.
    pub tenant_id: String,
}

impl From<UserEntry> for User {
    fn from(entry: UserEntry) -> Self {
        User {
            name: entry.name,
            org: entry.org,
            tenant_id: entry.tenant_id,
        }
    }
}

/// `[limits]` of the config file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest request body, in bytes [default: 1 MiB]; at least 16384, room for a
    /// spec: at 1024 the example spec itself (about 1.7 KB) was refused.
    pub body_bytes: Option<Within<16384, { u64::MAX }>>,
    /// How long a client may take to send a request's head, and again its body, in
    /// seconds [default: 30]; from 1 to 3600.
    pub read_seconds: Option<Within<1, 3600>>,
}

/// A whole number of the config file from `MIN` to `MAX`, refused at its key and line
/// otherwise: `body_bytes = 0` refused every body, and a `read_seconds` past what a
/// clock can add panicked on every connection (README exploration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Within<const MIN: u64, const MAX: u64>(pub u64);

impl<'de, const MIN: u64, const MAX: u64> Deserialize<'de> for Within<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        whole_number(deserializer, MIN, MAX).map(Within)
    }
}

/// A whole number of the config file from `min` to `max`, refused otherwise with the
/// range in words: a negative number, text (`"2MB"`) or a fraction was refused as
/// "expected u64" (operator exploration). The key is on the line TOML's error shows.
///
/// # Errors
///
/// When the value is not such a number.
pub(crate) fn whole_number<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    min: u64,
    max: u64,
) -> Result<u64, D::Error> {
    deserializer.deserialize_any(WholeNumber { min, max })
}

/// Reads [`whole_number`].
struct WholeNumber {
    min: u64,
    max: u64,
}

impl WholeNumber {
    /// The range in words: `from 1 to 3600`, `at least 1024`, `0 or more`.
    fn range(&self) -> String {
        match (self.min, self.max) {
            (0, u64::MAX) => "0 or more".to_owned(),
            (min, u64::MAX) => format!("at least {min}"),
            (min, max) => format!("from {min} to {max}"),
        }
    }

    fn out_of_range<E: serde::de::Error>(&self, n: impl std::fmt::Display) -> E {
        E::custom(format!("{n} is out of range: must be {}", self.range()))
    }
}

impl serde::de::Visitor<'_> for WholeNumber {
    type Value = u64;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a whole number, {}", self.range())
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<u64, E> {
        if (self.min..=self.max).contains(&n) {
            Ok(n)
        } else {
            Err(self.out_of_range(n))
        }
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<u64, E> {
        match u64::try_from(n) {
            Ok(n) => self.visit_u64(n),
            Err(_) => Err(self.out_of_range(n)),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<u64, E> {
        Err(E::custom(format!(
            "{n} is not a whole number: must be a whole number, {}",
            self.range()
        )))
    }

    // The text is not quoted back: a password pasted on the wrong line would be printed
    // (operator exploration); the reason's line, column and key find it.
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<u64, E> {
        Err(E::custom(format!(
            "the value is text in quotes: must be a whole number, {}, written with no quotes \
             and no unit",
            self.range()
        )))
    }
}

/// `[retries]` of the config file: the wait between a failed attempt and its retry
/// (fault tolerance), as Kubernetes backs off a Job's failed pods: the first retry
/// waits `backoff_seconds`, each next one twice the last, up to `backoff_max_seconds`.
/// Without it a command that fails at once spent all its retries within seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RetriesFile")]
pub struct Retries {
    /// The first retry's wait, in seconds; 0 retries at once [default: 10].
    pub backoff_seconds: u64,
    /// The longest wait, in seconds [default: 300].
    pub backoff_max_seconds: u64,
}

impl Default for Retries {
    fn default() -> Self {
        Retries {
            backoff_seconds: 10,
            backoff_max_seconds: 300,
        }
    }
}

/// `[retries]` as written, checked into [`Retries`].
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RetriesFile {
    /// Up to a day, as the cap: a wait past what a clock can add was said as a start
    /// 292 million years on.
    #[serde(deserialize_with = "a_day_at_most")]
    backoff_seconds: u64,
    #[serde(deserialize_with = "a_day_at_most")]
    backoff_max_seconds: u64,
}

fn a_day_at_most<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    Within::<0, 86_400>::deserialize(deserializer).map(|Within(n)| n)
}

impl Default for RetriesFile {
    fn default() -> Self {
        let Retries {
            backoff_seconds,
            backoff_max_seconds,
        } = Retries::default();
        RetriesFile {
            backoff_seconds,
            backoff_max_seconds,
        }
    }
}

impl TryFrom<RetriesFile> for Retries {
    type Error = String;

    /// Refuses a cap below the first wait, which would make every wait the cap: a typo
    /// (minutes for seconds) more likely than what was meant.
    fn try_from(file: RetriesFile) -> Result<Self, String> {
        if file.backoff_seconds > 0 && file.backoff_max_seconds < file.backoff_seconds {
            return Err(format!(
                "[retries] backoff_max_seconds ({}) is below backoff_seconds ({}): the cap \
                 is the longest wait, at least the first (both in seconds)",
                file.backoff_max_seconds, file.backoff_seconds
            ));
        }
        Ok(Retries {
            backoff_seconds: file.backoff_seconds,
            backoff_max_seconds: file.backoff_max_seconds,
        })
    }
}

impl Retries {
    /// The waits as the runner takes them.
    pub fn backoff(self) -> crate::runner::Backoff {
        crate::runner::Backoff {
            base: std::time::Duration::from_secs(self.backoff_seconds),
            cap: std::time::Duration::from_secs(self.backoff_max_seconds),
        }
    }
}

/// Where tasks run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    /// Processes on this machine.
    #[default]
    Local,
    /// PyTorchJobs and RayJobs on a Kubernetes cluster (`[kubernetes]`).
    Kubernetes,
}

impl FileConfig {
    /// Reads and parses a config file.
    ///
    /// # Errors
    ///
    /// [`ConfigError::ReadConfig`] or [`ConfigError::ParseConfig`] (naming the field and line).
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::ReadConfig {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text).map_err(|err| ConfigError::ParseConfig {
            path: path.to_owned(),
            reason: toml_reason(&text, &err),
        })
    }

    /// Parses config text.
    ///
    /// # Errors
    ///
    /// The TOML error, with the line and the field.
    pub fn parse(text: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(text)
    }
}

/// Users the settings and the catalog name whom nothing else knows: the default
/// identity's `user` when `[[users]]` is given and leaves it out, and a quota line's
/// user who is in no `[[users]]` entry and no project group. Each still loads (a user
/// not listed is served in the demo user's organisation), but is more often a typo
/// than meant, and was taken without a word (operator exploration).
pub fn unknown_users(config: &Config, catalog: &shared::Catalog) -> Vec<String> {
    let listed = |name: &str| config.users.iter().any(|u| u.name == name);
    let mut said = Vec::new();
    if matches!(config.identity, IdentityConfig::Default {})
        && !config.users.is_empty()
        && !listed(&config.user)
    {
        said.push(format!(
            "user `{}` (--user, BERTH_USER, user) is in no [[users]] entry: it is served in \
             the demo organisation; add it to [[users]] or name a listed user",
            config.user
        ));
    }
    let known = |user: &str| {
        listed(user)
            || catalog
                .project_groups
                .iter()
                .any(|g| g.members.iter().any(|m| m == user))
    };
    let mut named: Vec<&str> = Vec::new();
    for quota in &catalog.quotas {
        if !known(&quota.user) && !named.contains(&quota.user.as_str()) {
            named.push(&quota.user);
            said.push(format!(
                "the catalog's quotas name `{}`, who is in no project group and no [[users]] \
                 entry: no one uses that quota unless a user of that name signs in",
                quota.user
            ));
        }
    }
    // The same slip in a persistent env var left its user without it, unsaid (lab admin
    // explorer: `anna` for `ana`).
    let mut named: Vec<&str> = Vec::new();
    for var in &catalog.persistent_env {
        if !known(&var.user) && !named.contains(&var.user.as_str()) {
            named.push(&var.user);
            said.push(format!(
                "the catalog's persistent_env names `{}`, who is in no project group and no \
                 [[users]] entry: no task gets those variables unless a user of that name \
                 signs in",
                var.user
            ));
        }
    }
    said
}

/// What in the catalog loads but cannot be meant (lab admin explorer: each loaded without
/// a word): a time zone this machine's zone database lacks, a maintained tag that breaks
/// the tag rules (no task could carry it), a spec whose one unit no node of its cluster
/// can hold, and a node whose usage is over its capacity. Said as the server starts and
/// by `berth validate` with no file.
pub fn catalog_warnings(
    catalog: &shared::Catalog,
    usage: &shared::Usage,
    user: &shared::User,
) -> Vec<String> {
    let mut said = Vec::new();
    let zones = jiff::tz::db();
    if zones.is_definitively_empty() {
        if !catalog.time_zones.is_empty() {
            said.push(
                "this machine has no time zone database (install tzdata): the catalog's \
                 time_zones cannot be checked, and local tasks run in UTC whatever zone they name"
                    .to_owned(),
            );
        }
    } else {
        for zone in &catalog.time_zones {
            if zones.get(zone).is_err() {
                said.push(format!(
                    "the catalog's time_zones list `{zone}`, which is no time zone of this \
                     machine's zone database: correct it (as `Asia/Shanghai`) or remove it"
                ));
            }
        }
    }
    for tag in &catalog.tags.maintained {
        let mut spec = shared::TaskSpec::default();
        spec.basic.tags = vec![tag.clone()];
        let check = shared::check(&spec, catalog, &shared::Usage::default(), user);
        let tags = shared::FieldPath::parse("basic.tags");
        let broken: Vec<String> = check
            .issues
            .under(&tags)
            .filter(|issue| {
                matches!(
                    issue.code,
                    shared::IssueCode::TagKeyInvalid
                        | shared::IssueCode::TagKeyReserved
                        | shared::IssueCode::TagValueInvalid
                        | shared::IssueCode::ValueRequired
                )
            })
            .map(|issue| {
                let issue = issue.localized(shared::Lang::En);
                let part = issue.path.to_string();
                let part = part.rsplit('.').next().unwrap_or_default().to_owned();
                format!("{part}: {}", issue.message)
            })
            .collect();
        if !broken.is_empty() {
            said.push(format!(
                "the catalog's maintained tag `{}={}` breaks the tag rules, so no task can carry \
                 it: {}",
                tag.key,
                tag.value,
                broken.join("; ")
            ));
        }
    }
    for region in &catalog.regions {
        for cluster in &region.clusters {
            let nodes = || cluster.pools.iter().flat_map(|p| &p.nodes);
            for spec in &cluster.specs {
                let hosts: Vec<_> = nodes().filter(|n| n.hosts(spec)).collect();
                if hosts.is_empty() {
                    // A spec of another cluster's model is the form's to leave out; only
                    // one no node here could ever run is said.
                    said.push(format!(
                        "spec `{}` of cluster `{}` is hosted by no node of its pools (their \
                         GPU models differ): no task can use it",
                        spec.id, cluster.id
                    ));
                } else if !hosts.iter().any(|n| spec.per_unit.fits_within(&n.total)) {
                    said.push(format!(
                        "one unit of spec `{}` of cluster `{}` ({}) is more than any node of its \
                         model holds: no task can use it",
                        spec.id, cluster.id, spec.per_unit
                    ));
                }
            }
            for node in nodes() {
                if let Some(used) = usage.nodes.get(&node.name)
                    && !used.fits_within(&node.total)
                {
                    said.push(format!(
                        "the usage of node `{}` ({}) is more than its total ({}): it is counted \
                         as full",
                        node.name, used, node.total
                    ));
                }
            }
        }
    }
    said
}

/// A TOML error as an operator should read it: line, column and the line's key, then
/// the parser's words, but not the line itself, which toml's own message quotes. A line
/// may hold a password: a relay's password written as `smtp_password = "…"`, a key the
/// file refuses so that the file need not hold it, or a database URL under a misspelt
/// key; either was printed whole (operator exploration).
pub fn toml_reason(text: &str, err: &toml::de::Error) -> String {
    let message = unquoted(err.message().trim_end());
    let Some(span) = err.span() else {
        return message.to_owned();
    };
    let before = &text[..span.start.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    let whole_line = text[line_start..].lines().next().unwrap_or("").trim();
    let key = if whole_line.starts_with('[') {
        Some(whole_line)
    } else {
        whole_line
            .split_once('=')
            .map(|(key, _)| key.trim())
            .filter(|key| !key.is_empty())
    };
    match key {
        Some(key) => format!("line {line}, column {column}, at `{key}`: {message}"),
        None => format!("line {line}, column {column}: {message}"),
    }
}

/// serde's "invalid type: string \"…\", expected …" without the string: text given
/// where a number or a switch goes may be a password pasted on the wrong line (it was
/// quoted back; operator exploration). Other words are kept: a misspelt mode's
/// "unknown variant `kubernetees`" is how the operator finds it.
fn unquoted(message: &str) -> String {
    const STRING: &str = "string \"";
    if let Some(start) = message.find(STRING)
        && let Some(end) = message.rfind("\", expected")
        && end >= start + STRING.len()
    {
        return format!("{}a string{}", &message[..start], &message[end + 1..]);
    }
    message.to_owned()
}

/// Server settings, merged: flag > variable > config file > default.
#[derive(Clone, Debug)]
pub struct Config {
    /// Listen address; port 0 picks a free port.
    pub addr: String,
    /// The console built by trunk.
    pub dist: PathBuf,
    /// A catalog JSON file; `None` for the demo catalog.
    pub catalog: Option<PathBuf>,
    /// The user requests act as in the default identity mode, and the CLI checks as.
    pub user: String,
    /// Known users; the demo user when empty.
    pub users: Vec<User>,
    /// Where Berth keeps its data.
    pub data_dir: PathBuf,
    /// The task database's URL; `None` for `berth.db` in the data directory.
    pub database_url: Option<String>,
    /// Where tasks run.
    pub backend: Backend,
    /// The Kubernetes backend's settings (used when `backend` is `kubernetes`).
    pub kubernetes: crate::backend::kube::KubeSettings,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// How long a client may take to send a request's head, and again its body.
    pub read_timeout: Duration,
    /// How requests are tied to users (`[identity]`); the configured user by default.
    pub identity: IdentityConfig,
    /// Other sites whose pages may call the API (`[cors] origins`); none by default.
    pub cors_origins: Vec<String>,
    /// CA certificates alert webhooks and the mail relay may be signed by, besides the
    /// system's.
    pub alerts_ca: Option<PathBuf>,
    /// The mail relay alert emails go through.
    pub mail: Mail,
    /// The wait before each retry of a failed attempt (`[retries]`).
    pub retry_backoff: crate::runner::Backoff,
}

impl Config {
    /// Merges flags and variables (`settings`, as clap read them) over a config file's
    /// values over the defaults.
    pub fn merge(settings: Settings, file: FileConfig) -> Self {
        Config {
            addr: settings
                .addr
                .or(file.addr)
                .unwrap_or_else(|| DEFAULT_ADDR.to_owned()),
            dist: settings
                .dist
                .or(file.dist)
                .unwrap_or_else(|| PathBuf::from("dist")),
            catalog: settings.catalog.or(file.catalog),
            user: settings
                .user
                .or(file.user)
                .unwrap_or_else(|| DEFAULT_USER.to_owned()),
            users: file.users.into_iter().map(User::from).collect(),
            data_dir: settings
                .data_dir
                .or(file.data_dir)
                .unwrap_or_else(|| PathBuf::from("./data")),
            database_url: settings.database_url.or(file.database_url),
            backend: settings.backend.or(file.backend).unwrap_or_default(),
            kubernetes: {
                let mut kube = file.kubernetes.unwrap_or_default();
                if let Some(namespace) = settings.kube_namespace {
                    kube.namespace = namespace;
                }
                if let Some(context) = settings.kube_context {
                    kube.context = Some(context);
                }
                kube
            },
            body_limit: file.limits.body_bytes.map_or(MAX_BODY_BYTES, |Within(n)| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
            read_timeout: file
                .limits
                .read_seconds
                .map_or(READ_TIMEOUT, |Within(seconds)| Duration::from_secs(seconds)),
            identity: file.identity.unwrap_or_default(),
            cors_origins: file.cors.origins,
            alerts_ca: settings.alerts_ca.or(file.alerts_ca),
            mail: Mail {
                smtp_host: settings.smtp_host.or(file.smtp_host),
                smtp_port: settings.smtp_port.or(file.smtp_port),
                smtp_tls: settings.smtp_tls.or(file.smtp_tls).unwrap_or_default(),
                smtp_user: settings.smtp_user.or(file.smtp_user),
                smtp_password: settings.smtp_password,
                smtp_password_file: settings.smtp_password_file.or(file.smtp_password_file),
                mail_from: settings.mail_from.or(file.mail_from),
            },
            retry_backoff: file.retries.backoff(),
        }
    }

    /// Reads the config file named by the settings, if any, and `BERTH_SMTP_PASSWORD`,
    /// and merges.
    ///
    /// # Errors
    ///
    /// When the config file cannot be read or parsed.
    pub fn load(mut settings: Settings) -> Result<Self, ConfigError> {
        // The one setting with a variable and no flag (see `Settings::smtp_password`).
        if settings.smtp_password.is_none() {
            // Empty is none: the mail settings' check then names a login without one
            // (second review: an empty Secret key was sent as the password).
            settings.smtp_password = std::env::var("BERTH_SMTP_PASSWORD")
                .ok()
                .filter(|v| !v.is_empty())
                .map(Secret);
        }
        let file = match &settings.config {
            Some(path) => FileConfig::load(path)?,
            None => FileConfig::default(),
        };
        let config = Self::merge(settings, file);
        config.check()?;
        Ok(config)
    }

    /// Refuses settings that cannot work: an empty user (every request acted as `""`,
    /// of no group), and two `[[users]]` of one name (the first was taken, the second
    /// ignored without a word; README exploration).
    ///
    /// # Errors
    ///
    /// [`ConfigError::Settings`], naming the setting.
    pub fn check(&self) -> Result<(), ConfigError> {
        if self.user.trim().is_empty() {
            return Err(ConfigError::Settings(
                "the user requests act as is empty: name one (--user, BERTH_USER, user)".into(),
            ));
        }
        for (i, user) in self.users.iter().enumerate() {
            // Which entries, counted in the file's order: the config holds no lines.
            if let Some(first) = self.users[..i].iter().position(|u| u.name == user.name) {
                return Err(ConfigError::Settings(format!(
                    "[[users]] entries {} and {} both name `{}`: give each user once",
                    first + 1,
                    i + 1,
                    user.name
                )));
            }
        }
        Ok(())
    }

    /// Reads `BERTH_*` variables (and the config file they name), without flags.
    ///
    /// # Errors
    ///
    /// When the config file cannot be read or parsed.
    pub fn from_env() -> Result<Self, ConfigError> {
        let cli = Cli::try_parse_from(["berth"]).unwrap_or_else(|err| err.exit());
        Self::load(cli.settings)
    }

    /// The user called `name`: from `[[users]]`, else the demo user if it is the demo
    /// user's name, else a user of that name in the demo user's organisation.
    pub fn user_named(&self, name: &str) -> User {
        if let Some(user) = self.users.iter().find(|u| u.name == name) {
            return user.clone();
        }
        let demo = shared::demo::user();
        if name == demo.name {
            demo
        } else {
            User {
                name: name.to_owned(),
                ..demo
            }
        }
    }

    /// The demo setup with the console served from `dist`.
    pub fn demo(dist: PathBuf) -> Self {
        Config {
            addr: "127.0.0.1:0".into(),
            dist,
            ..Self::merge(Settings::default(), FileConfig::default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(args: &[&str]) -> Settings {
        let mut argv = vec!["berth"];
        argv.extend_from_slice(args);
        // Only flags given here: the test process has no BERTH_* variables set.
        Cli::try_parse_from(argv).expect("parses").settings
    }

    const FILE: &str = r#"
addr = "0.0.0.0:9000"
catalog = "from-file.json"
user = "bob"
data_dir = "/var/lib/berth"
backend = "local"

[[users]]
name = "bob"
org = "Acme AI"
tenant_id = "t-acme"

[limits]
body_bytes = 20480
read_seconds = 5
"#;

    #[test]
    fn defaults_apply_when_nothing_is_set() {
        let config = Config::merge(Settings::default(), FileConfig::default());
        assert_eq!(config.addr, DEFAULT_ADDR);
        assert_eq!(config.dist, PathBuf::from("dist"));
        assert_eq!(config.catalog, None);
        assert_eq!(config.user, "alice");
        assert_eq!(config.data_dir, PathBuf::from("./data"));
        assert_eq!(config.backend, Backend::Local);
        assert_eq!(config.body_limit, MAX_BODY_BYTES);
        assert_eq!(config.read_timeout, READ_TIMEOUT);
    }

    #[test]
    fn the_mail_relay_comes_from_flags_over_the_file_and_defaults_to_none() {
        let none = Config::merge(Settings::default(), FileConfig::default()).mail;
        assert_eq!(none, Mail::default());
        assert_eq!(none.smtp_tls, SmtpTls::Starttls);
        let file = FileConfig::parse(
            r#"
smtp_host = "relay.example.com"
smtp_port = 2525
smtp_tls = "tls"
smtp_user = "berth"
smtp_password_file = "/run/secrets/smtp"
mail_from = "Berth <berth@example.com>"
"#,
        )
        .expect("parses");
        let from_file = Config::merge(Settings::default(), file.clone()).mail;
        assert_eq!(from_file.smtp_host.as_deref(), Some("relay.example.com"));
        assert_eq!(from_file.smtp_port, Some(2525));
        assert_eq!(from_file.smtp_tls, SmtpTls::Tls);
        assert_eq!(from_file.smtp_user.as_deref(), Some("berth"));
        assert_eq!(
            from_file.smtp_password_file,
            Some(PathBuf::from("/run/secrets/smtp"))
        );
        assert_eq!(
            from_file.mail_from.as_deref(),
            Some("Berth <berth@example.com>")
        );
        let flags = settings(&[
            "--smtp-host",
            "mail.internal",
            "--smtp-tls",
            "none",
            "--mail-from",
            "ops@example.com",
        ]);
        let merged = Config::merge(flags, file).mail;
        assert_eq!(merged.smtp_host.as_deref(), Some("mail.internal"));
        assert_eq!(merged.smtp_tls, SmtpTls::None);
        assert_eq!(merged.mail_from.as_deref(), Some("ops@example.com"));
        assert_eq!(merged.smtp_port, Some(2525), "the file's, no flag");
        // Its usual port for each way of speaking.
        assert_eq!(SmtpTls::Starttls.default_port(), 587);
        assert_eq!(SmtpTls::Tls.default_port(), 465);
        assert_eq!(SmtpTls::None.default_port(), 25);
    }

    /// The password has a variable and no flag, and no key in the file: a flag shows in
    /// the process list, and the file is read by more people than the password should be.
    #[test]
    fn the_relays_password_is_no_flag_nor_file_key_and_never_printed() {
        assert!(Cli::try_parse_from(["berth", "--smtp-password", "x"]).is_err());
        assert!(FileConfig::parse("smtp_password = \"x\"").is_err());
        let settings = Settings {
            smtp_password: Some(Secret::new("hunter2-of-the-relay")),
            ..Settings::default()
        };
        let config = Config::merge(settings, FileConfig::default());
        assert_eq!(
            config.mail.smtp_password.as_ref().map(Secret::expose),
            Some("hunter2-of-the-relay")
        );
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn the_file_overrides_defaults() {
        let config = Config::merge(Settings::default(), FileConfig::parse(FILE).unwrap());
        assert_eq!(config.addr, "0.0.0.0:9000");
        assert_eq!(config.catalog, Some(PathBuf::from("from-file.json")));
        assert_eq!(config.user, "bob");
        assert_eq!(config.data_dir, PathBuf::from("/var/lib/berth"));
        assert_eq!(config.body_limit, 20480);
        assert_eq!(config.read_timeout, Duration::from_secs(5));
        assert_eq!(config.users[0].tenant_id, "t-acme");
    }

    #[test]
    fn the_database_url_comes_from_the_flag_over_the_file_and_defaults_to_none() {
        assert_eq!(
            Config::merge(Settings::default(), FileConfig::default()).database_url,
            None
        );
        let file = FileConfig::parse(r#"database_url = "postgres://db/berth""#).unwrap();
        assert_eq!(
            Config::merge(Settings::default(), file.clone()).database_url,
            Some("postgres://db/berth".into())
        );
        let config = Config::merge(settings(&["--database-url", "sqlite://x.db"]), file);
        assert_eq!(config.database_url, Some("sqlite://x.db".into()));
    }

    #[test]
    fn flags_override_the_file() {
        let config = Config::merge(
            settings(&["--addr", "127.0.0.1:1", "--user", "carol"]),
            FileConfig::parse(FILE).unwrap(),
        );
        assert_eq!(config.addr, "127.0.0.1:1");
        assert_eq!(config.user, "carol");
        // What no flag set still comes from the file.
        assert_eq!(config.catalog, Some(PathBuf::from("from-file.json")));
    }

    #[test]
    fn variables_override_the_file_and_flags_override_variables() {
        // clap reads a flag before its variable; `Settings` is what it found, so a
        // variable's value is merged exactly as a flag's. The binary tests run both.
        let cmd = <Cli as clap::CommandFactory>::command();
        let addr = cmd
            .get_arguments()
            .find(|a| a.get_id() == "addr")
            .expect("--addr exists");
        assert_eq!(addr.get_env(), Some(std::ffi::OsStr::new("BERTH_ADDR")));
        let from_env = Settings {
            addr: Some("10.0.0.1:80".into()),
            ..Settings::default()
        };
        let config = Config::merge(from_env, FileConfig::parse(FILE).unwrap());
        assert_eq!(config.addr, "10.0.0.1:80");
    }

    /// What an operator reads of a file `FileConfig::load` refuses.
    fn refused(text: &str) -> String {
        toml_reason(text, &FileConfig::parse(text).expect_err(text))
    }

    /// A line may hold a password: the reason names its line and key, never its value.
    #[test]
    fn a_refused_line_is_named_by_its_key_not_shown() {
        let dir = std::env::temp_dir().join(format!("berth-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir is writable");
        for (text, line, key) in [
            (
                "addr = \"127.0.0.1:1\"\nsmtp_password = \"hunter2-relay\"\n",
                2,
                "smtp_password",
            ),
            (
                "database_ur = \"postgres://berth:hunter2-db@db/berth\"\n",
                1,
                "database_ur",
            ),
        ] {
            let path = dir.join("berth.toml");
            std::fs::write(&path, text).expect("temp dir is writable");
            let err = FileConfig::load(&path).expect_err(text).to_string();
            assert!(
                err.contains(&format!("line {line}, column 1, at `{key}`")),
                "{err}"
            );
            assert!(!err.contains("hunter2"), "{err}");
        }
        // Text where a number or a switch goes is not quoted back, nor a string's
        // ending escapes.
        assert_eq!(
            refused("[limits]\nbody_bytes = \"hunter2-pw\"\n"),
            "line 2, column 14, at `body_bytes`: the value is text in quotes: must be a \
             whole number, at least 16384, written with no quotes and no unit"
        );
        let err = refused("[identity]\nmode = \"proxy\"\ntrusted = \"hunter2-pw\"\n");
        assert!(
            err.starts_with("line 3, column 11, at `trusted`: invalid type: a string, expected "),
            "{err}"
        );
        assert_eq!(
            unquoted(r#"invalid type: string "hunter2 \", expected x", expected a boolean"#),
            "invalid type: a string, expected a boolean"
        );
        assert_eq!(
            unquoted("unknown variant `kubernetees`, expected `local` or `kubernetes`"),
            "unknown variant `kubernetees`, expected `local` or `kubernetes`"
        );
        // A table's header is named as the line's key.
        let err = refused("[limits]\nbody_bytes = 16384\n[limits]\n");
        assert!(
            err.starts_with("line 3, column 2, at `[limits]`: duplicate key"),
            "{err}"
        );
    }

    #[test]
    fn users_nothing_else_knows_are_said() {
        let catalog = shared::demo::catalog();
        assert_eq!(
            unknown_users(&Config::demo("dist".into()), &catalog),
            Vec::<String>::new()
        );
        let mut config = Config::demo("dist".into());
        config.users = vec![shared::demo::user()];
        config.user = "alcie".into();
        let mut catalog = catalog;
        let mut stray = catalog.quotas[0].clone();
        stray.user = "bobb".into();
        catalog.quotas.push(stray.clone());
        catalog.quotas.push(stray);
        let mut var = catalog.persistent_env[0].clone();
        var.user = "anna".into();
        catalog.persistent_env.push(var);
        let said = unknown_users(&config, &catalog);
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(
            said[0].starts_with("user `alcie` (--user, BERTH_USER, user) is in no [[users]] entry"),
            "{said:?}"
        );
        assert!(
            said[1].starts_with("the catalog's quotas name `bobb`, who is in no project group"),
            "{said:?}"
        );
        assert!(
            said[2].starts_with(
                "the catalog's persistent_env names `anna`, who is in no project group"
            ),
            "{said:?}"
        );
    }

    /// A persistent env var's value, hidden or not, is not quoted in the catalog's
    /// refusal; a number elsewhere still is, to find it by.
    #[test]
    fn a_catalog_refusal_leaves_an_env_value_out() {
        let refusal = |pointer: &str| {
            let mut file: serde_json::Value =
                serde_json::from_str(shared::demo::CATALOG_FILE).expect("the demo reads");
            *file.pointer_mut(pointer).expect("the demo has it") = 98765432101234_u64.into();
            let err = shared::CatalogFile::from_json(&file.to_string()).expect_err("refused");
            catalog_reason(&err)
        };
        let env = refusal("/catalog/persistent_env/0/value");
        assert!(
            env.ends_with("persistent_env[0].value: invalid type: a number, expected a string"),
            "{env}"
        );
        let name = refusal("/catalog/persistent_env/0/name");
        assert!(!name.contains("98765432101234"), "{name}");
        let node = refusal("/catalog/regions/0/clusters/0/pools/0/nodes/0/name");
        assert!(node.contains("the number 98765432101234"), "{node}");
        // A catalog without its wrapper is told where its fields go.
        let err = shared::CatalogFile::from_json(r#"{"regions": []}"#).expect_err("refused");
        assert!(
            catalog_reason(&err).ends_with("put the catalog's fields inside `catalog`"),
            "{}",
            catalog_reason(&err)
        );
    }

    #[test]
    fn an_unknown_field_is_named_with_its_line() {
        let err = refused("addr = \"x\"\n\n[limits]\nbody_size = 3\n");
        assert!(err.contains("body_size"), "{err}");
        assert!(err.contains("line 4"), "{err}");
    }

    /// No time at all would cut off every client before its first byte, and a time past
    /// what a clock can add panicked on every connection; no body at all refused every
    /// request; a retry's wait past a clock's reach was said as a start in 292 million
    /// years. Each is refused at its key and line, with its range.
    #[test]
    fn numbers_out_of_their_range_are_refused_with_key_line_and_range() {
        for (text, key, line, range) in [
            (
                "[limits]\nread_seconds = 0\n",
                "read_seconds",
                2,
                "from 1 to 3600",
            ),
            (
                "[limits]\nread_seconds = 18446744073709551615\n",
                "read_seconds",
                2,
                "from 1 to 3600",
            ),
            (
                "[limits]\n\nbody_bytes = 0\n",
                "body_bytes",
                3,
                "at least 16384",
            ),
            (
                "[retries]\nbackoff_seconds = 1\nbackoff_max_seconds = 86401\n",
                "backoff_max_seconds",
                3,
                "from 0 to 86400",
            ),
        ] {
            let err = refused(text);
            assert!(err.contains(key), "{err}");
            assert!(err.contains(&format!("line {line}")), "{err}");
            assert!(err.contains(range), "{err}");
        }
        let edges = FileConfig::parse(
            "[limits]\nread_seconds = 3600\nbody_bytes = 16384\n[retries]\nbackoff_seconds = 86400\nbackoff_max_seconds = 86400\n",
        )
        .expect("the edges are taken");
        let config = Config::merge(Settings::default(), edges);
        assert_eq!(
            (config.read_timeout, config.body_limit),
            (Duration::from_secs(3600), 16384)
        );
    }

    /// A number that is negative, text (`"2MB"`) or a fraction is refused with the range
    /// in words, as one out of range is, and a port past 65535 too: each said "expected
    /// u64" or "expected u16" (operator exploration). The key is on the line shown.
    #[test]
    fn numbers_of_the_wrong_kind_are_refused_with_their_range() {
        for (text, key, said) in [
            (
                "[limits]\nbody_bytes = -1\n",
                "body_bytes",
                "-1 is out of range: must be at least 16384",
            ),
            (
                "[limits]\nbody_bytes = \"2MB\"\n",
                "body_bytes",
                "at `body_bytes`: the value is text in quotes: must be a whole number, at least 16384, written with no quotes and no unit",
            ),
            (
                "[retries]\nbackoff_seconds = -1\n",
                "backoff_seconds",
                "-1 is out of range: must be from 0 to 86400",
            ),
            (
                "[retries]\nbackoff_seconds = 1.5\n",
                "backoff_seconds",
                "1.5 is not a whole number: must be a whole number, from 0 to 86400",
            ),
            (
                "smtp_port = 70000\n",
                "smtp_port",
                "70000 is out of range: must be from 1 to 65535",
            ),
            (
                "smtp_port = 0\n",
                "smtp_port",
                "0 is out of range: must be from 1 to 65535",
            ),
            (
                "[kubernetes]\nusage_refresh_seconds = -5\n",
                "usage_refresh_seconds",
                "-5 is out of range: must be 0 or more",
            ),
        ] {
            let err = refused(text);
            assert!(err.contains(said), "{err}");
            assert!(err.contains(key), "{err}");
            assert!(!err.contains("expected u"), "{err}");
        }
        let err = Cli::try_parse_from(["berth", "--smtp-port", "0"])
            .expect_err("port 0 is no relay's")
            .to_string();
        assert!(err.contains("0 is not in 1..=65535"), "{err}");
        assert_eq!(
            FileConfig::parse("smtp_port = 65535\n").map(|f| f.smtp_port),
            Ok(Some(65535))
        );
    }

    /// A key of another mode beside `mode = "default"` (a half-edited table) is refused,
    /// as it is beside the other modes.
    #[test]
    fn the_default_identity_takes_no_other_key() {
        let err = FileConfig::parse("[identity]\nmode = \"default\"\ntokens_file = \"x\"\n")
            .expect_err("refused")
            .to_string();
        assert!(
            err.contains("[identity] tokens_file is no key of mode = \"default\""),
            "{err}"
        );
        assert_eq!(
            FileConfig::parse("[identity]\nmode = \"default\"\n")
                .unwrap()
                .identity,
            Some(IdentityConfig::Default {})
        );
    }

    /// What loads but cannot be meant is said, each with what to do; the demo catalog
    /// has none of it.
    #[test]
    fn a_catalog_that_loads_but_cannot_be_meant_is_warned_of() {
        let user = shared::demo::user();
        let usage = shared::demo::usage();
        // The demo keeps one such spec, to show a task that can never start.
        let l40s = "one unit of spec `l40s-8g` of cluster `sh-b` (8 GPU, 128 vCPU, 960 GiB) is \
                    more than any node of its model holds: no task can use it";
        assert_eq!(
            catalog_warnings(&shared::demo::catalog(), &usage, &user),
            [l40s]
        );
        let mut catalog = shared::demo::catalog();
        catalog.time_zones.push("Asia/Shangai".into());
        catalog.tags.maintained.push(shared::task::Tag {
            key: "team".into(),
            value: "speech recognition".into(),
        });
        catalog.tags.maintained.push(shared::task::Tag {
            key: "kubernetes.io/team".into(),
            value: "nlp".into(),
        });
        let cluster = &mut catalog.regions[0].clusters[0];
        assert_eq!(cluster.id, "sh-a");
        let whole = cluster
            .specs
            .iter_mut()
            .find(|s| s.id == "h100-8g")
            .unwrap();
        // Its nodes have 8 GPUs each.
        whole.per_unit.gpu = 16;
        let mut b200 = whole.clone();
        b200.id = "b200-8g".into();
        b200.gpu_model = Some("B200".into());
        cluster.specs.push(b200);
        let mut usage = usage;
        usage
            .nodes
            .insert("sh-a-h100-00".into(), shared::Resources::new(9, 10, 10));
        let said = catalog_warnings(&catalog, &usage, &user);
        assert_eq!(
            said,
            [
                "the catalog's time_zones list `Asia/Shangai`, which is no time zone of this \
                 machine's zone database: correct it (as `Asia/Shanghai`) or remove it",
                "the catalog's maintained tag `team=speech recognition` breaks the tag rules, \
                 so no task can carry it: value: use at most 63 letters, digits, '-', '_' or \
                 '.', starting and ending with a letter or digit",
                "the catalog's maintained tag `kubernetes.io/team=nlp` breaks the tag rules, so \
                 no task can carry it: key: this prefix belongs to the platform or a \
                 scheduler; use your own prefix or none",
                "one unit of spec `h100-8g` of cluster `sh-a` (16 GPU, 192 vCPU, 1800 GiB) is \
                 more than any node of its model holds: no task can use it",
                "spec `b200-8g` of cluster `sh-a` is hosted by no node of its pools (their GPU \
                 models differ): no task can use it",
                "the usage of node `sh-a-h100-00` (9 GPU, 10 vCPU, 10 GiB) is more than its \
                 total (8 GPU, 192 vCPU, 1800 GiB): it is counted as full",
                l40s,
            ]
        );
    }

    #[test]
    fn an_empty_user_or_a_user_named_twice_is_refused() {
        let empty = Config::merge(settings(&["--user", ""]), FileConfig::default());
        let err = empty.check().expect_err("refused").to_string();
        assert!(err.contains("(--user, BERTH_USER, user)"), "{err}");
        let twice = FileConfig::parse(
            "[[users]]\nname = \"bob\"\norg = \"A\"\ntenant_id = \"t\"\n\
             [[users]]\nname = \"bob\"\norg = \"B\"\ntenant_id = \"u\"\n",
        )
        .unwrap();
        let err = Config::merge(Settings::default(), twice)
            .check()
            .expect_err("refused")
            .to_string();
        assert_eq!(
            err,
            "[[users]] entries 1 and 2 both name `bob`: give each user once"
        );
        assert!(
            Config::merge(Settings::default(), FileConfig::default())
                .check()
                .is_ok()
        );
    }

    #[test]
    fn cors_origins_are_read_and_anything_but_an_origin_is_refused_with_the_fix() {
        let file = FileConfig::parse(
            "[cors]\norigins = [\"https://portal.example.com\", \"http://localhost:3000\"]\n",
        )
        .unwrap();
        let config = Config::merge(Settings::default(), file);
        assert_eq!(
            config.cors_origins,
            ["https://portal.example.com", "http://localhost:3000"]
        );
        assert!(
            Config::merge(Settings::default(), FileConfig::default())
                .cors_origins
                .is_empty()
        );
        for bad in [
            "*",
            "portal.example.com",
            "https://portal.example.com/",
            "https://portal.example.com/app",
            "https://Portal.example.com",
            "ftp://portal.example.com",
            "https://*.example.com",
            "https://portal.example.com:443",
        ] {
            let err = FileConfig::parse(&format!("[cors]\norigins = [\"{bad}\"]\n"))
                .expect_err(bad)
                .to_string();
            assert!(err.contains("line 2"), "{bad}: {err}");
            assert!(err.contains("scheme://host[:port]"), "{bad}: {err}");
        }
    }

    /// Brief srv8 item 2: an empty cleanup image would make every RayJob's cleanup Job
    /// fail at its end; the config is refused at load, naming the key and the fix.
    #[test]
    fn an_empty_cleanup_image_is_refused_naming_the_key_and_the_fix() {
        for empty in ["", "  "] {
            let err = FileConfig::parse(&format!(
                "backend = \"kubernetes\"\n\n[kubernetes]\ncleanup_image = \"{empty}\"\n"
            ))
            .expect_err("refused")
            .to_string();
            assert!(err.contains("line 4"), "{err}");
            assert!(err.contains("[kubernetes] cleanup_image is empty"), "{err}");
            assert!(err.contains("busybox:1.37"), "{err}");
        }
        // Left out, it is the default.
        let file = FileConfig::parse("[kubernetes]\nkueue = true\n").unwrap();
        assert_eq!(
            Config::merge(Settings::default(), file)
                .kubernetes
                .cleanup_image,
            "busybox:1.37"
        );
    }

    #[test]
    fn a_backend_other_than_local_or_kubernetes_is_refused() {
        let err = FileConfig::parse("backend = \"docker\"\n")
            .expect_err("refused")
            .to_string();
        assert!(err.contains("docker"), "{err}");
        assert!(err.contains("line 1"), "{err}");
    }

    /// A retry waits 10 s, doubling per retry up to 5 minutes, as Kubernetes backs off
    /// a Job's failed pods; `[retries]` changes both (0: no wait), and a cap below the
    /// first wait is refused with the key and its line.
    #[test]
    fn retries_back_off_ten_seconds_doubling_to_five_minutes_unless_the_file_says() {
        let backoff = Config::merge(Settings::default(), FileConfig::default()).retry_backoff;
        let waits: Vec<u64> = (1..=7).map(|n| backoff.delay(n).as_secs()).collect();
        assert_eq!(waits, [10, 20, 40, 80, 160, 300, 300]);
        assert_eq!(backoff.delay(100).as_secs(), 300, "no overflow");

        let file = FileConfig::parse("[retries]\nbackoff_seconds = 2\nbackoff_max_seconds = 5\n")
            .expect("parses");
        let backoff = Config::merge(Settings::default(), file).retry_backoff;
        let waits: Vec<u64> = (1..=4).map(|n| backoff.delay(n).as_secs()).collect();
        assert_eq!(waits, [2, 4, 5, 5]);

        let off = FileConfig::parse("[retries]\nbackoff_seconds = 0\n").expect("parses");
        let backoff = Config::merge(Settings::default(), off).retry_backoff;
        assert_eq!(backoff.delay(1), std::time::Duration::ZERO);
        assert_eq!(backoff.delay(9), std::time::Duration::ZERO);

        let err = FileConfig::parse("[retries]\nbackoff_seconds = 60\nbackoff_max_seconds = 30\n")
            .expect_err("a cap below the first wait")
            .to_string();
        assert!(
            err.contains("backoff_max_seconds (30) is below backoff_seconds (60)"),
            "{err}"
        );
        assert!(err.contains("line 1"), "{err}");
        let err = FileConfig::parse("[retries]\nbackoff = 3\n")
            .expect_err("unknown key")
            .to_string();
        assert!(err.contains("backoff"), "{err}");
    }

    #[test]
    fn the_kubernetes_backend_reads_its_table_and_variables_override_it() {
        let file = FileConfig::parse(
            "backend = \"kubernetes\"\n\n[kubernetes]\nnamespace = \"ml-{group}\"\n\
             kubeconfig = \"/etc/berth/kubeconfig\"\nkueue = true\n\
             cleanup_image = \"registry.example.com/busybox:1.37\"\n\
             usage_refresh_seconds = 15\n",
        )
        .unwrap();
        let config = Config::merge(Settings::default(), file.clone());
        assert_eq!(config.kubernetes.usage_refresh_seconds, 15);
        assert_eq!(
            config.kubernetes.cleanup_image,
            "registry.example.com/busybox:1.37"
        );
        assert_eq!(config.backend, Backend::Kubernetes);
        assert_eq!(config.kubernetes.namespace, "ml-{group}");
        assert_eq!(
            config.kubernetes.kubeconfig,
            Some(PathBuf::from("/etc/berth/kubeconfig"))
        );
        assert!(config.kubernetes.kueue);
        assert_eq!(config.kubernetes.context, None);

        let config = Config::merge(
            settings(&[
                "--backend",
                "local",
                "--kube-namespace",
                "shared",
                "--kube-context",
                "prod",
            ]),
            file,
        );
        assert_eq!(config.backend, Backend::Local);
        assert_eq!(config.kubernetes.namespace, "shared");
        assert_eq!(config.kubernetes.context.as_deref(), Some("prod"));
        assert!(config.kubernetes.kueue, "what no flag set stays");

        let cmd = <Cli as clap::CommandFactory>::command();
        let env = |id: &str| {
            cmd.get_arguments()
                .find(|a| a.get_id() == id)
                .and_then(|a| a.get_env())
                .map(|e| e.to_string_lossy().into_owned())
        };
        assert_eq!(env("backend").as_deref(), Some("BERTH_BACKEND"));
        assert_eq!(
            env("kube_namespace").as_deref(),
            Some("BERTH_KUBE_NAMESPACE")
        );

        let defaults = Config::merge(Settings::default(), FileConfig::default());
        assert_eq!(defaults.kubernetes.namespace, "berth-{group}");
        assert_eq!(defaults.kubernetes.usage_refresh_seconds, 60);
        let err = FileConfig::parse("[kubernetes]\nnamespaces = \"x\"\n")
            .expect_err("refused")
            .to_string();
        assert!(err.contains("namespaces"), "{err}");
    }

    /// A network is trusted as each address in it, by IPv4 or IPv6, and an IPv4 peer
    /// seen through an IPv6 socket as itself; a network badly written says how to
    /// write one.
    #[test]
    fn a_trusted_proxy_may_be_a_network() {
        let trusted = |text: &str| text.parse::<Trusted>().expect(text);
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        let ingress = trusted("10.1.0.0/16");
        assert!(ingress.contains(ip("10.1.0.0")));
        assert!(ingress.contains(ip("10.1.255.7")));
        assert!(ingress.contains(ip("::ffff:10.1.2.3")));
        assert!(!ingress.contains(ip("10.2.0.1")));
        assert!(!ingress.contains(ip("::1")));
        let one = trusted("10.0.0.5");
        assert!(one.contains(ip("10.0.0.5")) && !one.contains(ip("10.0.0.6")));
        // Written as an IPv6 socket reports it, an IPv4 address is that address.
        let mapped = trusted("::ffff:10.0.0.5");
        assert!(mapped.contains(ip("10.0.0.5")) && mapped.contains(ip("::ffff:10.0.0.5")));
        assert!(trusted("::ffff:10.0.0.0/104").contains(ip("10.0.0.9")));
        let v6 = trusted("fd00::/8");
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        assert_eq!(
            (ingress.to_string(), one.to_string(), format!("{v6:?}")),
            (
                "10.1.0.0/16".to_owned(),
                "10.0.0.5".to_owned(),
                "fd00::/8".to_owned()
            )
        );
        for (bad, said) in [
            (
                "10.0.0.0/33",
                "has no network length from 0 to 32 after '/'",
            ),
            ("fd00::/129", "from 0 to 128"),
            ("10.0.0.0/", "has no network length"),
            ("proxy.internal", "is not an IP address or network"),
            ("0.0.0.0/0", "trusts every address"),
            ("::/0", "trusts every address"),
            ("::ffff:0.0.0.0/96", "trusts every address"),
        ] {
            let err = bad.parse::<Trusted>().expect_err(bad);
            assert!(err.contains(said), "{err}");
            assert!(
                err.contains("write a proxy's address (10.0.0.5, ::1) or its network (10.0.0.0/8)"),
                "{err}"
            );
        }
        // A network written with an address's bits set is asked about, not guessed:
        // the one proxy and its network trust very different clients.
        for (bad, said) in [
            (
                "10.0.0.1/8",
                r#""10.0.0.1/8" has address bits set past its /8: write its network (10.0.0.0/8) or the one address (10.0.0.1/32 or 10.0.0.1)"#,
            ),
            (
                "fd00::1/8",
                r#""fd00::1/8" has address bits set past its /8: write its network (fd00::/8) or the one address (fd00::1/128 or fd00::1)"#,
            ),
            (
                "::ffff:10.0.0.5/104",
                r#""::ffff:10.0.0.5/104" has address bits set past its /104: write its network (10.0.0.0/8) or the one address (10.0.0.5/32 or 10.0.0.5)"#,
            ),
        ] {
            assert_eq!(bad.parse::<Trusted>().expect_err(bad), said);
        }
        let file = FileConfig::parse("[identity]\nmode = \"proxy\"\ntrusted = [\"10.0.0.0/8\"]\n")
            .expect("a network is taken");
        assert!(matches!(
            file.identity,
            Some(IdentityConfig::Proxy { trusted, .. }) if trusted == vec![trusted_net("10.0.0.0/8")]
        ));
    }

    fn trusted_net(text: &str) -> Trusted {
        text.parse().unwrap()
    }

    /// One origin written as a string is a list of one, checked as any.
    #[test]
    fn one_origin_may_be_a_string() {
        let file =
            FileConfig::parse("[cors]\norigins = \"https://portal.example.com\"\n").expect("taken");
        assert_eq!(
            file.cors.origins,
            vec!["https://portal.example.com".to_owned()]
        );
        let err = refused("[cors]\norigins = \"https://portal.example.com/\"\n");
        assert!(err.contains("is not an origin"), "{err}");
        let err = refused("[cors]\norigins = 5\n");
        assert!(err.contains("expected a list of origins"), "{err}");
    }

    #[test]
    fn the_identity_table_names_its_mode() {
        assert_eq!(
            Config::merge(Settings::default(), FileConfig::default()).identity,
            IdentityConfig::Default {}
        );
        let proxy = FileConfig::parse(
            "[identity]\nmode = \"proxy\"\norg_header = \"X-Org\"\ntrusted = [\"10.0.0.5\", \"::1\"]\n",
        )
        .unwrap();
        assert_eq!(
            proxy.identity,
            Some(IdentityConfig::Proxy {
                user_header: "x-forwarded-user".into(),
                org_header: Some("X-Org".into()),
                tenant_header: None,
                trusted: vec!["10.0.0.5".parse().unwrap(), "::1".parse().unwrap()],
            })
        );
        let tokens = FileConfig::parse(
            "[identity]\nmode = \"tokens\"\ntokens_file = \"/etc/berth/tokens.toml\"\n",
        )
        .unwrap();
        assert_eq!(
            tokens.identity,
            Some(IdentityConfig::Tokens {
                tokens_file: PathBuf::from("/etc/berth/tokens.toml")
            })
        );
        let err = FileConfig::parse("[identity]\nmode = \"ldap\"\n")
            .expect_err("refused")
            .to_string();
        assert!(err.contains("ldap"), "{err}");
        // A misspelt key and a bad address are named at their own line.
        let err = FileConfig::parse(
            "[identity]\nmode = \"proxy\"\ntrusted = [\"127.0.0.1\"]\nuser_heder = \"X\"\n",
        )
        .expect_err("refused")
        .to_string();
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("unknown field `user_heder`"), "{err}");
        let err = FileConfig::parse("[identity]\nmode = \"proxy\"\n\ntrusted = [\"not-an-ip\"]\n")
            .expect_err("refused")
            .to_string();
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("trusted"), "{err}");
        for header in ["X User", ""] {
            let err = FileConfig::parse(&format!(
                "[identity]\nmode = \"proxy\"\ntrusted = [\"::1\"]\nuser_header = \"{header}\"\n"
            ))
            .expect_err("refused")
            .to_string();
            assert!(err.contains("is no HTTP header name"), "{err}");
        }
        let err = FileConfig::parse("[identity]\nmode = \"tokens\"\n")
            .expect_err("refused")
            .to_string();
        assert!(
            err.contains("[identity] mode = \"tokens\" needs `tokens_file`"),
            "{err}"
        );
    }

    #[test]
    fn the_subcommand_defaults_to_serve() {
        let cli = Cli::try_parse_from(["berth"]).unwrap();
        assert!(cli.command.is_none());
        let cli = Cli::try_parse_from(["berth", "validate", "a.json", "--lang", "zh-CN"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Validate(ref v)) if v.lang == LangArg::ZhCn));
    }
}
