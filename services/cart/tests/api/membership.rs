//! Tiffin One in the cart: a plan as a cart line (alone or with food, one at a time, 21 when it
//! cannot be bought now), the member's benefits (free delivery from ₹199 within 7 km, a partner's
//! discount, no surge) against a non-member's bill and nudge, and a membership service that does
//! not answer. Members are made through the real membership service, as the orders service makes
//! them after a paid order.

use tiffin_cart::surge::Surge;
use tiffin_catalog::{Catalogue, MenuItem};
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{SignedChannel, signed_client};
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::cart::v1::{
    AddSubscriptionToCartRequest, AddSubscriptionToCartResponse, Cart, DeliveryContext,
    EmptyOrderedCartRequest, GetCartRequest, GetCartResponse, SubscriptionItemInput,
    UpdateCartRequest,
};
use tiffin_proto::membership::v1::ActivateRequest;
use tiffin_proto::membership::v1::membership_service_client::MembershipServiceClient;
use tonic::{Code, Request, Status};

use crate::bill::{bill_amount, near};
use crate::helpers::*;

/// The seeded plans: 1 month (₹99), 3 months (₹199, recommended), 12 months (₹599).
const MONTH: u64 = 1;
const QUARTER: u64 = 2;
const YEAR: u64 = 3;

/// Makes `user_id` a member with `plan_id`, as the orders service does once a plan is paid for.
async fn make_member(membership_url: &str, user_id: u64, plan_id: u64) {
    let mut client = signed_client(MembershipServiceClient::new, membership_url.to_string())
        .await
        .expect("connects");
    let mut request = Request::new(ActivateRequest {
        order_id: user_id * 100 + plan_id,
        user_id,
        plan_id,
        price_paid_paise: 19_900,
    });
    Caller::default().write_to(request.metadata_mut(), "orders");
    client.activate(request).await.expect("activates");
}

fn membership_url(cart: &CartService) -> &str {
    &cart.membership.as_ref().expect("its own membership").url
}

async fn add_plan(
    client: &mut CartServiceClient<SignedChannel>,
    caller: &Caller,
    items: &[(u64, u32)],
    delivery: DeliveryContext,
) -> Result<AddSubscriptionToCartResponse, Status> {
    Ok(client
        .add_subscription_to_cart(as_caller(
            caller,
            AddSubscriptionToCartRequest {
                items: items
                    .iter()
                    .map(|&(plan_id, quantity)| SubscriptionItemInput { plan_id, quantity })
                    .collect(),
                delivery: Some(delivery),
            },
        ))
        .await?
        .into_inner())
}

async fn order(
    client: &mut CartServiceClient<SignedChannel>,
    caller: &Caller,
    restaurant_id: u64,
    item: &MenuItem,
    units: u32,
    delivery: DeliveryContext,
) -> Cart {
    client
        .update_cart(as_caller(
            caller,
            UpdateCartRequest {
                restaurant_id,
                items: vec![line(item.id, units)],
                items_given: true,
                delivery: Some(delivery),
                ..Default::default()
            },
        ))
        .await
        .expect("updated")
        .into_inner()
        .cart
        .expect("a cart")
}

async fn read(
    client: &mut CartServiceClient<SignedChannel>,
    caller: &Caller,
    delivery: DeliveryContext,
) -> GetCartResponse {
    client
        .get_cart(as_caller(
            caller,
            GetCartRequest {
                delivery: Some(delivery),
            },
        ))
        .await
        .expect("cart read")
        .into_inner()
}

/// A restaurant (a partner or not, as asked) with a plain item of at most ₹150, so that whole
/// units of it reach ₹199 and stay under ₹499 (where delivery is free for everyone).
fn restaurant_with_cheap_item(catalogue: &Catalogue, partner: bool) -> (u64, &MenuItem, u32) {
    catalogue
        .restaurants
        .iter()
        .filter(|r| (r.member_discount_percent > 0) == partner)
        .find_map(|r| {
            let menu = catalogue.menus.iter().find(|m| m.restaurant_id == r.id)?;
            let item = menu
                .items
                .iter()
                .find(|i| is_plain(i) && i.price <= 15_000)?;
            Some((r.id, item, u32::from(r.member_discount_percent)))
        })
        .expect("the catalogue has such a restaurant")
}

