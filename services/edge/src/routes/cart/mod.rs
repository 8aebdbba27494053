//! The cart routes (`cart`, `cart/calculate`, `cart/applyCoupon`, `cart/removeCoupon`,
//! `cart/removeReward`, `cart/addSubscriptionToCart`, and `offers/payment`, the payment offers
//! the cart applies: [`offers`]), owned by the Cart team: [`request`] and [`whereabouts`] read what the
//! browser sends, [`delivery`] gathers the cart's delivery context from the other services,
//! [`handlers`] make the calls, and [`reply`] shapes the answer.

pub mod delivery;
pub mod handlers;
pub mod offers;
pub mod reply;
pub mod request;
pub mod whereabouts;
