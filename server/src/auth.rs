//! Who is asking. Three ways, chosen in the configuration:
//!
//! - **Default** (the embedded setup): every request acts as one configured user, the
//!   demo user `alice` unless set otherwise.
//! - **Proxy**: an authenticating proxy in front of Berth sets the user name (and
//!   optionally the organisation and tenant) in request headers. The headers are
//!   believed only when the request comes from one of the configured proxy addresses;
//!   from anywhere else the request is refused, so nobody can name themselves.
//! - **Tokens**: `Authorization: Bearer <token>`, looked up in a tokens file that maps
//!   each token to a user. Tokens are compared in constant time.
//!
//! Project groups come from the catalog: a user's groups are the ones listing them.

use crate::config::{Config, ConfigError, IdentityConfig, UserEntry};
use crate::{ApiError, AppState};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use serde::Deserialize;
use shared::User;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;

/// A request could not be tied to a user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No credentials where some are required.
    #[error("sign in: this server needs {expected}")]
    Missing {
        /// What it expects, in plain words.
        expected: &'static str,
    },
    /// The credentials do not match any user.
    #[error("the bearer token is not valid")]
    BadToken,
    /// Identity headers from an address that is not a trusted proxy.
    #[error("identity headers are accepted only from the authenticating proxy")]
    UntrustedProxy,
    /// An identity header given more than once, on two lines or as a list on one: which
    /// one the proxy set is unknown.
    #[error(
        "the identity header {header} is given more than once (on two lines, or as a \
         comma-separated list); the proxy must set it once, replacing any the client sent"
    )]
    Repeated {
        /// The header's name.
        header: String,
    },
    /// An identity header whose value is not UTF-8 text.
    #[error("the header {header} is not UTF-8 text; send its value as UTF-8")]
    NotText {
        /// The header's name.
        header: String,
    },
    /// More than one `Authorization` header: the request names more than one user.
    #[error("the Authorization header is given more than once; send one Bearer token")]
    TwoTokens,
}

/// How requests are tied to users.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Identity {
    /// Every request is this user.
    Default {
        /// The user.
        user: User,
    },
    /// Headers set by an authenticating proxy.
    Proxy {
        /// Header with the user name, e.g. `X-Forwarded-User`.
        user_header: String,
        /// Header with the organisation, if the proxy sets one.
        #[serde(default)]
        org_header: Option<String>,
        /// Header with the tenant id, if the proxy sets one.
        #[serde(default)]
        tenant_header: Option<String>,
        /// Addresses the proxy connects from.
        trusted: Vec<crate::config::Trusted>,
        /// The configuration's `[[users]]`: the organisation and tenant of a user the
        /// proxy names without them, as the tokens mode looks names up.
        #[serde(skip)]
        users: Vec<User>,
    },
    /// Bearer tokens, each mapped to a user.
    Tokens {
        /// Token → user.
        tokens: HashMap<String, User>,
    },
}

