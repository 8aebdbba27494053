//! Who is calling. The edge authenticates the browser's session and states the result to the
//! services it calls as a short-lived token signed with a key only Tiffin's processes hold
//! (`TIFFIN_IDENTITY_KEY`, read by `config::identity_key_from_env`); services read it only through [`Caller`]. A caller that cannot sign
//! (anything else that reaches a service's port) can state no identity: a token that is missing,
//! forged, signed with another key or expired reads as an anonymous caller, whom every per-user
//! call refuses. The edge removes these keys from anything a browser sends.
//!
//! Services calling each other (orders asking payments to charge a customer) sign as themselves,
//! and the token names the signer ([`Caller::signer`]), so a service can tell which process asked.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tonic::metadata::MetadataMap;

use crate::config::MIN_IDENTITY_KEY_LEN;

/// Metadata key with the caller's signed identity token.
pub const TOKEN: &str = "x-tiffin-identity";
/// How long a token is good for: one call, with room for a slow hop and clocks a little apart.
const LIFETIME: Duration = Duration::from_secs(60);
/// The most a token's expiry may be off between two hosts' clocks.
const LEEWAY_SECS: u64 = 5;

/// The key this process signs and checks with, set once at start-up ([`install`]).
struct Keys {
    secret: Vec<u8>,
    encoding: EncodingKey,
    decoding: DecodingKey,
}

static KEYS: OnceLock<Keys> = OnceLock::new();

/// Identity keys could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("TIFFIN_IDENTITY_KEY must be at least {MIN_IDENTITY_KEY_LEN} bytes")]
    TooShort,
    #[error("this process already signs with another identity key")]
    Conflicting,
}

/// Makes `key` the one this process signs and checks identity with. Once per process: installing
/// the same key again is fine (several services started in one test process), another is refused.
pub fn install(key: &[u8]) -> Result<(), KeyError> {
    if key.len() < MIN_IDENTITY_KEY_LEN {
        return Err(KeyError::TooShort);
    }
    let keys = KEYS.get_or_init(|| Keys {
        secret: key.to_vec(),
        encoding: EncodingKey::from_secret(key),
        decoding: DecodingKey::from_secret(key),
    });
    if keys.secret == key {
        Ok(())
    } else {
        Err(KeyError::Conflicting)
    }
}

/// What a token states.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    /// The process that signed it: `edge`, or the service calling another.
    iss: String,
    /// The signed-in user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uid: Option<u64>,
    /// The visitor's public session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<String>,
    /// Unix seconds after which it is refused.
    exp: u64,
}

/// The caller a token states and who signed it, if it is signed with this process's key and not
/// expired.
fn verify(token: &str) -> Option<(Caller, String)> {
    let keys = KEYS.get()?;
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = LEEWAY_SECS;
    validation.set_required_spec_claims(&["exp", "iss"]);
    let claims = jsonwebtoken::decode::<Claims>(token, &keys.decoding, &validation)
        .ok()?
        .claims;
    let session_id = claims.sid.filter(|v| !v.is_empty() && v.len() <= 128);
    Some((
        Caller {
            user_id: claims.uid,
            session_id,
        },
        claims.iss,
    ))
}

/// The name the edge signs as. The edge may call every method of every service.
pub const EDGE: &str = "edge";

/// Which processes may call which methods of one service: the edge every method; another service
/// only the methods listed for it. A call no one signed is refused (`UNAUTHENTICATED`), one signed
/// by a process the method does not list too (`PERMISSION_DENIED`). Checked by [`CallersLayer`]
/// before the call reaches the service.
#[derive(Debug, Clone, Copy)]
pub struct Callers {
    /// (method name as in the proto, the services besides the edge that may call it)
    pub also: &'static [(&'static str, &'static [&'static str])],
}

impl Callers {
    /// Only the edge calls this service.
    pub const EDGE_ONLY: Callers = Callers { also: &[] };

