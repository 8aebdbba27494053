//! The `GetCart` and `UpdateCart` RPCs (routes `GET cart` and `POST cart`).
//!
//! Whose cart: the caller the edge states in metadata, through
//! [`Caller::owner_key`](tiffin_platform::identity::Caller::owner_key): the user when signed in,
//! else the session. Never a field of the request.
//!
//! Both answers are priced by the menu at the time of the call ([`crate::menu_client`]), so a
//! price that changed since the cart was saved shows as it is now. An out-of-stock line is kept
//! and shown (the customer decides what to do), and the reply's `status_code` is then the spec's
//! 8, "Item(s) unavailable".

use sqlx::AnyPool;
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::{
    Cart, CartItemInput, CartLine, CartRestaurant, GetCartRequest, GetCartResponse,
    MergeGuestCartRequest, MergeGuestCartResponse, UpdateCartRequest, UpdateCartResponse,
    cart_service_server::CartService,
};
use tiffin_proto::menu::v1::{AddonRef, ItemSelection, VariationRef};
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::lines::{self, MAX_UNITS};
use crate::menu_client::{MenuClient, Restaurant};
use crate::store;

/// The spec's cart status code for success (§8).
pub const STATUS_OK: u32 = 0;
/// The spec's cart status code for "Item(s) unavailable" (§8): some line is out of stock.
pub const STATUS_ITEM_UNAVAILABLE: u32 = 8;

/// The `CartService` implementation.
pub struct Carts {
    pool: AnyPool,
    menu: MenuClient,
}

impl Carts {
    pub fn new(pool: AnyPool, menu: MenuClient) -> Self {
        Self { pool, menu }
    }

    /// Replaces the owner's cart with the request's lines, priced by the menu.
    async fn update(
        &self,
        owner_key: &str,
        request: UpdateCartRequest,
    ) -> Result<UpdateCartResponse, Error> {
        let wanted: Vec<CartItemInput> = request
            .items
            .into_iter()
            .filter(|i| i.quantity > 0)
            .collect();
        let units = lines::units(wanted.iter().map(|i| i.quantity));
        if units > MAX_UNITS {
            return Err(Error::TooManyItems { units });
        }
        if wanted.is_empty() {
            let cart_id = store::save(&self.pool, owner_key, None, &[]).await?;
            return Ok(UpdateCartResponse {
                cart: Some(empty(cart_id)),
                status_code: STATUS_OK,
            });
        }

        let quantities: Vec<u32> = wanted.iter().map(|i| i.quantity).collect();
        let selections = wanted.into_iter().map(selection).collect();
        let priced = self.menu.price(request.restaurant_id, selections).await?;
        let lines = lines::merge(quantities.into_iter().zip(priced.items));
        let restaurant = Restaurant {
            name: priced.restaurant_name,
            area_name: priced.area_name,
            image_id: priced.image_id,
        };

        let cart_id =
            store::save(&self.pool, owner_key, Some(request.restaurant_id), &lines).await?;
        let status_code = status_of(&lines, false);
        Ok(UpdateCartResponse {
            cart: Some(cart(cart_id, request.restaurant_id, restaurant, lines)),
            status_code,
        })
    }

    /// The owner's cart, re-priced now. Lines the menu no longer sells as stored are left out of
    /// the reply (and reported as unavailable); the stored cart is not changed by a read.
    async fn get(&self, owner_key: &str) -> Result<GetCartResponse, Error> {
        let stored = store::load(&self.pool, owner_key).await?;
        let Some(stored) = stored else {
            // Never updated: an empty cart, with no id until the first update gives it one.
            return Ok(GetCartResponse {
                cart: Some(empty(String::new())),
                status_code: STATUS_OK,
            });
        };
        let Some(restaurant_id) = stored.restaurant_id.filter(|_| !stored.lines.is_empty()) else {
            return Ok(GetCartResponse {
                cart: Some(empty(stored.cart_id)),
                status_code: STATUS_OK,
            });
        };

        let quantities: Vec<u32> = stored.lines.iter().map(|l| l.quantity).collect();
        let selections = stored.lines.into_iter().map(|l| l.selection).collect();
        let repriced = self.menu.reprice(restaurant_id, selections).await?;
        let dropped = repriced.items.iter().any(Option::is_none);
        let kept = quantities
            .into_iter()
            .zip(repriced.items)
            .filter_map(|(q, item)| item.map(|i| (q, i)));
        let lines = lines::merge(kept);
        let status_code = status_of(&lines, dropped);
        let cart = match repriced.restaurant {
            Some(restaurant) if !lines.is_empty() => {
                cart(stored.cart_id, restaurant_id, restaurant, lines)
            }
            _ => empty(stored.cart_id),
        };
        Ok(GetCartResponse {
            cart: Some(cart),
            status_code,
        })
    }
}

