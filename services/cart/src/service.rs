//! The `CartService` RPCs: who is asking (from the caller metadata, never a request field), the
//! operation in [`crate::carts`], and the status's code and wording put beside the cart.

use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::{
    AddSubscriptionToCartRequest, AddSubscriptionToCartResponse, ApplyCouponRequest,
    ApplyCouponResponse, CalculateCartRequest, CalculateCartResponse, EmptyOrderedCartRequest,
    EmptyOrderedCartResponse, GetCartRequest, GetCartResponse, GetCartRestaurantRequest,
    GetCartRestaurantResponse, ListPaymentOffersRequest, ListPaymentOffersResponse,
    MergeGuestCartRequest, MergeGuestCartResponse, RemoveCouponRequest, RemoveCouponResponse,
    RemoveRewardRequest, RemoveRewardResponse, UpdateCartRequest, UpdateCartResponse,
    cart_service_server::CartService,
};
use tonic::{Request, Response, Status};

use crate::carts::Carts;
use crate::error::Error;
use crate::store;

/// The owner of the caller's cart, or UNAUTHENTICATED.
pub(crate) fn owner_key<T>(request: &Request<T>) -> Result<String, Error> {
    Caller::from_metadata(request.metadata())
        .owner_key()
        .ok_or(Error::NoCaller)
}

/// The caller and the owner of their cart, or UNAUTHENTICATED.
fn whose<T>(request: &Request<T>) -> Result<(Caller, String), Error> {
    let caller = Caller::from_metadata(request.metadata());
    let owner_key = caller.owner_key().ok_or(Error::NoCaller)?;
    Ok((caller, owner_key))
}

#[tonic::async_trait]
impl CartService for Carts {
    async fn get_cart(
        &self,
        request: Request<GetCartRequest>,
    ) -> Result<Response<GetCartResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let priced = self.load_priced(&owner_key).await?;
        let (cart, status) = self.present(priced, &delivery, false, &caller).await;
        Ok(Response::new(GetCartResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn update_cart(
        &self,
        request: Request<UpdateCartRequest>,
    ) -> Result<Response<UpdateCartResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let (cart, status) = self
            .update(&owner_key, &caller, request.into_inner())
            .await?;
        Ok(Response::new(UpdateCartResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn empty_ordered_cart(
        &self,
        request: Request<EmptyOrderedCartRequest>,
    ) -> Result<Response<EmptyOrderedCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let version = Some(request.into_inner().version).filter(|v| *v > 0);
        let emptied = store::empty_if_at(self.writer(), &owner_key, version).await?;
        Ok(Response::new(EmptyOrderedCartResponse { emptied }))
    }

    async fn get_cart_restaurant(
        &self,
        request: Request<GetCartRestaurantRequest>,
    ) -> Result<Response<GetCartRestaurantResponse>, Status> {
        let owner_key = owner_key(&request)?;
        let stored = store::load(self.writer().pool(), &owner_key)
            .await?
            .filter(|c| !c.lines.is_empty());
        Ok(Response::new(GetCartRestaurantResponse {
            restaurant_id: stored.as_ref().and_then(|c| c.restaurant_id),
            item_count: stored.map_or(0, |c| {
                c.lines
                    .iter()
                    .map(|l| l.quantity)
                    .fold(0, u32::saturating_add)
            }),
        }))
    }

    async fn calculate_cart(
        &self,
        request: Request<CalculateCartRequest>,
    ) -> Result<Response<CalculateCartResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let (cart, status) = self
            .calculate(&owner_key, &caller, request.into_inner())
            .await?;
        Ok(Response::new(CalculateCartResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn apply_coupon(
        &self,
        request: Request<ApplyCouponRequest>,
    ) -> Result<Response<ApplyCouponResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let request = request.into_inner();
        let (cart, status) = self
            .apply_coupon(
                &owner_key,
                &caller,
                &request.coupon_code,
                request.delivery.unwrap_or_default(),
            )
            .await?;
        Ok(Response::new(ApplyCouponResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn remove_coupon(
        &self,
        request: Request<RemoveCouponRequest>,
    ) -> Result<Response<RemoveCouponResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let (cart, status) = self
            .remove_coupon(&owner_key, &caller, false, delivery)
            .await?;
        Ok(Response::new(RemoveCouponResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn remove_reward(
        &self,
        request: Request<RemoveRewardRequest>,
    ) -> Result<Response<RemoveRewardResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let delivery = request.into_inner().delivery.unwrap_or_default();
        let (cart, status) = self
            .remove_coupon(&owner_key, &caller, true, delivery)
            .await?;
        Ok(Response::new(RemoveRewardResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    async fn add_subscription_to_cart(
        &self,
        request: Request<AddSubscriptionToCartRequest>,
    ) -> Result<Response<AddSubscriptionToCartResponse>, Status> {
        let (caller, owner_key) = whose(&request)?;
        let (cart, status) = self
            .add_subscription(&owner_key, &caller, request.into_inner())
            .await?;
        Ok(Response::new(AddSubscriptionToCartResponse {
            cart: Some(cart),
            status_code: status.code(),
            status_message: status.message().to_string(),
        }))
    }

    /// Only a signed-in caller has an account cart to merge into; the guest session is named by
    /// the edge (VerifyOtp's `previous_session_id`), never by a browser.
    async fn merge_guest_cart(
        &self,
        request: Request<MergeGuestCartRequest>,
    ) -> Result<Response<MergeGuestCartResponse>, Status> {
        let caller = Caller::from_metadata(request.metadata());
        let user_id = caller.user_id.ok_or(Error::NoCaller)?;
        // The guest cart merged is the one of the session the edge signed this call for: the
        // session whose cookie the browser signed in with. The message may only repeat it, so no
        // caller can name another visitor's session and take their cart.
        let guest_session_id = caller.session_id.unwrap_or_default();
        if guest_session_id.is_empty() || guest_session_id.len() > 128 {
            return Err(Error::Malformed("guest_session_id".into()).into());
        }
        let named = request.into_inner().guest_session_id;
        if !named.is_empty() && named != guest_session_id {
            return Err(Status::permission_denied(
                "the guest session named is not the one the call is signed for",
            ));
        }
        let guest = Caller {
            user_id: None,
            session_id: Some(guest_session_id),
        };
        let account = Caller {
            user_id: Some(user_id),
            session_id: None,
        };
        let (Some(guest_owner), Some(account_owner)) = (guest.owner_key(), account.owner_key())
        else {
            return Err(Error::NoCaller.into());
        };
        let (outcome, units) =
            crate::merge::merge(self.writer(), &guest_owner, &account_owner).await?;
        tracing::info!(outcome = outcome.as_str_name(), units, "guest cart merged");
        Ok(Response::new(MergeGuestCartResponse {
            outcome: outcome.into(),
            item_count: u32::try_from(units).unwrap_or(u32::MAX),
        }))
    }

    /// The same for everyone but the `used` marks, which come from the request (the edge asks
    /// the orders service for them), so no caller is needed.
    async fn list_payment_offers(
        &self,
        request: Request<ListPaymentOffersRequest>,
    ) -> Result<Response<ListPaymentOffersResponse>, Status> {
        let request = request.into_inner();
        let (offers, coupons) = crate::payment_offers::listing(
            &request.used_payment_offers,
            request.first_order,
            crate::delivery::unix_now(),
        );
        Ok(Response::new(ListPaymentOffersResponse { offers, coupons }))
    }
}
