//! The replies' shapes: stored rows as the proto messages callers see. What the customer must do
//! next (`next_action`) is decided here, beside the status: the owner of the rule sends it.

use tiffin_proto::payments::v1 as pb;

use crate::charges::{CODE_CARD, CODE_COD, CODE_MONEY, CODE_UPI, PaymentView};
use crate::config::UPI_POLL_INTERVAL_MS;
use crate::credits::Credited;
use crate::money::{MoneyPage, MoneyRow};
use crate::netbanking;
use crate::refunds::RefundRow;
use crate::sandbox_netbanking::{SANDBOX, SANDBOX_BANK_PAGE};
use crate::saved_cards::CardRow;
use crate::saved_vpas::VpaRow;
use crate::status::Status;
use crate::wallet_provider::WalletKind;
use crate::wallets::Provider;
use crate::wallets::WalletView;

/// The proto status of a stored one.
pub fn status(s: Status) -> pb::PaymentStatus {
    match s {
        Status::New => pb::PaymentStatus::New,
        Status::PendingVbv => pb::PaymentStatus::PendingVbv,
        Status::Authorizing => pb::PaymentStatus::Authorizing,
        Status::Charged => pb::PaymentStatus::Charged,
        Status::AuthenticationFailed => pb::PaymentStatus::AuthenticationFailed,
        Status::AuthorizationFailed => pb::PaymentStatus::AuthorizationFailed,
        Status::Declined => pb::PaymentStatus::Declined,
        Status::UserAborted => pb::PaymentStatus::UserAborted,
        Status::PartiallyRefunded => pb::PaymentStatus::PartiallyRefunded,
        Status::Refunded => pb::PaymentStatus::Refunded,
    }
}

fn u32_of(v: Option<i64>) -> u32 {
    v.and_then(|v| u32::try_from(v).ok()).unwrap_or(0)
}

/// A payment with its history.
pub fn payment(view: PaymentView) -> pb::Payment {
    let PaymentView {
        row,
        events,
        expires_at_ms,
        redirect_url: gateway_page,
    } = view;
    let method = match row.payment_code.as_str() {
        CODE_CARD => pb::PaymentMethodType::Card,
        CODE_UPI => pb::PaymentMethodType::UpiCollect,
        CODE_COD => pb::PaymentMethodType::CashOnDelivery,
        CODE_MONEY => pb::PaymentMethodType::TiffinMoney,
        code if netbanking::is_netbanking(code) => pb::PaymentMethodType::Netbanking,
        code => match Provider::of_payment_code(code).map(|p| p.kind) {
            Some(WalletKind::Wallet) => pb::PaymentMethodType::Wallet,
            Some(WalletKind::PayLater) => pb::PaymentMethodType::PayLater,
            None => pb::PaymentMethodType::Unspecified,
        },
    };
    let wallet_code = if method == pb::PaymentMethodType::Wallet {
        row.payment_code.clone()
    } else {
        String::new()
    };
    let next_action = match (row.status, method) {
        // A card whose bank authenticates on its own page rather than by an OTP typed here.
        (Status::PendingVbv, pb::PaymentMethodType::Card) if gateway_page.is_some() => {
            pb::NextAction::RedirectToBank
        }
        (Status::PendingVbv, pb::PaymentMethodType::Card) => pb::NextAction::EnterOtp,
        (Status::PendingVbv, pb::PaymentMethodType::UpiCollect) => pb::NextAction::ApproveInUpiApp,
        (Status::PendingVbv, pb::PaymentMethodType::Netbanking) => pb::NextAction::RedirectToBank,
        _ => pb::NextAction::None,
    };
    let card = match (&row.card_network, &row.card_last4) {
        (Some(network), Some(last4)) => Some(pb::SavedCard {
            card_id: row.instrument_id.clone().unwrap_or_default(),
            network: network.clone(),
            last4: last4.clone(),
            expiry_month: u32_of(row.card_expiry_month),
            expiry_year: u32_of(row.card_expiry_year),
        }),
        _ => None,
    };
    // The sandbox's bank page is ours to name; a real gateway names its bank's.
    let redirect_url = match gateway_page {
        Some(page) if next_action == pb::NextAction::RedirectToBank => page,
        _ if next_action == pb::NextAction::RedirectToBank
            && row.gateway.as_deref() == Some(SANDBOX) =>
        {
            format!("{SANDBOX_BANK_PAGE}{}", row.payment_id)
        }
        _ => String::new(),
    };
    pb::Payment {
        payment_id: row.payment_id,
        status: status(row.status).into(),
        method: method.into(),
        amount_paise: row.amount_paise,
        refunded_paise: row.refunded_paise,
        order_id: u64::try_from(row.order_id).unwrap_or(0),
        card,
        vpa: row.vpa_address.unwrap_or_default(),
        failure_reason: if row.status.is_failed() {
            row.failure_reason.unwrap_or_default()
        } else {
            String::new()
        },
        next_action: next_action.into(),
        expires_at_unix_ms: expires_at_ms,
        poll_interval_ms: if next_action == pb::NextAction::ApproveInUpiApp {
            UPI_POLL_INTERVAL_MS
        } else {
            0
        },
        created_at_unix_ms: row.created_at_ms,
        updated_at_unix_ms: row.updated_at_ms,
        wallet_code,
        redirect_url,
        bank_code: row.bank_code.unwrap_or_default(),
        tiffin_money_paise: row.tiffin_money_paise,
        events: events
            .into_iter()
            .map(|e| pb::PaymentEvent {
                status: status(e.status).into(),
                refunded_paise: e.refunded_paise,
                at_unix_ms: e.at_ms,
            })
            .collect(),
    }
}

