//! One upstream stream shared by every watcher of the same thing.
//!
//! A customer's tracking page can be open in several tabs and on several devices, and each keeps
//! an event stream open for as long as the order lasts. Opening a stream to the service for each
//! of them costs a stream's buffers and a task per watcher, for the same updates. Here the first
//! watcher of a key starts one reader of the service's stream; later watchers of that key join
//! it and get its newest value at once, then every change. Each watcher keeps only the newest
//! update it has not taken yet (a rider's older position is worth nothing once a newer one is
//! known), so a watcher that stops reading holds nobody back.
//!
//! The reader ends when the service's stream ends (every watcher then gets the last update and
//! the end), and when its last watcher has gone. The key must say everything the service checked
//! when the stream was opened (for tracking: the customer and the order), so that joining never
//! lets anyone see what the service would not have shown them.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

use futures::{Stream, StreamExt};
use tokio::sync::watch;

/// The streams being read, by key.
#[derive(Debug)]
pub struct Fanout<K, T> {
    live: Arc<Mutex<Live<K, T>>>,
}

#[derive(Debug)]
struct Live<K, T> {
    /// Which reader a key's sender belongs to, so a reader that ended removes only its own.
    next_reader: u64,
    by_key: HashMap<K, (u64, watch::Sender<Option<T>>)>,
}

impl<K, T> Default for Fanout<K, T> {
    fn default() -> Self {
        Self {
            live: Arc::new(Mutex::new(Live {
                next_reader: 0,
                by_key: HashMap::new(),
            })),
        }
    }
}

impl<K, T> Fanout<K, T>
where
    K: Eq + Hash + Clone + Send + 'static,
    T: Clone + Send + Sync + 'static,
{
    /// The updates of the stream already read for `key`, starting with its newest; `None` when
    /// nobody is reading one.
    pub fn join(&self, key: &K) -> Option<impl Stream<Item = T> + Send + 'static> {
        let live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        let (_, sender) = live.by_key.get(key)?;
        Some(updates(sender.subscribe()))
    }

    /// Starts reading `source`, whose first item was `first`, for `key`, and returns its updates
    /// starting with `first`. When another reader for `key` started meanwhile, that one is
    /// joined and `source` is dropped.
    pub fn start<S>(&self, key: K, first: T, source: S) -> impl Stream<Item = T> + Send + 'static
    where
        S: Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
    {
        let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, sender)) = live.by_key.get(&key) {
            return updates(sender.subscribe());
        }
        let reader = live.next_reader;
        live.next_reader += 1;
        let (sender, receiver) = watch::channel(Some(first));
        live.by_key.insert(key.clone(), (reader, sender.clone()));
        drop(live);
        let reading = read(Arc::clone(&self.live), key, reader, sender, source);
        tokio::spawn(tracing::Instrument::instrument(
            reading,
            tracing::Span::current(),
        ));
        updates(receiver)
    }

    /// How many streams are being read.
    pub fn readers(&self) -> usize {
        self.live
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .by_key
            .len()
    }
}

/// Reads `source` into `sender` until it ends or nobody watches, then takes the key out.
async fn read<K, T, S>(
    live: Arc<Mutex<Live<K, T>>>,
    key: K,
    reader: u64,
    sender: watch::Sender<Option<T>>,
    mut source: S,
) where
    K: Eq + Hash,
    S: Stream<Item = Result<T, tonic::Status>> + Unpin,
{
    loop {
        tokio::select! {
            () = sender.closed() => {
                // A watcher joins under the same lock, so none can arrive between this count
                // and taking the key out.
                let mut live = live.lock().unwrap_or_else(PoisonError::into_inner);
                if sender.receiver_count() == 0 {
                    remove(&mut live, &key, reader);
                    return;
                }
            }
            next = source.next() => match next {
                Some(Ok(update)) => {
                    sender.send_replace(Some(update));
                }
                None => break,
                Some(Err(status)) => {
                    tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "watched stream broke off; its watchers reconnect");
                    break;
                }
            },
        }
    }
    // Once the key is out and this sender dropped, every watcher takes the last update and ends.
    remove(
        &mut live.lock().unwrap_or_else(PoisonError::into_inner),
        &key,
        reader,
    );
}

