import { Link } from '@tiffin/design-system';
import type { CitiesState } from '../data/cities';
import {
  APP_DOWNLOAD_TEXT,
  CITY_COLUMNS,
  cityHref,
  FOOTER_GROUPS,
  listableCities,
  POPULAR_CITIES_TITLE,
  popularCities,
  seoLinks,
  splitIntoColumns,
} from './footer';

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

/** A titled list of links in columns (the SEO links, issue 3). */
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

export function Footer({ cities }: { cities: CitiesState }) {
  const loaded = cities.status === 'loaded' ? cities.cities : [];
  const popular = popularCities(loaded);
  const popularSlugs = new Set(popular.map((c) => c.slug));
  const others = listableCities(loaded).filter((c) => !popularSlugs.has(c.slug));

  return (
    <footer className="shell-footer">
      <div className="shell-footer__inner">
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
          <CityColumns title="Other cities that we deliver:" cities={others} columns={CITY_COLUMNS.desktop} />
        </div>
        <div className="shell-footer__mobile-only">
          <CityColumns title={POPULAR_CITIES_TITLE} cities={popular} columns={CITY_COLUMNS.mobile} />
          <CityColumns title="Other cities that we deliver:" cities={others} columns={CITY_COLUMNS.mobile} />
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
