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
    /// The number the code went to, normalised. Nothing here says whether it has an account:
    /// that is told only after its right code (`auth/verify-otp`'s `nameRequired`).
    pub mobile: String,
    /// Seconds before another code may be asked for.
    pub resend_after_seconds: u32,
    /// Seconds the code stays valid.
    pub expires_in_seconds: u32,
}
