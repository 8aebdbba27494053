import { emit } from '@tiffin/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAINT_LIMIT_MS, watchFirstPaint } from './first-paint';

function paint(): HTMLElement {
  const element = document.createElement('div');
  element.id = 'tiffin-first-paint';
  document.body.append(element);
  return element;
}

const painted = () => document.getElementById('tiffin-first-paint') !== null;

describe('the first paint', () => {
  let stop: () => void = () => {};
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  it('stays until the page says it is drawn, then goes', () => {
    paint();
    stop = watchFirstPaint();
    vi.advanceTimersByTime(FIRST_PAINT_LIMIT_MS - 1);
    expect(painted()).toBe(true);
    emit('page:drawn', {});
    expect(painted()).toBe(false);
  });

  it('goes when the visitor moves to another page before it is drawn', () => {
    paint();
    stop = watchFirstPaint();
    emit('route:navigate', { to: '/offers', replace: false }, { cancelable: true });
    expect(painted()).toBe(false);
  });

  it('goes when the visitor goes back', () => {
    paint();
    stop = watchFirstPaint();
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(painted()).toBe(false);
  });

  it('goes at the latest after its limit, when no page ever says it is drawn', () => {
    paint();
    stop = watchFirstPaint();
    vi.advanceTimersByTime(FIRST_PAINT_LIMIT_MS);
    expect(painted()).toBe(false);
  });

  it('is watched once: a later page drawn does not touch what came after it', () => {
    paint();
    stop = watchFirstPaint();
    emit('page:drawn', {});
    const later = paint();
    emit('page:drawn', {});
    expect(later.isConnected).toBe(true);
  });
});
