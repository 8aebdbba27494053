//! The `SupportService` RPCs: who is calling comes only from the signed identity; the customer
//! methods act on the caller's own conversations, the desk's need the agent role.

use std::time::Duration;

use futures::Stream;
use tiffin_platform::identity::Caller;
use tiffin_proto::support::v1::support_service_server::SupportService;
use tiffin_proto::support::v1::{
    AgentRefundRequest, AgentRefundResponse, AgentReplyRequest, AgentReplyResponse,
    CloseConversationRequest, CloseConversationResponse, Conversation, ConversationStatus,
    GetConversationRequest, GetConversationResponse, GetDeskConversationRequest,
    GetDeskConversationResponse, GetIssueRequest, GetIssueResponse, ListConversationsRequest,
    ListConversationsResponse, ListIssueTypesRequest, ListIssueTypesResponse, ListQueueRequest,
    ListQueueResponse, MessageAuthor, PostMessageRequest, PostMessageResponse,
    StartOrderHelpRequest, StartOrderHelpResponse, WatchConversationRequest,
    WatchConversationResponse,
};
use tokio::sync::broadcast::error::RecvError;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::actions::{Actions, HANDED_TO_AGENT};
use crate::conversations::{Change, NewMessage, Store, message_text};
use crate::desk::{Desk, require_agent};
use crate::error::Error;
use crate::issue_types;
use crate::rules::Rules;

/// A watcher looks at its conversation again this often even when nothing here changed it (a
/// change made by another replica).
const WATCH_LOOK_EVERY: Duration = Duration::from_secs(5);
/// Page size of ListConversations when none is asked for, and the largest served.
const DEFAULT_PAGE: u32 = 20;
const MAX_PAGE: u32 = 100;

fn user(metadata: &MetadataMap) -> Result<u64, Error> {
    Caller::from_metadata(metadata)
        .user_id
        .ok_or(Error::Unauthenticated)
}

/// The `SupportService` implementation.
pub struct Support {
    store: Store,
    rules: Rules,
    desk: Desk,
}

impl Support {
    pub fn new(actions: Actions) -> Self {
        Self {
            store: actions.store.clone(),
            rules: Rules::new(actions.clone()),
            desk: Desk::new(actions),
        }
    }

    /// The customer writes in their conversation; a settled one goes (back) to an agent.
    async fn post(&self, user_id: u64, id: u64, text: &str) -> Result<Conversation, Error> {
        let text = message_text(text)?;
        let record = self.store.of_user(user_id, id).await?;
        let reopen = matches!(
            record.status,
            ConversationStatus::Resolved | ConversationStatus::Closed
        );
        let mut messages = vec![NewMessage {
            author: MessageAuthor::Customer,
            author_name: if record.customer.name.is_empty() {
                "Customer".into()
            } else {
                record.customer.name.clone()
            },
            text,
        }];
        if reopen {
            messages.push(NewMessage::tiffin(HANDED_TO_AGENT));
        }
        self.store
            .change(
                id,
                &Change {
                    status: reopen.then_some(ConversationStatus::WithAgent),
                    outcome: None,
                    messages,
                },
            )
            .await?;
        self.store.current(id).await
    }

    /// The conversation now, then again whenever it changes (a signature of its last change, so
    /// a look that finds nothing new sends nothing).
    fn watch(
        &self,
        user_id: u64,
        id: u64,
    ) -> impl Stream<Item = Result<WatchConversationResponse, Status>> + Send + 'static {
        struct State {
            store: Store,
            changes: tokio::sync::broadcast::Receiver<u64>,
            last: Option<(i64, usize, i32)>,
        }
        let state = State {
            store: self.store.clone(),
            changes: self.store.feed().subscribe(),
            last: None,
        };
        futures::stream::unfold(Some(state), move |state| async move {
            let mut state = state?;
            loop {
                if state.last.is_some() {
                    let changed = tokio::time::timeout(WATCH_LOOK_EVERY, async {
                        loop {
                            match state.changes.recv().await {
                                Ok(changed) if changed == id => return true,
                                Ok(_) => continue,
                                Err(RecvError::Lagged(_)) => return true,
                                Err(RecvError::Closed) => return false,
                            }
                        }
                    })
                    .await;
                    if matches!(changed, Ok(false)) {
                        return None;
                    }
                }
                let conversation = match state.store.of_user(user_id, id).await {
                    Ok(record) => state.store.view(&record).await,
                    Err(e) => Err(e),
                };
                match conversation {
                    Ok(conversation) => {
                        let signature = (
                            conversation.updated_at,
                            conversation.messages.len(),
                            conversation.status,
                        );
                        if state.last == Some(signature) {
                            continue;
                        }
                        state.last = Some(signature);
                        let answer = WatchConversationResponse {
                            conversation: Some(conversation),
                        };
                        return Some((Ok(answer), Some(state)));
                    }
                    Err(e) => return Some((Err(Status::from(e)), None)),
                }
            }
        })
    }
}

