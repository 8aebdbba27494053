import { describe, expect, it } from 'vitest';
import { CLOSED_LIST, firstOrActive, reduceSuggestionKey } from './suggestion-keys';

const open = (active: number) => ({ open: true, active });

describe('suggestion list keys', () => {
  it('Down highlights the first suggestion, then the next, and wraps to the top', () => {
    let state = open(-1);
    const seen: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      state = reduceSuggestionKey(state, 'ArrowDown', 3).state;
      seen.push(state.active);
    }
    expect(seen).toEqual([0, 1, 2, 0]);
  });

  it('Up from nothing goes to the last suggestion and wraps to the bottom from the first', () => {
    expect(reduceSuggestionKey(open(-1), 'ArrowUp', 3).state.active).toBe(2);
    expect(reduceSuggestionKey(open(0), 'ArrowUp', 3).state.active).toBe(2);
    expect(reduceSuggestionKey(open(2), 'ArrowUp', 3).state.active).toBe(1);
  });

  it('Down or Up reopens a list Escape closed, without moving', () => {
    expect(reduceSuggestionKey(CLOSED_LIST, 'ArrowDown', 3).state).toEqual(open(0));
    expect(reduceSuggestionKey(CLOSED_LIST, 'ArrowUp', 3).state).toEqual(open(2));
  });

  it('Enter chooses the highlighted suggestion, else the first', () => {
    expect(reduceSuggestionKey(open(1), 'Enter', 3).command).toEqual({ type: 'choose', index: 1 });
    expect(reduceSuggestionKey(open(-1), 'Enter', 3).command).toEqual({ type: 'choose', index: 0 });
  });

  it('Enter with no suggestions asks for a search (what FIND FOOD does)', () => {
    expect(reduceSuggestionKey(open(-1), 'Enter', 0).command).toEqual({ type: 'find' });
  });

  it('Escape closes the list and forgets the highlight', () => {
    expect(reduceSuggestionKey(open(2), 'Escape', 3)).toEqual({ state: CLOSED_LIST, command: null });
  });

  it('arrows do nothing without suggestions', () => {
    expect(reduceSuggestionKey(open(-1), 'ArrowDown', 0)).toEqual({ state: open(-1), command: null });
    expect(reduceSuggestionKey(open(-1), 'ArrowUp', 0)).toEqual({ state: open(-1), command: null });
  });

  it('never points past a shorter list', () => {
    expect(firstOrActive(open(5), 2)).toBe(0);
    expect(reduceSuggestionKey({ open: false, active: 5 }, 'ArrowDown', 2).state.active).toBe(0);
  });
});