/// A refund.
pub fn refund(r: RefundRow) -> pb::Refund {
    pb::Refund {
        refund_id: r.refund_id,
        payment_id: r.payment_id,
        amount_paise: r.amount_paise,
        destination: match r.destination.as_str() {
            "SOURCE" => pb::RefundDestination::Source,
            "TIFFIN_MONEY" => pb::RefundDestination::TiffinMoney,
            _ => pb::RefundDestination::Unspecified,
        }
        .into(),
        status: match r.status.as_str() {
            "PENDING" => pb::RefundStatus::Pending,
            "REFUNDED" => pb::RefundStatus::Refunded,
            _ => pb::RefundStatus::Unspecified,
        }
        .into(),
        created_at_unix_ms: r.created_at_ms,
    }
}

/// A saved card.
pub fn card(c: CardRow) -> pb::SavedCard {
    pb::SavedCard {
        card_id: c.card_id,
        network: c.network,
        last4: c.last4,
        expiry_month: u32_of(Some(c.expiry_month)),
        expiry_year: u32_of(Some(c.expiry_year)),
    }
}

/// A balance and its page.
pub fn money(page: MoneyPage) -> pb::GetMoneyResponse {
    pb::GetMoneyResponse {
        balance_paise: page.balance_paise,
        transactions: page
            .transactions
            .into_iter()
            .map(money_transaction)
            .collect(),
        has_more: page.has_more,
    }
}

/// A Tiffin Money credit and the balance after it.
pub fn credit(credited: Credited) -> pb::CreditMoneyResponse {
    pb::CreditMoneyResponse {
        transaction: Some(money_transaction(credited.transaction)),
        balance_paise: credited.balance_paise,
    }
}

fn money_transaction(t: MoneyRow) -> pb::MoneyTransaction {
    pb::MoneyTransaction {
        transaction_id: t.transaction_id,
        amount_paise: t.amount_paise,
        direction: match t.direction.as_str() {
            "CREDIT" => pb::MoneyDirection::Credit,
            "DEBIT" => pb::MoneyDirection::Debit,
            _ => pb::MoneyDirection::Unspecified,
        }
        .into(),
        description: t.description,
        balance_after_paise: t.balance_after_paise,
        created_at_unix_ms: t.created_at_ms,
    }
}

pub fn wallet(w: WalletView) -> pb::Wallet {
    pb::Wallet {
        wallet_code: w.provider.code.into(),
        name: w.provider.name.into(),
        linked: w.linked,
        balance_paise: w.balance_paise,
        linked_at_unix_ms: w.linked_at_ms,
    }
}

pub fn pay_later(w: WalletView) -> pb::PayLater {
    pb::PayLater {
        wallet_code: w.provider.code.into(),
        name: w.provider.name.into(),
        linked: w.linked,
        available_limit_paise: w.balance_paise,
        linked_at_unix_ms: w.linked_at_ms,
    }
}

pub fn vpa(v: VpaRow) -> pb::SavedVpa {
    pb::SavedVpa {
        vpa_id: v.vpa_id,
        vpa_address: v.vpa_address,
        created_at_unix_ms: v.created_at_secs * 1000,
    }
}