fn remove<K: Eq + Hash, T>(live: &mut Live<K, T>, key: &K, reader: u64) {
    if live.by_key.get(key).is_some_and(|(r, _)| *r == reader) {
        live.by_key.remove(key);
    }
}

/// A watcher's updates: the channel's current value first, then each newest one not yet taken;
/// after the reader ended, the last value not yet taken and then the end.
fn updates<T>(mut receiver: watch::Receiver<Option<T>>) -> impl Stream<Item = T> + Send + 'static
where
    T: Clone + Send + Sync + 'static,
{
    receiver.mark_changed();
    futures::stream::unfold(receiver, |mut receiver| async move {
        receiver.changed().await.ok()?;
        let update = receiver.borrow_and_update().clone()?;
        Some((update, receiver))
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures::channel::mpsc;

    use super::*;

    type Source = mpsc::UnboundedReceiver<Result<u32, tonic::Status>>;

    fn source() -> (mpsc::UnboundedSender<Result<u32, tonic::Status>>, Source) {
        mpsc::unbounded()
    }

    async fn settle() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    #[tokio::test]
    async fn a_second_watcher_joins_the_first_ones_stream_and_starts_at_its_newest_update() {
        let fanout = Fanout::<(u64, u64), u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start((1, 7), 1, receiver);
        futures::pin_mut!(first);
        assert_eq!(first.next().await, Some(1));
        feed.unbounded_send(Ok(2)).unwrap();
        assert_eq!(first.next().await, Some(2));

        let second = fanout.join(&(1, 7)).expect("the stream is being read");
        futures::pin_mut!(second);
        assert_eq!(second.next().await, Some(2));
        feed.unbounded_send(Ok(3)).unwrap();
        assert_eq!(first.next().await, Some(3));
        assert_eq!(second.next().await, Some(3));
        assert_eq!(fanout.readers(), 1);
    }

    #[tokio::test]
    async fn another_key_is_not_joined() {
        let fanout = Fanout::<(u64, u64), u32>::default();
        let (_feed, receiver) = source();
        let _watching = fanout.start((1, 7), 1, receiver);
        assert!(fanout.join(&(2, 7)).is_none());
        assert!(fanout.join(&(1, 8)).is_none());
    }

    #[tokio::test]
    async fn when_the_source_ends_every_watcher_gets_the_last_update_and_the_end() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start(7, 1, receiver);
        let second = fanout.join(&7).unwrap();
        for n in 2..=50 {
            feed.unbounded_send(Ok(n)).unwrap();
        }
        drop(feed);
        settle().await;
        // Neither read while the source ran: each gets only the newest, then the end.
        assert_eq!(first.collect::<Vec<_>>().await, vec![50]);
        assert_eq!(second.collect::<Vec<_>>().await, vec![50]);
        assert_eq!(fanout.readers(), 0);
        assert!(fanout.join(&7).is_none());
    }

    #[tokio::test]
    async fn a_broken_source_ends_its_watchers_so_they_reconnect() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let watcher = fanout.start(7, 1, receiver);
        feed.unbounded_send(Err(tonic::Status::unavailable("gone")))
            .unwrap();
        settle().await;
        assert_eq!(watcher.collect::<Vec<_>>().await, vec![1]);
        assert_eq!(fanout.readers(), 0);
    }

    #[tokio::test]
    async fn the_reader_stops_when_its_last_watcher_leaves() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start(7, 1, receiver);
        let second = fanout.join(&7).unwrap();
        drop(first);
        settle().await;
        assert_eq!(fanout.readers(), 1, "one watcher is still there");
        drop(second);
        settle().await;
        assert_eq!(fanout.readers(), 0);
        assert!(feed.is_closed(), "the source was dropped with its reader");
    }

    #[tokio::test]
    async fn a_start_that_lost_the_race_joins_the_winner_and_drops_its_own_source() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let winner = fanout.start(7, 1, receiver);
        futures::pin_mut!(winner);
        let (late_feed, late_receiver) = source();
        let late = fanout.start(7, 100, late_receiver);
        futures::pin_mut!(late);
        assert!(late_feed.is_closed());
        assert_eq!(late.next().await, Some(1));
        feed.unbounded_send(Ok(2)).unwrap();
        assert_eq!(late.next().await, Some(2));
        assert_eq!(winner.next().await, Some(2), "one stream feeds both");
    }
}
