import type { CSSProperties } from 'react';

/** A shimmering placeholder shown while content loads; hidden from assistive technology. */
export function Skeleton({
  width = '100%',
  height = 16,
  shape = 'rect',
  className,
}: {
  width?: number | string;
  height?: number | string;
  shape?: 'rect' | 'circle';
  className?: string;
}) {
  const style: CSSProperties = { width, height };
  const classes = ['ds-skeleton', shape === 'circle' ? 'ds-skeleton--circle' : '', className ?? ''].filter(Boolean).join(' ');
  return <span className={classes} style={style} aria-hidden="true" data-testid="ds-skeleton" />;
}
