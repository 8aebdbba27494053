//! Prices through the menu service's `PriceItems`: the only place the cart gets a price from.
//!
//! Every call goes over [`tiffin_platform::grpc::channel`] (trace carried onward) and gives up
//! after [`MENU_TIMEOUT`]. The menu's answers become the cart's errors here, in one place:
//! a refused selection passes on as the menu worded it, an unreachable menu is UNAVAILABLE, and
//! anything else is our fault (internal).

use std::time::Duration;
use tiffin_platform::identity::Caller;

use futures::future::join_all;
use tiffin_platform::grpc::TracedChannel;
use tiffin_proto::menu::v1::{
    GetMenuRequest, ItemSelection, Offer, PriceItemsRequest, PriceItemsResponse, PricedItem,
    menu_service_client::MenuServiceClient,
};
use tonic::{Code, Status};

use crate::error::Error;

/// A call to the menu signed as the cart: the menu admits the cart for the calls it prices and
/// reads offers with, and no one unsigned. No customer's identity travels: prices are everyone's.
fn as_cart<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    Caller::default().write_to(request.metadata_mut(), "cart");
    request
}
/// How long one `PriceItems` call may take before the cart answers UNAVAILABLE.
pub const MENU_TIMEOUT: Duration = Duration::from_secs(3);

/// Prefix of the metadata keys that carry the spec's meaning (status code, refused add-on group);
/// only these are passed on from a menu refusal, never transport headers.
const TIFFIN_METADATA_PREFIX: &str = "x-tiffin-";

/// The restaurant a priced cart orders from, as the menu names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restaurant {
    pub name: String,
    pub area_name: String,
    pub image_id: String,
}

/// Selections priced for display: the restaurant, and for each selection its price, or `None`
/// when the menu no longer sells it as stored.
#[derive(Debug, Clone, Default)]
pub struct Repriced {
    /// `None` when no selection could be priced.
    pub restaurant: Option<Restaurant>,
    pub items: Vec<Option<PricedItem>>,
}

/// How long a restaurant's offers are kept before the menu is asked again.
pub const OFFERS_TTL: Duration = Duration::from_secs(300);

/// Each restaurant's offers and when they were fetched.
type OffersCache = std::sync::Arc<
    std::sync::Mutex<std::collections::HashMap<u64, (std::time::Instant, Vec<Offer>)>>,
>;

/// A client of the menu service.
#[derive(Clone)]
pub struct MenuClient {
    client: MenuServiceClient<TracedChannel>,
    /// Each restaurant's offers strip (its coupons) and when it was fetched. Offers change far
    /// less often than carts are priced, so they are asked at most every [`OFFERS_TTL`].
    offers: OffersCache,
}

impl MenuClient {
    /// A client of the menu at `url`; connects on first use.
    pub fn new(url: &str) -> Result<Self, tonic::transport::Error> {
        let channel = tiffin_platform::grpc::channel(url, MENU_TIMEOUT)?;
        Ok(Self {
            client: MenuServiceClient::new(channel),
            offers: Default::default(),
        })
    }

    /// The restaurant's offers (their coupon codes), from the menu's light form, cached.
    pub async fn offers(&self, restaurant_id: u64) -> Result<Vec<Offer>, Error> {
        if let Ok(cache) = self.offers.lock()
            && let Some((at, offers)) = cache.get(&restaurant_id)
            && at.elapsed() < OFFERS_TTL
        {
            return Ok(offers.clone());
        }
        let menu = self
            .client
            .clone()
            .get_menu(as_cart(GetMenuRequest {
                restaurant_id,
                quick: true,
                ..GetMenuRequest::default()
            }))
            .await
            .map_err(from_menu)?
            .into_inner()
            .menu
            .unwrap_or_default();
        if let Ok(mut cache) = self.offers.lock() {
            cache.insert(
                restaurant_id,
                (std::time::Instant::now(), menu.offers.clone()),
            );
        }
        Ok(menu.offers)
    }

