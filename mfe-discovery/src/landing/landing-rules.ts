/**
 * Pure rules of the landing page: the rotating headline and the background chosen
 * by time of day. No React and no clock reads here: callers pass the time and the random source,
 * so every rule is tested with fixed inputs.
 */

/** The headline starts with 'Hungry?' and rotates through these. */
export const HEADLINES = [
  'Hungry?',
  'Unexpected guests?',
  'Cooking gone wrong?',
  'Movie marathon?',
  'Game night?',
  'Late night at office?',
] as const;

/** How long each headline stays (the spec gives no value; long enough to read it twice). */
export const HEADLINE_INTERVAL_MS = 3000;

/** The headline shown after `tick` rotations: tick 0 is 'Hungry?', and it wraps around. */
export function headlineAt(tick: number): string {
  const n = HEADLINES.length;
  const index = ((Math.trunc(tick) % n) + n) % n;
  return HEADLINES[index]!;
}

type MealSlot = 'breakfast' | 'lunch' | 'dinner';

/**
 * Breakfast 08:00 to 10:59, lunch 11:00 to 15:00, dinner 19:00 to 23:00 (both ends
 * inclusive, to the minute); outside these windows the lunch image.
 */
export function mealSlot(date: Date): MealSlot {
  const minutes = date.getHours() * 60 + date.getMinutes();
  if (minutes >= 8 * 60 && minutes <= 10 * 60 + 59) return 'breakfast';
  if (minutes >= 19 * 60 && minutes <= 23 * 60) return 'dinner';
  return 'lunch';
}

/**
 * The background images per meal: ids of edge-generated images (`/images/<id>`), so the landing
 * page ships no asset of its own. Each has a gradient drawn underneath in the meal's colours,
 * which is all a visitor sees if the image fails.
 */
export const LANDING_BACKGROUNDS: Record<MealSlot, { imageIds: readonly string[]; gradient: string }> = {
  breakfast: {
    imageIds: ['landing-breakfast-1', 'landing-breakfast-2', 'landing-breakfast-3'],
    gradient: 'linear-gradient(135deg, #ffe3b3 0%, #ffb36b 55%, #f07f3c 100%)',
  },
  lunch: {
    imageIds: ['landing-lunch-1', 'landing-lunch-2', 'landing-lunch-3'],
    gradient: 'linear-gradient(135deg, #fff0d6 0%, #ffc15e 50%, #ff8a3d 100%)',
  },
  dinner: {
    imageIds: ['landing-dinner-1', 'landing-dinner-2', 'landing-dinner-3'],
    gradient: 'linear-gradient(135deg, #3b2a5c 0%, #7a3b69 55%, #c2571a 100%)',
  },
};

interface LandingBackground {
  slot: MealSlot;
  imageId: string;
  gradient: string;
}

/** The meal for `date`, then one of that meal's images at random. */
export function landingBackground(date: Date, random: () => number = Math.random): LandingBackground {
  const slot = mealSlot(date);
  const { imageIds, gradient } = LANDING_BACKGROUNDS[slot];
  const index = Math.min(imageIds.length - 1, Math.max(0, Math.floor(random() * imageIds.length)));
  return { slot, imageId: imageIds[index]!, gradient };
}

/** The three promises the landing page makes under its headline. */
export const HIGHLIGHTS = [
  { title: 'No minimum order', text: 'Order in for yourself or for the group, with no restrictions on order value' },
  { title: 'Live order tracking', text: 'Know where your order is at all times, from the restaurant to your doorstep' },
  { title: 'Lightning-fast delivery', text: 'Experience superfast delivery for food delivered fresh and on time' },
] as const;
