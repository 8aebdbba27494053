//! Idempotency keys shared by the services that take them (payments, orders): what makes two
//! requests "the same", and one-at-a-time per key.
//!
//! A request is the same as the first one with its key when its [`fingerprint`] is: SHA-256 over
//! the request's fields that are not secret (never a card number or CVV, so nothing sensitive is
//! stored even hashed).
//!
//! [`KeyLocks`] lets one request per (user, key) work at a time in this process: a burst of
//! retries (a double tap, a client retrying a slow call) waits for the first and then reads what
//! it stored, so every one of them gets the same answer. Across replicas a unique
//! `(user_id, idempotency_key)` in the service's tables still lets only one of them create anything.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

/// SHA-256 (hex) of the fields, each length-prefixed so no two lists of fields collide.
pub fn fingerprint(fields: &[&str]) -> String {
    let mut hash = Sha256::new();
    for field in fields {
        hash.update((field.len() as u64).to_be_bytes());
        hash.update(field.as_bytes());
    }
    hex::encode(hash.finalize())
}

/// One async lock per key in use; a key's lock is forgotten when nobody holds or waits for it.
#[derive(Debug, Default)]
pub struct KeyLocks {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Held while a request with its key works; dropping it lets the next one in.
pub struct KeyGuard<'a> {
    owner: &'a KeyLocks,
    key: String,
    lock: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl KeyLocks {
    /// Waits until no other request with `key` is working, then holds it.
    pub async fn lock(&self, key: String) -> KeyGuard<'_> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(key.clone()).or_default().clone()
        };
        let guard = lock.lock_owned().await;
        KeyGuard {
            owner: self,
            key,
            lock: Some(guard),
        }
    }

    /// How many keys are held or waited for (tests: none are left behind).
    pub fn in_use(&self) -> usize {
        self.locks.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl Drop for KeyGuard<'_> {
    fn drop(&mut self) {
        drop(self.lock.take());
        let mut locks = self.owner.locks.lock().unwrap_or_else(|e| e.into_inner());
        // Only this map holds it: nobody holds or waits for the key.
        if locks
            .get(&self.key)
            .is_some_and(|l| Arc::strong_count(l) == 1)
        {
            locks.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_differ_when_fields_move_between_each_other() {
        assert_ne!(fingerprint(&["ab", "c"]), fingerprint(&["a", "bc"]));
        assert_eq!(fingerprint(&["card", "100"]), fingerprint(&["card", "100"]));
    }
    #[tokio::test]
    async fn one_holder_per_key_and_nothing_left_behind() {
        let locks = Arc::new(KeyLocks::default());
        let first = locks.lock("u1:k".into()).await;
        let other_key = locks.lock("u1:other".into()).await;
        let waiting = {
            let locks = locks.clone();
            tokio::spawn(async move {
                let _second = locks.lock("u1:k".into()).await;
            })
        };
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "the second waits for the first");
        drop(first);
        waiting.await.unwrap();
        drop(other_key);
        assert_eq!(locks.in_use(), 0);
    }
}
