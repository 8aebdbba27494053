//! Who is calling. The edge authenticates the browser's session and states the result to the
//! services it calls as a short-lived token (EdDSA, Ed25519) that names its issuer and its
//! audience: the one gRPC service it is for. Services read it only through [`Caller`].
//!
//! Keys ([`IdentityKeys`], read by `config::identity_keys_from_env`): a process signs only with
//! its own private key (`TIFFIN_IDENTITY_SIGNING_KEY`): the edge with the edge's, and the
//! services that call others (orders, cart, support) each with their own. Every process holds the
//! public keys of the signers (`TIFFIN_IDENTITY_PUBLIC_KEYS`). A token is believed only when it is
//! signed with the key of the issuer it names, is for the service that reads it, and has not
//! expired; anything else (missing, forged, another key, another audience) reads as an
//! anonymous caller, whom every per-user call refuses. So a pod that is not the edge cannot mint
//! an edge token: it does not hold the edge's key.
//!
//! Services calling each other (orders asking payments to charge a customer, on the customer's
//! behalf) sign as themselves: the token names the service ([`Caller::signer`]) and each service
//! lists which methods which other service may call ([`Callers`]), so a service's key reaches
//! only the methods it is listed for, whichever user it states. The audience is not chosen by
//! the code that states the caller: the channel signs each call for the service its path names
//! ([`sign_outgoing`]), so a token taken from one call cannot be replayed against another
//! service.

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tonic::metadata::MetadataMap;

use crate::secret::Secret;

/// Metadata key with the caller's signed identity token.
pub const TOKEN: &str = "x-tiffin-identity";
/// Metadata key with the caller a call states before the channel signs it for its service
/// ([`Caller::write_to`], [`sign_outgoing`]). The channel always removes it; a service never reads
/// it, so a call that reaches a service unsigned is anonymous.
pub const UNSIGNED: &str = "x-tiffin-identity-unsigned";
/// How long a token is good for: one call, with room for a slow hop and clocks a little apart.
const LIFETIME: Duration = Duration::from_secs(60);
/// The most a token's expiry may be off between two hosts' clocks.
const LEEWAY_SECS: u64 = 5;

/// The keys of one process: the private keys it may sign with, by signer name (in production
/// one, its own), and the public keys of every signer it believes, by name. Keys are base64:
/// a private key as PKCS#8 DER, a public key as its 32 raw bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IdentityKeys {
    pub signing: BTreeMap<String, Secret>,
    pub trusted: BTreeMap<String, String>,
}

/// The keys this process signs and checks with, set once at start-up ([`install`]).
struct Keys {
    given: IdentityKeys,
    encoding: BTreeMap<String, EncodingKey>,
    decoding: BTreeMap<String, DecodingKey>,
}

static KEYS: OnceLock<Keys> = OnceLock::new();

/// Identity keys could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("the identity key of {0} is not a base64 Ed25519 key")]
    Malformed(String),
    #[error("no public identity key for the edge: no caller could be believed")]
    NoEdgeKey,
    #[error("this process already uses other identity keys")]
    Conflicting,
}

fn b64(value: &str) -> Option<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(value.trim())
        .ok()
}

fn parse(given: &IdentityKeys) -> Result<Keys, KeyError> {
    if !given.trusted.contains_key(EDGE) {
        return Err(KeyError::NoEdgeKey);
    }
    let mut encoding = BTreeMap::new();
    for (name, key) in &given.signing {
        let der = b64(key.expose_str()).ok_or_else(|| KeyError::Malformed(name.clone()))?;
        // Parsed now, so a bad key stops the process at start instead of failing every call.
        ring::signature::Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der)
            .map_err(|_| KeyError::Malformed(name.clone()))?;
        encoding.insert(name.clone(), EncodingKey::from_ed_der(&der));
    }
    let mut decoding = BTreeMap::new();
    for (name, key) in &given.trusted {
        let raw = b64(key)
            .filter(|raw| raw.len() == 32)
            .ok_or_else(|| KeyError::Malformed(name.clone()))?;
        decoding.insert(name.clone(), DecodingKey::from_ed_der(&raw));
    }
    Ok(Keys {
        given: given.clone(),
        encoding,
        decoding,
    })
}

/// Makes `keys` the ones this process signs and checks identity with. Once per process:
/// installing the same keys again is fine (several services started in one test process), others
/// are refused.
pub fn install(keys: &IdentityKeys) -> Result<(), KeyError> {
    let parsed = parse(keys)?;
    let installed = KEYS.get_or_init(|| parsed);
    if installed.given == *keys {
        Ok(())
    } else {
        Err(KeyError::Conflicting)
    }
}