fn to_pay(cart: &Cart) -> i64 {
    cart.bill.as_ref().expect("a bill").to_pay_paise
}

fn adds_up(cart: &Cart) -> bool {
    let bill = cart.bill.as_ref().expect("a bill");
    bill.to_pay_paise == bill.lines.iter().map(|l| l.amount_paise).sum::<i64>()
}

#[tokio::test]
async fn a_member_gets_free_delivery_from_199_within_7_km_and_a_non_member_is_nudged_on_every_engine()
 {
    let menu = start_menu().await;
    let (restaurant_id, item, _) = restaurant_with_cheap_item(&menu.catalogue, false);
    let units = 19_900u32.div_ceil(item.price);
    let item_total = i64::from(units * item.price);
    let (member, other) = (user(71), user(72));
    for db in testing::all().await {
        let engine = db.engine;
        let mut cart = start_cart(&db.url, &menu.url).await;
        make_member(membership_url(&cart), 71, QUARTER).await;
        let two_km = near(&menu.catalogue, restaurant_id, 2_000.0);

        let theirs = order(
            &mut cart.client,
            &other,
            restaurant_id,
            item,
            units,
            two_km.clone(),
        )
        .await;
        let mine = order(
            &mut cart.client,
            &member,
            restaurant_id,
            item,
            units,
            two_km,
        )
        .await;

        let fee = bill_amount(&theirs, "DELIVERY_FEE").expect("a delivery fee");
        assert!(fee > 0, "{item_total} is under ₹499, {engine:?}");
        assert_eq!(bill_amount(&theirs, "MEMBER_FREE_DELIVERY"), None);
        assert_eq!(theirs.member_savings_paise, 0);
        let nudge = theirs.subscription_nudge.as_ref().expect("a nudge");
        assert_eq!((nudge.plan_id, nudge.title.as_str()), (QUARTER, "3 months"));
        assert_eq!(nudge.savings_paise, fee);
        assert_eq!(
            nudge.message,
            format!(
                "Save {} on this order with Tiffin One",
                tiffin_platform::money::rupees(fee)
            )
        );

        assert_eq!(bill_amount(&mine, "DELIVERY_FEE"), Some(fee), "{engine:?}");
        assert_eq!(bill_amount(&mine, "MEMBER_FREE_DELIVERY"), Some(-fee));
        assert_eq!(mine.member_savings_paise, fee);
        assert_eq!(
            mine.member_savings_message,
            format!(
                "You saved {} with Tiffin One",
                tiffin_platform::money::rupees(fee)
            )
        );
        assert_eq!(mine.subscription_nudge, None);
        assert!(!mine.membership_unknown);
        assert!(adds_up(&mine) && adds_up(&theirs));
        // The fee and the 18% GST on it.
        assert_eq!(to_pay(&theirs) - to_pay(&mine), fee + (fee * 18 + 50) / 100);
    }
}

#[tokio::test]
async fn free_delivery_needs_199_and_at_most_7_km() {
    let menu = start_menu().await;
    let (restaurant_id, item, _) = restaurant_with_cheap_item(&menu.catalogue, false);
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    make_member(membership_url(&cart), 73, MONTH).await;
    let member = user(73);
    let enough = 19_900u32.div_ceil(item.price);

    let far = order(
        &mut cart.client,
        &member,
        restaurant_id,
        item,
        enough,
        near(&menu.catalogue, restaurant_id, 7_600.0),
    )
    .await;
    assert!(bill_amount(&far, "DELIVERY_FEE").unwrap() > 0);
    assert_eq!(bill_amount(&far, "MEMBER_FREE_DELIVERY"), None, "past 7 km");
    assert_eq!(far.member_savings_paise, 0);

    // The fewest units that reach ₹199, less one (an item is at most ₹150, so at least one).
    let below = enough - 1;
    let small = order(
        &mut cart.client,
        &member,
        restaurant_id,
        item,
        below,
        near(&menu.catalogue, restaurant_id, 1_000.0),
    )
    .await;
    assert!(small.item_total_paise < 19_900);
    assert!(bill_amount(&small, "DELIVERY_FEE").unwrap() > 0);
    assert_eq!(
        bill_amount(&small, "MEMBER_FREE_DELIVERY"),
        None,
        "below ₹199"
    );
    assert_eq!(small.member_savings_message, "");

    // The same member at 1 km with ₹199 of food: free.
    let enough_near = order(
        &mut cart.client,
        &member,
        restaurant_id,
        item,
        enough,
        near(&menu.catalogue, restaurant_id, 1_000.0),
    )
    .await;
    assert!(bill_amount(&enough_near, "MEMBER_FREE_DELIVERY").unwrap() < 0);
}

