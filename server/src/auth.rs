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

use serde::Deserialize;
use shared::User;
use std::collections::HashMap;
use std::net::IpAddr;

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
        trusted: Vec<IpAddr>,
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
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        match self {
            Identity::Default { user } => Ok(user.clone()),
            Identity::Proxy {
                user_header,
                org_header,
                tenant_header,
                trusted,
            } => {
                if !peer.is_some_and(|p| trusted.contains(&p)) {
                    return Err(AuthError::UntrustedProxy);
                }
                let name = header(user_header).ok_or(AuthError::Missing {
                    expected: "an authenticating proxy that names the user",
                })?;
                Ok(User {
                    name,
                    org: org_header.as_deref().and_then(header).unwrap_or_default(),
                    tenant_id: tenant_header
                        .as_deref()
                        .and_then(header)
                        .unwrap_or_default(),
                })
            }
            Identity::Tokens { tokens } => {
                let given = header("authorization")
                    .and_then(|v| v.strip_prefix("Bearer ").map(str::to_owned))
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

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

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
            trusted: vec![proxy],
        };
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
        assert!(matches!(
            identity.identify(&HeaderMap::new(), None),
            Err(AuthError::Missing { .. })
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
