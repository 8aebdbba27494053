//! How the orders process connects to NATS: who it says it is and over what.
//!
//! The relay (publishes order events, keeps the stream) and the dispatch consumer (reads and
//! acknowledges them) each connect with credentials of their own, so the server can let each do
//! only its part (deploy/nats/accounts.conf): a consumer cannot publish, and neither can delete
//! or purge the stream. Credentials come from the environment, under a prefix: `NATS_` for the
//! relay, `NATS_DISPATCH_` for the consumer (which uses the relay's when it has none of its own):
//! - `<prefix>CREDS`: a `.creds` file (a user JWT and its NKey seed, from `nsc`);
//! - or `<prefix>USER` and `<prefix>PASSWORD`;
//! - or `<prefix>TOKEN`.
//!
//! At most one kind per prefix. TLS: a `tls://` URL, or `NATS_CA_FILE` (the CA the server's
//! certificate is checked against; TLS is then required), with `NATS_CLIENT_CERT` and
//! `NATS_CLIENT_KEY` for servers that verify clients. Outside development a NATS URL without
//! credentials is refused at start: anyone who reaches an open server can delete the stream.
//!
//! This module must never log a password, token or seed.

use std::path::PathBuf;

use tiffin_platform::config::{ConfigError, Environment, Secret};

/// How one connection authenticates.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NatsAuth {
    /// No credentials: development only.
    #[default]
    None,
    /// A `.creds` file (JWT and NKey seed).
    CredsFile(PathBuf),
    UserPassword {
        user: String,
        password: Secret,
    },
    Token(Secret),
}

/// TLS towards the server.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NatsTls {
    /// The CA the server's certificate must chain to; TLS is required when set.
    pub ca_file: Option<PathBuf>,
    /// A client certificate and its key, for a server that verifies clients.
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn invalid(name: &str, reason: &str) -> ConfigError {
    ConfigError {
        name: name.into(),
        value: String::new(),
        reason: reason.into(),
    }
}

impl NatsAuth {
    /// The credentials under `prefix` (`NATS_`, `NATS_DISPATCH_`), read with `lookup`.
    pub fn from_lookup(
        prefix: &str,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let name = |suffix: &str| format!("{prefix}{suffix}");
        let creds = lookup(&name("CREDS"));
        let user = lookup(&name("USER"));
        let password = lookup(&name("PASSWORD"));
        let token = lookup(&name("TOKEN"));
        let kinds = [
            creds.is_some(),
            user.is_some() || password.is_some(),
            token.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() > 1 {
            return Err(invalid(
                &name("CREDS"),
                &format!(
                    "give one of {0}CREDS, {0}USER and {0}PASSWORD, or {0}TOKEN",
                    prefix
                ),
            ));
        }
        Ok(match (creds, user, password, token) {
            (Some(path), ..) => Self::CredsFile(path.into()),
            (_, Some(user), Some(password), _) => Self::UserPassword {
                user,
                password: Secret::new(password),
            },
            (_, Some(_), None, _) => {
                return Err(invalid(&name("PASSWORD"), "required with a user"));
            }
            (_, None, Some(_), _) => {
                return Err(invalid(&name("USER"), "required with a password"));
            }
            (_, _, _, Some(token)) => Self::Token(Secret::new(token)),
            _ => Self::None,
        })
    }
}

impl NatsTls {
    /// `NATS_CA_FILE`, `NATS_CLIENT_CERT` and `NATS_CLIENT_KEY`, read with `lookup`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let client_cert = match (lookup("NATS_CLIENT_CERT"), lookup("NATS_CLIENT_KEY")) {
            (Some(cert), Some(key)) => Some((cert.into(), key.into())),
            (None, None) => None,
            (Some(_), None) => {
                return Err(invalid("NATS_CLIENT_KEY", "required with a certificate"));
            }
            (None, Some(_)) => return Err(invalid("NATS_CLIENT_CERT", "required with a key")),
        };
        Ok(Self {
            ca_file: lookup("NATS_CA_FILE").map(PathBuf::from),
            client_cert,
        })
    }
}

/// The credentials of the relay and of the dispatch consumer, and TLS, from the environment:
/// see the module's opening comment.
pub fn from_env(environment: Environment) -> Result<(NatsAuth, NatsAuth, NatsTls), ConfigError> {
    from_lookup(environment, var)
}

