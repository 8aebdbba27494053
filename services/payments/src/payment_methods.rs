//! Ways to pay at checkout: the `payment_groups` and `payment_methods` tables, read for the
//! `ListPaymentMethods` RPC (route `GET payment/get-methods`).
//!
//! It only reads: which methods exist and which are switched on is reference data changed by
//! migrations and operators, never by a customer's call.

use sqlx::{AnyPool, Row};
use tiffin_proto::payments::v1::{PaymentGroup, PaymentMethod};

use crate::error::Error;

/// Enabled methods, grouped, groups and methods in display order. A group whose methods are all
/// switched off is left out: checkout must not show a heading with nothing under it.
pub async fn payment_groups(pool: &AnyPool) -> Result<Vec<PaymentGroup>, Error> {
    // One ordered query; rows of a group arrive together, so grouping is a single pass.
    let rows = sqlx::query(
        "SELECT g.group_name, m.payment_code, m.name
         FROM payment_groups g
         JOIN payment_methods m ON m.group_name = g.group_name
         WHERE m.enabled = 1
         ORDER BY g.position, m.position",
    )
    .fetch_all(pool)
    .await?;

    let mut groups: Vec<PaymentGroup> = Vec::new();
    for row in rows {
        let group_name: String = row.try_get("group_name")?;
        let method = PaymentMethod {
            payment_code: row.try_get("payment_code")?,
            name: row.try_get("name")?,
            enabled: true,
        };
        match groups.last_mut() {
            Some(group) if group.group_name == group_name => group.methods.push(method),
            _ => groups.push(PaymentGroup {
                group_name,
                methods: vec![method],
            }),
        }
    }
    Ok(groups)
}

/// Whether a group's methods are paid through a wallet or pay-later provider, so are offered only
/// where one is configured.
pub fn needs_wallet_provider(group_name: &str) -> bool {
    matches!(group_name, "WALLET" | "PAY_LATER")
}
