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
//! the end), when the service refuses it outright, and when its last watcher has gone. A stream
//! that breaks off (the connection to the service lost, the service restarting) is opened again,
//! after a wait that grows with each failure in a row and is jittered so that the readers a
//! broken connection ended do not all come back at the same moment; its watchers stay connected
//! meanwhile and get the reopened stream's updates. The key must say everything the service
//! checked when the stream was opened (for tracking: the customer and the order), so that joining
//! never lets anyone see what the service would not have shown them.
//!
//! Setting a stream up (reading its first value, deciding whether there is anything to watch)
//! takes a round trip, and a customer's tabs tend to ask at the same moment. A watcher arriving
//! while a key is being set up waits for that set-up ([`Fanout::watch`]) instead of starting
//! another: they all get its stream, or all its failure. A set-up whose every watcher has gone is
//! dropped, and the next watcher of its key starts a new one.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::future::{BoxFuture, Shared, WeakShared};
use futures::stream::BoxStream;
use futures::{FutureExt, Stream, StreamExt};
use tokio::sync::watch;
use tower::retry::backoff::{Backoff, ExponentialBackoffMaker, MakeBackoff};
use tower::util::rng::HasherRng;

/// The first wait before a broken stream is opened again, and the longest.
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_MOST: Duration = Duration::from_secs(10);

/// The streams being read, and being set up, by key. `E` is what a failed set-up says.
pub struct Fanout<K, T, E = tonic::Status> {
    live: Arc<Mutex<Live<K, T, E>>>,
}

struct Live<K, T, E> {
    /// Which reader or set-up a key's entry belongs to, so one that ended removes only its own.
    next_reader: u64,
    by_key: HashMap<K, (u64, watch::Sender<Option<T>>)>,
    /// Held weakly: a set-up nobody waits for any more is dropped, not kept here.
    setting_up: HashMap<K, (u64, WeakShared<SetUp<T, E>>)>,
}

/// A set-up under way, which every watcher of its key waits on.
type SetUp<T, E> = BoxFuture<'static, Result<Begun<T>, E>>;

/// What a set-up began.
#[derive(Clone)]
enum Begun<T> {
    /// Nothing to watch: this one value, then the end.
    Over(T),
    /// A reader, whose updates its watchers take.
    Reading(watch::Receiver<Option<T>>),
}

/// What a set-up found.
pub enum First<T, O> {
    /// The last value there will be (the thing watched has ended): nothing is opened.
    Last(T),
    /// The first value, and how to open the stream of the rest (as [`Fanout::start`] takes it).
    Watch(T, O),
}

impl<K, T, E> std::fmt::Debug for Fanout<K, T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fanout").finish_non_exhaustive()
    }
}

impl<K, T, E> Default for Fanout<K, T, E> {
    fn default() -> Self {
        Self {
            live: Arc::new(Mutex::new(Live {
                next_reader: 0,
                by_key: HashMap::new(),
                setting_up: HashMap::new(),
            })),
        }
    }
}

