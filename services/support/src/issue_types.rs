//! Help topics: the `issue_types` table and the `ListIssueTypes` RPC.

use sqlx::{AnyPool, Row};
use tiffin_proto::support::v1::support_service_server::SupportService;
use tiffin_proto::support::v1::{
    AgentRefundRequest, AgentRefundResponse, AgentReplyRequest, AgentReplyResponse,
    CloseConversationRequest, CloseConversationResponse, GetConversationRequest,
    GetConversationResponse, GetDeskConversationRequest, GetDeskConversationResponse,
    GetIssueRequest, GetIssueResponse, IssueType, ListConversationsRequest,
    ListConversationsResponse, ListIssueTypesRequest, ListIssueTypesResponse, ListQueueRequest,
    ListQueueResponse, PostMessageRequest, PostMessageResponse, StartOrderHelpRequest,
    StartOrderHelpResponse, WatchConversationRequest, WatchConversationResponse,
};
use tonic::{Request, Response, Status};

use crate::error::Error;

/// The `SupportService` implementation.
pub struct Support {
    pool: AnyPool,
}

impl Support {
    pub fn new(pool: AnyPool) -> Self {
        Self { pool }
    }

    async fn issue_types(&self) -> Result<Vec<IssueType>, Error> {
        let rows = sqlx::query("SELECT id, title, description FROM issue_types ORDER BY position")
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter()
            .map(|r| {
                Ok(IssueType {
                    id: r.try_get("id")?,
                    title: r.try_get("title")?,
                    description: r.try_get("description")?,
                })
            })
            .collect()
    }
}

#[tonic::async_trait]
impl SupportService for Support {
    async fn list_issue_types(
        &self,
        _request: Request<ListIssueTypesRequest>,
    ) -> Result<Response<ListIssueTypesResponse>, Status> {
        let issue_types = self.issue_types().await?;
        Ok(Response::new(ListIssueTypesResponse { issue_types }))
    }

    async fn get_issue(
        &self,
        _request: Request<GetIssueRequest>,
    ) -> Result<Response<GetIssueResponse>, Status> {
        Err(Status::unimplemented("GetIssue is being built"))
    }

    async fn start_order_help(
        &self,
        _request: Request<StartOrderHelpRequest>,
    ) -> Result<Response<StartOrderHelpResponse>, Status> {
        Err(Status::unimplemented("StartOrderHelp is being built"))
    }

    async fn list_conversations(
        &self,
        _request: Request<ListConversationsRequest>,
    ) -> Result<Response<ListConversationsResponse>, Status> {
        Err(Status::unimplemented("ListConversations is being built"))
    }

    async fn get_conversation(
        &self,
        _request: Request<GetConversationRequest>,
    ) -> Result<Response<GetConversationResponse>, Status> {
        Err(Status::unimplemented("GetConversation is being built"))
    }

    async fn post_message(
        &self,
        _request: Request<PostMessageRequest>,
    ) -> Result<Response<PostMessageResponse>, Status> {
        Err(Status::unimplemented("PostMessage is being built"))
    }

    type WatchConversationStream = std::pin::Pin<
        Box<dyn futures::Stream<Item = Result<WatchConversationResponse, Status>> + Send>,
    >;

    async fn watch_conversation(
        &self,
        _request: Request<WatchConversationRequest>,
    ) -> Result<Response<Self::WatchConversationStream>, Status> {
        Err(Status::unimplemented("WatchConversation is being built"))
    }

    async fn list_queue(
        &self,
        _request: Request<ListQueueRequest>,
    ) -> Result<Response<ListQueueResponse>, Status> {
        Err(Status::unimplemented("ListQueue is being built"))
    }

    async fn get_desk_conversation(
        &self,
        _request: Request<GetDeskConversationRequest>,
    ) -> Result<Response<GetDeskConversationResponse>, Status> {
        Err(Status::unimplemented("GetDeskConversation is being built"))
    }

    async fn agent_reply(
        &self,
        _request: Request<AgentReplyRequest>,
    ) -> Result<Response<AgentReplyResponse>, Status> {
        Err(Status::unimplemented("AgentReply is being built"))
    }

    async fn agent_refund(
        &self,
        _request: Request<AgentRefundRequest>,
    ) -> Result<Response<AgentRefundResponse>, Status> {
        Err(Status::unimplemented("AgentRefund is being built"))
    }

    async fn close_conversation(
        &self,
        _request: Request<CloseConversationRequest>,
    ) -> Result<Response<CloseConversationResponse>, Status> {
        Err(Status::unimplemented("CloseConversation is being built"))
    }
}
