/**
 * @tiffin/design-system — Tiffin's tokens, formatting and small React components. Shared as a
 * Module Federation singleton so its styles are injected once. Class prefix: `ds-`.
 * It must stay free of any one team's domain logic.
 */
import './styles/tokens.css';
import './styles/components.css';

export * from './tokens';
export * from './format';
export * from './Button';
export * from './VegMark';
export * from './Skeleton';
export * from './Image';
export * from './Toast';
export * from './Link';
export * from './ErrorState';
export * from './MfeRoot';
export * from './PageDrawn';
export * from './useAsync';
export * from './AsyncContent';
export * from './Timeline';