#[tonic::async_trait]
impl SupportService for Support {
    async fn list_issue_types(
        &self,
        _request: Request<ListIssueTypesRequest>,
    ) -> Result<Response<ListIssueTypesResponse>, Status> {
        let issue_types = issue_types::list(self.store.pool()).await?;
        Ok(Response::new(ListIssueTypesResponse { issue_types }))
    }

    async fn get_issue(
        &self,
        request: Request<GetIssueRequest>,
    ) -> Result<Response<GetIssueResponse>, Status> {
        let issue = issue_types::get(self.store.pool(), &request.get_ref().issue_id).await?;
        Ok(Response::new(GetIssueResponse { issue: Some(issue) }))
    }

    async fn start_order_help(
        &self,
        request: Request<StartOrderHelpRequest>,
    ) -> Result<Response<StartOrderHelpResponse>, Status> {
        let user_id = user(request.metadata())?;
        let conversation = self.rules.start(user_id, request.into_inner()).await?;
        Ok(Response::new(StartOrderHelpResponse {
            conversation: Some(conversation),
        }))
    }

    async fn list_conversations(
        &self,
        request: Request<ListConversationsRequest>,
    ) -> Result<Response<ListConversationsResponse>, Status> {
        let user_id = user(request.metadata())?;
        let ListConversationsRequest { limit, offset } = request.into_inner();
        let limit = match limit {
            0 => DEFAULT_PAGE,
            n => n.min(MAX_PAGE),
        };
        let (conversations, total) = self.store.list(user_id, limit, offset).await?;
        Ok(Response::new(ListConversationsResponse {
            conversations,
            total,
        }))
    }

    async fn get_conversation(
        &self,
        request: Request<GetConversationRequest>,
    ) -> Result<Response<GetConversationResponse>, Status> {
        let user_id = user(request.metadata())?;
        let record = self
            .store
            .of_user(user_id, request.get_ref().conversation_id)
            .await?;
        let conversation = self.store.view(&record).await?;
        Ok(Response::new(GetConversationResponse {
            conversation: Some(conversation),
        }))
    }

    async fn post_message(
        &self,
        request: Request<PostMessageRequest>,
    ) -> Result<Response<PostMessageResponse>, Status> {
        let user_id = user(request.metadata())?;
        let PostMessageRequest {
            conversation_id,
            text,
        } = request.into_inner();
        let conversation = self.post(user_id, conversation_id, &text).await?;
        Ok(Response::new(PostMessageResponse {
            conversation: Some(conversation),
        }))
    }

    type WatchConversationStream = std::pin::Pin<
        Box<dyn futures::Stream<Item = Result<WatchConversationResponse, Status>> + Send>,
    >;

    async fn watch_conversation(
        &self,
        request: Request<WatchConversationRequest>,
    ) -> Result<Response<Self::WatchConversationStream>, Status> {
        let user_id = user(request.metadata())?;
        let id = request.get_ref().conversation_id;
        // Refuse someone else's conversation as the call's answer, not as a stream that fails.
        self.store.of_user(user_id, id).await?;
        Ok(Response::new(Box::pin(self.watch(user_id, id))))
    }

    async fn list_queue(
        &self,
        request: Request<ListQueueRequest>,
    ) -> Result<Response<ListQueueResponse>, Status> {
        require_agent(request.metadata())?;
        let conversations = self.desk.queue().await?;
        Ok(Response::new(ListQueueResponse { conversations }))
    }

    async fn get_desk_conversation(
        &self,
        request: Request<GetDeskConversationRequest>,
    ) -> Result<Response<GetDeskConversationResponse>, Status> {
        require_agent(request.metadata())?;
        let answer = self
            .desk
            .conversation(request.get_ref().conversation_id)
            .await?;
        Ok(Response::new(answer))
    }

    async fn agent_reply(
        &self,
        request: Request<AgentReplyRequest>,
    ) -> Result<Response<AgentReplyResponse>, Status> {
        require_agent(request.metadata())?;
        let AgentReplyRequest {
            conversation_id,
            text,
            agent_name,
        } = request.into_inner();
        let conversation = self.desk.reply(conversation_id, &text, &agent_name).await?;
        Ok(Response::new(AgentReplyResponse {
            conversation: Some(conversation),
        }))
    }

    async fn agent_refund(
        &self,
        request: Request<AgentRefundRequest>,
    ) -> Result<Response<AgentRefundResponse>, Status> {
        require_agent(request.metadata())?;
        let conversation = self.desk.refund(request.into_inner()).await?;
        Ok(Response::new(AgentRefundResponse {
            conversation: Some(conversation),
        }))
    }

    async fn close_conversation(
        &self,
        request: Request<CloseConversationRequest>,
    ) -> Result<Response<CloseConversationResponse>, Status> {
        require_agent(request.metadata())?;
        let CloseConversationRequest {
            conversation_id,
            agent_name,
        } = request.into_inner();
        let conversation = self.desk.close(conversation_id, &agent_name).await?;
        Ok(Response::new(CloseConversationResponse {
            conversation: Some(conversation),
        }))
    }
}
