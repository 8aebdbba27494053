import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Image, imageUrl } from './Image';

class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe() {}
  disconnect() {}
  enter() {
    this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
});

afterEach(() => {
  cleanup();
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

describe('imageUrl', () => {
  it('points at the edge image route with the default 508 × 320 size', () => {
    expect(imageUrl('restaurant-1042')).toBe('/images/restaurant-1042?w=508&h=320');
    expect(imageUrl('item 1', { w: 80, h: 80 })).toBe('/images/item%201?w=80&h=80');
  });
});

describe('Image', () => {
  it('fetches a priority picture at once, ahead of other images', () => {
    render(<Image src="/images/a" alt="Biryani" priority />);
    const img = screen.getByRole('img', { name: 'Biryani' });
    expect(img.getAttribute('src')).toBe('/images/a');
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });

  it('shows a priority picture while it loads, and fades other pictures in once loaded', () => {
    render(<Image src="/images/a" alt="Biryani" priority />);
    render(<Image src="/images/b" alt="Dosa" eager />);
    const priority = screen.getByRole('img', { name: 'Biryani' });
    const other = screen.getByRole('img', { name: 'Dosa' });
    expect(priority.className).toContain('ds-image--at-once');
    expect(priority.className).not.toContain('ds-image--loading');
    expect(other.className).toContain('ds-image--loading');
    fireEvent.load(priority);
    fireEvent.load(other);
    expect(priority.className).toContain('ds-image--at-once');
    expect(other.className).toContain('ds-image--loaded');
  });

  it('names a priority picture in its first render, before any effect runs', () => {
    const first = renderToStaticMarkup(<Image src="/images/a" alt="Biryani" priority />);
    expect(first).toContain('src="/images/a"');
    expect(first).toMatch(/fetchpriority="high"/i);
    expect(renderToStaticMarkup(<Image src="/images/a" alt="Biryani" />)).not.toContain('src=');
  });

  it('keeps a picture that loaded before its effect ran as loaded', () => {
    const { rerender } = render(<Image src="/images/a" alt="Biryani" priority />);
    const img = screen.getByRole('img', { name: 'Biryani' });
    fireEvent.load(img);
    rerender(<Image src="/images/a" alt="Biryani" priority />);
    expect(img.dataset.state).toBe('loaded');

    rerender(<Image src="/images/b" alt="Biryani" priority />);
    expect(img.getAttribute('src')).toBe('/images/b');
    expect(img.dataset.state).toBe('loading');
  });

  it('does not load until it enters the viewport', () => {
    render(<Image src="/images/a" alt="Biryani" />);
    const img = screen.getByRole('img', { name: 'Biryani' });
    expect(img.getAttribute('src')).toBeNull();
    expect(img.dataset.state).toBe('idle');

    act(() => FakeIntersectionObserver.instances[0]!.enter());

    expect(img.getAttribute('src')).toBe('/images/a');
    expect(img.dataset.state).toBe('loading');
    fireEvent.load(img);
    expect(img.dataset.state).toBe('loaded');
  });

  it('falls back to the fallback image when loading fails', () => {
    render(<Image src="/images/broken" alt="Dish" fallbackSrc="/images/placeholder" eager />);
    const img = screen.getByRole('img', { name: 'Dish' });
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/images/placeholder');
  });

  it('hides the image when it fails without a fallback', () => {
    render(<Image src="/images/broken" alt="Dish" eager />);
    fireEvent.error(screen.getByRole('img', { name: 'Dish' }));
    expect(screen.queryByRole('img', { name: 'Dish' })).toBeNull();
  });
});
