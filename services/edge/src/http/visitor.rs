//! Who is calling, as the session layer left it on the request: a [`Visitor`], or
//! [`SessionUnavailable`] when the account service could not be asked.
//!
//! The types live here, below the session layer, because the envelope (its `sid`, `deviceId` and
//! `csrfToken`), CSRF and every handler read them; only the session layer makes them.

use tiffin_platform::identity::Caller;

/// The visitor behind a request, as the account service knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visitor {
    /// Public session id: the envelope's `sid`, the owner of a guest cart.
    pub session_id: String,
    /// Set once the visitor has signed in.
    pub user_id: Option<u64>,
    pub device_id: String,
    /// The token every POST must carry.
    pub csrf_token: String,
    /// A member of the support team (the account service's `agent` role): may use the desk.
    pub agent: bool,
}

impl Visitor {
    /// The identity services are told about.
    pub fn caller(&self) -> Caller {
        Caller {
            user_id: self.user_id,
            session_id: Some(self.session_id.clone()),
        }
    }
}

/// Left on the request instead of a [`Visitor`] when the account service could not be asked; calls
/// that need a session answer with this status (mapped like any upstream failure).
#[derive(Debug, Clone)]
pub struct SessionUnavailable(pub tonic::Status);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caller_carries_the_session_and_the_user() {
        let v = Visitor {
            session_id: "s".into(),
            user_id: Some(4),
            device_id: "d".into(),
            csrf_token: "c".into(),
            agent: false,
        };
        assert_eq!(
            v.caller(),
            Caller {
                user_id: Some(4),
                session_id: Some("s".into())
            }
        );
    }
}
