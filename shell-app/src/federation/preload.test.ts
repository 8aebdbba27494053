import type { MfeId } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import type { RouteVerdict } from '../initial-state';
import { preloadRouteRemote } from './preload';

function preloadedFor(pathname: string, verdict?: RouteVerdict): string[] {
  const asked: string[] = [];
  preloadRouteRemote({ preload: (mfe: MfeId, expose: string) => void asked.push(`${mfe}/${expose}`) }, pathname, verdict);
  return asked;
}

describe('preloadRouteRemote', () => {
  it("starts the route owner's App", () => {
    expect(preloadedFor('/')).toEqual(['mfe-discovery/App']);
    expect(preloadedFor('/restaurants')).toEqual(['mfe-discovery/App']);
    expect(preloadedFor('/restaurants/meghana-biryani-1042')).toEqual(['mfe-discovery/App']);
    expect(preloadedFor('/cart')).toEqual(['mfe-cart/App']);
    expect(preloadedFor('/my-account/orders')).toEqual(['mfe-account/App']);
  });

  it('a city-shaped path counts as a city page before the cities are known', () => {
    expect(preloadedFor('/bangalore')).toEqual(['mfe-discovery/App']);
  });

  it('follows the edge on the path it answered: no remote for a one-word path it found no city for', () => {
    expect(preloadedFor('/nosuchpage', { path: '/nosuchpage', id: null })).toEqual([]);
    expect(preloadedFor('/bangalore', { path: '/bangalore', id: 'city' })).toEqual(['mfe-discovery/App']);
    // A verdict on another path says nothing about this one.
    expect(preloadedFor('/bangalore', { path: '/nosuchpage', id: null })).toEqual(['mfe-discovery/App']);
  });

  it('loads nothing for the shell\'s own pages and unknown paths', () => {
    expect(preloadedFor('/about')).toEqual([]);
    expect(preloadedFor('/no/such/page/here')).toEqual([]);
  });
});