impl<K, T, E> Fanout<K, T, E>
where
    K: Eq + Hash + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    /// The updates for `key`: those of the stream already read for it; else, when a set-up for
    /// it is under way, what that set-up begins; else what `set_up` (called only then) finds. A
    /// failed set-up's error goes to every watcher that waited on it.
    pub async fn watch<U, F, O, OF, S>(&self, key: K, set_up: U) -> Result<BoxStream<'static, T>, E>
    where
        U: FnOnce() -> F,
        F: Future<Output = Result<First<T, O>, E>> + Send + 'static,
        O: FnMut() -> OF + Send + 'static,
        OF: Future<Output = Result<S, tonic::Status>> + Send + 'static,
        S: Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
    {
        let setting_up = {
            let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((_, sender)) = live.by_key.get(&key) {
                return Ok(updates(sender.subscribe()).boxed());
            }
            match live
                .setting_up
                .get(&key)
                .and_then(|(_, weak)| weak.upgrade())
            {
                Some(under_way) => under_way,
                None => {
                    let id = live.next_reader;
                    live.next_reader += 1;
                    let under_way = self.set_up(key.clone(), id, set_up());
                    if let Some(weak) = under_way.downgrade() {
                        live.setting_up.insert(key, (id, weak));
                    }
                    under_way
                }
            }
        };
        Ok(match setting_up.await? {
            Begun::Over(last) => futures::stream::iter([last]).boxed(),
            Begun::Reading(receiver) => updates(receiver).boxed(),
        })
    }

    /// The set-up `id` of `key`: `found`, then a reader started for it when there is something to
    /// watch. Its entry is taken out when it ends, or is dropped unfinished.
    fn set_up<F, O, OF, S>(&self, key: K, id: u64, found: F) -> Shared<SetUp<T, E>>
    where
        F: Future<Output = Result<First<T, O>, E>> + Send + 'static,
        O: FnMut() -> OF + Send + 'static,
        OF: Future<Output = Result<S, tonic::Status>> + Send + 'static,
        S: Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
    {
        let live = Arc::clone(&self.live);
        async move {
            let finished = SetUpEntry {
                live: Arc::clone(&live),
                key: key.clone(),
                id,
            };
            let begun = match found.await? {
                First::Last(last) => Begun::Over(last),
                First::Watch(first, open) => {
                    Begun::Reading(begin(&live, key, first, open, Some(id)))
                }
            };
            drop(finished);
            Ok(begun)
        }
        .boxed()
        .shared()
    }

    /// The updates of the stream already read for `key`, starting with its newest; `None` when
    /// nobody is reading one.
    pub fn join(&self, key: &K) -> Option<impl Stream<Item = T> + Send + 'static> {
        let live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        let (_, sender) = live.by_key.get(key)?;
        Some(updates(sender.subscribe()))
    }

    /// Starts reading for `key` the stream `open` opens (and opens again when it breaks off),
    /// with `first` as its updates' first, and returns those updates. When another reader for
    /// `key` started meanwhile, that one is joined and nothing is opened.
    pub fn start<O, F, S>(
        &self,
        key: K,
        first: T,
        open: O,
    ) -> impl Stream<Item = T> + Send + 'static
    where
        O: FnMut() -> F + Send + 'static,
        F: Future<Output = Result<S, tonic::Status>> + Send + 'static,
        S: Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
    {
        updates(begin(&self.live, key, first, open, None))
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

/// Takes a set-up's entry out when the set-up ends or is dropped unfinished, unless another has
/// taken its key's place since.
struct SetUpEntry<K: Eq + Hash, T, E> {
    live: Arc<Mutex<Live<K, T, E>>>,
    key: K,
    id: u64,
}

impl<K: Eq + Hash, T, E> Drop for SetUpEntry<K, T, E> {
    fn drop(&mut self) {
        let mut live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        if live
            .setting_up
            .get(&self.key)
            .is_some_and(|(id, _)| *id == self.id)
        {
            live.setting_up.remove(&self.key);
        }
    }
}

/// Starts reading for `key` what `open` opens, with `first` as its first update, and gives a
/// receiver of its updates; joins the reader already there instead, if any. The set-up
/// `setting_up`, when given, is taken out under the same lock, so a watcher arriving meanwhile
/// finds either the set-up or the reader, never neither (and never starts a second).
fn begin<K, T, E, O, F, S>(
    live: &Arc<Mutex<Live<K, T, E>>>,
    key: K,
    first: T,
    open: O,
    setting_up: Option<u64>,
) -> watch::Receiver<Option<T>>
where
    K: Eq + Hash + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
    E: Send + Sync + 'static,
    O: FnMut() -> F + Send + 'static,
    F: Future<Output = Result<S, tonic::Status>> + Send + 'static,
    S: Stream<Item = Result<T, tonic::Status>> + Send + Unpin + 'static,
{
    let mut locked = live.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(id) = setting_up
        && locked
            .setting_up
            .get(&key)
            .is_some_and(|(entry, _)| *entry == id)
    {
        locked.setting_up.remove(&key);
    }
    if let Some((_, sender)) = locked.by_key.get(&key) {
        return sender.subscribe();
    }
    let reader = locked.next_reader;
    locked.next_reader += 1;
    let (sender, receiver) = watch::channel(Some(first));
    locked.by_key.insert(key.clone(), (reader, sender.clone()));
    drop(locked);
    let reading = read(Arc::clone(live), key, reader, sender, open);
    tokio::spawn(tracing::Instrument::instrument(
        reading,
        tracing::Span::current(),
    ));
    receiver
}

/// Reads what `open` opens into `sender` until it ends, is refused, or nobody watches; then takes
/// the key out.
async fn read<K, T, E, O, F, S>(
    live: Arc<Mutex<Live<K, T, E>>>,
    key: K,
    reader: u64,
    sender: watch::Sender<Option<T>>,
    open: O,
) where
    K: Eq + Hash,
    O: FnMut() -> F,
    F: Future<Output = Result<S, tonic::Status>>,
    S: Stream<Item = Result<T, tonic::Status>> + Unpin,
{
    tokio::select! {
        () = unwatched(&live, &key, reader, &sender) => return,
        () = feed(&sender, open) => {}
    }
    // Once the key is out and this sender dropped, every watcher takes the last update and ends.
    remove(
        &mut live.lock().unwrap_or_else(PoisonError::into_inner),
        &key,
        reader,
    );
}

/// Resolves once the last watcher has gone, with the key taken out.
async fn unwatched<K: Eq + Hash, T, E>(
    live: &Mutex<Live<K, T, E>>,
    key: &K,
    reader: u64,
    sender: &watch::Sender<Option<T>>,
) {
    loop {
        sender.closed().await;
        // A watcher joins under the same lock, so none can arrive between this count and taking
        // the key out.
        let mut live = live.lock().unwrap_or_else(PoisonError::into_inner);
        if sender.receiver_count() == 0 {
            remove(&mut live, key, reader);
            return;
        }
    }
}

/// Sends every update of the opened stream, opening it again after each break with a jittered,
/// growing wait; returns when the stream ends or the service refuses it.
async fn feed<T, O, F, S>(sender: &watch::Sender<Option<T>>, mut open: O)
where
    O: FnMut() -> F,
    F: Future<Output = Result<S, tonic::Status>>,
    S: Stream<Item = Result<T, tonic::Status>> + Unpin,
{
    let mut backoffs = match ExponentialBackoffMaker::new(
        RETRY_FIRST,
        RETRY_MOST,
        1.0,
        // A generator of its own per reader, so readers broken together wait different times.
        HasherRng::default(),
    ) {
        Ok(maker) => maker,
        Err(e) => {
            tracing::error!(error = ?e, "watched stream's retry policy is invalid");
            return;
        }
    };
    let mut backoff = backoffs.make_backoff();
    loop {
        let broke = match open().await {
            Ok(mut source) => loop {
                match source.next().await {
                    Some(Ok(update)) => {
                        sender.send_replace(Some(update));
                        // Working again: the next break starts from the shortest wait.
                        backoff = backoffs.make_backoff();
                    }
                    None => return,
                    Some(Err(status)) => break status,
                }
            },
            Err(status) => status,
        };
        if !worth_retrying(&broke) {
            tracing::info!(grpc.code = ?broke.code(), grpc.message = %broke.message(), "watched stream refused; its watchers end");
            return;
        }
        tracing::warn!(grpc.code = ?broke.code(), grpc.message = %broke.message(), "watched stream broke off; opening it again");
        backoff.next_backoff().await;
    }
}

/// A break the same call may get past later: the service or the connection to it failing, not
/// the service refusing this watcher.
fn worth_retrying(status: &tonic::Status) -> bool {
    use tonic::Code;
    matches!(
        status.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Cancelled
            | Code::DeadlineExceeded
            | Code::ResourceExhausted
            | Code::Aborted
            | Code::Internal
    )
}

fn remove<K: Eq + Hash, T, E>(live: &mut Live<K, T, E>, key: &K, reader: u64) {
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
    use std::collections::VecDeque;
    use std::time::Duration;

    use futures::FutureExt;
    use futures::channel::mpsc;

    use super::*;

    type Source = mpsc::UnboundedReceiver<Result<u32, tonic::Status>>;
    type Feed = mpsc::UnboundedSender<Result<u32, tonic::Status>>;

    fn source() -> (Feed, Source) {
        mpsc::unbounded()
    }

    /// Opens `sources` in turn, one per call, and counts the calls; past the last, an opening
    /// that never finishes.
    fn opener(
        sources: Vec<Source>,
    ) -> (
        Arc<Mutex<usize>>,
        impl FnMut() -> futures::future::BoxFuture<'static, Result<Source, tonic::Status>> + Send,
    ) {
        let opened = Arc::new(Mutex::new(0));
        let counted = Arc::clone(&opened);
        let mut sources: VecDeque<Source> = sources.into();
        let open = move || {
            *counted.lock().unwrap() += 1;
            match sources.pop_front() {
                Some(source) => futures::future::ready(Ok(source)).boxed(),
                None => futures::future::pending().boxed(),
            }
        };
        (opened, open)
    }

    fn one(
        source: Source,
    ) -> impl FnMut() -> futures::future::BoxFuture<'static, Result<Source, tonic::Status>> + Send
    {
        opener(vec![source]).1
    }

    async fn settle() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    #[tokio::test]
    async fn a_second_watcher_joins_the_first_ones_stream_and_starts_at_its_newest_update() {
        let fanout = Fanout::<(u64, u64), u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start((1, 7), 1, one(receiver));
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
        let _watching = fanout.start((1, 7), 1, one(receiver));
        assert!(fanout.join(&(2, 7)).is_none());
        assert!(fanout.join(&(1, 8)).is_none());
    }

    #[tokio::test]
    async fn when_the_source_ends_every_watcher_gets_the_last_update_and_the_end() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start(7, 1, one(receiver));
        let second = fanout.join(&7).unwrap();
        settle().await;
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
    async fn a_broken_source_is_opened_again_and_its_watchers_carry_on() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let (feed_again, receiver_again) = source();
        let (opened, open) = opener(vec![receiver, receiver_again]);
        let watcher = fanout.start(7, 1, open);
        futures::pin_mut!(watcher);
        assert_eq!(watcher.next().await, Some(1));

        feed.unbounded_send(Err(tonic::Status::unavailable("gone")))
            .unwrap();
        feed_again.unbounded_send(Ok(2)).unwrap();

        let resumed = tokio::time::timeout(Duration::from_secs(2), watcher.next()).await;
        assert_eq!(
            resumed,
            Ok(Some(2)),
            "the same watcher gets the reopened stream's update"
        );
        assert_eq!(*opened.lock().unwrap(), 2);
        assert_eq!(fanout.readers(), 1);
    }

    #[tokio::test]
    async fn a_refused_source_ends_its_watchers_without_opening_again() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let (opened, open) = opener(vec![receiver]);
        let watcher = fanout.start(7, 1, open);
        feed.unbounded_send(Err(tonic::Status::not_found("no such order")))
            .unwrap();
        settle().await;
        assert_eq!(watcher.collect::<Vec<_>>().await, vec![1]);
        assert_eq!(fanout.readers(), 0);
        assert_eq!(*opened.lock().unwrap(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn failing_openings_wait_longer_each_time_with_jitter() {
        let fanout = Fanout::<u64, u32>::default();
        let failing = |opened_at: Arc<Mutex<Vec<tokio::time::Instant>>>| {
            move || {
                opened_at.lock().unwrap().push(tokio::time::Instant::now());
                futures::future::ready(Err::<Source, _>(tonic::Status::unavailable("down")))
            }
        };
        let (seven, eight) = (Arc::default(), Arc::default());
        let _watcher = fanout.start(7, 1, failing(Arc::clone(&seven)));
        let _other = fanout.start(8, 1, failing(Arc::clone(&eight)));
        tokio::time::sleep(Duration::from_secs(5)).await;

        let waits = |times: &Arc<Mutex<Vec<tokio::time::Instant>>>| -> Vec<Duration> {
            times
                .lock()
                .unwrap()
                .windows(2)
                .map(|w| w[1] - w[0])
                .collect()
        };
        let (waits, others) = (waits(&seven), waits(&eight));
        assert!(waits.len() >= 4, "opened again while watched: {waits:?}");
        assert!(waits[0] >= RETRY_FIRST, "{waits:?}");
        assert!(
            waits.windows(2).all(|w| w[1] >= w[0]),
            "each wait at least as long as the last: {waits:?}"
        );
        assert!(waits.len() < 20, "not a tight loop: {waits:?}");
        assert_ne!(
            waits[..3],
            others[..3],
            "two streams broken together do not come back in step"
        );
    }

    #[tokio::test]
    async fn the_reader_stops_when_its_last_watcher_leaves() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let first = fanout.start(7, 1, one(receiver));
        let second = fanout.join(&7).unwrap();
        settle().await;
        drop(first);
        settle().await;
        assert_eq!(fanout.readers(), 1, "one watcher is still there");
        drop(second);
        settle().await;
        assert_eq!(fanout.readers(), 0);
        assert!(feed.is_closed(), "the source was dropped with its reader");
    }

    #[tokio::test]
    async fn a_start_that_lost_the_race_joins_the_winner_and_opens_nothing() {
        let fanout = Fanout::<u64, u32>::default();
        let (feed, receiver) = source();
        let winner = fanout.start(7, 1, one(receiver));
        futures::pin_mut!(winner);
        let (_late_feed, late_receiver) = source();
        let (late_opened, late_open) = opener(vec![late_receiver]);
        let late = fanout.start(7, 100, late_open);
        futures::pin_mut!(late);
        assert_eq!(late.next().await, Some(1));
        feed.unbounded_send(Ok(2)).unwrap();
        assert_eq!(late.next().await, Some(2));
        assert_eq!(winner.next().await, Some(2), "one stream feeds both");
        assert_eq!(*late_opened.lock().unwrap(), 0);
    }
}
