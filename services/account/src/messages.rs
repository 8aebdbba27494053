//! The message provider: how OTP codes (SMS) and email verification links reach people.
//!
//! [`MessageSender`] is the interface; configuration (`ACCOUNT_MESSAGES`) picks one:
//! - `dev` (the default in a declared development, `TIFFIN_ENV=development`, and refused
//!   anywhere else): [`DevOutbox`] logs every message with its body (seeing the code is the
//!   point in development) and keeps the last [`OUTBOX_CAPACITY`] in memory for `ListOutbox`
//!   (the edge's `GET /api/dev/sms`).
//! - `webhook` (the default elsewhere): [`WebhookSender`] POSTs `{"channel", "to", "subject",
//!   "body"}` as JSON to `ACCOUNT_MESSAGES_WEBHOOK_URL` (5 s timeout) with
//!   `Authorization: Bearer <ACCOUNT_MESSAGES_WEBHOOK_SECRET>`, so its receiver (a real SMS/email
//!   gateway) can refuse messages that are not ours. Only a masked recipient is logged, never the
//!   body.
//!
//! A send that fails is an error to the caller (UNAVAILABLE); the callers make sure no code or
//! link is left usable after a failed send (see `otp::issue`).
//!
//! This module must never log a message body outside the development provider.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tiffin_platform::config::Secret;

use tiffin_platform::clock::Clock;

/// Messages the development outbox keeps (the oldest are dropped).
pub const OUTBOX_CAPACITY: usize = 200;
/// How long the webhook may take to accept a message.
pub const WEBHOOK_TIMEOUT: Duration = Duration::from_secs(5);

/// A message the provider could not deliver, with why (for the log only).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SendError(pub String);

/// Which way a message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Sms,
    Email,
}

impl Channel {
    /// `"sms"` or `"email"`, as the outbox and the webhook name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Sms => "sms",
            Channel::Email => "email",
        }
    }
}

/// A message the development provider has "sent".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub channel: Channel,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// Unix milliseconds.
    pub sent_at_ms: i64,
}

/// Delivers SMS and email.
#[tonic::async_trait]
pub trait MessageSender: Send + Sync + std::fmt::Debug {
    /// Sends `body` by SMS to a normalised 10-digit mobile number.
    async fn send_sms(&self, to: &str, body: &str) -> Result<(), SendError>;
    /// Sends an email.
    async fn send_email(&self, to: &str, subject: &str, body: &str) -> Result<(), SendError>;
    /// The development outbox, when this is the development provider.
    fn outbox(&self) -> Option<&DevOutbox> {
        None
    }
}

/// Which provider to use, from configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessagesConfig {
    /// Log and keep in memory (`ACCOUNT_MESSAGES=dev`).
    Dev,
    /// POST to a webhook (`ACCOUNT_MESSAGES=webhook`, `ACCOUNT_MESSAGES_WEBHOOK_URL`), presenting
    /// `ACCOUNT_MESSAGES_WEBHOOK_SECRET`.
    Webhook { url: String, secret: Secret },
}

impl MessagesConfig {
    /// Builds the configured provider.
    pub fn build(&self, clock: Arc<dyn Clock>) -> Result<Arc<dyn MessageSender>, SendError> {
        Ok(match self {
            MessagesConfig::Dev => Arc::new(DevOutbox::new(clock)),
            MessagesConfig::Webhook { url, secret } => {
                Arc::new(WebhookSender::new(url, secret.clone())?)
            }
        })
    }
}

/// The development provider: logs each message and keeps the latest in memory.
#[derive(Debug)]
pub struct DevOutbox {
    clock: Arc<dyn Clock>,
    /// Oldest first; bounded by [`OUTBOX_CAPACITY`].
    sent: Mutex<VecDeque<Sent>>,
}

