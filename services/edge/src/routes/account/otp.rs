//! What the two calls that send a code (`auth/otp` to sign in, `profile/update-mobile` to change
//! the number) read and answer alike.

use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize)]
pub struct MobileBody {
    #[serde(default)]
    pub mobile: String,
}

/// `data` of a code sent.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OtpSent {
    pub mobile: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registered: Option<bool>,
    pub resend_after_seconds: u32,
    pub expires_in_seconds: u32,
}
