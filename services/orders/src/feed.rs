//! Which orders changed just now, for the watchers in this process: every change of an order's
//! status made here rings its bell after the change is committed, so a watcher answers at once
//! instead of waiting for its next look. A change made by another replica is found by the
//! watcher's own looks (see `tracking`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// One bell per watched order.
#[derive(Clone, Default)]
pub struct Feed {
    bells: Arc<Mutex<HashMap<u64, watch::Sender<()>>>>,
}

impl Feed {
    /// A receiver that is told whenever `order_id` changes from now on.
    pub fn subscribe(&self, order_id: u64) -> watch::Receiver<()> {
        let mut bells = self.bells.lock().unwrap_or_else(|e| e.into_inner());
        // Forget the bells nobody listens to any more, so the map only holds watched orders.
        if bells.len() > 64 && bells.len().is_power_of_two() {
            bells.retain(|_, bell| bell.receiver_count() > 0);
        }
        bells
            .entry(order_id)
            .or_insert_with(|| watch::channel(()).0)
            .subscribe()
    }

    /// Tells `order_id`'s watchers it changed.
    pub fn changed(&self, order_id: u64) {
        let mut bells = self.bells.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bell) = bells.get(&order_id) {
            if bell.receiver_count() == 0 {
                bells.remove(&order_id);
            } else {
                bell.send_replace(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_watcher_hears_its_order_and_not_others() {
        let feed = Feed::default();
        let mut mine = feed.subscribe(7);
        let mut other = feed.subscribe(8);
        feed.changed(7);
        assert!(mine.has_changed().unwrap());
        assert!(!other.has_changed().unwrap());
        mine.borrow_and_update();
        feed.changed(9);
        assert!(!mine.has_changed().unwrap());
        drop(other.borrow_and_update());
    }

    #[test]
    fn bells_of_orders_nobody_watches_are_forgotten() {
        let feed = Feed::default();
        drop(feed.subscribe(1));
        feed.changed(1);
        assert!(feed.bells.lock().unwrap().is_empty());
    }
}