    fn admit(&self, method: &str, headers: &http::HeaderMap) -> Result<(), tonic::Status> {
        let signer = headers
            .get(TOKEN)
            .and_then(|v| v.to_str().ok())
            .and_then(verify)
            .map(|(_, signer)| signer)
            .ok_or_else(|| tonic::Status::unauthenticated("the call is not signed by Tiffin"))?;
        let listed = self
            .also
            .iter()
            .any(|(m, who)| *m == method && who.contains(&signer.as_str()));
        if signer == EDGE || listed {
            Ok(())
        } else {
            Err(tonic::Status::permission_denied(format!(
                "{signer} may not call {method}"
            )))
        }
    }
}

/// Checks every call to the service named `service` against its [`Callers`] (other services on
/// the same server, health and reflection, are not checked).
#[derive(Debug, Clone, Copy)]
pub struct CallersLayer {
    pub service: &'static str,
    pub callers: Callers,
}

impl<S> tower::Layer<S> for CallersLayer {
    type Service = CallersCheck<S>;
    fn layer(&self, inner: S) -> CallersCheck<S> {
        CallersCheck {
            inner,
            layer: *self,
        }
    }
}

/// See [`CallersLayer`].
#[derive(Debug, Clone)]
pub struct CallersCheck<S> {
    inner: S,
    layer: CallersLayer,
}

impl<S, B, R> tower::Service<http::Request<B>> for CallersCheck<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    R: Default,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future =
        futures::future::Either<std::future::Ready<Result<Self::Response, Self::Error>>, S::Future>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let path = request.uri().path().trim_start_matches('/');
        let (service, method) = path.split_once('/').unwrap_or((path, ""));
        if service == self.layer.service
            && let Err(status) = self.layer.callers.admit(method, request.headers())
        {
            return futures::future::Either::Left(std::future::ready(Ok(status.into_http())));
        }
        futures::future::Either::Right(self.inner.call(request))
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The caller of a gRPC method, as the signed token states it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caller {
    /// The signed-in user, if any.
    pub user_id: Option<u64>,
    /// The visitor's session, if the call came from a browser.
    pub session_id: Option<String>,
}

impl Caller {
    /// Reads the caller from request metadata. A missing, malformed, forged or expired token,
    /// or one read in a process with no key installed, is an anonymous caller.
    pub fn from_metadata(md: &MetadataMap) -> Self {
        Self::verified(md)
            .map(|(caller, _)| caller)
            .unwrap_or_default()
    }

    /// Which process signed the call's token (`edge`, `orders`, …); `None` when it is not
    /// validly signed.
    pub fn signer(md: &MetadataMap) -> Option<String> {
        Self::verified(md).map(|(_, signer)| signer)
    }

    fn verified(md: &MetadataMap) -> Option<(Self, String)> {
        verify(md.get(TOKEN)?.to_str().ok()?)
    }

