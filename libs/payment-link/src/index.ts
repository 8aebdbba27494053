/**
 * @tiffin/payment-link — linking a wallet or pay-later with the provider's OTP, shared by every
 * microfrontend that links one (the account's Payments tab, checkout's payment step) so the flow,
 * its calls and its words are one.
 *
 * - `link-actions`: the edge calls that link a wallet or pay-later, and the account shape they share
 * - `OtpLink`: the LINK button, then the OTP field with CANCEL, Resend OTP and VERIFY
 *
 * It owns no page chrome and never delinks: each caller puts it in its own row.
 */
export { OtpLink } from './OtpLink';
export { fromPayLater, fromWallet, payLaterLinkActions, toWallet, walletLinkActions, type LinkableAccount, type LinkActions } from './link-actions';