#[tokio::test]
async fn a_partner_restaurant_gives_members_its_extra_discount_on_every_engine() {
    let menu = start_menu().await;
    let (restaurant_id, item, percent) = restaurant_with_cheap_item(&menu.catalogue, true);
    assert!((10..=30).contains(&percent));
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        make_member(membership_url(&cart), 74, YEAR).await;
        // Beyond 7 km: the partner's discount is the only benefit.
        let far = near(&menu.catalogue, restaurant_id, 7_600.0);

        let mine = order(
            &mut cart.client,
            &user(74),
            restaurant_id,
            item,
            1,
            far.clone(),
        )
        .await;
        let theirs = order(
            &mut cart.client,
            &user(75),
            restaurant_id,
            item,
            1,
            far.clone(),
        )
        .await;
        let guests = order(
            &mut cart.client,
            &guest("s-partner"),
            restaurant_id,
            item,
            1,
            far,
        )
        .await;

        let discount = i64::from(item.price) * i64::from(percent) / 100;
        assert_eq!(
            bill_amount(&mine, "MEMBER_DISCOUNT"),
            Some(-discount),
            "{:?}",
            db.engine
        );
        let label = &mine.bill.as_ref().unwrap().lines.last().unwrap().label;
        assert_eq!(label, &format!("Tiffin One Partner Discount ({percent}%)"));
        assert_eq!(mine.member_savings_paise, discount);
        for not_member in [&theirs, &guests] {
            assert_eq!(bill_amount(not_member, "MEMBER_DISCOUNT"), None);
            assert_eq!(not_member.member_savings_paise, 0);
        }
        assert_eq!(
            theirs.subscription_nudge.as_ref().map(|n| n.savings_paise),
            Some(discount)
        );
        assert_eq!(guests.subscription_nudge, None, "guests are not nudged");
    }
}

#[tokio::test]
async fn a_surge_is_charged_from_the_settings_and_members_pay_none() {
    let menu = start_menu().await;
    let (restaurant_id, item, _) = restaurant_with_cheap_item(&menu.catalogue, false);
    let db = testing::sqlite();
    let membership = start_membership().await;
    let raining = Surge {
        fee_paise: 2_000,
        raining: true,
        peak_hours: vec![],
    };
    let mut cart = start_cart_with(&db.url, &menu.url, &membership.url, raining).await;
    make_member(&membership.url, 76, MONTH).await;
    let far = near(&menu.catalogue, restaurant_id, 7_600.0);

    let guests = order(
        &mut cart.client,
        &guest("s-rain"),
        restaurant_id,
        item,
        1,
        far.clone(),
    )
    .await;
    let mine = order(&mut cart.client, &user(76), restaurant_id, item, 1, far).await;

    assert_eq!(bill_amount(&guests, "SURGE_FEE"), Some(2_000));
    assert_eq!(bill_amount(&guests, "MEMBER_NO_SURGE"), None);
    let surge = guests
        .bill
        .as_ref()
        .unwrap()
        .lines
        .iter()
        .find(|l| l.key == "SURGE_FEE")
        .unwrap();
    assert!(
        surge.tooltip.starts_with("It's raining"),
        "{}",
        surge.tooltip
    );
    assert_eq!(bill_amount(&mine, "SURGE_FEE"), Some(2_000));
    assert_eq!(bill_amount(&mine, "MEMBER_NO_SURGE"), Some(-2_000));
    assert_eq!(mine.member_savings_paise, 2_000);
    assert!(adds_up(&mine) && adds_up(&guests));
    assert_eq!(to_pay(&guests) - to_pay(&mine), 2_000 + 360);

    // Without a surge setting, nobody pays one.
    let mut calm = start_cart(&testing::sqlite().url, &menu.url).await;
    let c = order(
        &mut calm.client,
        &guest("s-calm"),
        restaurant_id,
        item,
        1,
        near(&menu.catalogue, restaurant_id, 500.0),
    )
    .await;
    assert_eq!(bill_amount(&c, "SURGE_FEE"), None);
}

