import type { MfeId } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import { preloadRouteRemote } from './preload';

function preloadedFor(pathname: string): string[] {
  const asked: string[] = [];
  preloadRouteRemote({ preload: (mfe: MfeId, expose: string) => void asked.push(`${mfe}/${expose}`) }, pathname);
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

  it('loads nothing for the shell\'s own pages and unknown paths', () => {
    expect(preloadedFor('/about')).toEqual([]);
    expect(preloadedFor('/no/such/page/here')).toEqual([]);
  });
});
