//! The `PaymentsService` RPCs: who is calling (from the identity metadata, never the message),
//! the flow that answers, and the reply's shape. Every RPC runs under [`guarded`]: a panic inside
//! becomes an internal error answered like any other, never a dropped connection.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use tiffin_platform::db::Writer;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::payments_service_server::PaymentsService;
use tiffin_proto::payments::v1::*;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::callbacks;
use crate::charges::Charges;
use crate::clock::now_ms;
use crate::credits;
use crate::error::Error;
use crate::money;
use crate::payment_methods;
use crate::refunds::Refunds;
use crate::reply;
use crate::saved_cards;
use crate::saved_vpas;
use crate::topups;
use crate::vpa::Vpa;
use crate::wallets::{LinkStarted, Provider, Wallets};

/// The service: the charge, refund and wallet flows over one database writer.
pub struct Payments {
    pub(crate) charges: Charges,
    pub(crate) refunds: Refunds,
    pub(crate) wallets: std::sync::Arc<Wallets>,
    pub(crate) writer: Writer,
}

/// The signed-in user, as the storage's id.
fn user(metadata: &MetadataMap) -> Result<i64, Error> {
    Caller::from_metadata(metadata)
        .user_id
        .and_then(|id| i64::try_from(id).ok())
        .ok_or(Error::NoCaller)
}

/// Runs an RPC's work, turning its error, or a panic inside it, into the caller's status.
async fn guarded<T>(work: impl Future<Output = Result<T, Error>>) -> Result<Response<T>, Status> {
    match AssertUnwindSafe(work).catch_unwind().await {
        Ok(Ok(reply)) => Ok(Response::new(reply)),
        Ok(Err(e)) => Err(e.into()),
        Err(panic) => {
            let detail = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Error::Panic(detail).into())
        }
    }
}

#[tonic::async_trait]
impl PaymentsService for Payments {
    async fn list_payment_methods(
        &self,
        _request: Request<ListPaymentMethodsRequest>,
    ) -> Result<Response<ListPaymentMethodsResponse>, Status> {
        guarded(async {
            let mut groups = payment_methods::payment_groups(self.writer.pool()).await?;
            if !self.wallets.offered() {
                groups.retain(|g| !payment_methods::needs_wallet_provider(&g.group_name));
            }
            Ok(ListPaymentMethodsResponse { groups })
        })
        .await
    }

