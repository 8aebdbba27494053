import { describe, expect, it } from 'vitest';
import { HEADLINES, headlineAt, HIGHLIGHTS, LANDING_BACKGROUNDS, landingBackground, mealSlot } from './landing-rules';

const at = (hh: number, mm: number) => new Date(2025, 0, 15, hh, mm, 0);

describe('mealSlot', () => {
  it('is breakfast from 08:00 to 10:59', () => {
    expect(mealSlot(at(7, 59))).toBe('lunch');
    expect(mealSlot(at(8, 0))).toBe('breakfast');
    expect(mealSlot(at(10, 59))).toBe('breakfast');
    expect(mealSlot(at(11, 0))).toBe('lunch');
  });

  it('is lunch from 11:00 to 15:00', () => {
    expect(mealSlot(at(13, 30))).toBe('lunch');
    expect(mealSlot(at(15, 0))).toBe('lunch');
  });

  it('is dinner from 19:00 to 23:00', () => {
    expect(mealSlot(at(18, 59))).toBe('lunch');
    expect(mealSlot(at(19, 0))).toBe('dinner');
    expect(mealSlot(at(23, 0))).toBe('dinner');
    expect(mealSlot(at(23, 1))).toBe('lunch');
  });

  it('falls back to lunch outside the windows', () => {
    expect(mealSlot(at(2, 0))).toBe('lunch');
    expect(mealSlot(at(16, 30))).toBe('lunch');
    expect(mealSlot(at(0, 0))).toBe('lunch');
  });
});

describe('landingBackground', () => {
  it("picks one of the meal's images with the random source", () => {
    const ids = LANDING_BACKGROUNDS.dinner.imageIds;
    expect(landingBackground(at(20, 0), () => 0).imageId).toBe(ids[0]);
    expect(landingBackground(at(20, 0), () => 0.999).imageId).toBe(ids[ids.length - 1]);
    expect(landingBackground(at(9, 0), () => 0.5)).toMatchObject({ slot: 'breakfast', imageId: 'landing-breakfast-2' });
  });

  it('stays inside the list even for a random source that returns 1', () => {
    expect(LANDING_BACKGROUNDS.lunch.imageIds).toContain(landingBackground(at(12, 0), () => 1).imageId);
  });

  it('names edge-generated images only, with a gradient underneath', () => {
    for (const [slot, { imageIds, gradient }] of Object.entries(LANDING_BACKGROUNDS)) {
      for (const id of imageIds) expect(id).toMatch(new RegExp(`^landing-${slot}-\\d+$`));
      expect(gradient).toMatch(/^linear-gradient\(/);
    }
  });
});

describe('headline rotation', () => {
  it("starts with 'Hungry?' and goes through the spec's list in order", () => {
    expect(HEADLINES).toEqual(['Hungry?', 'Unexpected guests?', 'Cooking gone wrong?', 'Movie marathon?', 'Game night?', 'Late night at office?']);
    expect([0, 1, 2, 3, 4, 5].map(headlineAt)).toEqual([...HEADLINES]);
  });

  it('wraps around after the last one', () => {
    expect(headlineAt(6)).toBe('Hungry?');
    expect(headlineAt(13)).toBe('Unexpected guests?');
  });
});

describe('highlights', () => {
  it('are the three of the spec', () => {
    expect(HIGHLIGHTS.map((h) => h.title)).toEqual(['No minimum order', 'Live order tracking', 'Lightning-fast delivery']);
  });
});