/// A new Ed25519 key pair, base64 as [`IdentityKeys`] holds them: (private PKCS#8, public).
pub fn generate_key_pair() -> Result<(String, String), KeyError> {
    use ring::signature::KeyPair as _;
    let rng = ring::rand::SystemRandom::new();
    let generated = ring::signature::Ed25519KeyPair::generate_pkcs8(&rng)
        .map_err(|_| KeyError::Malformed("a new key".into()))?;
    let pair = ring::signature::Ed25519KeyPair::from_pkcs8(generated.as_ref())
        .map_err(|_| KeyError::Malformed("a new key".into()))?;
    let engine = base64::engine::general_purpose::STANDARD;
    Ok((
        engine.encode(generated.as_ref()),
        engine.encode(pair.public_key().as_ref()),
    ))
}

/// What a token states.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    /// The process that signed it: `edge`, or the service calling another; always the owner of
    /// the key it is signed with.
    iss: String,
    /// The gRPC service it is for (`tiffin.payments.v1.PaymentsService`).
    aud: String,
    /// The signed-in user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uid: Option<u64>,
    /// The visitor's public session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<String>,
    /// What the caller may do beyond acting as themselves ([`Role`]); believed only from the edge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rol: Vec<String>,
    /// Unix seconds after which it is refused.
    exp: u64,
}

/// The caller a token states and who signed it, if it is signed with the key of the issuer it
/// names and not expired; when `audience` is given, only if the token is for that service.
fn verify(token: &str, audience: Option<&str>) -> Option<Verified> {
    let keys = KEYS.get()?;
    let header = jsonwebtoken::decode_header(token).ok()?;
    if header.alg != Algorithm::EdDSA {
        return None;
    }
    let signer = header.kid?;
    let key = keys.decoding.get(&signer)?;
    let mut validation = Validation::new(Algorithm::EdDSA);
    validation.leeway = LEEWAY_SECS;
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    // A key speaks only for its owner: orders' key cannot sign a token that says "edge".
    validation.set_issuer(&[&signer]);
    match audience {
        Some(audience) => validation.set_audience(&[audience]),
        None => validation.validate_aud = false,
    }
    let claims = jsonwebtoken::decode::<Claims>(token, key, &validation)
        .ok()?
        .claims;
    let session_id = claims.sid.filter(|v| !v.is_empty() && v.len() <= 128);
    // Only the edge, which asked the account service, vouches for a role: a service's key speaks
    // for the customer it acts for, never for a member of staff.
    let roles = if claims.iss == EDGE {
        claims.rol.iter().filter_map(|r| Role::named(r)).collect()
    } else {
        Vec::new()
    };
    Some(Verified {
        caller: Caller {
            user_id: claims.uid,
            session_id,
        },
        signer: claims.iss,
        roles,
    })
}

/// What a valid token states, and who signed it.
struct Verified {
    caller: Caller,
    signer: String,
    roles: Vec<Role>,
}

/// A token stating `caller`, signed by `signer` for the gRPC service `audience`; `None` when
/// this process does not hold `signer`'s key.
fn sign(caller: &Caller, roles: Vec<String>, signer: &str, audience: &str) -> Option<String> {
    let Some(key) = KEYS.get().and_then(|keys| keys.encoding.get(signer)) else {
        tracing::warn!(signer, "no identity key to sign with: calling as nobody");
        return None;
    };
    let claims = Claims {
        iss: signer.to_string(),
        aud: audience.to_string(),
        uid: caller.user_id,
        sid: caller.session_id.clone(),
        rol: roles,
        exp: unix_now() + LIFETIME.as_secs(),
    };
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(signer.to_string());
    match jsonwebtoken::encode(&header, &claims, key) {
        Ok(token) => Some(token),
        Err(e) => {
            tracing::error!(error = %e, "could not sign the caller's identity");
            None
        }
    }
}

/// What [`Caller::write_to`] states, until the channel signs it.
#[derive(Debug, Serialize, Deserialize)]
struct Unsigned {
    iss: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uid: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rol: Vec<String>,
}