    /// Prices every selection, all or nothing: one price per selection, in order.
    pub async fn price(
        &self,
        restaurant_id: u64,
        selections: Vec<ItemSelection>,
    ) -> Result<PriceItemsResponse, Error> {
        let asked = selections.len();
        let reply = self
            .client
            .clone()
            .price_items(as_cart(PriceItemsRequest {
                restaurant_id,
                selections,
            }))
            .await
            .map_err(from_menu)?
            .into_inner();
        if reply.items.len() != asked {
            return Err(Error::MenuContract(format!(
                "{} prices for {asked} selections",
                reply.items.len()
            )));
        }
        Ok(reply)
    }

    /// Prices stored selections for display. A cart saved yesterday may name an item the menu has
    /// since dropped; rather than fail the whole cart (and leave the customer unable to see it),
    /// the selections are then priced one by one and the refused ones come back as `None`.
    pub async fn reprice(
        &self,
        restaurant_id: u64,
        selections: Vec<ItemSelection>,
    ) -> Result<Repriced, Error> {
        match self.price(restaurant_id, selections.clone()).await {
            Ok(reply) => Ok(Repriced {
                restaurant: Some(restaurant(&reply)),
                items: reply.items.into_iter().map(Some).collect(),
            }),
            Err(Error::Refused(_)) => {
                let one_by_one = selections
                    .into_iter()
                    .map(|s| self.price(restaurant_id, vec![s]));
                let mut repriced = Repriced::default();
                for result in join_all(one_by_one).await {
                    match result {
                        Ok(mut reply) => {
                            repriced
                                .restaurant
                                .get_or_insert_with(|| restaurant(&reply));
                            repriced.items.push(reply.items.pop());
                        }
                        Err(Error::Refused(_)) => repriced.items.push(None),
                        Err(e) => return Err(e),
                    }
                }
                Ok(repriced)
            }
            Err(e) => Err(e),
        }
    }
}

fn restaurant(reply: &PriceItemsResponse) -> Restaurant {
    Restaurant {
        name: reply.restaurant_name.clone(),
        area_name: reply.area_name.clone(),
        image_id: reply.image_id.clone(),
    }
}

/// What a failed `PriceItems` call means for the cart.
fn from_menu(status: Status) -> Error {
    match status.code() {
        Code::InvalidArgument => Error::Refused(passed_on(&status)),
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled | Code::ResourceExhausted => {
            Error::MenuUnavailable(status)
        }
        _ => Error::Menu(status),
    }
}

/// The menu's refusal as the cart's own status: same code and words, and only the `x-tiffin-*`
/// metadata (spec status code, the add-on group a rule refused).
fn passed_on(status: &Status) -> Status {
    let mut ours = Status::new(status.code(), status.message());
    for key in status.metadata().keys() {
        if let tonic::metadata::KeyRef::Ascii(key) = key
            && key.as_str().starts_with(TIFFIN_METADATA_PREFIX)
            && let Some(value) = status.metadata().get(key)
        {
            ours.metadata_mut().insert(key.clone(), value.clone());
        }
    }
    ours
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_keeps_its_words_and_spec_metadata_but_not_transport_headers() {
        let mut menu = tiffin_platform::status::with_code(
            Code::InvalidArgument,
            1,
            "You must select at least 1 Dips",
        );
        menu.metadata_mut()
            .insert("x-tiffin-addon-group-id", "7-ag1".parse().unwrap());
        menu.metadata_mut()
            .insert("content-type", "application/grpc".parse().unwrap());

        let Error::Refused(ours) = from_menu(menu) else {
            panic!("a refusal")
        };

        assert_eq!(
            (ours.code(), ours.message()),
            (Code::InvalidArgument, "You must select at least 1 Dips")
        );
        assert_eq!(tiffin_platform::status::spec_code(&ours), Some(1));
        assert_eq!(
            ours.metadata()
                .get("x-tiffin-addon-group-id")
                .and_then(|v| v.to_str().ok()),
            Some("7-ag1")
        );
        assert!(ours.metadata().get("content-type").is_none());
    }

    #[test]
    fn an_unreachable_menu_is_unavailable_and_other_failures_are_ours() {
        assert!(matches!(
            from_menu(Status::unavailable("x")),
            Error::MenuUnavailable(_)
        ));
        assert!(matches!(
            from_menu(Status::deadline_exceeded("x")),
            Error::MenuUnavailable(_)
        ));
        assert!(matches!(from_menu(Status::internal("x")), Error::Menu(_)));
    }
}
