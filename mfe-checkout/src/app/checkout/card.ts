/**
 * The card form's fields read into what place-v2 takes. Only the shape is checked here (so a
 * typo is caught before a round trip); whether the card is good is the payments service's call.
 */
import type { PlaceOrderCard } from '@tiffin/contract';

export interface CardFields {
  number: string;
  expiry: string;
  cvv: string;
  name: string;
  save: boolean;
}

export const EMPTY_CARD: CardFields = { number: '', expiry: '', cvv: '', name: '', save: false };

export const CARD_MESSAGES = {
  number: 'Enter a valid card number.',
  expiry: 'Enter the expiry as MM/YY.',
  cvv: 'Enter the 3 or 4 digit CVV.',
  name: 'Enter the name on the card.',
} as const;

export function isValidCvv(cvv: string): boolean {
  return /^[0-9]{3,4}$/.test(cvv.trim());
}

/** The card, or the first thing wrong with the form. */
export function readCard(fields: CardFields): { card: PlaceOrderCard } | { error: string } {
  const digits = fields.number.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(digits)) return { error: CARD_MESSAGES.number };
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2})$/.exec(fields.expiry.trim());
  if (!expiry) return { error: CARD_MESSAGES.expiry };
  if (!isValidCvv(fields.cvv)) return { error: CARD_MESSAGES.cvv };
  if (fields.name.trim() === '') return { error: CARD_MESSAGES.name };
  return {
    card: {
      number: digits,
      expiry_month: Number(expiry[1]),
      expiry_year: 2000 + Number(expiry[2]),
      cvv: fields.cvv.trim(),
      holder_name: fields.name.trim(),
      save_card: fields.save,
    },
  };
}
