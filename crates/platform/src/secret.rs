//! A secret from the configuration: its own module, below both `config` (which reads secrets from
//! the environment) and `identity` (which holds private keys as secrets), so neither depends on the
//! other for it.

/// A secret from the configuration (a webhook's key, say): it never prints, so a settings struct
/// can derive `Debug` and be logged whole.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &[u8] {
        self.0.as_bytes()
    }

    pub fn expose_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}
