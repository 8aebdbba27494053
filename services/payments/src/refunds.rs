//! RefundPayment and the `refunds` table: full or partial refunds, to the source (through the
//! gateway) or to Tiffin Money (at once), never more than what is left, idempotent by key.
//!
//! A refund is reserved before the gateway is asked: one transaction stores the refund, raises
//! the payment's refunded total (a conditional step of the state machine, so two refunds racing
//! with different keys cannot both take the last rupee) and, for Tiffin Money, credits the
//! balance. A refund to source stays PENDING until the gateway confirms it; retrying with the
//! same key asks the gateway again (it deduplicates on our refund id), so an outage neither loses
//! nor doubles a refund.

use std::sync::Arc;

use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::payments::v1::{RefundDestination, RefundPaymentRequest};

use crate::charges::{CODE_COD, CODE_MONEY, Charges, PaymentView, gateway_error};
use crate::clock::now_ms;
use crate::error::Error;
use crate::gateway::Gateway;
use crate::keys::{KeyLocks, check_key, fingerprint};
use crate::money;
use crate::split;
use crate::status::Status;
use crate::store::{self, Applied, Change};
use crate::wallet_provider::ProviderError;
use crate::wallets::{Provider, Wallets};

/// How often a refund retries its reservation when concurrent refunds keep winning the payment.
const RESERVE_ATTEMPTS: usize = 8;

/// A refund as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRow {
    pub refund_id: String,
    pub payment_id: String,
    pub request_fingerprint: String,
    pub amount_paise: i64,
    /// SOURCE or TIFFIN_MONEY.
    pub destination: String,
    /// PENDING or REFUNDED.
    pub status: String,
    pub created_at_ms: i64,
    /// The part credited to Tiffin Money at once: a split payment's Tiffin Money part refunded
    /// to source goes back there. The rest goes through the gateway (or provider).
    pub tiffin_money_paise: i64,
}

/// The refund flows.
pub struct Refunds {
    writer: Writer,
    gateway: Arc<dyn Gateway>,
    keys: Arc<KeyLocks>,
    wallets: Arc<Wallets>,
}

/// The columns every read of a row selects (a macro, so queries stay literal SQL).
macro_rules! refund_columns {
    () => {
        "refund_id, payment_id, request_fingerprint, amount_paise, destination, status, created_at_ms, \
         tiffin_money_paise"
    };
}

fn read(row: &sqlx::any::AnyRow) -> Result<RefundRow, Error> {
    Ok(RefundRow {
        refund_id: row.try_get("refund_id")?,
        payment_id: row.try_get("payment_id")?,
        request_fingerprint: row.try_get("request_fingerprint")?,
        amount_paise: row.try_get("amount_paise")?,
        destination: row.try_get("destination")?,
        status: row.try_get("status")?,
        created_at_ms: row.try_get("created_at_ms")?,
        tiffin_money_paise: row.try_get("tiffin_money_paise")?,
    })
}

async fn by_key(pool: &AnyPool, user_id: i64, key: &str) -> Result<Option<RefundRow>, Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        refund_columns!(),
        " FROM refunds WHERE user_id = $1 AND idempotency_key = $2"
    ))
    .bind(user_id)
    .bind(key)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(read).transpose()
}

