//! What the two calls that send a code (`auth/otp` to sign in, `profile/update-mobile` to change
//! the number) read and answer alike.

use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = MobileInput)]
pub struct MobileBody {
    /// A 10-digit mobile number.
    #[serde(default)]
    pub mobile: String,
}

/// `data` of a code sent.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtpSent {
    pub mobile: String,
    /// `auth/otp` only: false when no account has this number yet (the sign-up form asks for a
    /// name).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = bool)]
    pub registered: Option<bool>,
    /// Seconds before another code may be asked for.
    pub resend_after_seconds: u32,
    /// Seconds the code stays valid.
    pub expires_in_seconds: u32,
}