#[tokio::test]
async fn a_plan_alone_is_billed_alone_and_another_replaces_it_on_every_engine() {
    let menu = start_menu().await;
    let (restaurant_id, item, _) = restaurant_with_cheap_item(&menu.catalogue, false);
    let me = user(81);
    for db in testing::all().await {
        let engine = db.engine;
        let mut cart = start_cart(&db.url, &menu.url).await;
        let here = located();

        let reply = add_plan(&mut cart.client, &me, &[(QUARTER, 1)], here.clone())
            .await
            .expect("added");
        let c = reply.cart.unwrap();
        assert_eq!(reply.status_code, 0, "{engine:?}");
        assert_eq!(c.restaurant, None);
        assert_eq!(c.subscription_lines.len(), 1);
        let plan = &c.subscription_lines[0];
        assert_eq!(
            (
                plan.plan_id,
                plan.title.as_str(),
                plan.duration_days,
                plan.price_paise,
                plan.base_price_paise
            ),
            (QUARTER, "3 months", 90, 19_900, 44_700)
        );
        let bill = c.bill.as_ref().expect("a plan alone is billed");
        let lines: Vec<(&str, &str, i64)> = bill
            .lines
            .iter()
            .map(|l| (l.key.as_str(), l.label.as_str(), l.amount_paise))
            .collect();
        assert_eq!(lines, [("SUBSCRIPTION", "Tiffin One · 3 months", 19_900)]);
        assert_eq!(bill.to_pay_paise, 19_900);
        let first_version = c.version;

        // A second plan replaces the first, and the cart keeps it.
        let replaced = add_plan(&mut cart.client, &me, &[(MONTH, 1)], here.clone())
            .await
            .expect("replaced")
            .cart
            .unwrap();
        assert_eq!(
            replaced
                .subscription_lines
                .iter()
                .map(|p| p.plan_id)
                .collect::<Vec<_>>(),
            [MONTH],
            "{engine:?}"
        );
        assert!(replaced.version > first_version);
        let again = read(&mut cart.client, &me, here.clone())
            .await
            .cart
            .unwrap();
        assert_eq!(again.subscription_lines, replaced.subscription_lines);
        assert_eq!(to_pay(&again), 9_900);

        // With food: the food's bill plus the plan's line; the plan does not change the GST.
        let with_food = order(
            &mut cart.client,
            &me,
            restaurant_id,
            item,
            1,
            near(&menu.catalogue, restaurant_id, 500.0),
        )
        .await;
        assert_eq!(with_food.subscription_lines.len(), 1);
        assert_eq!(bill_amount(&with_food, "SUBSCRIPTION"), Some(9_900));
        assert_eq!(bill_amount(&with_food, "DELIVERY_FEE"), Some(2_500));
        assert!(adds_up(&with_food));
        assert_eq!(
            with_food.subscription_nudge, None,
            "a plan is already in the cart"
        );

        // An empty list takes the plan out; the food stays.
        let removed = add_plan(&mut cart.client, &me, &[], here)
            .await
            .expect("removed")
            .cart
            .unwrap();
        assert!(removed.subscription_lines.is_empty());
        assert_eq!(bill_amount(&removed, "SUBSCRIPTION"), None);
        assert_eq!(removed.item_count, 1);
    }
}

#[tokio::test]
async fn plans_are_refused_to_guests_unknown_ids_and_more_than_one() {
    let menu = start_menu().await;
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    let me = user(82);

    let guest = add_plan(
        &mut cart.client,
        &guest("s-plan"),
        &[(QUARTER, 1)],
        located(),
    )
    .await
    .unwrap_err();
    assert_eq!(guest.code(), Code::Unauthenticated);
    let unknown = add_plan(&mut cart.client, &me, &[(99, 1)], located())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    assert!(
        unknown.message().contains("no Tiffin One plan 99"),
        "{}",
        unknown.message()
    );
    let two = add_plan(&mut cart.client, &me, &[(QUARTER, 2)], located())
        .await
        .unwrap_err();
    assert_eq!(two.code(), Code::InvalidArgument);
    assert_eq!(
        two.message(),
        "A Tiffin One plan can only be added once: its quantity is always 1."
    );
    let both = add_plan(
        &mut cart.client,
        &me,
        &[(QUARTER, 1), (MONTH, 1)],
        located(),
    )
    .await
    .unwrap_err();
    assert_eq!(both.code(), Code::InvalidArgument);

    // Nothing was stored by any of them.
    let c = read(&mut cart.client, &me, located()).await.cart.unwrap();
    assert!(c.subscription_lines.is_empty());
    assert_eq!(c.bill, None);
}