impl DevOutbox {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            sent: Mutex::new(VecDeque::with_capacity(OUTBOX_CAPACITY)),
        }
    }

    fn keep(&self, channel: Channel, to: &str, subject: &str, body: &str) {
        tracing::info!(
            channel = channel.as_str(),
            to,
            subject,
            body,
            "development message provider: message kept in the outbox"
        );
        let message = Sent {
            channel,
            to: to.to_string(),
            subject: subject.to_string(),
            body: body.to_string(),
            sent_at_ms: self.clock.now_ms(),
        };
        // A poisoned lock only means another thread panicked mid-push; the queue is still whole.
        let mut sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
        if sent.len() >= OUTBOX_CAPACITY {
            sent.pop_front();
        }
        sent.push_back(message);
    }

    /// Messages to `recipient` (exact match, emails case-insensitively), newest first.
    pub fn to(&self, recipient: &str) -> Vec<Sent> {
        let sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
        sent.iter()
            .rev()
            .filter(|m| m.to.eq_ignore_ascii_case(recipient))
            .cloned()
            .collect()
    }
}

#[tonic::async_trait]
impl MessageSender for DevOutbox {
    async fn send_sms(&self, to: &str, body: &str) -> Result<(), SendError> {
        self.keep(Channel::Sms, to, "", body);
        Ok(())
    }

    async fn send_email(&self, to: &str, subject: &str, body: &str) -> Result<(), SendError> {
        self.keep(Channel::Email, to, subject, body);
        Ok(())
    }

    fn outbox(&self) -> Option<&DevOutbox> {
        Some(self)
    }
}

/// The webhook provider: one JSON POST per message.
#[derive(Debug)]
pub struct WebhookSender {
    url: String,
    /// Presented as a bearer token with every message.
    secret: Secret,
    client: reqwest::Client,
}

impl WebhookSender {
    pub fn new(url: &str, secret: Secret) -> Result<Self, SendError> {
        let client = reqwest::Client::builder()
            .timeout(WEBHOOK_TIMEOUT)
            .build()
            .map_err(|e| SendError(format!("webhook client: {e}")))?;
        Ok(Self {
            url: url.to_string(),
            secret,
            client,
        })
    }

    async fn post(
        &self,
        channel: Channel,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), SendError> {
        let payload = serde_json::json!({
            "channel": channel.as_str(),
            "to": to,
            "subject": subject,
            "body": body,
        });
        let answer = self
            .client
            .post(&self.url)
            .bearer_auth(self.secret.expose_str())
            .json(&payload)
            .send()
            .await
            .map_err(|e| SendError(format!("webhook {}: {e}", channel.as_str())))?;
        if !answer.status().is_success() {
            return Err(SendError(format!(
                "webhook {} answered {}",
                channel.as_str(),
                answer.status()
            )));
        }
        tracing::info!(
            channel = channel.as_str(),
            to = %mask(to),
            "message handed to the webhook"
        );
        Ok(())
    }
}

#[tonic::async_trait]
impl MessageSender for WebhookSender {
    async fn send_sms(&self, to: &str, body: &str) -> Result<(), SendError> {
        self.post(Channel::Sms, to, "", body).await
    }

    async fn send_email(&self, to: &str, subject: &str, body: &str) -> Result<(), SendError> {
        self.post(Channel::Email, to, subject, body).await
    }
}

/// A recipient for the log: the last four characters only.
fn mask(to: &str) -> String {
    let tail: String = to
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_platform::clock::ManualClock;

    #[tokio::test]
    async fn the_outbox_keeps_the_latest_messages_newest_first() {
        let outbox = DevOutbox::new(Arc::new(ManualClock::starting_now()));
        for i in 0..(OUTBOX_CAPACITY + 5) {
            outbox
                .send_sms("9876543210", &format!("m{i}"))
                .await
                .unwrap();
        }
        outbox.send_email("A@Example.com", "s", "e").await.unwrap();

        let sms = outbox.to("9876543210");
        assert_eq!(sms.len(), OUTBOX_CAPACITY - 1, "the oldest were dropped");
        assert_eq!(sms[0].body, format!("m{}", OUTBOX_CAPACITY + 4));
        assert_eq!(outbox.to("a@example.com")[0].channel, Channel::Email);
    }

    #[test]
    fn logs_see_only_the_end_of_a_recipient() {
        assert_eq!(mask("9876543210"), "…3210");
        assert_eq!(mask("ab"), "…ab");
    }
}
