//! The `AccountService` gRPC implementation: reads who is calling from the metadata, hands each
//! RPC to the module of its concern, and turns errors into statuses. No rule lives here.

use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{account_service_server::AccountService, *};
use tonic::{Request, Response, Status};

pub use crate::ctx::Ctx;
use crate::error::Error;
use crate::{addresses, favourites, otp, profile, roles, sessions, signin};

/// The gRPC service.
#[derive(Debug, Clone)]
pub struct Account {
    ctx: Ctx,
}

impl Account {
    pub fn new(ctx: Ctx) -> Self {
        Self { ctx }
    }
}

/// Splits a request into its caller and its message.
fn parts<T>(request: Request<T>) -> (Caller, T) {
    let caller = Caller::from_metadata(request.metadata());
    (caller, request.into_inner())
}

fn reply<T>(result: Result<T, Error>) -> Result<Response<T>, Status> {
    result.map(Response::new).map_err(Status::from)
}

#[tonic::async_trait]
impl AccountService for Account {
    async fn create_session(
        &self,
        request: Request<CreateSessionRequest>,
    ) -> Result<Response<CreateSessionResponse>, Status> {
        let ctx = &self.ctx;
        reply(sessions::create(&ctx.pool, ctx.now(), ctx.lifetimes, request.into_inner()).await)
    }

    async fn get_session(
        &self,
        request: Request<GetSessionRequest>,
    ) -> Result<Response<GetSessionResponse>, Status> {
        let ctx = &self.ctx;
        reply(sessions::get(&ctx.pool, ctx.now(), ctx.lifetimes, request.into_inner()).await)
    }

    async fn end_session(
        &self,
        request: Request<EndSessionRequest>,
    ) -> Result<Response<EndSessionResponse>, Status> {
        let (caller, _) = parts(request);
        if let Some(session_id) = &caller.session_id {
            reply(sessions::end(&self.ctx.pool, session_id).await)?;
        }
        Ok(Response::new(EndSessionResponse {}))
    }

    async fn send_otp(
        &self,
        request: Request<SendOtpRequest>,
    ) -> Result<Response<SendOtpResponse>, Status> {
        let (caller, request) = parts(request);
        reply(signin::send_otp(&self.ctx, &caller, request).await)
    }

    async fn verify_otp(
        &self,
        request: Request<VerifyOtpRequest>,
    ) -> Result<Response<VerifyOtpResponse>, Status> {
        let (caller, request) = parts(request);
        reply(signin::verify_otp(&self.ctx, &caller, request).await)
    }

    async fn get_profile(
        &self,
        request: Request<GetProfileRequest>,
    ) -> Result<Response<GetProfileResponse>, Status> {
        let (caller, _) = parts(request);
        reply(
            profile::get(&self.ctx, &caller)
                .await
                .map(|profile| GetProfileResponse {
                    profile: Some(profile),
                }),
        )
    }

    async fn start_mobile_change(
        &self,
        request: Request<StartMobileChangeRequest>,
    ) -> Result<Response<StartMobileChangeResponse>, Status> {
        let (caller, request) = parts(request);
        reply(profile::start_mobile_change(&self.ctx, &caller, request).await)
    }

    async fn confirm_mobile_change(
        &self,
        request: Request<ConfirmMobileChangeRequest>,
    ) -> Result<Response<ConfirmMobileChangeResponse>, Status> {
        let (caller, request) = parts(request);
        reply(profile::confirm_mobile_change(&self.ctx, &caller, request).await)
    }

    async fn start_email_change(
        &self,
        request: Request<StartEmailChangeRequest>,
    ) -> Result<Response<StartEmailChangeResponse>, Status> {
        let (caller, request) = parts(request);
        reply(profile::start_email_change(&self.ctx, &caller, request).await)
    }

    async fn verify_email(
        &self,
        request: Request<VerifyEmailRequest>,
    ) -> Result<Response<VerifyEmailResponse>, Status> {
        reply(profile::verify_email(&self.ctx, request.into_inner()).await)
    }

