/**
 * The company and legal pages the shell publishes under the `info-page` route, and each one's
 * title. Kept apart from the pages' text so the document title (set on every navigation, in the
 * main bundle) does not pull the text of twelve pages into every visitor's first download.
 */

export const INFO_PAGE_TITLES = {
  about: 'About Us',
  team: 'Our Team',
  careers: 'Careers',
  'bug-bounty': 'Bug Bounty',
  'terms-and-conditions': 'Terms and Conditions',
  'refund-policy': 'Refund and Cancellation Policy',
  'privacy-policy': 'Privacy Policy',
  'cookie-policy': 'Cookie Policy',
  'offer-terms': 'Offer Terms',
  'beware-of-phishing-and-fraud': 'Beware of Phishing and Fraud',
  'tnc-corporate-sm': 'Corporate Tiffin Money Terms',
  'tnc-corporate-discount': 'Corporate Discount Terms',
} as const;

export type InfoPageId = keyof typeof INFO_PAGE_TITLES;

export const INFO_PAGE_IDS = Object.keys(INFO_PAGE_TITLES) as InfoPageId[];

export function isInfoPageId(page: string | undefined): page is InfoPageId {
  return page !== undefined && Object.prototype.hasOwnProperty.call(INFO_PAGE_TITLES, page);
}
