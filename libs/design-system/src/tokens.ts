/**
 * Design tokens. The CSS custom properties in styles/tokens.css carry the same values for styling;
 * this object exists for code that needs a value (breakpoints in media queries built in JS, image
 * defaults, colours drawn on canvas).
 */
export const tokens = {
  color: {
    brand: '#c73e00',
    brandDark: '#a63300',
    text: '#282c3f',
    textMuted: '#686b78',
    border: '#d4d5d9',
    surface: '#ffffff',
    surfaceMuted: '#f1f1f6',
    veg: '#0f8a65',
    nonVeg: '#e43b4f',
    egg: '#e9a23b',
    success: '#1a7f37',
    error: '#c62f3e',
    toggleActive: '#c73e00',
    toggleInactive: '#d4d5d9',
  },
  /** Breakpoints 480 px and 961 px. */
  breakpoint: { mobile: 480, desktop: 961 },
  /** Toast at most 400 px wide. */
  toastMaxWidth: 400,
  /** Default image size 508 by 320. */
  image: { width: 508, height: 320 },
  radius: { small: 4, medium: 8, large: 16 },
  space: { xs: 4, s: 8, m: 16, l: 24, xl: 32 },
} as const;