impl Identity {
    /// The user a request with `headers`, coming from `peer`, acts as.
    ///
    /// # Errors
    ///
    /// [`AuthError`] when the request carries no usable identity.
    pub fn identify(
        &self,
        headers: &axum::http::HeaderMap,
        peer: Option<IpAddr>,
    ) -> Result<User, AuthError> {
        // A header's value, trimmed; none when absent or blank. Read as UTF-8: names are
        // the people's own (`张三`, `Acme 中国`), which a proxy sends as UTF-8 bytes, not
        // the visible ASCII `to_str` takes (read as absent, such a user was refused as
        // unnamed, and such an organisation replaced by `[[users]]`' one).
        let header = |name: &str| -> Result<Option<String>, AuthError> {
            let Some(value) = headers.get(name) else {
                return Ok(None);
            };
            let value = std::str::from_utf8(value.as_bytes()).map_err(|_| AuthError::NotText {
                header: name.to_owned(),
            })?;
            Ok(Some(value.trim().to_owned()).filter(|v| !v.is_empty()))
        };
        match self {
            Identity::Default { user } => Ok(user.clone()),
            Identity::Proxy {
                user_header,
                org_header,
                tenant_header,
                trusted,
                users,
            } => {
                if !peer.is_some_and(|p| trusted.iter().any(|t| t.contains(p))) {
                    return Err(AuthError::UntrustedProxy);
                }
                // A proxy that adds its header after the client's, rather than replacing
                // it, would otherwise let the client choose who it is. One that appends
                // its value to the client's line sends a list (`mallory, bob`): a comma
                // joins two values of one header (RFC 9110 5.3), so a value with one cannot
                // be told from the client's and the proxy's.
                let named = [
                    Some(user_header),
                    org_header.as_ref(),
                    tenant_header.as_ref(),
                ];
                let repeated = |name: &&String| {
                    let values = headers.get_all(name.as_str());
                    values.iter().count() > 1
                        || values.iter().any(|value| value.as_bytes().contains(&b','))
                };
                if let Some(repeated) = named.into_iter().flatten().find(repeated) {
                    return Err(AuthError::Repeated {
                        header: repeated.clone(),
                    });
                }
                let name = header(user_header)?.ok_or(AuthError::Missing {
                    expected: "an authenticating proxy that names the user",
                })?;
                let org = org_header.as_deref().map(header).transpose()?.flatten();
                let tenant_id = tenant_header.as_deref().map(header).transpose()?.flatten();
                // They were injected empty (`X_ORG_NAME`, `X_TENANT_ID`) for a proxy that
                // names only the user, whatever `[[users]]` said of them.
                let known = users.iter().find(|u| u.name == name);
                Ok(User {
                    org: org
                        .or_else(|| known.map(|u| u.org.clone()))
                        .unwrap_or_default(),
                    tenant_id: tenant_id
                        .or_else(|| known.map(|u| u.tenant_id.clone()))
                        .unwrap_or_default(),
                    name,
                })
            }
            Identity::Tokens { tokens } => {
                // Read as the first, a second token was ignored: which user the request
                // is for would depend on the order a client or a proxy wrote them in.
                if headers.get_all("authorization").iter().count() > 1 {
                    return Err(AuthError::TwoTokens);
                }
                let given = header("authorization")?
                    .as_deref()
                    .and_then(bearer_token)
                    .ok_or(AuthError::Missing {
                        expected: "an Authorization: Bearer token",
                    })?;
                // Every token is compared in full, so the time taken says nothing about
                // how much of a token was right.
                let mut found = None;
                for (token, user) in tokens {
                    if constant_time_eq(token.as_bytes(), given.as_bytes()) {
                        found = Some(user.clone());
                    }
                }
                found.ok_or(AuthError::BadToken)
            }
        }
    }
}

/// The token of an `Authorization: Bearer <token>` value. The scheme is matched
/// without regard to case and may be followed by several spaces (RFC 9110 11.1 and
/// 11.4): `bearer <token>` from a client that writes it so is the same credential.
fn bearer_token(value: &str) -> Option<String> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim_start_matches(' ');
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then(|| token.to_owned())
}

impl Identity {
    /// The identity the configuration asks for: the configured user, the proxy's
    /// headers, or the tokens file's tokens (read now).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when the tokens file cannot be read or parsed, has no token or
    /// an empty one, or a proxy has no trusted address.
    pub fn from_config(config: &Config) -> Result<Identity, ConfigError> {
        match &config.identity {
            IdentityConfig::Default {} => Ok(Identity::Default {
                user: config.user_named(&config.user),
            }),
            IdentityConfig::Proxy {
                user_header,
                org_header,
                tenant_header,
                trusted,
            } => {
                if trusted.is_empty() {
                    return Err(ConfigError::Identity(
                        "mode \"proxy\" needs the proxy's addresses in `trusted`".into(),
                    ));
                }
                Ok(Identity::Proxy {
                    user_header: user_header.to_ascii_lowercase(),
                    org_header: org_header.as_deref().map(str::to_ascii_lowercase),
                    tenant_header: tenant_header.as_deref().map(str::to_ascii_lowercase),
                    trusted: trusted.clone(),
                    users: config.users.clone(),
                })
            }
            IdentityConfig::Tokens { tokens_file } => {
                let text = std::fs::read_to_string(tokens_file).map_err(|source| {
                    ConfigError::ReadTokens {
                        path: tokens_file.clone(),
                        source,
                    }
                })?;
                let entries = parse_tokens(tokens_file, &text).map_err(|reason| {
                    ConfigError::ParseTokens {
                        path: tokens_file.clone(),
                        reason,
                    }
                })?;
                warn_of_weak_tokens(tokens_file, &entries);
                for said in unmatched_users(tokens_file, &entries, &config.users) {
                    tracing::warn!("{said}");
                }
                let tokens = entries
                    .into_iter()
                    .map(|(token, user)| {
                        let user = match user {
                            TokenUser::Name(name) => config.user_named(&name),
                            TokenUser::Full(entry) => User::from(entry),
                        };
                        (token, user)
                    })
                    .collect();
                Ok(Identity::Tokens { tokens })
            }
        }
    }

