/**
 * The page header. What it shows comes from `headerConfig` (a data table); this file only renders.
 * The cart flyout belongs to the cart team (`mfe_cart/HeaderCart`) and is mounted here, inside a
 * RemoteBoundary, only once the visitor points at the cart. The location bar opens the location
 * sidebar (`location:open`, mounted by the shell's app) and carries the location hints.
 *
 * Narrower than 961 px the secondary links (corporate, search, offers, help) fold behind a menu
 * button (`MoreNav`) so they never run over the location bar; narrower than 481 px the user entry
 * and the cart shrink too (header.css says how).
 */
import { displayName, emit, isSuperMember, type PageType, type User, type UserLocation } from '@tiffin/contract';
import { Link } from '@tiffin/design-system';
import { useId, useState, type FocusEvent, type ReactNode } from 'react';
import { RemoteBoundary } from '../federation/RemoteBoundary';
import { LocationHints } from '../hints/LocationHints';
import { cartBadgeClass, headerConfig, locationTitle } from './config';
import { logout, userMenuEntries } from './user';
import './header.css';
import './user-menu.css';

function CartNav({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close();
  };
  return (
    <div className="shell-cart" onMouseEnter={() => setOpen(true)} onMouseLeave={close} onFocus={() => setOpen(true)} onBlur={onBlur}>
      <Link href="/cart" className="shell-nav__link" aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}>
        <span className={cartBadgeClass(count)} data-testid="cart-badge">
          {count}
        </span>
        <span>Cart</span>
      </Link>
      {open ? (
        <div className="shell-cart-flyout">
          <RemoteBoundary mfe="mfe-cart" expose="HeaderCart" props={{ onClose: close }} compact />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The secondary links. Wide screens show them in the row (the toggle is hidden and the wrappers
 * are `display: contents`); narrow ones show a menu button that opens them in a panel under the
 * header. The panel closes on Escape, on leaving it and on following one of its links.
 */
function MoreNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const close = () => setOpen(false);
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close();
  };
  return (
    <div className={open ? 'shell-more shell-more--open' : 'shell-more'} onBlur={onBlur} onKeyDown={(event) => event.key === 'Escape' && close()}>
      <button
        type="button"
        className="shell-nav__button shell-more__toggle"
        aria-label="More links"
        aria-expanded={open}
        aria-controls={panel}
        data-testid="header-more"
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        <span className="shell-more__icon" aria-hidden="true" />
      </button>
      <div id={panel} className="shell-more__links" onClick={(event) => (event.target as Element).closest('a') && close()}>
        {children}
      </div>
    </div>
  );
}

/**
 * Logged out: a Login entry that opens the auth sidebar. Logged in: the customer's name opening
 * the user menu on hover, focus or click.
 */
function UserNav({ user, hasLocation }: { user: User | null; hasLocation: boolean }) {
  const [open, setOpen] = useState(false);
  if (!user) {
    return (
      <button type="button" className="shell-nav__link shell-nav__button" onClick={() => emit('auth:open', { mode: 'login' })}>
        Login
      </button>
    );
  }
  const close = () => setOpen(false);
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) close();
  };
  return (
    <div className="shell-user" onMouseEnter={() => setOpen(true)} onMouseLeave={close} onBlur={onBlur}>
      <button
        type="button"
        className="shell-nav__link shell-nav__button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="user-menu-button"
        // Opens, never toggles: a mouse has already opened it on hover, and the click that follows
        // must not close it again. It closes on leaving, on blur and on Escape.
        onClick={() => setOpen(true)}
        onKeyDown={(event) => event.key === 'Escape' && close()}
      >
        {displayName(user)}
      </button>
      {open ? (
        <ul className="shell-user-menu" role="menu" aria-label="Account">
          {userMenuEntries(hasLocation, isSuperMember(user)).map((entry) => (
            <li key={entry.label} role="none">
              <Link href={entry.href} role="menuitem" className="shell-user-menu__item" onClick={close} data-member={entry.member ? 'true' : undefined}>
                {entry.label}
                {entry.member ? <span className="shell-user-menu__badge"> · Member</span> : null}
              </Link>
            </li>
          ))}
          <li role="none">
            <button type="button" role="menuitem" className="shell-user-menu__item" onClick={() => void logout()}>
              Logout
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

interface HeaderProps {
  pageType: PageType;
  location: UserLocation | null;
  cartCount: number;
  /** The signed-in customer, or null. */
  user?: User | null;
}

export function Header({ pageType, location, cartCount, user = null }: HeaderProps) {
  const config = headerConfig(pageType, { hasLocation: location !== null });
  if (config.nothing) return null;
  const place = locationTitle(location);
  const logo = (
    <>
      <span className="shell-logo__mark" aria-hidden="true">
        T
      </span>
      {config.fullLogo ? <span className="shell-logo__word">Tiffin</span> : null}
    </>
  );

  return (
    <header className={config.staticMode ? 'shell-header shell-header--static' : 'shell-header'} data-page-type={pageType}>
      <div className="shell-header__inner">
        {config.logoIsLink ? (
          <Link href="/" className="shell-logo" aria-label="Tiffin home">
            {logo}
          </Link>
        ) : (
          <span className="shell-logo" aria-label="Tiffin">
            {logo}
          </span>
        )}
        {config.showTitle && config.title ? <h1 className="shell-header__title">{config.title}</h1> : null}
        {config.showLocationBar ? (
          <div className="shell-location">
            <button
              type="button"
              className="shell-location-bar"
              data-testid="location-bar"
              aria-haspopup="dialog"
              title={location?.address || undefined}
              onClick={() => emit('location:open', {})}
            >
              <span className="shell-location-bar__title">{place ?? 'Set your location'}</span>
              {location?.address ? <span className="shell-location-bar__address">{location.address}</span> : null}
              <span className="shell-location-bar__chevron" aria-hidden="true">
                ▾
              </span>
            </button>
            <LocationHints pageType={pageType} location={location} tooltipAllowed={config.setLocationTooltip} />
          </div>
        ) : null}
        <nav className="shell-nav" aria-label="Main">
          {config.showCorporate || config.showSearch || config.showOffers || config.showHelp ? (
            <MoreNav>
              {config.showCorporate ? (
                <Link href="/corporate" className="shell-nav__link" target="_blank">
                  Tiffin Corporate
                </Link>
              ) : null}
              {config.showSearch ? (
                <Link href="/search" className="shell-nav__link">
                  Search
                </Link>
              ) : null}
              {config.showOffers ? (
                <Link href="/offers" className="shell-nav__link">
                  Offers
                </Link>
              ) : null}
              {config.showHelp ? (
                <Link href="/support" className="shell-nav__link">
                  Help
                </Link>
              ) : null}
            </MoreNav>
          ) : null}
          {config.showUser ? <UserNav user={user} hasLocation={location !== null} /> : null}
          {config.showCart ? <CartNav count={cartCount} /> : null}
        </nav>
      </div>
    </header>
  );
}