/// Turns the caller a call states ([`UNSIGNED`]) into a token signed for the service the call's
/// `path` names (`/tiffin.payments.v1.PaymentsService/CreatePayment`). Every channel that calls a
/// service runs this on each call ([`crate::grpc::channel`], the tests' signed channel).
pub fn sign_outgoing(headers: &mut http::HeaderMap, path: &str) {
    let Some(stated) = headers.remove(UNSIGNED) else {
        return;
    };
    let audience = path
        .trim_start_matches('/')
        .split_once('/')
        .map_or("", |(service, _)| service);
    let unsigned: Option<Unsigned> = stated
        .to_str()
        .ok()
        .and_then(|v| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(v)
                .ok()
        })
        .and_then(|json| serde_json::from_slice(&json).ok());
    let Some(unsigned) = unsigned else {
        return;
    };
    let caller = Caller {
        user_id: unsigned.uid,
        session_id: unsigned.sid,
    };
    if let Some(value) =
        sign(&caller, unsigned.rol, &unsigned.iss, audience).and_then(|token| token.parse().ok())
    {
        headers.insert(TOKEN, value);
    }
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

    fn admit(
        &self,
        service: &str,
        method: &str,
        headers: &http::HeaderMap,
    ) -> Result<(), tonic::Status> {
        let signer = headers
            .get(TOKEN)
            .and_then(|v| v.to_str().ok())
            .and_then(|token| verify(token, Some(service)))
            .map(|verified| verified.signer)
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

/// Checks every call to the service named `service` against its [`Callers`]: its token must be
/// for this service (its audience) and signed by a caller listed for the method. Other services
/// on the same server, health and reflection, are not checked, and read no caller.
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
            && let Err(status) = self.layer.callers.admit(service, method, request.headers())
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

/// What a caller may do beyond acting as themselves, as the account service records it and the
/// edge vouches for it in the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A member of Tiffin's support team: reads and answers every customer's support conversations.
    Agent,
}