/// [`from_env`] with the environment read through `lookup`.
pub fn from_lookup(
    environment: Environment,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<(NatsAuth, NatsAuth, NatsTls), ConfigError> {
    let relay = NatsAuth::from_lookup("NATS_", &lookup)?;
    let dispatch = match NatsAuth::from_lookup("NATS_DISPATCH_", &lookup)? {
        NatsAuth::None => relay.clone(),
        own => own,
    };
    if relay == NatsAuth::None && !environment.is_development() {
        return Err(invalid(
            "NATS_CREDS",
            "NATS_URL needs credentials outside development (NATS_CREDS, NATS_USER and \
             NATS_PASSWORD, or NATS_TOKEN)",
        ));
    }
    Ok((relay, dispatch, NatsTls::from_lookup(&lookup)?))
}

/// The client options for `auth` and `tls`.
pub async fn options(
    auth: &NatsAuth,
    tls: &NatsTls,
) -> std::io::Result<async_nats::ConnectOptions> {
    let mut options = match auth {
        NatsAuth::None => async_nats::ConnectOptions::new(),
        NatsAuth::CredsFile(path) => {
            async_nats::ConnectOptions::with_credentials_file(path).await?
        }
        NatsAuth::UserPassword { user, password } => {
            async_nats::ConnectOptions::with_user_and_password(
                user.clone(),
                password.expose_str().to_string(),
            )
        }
        NatsAuth::Token(token) => {
            async_nats::ConnectOptions::with_token(token.expose_str().to_string())
        }
    };
    if let Some(ca) = &tls.ca_file {
        options = options.add_root_certificates(ca.clone()).require_tls(true);
    }
    if let Some((cert, key)) = &tls.client_cert {
        options = options.add_client_certificate(cert.clone(), key.clone());
    }
    Ok(options)
}

/// Connects to `url` with `auth` and `tls`.
pub async fn connect(
    url: &str,
    auth: &NatsAuth,
    tls: &NatsTls,
) -> anyhow::Result<async_nats::Client> {
    Ok(options(auth, tls).await?.connect(url).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn each_kind_of_credential_is_read_and_the_consumer_falls_back_to_the_relays() {
        let (relay, dispatch, _) = from_lookup(
            Environment::Production,
            env(&[("NATS_USER", "relay"), ("NATS_PASSWORD", "pw")]),
        )
        .unwrap();
        assert_eq!(
            relay,
            NatsAuth::UserPassword {
                user: "relay".into(),
                password: Secret::new("pw")
            }
        );
        assert_eq!(dispatch, relay);

        let (relay, dispatch, tls) = from_lookup(
            Environment::Production,
            env(&[
                ("NATS_CREDS", "/var/run/nats/relay.creds"),
                ("NATS_DISPATCH_TOKEN", "t"),
                ("NATS_CA_FILE", "/etc/nats/ca.pem"),
            ]),
        )
        .unwrap();
        assert_eq!(
            relay,
            NatsAuth::CredsFile("/var/run/nats/relay.creds".into())
        );
        assert_eq!(dispatch, NatsAuth::Token(Secret::new("t")));
        assert_eq!(tls.ca_file, Some("/etc/nats/ca.pem".into()));
    }

    #[test]
    fn no_credentials_are_refused_outside_development_and_mixed_or_half_ones_anywhere() {
        let refused = from_lookup(Environment::Production, env(&[])).unwrap_err();
        assert_eq!(refused.name, "NATS_CREDS");
        assert!(from_lookup(Environment::Development, env(&[])).is_ok());
        for pairs in [
            &[("NATS_USER", "u")][..],
            &[("NATS_PASSWORD", "p")][..],
            &[("NATS_TOKEN", "t"), ("NATS_CREDS", "/c")][..],
            &[("NATS_TOKEN", "t"), ("NATS_CLIENT_CERT", "/c.pem")][..],
        ] {
            assert!(
                from_lookup(Environment::Development, env(pairs)).is_err(),
                "{pairs:?}"
            );
        }
    }

    #[test]
    fn credentials_never_print() {
        let auth = NatsAuth::UserPassword {
            user: "relay".into(),
            password: Secret::new("hunter2"),
        };
        assert!(!format!("{auth:?}").contains("hunter2"));
    }
}