#[tokio::test]
async fn a_plan_that_cannot_be_bought_now_is_code_21_on_every_engine() {
    let menu = start_menu().await;
    for db in testing::all().await {
        let mut cart = start_cart(&db.url, &menu.url).await;
        // A year running: a month would not extend it.
        make_member(membership_url(&cart), 83, YEAR).await;
        let reply = add_plan(&mut cart.client, &user(83), &[(MONTH, 1)], located())
            .await
            .expect("kept, and said");
        assert_eq!(
            (reply.status_code, reply.status_message.as_str()),
            (21, "SUPER invalid now"),
            "{:?}",
            db.engine
        );
        assert_eq!(reply.cart.unwrap().subscription_lines.len(), 1);

        // A plan withdrawn from sale after it was put in the cart.
        let me = user(84);
        let ok = add_plan(&mut cart.client, &me, &[(QUARTER, 1)], located())
            .await
            .unwrap();
        assert_eq!(ok.status_code, 0);
        let membership = cart.membership.as_ref().unwrap();
        let pool = tiffin_platform::db::connect(&membership.db.url, &tiffin_membership::MIGRATOR)
            .await
            .expect("membership database");
        sqlx::query("UPDATE plans SET on_sale = 0 WHERE plan_id = 2")
            .execute(&pool)
            .await
            .expect("withdrawn");
        let later = read(&mut cart.client, &me, located()).await;
        assert_eq!(
            (later.status_code, later.status_message.as_str()),
            (21, "SUPER invalid now")
        );
    }
}

#[tokio::test]
async fn an_ordered_cart_is_emptied_of_its_plan_too() {
    let menu = start_menu().await;
    let db = testing::sqlite();
    let mut cart = start_cart(&db.url, &menu.url).await;
    let me = user(85);
    let c = add_plan(&mut cart.client, &me, &[(QUARTER, 1)], located())
        .await
        .unwrap()
        .cart
        .unwrap();

    let emptied = cart
        .client
        .empty_ordered_cart(as_caller(
            &me,
            EmptyOrderedCartRequest { version: c.version },
        ))
        .await
        .expect("answers")
        .into_inner()
        .emptied;

    assert!(emptied);
    let after = read(&mut cart.client, &me, located()).await.cart.unwrap();
    assert!(after.subscription_lines.is_empty());
    assert_eq!(after.bill, None);
}

#[tokio::test]
async fn without_the_membership_service_the_cart_prices_a_non_member_and_says_so() {
    let menu = start_menu().await;
    let (restaurant_id, item, _) = restaurant_with_cheap_item(&menu.catalogue, true);
    let units = 19_900u32.div_ceil(item.price);
    let db = testing::sqlite();
    // Down: nothing listens. Slow: a listener that accepts and never answers.
    let down = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let black_hole = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow = format!("http://{}", black_hole.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = black_hole.accept().await {
            held.push(socket);
        }
    });
    for membership_url in [down, slow] {
        let mut cart = start_cart_with(&db.url, &menu.url, &membership_url, Surge::none()).await;
        let here = near(&menu.catalogue, restaurant_id, 1_000.0);
        let started = std::time::Instant::now();

        let c = order(
            &mut cart.client,
            &user(86),
            restaurant_id,
            item,
            units,
            here.clone(),
        )
        .await;

        assert!(
            started.elapsed() < std::time::Duration::from_secs(3),
            "{membership_url}"
        );
        assert!(c.membership_unknown, "{membership_url}");
        assert!(
            c.membership_message
                .contains("could not check your Tiffin One membership")
        );
        assert_eq!(bill_amount(&c, "MEMBER_DISCOUNT"), None);
        assert_eq!(c.member_savings_paise, 0);
        assert_eq!(c.subscription_nudge, None);
        assert!(adds_up(&c));
        // A guest is asked nothing, so there is nothing it could not check.
        let guests = order(
            &mut cart.client,
            &guest("s-down"),
            restaurant_id,
            item,
            units,
            here,
        )
        .await;
        assert!(!guests.membership_unknown);
    }
}
