/** What the listing shows around the restaurants: "What's on your mind?", offer banners, filter
 * collections (only under the spec's rule) and the nudge card. Every card is a link. */
import type { ListingResponse } from '@tiffin/contract';
import { Image, imageUrl, Link } from '@tiffin/design-system';
import { showFilterCollections } from './refine';

export function TopCarousel({ response }: { response: ListingResponse }) {
  const cards = response.topCarousel ?? [];
  if (!cards.length) return null;
  return (
    <section className="disc-carousel" aria-label="What's on your mind?">
      <h2 className="disc-carousel__title">What's on your mind?</h2>
      <ul className="disc-carousel__row">
        {cards.map((c) => (
          <li key={c.id} className="disc-carousel__item" data-testid="top-carousel-card">
            <Link href={c.link} className="disc-carousel__link">
              <Image src={imageUrl(c.imageId)} alt="" width={72} height={72} />
              <span>{c.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BannerCarousel({ response }: { response: ListingResponse }) {
  const banners = response.bannerCarousel ?? [];
  if (!banners.length) return null;
  return (
    <section className="disc-carousel" aria-label="Best offers for you">
      <h2 className="disc-carousel__title">Best offers for you</h2>
      <ul className="disc-carousel__row">
        {banners.map((b) => (
          <li key={b.imageId} className="disc-banner">
            <Link href={b.link} className="disc-banner__link">
              <strong>{b.title}</strong>
              <span>{b.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FilterCollections({ response }: { response: ListingResponse }) {
  if (!showFilterCollections(response.filterCollections, response.totalRestaurants)) return null;
  return (
    <nav className="disc-collections" aria-label="Collections">
      {(response.filterCollections ?? []).map((c) => (
        <Link key={c.id} href={c.link} className="disc-chip">
          {c.title} <span className="disc-toolbar__count">({c.restaurants})</span>
        </Link>
      ))}
    </nav>
  );
}

export function NudgeCard({ response }: { response: ListingResponse }) {
  const nudge = response.nudgeCard;
  if (!nudge) return null;
  return (
    <aside className="disc-nudge" data-testid="nudge-card">
      <Link href={nudge.link} className="disc-nudge__link">
        <strong>{nudge.title}</strong> <span>{nudge.text}</span>
      </Link>
    </aside>
  );
}
