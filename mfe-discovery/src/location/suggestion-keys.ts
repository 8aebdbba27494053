/**
 * Keyboard rules of the location suggestion list (Escape, Up, Down, Enter), as a
 * pure reducer so the combobox component only wires events to it.
 *
 * - Down / Up move the highlight and wrap around; from nothing highlighted, Down goes to the
 *   first suggestion and Up to the last. Either reopens a list that Escape closed.
 * - Enter chooses the highlighted suggestion, else the first one (what FIND FOOD does); with no
 *   suggestions it asks for a search.
 * - Escape closes the list and clears the highlight.
 */

export interface SuggestionListState {
  open: boolean;
  /** Index of the highlighted suggestion, -1 for none. */
  active: number;
}

type SuggestionKey = 'ArrowDown' | 'ArrowUp' | 'Enter' | 'Escape';

type SuggestionCommand = { type: 'choose'; index: number } | { type: 'find' } | null;

export const CLOSED_LIST: SuggestionListState = { open: false, active: -1 };

export function isSuggestionKey(key: string): key is SuggestionKey {
  return key === 'ArrowDown' || key === 'ArrowUp' || key === 'Enter' || key === 'Escape';
}

export function reduceSuggestionKey(
  state: SuggestionListState,
  key: SuggestionKey,
  count: number,
): { state: SuggestionListState; command: SuggestionCommand } {
  switch (key) {
    case 'ArrowDown':
      if (count === 0) return { state, command: null };
      if (!state.open) return { state: { open: true, active: state.active >= 0 && state.active < count ? state.active : 0 }, command: null };
      return { state: { open: true, active: state.active + 1 >= count ? 0 : state.active + 1 }, command: null };
    case 'ArrowUp':
      if (count === 0) return { state, command: null };
      if (!state.open) return { state: { open: true, active: state.active >= 0 && state.active < count ? state.active : count - 1 }, command: null };
      return { state: { open: true, active: state.active <= 0 ? count - 1 : state.active - 1 }, command: null };
    case 'Enter':
      if (count === 0) return { state, command: { type: 'find' } };
      return { state, command: { type: 'choose', index: firstOrActive(state, count) } };
    case 'Escape':
      return { state: CLOSED_LIST, command: null };
  }
}

/** The suggestion FIND FOOD and Enter pick: the highlighted one, else the first. */
export function firstOrActive(state: SuggestionListState, count: number): number {
  return state.active >= 0 && state.active < count ? state.active : 0;
}