async fn insert(
    conn: &mut AnyConnection,
    user_id: i64,
    key: &str,
    r: &RefundRow,
) -> Result<bool, Error> {
    Ok(sqlx::query(
        "INSERT INTO refunds (refund_id, payment_id, user_id, idempotency_key, \
         request_fingerprint, amount_paise, destination, status, created_at_ms, updated_at_ms, \
         tiffin_money_paise) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10) \
         ON CONFLICT (user_id, idempotency_key) DO NOTHING",
    )
    .bind(&r.refund_id)
    .bind(&r.payment_id)
    .bind(user_id)
    .bind(key)
    .bind(&r.request_fingerprint)
    .bind(r.amount_paise)
    .bind(&r.destination)
    .bind(&r.status)
    .bind(r.created_at_ms)
    .bind(r.tiffin_money_paise)
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

impl Refunds {
    pub fn new(
        writer: Writer,
        gateway: Arc<dyn Gateway>,
        keys: Arc<KeyLocks>,
        wallets: Arc<Wallets>,
    ) -> Self {
        Self {
            writer,
            gateway,
            keys,
            wallets,
        }
    }

    /// RefundPayment: the refund (the first one, for a replayed key) and the payment now.
    pub async fn refund(
        &self,
        charges: &Charges,
        user_id: i64,
        req: RefundPaymentRequest,
    ) -> Result<(RefundRow, PaymentView), Error> {
        let key = check_key(&req.idempotency_key)?.to_string();
        let destination = match RefundDestination::try_from(req.destination) {
            Ok(RefundDestination::Source) => "SOURCE",
            Ok(RefundDestination::TiffinMoney) => "TIFFIN_MONEY",
            _ => {
                return Err(Error::Invalid(
                    "Please choose where the refund should go".into(),
                ));
            }
        };
        if req.amount_paise < 0 {
            return Err(Error::Invalid("Please enter a valid amount".into()));
        }
        let fingerprint = fingerprint(&[
            "refund",
            &req.payment_id,
            &req.amount_paise.to_string(),
            destination,
        ]);

        let _turn = self.keys.lock(format!("refund:{user_id}:{key}")).await;
        let mut refund = match by_key(self.writer.pool(), user_id, &key).await? {
            Some(existing) if existing.request_fingerprint != fingerprint => {
                return Err(Error::KeyReused);
            }
            Some(existing) => existing,
            None => {
                self.reserve(charges, user_id, &key, &req, destination, &fingerprint)
                    .await?
            }
        };
        if refund.status == "PENDING" {
            refund = self.complete(charges, user_id, refund).await?;
        }
        let payment = charges.owned(user_id, &refund.payment_id).await?;
        Ok((refund, charges.view(payment).await?))
    }

    /// Stores the refund and takes its amount off what is left to refund, in one transaction.
    async fn reserve(
        &self,
        charges: &Charges,
        user_id: i64,
        key: &str,
        req: &RefundPaymentRequest,
        destination: &str,
        fingerprint: &str,
    ) -> Result<RefundRow, Error> {
        for _ in 0..RESERVE_ATTEMPTS {
            let payment = charges.owned(user_id, &req.payment_id).await?;
            if payment.payment_code == CODE_COD {
                return Err(Error::NotRefundable);
            }
            if !payment.status.is_refundable() {
                return Err(Error::WrongState {
                    status: payment.status,
                    action: "be refunded",
                });
            }
            // Tiffin Money's source is Tiffin Money: such a refund is credited at once either way.
            let destination = if payment.payment_code == CODE_MONEY {
                "TIFFIN_MONEY"
            } else {
                destination
            };
            let refundable = payment.amount_paise - payment.refunded_paise;
            let amount = if req.amount_paise == 0 {
                refundable
            } else {
                req.amount_paise
            };
            if amount > refundable || amount <= 0 {
                return Err(Error::RefundTooLarge {
                    refundable_paise: refundable,
                });
            }
            let refunded = payment.refunded_paise + amount;
            let to = if refunded == payment.amount_paise {
                Status::Refunded
            } else {
                Status::PartiallyRefunded
            };
            // A split payment's Tiffin Money part goes back to Tiffin Money even when the refund
            // is to source; only the online part goes through the gateway.
            let to_money = if destination == "TIFFIN_MONEY" {
                amount
            } else {
                split::refund_parts(&payment, amount).1
            };
            let now = now_ms();
            let refund = RefundRow {
                refund_id: format!("rfnd_{}", uuid::Uuid::new_v4().simple()),
                payment_id: payment.payment_id.clone(),
                request_fingerprint: fingerprint.to_string(),
                amount_paise: amount,
                destination: destination.to_string(),
                // Tiffin Money is ours: credited in this transaction, done at once.
                status: if to_money == amount {
                    "REFUNDED".into()
                } else {
                    "PENDING".into()
                },
                created_at_ms: now,
                tiffin_money_paise: to_money,
            };
            let mut tx = self.writer.begin().await?;
            if !insert(&mut tx, user_id, key, &refund).await? {
                // Another replica stored this key first.
                drop(tx);
                return by_key(self.writer.pool(), user_id, key)
                    .await?
                    .ok_or_else(|| Error::Corrupt("refund vanished after its insert".into()));
            }
            let change = Change {
                refunded_paise: Some(refunded),
                ..Change::default()
            };
            if store::apply(&mut tx, &payment, to, change, "be refunded", now).await?
                == Applied::Lost
            {
                // A concurrent refund changed the payment: read it again and re-check the amount.
                continue;
            }
            if to_money > 0 {
                let description = format!("Refund for payment {}", payment.payment_id);
                money::credit(
                    &mut tx,
                    user_id,
                    to_money,
                    &description,
                    Some(&refund.refund_id),
                    now,
                )
                .await?;
            }
            tx.commit().await?;
            return Ok(refund);
        }
        Err(Error::GatewayUnavailable(
            "refund kept losing its payment to concurrent refunds".into(),
        ))
    }

    /// Asks the gateway to send a reserved refund back to the source, and marks it REFUNDED.
    async fn complete(
        &self,
        charges: &Charges,
        user_id: i64,
        refund: RefundRow,
    ) -> Result<RefundRow, Error> {
        let payment = charges.owned(user_id, &refund.payment_id).await?;
        // Tiffin Money's part was credited when the refund was reserved.
        let online = refund.amount_paise - refund.tiffin_money_paise;
        let reference = payment
            .gateway_reference
            .ok_or_else(|| Error::Corrupt(format!("{} has no reference", payment.payment_id)))?;
        let gateway_refund = match Provider::of_payment_code(&payment.payment_code) {
            // A wallet or pay-later payment goes back to it, through its provider.
            Some(provider) => {
                self.wallets
                    .provider()
                    .refund(
                        provider.account(user_id),
                        &reference,
                        &refund.refund_id,
                        online,
                    )
                    .await
                    .map_err(|e| match e {
                        ProviderError::Unavailable(_) => Error::ProviderUnavailable(provider.name),
                        ProviderError::UnknownAccount => {
                            Error::Gateway(format!("{} does not know {reference}", provider.code))
                        }
                    })?;
                reference.clone()
            }
            None => self
                .gateway
                .refund(&reference, &refund.refund_id, online)
                .await
                .map_err(gateway_error)?,
        };
        self.writer
            .write(async |c| {
                sqlx::query(
                    "UPDATE refunds SET status = 'REFUNDED', gateway_reference = $1, \
                     updated_at_ms = $2 WHERE refund_id = $3",
                )
                .bind(&gateway_refund)
                .bind(now_ms())
                .bind(&refund.refund_id)
                .execute(c)
                .await
            })
            .await?;
        Ok(RefundRow {
            status: "REFUNDED".into(),
            ..refund
        })
    }
}
