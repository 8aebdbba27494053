/**
 * Written by hand until the edge's contract (`edge-api.gen.ts`) carries them: netbanking, pay-later
 * and split pay at checkout, and the idempotent wallet top-up (the edge's payweb counterpart, on
 * another branch as this is written). Each extends the generated shape it grows, so once `make
 * contract` regenerates the file with these fields, every type here becomes a plain alias of the
 * generated one (or goes away) and nothing that uses it changes.
 */
import type { components } from './edge-api.gen';
import type { PaymentGroupWithOffers } from './offer-types';

type Schemas = components['schemas'];

/** One bank netbanking can pay from: `GET /api/payment/netbanking/banks`. */
export interface NetbankingBank {
  /** HDFC, ICICI, SBI, AXIS, KOTAK in the sandbox. */
  bank_code: string;
  name: string;
}
export interface NetbankingBanksResponse {
  banks: NetbankingBank[];
}

/** get-methods' `split_pay`: whether Tiffin Money can pay part of a bill, and how much it holds. */
export interface SplitPay {
  available: boolean;
  /** Paise. */
  tiffin_money_balance: number;
}
/** get-methods with split pay and each method's payment offers (offer-types). */
export type PaymentMethodsV2Response = Omit<Schemas['PaymentMethods'], 'payment_groups'> & { payment_groups: PaymentGroupWithOffers[]; split_pay?: SplitPay | null };

/**
 * A payment's status with what netbanking and split pay add: `redirect_url` (the bank's page, same
 * origin in the sandbox; '' for other methods) with `next_action` REDIRECT_TO_BANK, and the part
 * Tiffin Money paid of a split payment.
 */
export type PaymentStatusV2 = Schemas['PaymentStatus'];

/** What place-v2's `payment` gains: netbanking's bank, pay-later's provider, split pay. */
export interface PlaceOrderPaymentV2Fields {
  /** For netbanking: a `bank_code` of the banks route. */
  bank_code?: string;
  /** For paylater: the provider; the edge's default is lazypay. */
  paylater_code?: string;
  /** With an online method: Tiffin Money pays what it can, the method the rest. */
  split_with_tiffin_money?: boolean;
}

/**
 * `POST /api/payment/wallet/add-money`: one `idempotency_key` per top-up attempt, resent on a retry
 * and to follow its payment; `vpa` is the UPI ID that pays for it.
 */
export type AddWalletMoneyRequest = { walletCode: string; amount: number; vpa: string; idempotency_key: string };
/** A top-up as it stands: `added` once its payment is charged and the wallet credited. */
export type TopUp = Schemas['TopUp'];
