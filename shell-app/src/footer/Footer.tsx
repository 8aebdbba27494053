import type { PageType } from '@tiffin/contract';
import { Link } from '@tiffin/design-system';
import { useId, useState } from 'react';
import type { CitiesState } from '../data/cities';
import {
  APP_DOWNLOAD_TEXT,
  AVAILABLE_IN_TITLE,
  CITY_COLUMNS,
  cityHref,
  compactFooterCities,
  compactLinks,
  FOOTER_GROUPS,
  footerVariant,
  listableCities,
  OTHER_CITIES_TITLE,
  otherCitiesLabel,
  POPULAR_CITIES_TITLE,
  popularCities,
  seoLinks,
  splitIntoColumns,
} from './footer';
import './footer.css';

function CityColumns({ title, cities, columns }: { title: string; cities: Array<{ slug: string; name: string }>; columns: number }) {
  if (cities.length === 0) return null;
  return (
    <section className="shell-footer__cities" aria-label={title}>
      <h3 className="shell-footer__heading">{title}</h3>
      <div className={`shell-footer__columns shell-footer__columns--${columns}`}>
        {splitIntoColumns(cities, columns).map((column, index) => (
          <ul key={index} className="shell-footer__column">
            {column.map((city) => (
              <li key={city.slug}>
                <Link href={cityHref(city.slug)} target="_blank">
                  {city.name}
                </Link>
              </li>
            ))}
          </ul>
        ))}
      </div>
    </section>
  );
}

/** A titled list of links in columns (the SEO links). */
function LinkColumns({ title, links, columns }: { title: string; links: Array<{ name: string; href: string }>; columns: number }) {
  if (links.length === 0) return null;
  return (
    <section className="shell-footer__cities" aria-label={title}>
      <h3 className="shell-footer__heading">{title}</h3>
      <div className={`shell-footer__columns shell-footer__columns--${columns}`}>
        {splitIntoColumns(links, columns).map((column, index) => (
          <ul key={index} className="shell-footer__column">
            {column.map((link) => (
              <li key={link.href}>
                <Link href={link.href}>{link.name}</Link>
              </li>
            ))}
          </ul>
        ))}
      </div>
    </section>
  );
}

/** The download line and the iOS and Android store badges (both variants). */
function AppDownload() {
  return (
    <div className="shell-footer__apps">
      <p className="shell-footer__apps-text">{APP_DOWNLOAD_TEXT}</p>
      <div className="shell-footer__badges">
        <span className="shell-footer__badge" aria-label="Download on the App Store">
          App Store
        </span>
        <span className="shell-footer__badge" aria-label="Get it on Google Play">
          Google Play
        </span>
      </div>
    </div>
  );
}

/**
 * The compact footer: 'Available in:' with 6 cities and a button with the count
 * of the others, which opens 'Other cities that we deliver:' (4 columns, 2 on mobile); the app
 * download line; help and support (same tab) and a few company and legal links (new tab).
 */
function CompactFooter({ cities }: { cities: CitiesState }) {
  const [open, setOpen] = useState(false);
  const othersId = useId();
  const all = cities.status === 'loaded' ? cities.cities : null;
  const { shown, others } = compactFooterCities(all, all ? popularCities(all) : []);
  return (
    <footer className="shell-footer shell-footer--compact">
      <div className="shell-footer__inner">
        <div className="shell-footer__available">
          <span className="shell-footer__heading shell-footer__available-title">{AVAILABLE_IN_TITLE}</span>
          <ul className="shell-footer__available-list" aria-label={AVAILABLE_IN_TITLE}>
            {shown.map((city) => (
              <li key={city.slug}>
                <Link href={cityHref(city.slug)} target="_blank">
                  {city.name}
                </Link>
              </li>
            ))}
          </ul>
          {others.length > 0 ? (
            <button type="button" className="shell-footer__cities-button" aria-expanded={open} aria-controls={othersId} onClick={() => setOpen((o) => !o)}>
              {otherCitiesLabel(others.length)}
            </button>
          ) : null}
        </div>
        {open && others.length > 0 ? (
          <div id={othersId}>
            <div className="shell-footer__desktop-only">
              <CityColumns title={OTHER_CITIES_TITLE} cities={others} columns={CITY_COLUMNS.desktop} />
            </div>
            <div className="shell-footer__mobile-only">
              <CityColumns title={OTHER_CITIES_TITLE} cities={others} columns={CITY_COLUMNS.mobile} />
            </div>
          </div>
        ) : null}
        <AppDownload />
        <ul className="shell-footer__compact-links" aria-label="Tiffin">
          {compactLinks().map((link) => (
            <li key={link.href}>
              <Link href={link.href} target={link.newTab ? '_blank' : undefined}>
                {link.name}
              </Link>
            </li>
          ))}
        </ul>
        <p className="shell-footer__copyright">© {new Date().getFullYear()} Tiffin</p>
      </div>
    </footer>
  );
}

/** The page's footer: the compact variant on the page types `footerVariant` names, else the full one. */
export function Footer({ cities, pageType }: { cities: CitiesState; pageType?: PageType }) {
  if (pageType && footerVariant(pageType) === 'compact') return <CompactFooter cities={cities} />;
  return <FullFooter cities={cities} />;
}

function FullFooter({ cities }: { cities: CitiesState }) {
  const loaded = cities.status === 'loaded' ? cities.cities : [];
  const popular = popularCities(loaded);
  const popularSlugs = new Set(popular.map((c) => c.slug));
  const others = listableCities(loaded).filter((c) => !popularSlugs.has(c.slug));

  return (
    <footer className="shell-footer">
      <div className="shell-footer__inner">
        <AppDownload />
        <div className="shell-footer__groups">
          {FOOTER_GROUPS.map((group) => (
            <section key={group.title} className="shell-footer__group" aria-label={group.title}>
              <h3 className="shell-footer__heading">{group.title}</h3>
              <ul>
                {group.links.map((link) => (
                  <li key={link.href}>
                    <Link href={link.href} target={link.newTab ? '_blank' : undefined}>
                      {link.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        {/* Column count switches at the 480 px breakpoint in CSS; both layouts come from the same split rule. */}
        <div className="shell-footer__desktop-only">
          <CityColumns title={POPULAR_CITIES_TITLE} cities={popular} columns={CITY_COLUMNS.desktop} />
          <CityColumns title={OTHER_CITIES_TITLE} cities={others} columns={CITY_COLUMNS.desktop} />
        </div>
        <div className="shell-footer__mobile-only">
          <CityColumns title={POPULAR_CITIES_TITLE} cities={popular} columns={CITY_COLUMNS.mobile} />
          <CityColumns title={OTHER_CITIES_TITLE} cities={others} columns={CITY_COLUMNS.mobile} />
        </div>
        <div className="shell-footer__desktop-only">
          <LinkColumns title="Best restaurants in popular cities" links={seoLinks(loaded).best} columns={CITY_COLUMNS.desktop} />
          <LinkColumns title="Popular cuisines near you" links={seoLinks(loaded).cuisines} columns={CITY_COLUMNS.desktop} />
        </div>
        <div className="shell-footer__mobile-only">
          <LinkColumns title="Best restaurants in popular cities" links={seoLinks(loaded).best} columns={CITY_COLUMNS.mobile} />
          <LinkColumns title="Popular cuisines near you" links={seoLinks(loaded).cuisines} columns={CITY_COLUMNS.mobile} />
        </div>
        <p className="shell-footer__copyright">© {new Date().getFullYear()} Tiffin</p>
      </div>
    </footer>
  );
}
