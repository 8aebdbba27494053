/**
 * The landing page, shown on home while no delivery location is stored: the
 * rotating headline, login and sign-up, the location search and the three highlights, over a
 * background chosen by time of day. The shell's header shows nothing on this page type, so the
 * brand and the auth buttons live here.
 */
import { displayName, emit, getCurrentUser, subscribeCurrentUser } from '@tiffin/contract';
import { Button, imageUrl, Link } from '@tiffin/design-system';
import { useEffect, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { headlineAt, HEADLINE_INTERVAL_MS, HIGHLIGHTS, landingBackground } from './landing-rules';
import { PlaceSearch } from '../location/PlaceSearch';
import './landing.css';

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function useRotatingHeadline(): string {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (prefersReducedMotion()) return;
    const timer = setInterval(() => setTick((n) => n + 1), HEADLINE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return headlineAt(tick);
}

export function Landing() {
  const headline = useRotatingHeadline();
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  // Chosen once per visit: the picture must not change while the visitor types.
  const [background] = useState(() => landingBackground(new Date()));
  const style: CSSProperties = {
    backgroundImage: `url("${imageUrl(background.imageId, { w: 1200, h: 800 })}"), ${background.gradient}`,
  };

  return (
    <section className="disc-landing" aria-labelledby="disc-landing-headline">
      <div className="disc-landing__content">
        <div className="disc-landing__top">
          <span className="disc-landing__brand">
            <span className="disc-landing__mark" aria-hidden="true">
              T
            </span>
            Tiffin
          </span>
          <div className="disc-landing__auth">
            {user ? (
              // Signed in: the account instead of the login and sign-up buttons.
              <Link href="/my-account" className="disc-landing__login" data-testid="landing-account">
                {displayName(user)}
              </Link>
            ) : (
              <>
                <Button variant="link" className="disc-landing__login" data-testid="landing-login" onClick={() => emit('auth:open', { mode: 'login' })}>
                  Login
                </Button>
                <Button data-testid="landing-signup" onClick={() => emit('auth:open', { mode: 'signup' })}>
                  Sign up
                </Button>
              </>
            )}
          </div>
        </div>
        <h1 id="disc-landing-headline" className="disc-landing__headline" data-testid="landing-headline">
          {headline}
        </h1>
        <p className="disc-landing__subtitle">Order food from favourite restaurants near you.</p>
        <PlaceSearch variant="landing" />
      </div>
      <div className="disc-landing__picture" style={style} data-meal={background.slot} data-image-id={background.imageId} aria-hidden="true" />
      <ul className="disc-landing__highlights" aria-label="Why Tiffin">
        {HIGHLIGHTS.map((highlight) => (
          <li key={highlight.title} className="disc-landing__highlight">
            <h2 className="disc-landing__highlight-title">{highlight.title}</h2>
            <p className="disc-landing__highlight-text">{highlight.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