/// The menu's view of one requested line (the quantity travels beside it).
fn selection(input: CartItemInput) -> ItemSelection {
    ItemSelection {
        item_id: input.menu_item_id,
        addons: input
            .addons
            .into_iter()
            .map(|a| AddonRef {
                group_id: a.group_id,
                choice_id: a.choice_id,
            })
            .collect(),
        variations: input
            .variants
            .into_iter()
            .map(|v| VariationRef {
                group_id: v.group_id,
                variation_id: v.variation_id,
            })
            .collect(),
    }
}

/// 8 when any line is out of stock or could not be priced any more, else 0.
fn status_of(lines: &[CartLine], dropped: bool) -> u32 {
    if dropped || lines.iter().any(|l| !l.in_stock) {
        STATUS_ITEM_UNAVAILABLE
    } else {
        STATUS_OK
    }
}

fn empty(cart_id: String) -> Cart {
    Cart {
        cart_id,
        restaurant: None,
        lines: Vec::new(),
        item_count: 0,
        item_total_paise: 0,
    }
}

fn cart(cart_id: String, restaurant_id: u64, restaurant: Restaurant, lines: Vec<CartLine>) -> Cart {
    Cart {
        cart_id,
        restaurant: Some(CartRestaurant {
            id: restaurant_id,
            name: restaurant.name,
            area_name: restaurant.area_name,
            image_id: restaurant.image_id,
        }),
        item_count: lines::item_count(&lines),
        item_total_paise: lines::item_total_paise(&lines),
        lines,
    }
}

/// The owner of the caller's cart, or UNAUTHENTICATED.
fn owner_key<T>(request: &Request<T>) -> Result<String, Error> {
    Caller::from_metadata(request.metadata())
        .owner_key()
        .ok_or(Error::NoCaller)
}

#[tonic::async_trait]
impl CartService for Carts {
    async fn get_cart(
        &self,
        request: Request<GetCartRequest>,
    ) -> Result<Response<GetCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        Ok(Response::new(self.get(&owner_key).await?))
    }

    async fn update_cart(
        &self,
        request: Request<UpdateCartRequest>,
    ) -> Result<Response<UpdateCartResponse>, Status> {
        let owner_key = owner_key(&request)?;
        Ok(Response::new(
            self.update(&owner_key, request.into_inner()).await?,
        ))
    }

    /// Only a signed-in caller has an account cart to merge into; the guest session is named by
    /// the edge (VerifyOtp's `previous_session_id`), never by a browser.
    async fn merge_guest_cart(
        &self,
        request: Request<MergeGuestCartRequest>,
    ) -> Result<Response<MergeGuestCartResponse>, Status> {
        let caller = Caller::from_metadata(request.metadata());
        let user_id = caller.user_id.ok_or(Error::NoCaller)?;
        let guest_session_id = request.into_inner().guest_session_id;
        if guest_session_id.is_empty() || guest_session_id.len() > 128 {
            return Err(Error::Malformed("guest_session_id".into()).into());
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
            crate::merge::merge(&self.pool, &guest_owner, &account_owner).await?;
        tracing::info!(outcome = outcome.as_str_name(), units, "guest cart merged");
        Ok(Response::new(MergeGuestCartResponse {
            outcome: outcome.into(),
            item_count: u32::try_from(units).unwrap_or(u32::MAX),
        }))
    }
}