    async fn create_payment(
        &self,
        request: Request<CreatePaymentRequest>,
    ) -> Result<Response<CreatePaymentResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let view = self.charges.create(user_id, request.into_inner()).await?;
            Ok(CreatePaymentResponse {
                payment: Some(reply::payment(view)),
            })
        })
        .await
    }

    async fn authenticate_payment(
        &self,
        request: Request<AuthenticatePaymentRequest>,
    ) -> Result<Response<AuthenticatePaymentResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let view = self
                .charges
                .authenticate(user_id, request.into_inner())
                .await?;
            Ok(AuthenticatePaymentResponse {
                payment: Some(reply::payment(view)),
            })
        })
        .await
    }

    async fn get_payment(
        &self,
        request: Request<GetPaymentRequest>,
    ) -> Result<Response<GetPaymentResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let GetPaymentRequest {
                payment_id,
                idempotency_key,
            } = request.get_ref();
            let view = if payment_id.is_empty() && !idempotency_key.is_empty() {
                self.charges.get_by_key(user_id, idempotency_key).await?
            } else {
                self.charges.get(user_id, payment_id).await?
            };
            Ok(GetPaymentResponse {
                payment: Some(reply::payment(view)),
            })
        })
        .await
    }

    async fn refund_payment(
        &self,
        request: Request<RefundPaymentRequest>,
    ) -> Result<Response<RefundPaymentResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let (refund, payment) = self
                .refunds
                .refund(&self.charges, user_id, request.into_inner())
                .await?;
            Ok(RefundPaymentResponse {
                refund: Some(reply::refund(refund)),
                payment: Some(reply::payment(payment)),
            })
        })
        .await
    }

    async fn verify_vpa(
        &self,
        request: Request<VerifyVpaRequest>,
    ) -> Result<Response<VerifyVpaResponse>, Status> {
        guarded(async {
            user(request.metadata())?;
            let (vpa, check) = self.charges.verify_vpa(&request.get_ref().vpa).await?;
            Ok(VerifyVpaResponse {
                vpa,
                valid: check.valid,
                customer_name: check.customer_name,
                reason: check.reason,
            })
        })
        .await
    }

    async fn handle_gateway_callback(
        &self,
        request: Request<HandleGatewayCallbackRequest>,
    ) -> Result<Response<HandleGatewayCallbackResponse>, Status> {
        guarded(async {
            let req = request.into_inner();
            let headers: std::collections::HashMap<String, String> = req
                .headers
                .into_iter()
                .map(|(name, value)| (name.to_ascii_lowercase(), value))
                .collect();
            let callback = crate::gateway::Callback {
                body: &req.body,
                headers: &headers,
            };
            let handled = callbacks::handle(&self.charges, &callback).await?;
            Ok(HandleGatewayCallbackResponse {
                status: reply::status(handled.payment.status).into(),
                payment_id: handled.payment.payment_id,
                duplicate: handled.duplicate,
            })
        })
        .await
    }

    async fn list_saved_cards(
        &self,
        request: Request<ListSavedCardsRequest>,
    ) -> Result<Response<ListSavedCardsResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let cards = saved_cards::list(self.writer.pool(), user_id).await?;
            Ok(ListSavedCardsResponse {
                cards: cards.into_iter().map(reply::card).collect(),
            })
        })
        .await
    }

    /// Only the network and BIN: the number is never asked for whole, and a saved card is looked
    /// up among the caller's own (another customer's answers as not found).
    async fn describe_card(
        &self,
        request: Request<DescribeCardRequest>,
    ) -> Result<Response<DescribeCardResponse>, Status> {
        guarded(async {
            match request.get_ref().card.clone() {
                Some(describe_card_request::Card::CardBin(typed)) => {
                    let digits: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
                    if !(6..=8).contains(&digits.len())
                        || !digits.bytes().all(|b| b.is_ascii_digit())
                    {
                        return Err(Error::Invalid(
                            "A card's first 6 to 8 digits are needed".into(),
                        ));
                    }
                    Ok(DescribeCardResponse {
                        card_network: crate::card::Network::of_prefix(&digits)
                            .map(|n| n.as_str().to_string())
                            .unwrap_or_default(),
                        card_bin: digits[..6].to_string(),
                    })
                }
                Some(describe_card_request::Card::CardId(card_id)) => {
                    let user_id = user(request.metadata())?;
                    let card = saved_cards::of_user(self.writer.pool(), user_id, &card_id)
                        .await?
                        .ok_or(Error::NotFound("Card"))?;
                    // Saved cards keep their network and last 4 digits, not their BIN.
                    Ok(DescribeCardResponse {
                        card_bin: String::new(),
                        card_network: card.network,
                    })
                }
                None => Err(Error::Invalid("Which card?".into())),
            }
        })
        .await
    }

    async fn delete_saved_card(
        &self,
        request: Request<DeleteSavedCardRequest>,
    ) -> Result<Response<DeleteSavedCardResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let card_id = request.get_ref().card_id.clone();
            let now_secs = now_ms() / 1000;
            let mut tx = self.writer.begin().await?;
            let deleted = saved_cards::delete(&mut tx, user_id, &card_id, now_secs).await?;
            tx.commit().await?;
            if !deleted {
                return Err(Error::NotFound("Card"));
            }
            Ok(DeleteSavedCardResponse {})
        })
        .await
    }

    async fn get_money(
        &self,
        request: Request<GetMoneyRequest>,
    ) -> Result<Response<GetMoneyResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let after =
                Some(request.get_ref().after_transaction_id.as_str()).filter(|id| !id.is_empty());
            let page = money::page(self.writer.pool(), user_id, after).await?;
            Ok(reply::money(page))
        })
        .await
    }

    async fn check_wallet_balance(
        &self,
        request: Request<CheckWalletBalanceRequest>,
    ) -> Result<Response<CheckWalletBalanceResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::wallet(&request.get_ref().wallet_code)?;
            let view = self.wallets.status(user_id, provider).await?;
            Ok(CheckWalletBalanceResponse {
                wallet: Some(reply::wallet(view)),
            })
        })
        .await
    }

    async fn link_wallet(
        &self,
        request: Request<LinkWalletRequest>,
    ) -> Result<Response<LinkWalletResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::wallet(&request.get_ref().wallet_code)?;
            self.wallets.check_offered(provider)?;
            let started = self.wallets.link(user_id, provider).await?;
            Ok(LinkWalletResponse {
                wallet_code: provider.code.into(),
                otp_sent: started == LinkStarted::OtpSent,
                linked: started == LinkStarted::AlreadyLinked,
            })
        })
        .await
    }

    async fn validate_wallet_otp(
        &self,
        request: Request<ValidateWalletOtpRequest>,
    ) -> Result<Response<ValidateWalletOtpResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let req = request.get_ref();
            let provider = Provider::wallet(&req.wallet_code)?;
            self.wallets.check_offered(provider)?;
            let view = self
                .wallets
                .validate_otp(user_id, provider, &req.otp)
                .await?;
            Ok(ValidateWalletOtpResponse {
                wallet: Some(reply::wallet(view)),
            })
        })
        .await
    }

    async fn add_wallet_money(
        &self,
        request: Request<AddWalletMoneyRequest>,
    ) -> Result<Response<AddWalletMoneyResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let req = request.into_inner();
            let provider = Provider::wallet(&req.wallet_code)?;
            self.wallets.check_offered(provider)?;
            let topped =
                topups::add_money(&self.wallets, &self.charges, user_id, provider, req).await?;
            Ok(AddWalletMoneyResponse {
                wallet: Some(reply::wallet(topped.wallet)),
                payment: topped.payment.map(reply::payment),
                added: topped.added,
            })
        })
        .await
    }

    async fn delink_wallet(
        &self,
        request: Request<DelinkWalletRequest>,
    ) -> Result<Response<DelinkWalletResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::wallet(&request.get_ref().wallet_code)?;
            self.wallets.delink(user_id, provider).await?;
            Ok(DelinkWalletResponse {
                wallet_code: provider.code.into(),
            })
        })
        .await
    }

    async fn list_linked_wallets(
        &self,
        request: Request<ListLinkedWalletsRequest>,
    ) -> Result<Response<ListLinkedWalletsResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            // Where none is offered, an account linked before is not one to show.
            let wallets = if self.wallets.offered() {
                self.wallets.linked_wallets(user_id).await?
            } else {
                Vec::new()
            };
            Ok(ListLinkedWalletsResponse {
                wallets: wallets.into_iter().map(reply::wallet).collect(),
            })
        })
        .await
    }

    async fn check_pay_later_linked(
        &self,
        request: Request<CheckPayLaterLinkedRequest>,
    ) -> Result<Response<CheckPayLaterLinkedResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let view = self
                .wallets
                .status(user_id, Provider::pay_later("")?)
                .await?;
            Ok(CheckPayLaterLinkedResponse {
                pay_later: Some(reply::pay_later(view)),
            })
        })
        .await
    }

    async fn link_pay_later(
        &self,
        request: Request<LinkPayLaterRequest>,
    ) -> Result<Response<LinkPayLaterResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::pay_later(&request.get_ref().wallet_code)?;
            self.wallets.check_offered(provider)?;
            let started = self.wallets.link(user_id, provider).await?;
            Ok(LinkPayLaterResponse {
                wallet_code: provider.code.into(),
                otp_sent: started == LinkStarted::OtpSent,
                linked: started == LinkStarted::AlreadyLinked,
            })
        })
        .await
    }

    async fn validate_pay_later_otp(
        &self,
        request: Request<ValidatePayLaterOtpRequest>,
    ) -> Result<Response<ValidatePayLaterOtpResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let req = request.get_ref();
            let provider = Provider::pay_later(&req.wallet_code)?;
            self.wallets.check_offered(provider)?;
            let view = self
                .wallets
                .validate_otp(user_id, provider, &req.otp)
                .await?;
            Ok(ValidatePayLaterOtpResponse {
                pay_later: Some(reply::pay_later(view)),
            })
        })
        .await
    }

    async fn resend_pay_later_otp(
        &self,
        request: Request<ResendPayLaterOtpRequest>,
    ) -> Result<Response<ResendPayLaterOtpResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::pay_later(&request.get_ref().wallet_code)?;
            self.wallets.check_offered(provider)?;
            self.wallets.resend_otp(user_id, provider).await?;
            Ok(ResendPayLaterOtpResponse {
                wallet_code: provider.code.into(),
                otp_sent: true,
            })
        })
        .await
    }

    async fn delink_pay_later(
        &self,
        request: Request<DelinkPayLaterRequest>,
    ) -> Result<Response<DelinkPayLaterResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let provider = Provider::pay_later(&request.get_ref().wallet_code)?;
            self.wallets.delink(user_id, provider).await?;
            Ok(DelinkPayLaterResponse {
                wallet_code: provider.code.into(),
            })
        })
        .await
    }

    async fn list_saved_vpas(
        &self,
        request: Request<ListSavedVpasRequest>,
    ) -> Result<Response<ListSavedVpasResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let vpas = saved_vpas::list(self.writer.pool(), user_id).await?;
            Ok(ListSavedVpasResponse {
                vpas: vpas.into_iter().map(reply::vpa).collect(),
            })
        })
        .await
    }

    async fn delete_saved_vpa(
        &self,
        request: Request<DeleteSavedVpaRequest>,
    ) -> Result<Response<DeleteSavedVpaResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let req = request.get_ref();
            let vpa_id = Some(req.vpa_id.trim()).filter(|id| !id.is_empty());
            // An address that is not one cannot be saved: the same answer as an unknown one.
            let address = Vpa::parse(&req.vpa_address).ok();
            let mut tx = self.writer.begin().await?;
            let deleted = saved_vpas::delete(
                &mut tx,
                user_id,
                vpa_id,
                address.as_ref().map(Vpa::as_str),
                now_ms() / 1000,
            )
            .await?;
            tx.commit().await?;
            let vpa_id = deleted.ok_or(Error::NotFound("UPI ID"))?;
            Ok(DeleteSavedVpaResponse { vpa_id })
        })
        .await
    }

    async fn list_netbanking_banks(
        &self,
        _request: Request<ListNetbankingBanksRequest>,
    ) -> Result<Response<ListNetbankingBanksResponse>, Status> {
        // Public, like the payment methods: the bank list is the same for everyone.
        guarded(async {
            let banks = self
                .charges
                .gateway
                .netbanking_banks()
                .await
                .map_err(crate::charges::gateway_error)?;
            Ok(ListNetbankingBanksResponse {
                banks: banks
                    .into_iter()
                    .map(|b| NetbankingBank {
                        bank_code: b.code,
                        name: b.name,
                    })
                    .collect(),
            })
        })
        .await
    }

    async fn credit_money(
        &self,
        request: Request<CreditMoneyRequest>,
    ) -> Result<Response<CreditMoneyResponse>, Status> {
        guarded(async {
            let user_id = user(request.metadata())?;
            let credited = credits::credit(
                &self.writer,
                &self.charges.keys,
                user_id,
                request.into_inner(),
            )
            .await?;
            Ok(reply::credit(credited))
        })
        .await
    }
}