impl Role {
    /// The role's name in the account service's records and in tokens.
    pub fn name(self) -> &'static str {
        match self {
            Role::Agent => "agent",
        }
    }

    /// The role of that name, if there is one.
    pub fn named(name: &str) -> Option<Role> {
        match name {
            "agent" => Some(Role::Agent),
            _ => None,
        }
    }
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
    /// or one read in a process with no key installed, is an anonymous caller. Its audience was
    /// checked before the call reached the service ([`CallersLayer`]).
    pub fn from_metadata(md: &MetadataMap) -> Self {
        Self::verified(md)
            .map(|verified| verified.caller)
            .unwrap_or_default()
    }

    /// Which process signed the call's token (`edge`, `orders`, …); `None` when it is not
    /// validly signed.
    pub fn signer(md: &MetadataMap) -> Option<String> {
        Self::verified(md).map(|verified| verified.signer)
    }

    /// Whether the edge vouched that the caller holds `role`. A token signed by any other process
    /// never carries a role, whatever it states.
    pub fn has_role(md: &MetadataMap, role: Role) -> bool {
        Self::verified(md).is_some_and(|verified| verified.roles.contains(&role))
    }

    fn verified(md: &MetadataMap) -> Option<Verified> {
        verify(md.get(TOKEN)?.to_str().ok()?, None)
    }

    /// States the caller in outgoing metadata, to be signed by `signer` (the process's name)
    /// for the service the call goes to, by the channel ([`sign_outgoing`]). A process that does
    /// not hold `signer`'s key sends no token: the call reaches the service as an anonymous one.
    pub fn write_to(&self, md: &mut MetadataMap, signer: &str) {
        self.write_with_roles(md, signer, &[]);
    }

    /// As [`Caller::write_to`], vouching also for `roles`: only the edge's signature makes a
    /// service believe them ([`Caller::has_role`]).
    pub fn write_with_roles(&self, md: &mut MetadataMap, signer: &str, roles: &[Role]) {
        let unsigned = Unsigned {
            iss: signer.to_string(),
            uid: self.user_id,
            sid: self.session_id.clone(),
            rol: roles.iter().map(|r| r.name().to_string()).collect(),
        };
        let Ok(json) = serde_json::to_vec(&unsigned) else {
            return;
        };
        let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
        if let Ok(value) = encoded.parse() {
            md.remove(TOKEN);
            md.insert(UNSIGNED, value);
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
    use crate::config::development_identity_keys;

    const PAYMENTS: &str = "tiffin.payments.v1.PaymentsService";

    /// Every unit test in this process holds the development keys, as a test process does.
    fn keyed() {
        install(&development_identity_keys()).unwrap();
    }

    /// The metadata a call to `audience` carries once its channel has signed it.
    fn signed_for(caller: &Caller, signer: &str, audience: &str) -> MetadataMap {
        keyed();
        let mut md = MetadataMap::new();
        caller.write_to(&mut md, signer);
        let mut headers = md.into_headers();
        sign_outgoing(&mut headers, &format!("/{audience}/Method"));
        assert!(
            !headers.contains_key(UNSIGNED),
            "the statement never leaves"
        );
        MetadataMap::from_headers(headers)
    }

    fn token_of(md: &MetadataMap) -> &str {
        md.get(TOKEN).unwrap().to_str().unwrap()
    }

    #[test]
    fn round_trips_through_a_signed_token() {
        let caller = Caller {
            user_id: Some(7),
            session_id: Some("s-1".into()),
        };
        let md = signed_for(&caller, "edge", PAYMENTS);
        assert_eq!(Caller::from_metadata(&md), caller);
        assert_eq!(Caller::signer(&md).as_deref(), Some("edge"));
        assert!(verify(token_of(&md), Some(PAYMENTS)).is_some());
    }

    #[test]
    fn the_edge_vouches_for_a_role_and_no_other_signer_can() {
        keyed();
        let agent = Caller {
            user_id: Some(9),
            session_id: Some("s-9".into()),
        };
        let vouched = |signer: &str, roles: &[Role]| {
            let mut md = MetadataMap::new();
            agent.write_with_roles(&mut md, signer, roles);
            let mut headers = md.into_headers();
            sign_outgoing(&mut headers, &format!("/{PAYMENTS}/Method"));
            MetadataMap::from_headers(headers)
        };
        let from_edge = vouched(EDGE, &[Role::Agent]);
        assert!(Caller::has_role(&from_edge, Role::Agent));
        assert_eq!(Caller::from_metadata(&from_edge), agent);
        // Orders acts for a customer; its key states no staff role even when the call says so.
        assert!(!Caller::has_role(
            &vouched("orders", &[Role::Agent]),
            Role::Agent
        ));
        // The ordinary statement carries none.
        assert!(!Caller::has_role(
            &signed_for(&agent, EDGE, PAYMENTS),
            Role::Agent
        ));
        assert_eq!(Role::named(Role::Agent.name()), Some(Role::Agent));
        assert_eq!(Role::named("admin"), None);
    }

    #[test]
    fn a_token_for_another_service_is_refused_there() {
        let md = signed_for(&Caller::default(), "edge", "tiffin.cart.v1.CartService");
        assert!(verify(token_of(&md), Some(PAYMENTS)).is_none());
        let refused = Callers::EDGE_ONLY
            .admit(PAYMENTS, "GetPayment", &md.into_headers())
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    }

    #[test]
    fn a_stated_user_without_a_signature_is_nobody() {
        keyed();
        let mut md = MetadataMap::new();
        md.insert("x-tiffin-user-id", "7".parse().unwrap());
        md.insert(TOKEN, "not-a-token".parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
        assert_eq!(Caller::signer(&md), None);
        // The unsigned statement itself is never believed.
        let mut md = MetadataMap::new();
        Caller {
            user_id: Some(7),
            session_id: None,
        }
        .write_to(&mut md, "edge");
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    fn forged(iss: &str, kid: &str, key: &EncodingKey, alg: Algorithm) -> MetadataMap {
        let claims = Claims {
            iss: iss.into(),
            aud: PAYMENTS.into(),
            uid: Some(7),
            sid: None,
            rol: vec!["agent".into()],
            exp: unix_now() + 60,
        };
        let mut header = Header::new(alg);
        header.kid = Some(kid.into());
        let token = jsonwebtoken::encode(&header, &claims, key).unwrap();
        let mut md = MetadataMap::new();
        md.insert(TOKEN, token.parse().unwrap());
        md
    }

    #[test]
    fn a_token_signed_with_another_key_or_altered_is_nobody() {
        keyed();
        // Another Ed25519 key claiming to be the edge's.
        let (private, _) = generate_key_pair().unwrap();
        let other = EncodingKey::from_ed_der(&b64(&private).unwrap());
        let md = forged("edge", "edge", &other, Algorithm::EdDSA);
        assert_eq!(Caller::from_metadata(&md), Caller::default());
        assert!(
            !Caller::has_role(&md, Role::Agent),
            "a forged role is no role"
        );
        // The old shared-secret kind of token, whatever its secret.
        let hmac =
            EncodingKey::from_secret(b"tiffin-development-identity-key-never-for-production");
        let md = forged("edge", "edge", &hmac, Algorithm::HS256);
        assert_eq!(Caller::from_metadata(&md), Caller::default());

        // A real token with its user changed: the signature no longer matches.
        let real = signed_for(
            &Caller {
                user_id: Some(7),
                session_id: None,
            },
            "edge",
            PAYMENTS,
        );
        let mut parts: Vec<String> = token_of(&real).split('.').map(str::to_string).collect();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let body = String::from_utf8(b64.decode(&parts[1]).unwrap()).unwrap();
        parts[1] = b64.encode(body.replace("\"uid\":7", "\"uid\":8"));
        let mut md = MetadataMap::new();
        md.insert(TOKEN, parts.join(".").parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    #[test]
    fn a_service_key_cannot_speak_for_the_edge() {
        keyed();
        let orders = &KEYS.get().unwrap().encoding["orders"];
        // Signed with orders' key but naming the edge, under either name.
        for kid in ["orders", "edge"] {
            let md = forged("edge", kid, orders, Algorithm::EdDSA);
            assert_eq!(Caller::from_metadata(&md), Caller::default(), "kid {kid}");
            let refused = Callers::EDGE_ONLY
                .admit(PAYMENTS, "GetPayment", &md.into_headers())
                .unwrap_err();
            assert_eq!(refused.code(), tonic::Code::Unauthenticated);
        }
        // Honestly signed by orders: believed as orders, and refused where only the edge may call.
        let md = forged("orders", "orders", orders, Algorithm::EdDSA);
        assert_eq!(Caller::signer(&md).as_deref(), Some("orders"));
        assert!(
            !Caller::has_role(&md, Role::Agent),
            "only the edge vouches for staff"
        );
        let refused = Callers::EDGE_ONLY
            .admit(PAYMENTS, "GetPayment", &md.into_headers())
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    }

    #[test]
    fn a_process_without_a_signers_key_cannot_sign_as_it() {
        keyed();
        let caller = Caller {
            user_id: Some(7),
            session_id: None,
        };
        let md = signed_for(&caller, "account", PAYMENTS);
        assert!(md.get(TOKEN).is_none());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    #[test]
    fn an_expired_token_is_nobody() {
        keyed();
        let claims = Claims {
            iss: "edge".into(),
            aud: PAYMENTS.into(),
            uid: Some(7),
            sid: None,
            rol: Vec::new(),
            exp: unix_now() - LEEWAY_SECS - 1,
        };
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some("edge".into());
        let key = &KEYS.get().unwrap().encoding["edge"];
        let stale = jsonwebtoken::encode(&header, &claims, key).unwrap();
        let mut md = MetadataMap::new();
        md.insert(TOKEN, stale.parse().unwrap());
        assert_eq!(Caller::from_metadata(&md), Caller::default());
    }

    #[test]
    fn other_keys_in_one_process_are_refused_and_bad_ones_named() {
        keyed();
        assert_eq!(install(&development_identity_keys()), Ok(()));
        let mut other = development_identity_keys();
        let (_, public) = generate_key_pair().unwrap();
        other.trusted.insert("edge".into(), public);
        assert_eq!(install(&other), Err(KeyError::Conflicting));
        let mut bad = development_identity_keys();
        bad.signing.insert("edge".into(), Secret::new("not-a-key"));
        assert_eq!(install(&bad), Err(KeyError::Malformed("edge".into())));
        let mut no_edge = development_identity_keys();
        no_edge.trusted.remove("edge");
        assert_eq!(install(&no_edge), Err(KeyError::NoEdgeKey));
    }

    fn headers_signed_by(signer: &str, audience: &str) -> http::HeaderMap {
        signed_for(&Caller::default(), signer, audience).into_headers()
    }

    #[test]
    fn the_edge_calls_everything_a_service_only_what_it_is_listed_for_and_nobody_nothing() {
        const MENU: Callers = Callers {
            also: &[("PriceItems", &["cart"])],
        };
        const M: &str = "tiffin.menu.v1.MenuService";
        assert!(
            MENU.admit(M, "GetMenu", &headers_signed_by("edge", M))
                .is_ok()
        );
        assert!(
            MENU.admit(M, "PriceItems", &headers_signed_by("cart", M))
                .is_ok()
        );

        let refused = MENU
            .admit(M, "GetMenu", &headers_signed_by("cart", M))
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);
        let refused = MENU
            .admit(M, "PriceItems", &headers_signed_by("orders", M))
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);

        let refused = MENU
            .admit(M, "GetMenu", &http::HeaderMap::new())
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::Unauthenticated);
        let mut stated = http::HeaderMap::new();
        stated.insert("x-tiffin-user-id", "7".parse().unwrap());
        stated.insert(TOKEN, "edge".parse().unwrap());
        let refused = MENU.admit(M, "GetMenu", &stated).unwrap_err();
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