    /// Writes the caller into outgoing metadata as a token signed by `signer` (the process's
    /// name). Writes nothing in a process with no key installed: the call then reaches the
    /// service as an anonymous one.
    pub fn write_to(&self, md: &mut MetadataMap, signer: &str) {
        let Some(keys) = KEYS.get() else {
            tracing::warn!("no identity key installed: calling as nobody");
            return;
        };
        let claims = Claims {
            iss: signer.to_string(),
            uid: self.user_id,
            sid: self.session_id.clone(),
            exp: unix_now() + LIFETIME.as_secs(),
        };
        match jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding) {
            Ok(token) => {
                if let Ok(value) = token.parse() {
                    md.insert(TOKEN, value);
                }
            }
            Err(e) => tracing::error!(error = %e, "could not sign the caller's identity"),
        }
    }

    /// The key that owns per-visitor data such as a cart: the user when signed in, else the
    /// session. `None` when the call carries neither.
    pub fn owner_key(&self) -> Option<String> {
        match (&self.user_id, &self.session_id) {
            (Some(u), _) => Some(format!("user:{u}")),
            (None, Some(s)) => Some(format!("session:{s}")),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::DEVELOPMENT_IDENTITY_KEY;

    /// Every unit test in this process signs with one key, as every service of a process does.
    fn keyed() {
        install(DEVELOPMENT_IDENTITY_KEY.as_bytes()).unwrap();
    }

    fn signed(caller: &Caller, signer: &str) -> MetadataMap {
        keyed();
        let mut md = MetadataMap::new();
        caller.write_to(&mut md, signer);
        md
    }

    #[test]
    fn round_trips_through_a_signed_token() {
        let caller = Caller {
            user_id: Some(7),
            session_id: Some("s-1".into()),
        };
        let md = signed(&caller, "edge");
        assert_eq!(Caller::from_metadata(&md), caller);
        assert_eq!(Caller::signer(&md).as_deref(), Some("edge"));
    }

    #[test]
    fn a_stated_user_without_a_signature_is_nobody() {
        keyed();
        let mut md = MetadataMap::new();
        md.insert("x-tiffin-user-id", "7".parse().unwrap());
        md.insert(TOKEN, "not-a-token".parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
        assert_eq!(Caller::signer(&md), None);
    }

    #[test]
    fn a_token_signed_with_another_key_or_altered_is_nobody() {
        keyed();
        let claims = Claims {
            iss: "edge".into(),
            uid: Some(7),
            sid: None,
            exp: unix_now() + 60,
        };
        let forged = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(b"someone-else's-key-of-enough-length!"),
        )
        .unwrap();
        let mut md = MetadataMap::new();
        md.insert(TOKEN, forged.parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());

        // A real token with its user changed: the signature no longer matches.
        let real = signed(
            &Caller {
                user_id: Some(7),
                session_id: None,
            },
            "edge",
        );
        let token = real.get(TOKEN).unwrap().to_str().unwrap().to_string();
        let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let body = String::from_utf8(b64.decode(&parts[1]).unwrap()).unwrap();
        parts[1] = b64.encode(body.replace("\"uid\":7", "\"uid\":8"));
        let mut md = MetadataMap::new();
        md.insert(TOKEN, parts.join(".").parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    #[test]
    fn an_expired_token_is_nobody() {
        keyed();
        let claims = Claims {
            iss: "edge".into(),
            uid: Some(7),
            sid: None,
            exp: unix_now() - LEEWAY_SECS - 1,
        };
        let keys = KEYS.get().unwrap();
        let stale =
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &keys.encoding).unwrap();
        let mut md = MetadataMap::new();
        md.insert(TOKEN, stale.parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    #[test]
    fn a_second_key_in_one_process_is_refused() {
        keyed();
        assert_eq!(install(DEVELOPMENT_IDENTITY_KEY.as_bytes()), Ok(()));
        assert_eq!(
            install(b"another-key-that-is-long-enough-to-use"),
            Err(KeyError::Conflicting)
        );
        assert_eq!(install(b"short"), Err(KeyError::TooShort));
    }

    fn headers_signed_by(signer: &str) -> http::HeaderMap {
        signed(&Caller::default(), signer).into_headers()
    }

    #[test]
    fn the_edge_calls_everything_a_service_only_what_it_is_listed_for_and_nobody_nothing() {
        const MENU: Callers = Callers {
            also: &[("PriceItems", &["cart"])],
        };
        assert!(MENU.admit("GetMenu", &headers_signed_by("edge")).is_ok());
        assert!(MENU.admit("PriceItems", &headers_signed_by("cart")).is_ok());

        let refused = MENU
            .admit("GetMenu", &headers_signed_by("cart"))
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);
        let refused = MENU
            .admit("PriceItems", &headers_signed_by("orders"))
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);

        let refused = MENU.admit("GetMenu", &http::HeaderMap::new()).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
        let mut stated = http::HeaderMap::new();
        stated.insert("x-tiffin-user-id", "7".parse().unwrap());
        stated.insert(TOKEN, "edge".parse().unwrap());
        let refused = MENU.admit("GetMenu", &stated).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    }

    #[test]
    fn the_user_owns_data_before_the_session() {
        let guest = Caller {
            user_id: None,
            session_id: Some("s".into()),
        };
        let user = Caller {
            user_id: Some(3),
            session_id: Some("s".into()),
        };
        assert_eq!(guest.owner_key().as_deref(), Some("session:s"));
        assert_eq!(user.owner_key().as_deref(), Some("user:3"));
        assert_eq!(Caller::default().owner_key(), None);
    }
}
