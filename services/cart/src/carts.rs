//! The cart's operations: get, update, calculate, apply and remove a coupon. Each prices the cart
//! by the menu at the time of the call ([`crate::menu_client`]), checks what the request changes
//! (the limits, the coupon [`crate::coupons`] allows now, the note), saves it ([`crate::store`]),
//! and answers with [`crate::reply::present`]'s cart and status. An out-of-stock line is kept and
//! shown (the customer decides what to do), never billed.
//!
//! Whose cart is the caller's business ([`crate::service`]); nothing here reads metadata.

use sqlx::AnyPool;
use tiffin_platform::db::{Commit, Writer};
use tiffin_platform::identity::Caller;
use tiffin_platform::text::free_text;
use tiffin_proto::cart::v1::{
    AddSubscriptionToCartRequest, CalculateCartRequest, Cart, CartDetailsInput, CartItemInput,
    CartLine, DeliveryContext, UpdateCartRequest,
};
use tiffin_proto::menu::v1::{AddonRef, ItemSelection, VariationRef};

use crate::coupons::{self, Coupon};
use crate::delivery::{cart_facts, facts_for};
use crate::error::Error;
use crate::lines::{self, MAX_UNITS};
use crate::membership_client::{MembershipClient, Standing};
use crate::menu_client::{MenuClient, Restaurant};
use crate::reply::{self, Extras, PlanInCart, Priced};
use crate::status::Status;
use crate::store::{self, Details, DetailsChange, NewLines};
use crate::surge::Surge;

/// Longest note to the restaurant, in characters.
pub const MAX_NOTE_CHARS: usize = 200;

/// The `CartService` implementation.
pub struct Carts {
    /// The cart database: reads through its pool, writes one at a time on SQLite.
    writer: Writer,
    menu: MenuClient,
    /// Whether the customer is a member, and the plans (priced there, never here).
    membership: MembershipClient,
    /// The operator's surge settings.
    surge: Surge,
}

impl Carts {
    /// A cart's changes commit in the background ([`Commit::Background`]): a crash of the
    /// database server can take back the last fraction of a second of them, which the customer
    /// makes again with a tap, and no update waits on the disk. Orders and payments, which live
    /// in their own services, are flushed.
    pub fn new(
        pool: AnyPool,
        menu: MenuClient,
        membership: MembershipClient,
        surge: Surge,
    ) -> Self {
        Self {
            writer: Writer::with_commit(pool, Commit::Background),
            menu,
            membership,
            surge,
        }
    }

    /// The writer of the cart's database (one per process: see [`Writer`]).
    pub fn writer(&self) -> &Writer {
        &self.writer
    }

    /// The stored cart, priced now; previous prices kept so a change shows.
    pub(crate) async fn load_priced(&self, owner_key: &str) -> Result<Priced, Error> {
        let Some(stored) = store::load(self.writer.pool(), owner_key).await? else {
            // Never updated: an empty cart, with no id until the first update gives it one.
            return Ok(Priced {
                cart_id: String::new(),
                restaurant: None,
                lines: Vec::new(),
                dropped: false,
                details: Details::default(),
                version: 0,
                plan_id: None,
            });
        };
        let Some(restaurant_id) = stored.restaurant_id.filter(|_| !stored.lines.is_empty()) else {
            return Ok(Priced {
                cart_id: stored.cart_id,
                restaurant: None,
                lines: Vec::new(),
                dropped: false,
                details: stored.details,
                version: stored.version,
                plan_id: stored.plan_id,
            });
        };
        let seen: Vec<Option<i64>> = stored.lines.iter().map(|l| l.seen_price_paise).collect();
        let quantities: Vec<u32> = stored.lines.iter().map(|l| l.quantity).collect();
        let selections = stored.lines.into_iter().map(|l| l.selection).collect();
        let repriced = self.menu.reprice(restaurant_id, selections).await?;
        let dropped = repriced.items.iter().any(Option::is_none);
        // Stored lines are already merged, so line i of the result is stored line i minus the
        // dropped ones: carry each one's seen price along.
        let kept: Vec<_> = quantities
            .into_iter()
            .zip(seen)
            .zip(repriced.items)
            .filter_map(|((q, seen), item)| item.map(|i| (q, seen, i)))
            .collect();
        let seen_kept: Vec<Option<i64>> = kept.iter().map(|(_, s, _)| *s).collect();
        let mut lines = lines::merge(kept.into_iter().map(|(q, _, i)| (q, i)));
        if lines.len() == seen_kept.len() {
            for (line, seen) in lines.iter_mut().zip(seen_kept) {
                line.previous_unit_price_paise = seen.filter(|p| *p != line.unit_price_paise);
            }
        }
        let restaurant = repriced
            .restaurant
            .filter(|_| !lines.is_empty())
            .map(|r| (restaurant_id, r));
        Ok(Priced {
            cart_id: stored.cart_id,
            restaurant,
            lines,
            dropped,
            details: stored.details,
            version: stored.version,
            plan_id: stored.plan_id,
        })
    }