    async fn update_preferences(
        &self,
        request: Request<UpdatePreferencesRequest>,
    ) -> Result<Response<UpdatePreferencesResponse>, Status> {
        let (caller, request) = parts(request);
        reply(profile::update_preferences(&self.ctx, &caller, request).await)
    }

    async fn delete_account(
        &self,
        request: Request<DeleteAccountRequest>,
    ) -> Result<Response<DeleteAccountResponse>, Status> {
        let (caller, _) = parts(request);
        reply(profile::delete_account(&self.ctx, &caller).await)
    }

    async fn list_addresses(
        &self,
        request: Request<ListAddressesRequest>,
    ) -> Result<Response<ListAddressesResponse>, Status> {
        let (caller, _) = parts(request);
        reply(
            addresses::list_for(&self.ctx, &caller)
                .await
                .map(|addresses| ListAddressesResponse { addresses }),
        )
    }

    async fn get_address(
        &self,
        request: Request<GetAddressRequest>,
    ) -> Result<Response<GetAddressResponse>, Status> {
        let (caller, request) = parts(request);
        reply(
            addresses::get(&self.ctx, &caller, &request.id)
                .await
                .map(|address| GetAddressResponse {
                    address: Some(address),
                }),
        )
    }

    async fn save_address(
        &self,
        request: Request<SaveAddressRequest>,
    ) -> Result<Response<SaveAddressResponse>, Status> {
        let (caller, request) = parts(request);
        reply(addresses::save(&self.ctx, &caller, request).await)
    }

    async fn delete_address(
        &self,
        request: Request<DeleteAddressRequest>,
    ) -> Result<Response<DeleteAddressResponse>, Status> {
        let (caller, request) = parts(request);
        reply(
            addresses::delete(&self.ctx, &caller, &request.id)
                .await
                .map(|addresses| DeleteAddressResponse { addresses }),
        )
    }

    async fn set_favourite(
        &self,
        request: Request<SetFavouriteRequest>,
    ) -> Result<Response<SetFavouriteResponse>, Status> {
        let (caller, request) = parts(request);
        reply(favourites::set(&self.ctx, &caller, request).await)
    }

    async fn list_favourites(
        &self,
        request: Request<ListFavouritesRequest>,
    ) -> Result<Response<ListFavouritesResponse>, Status> {
        let (caller, _) = parts(request);
        reply(
            favourites::list(&self.ctx, &caller)
                .await
                .map(|restaurant_ids| ListFavouritesResponse { restaurant_ids }),
        )
    }

    async fn list_outbox(
        &self,
        request: Request<ListOutboxRequest>,
    ) -> Result<Response<ListOutboxResponse>, Status> {
        let recipient = request.into_inner().recipient;
        reply(outbox(&self.ctx, &recipient))
    }

    async fn grant_role(
        &self,
        request: Request<GrantRoleRequest>,
    ) -> Result<Response<GrantRoleResponse>, Status> {
        let ctx = &self.ctx;
        reply(roles::grant(&ctx.pool, ctx.now(), request.into_inner()).await)
    }
}

/// `ListOutbox`: what the development provider has "sent" to a number (normalised as `SendOtp`
/// does) or an email address, newest first.
fn outbox(ctx: &Ctx, recipient: &str) -> Result<ListOutboxResponse, Error> {
    // Both, though the development provider cannot start outside development: the codes it keeps
    // must never be readable from a deployed service, whatever else changes.
    let outbox = ctx
        .messages
        .outbox()
        .filter(|_| ctx.development)
        .ok_or(Error::OutboxDisabled)?;
    let recipient = recipient.trim();
    let key = if recipient.contains('@') {
        recipient.to_string()
    } else {
        otp::normalise_mobile(recipient)?
    };
    let messages = outbox
        .to(&key)
        .into_iter()
        .map(|m| OutboxMessage {
            channel: m.channel.as_str().to_string(),
            recipient: m.to,
            body: m.body,
            sent_at_ms: m.sent_at_ms,
        })
        .collect();
    Ok(ListOutboxResponse { messages })
}
