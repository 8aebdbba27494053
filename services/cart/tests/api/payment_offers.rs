//! Payment offers on a real bill: the chosen way to pay (a card by its BIN or network, a wallet,
//! UPI) earns its offer as the bill's last line, taken off what is paid; one used in its period
//! is not applied again; and the offers are listed with the caller's used ones marked. On every
//! database engine.

use tiffin_platform::db::testing;
use tiffin_proto::cart::v1::{
    CalculateCartRequest, Cart, DeliveryContext, ListPaymentOffersRequest, PaymentInstrument,
    UsedPaymentOffer,
};

use crate::bill::{bill_amount, near};
use crate::helpers::*;

fn paying(mut delivery: DeliveryContext, code: &str, bin: &str, network: &str) -> DeliveryContext {
    delivery.payment_code = code.into();
    delivery.payment_instrument = Some(PaymentInstrument {
        card_bin: bin.into(),
        card_network: network.into(),
    });
    delivery
}

fn to_pay(cart: &Cart) -> i64 {
    cart.bill.as_ref().expect("a bill").to_pay_paise
}

/// India's date now, as a day's claim is keyed.
fn today() -> String {
    let at = time::OffsetDateTime::now_utc().to_offset(time::macros::offset!(+5:30));
    format!(
        "{:04}-{:02}-{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

#[tokio::test]
async fn the_way_to_pay_earns_its_offer_as_the_last_line_and_a_used_one_is_not_applied() {
    let menu = start_menu().await;
    let (restaurant_id, items) = plain_items(&menu.catalogue, 1);
    let item = items[0];
    // Enough of it for the HDFC Bank offer's ₹299 and the UPI offer's ₹599.
    let units = 60_000u32.div_ceil(item.price).min(50);
    let caller = user(81);
    for db in testing::all().await {
        let engine = db.engine;
        let mut cart = start_cart(&db.url, &menu.url).await;
        let two_km = near(&menu.catalogue, restaurant_id, 2_000.0);
        let price = |delivery: DeliveryContext| {
            let mut client = cart.client.clone();
            let caller = caller.clone();
            async move {
                client
                    .calculate_cart(as_caller(
                        &caller,
                        CalculateCartRequest {
                            restaurant_id,
                            items: vec![line(item.id, units)],
                            items_given: true,
                            details: None,
                            delivery: Some(delivery),
                        },
                    ))
                    .await
                    .expect("priced")
                    .into_inner()
                    .cart
                    .expect("a cart")
            }
        };
        let plain = price(two_km.clone()).await;
        assert_eq!(
            plain.payment_offer, None,
            "no way to pay chosen, {engine:?}"
        );
        assert_eq!(bill_amount(&plain, "PAYMENT_OFFER"), None);

        let hdfc = price(paying(two_km.clone(), "card", "438628", "VISA")).await;
        let expected = (to_pay(&plain) * 10 / 100).min(10_000);
        let line = hdfc.bill.as_ref().unwrap().lines.last().unwrap().clone();
        assert_eq!(
            (line.key.as_str(), line.label.as_str(), line.amount_paise),
            ("PAYMENT_OFFER", "Bank Offer (HDFC Bank)", -expected),
            "{engine:?}"
        );
        assert_eq!(to_pay(&hdfc), to_pay(&plain) - expected);
        let applied = hdfc.payment_offer.clone().expect("the offer");
        assert_eq!(
            (
                applied.offer_id.as_str(),
                applied.discount_paise,
                applied.period_key
            ),
            ("HDFCBANK", expected, today())
        );

        // Another Visa card earns nothing; UPI and a RuPay card earn their own.
        let visa = price(paying(two_km.clone(), "card", "411111", "VISA")).await;
        assert_eq!(to_pay(&visa), to_pay(&plain));
        let upi = price(paying(two_km.clone(), "upi_collect", "", "")).await;
        assert_eq!(upi.payment_offer.map(|o| o.offer_id), Some("UPI".into()));
        let rupay = price(paying(two_km.clone(), "card", "508500", "RUPAY")).await;
        assert_eq!(to_pay(&rupay), to_pay(&plain) - 4_000);

        // Used today: the bill is the plain one.
        let mut used = paying(two_km.clone(), "card", "438628", "VISA");
        used.used_payment_offers = vec![UsedPaymentOffer {
            offer_id: "HDFCBANK".into(),
            period_key: today(),
        }];
        let again = price(used).await;
        assert_eq!(again.payment_offer, None, "{engine:?}");
        assert_eq!(to_pay(&again), to_pay(&plain));

        let listed = cart
            .client
            .list_payment_offers(as_caller(
                &caller,
                ListPaymentOffersRequest {
                    used_payment_offers: vec![UsedPaymentOffer {
                        offer_id: "UPI".into(),
                        period_key: today(),
                    }],
                    first_order: false,
                },
            ))
            .await
            .expect("listed")
            .into_inner();
        let ids: Vec<(&str, bool)> = listed
            .offers
            .iter()
            .map(|o| (o.offer_id.as_str(), o.used))
            .collect();
        assert_eq!(
            ids,
            [
                ("HDFCBANK", false),
                ("RUPAY", false),
                ("MASTERCARD", false),
                ("MOBIKWIK", false),
                ("UPI", true)
            ]
        );
        assert!(listed.coupons.iter().any(|c| c.code == "UPI50"));
    }
}