    /// Prices requested lines (checking the limits first), without saving them.
    async fn price_request(
        &self,
        restaurant_id: u64,
        items: Vec<CartItemInput>,
        delivery: &DeliveryContext,
    ) -> Result<(Option<(u64, Restaurant)>, Vec<CartLine>), Error> {
        let wanted: Vec<CartItemInput> = items.into_iter().filter(|i| i.quantity > 0).collect();
        let units = lines::units(wanted.iter().map(|i| i.quantity));
        if units > MAX_UNITS {
            return Err(Error::TooManyItems { units });
        }
        if let Some((item_id, units)) =
            lines::over_item_limit(wanted.iter().map(|i| (i.menu_item_id, i.quantity)))
        {
            return Err(Error::ExceededInventory { item_id, units });
        }
        if wanted.is_empty() {
            return Ok((None, Vec::new()));
        }
        if let Some(facts) = facts_for(delivery, restaurant_id)
            && !facts.opened
        {
            return Err(Error::RestaurantClosed(restaurant_id));
        }
        let quantities: Vec<u32> = wanted.iter().map(|i| i.quantity).collect();
        let selections = wanted.into_iter().map(selection).collect();
        let priced = self.menu.price(restaurant_id, selections).await?;
        let lines = lines::merge(quantities.into_iter().zip(priced.items));
        let restaurant = Restaurant {
            name: priced.restaurant_name,
            area_name: priced.area_name,
            image_id: priced.image_id,
        };
        Ok((Some((restaurant_id, restaurant)), lines))
    }

