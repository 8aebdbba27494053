//! A CreatePayment checked before anything is stored or sent: the card's number, expiry and CVV,
//! the saved card's owner, the VPA, the amount and the cash-on-delivery limit, a wallet that is
//! linked; and the request's fingerprint for its idempotency key (never the card number or CVV).

use tiffin_proto::payments::v1::CreatePaymentRequest;
use tiffin_proto::payments::v1::create_payment_request::Method;

use crate::card::{Cvv, Expiry, Pan, YearMonth};
use crate::charges::{CODE_CARD, CODE_COD, CODE_MONEY, CODE_UPI, Charges, MAX_AMOUNT_PAISE};
use crate::clock::now_ms;
use crate::error::Error;
use crate::gateway::Instrument;
use crate::keys::fingerprint;
use crate::saved_cards;
use crate::vpa::Vpa;
use crate::wallets::Provider;

/// A checked CreatePayment: what to store and what to send.
pub(crate) struct Intent {
    pub(crate) payment_code: &'static str,
    pub(crate) fingerprint: String,
    pub(crate) card: Option<CardFacts>,
    pub(crate) save_card: bool,
    pub(crate) vpa: Option<String>,
    pub(crate) source: Source,
}

/// Where the money of a checked request comes from.
pub(crate) enum Source {
    /// Cash on delivery: nothing to take now.
    Cod,
    /// A card or UPI, through the gateway.
    Gateway(Instrument),
    /// A linked wallet, through its provider.
    Wallet(Provider),
    /// The caller's Tiffin Money balance, ours.
    Money,
}

/// What is kept of a card: never its number.
pub(crate) struct CardFacts {
    pub(crate) network: String,
    pub(crate) last4: String,
    pub(crate) expiry: Expiry,
    pub(crate) instrument_id: Option<String>,
}

impl Charges {
    /// Checks a CreatePayment before anything is stored or sent.
    pub(crate) async fn intent(
        &self,
        user_id: i64,
        req: &CreatePaymentRequest,
    ) -> Result<Intent, Error> {
        let amount = req.amount_paise;
        if amount <= 0 || amount > MAX_AMOUNT_PAISE {
            return Err(Error::Invalid("Please enter a valid amount".into()));
        }
        let common = [amount.to_string(), req.order_id.to_string()];
        let today = YearMonth::of_unix_ms(now_ms());
        match &req.method {
            Some(Method::Card(card)) => {
                let pan = Pan::parse(&card.number)?;
                let expiry = Expiry::parse(card.expiry_month, card.expiry_year, today)?;
                let cvv = Cvv::parse(&card.cvv, pan.network())?;
                let facts = CardFacts {
                    network: pan.network().as_str().into(),
                    last4: pan.last4().into(),
                    expiry,
                    instrument_id: None,
                };
                let fingerprint = fingerprint(&[
                    "card",
                    &common[0],
                    &common[1],
                    &facts.network,
                    &facts.last4,
                    &expiry.month.to_string(),
                    &expiry.year.to_string(),
                    if card.save_card { "save" } else { "once" },
                ]);
                Ok(Intent {
                    payment_code: CODE_CARD,
                    fingerprint,
                    card: Some(facts),
                    save_card: card.save_card,
                    vpa: None,
                    source: Source::Gateway(Instrument::Card {
                        pan,
                        expiry,
                        cvv,
                        holder_name: card.holder_name.trim().to_string(),
                        save: card.save_card,
                    }),
                })
            }
            Some(Method::SavedCard(saved)) => {
                let card = saved_cards::of_user(self.pool(), user_id, &saved.card_id)
                    .await?
                    .ok_or(Error::NotFound("Card"))?;
                let network = crate::card::Network::parse(&card.network)
                    .ok_or_else(|| Error::Corrupt(format!("card network {:?}", card.network)))?;
                let expiry = Expiry::parse(
                    u32::try_from(card.expiry_month).unwrap_or(0),
                    u32::try_from(card.expiry_year).unwrap_or(0),
                    today,
                )?;
                let cvv = Cvv::parse(&saved.cvv, network)?;
                let fingerprint =
                    fingerprint(&["saved_card", &common[0], &common[1], &card.card_id]);
                Ok(Intent {
                    payment_code: CODE_CARD,
                    fingerprint,
                    card: Some(CardFacts {
                        network: card.network,
                        last4: card.last4,
                        expiry,
                        instrument_id: Some(card.card_id),
                    }),
                    save_card: false,
                    vpa: None,
                    source: Source::Gateway(Instrument::Token {
                        card_reference: card.card_reference,
                        cvv,
                    }),
                })
            }
            Some(Method::UpiCollect(upi)) => {
                let vpa = Vpa::parse(&upi.vpa)?;
                let fingerprint = fingerprint(&["upi", &common[0], &common[1], vpa.as_str()]);
                Ok(Intent {
                    payment_code: CODE_UPI,
                    fingerprint,
                    card: None,
                    save_card: false,
                    vpa: Some(vpa.as_str().into()),
                    source: Source::Gateway(Instrument::Upi { vpa }),
                })
            }
            Some(Method::CashOnDelivery(_)) => {
                if amount > self.cod_limit_paise {
                    return Err(Error::CodLimit {
                        limit_paise: self.cod_limit_paise,
                    });
                }
                Ok(Intent {
                    payment_code: CODE_COD,
                    fingerprint: fingerprint(&["cod", &common[0], &common[1]]),
                    card: None,
                    save_card: false,
                    vpa: None,
                    source: Source::Cod,
                })
            }
            Some(Method::Wallet(wallet)) => {
                let provider = Provider::wallet(&wallet.wallet_code)?;
                // Refused before anything is stored: a wallet that is not linked cannot be asked.
                if self
                    .wallets
                    .linked_token(user_id, provider)
                    .await?
                    .is_none()
                {
                    return Err(Error::NotLinked(provider.name));
                }
                Ok(Intent {
                    payment_code: provider.code,
                    fingerprint: fingerprint(&["wallet", &common[0], &common[1], provider.code]),
                    card: None,
                    save_card: false,
                    vpa: None,
                    source: Source::Wallet(provider),
                })
            }
            Some(Method::TiffinMoney(_)) => Ok(Intent {
                payment_code: CODE_MONEY,
                fingerprint: fingerprint(&["tiffin_money", &common[0], &common[1]]),
                card: None,
                save_card: false,
                vpa: None,
                source: Source::Money,
            }),
            None => Err(Error::Invalid("Please choose a way to pay".into())),
        }
    }
}
