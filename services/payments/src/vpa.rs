//! A UPI address (VPA), `name@handle`, checked for syntax before any gateway is asked. Pure.
//!
//! The rule is NPCI's: the name is 2 to 256 of letters, digits, `.`, `-` and `_`; the handle (the
//! payment service provider) is 2 to 64 letters and digits. Addresses are case-insensitive and
//! kept lower-cased.

/// A well-formed UPI address, lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vpa(String);

/// Why a typed UPI address is not one, worded for the customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Please enter a valid UPI ID, like name@bank")]
pub struct VpaError;

impl Vpa {
    pub fn parse(typed: &str) -> Result<Self, VpaError> {
        let vpa = typed.trim().to_ascii_lowercase();
        let (name, handle) = vpa.split_once('@').ok_or(VpaError)?;
        let name_ok = (2..=256).contains(&name.len())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        let handle_ok =
            (2..=64).contains(&handle.len()) && handle.bytes().all(|b| b.is_ascii_alphanumeric());
        if name_ok && handle_ok {
            Ok(Self(vpa))
        } else {
            Err(VpaError)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_at_handle_is_a_vpa_kept_lower_cased() {
        assert_eq!(
            Vpa::parse(" Ravi.Kumar-1_x@OkHdfc ").unwrap().as_str(),
            "ravi.kumar-1_x@okhdfc"
        );
        assert!(Vpa::parse("success@tiffin").is_ok());
    }

    #[test]
    fn anything_else_is_refused() {
        for typed in [
            "",
            "ravi",
            "@okhdfc",
            "r@okhdfc",
            "ravi@",
            "ravi@o",
            "ravi@ok@hdfc",
            "ra vi@okhdfc",
            "ravi@ok.hdfc",
            "ravi!@okhdfc",
        ] {
            assert_eq!(Vpa::parse(typed), Err(VpaError), "{typed:?}");
        }
    }
}
