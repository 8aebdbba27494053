/**
 * The stories of Tiffin Moments and each one's title, in the order the index lists them. Kept
 * apart from the stories' text so the document title (main bundle) does not carry them; the
 * `moments` route's pattern lists the same slugs (a test holds the two together), so the edge
 * answers 404 for a story that does not exist.
 */

export const MOMENT_TITLES = {
  'hyderabad-biryani-after-midnight': 'Biryani after midnight',
  'kolkata-kathi-roll-at-the-station': 'A kathi roll for the last train',
  'chennai-dosa-on-a-sunday': 'The Sunday dosa',
  'mumbai-vada-pav-in-the-rain': 'Vada pav weather',
  'delhi-chole-bhature-for-the-first-frost': 'Chole bhature for the first cold morning',
} as const;

export type MomentSlug = keyof typeof MOMENT_TITLES;

export const MOMENT_SLUGS = Object.keys(MOMENT_TITLES) as MomentSlug[];

export function isMomentSlug(slug: string | undefined): slug is MomentSlug {
  return slug !== undefined && Object.prototype.hasOwnProperty.call(MOMENT_TITLES, slug);
}
