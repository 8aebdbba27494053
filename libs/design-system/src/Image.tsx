/**
 * Lazy image with four states: not started → loading → loaded | failed.
 * Loading starts when the image enters the viewport; on failure the fallback is used if given,
 * otherwise the image is hidden.
 */
import { useEffect, useRef, useState } from 'react';
import { tokens } from './tokens';

type ImageState = 'idle' | 'loading' | 'loaded' | 'failed';

/** URL of an edge-generated image (`/images/<cloudinaryImageId>?w=&h=`), default 508 × 320. */
export function imageUrl(imageId: string, size: { w?: number; h?: number } = {}): string {
  const w = size.w ?? tokens.image.width;
  const h = size.h ?? tokens.image.height;
  return `/images/${encodeURIComponent(imageId)}?w=${w}&h=${h}`;
}

interface ImageProps {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  fallbackSrc?: string;
  /** Load as soon as mounted instead of on entering the viewport (above-the-fold images). */
  eager?: boolean;
  /**
   * The page's largest picture on its first screen (its LCP element): loaded as soon as mounted
   * and fetched ahead of other images and late scripts.
   */
  priority?: boolean;
  className?: string;
}

/** What the picture shows: which `src` it is for, and how far loading that has come. */
interface View {
  for: string;
  state: ImageState;
  current?: string;
}

export function Image({ src, alt, width, height, fallbackSrc, eager = false, priority = false, className }: ImageProps) {
  const immediate = eager || priority;
  const ref = useRef<HTMLImageElement>(null);
  // A picture that loads at once carries its src from its first render, so its request starts with
  // the page's first paint rather than after an effect and a second render.
  const [view, setView] = useState<View>(() => (immediate ? { for: src, state: 'loading', current: src } : { for: src, state: 'idle' }));
  // A new src starts over (a view kept for an older one counts as not started).
  const fresh: View = view.for === src ? view : { for: src, state: 'idle' };
  const { state, current: currentSrc } = fresh;

  useEffect(() => {
    // Keeps a load already under way (or done) for this src: a cached picture may have loaded
    // before this effect runs.
    const start = () => setView((v) => (v.for === src && v.state !== 'idle' ? v : { for: src, state: 'loading', current: src }));
    const element = ref.current;
    // Without IntersectionObserver (old browsers, tests) there is no viewport signal: load now.
    if (immediate || !element || typeof IntersectionObserver === 'undefined') {
      start();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          start();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [src, immediate]);

  const onError = () => {
    if (fallbackSrc && currentSrc !== fallbackSrc) {
      setView({ for: src, state: 'loading', current: fallbackSrc });
      return;
    }
    setView({ for: src, state: 'failed', current: currentSrc });
  };

  if (state === 'failed') return null;
  // Other pictures fade in once loaded. A priority one is shown as its bytes arrive: hidden until
  // the script has seen it load, it would paint only after the main thread is free again, which
  // on a phone's first screen is when the rest of the page has rendered.
  const shown = priority ? 'ds-image--at-once' : state === 'loaded' ? 'ds-image--loaded' : 'ds-image--loading';
  const classes = ['ds-image', shown, className ?? ''].filter(Boolean).join(' ');
  return (
    <img
      ref={ref}
      className={classes}
      src={currentSrc}
      alt={alt}
      width={width}
      height={height}
      fetchPriority={priority ? 'high' : undefined}
      data-state={state}
      onLoad={() => setView((v) => (v.for === src ? { ...v, state: 'loaded' } : v))}
      onError={onError}
    />
  );
}