    /// Whether refusals should carry `WWW-Authenticate: Bearer`.
    fn wants_bearer(&self) -> bool {
        matches!(self, Identity::Tokens { .. })
    }
}

/// A user in a tokens file: a name (looked up in `[[users]]`) or a whole user.
enum TokenUser {
    Name(String),
    Full(UserEntry),
}

/// Read by the value's own type, not tried as each in turn (`untagged`), which said only
/// "data did not match any variant of untagged enum TokenUser" for a misspelt field or a
/// number (README exploration); now a user's own fields are named as they are wrong.
impl<'de> Deserialize<'de> for TokenUser {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = TokenUser;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a user's name, or a table of its name, org and tenant_id")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<TokenUser, E> {
                Ok(TokenUser::Name(name.to_owned()))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TokenUser, A::Error> {
                UserEntry::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TokenUser::Full)
            }
        }
        deserializer.deserialize_any(Either)
    }
}

/// A tokens file's entries in the file's order, refusing a token given twice: JSON's
/// reader kept the last one without a word, so one token could stand for either user
/// as the file was edited (security exploration). TOML's reader refuses it itself.
struct TokenEntries(Vec<(String, TokenUser)>);

impl<'de> Deserialize<'de> for TokenEntries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = TokenEntries;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of token to user")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<TokenEntries, A::Error> {
                let mut entries: Vec<(String, TokenUser)> = Vec::new();
                while let Some(token) = map.next_key::<String>()? {
                    let user = map.next_value::<TokenUser>()?;
                    if entries.iter().any(|(seen, _)| *seen == token) {
                        return Err(serde::de::Error::custom(
                            "a token is given twice: give each token once",
                        ));
                    }
                    entries.push((token, user));
                }
                Ok(TokenEntries(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// A tokens file, TOML (`"token" = "alice"`) or JSON (`{"token": "alice"}`): JSON when
/// it is named `.json` or starts with `{`. Errors name lines and users, never a token.
fn parse_tokens(path: &Path, text: &str) -> Result<Vec<(String, TokenUser)>, String> {
    let json = path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let TokenEntries(entries) = if json {
        serde_json::from_str(text).map_err(|e| {
            let what = if e.is_data() && e.to_string().contains("given twice") {
                "a token is given twice: give each token once"
            } else {
                "not a JSON object of token to user"
            };
            format!("{what} (line {}, column {})", e.line(), e.column())
        })?
    } else {
        toml::from_str(text).map_err(|e| {
            let start = e.span().map_or(0, |span| span.start.min(text.len()));
            let line = text[..start].matches('\n').count() + 1;
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_text = text[line_start..].lines().next().unwrap_or("").trim();
            // A table's header (`[a.b.c]`) names its key as a `key =` line does.
            let key = match line_text.strip_prefix('[') {
                Some(header) => header
                    .trim_start_matches('[')
                    .split(']')
                    .next()
                    .unwrap_or(""),
                None => line_text.split_once('=').map_or("", |(key, _)| key),
            }
            .trim();
            // A token left unquoted is read as keys, split at each `.` (a JWT), and the
            // parser's words quote a piece of it (review): said without them.
            if !key.starts_with(['"', '\'']) && key.contains('.') {
                format!(
                    "a token written without quotes is read as TOML keys, split at each '.' \
                     (line {line}): quote each token, as \"…\" = \"alice\""
                )
            } else {
                format!("{} (line {line})", e.message().trim_end())
            }
        })?
    };
    if entries.is_empty() {
        return Err("it maps no token to a user".into());
    }
    for (token, user) in &entries {
        let whose = match user {
            TokenUser::Name(name) => name.as_str(),
            TokenUser::Full(entry) => entry.name.as_str(),
        };
        if token.trim().is_empty() {
            return Err(format!("the token of `{whose}` is empty"));
        }
        // What a client cannot send in `Authorization: Bearer <token>`, or what the
        // header's reading takes off, so such a token never matched: `Bearer ` pasted
        // in, a control character or one not ASCII, a space at either end. Other
        // characters outside RFC 6750's are sent as they are, and kept (review).
        let fix = if token.to_ascii_lowercase().starts_with("bearer ") {
            Some(
                "it begins with `Bearer `: write the token alone, as the client sends it after `Bearer `",
            )
        } else if token.chars().any(|c| c.is_control() || !c.is_ascii()) {
            Some(
                "it holds a control character or one not ASCII, which HTTP headers are not meant to carry: use letters, digits and `-._~+/`",
            )
        } else if token.trim() != token {
            Some(
                "it begins or ends with a space, which the header's reading takes off: take it out",
            )
        } else {
            None
        };
        if let Some(fix) = fix {
            return Err(format!("the token of `{whose}` cannot be sent: {fix}"));
        }
    }
    Ok(entries)
}

/// The tokens file's risks that still let Berth start, said once at start: a token
/// short enough to guess, and a file other users of the machine may read.
/// Tokens and `[[users]]` entries that do not meet (lab admin explorer: each unsaid): a
/// `[[users]]` user no token names cannot sign in, and a token's user named by a name
/// alone that no `[[users]]` entry lists is served in the demo organisation (with no
/// `[[users]]` at all, every name alone is, as one organisation's setup has it).
fn unmatched_users(path: &Path, entries: &[(String, TokenUser)], users: &[User]) -> Vec<String> {
    let mut said = Vec::new();
    let named = |name: &str| {
        entries.iter().any(|(_, user)| match user {
            TokenUser::Name(n) => n == name,
            TokenUser::Full(entry) => entry.name == name,
        })
    };
    for user in users {
        if !named(&user.name) {
            said.push(format!(
                "[[users]] lists `{}`, whom no token of {} names: that user cannot sign in; \
                 give them a token or remove the entry",
                user.name,
                path.display()
            ));
        }
    }
    let mut unlisted: Vec<&str> = Vec::new();
    for (_, user) in entries {
        if let TokenUser::Name(name) = user
            && !users.is_empty()
            && !users.iter().any(|u| u.name == *name)
            && !unlisted.contains(&name.as_str())
        {
            unlisted.push(name);
        }
    }
    if !unlisted.is_empty() {
        said.push(format!(
            "tokens of {} name {} with no [[users]] entry: they are served in the demo \
             organisation; list each in [[users]] with its org and tenant_id, or give the \
             token a table of them",
            path.display(),
            unlisted
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    said
}

fn warn_of_weak_tokens(path: &Path, entries: &[(String, TokenUser)]) {
    const SHORTEST: usize = 16;
    for (token, user) in entries {
        if token.len() < SHORTEST {
            let whose = match user {
                TokenUser::Name(name) => name.as_str(),
                TokenUser::Full(entry) => entry.name.as_str(),
            };
            tracing::warn!(
                "the token of `{whose}` in {} is {} characters: one under {SHORTEST} can be \
                 guessed; give a long random one (`openssl rand -hex 32`)",
                path.display(),
                token.len()
            );
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path)
            && meta.permissions().mode() & 0o004 != 0
        {
            tracing::warn!(
                "the tokens file {} may be read by every user of this machine: \
                 `chmod 600` it (or 640 with Berth's group)",
                path.display()
            );
        }
    }
}

/// The user a request acts as, per the configured [`Identity`]. Every handler that
/// acts for someone takes it. The peer address comes from `ConnectInfo` (the server is
/// served with it); without it (a request driven through the router in-process) there
/// is no peer, which proxy mode refuses.
///
/// Refusals are problem details: `401 auth.required` (with `WWW-Authenticate: Bearer`
/// in tokens mode) when credentials are missing or wrong, `403 auth.untrusted_proxy`
/// when identity headers come from anywhere but the proxy.
#[derive(Clone, Debug)]
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let peer = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .ok()
            .map(|ConnectInfo(addr)| addr.ip().to_canonical());
        state
            .identity
            .identify(&parts.headers, peer)
            .map(CurrentUser)
            .map_err(|err| {
                // Said in the log too, with the peer: an operator whose proxy connects
                // from an address not in `trusted` had no way to learn which (operator
                // explorer). No token is in an error's words. Once a minute for each
                // peer and reason: a client that keeps asking wrote a line a request.
                if refusal_first_in_a_minute(peer, &err) {
                    match err {
                        AuthError::UntrustedProxy => tracing::warn!(
                            peer = ?peer,
                            "a request refused: it did not come from an address in `[identity] trusted`; if this peer is the proxy, add it there"
                        ),
                        _ => tracing::info!(peer = ?peer, reason = %err, "a request's identity was refused"),
                    }
                }
                err
            })
            .map_err(|err| match err {
                AuthError::UntrustedProxy => ApiError::UntrustedProxy,
                AuthError::BadToken => ApiError::Unauthorized {
                    detail: err.to_string(),
                    challenge: state
                        .identity
                        .wants_bearer()
                        .then_some(r#"Bearer error="invalid_token""#),
                },
                AuthError::Missing { .. } => ApiError::Unauthorized {
                    detail: err.to_string(),
                    challenge: state.identity.wants_bearer().then_some("Bearer"),
                },
                AuthError::Repeated { .. } | AuthError::NotText { .. } => ApiError::Unauthorized {
                    detail: err.to_string(),
                    challenge: None,
                },
                AuthError::TwoTokens => ApiError::Unauthorized {
                    detail: err.to_string(),
                    challenge: Some(r#"Bearer error="invalid_request""#),
                },
            })
    }
}

/// Whether a refusal of `err`'s kind for `peer` was not logged in the last minute, noted
/// as logged now. At most [`REFUSALS_KEPT`] peers and kinds are remembered: past that,
/// the memory starts over (a line more, not a line a request).
fn refusal_first_in_a_minute(peer: Option<IpAddr>, err: &AuthError) -> bool {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    type Logged = HashMap<(Option<IpAddr>, std::mem::Discriminant<AuthError>), Instant>;
    static LOGGED: Mutex<Option<Logged>> = Mutex::new(None);
    let key = (peer, std::mem::discriminant(err));
    let now = Instant::now();
    let Ok(mut logged) = LOGGED.lock() else {
        return true;
    };
    let logged = logged.get_or_insert_with(HashMap::new);
    if logged.len() >= REFUSALS_KEPT {
        logged.clear();
    }
    match logged.get(&key) {
        Some(at) if now.duration_since(*at) < Duration::from_secs(60) => false,
        _ => {
            logged.insert(key, now);
            true
        }
    }
}

/// The most peers and kinds of refusal [`refusal_first_in_a_minute`] remembers.
const REFUSALS_KEPT: usize = 1024;

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal is logged once a minute for each peer and kind: a client that keeps
    /// asking wrote a line a request (review).
    #[test]
    fn a_refusal_is_logged_once_a_minute_for_each_peer_and_kind() {
        let peer = |n: u8| Some(IpAddr::from([10, 255, 0, n]));
        assert!(refusal_first_in_a_minute(
            peer(1),
            &AuthError::UntrustedProxy
        ));
        assert!(!refusal_first_in_a_minute(
            peer(1),
            &AuthError::UntrustedProxy
        ));
        assert!(refusal_first_in_a_minute(peer(1), &AuthError::BadToken));
        assert!(refusal_first_in_a_minute(
            peer(2),
            &AuthError::UntrustedProxy
        ));
    }
    use axum::http::{HeaderMap, HeaderValue};

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap());
        }
        map
    }

    fn user(name: &str) -> User {
        User {
            name: name.into(),
            ..User::default()
        }
    }

    #[test]
    fn proxy_headers_count_only_from_the_proxy() {
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let identity = Identity::Proxy {
            user_header: "x-forwarded-user".into(),
            org_header: Some("x-forwarded-org".into()),
            tenant_header: None,
            trusted: vec![proxy.to_string().parse().unwrap()],
            users: vec![User {
                name: "carol".into(),
                org: "Carol's org".into(),
                tenant_id: "t-carol".into(),
            }],
        };
        // A user the proxy names alone is who `[[users]]` says: their organisation and
        // tenant are injected into their tasks. The proxy's own header wins.
        let carol = identity
            .identify(&headers(&[("x-forwarded-user", "carol")]), Some(proxy))
            .expect("from the proxy");
        assert_eq!(
            (carol.org.as_str(), carol.tenant_id.as_str()),
            ("Carol's org", "t-carol")
        );
        let carol = identity
            .identify(
                &headers(&[("x-forwarded-user", "carol"), ("x-forwarded-org", "Other")]),
                Some(proxy),
            )
            .expect("from the proxy");
        assert_eq!(carol.org, "Other");
        let h = headers(&[("x-forwarded-user", "bob"), ("x-forwarded-org", "Acme")]);
        let bob = identity.identify(&h, Some(proxy)).expect("from the proxy");
        assert_eq!((bob.name.as_str(), bob.org.as_str()), ("bob", "Acme"));
        assert_eq!(
            identity.identify(&h, Some("127.0.0.1".parse().unwrap())),
            Err(AuthError::UntrustedProxy)
        );
        assert!(matches!(
            identity.identify(&HeaderMap::new(), Some(proxy)),
            Err(AuthError::Missing { .. })
        ));
        // Names in UTF-8 are the proxy's as written; a value that is not UTF-8 is
        // refused, naming its header, rather than read as no value (a user refused as
        // unnamed, an organisation replaced by `[[users]]`' one).
        let mut chinese = HeaderMap::new();
        chinese.insert(
            "x-forwarded-user",
            HeaderValue::from_bytes("张三".as_bytes()).unwrap(),
        );
        chinese.insert(
            "x-forwarded-org",
            HeaderValue::from_bytes(" Acme 中国 ".as_bytes()).unwrap(),
        );
        let zhang = identity
            .identify(&chinese, Some(proxy))
            .expect("from the proxy");
        assert_eq!(
            (zhang.name.as_str(), zhang.org.as_str()),
            ("张三", "Acme 中国")
        );
        let mut latin1 = headers(&[("x-forwarded-user", "carol")]);
        latin1.insert(
            "x-forwarded-org",
            HeaderValue::from_bytes(b"Caf\xe9").unwrap(),
        );
        assert_eq!(
            identity.identify(&latin1, Some(proxy)),
            Err(AuthError::NotText {
                header: "x-forwarded-org".to_owned()
            })
        );
        // A header the client sent and the proxy added to, rather than replaced: no
        // telling which is the proxy's, so neither is believed.
        for name in ["x-forwarded-user", "x-forwarded-org"] {
            let mut twice =
                headers(&[("x-forwarded-user", "mallory"), ("x-forwarded-org", "Evil")]);
            twice.append(name, "alice".parse().unwrap());
            assert_eq!(
                identity.identify(&twice, Some(proxy)),
                Err(AuthError::Repeated {
                    header: name.to_owned()
                })
            );
        }
    }

    #[test]
    fn bearer_tokens_map_to_their_users() {
        let identity = Identity::Tokens {
            tokens: HashMap::from([
                ("s3cret-a".to_owned(), user("alice")),
                ("s3cret-b".to_owned(), user("bob")),
            ]),
        };
        let as_bob = headers(&[("authorization", "Bearer s3cret-b")]);
        assert_eq!(identity.identify(&as_bob, None).unwrap().name, "bob");
        let wrong = headers(&[("authorization", "Bearer s3cret-c")]);
        assert_eq!(identity.identify(&wrong, None), Err(AuthError::BadToken));
        // The scheme is case-insensitive (RFC 9110 11.1); the token is not.
        for written in ["bearer s3cret-b", "BEARER s3cret-b", "BeArEr   s3cret-b"] {
            let as_bob = headers(&[("authorization", written)]);
            assert_eq!(identity.identify(&as_bob, None).unwrap().name, "bob");
        }
        let upper = headers(&[("authorization", "Bearer S3CRET-B")]);
        assert_eq!(identity.identify(&upper, None), Err(AuthError::BadToken));
        for not_bearer in ["Basic s3cret-b", "Bearers3cret-b", "Bearer", "s3cret-b"] {
            assert!(
                matches!(
                    identity.identify(&headers(&[("authorization", not_bearer)]), None),
                    Err(AuthError::Missing { .. })
                ),
                "{not_bearer}"
            );
        }
        assert!(matches!(
            identity.identify(&HeaderMap::new(), None),
            Err(AuthError::Missing { .. })
        ));
        // Two tokens, good ones both: neither user is chosen.
        let mut both = headers(&[("authorization", "Bearer s3cret-a")]);
        both.append("authorization", "Bearer s3cret-b".parse().unwrap());
        assert_eq!(identity.identify(&both, None), Err(AuthError::TwoTokens));
    }

    fn tokens_config(name: &str, text: &str) -> Config {
        let dir = std::env::temp_dir().join(format!("berth-auth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir is writable");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("temp dir is writable");
        Config {
            identity: IdentityConfig::Tokens { tokens_file: path },
            ..Config::demo("dist".into())
        }
    }

    /// A `[[users]]` user no token names, and a token's name no `[[users]]` entry lists,
    /// are said; with no `[[users]]`, names alone are the demo organisation's, unsaid.
    #[test]
    fn tokens_and_users_that_do_not_meet_are_said() {
        let path = Path::new("/etc/berth/tokens.toml");
        let entries = parse_tokens(
            path,
            "\"tok-a\" = \"alice\"\n\"tok-c\" = \"carol\"\n\"tok-d\" = \"carol\"\n\
             \"tok-b\" = { name = \"bob\", org = \"Acme\", tenant_id = \"t-1\" }\n",
        )
        .unwrap();
        assert_eq!(unmatched_users(path, &entries, &[]), Vec::<String>::new());
        let listed = |name: &str| User {
            name: name.into(),
            ..shared::demo::user()
        };
        assert_eq!(
            unmatched_users(
                path,
                &entries,
                &[listed("alice"), listed("bob"), listed("dan")]
            ),
            [
                "[[users]] lists `dan`, whom no token of /etc/berth/tokens.toml names: that \
                 user cannot sign in; give them a token or remove the entry",
                "tokens of /etc/berth/tokens.toml name `carol` with no [[users]] entry: they \
                 are served in the demo organisation; list each in [[users]] with its org and \
                 tenant_id, or give the token a table of them",
            ]
        );
    }

    #[test]
    fn a_tokens_file_is_read_as_toml_or_json() {
        let toml = tokens_config(
            "tokens.toml",
            "\"tok-a\" = \"alice\"\n\"tok-b\" = { name = \"bob\", org = \"Acme\", tenant_id = \"t-1\" }\n",
        );
        let identity = Identity::from_config(&toml).expect("reads");
        let as_b = headers(&[("authorization", "Bearer tok-b")]);
        let bob = identity.identify(&as_b, None).unwrap();
        assert_eq!((bob.name.as_str(), bob.org.as_str()), ("bob", "Acme"));
        let as_a = headers(&[("authorization", "Bearer tok-a")]);
        // A name alone is the user of that name: the demo user keeps its organisation.
        assert_eq!(
            identity.identify(&as_a, None).unwrap(),
            shared::demo::user()
        );
        let json = tokens_config("tokens.json", r#"{"tok-j": "bob"}"#);
        let identity = Identity::from_config(&json).expect("reads");
        let as_j = headers(&[("authorization", "Bearer tok-j")]);
        assert_eq!(identity.identify(&as_j, None).unwrap().name, "bob");
    }

    #[test]
    fn a_bad_tokens_file_is_refused_without_showing_a_token() {
        let refused = |name: &str, text: &str| {
            Identity::from_config(&tokens_config(name, text))
                .expect_err(text)
                .to_string()
        };
        let err = refused(
            "broken.toml",
            "\"tok-visible-1\" = \"alice\"\n\"tok-visible-2\" = 3\n",
        );
        assert!(err.contains("line 2"), "{err}");
        assert!(!err.contains("tok-visible"), "{err}");
        assert!(
            err.contains("expected a user's name, or a table of its name, org and tenant_id"),
            "{err}"
        );
        // A misspelt field of a whole user is named, at its line.
        let err = refused(
            "misspelt.toml",
            "\"tok-a\" = \"alice\"\n\"tok-b\" = { name = \"bob\", orgg = \"x\", tenant_id = \"t\" }\n",
        );
        assert!(err.contains("unknown field `orgg`"), "{err}");
        assert!(err.contains("line 2"), "{err}");
        assert!(!err.contains("untagged"), "{err}");
        // A token given twice in JSON is refused, as TOML's reader refuses it, at its
        // line and without the token.
        let err = refused(
            "twice.json",
            "{\"tok-visible-3\": \"alice\",\n \"tok-visible-3\": \"bob\"}",
        );
        assert!(err.contains("a token is given twice"), "{err}");
        assert!(err.contains("line 2"), "{err}");
        assert!(!err.contains("tok-visible"), "{err}");
        // A token no client can send is refused by its user, with the fix.
        for (text, said) in [
            (
                "\"Bearer tok-visible-4\" = \"alice\"\n",
                "the token of `alice` cannot be sent: it begins with `Bearer `",
            ),
            (
                "\"tok-visible-5 \" = \"bob\"\n",
                "the token of `bob` cannot be sent: it begins or ends with a space",
            ),
            (
                "\"tok-visible-6\\t\" = { name = \"carol\", org = \"o\", tenant_id = \"t\" }\n",
                "the token of `carol` cannot be sent: it holds a control character",
            ),
            (
                "\"tok-visible-7é\" = \"dave\"\n",
                "the token of `dave` cannot be sent: it holds a control character or one not ASCII",
            ),
        ] {
            let err = refused("unsendable.toml", text);
            assert!(err.contains(said), "{err}");
            assert!(!err.contains("visible"), "{err}");
        }
        // A token given twice in TOML is refused at the line it comes again (recheck:
        // one line early).
        let err = refused(
            "twice.toml",
            "\"tok-visible-8\" = \"alice\"\n\"tok-visible-8\" = \"bob\"\n",
        );
        assert!(err.ends_with("duplicate key (line 2)"), "{err}");
        // Other characters a client sends as they are: taken.
        let odd = tokens_config("odd.toml", "\"tok!@#$%*:^ with space\" = \"alice\"\n");
        let identity = Identity::from_config(&odd).expect("taken");
        let as_odd = headers(&[("authorization", "Bearer tok!@#$%*:^ with space")]);
        assert_eq!(identity.identify(&as_odd, None).unwrap().name, "alice");
        // A token left unquoted, split at its dots, is not quoted back (review).
        let err = refused("jwt.toml", "eyJvisible.eyJpart.sig = { name = \"bob\" }\n");
        assert!(err.contains("a token written without quotes"), "{err}");
        assert!(!err.contains("eyJ"), "{err}");
        // Written as a table's header too (second review).
        let err = refused(
            "jwt-table.toml",
            "[eyJvisible.eyJpart.sig]\nname = \"bob\"\n",
        );
        assert!(!err.contains("eyJ"), "{err}");
        let err = refused("empty.toml", "");
        assert!(err.contains("no token"), "{err}");
        let missing = Config {
            identity: IdentityConfig::Tokens {
                tokens_file: "/nonexistent/berth-tokens.toml".into(),
            },
            ..Config::demo("dist".into())
        };
        assert!(matches!(
            Identity::from_config(&missing),
            Err(ConfigError::ReadTokens { .. })
        ));
        let no_proxy = Config {
            identity: IdentityConfig::Proxy {
                user_header: "x-forwarded-user".into(),
                org_header: None,
                tenant_header: None,
                trusted: vec![],
            },
            ..Config::demo("dist".into())
        };
        assert!(matches!(
            Identity::from_config(&no_proxy),
            Err(ConfigError::Identity(_))
        ));
    }

    #[test]
    fn the_default_identity_is_the_configured_user() {
        let identity = Identity::Default {
            user: user("alice"),
        };
        assert_eq!(
            identity.identify(&HeaderMap::new(), None).unwrap().name,
            "alice"
        );
    }
}
