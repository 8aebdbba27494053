import { afterEach, describe, expect, it } from 'vitest';
import { INITIAL_STATE_ELEMENT_ID, readInitialState, SessionStore } from './session';

afterEach(() => {
  document.getElementById(INITIAL_STATE_ELEMENT_ID)?.remove();
});

function injectInitialState(text: string) {
  const script = document.createElement('script');
  script.id = INITIAL_STATE_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = text;
  document.head.append(script);
}

describe('initial state', () => {
  it('comes from the JSON script the edge writes into the page', () => {
    injectInitialState('{"sid":"s","tid":"t","deviceId":"d","csrfToken":"c","other":1}');
    expect(readInitialState()).toEqual({ sid: 's', tid: 't', deviceId: 'd', csrfToken: 'c' });
  });

  it('is empty when the block is missing or malformed', () => {
    expect(readInitialState()).toEqual({});
    injectInitialState('{not json');
    expect(readInitialState()).toEqual({});
  });

  it('is read lazily by the store and then refreshed field by field', () => {
    injectInitialState('{"sid":"s","csrfToken":"c"}');
    const store = new SessionStore();
    store.update({ csrfToken: 'c2', tid: '', deviceId: 42 });
    expect(store.get()).toEqual({ sid: 's', csrfToken: 'c2' });
  });
});
