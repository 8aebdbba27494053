//! A coupon that is an offer for paying by UPI does not survive a split in which Tiffin Money pays
//! everything: the order is refused in words before any of the balance is taken, and the same
//! split without the coupon is simply paid by Tiffin Money.

use tiffin_platform::db::testing;
use tiffin_proto::cart::v1::{AppliedCoupon, BillLine, Cart};
use tiffin_proto::orders::v1::CancelOrderRequest;
use tiffin_proto::payments::v1::{GetMoneyRequest, RefundDestination};
use tonic::Code;

use crate::helpers::*;
use crate::tracking::orders_client;

const PAID_CARD: &str = "4111 1111 1111 1111";

/// `cart` with UPI50 applied: ₹50 off when paying by UPI, as the cart service bills it.
fn with_upi_coupon(mut cart: Cart) -> Cart {
    let bill = cart.bill.as_mut().expect("a bill");
    bill.lines.push(BillLine {
        key: "COUPON_DISCOUNT".into(),
        label: "Coupon Discount".into(),
        amount_paise: -5_000,
        tooltip: String::new(),
    });
    bill.to_pay_paise -= 5_000;
    cart.coupon_code = "UPI50".into();
    cart.coupon = Some(AppliedCoupon {
        code: "UPI50".into(),
        kind: "FLAT".into(),
        discount_paise: 5_000,
        applies: true,
        payment_code: "upi_collect".into(),
        ..AppliedCoupon::default()
    });
    cart
}

async fn balance(w: &World, user: u64) -> i64 {
    w.payments
        .clone()
        .get_money(as_user(user, GetMoneyRequest::default()))
        .await
        .expect("the balance")
        .into_inner()
        .balance_paise
}

#[tokio::test]
async fn a_upi_coupon_is_refused_when_tiffin_money_would_pay_everything_on_every_engine() {
    for db in testing::all().await {
        let w = world(&db.url).await;
        // Asha's Tiffin Money: an order paid by card and cancelled at once, refunded there.
        let paid = place(
            &w.url,
            ASHA,
            place_request("k-card", biryanis(), card(PAID_CARD)),
        )
        .await
        .expect("paid")
        .order
        .expect("an order");
        orders_client(&w.url)
            .await
            .cancel_order(as_user(
                ASHA,
                CancelOrderRequest {
                    order_id: paid.order_id,
                    refund_to: RefundDestination::TiffinMoney.into(),
                },
            ))
            .await
            .expect("cancelled");
        let funded = balance(&w, ASHA).await;
        let coupon_cart = with_upi_coupon(cart(&[(1001, 1, 30_000)]));
        assert!(funded >= coupon_cart.bill.as_ref().unwrap().to_pay_paise);

        let mut split = place_request("k-split", coupon_cart, upi("success@tiffin"));
        split.split_with_tiffin_money = true;
        let refused = place(&w.url, ASHA, split).await.expect_err("refused");
        let untouched = balance(&w, ASHA).await;
        // Without the coupon, Tiffin Money simply pays it all.
        let mut plain = place_request("k-plain", cart(&[(1001, 1, 30_000)]), upi("success@tiffin"));
        plain.split_with_tiffin_money = true;
        let by_money = place(&w.url, ASHA, plain).await.expect("paid");

        assert_eq!(refused.code(), Code::FailedPrecondition, "{:?}", db.engine);
        assert_eq!(spec_code(&refused), Some(1));
        assert_eq!(
            refused.message(),
            "Your Tiffin Money covers the whole bill, so nothing is left to pay by UPI, which \
             your coupon needs. Remove the coupon, or pay without Tiffin Money"
        );
        assert_eq!(untouched, funded, "nothing taken: {:?}", db.engine);
        assert_eq!(
            by_money.order.expect("an order").order_status,
            "PLACED",
            "{:?}",
            db.engine
        );
        assert_eq!(
            status_name(&by_money.payment.expect("a payment")),
            "CHARGED"
        );
    }
}
