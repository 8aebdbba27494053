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

export function Image({ src, alt, width, height, fallbackSrc, eager = false, priority = false, className }: ImageProps) {
  const immediate = eager || priority;
  const ref = useRef<HTMLImageElement>(null);
  const [state, setState] = useState<ImageState>('idle');
  const [currentSrc, setCurrentSrc] = useState<string | undefined>(undefined);

  useEffect(() => {
    setState('idle');
    setCurrentSrc(undefined);
    const start = () => {
      setState('loading');
      setCurrentSrc(src);
    };
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
      setCurrentSrc(fallbackSrc);
      return;
    }
    setState('failed');
  };

  if (state === 'failed') return null;
  const classes = ['ds-image', state === 'loaded' ? 'ds-image--loaded' : 'ds-image--loading', className ?? ''].filter(Boolean).join(' ');
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
      onLoad={() => setState('loaded')}
      onError={onError}
    />
  );
}
