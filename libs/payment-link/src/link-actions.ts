/**
 * What a wallet and pay-later have in common when they are linked: the provider sends an OTP to
 * the mobile number registered with it, and the right code links the account. The edge calls for
 * each live here once, for every screen that links.
 */
import { edge } from '@tiffin/api-client';
import type { LinkStarted, PayLater, Wallet } from '@tiffin/contract';

/** A wallet or pay-later as a linking screen sees it. */
export interface LinkableAccount {
  code: string;
  name: string;
  linked: boolean;
  /** Paise: a wallet's balance, pay-later's available limit. */
  amount: number;
}

export interface LinkActions {
  /** Sends the OTP, or answers linked when the provider needs none. */
  link: () => Promise<LinkStarted>;
  resend?: () => Promise<LinkStarted>;
  validate: (otp: string) => Promise<LinkableAccount>;
  /** The account as it stands now, for a link the provider answered without an OTP. */
  refresh: () => Promise<LinkableAccount>;
}

export function fromWallet(wallet: Wallet): LinkableAccount {
  return { code: wallet.walletCode, name: wallet.name, linked: wallet.linked, amount: wallet.balance };
}

export function toWallet(account: LinkableAccount): Wallet {
  return { walletCode: account.code, name: account.name, linked: account.linked, balance: account.amount };
}

export function fromPayLater(payLater: PayLater): LinkableAccount {
  return { code: payLater.walletCode, name: payLater.name, linked: payLater.linked, amount: payLater.meta.availableLimit };
}

export function walletLinkActions(code: string): LinkActions {
  return {
    link: () => edge.linkWallet(code),
    // Wallets have no resend call: asking to link again sends a fresh OTP.
    resend: () => edge.linkWallet(code),
    validate: async (otp) => fromWallet(await edge.validateWalletOtp({ walletCode: code, otp })),
    refresh: async () => fromWallet(await edge.checkWalletBalance(code)),
  };
}

/** An empty code lets the edge pick its one pay-later provider. */
export function payLaterLinkActions(code?: string): LinkActions {
  const walletCode = code || undefined;
  return {
    link: () => edge.linkPayLater(walletCode),
    resend: () => edge.resendPayLaterOtp(walletCode),
    validate: async (otp) => fromPayLater(await edge.validatePayLaterOtp({ walletCode, otp })),
    refresh: async () => fromPayLater(await edge.payLater()),
  };
}