    /// The coupons this restaurant takes: its offers' codes, then the platform's. A menu that
    /// cannot list offers right now leaves the platform's (the cart still answers).
    async fn coupons_of(&self, restaurant_id: u64) -> Vec<Coupon> {
        let mut all: Vec<Coupon> = match self.menu.offers(restaurant_id).await {
            Ok(offers) => offers
                .iter()
                .filter_map(|o| coupons::from_offer(&o.header, &o.coupon_code, &o.description))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, restaurant_id, "offers unavailable; platform coupons only");
                Vec::new()
            }
        };
        for c in coupons::platform_coupons() {
            if !all.iter().any(|o| o.code == c.code) {
                all.push(c);
            }
        }
        all
    }

    /// Refuses `code` unless it applies to the priced cart; the stored form of the code.
    async fn check_coupon(
        &self,
        code: &str,
        restaurant: Option<&(u64, Restaurant)>,
        lines: &[CartLine],
        delivery: &DeliveryContext,
    ) -> Result<String, Error> {
        let Some((restaurant_id, _)) = restaurant else {
            return Err(Error::CouponRefused(
                "Add items to your cart to apply a coupon".into(),
            ));
        };
        let all = self.coupons_of(*restaurant_id).await;
        let Some(coupon) = coupons::find(&all, code) else {
            return Err(Error::CouponRefused("Invalid coupon code".into()));
        };
        let facts = cart_facts(lines, delivery, *restaurant_id);
        coupons::evaluate(coupon, &facts).map_err(Error::CouponRefused)?;
        Ok(coupon.code.clone())
    }

    /// Validates and normalises a details change (note length, coupon) against the priced cart.
    async fn check_details(
        &self,
        input: Option<CartDetailsInput>,
        restaurant: Option<&(u64, Restaurant)>,
        lines: &[CartLine],
        delivery: &DeliveryContext,
    ) -> Result<DetailsChange, Error> {
        let Some(input) = input else {
            return Ok(DetailsChange::default());
        };
        let order_note = input.order_note.map(|n| sanitise(&n)).transpose()?;
        let coupon_code = match input.coupon_code.as_deref().map(str::trim) {
            None => None,
            Some("") => Some(None),
            Some(code) => Some(Some(
                self.check_coupon(code, restaurant, lines, delivery).await?,
            )),
        };
        Ok(DetailsChange {
            coupon_code,
            order_note,
            cutlery_selected: input.cutlery_selected,
        })
    }

    pub(crate) async fn update(
        &self,
        owner_key: &str,
        caller: &Caller,
        request: UpdateCartRequest,
    ) -> Result<(Cart, Status), Error> {
        let delivery = request.delivery.unwrap_or_default();
        if request.items_given {
            let (restaurant, lines) = self
                .price_request(request.restaurant_id, request.items, &delivery)
                .await?;
            let change = self
                .check_details(request.details, restaurant.as_ref(), &lines, &delivery)
                .await?;
            let saved = store::change(
                &self.writer,
                owner_key,
                Some(NewLines {
                    restaurant_id: restaurant.as_ref().map(|(id, _)| *id),
                    lines: &lines,
                }),
                &change,
            )
            .await?;
            let priced = Priced {
                cart_id: saved.cart_id,
                restaurant,
                lines,
                dropped: false,
                details: saved.details,
                version: saved.version,
                plan_id: saved.plan_id,
            };
            Ok(self.present(priced, &delivery, false, caller).await)
        } else {
            let mut priced = self.load_priced(owner_key).await?;
            let change = self
                .check_details(
                    request.details,
                    priced.restaurant.as_ref(),
                    &priced.lines,
                    &delivery,
                )
                .await?;
            let saved = store::change(&self.writer, owner_key, None, &change).await?;
            priced.cart_id = saved.cart_id;
            priced.details = saved.details;
            priced.version = saved.version;
            priced.plan_id = saved.plan_id;
            Ok(self.present(priced, &delivery, false, caller).await)
        }
    }

    pub(crate) async fn calculate(
        &self,
        owner_key: &str,
        caller: &Caller,
        request: CalculateCartRequest,
    ) -> Result<(Cart, Status), Error> {
        let delivery = request.delivery.unwrap_or_default();
        let mut priced = self.load_priced(owner_key).await?;
        if request.items_given {
            let (restaurant, lines) = self
                .price_request(request.restaurant_id, request.items, &delivery)
                .await?;
            // Another restaurant's cart, or an empty one, starts without the stored details.
            if restaurant.as_ref().map(|(id, _)| *id)
                != priced.restaurant.as_ref().map(|(id, _)| *id)
            {
                priced.details = Details::default();
            }
            priced.restaurant = restaurant;
            priced.lines = lines;
            priced.dropped = false;
        }
        let change = self
            .check_details(
                request.details,
                priced.restaurant.as_ref(),
                &priced.lines,
                &delivery,
            )
            .await?;
        priced.details = store::apply(priced.details, &change);
        Ok(self.present(priced, &delivery, true, caller).await)
    }

    pub(crate) async fn apply_coupon(
        &self,
        owner_key: &str,
        caller: &Caller,
        code: &str,
        delivery: DeliveryContext,
    ) -> Result<(Cart, Status), Error> {
        let mut priced = self.load_priced(owner_key).await?;
        let code = self
            .check_coupon(code, priced.restaurant.as_ref(), &priced.lines, &delivery)
            .await?;
        let change = DetailsChange {
            coupon_code: Some(Some(code)),
            ..DetailsChange::default()
        };
        let saved = store::change(&self.writer, owner_key, None, &change).await?;
        priced.details = saved.details;
        priced.version = saved.version;
        Ok(self.present(priced, &delivery, false, caller).await)
    }

    /// Removes the coupon; with `only_reward`, only when it is a FREEBIE coupon.
    pub(crate) async fn remove_coupon(
        &self,
        owner_key: &str,
        caller: &Caller,
        only_reward: bool,
        delivery: DeliveryContext,
    ) -> Result<(Cart, Status), Error> {
        let mut priced = self.load_priced(owner_key).await?;
        let is_reward = match (&priced.details.coupon_code, &priced.restaurant) {
            (Some(code), Some((restaurant_id, _))) => {
                let all = self.coupons_of(*restaurant_id).await;
                coupons::find(&all, code)
                    .is_some_and(|c| matches!(c.kind, coupons::Kind::Freebie { .. }))
            }
            _ => false,
        };
        if priced.details.coupon_code.is_some() && (!only_reward || is_reward) {
            let change = DetailsChange {
                coupon_code: Some(None),
                ..DetailsChange::default()
            };
            let saved = store::change(&self.writer, owner_key, None, &change).await?;
            priced.details = saved.details;
            priced.version = saved.version;
        }
        Ok(self.present(priced, &delivery, false, caller).await)
    }

    /// Puts the asked plan in the caller's cart, replacing the one there; no plan takes it out.
    /// Only a signed-in customer can buy a plan, one at a time; the plan must exist (its price
    /// is the membership service's). A plan that cannot be bought now is still put in the cart,
    /// which then says so (21).
    pub(crate) async fn add_subscription(
        &self,
        owner_key: &str,
        caller: &Caller,
        request: AddSubscriptionToCartRequest,
    ) -> Result<(Cart, Status), Error> {
        if caller.user_id.is_none() {
            return Err(Error::GuestPlan);
        }
        let delivery = request.delivery.unwrap_or_default();
        let plan = match request.items.as_slice() {
            [] => None,
            [item] if item.quantity == 1 => Some(item.plan_id),
            [_] => {
                return Err(Error::PlanRefused(
                    "A Tiffin One plan can only be added once: its quantity is always 1.",
                ));
            }
            _ => {
                return Err(Error::PlanRefused(
                    "Only one Tiffin One plan can be in the cart at a time.",
                ));
            }
        };
        // Asked before it is stored: an unknown plan is refused, and the price shown is the one
        // the membership service gives now.
        let priced_plan = match plan {
            Some(plan_id) => Some(self.price_plan(caller, plan_id, &delivery).await?),
            None => None,
        };
        store::set_plan(&self.writer, owner_key, plan).await?;
        let priced = self.load_priced(owner_key).await?;
        Ok(self
            .present_with(priced, &delivery, false, caller, priced_plan)
            .await)
    }

    /// Plan `plan_id` as the membership service sells it to `caller` now.
    async fn price_plan(
        &self,
        caller: &Caller,
        plan_id: u64,
        delivery: &DeliveryContext,
    ) -> Result<PlanInCart, Error> {
        let point = delivery.point.as_ref().map(|p| (p.lat, p.lng));
        let reply = self.membership.check(caller, plan_id, point).await?;
        let Some(plan) = reply.plan else {
            return Err(Error::UnknownPlan(plan_id));
        };
        Ok(PlanInCart::Priced {
            line: reply::subscription_line(&plan),
            available: reply.available,
        })
    }

    /// The reply for a priced cart, with the coupons its restaurant takes now, its plan priced
    /// now, and the member's bill when the caller is a member.
    pub(crate) async fn present(
        &self,
        priced: Priced,
        delivery: &DeliveryContext,
        report_min: bool,
        caller: &Caller,
    ) -> (Cart, Status) {
        self.present_with(priced, delivery, report_min, caller, None)
            .await
    }

    /// [`Carts::present`] with the plan already priced (`None`: price it now).
    async fn present_with(
        &self,
        priced: Priced,
        delivery: &DeliveryContext,
        report_min: bool,
        caller: &Caller,
        plan: Option<PlanInCart>,
    ) -> (Cart, Status) {
        let coupons = async {
            match &priced.restaurant {
                Some((restaurant_id, _)) => self.coupons_of(*restaurant_id).await,
                None => Vec::new(),
            }
        };
        let plan = async {
            match (plan, priced.plan_id) {
                (Some(plan), _) => plan,
                (None, None) => PlanInCart::None,
                (None, Some(plan_id)) => match self.price_plan(caller, plan_id, delivery).await {
                    Ok(plan) => plan,
                    Err(e) => {
                        tracing::warn!(error = %e, plan_id, "plan in the cart unpriced");
                        PlanInCart::Unpriced
                    }
                },
            }
        };
        let (coupons, plan) = tokio::join!(coupons, plan);
        let draft = reply::present(
            priced,
            delivery,
            report_min,
            Extras {
                coupons: &coupons,
                surge: self.surge.at(crate::delivery::unix_now()),
                plan,
            },
        );
        // Asked only of a signed-in customer, and only when being a member changes this bill:
        // one call at most, none for a guest or a cart the membership does nothing for.
        let standing = if caller.user_id.is_none() {
            Standing::Guest
        } else if draft.member_would_save() == 0 {
            Standing::NotAsked
        } else {
            self.membership.standing(caller).await
        };
        let nudge = if standing == Standing::NonMember && draft.has_food() && !draft.has_plan() {
            self.membership.recommended().await
        } else {
            None
        };
        let (mut cart, status) = reply::settle(draft, standing, nudge.as_ref());
        // Last, on the bill the customer's standing settled: the offer is off what is paid.
        crate::payment_offers::apply(&mut cart, delivery, crate::delivery::unix_now());
        (cart, status)
    }
}

/// The note as stored: free text as the storefront keeps it ([`free_text`]: no control or bidi
/// characters, no `&`, `<` or `>`, trimmed), at most [`MAX_NOTE_CHARS`].
fn sanitise(note: &str) -> Result<String, Error> {
    let clean = free_text(note);
    if clean.chars().count() > MAX_NOTE_CHARS {
        return Err(Error::Malformed("order note too long".into()));
    }
    Ok(clean)
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
