//! Tells this process's watchers (`WatchConversation`) the moment a conversation changes: one
//! broadcast of changed conversation ids, which each watcher filters for its own. A watcher also
//! looks again every few seconds, so a change made by another replica is seen too.

use tokio::sync::broadcast;

/// How many changes a slow watcher may fall behind before it just reads the conversation again.
const BACKLOG: usize = 256;

/// The changes of this process's conversations.
#[derive(Clone)]
pub struct Feed {
    sender: broadcast::Sender<u64>,
}

impl Default for Feed {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(BACKLOG);
        Self { sender }
    }
}

impl Feed {
    /// Every change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<u64> {
        self.sender.subscribe()
    }

    /// Conversation `conversation_id` changed.
    pub fn changed(&self, conversation_id: u64) {
        // No watcher is not an error.
        let _ = self.sender.send(conversation_id);
    }
}
