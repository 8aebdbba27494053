//! Who is calling. The edge authenticates the browser's session and states the result in gRPC
//! metadata; services read it only through [`Caller`]. The edge removes these keys from anything a
//! client sends, so a client can never set them.

use tonic::metadata::MetadataMap;

/// Metadata key with the signed-in user's id.
pub const USER_ID: &str = "x-tiffin-user-id";
/// Metadata key with the visitor's public session id (present for every browser call).
pub const SESSION_ID: &str = "x-tiffin-session-id";

/// The caller of a gRPC method, as stated by the edge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caller {
    /// The signed-in user, if any.
    pub user_id: Option<u64>,
    /// The visitor's session, if the call came from a browser.
    pub session_id: Option<String>,
}

impl Caller {
    /// Reads the caller from request metadata; malformed values count as absent.
    pub fn from_metadata(md: &MetadataMap) -> Self {
        let user_id = md
            .get(USER_ID)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        let session_id = md
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty() && v.len() <= 128)
            .map(str::to_string);
        Self {
            user_id,
            session_id,
        }
    }

    /// Writes the caller into outgoing metadata (the edge does this on every call).
    pub fn write_to(&self, md: &mut MetadataMap) {
        if let Some(id) = self.user_id
            && let Ok(v) = id.to_string().parse()
        {
            md.insert(USER_ID, v);
        }
        if let Some(sid) = &self.session_id
            && let Ok(v) = sid.parse()
        {
            md.insert(SESSION_ID, v);
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

    #[test]
    fn round_trips_through_metadata() {
        let caller = Caller {
            user_id: Some(7),
            session_id: Some("s-1".into()),
        };
        let mut md = MetadataMap::new();
        caller.write_to(&mut md);
        assert_eq!(Caller::from_metadata(&md), caller);
    }

    #[test]
    fn a_malformed_user_id_is_no_user() {
        let mut md = MetadataMap::new();
        md.insert(USER_ID, "abc".parse().unwrap());
        assert_eq!(Caller::from_metadata(&md).user_id, None);
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
