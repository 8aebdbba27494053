//! The contract's `<User>`: what `profile/*` and `auth/verify-otp` answer, and what the shell's
//! initial state carries for a signed-in visitor, written from the account service's `Profile`.

use serde::Serialize;
use serde_json::{Map, Value};
use tiffin_proto::account::v1::{Preferences, Profile};
use tiffin_proto::membership::v1::MembershipStatus;

/// The `optional_map` key that carries the membership: its value is `SUPER` for a member, and
/// `WAS_SUPER` or `NOT_SUPER` otherwise (a value equal to SUPER, in any case, marks a member).
pub const SUPER_STATUS_KEY: &str = "super_status";

/// The contract's `<User>`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = User)]
pub struct UserJson {
    customer_id: String,
    mobile: String,
    name: String,
    /// The verified email; `''` when none.
    email: String,
    /// An email change waiting for its verification link; `''` when none.
    #[serde(rename = "pendingEmail")]
    pending_email: String,
    #[serde(rename = "emailVerified")]
    email_verified: bool,
    /// `{"super_status": "SUPER" | "WAS_SUPER" | "NOT_SUPER"}`; `{}` when the membership service
    /// could not say.
    #[schema(value_type = std::collections::BTreeMap<String, String>)]
    optional_map: Map<String, Value>,
    preferences: PreferencesJson,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = Preferences)]
pub struct PreferencesJson {
    sms: SmsJson,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = SmsPreferences)]
struct SmsJson {
    /// Always true: order SMS cannot be turned off.
    orders: bool,
    recommendations: bool,
    reminders: bool,
}

pub fn preferences_json(p: Option<Preferences>) -> PreferencesJson {
    let p = p.unwrap_or_default();
    PreferencesJson {
        sms: SmsJson {
            orders: true,
            recommendations: p.sms_recommendations,
            reminders: p.sms_reminders,
        },
    }
}

impl UserJson {
    /// The name the visitor gave (`''` when none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The mobile number the visitor signed in with.
    pub fn mobile(&self) -> &str {
        &self.mobile
    }
}

/// The wire name of a membership status.
pub fn super_status(status: MembershipStatus) -> &'static str {
    match status {
        MembershipStatus::Super => "SUPER",
        MembershipStatus::WasSuper => "WAS_SUPER",
        MembershipStatus::NotSuper | MembershipStatus::Unspecified => "NOT_SUPER",
    }
}

/// The `<User>` of a profile, with the membership when known.
pub fn user_json(p: Profile, membership: Option<MembershipStatus>) -> UserJson {
    let mut optional_map = Map::new();
    if let Some(status) = membership {
        optional_map.insert(SUPER_STATUS_KEY.into(), super_status(status).into());
    }
    UserJson {
        customer_id: p.user_id.to_string(),
        mobile: p.mobile,
        name: p.name,
        email_verified: !p.email.is_empty(),
        email: p.email,
        pending_email: p.pending_email,
        optional_map,
        preferences: preferences_json(p.preferences),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_has_the_contract_fields() {
        let v = serde_json::to_value(user_json(
            Profile {
                user_id: 17,
                mobile: "9876543210".into(),
                name: "Asha".into(),
                email: "asha@example.com".into(),
                pending_email: String::new(),
                preferences: Some(Preferences {
                    sms_recommendations: true,
                    sms_reminders: false,
                }),
                created_at: 1,
            },
            Some(MembershipStatus::Super),
        ))
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({ "customer_id": "17", "mobile": "9876543210", "name": "Asha",
              "email": "asha@example.com", "pendingEmail": "", "emailVerified": true,
              "optional_map": { "super_status": "SUPER" },
              "preferences": { "sms": { "orders": true, "recommendations": true, "reminders": false } } })
        );
    }

    #[test]
    fn without_a_verified_email_it_is_not_verified() {
        let v = serde_json::to_value(user_json(
            Profile {
                pending_email: "new@example.com".into(),
                ..Default::default()
            },
            None,
        ))
        .unwrap();
        assert_eq!(
            (v["emailVerified"].as_bool(), v["pendingEmail"].as_str()),
            (Some(false), Some("new@example.com"))
        );
        assert_eq!(
            v["optional_map"],
            serde_json::json!({}),
            "membership unknown"
        );
    }
}
