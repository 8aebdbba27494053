/**
 * Tiffin Moments: `/moments` lists the stories, `/moments/{slug}` shows one. The route lists the
 * slugs, so an unknown one never reaches here; ShellPages still answers a slug without a story
 * as not found rather than drawing an empty page.
 */
import { Link } from '@tiffin/design-system';
import { InfoSections, InlineText } from '../info/blocks';
import type { MomentSlug } from './slugs';
import { moment, MOMENTS } from './stories';

function MomentsIndex() {
  return (
    <article className="shell-info-page" aria-labelledby="shell-moments-title">
      <h1 id="shell-moments-title">Tiffin Moments</h1>
      <p className="shell-info-page__intro">
        Some dishes belong to a city and an hour: biryani after midnight, a vada pav in the first rain. These are their stories, and how to order
        them well.
      </p>
      <ul className="shell-moments">
        {MOMENTS.map((story) => (
          <li key={story.slug} className="shell-moments__item">
            <p className="shell-moments__kicker">{story.city} · {story.dish}</p>
            <h2><Link href={`/moments/${story.slug}`}>{story.title}</Link></h2>
            <p>{story.summary}</p>
          </li>
        ))}
      </ul>
    </article>
  );
}

function MomentStory({ slug }: { slug: MomentSlug }) {
  const story = moment(slug);
  const others = MOMENTS.filter((other) => other.slug !== slug);
  return (
    <article className="shell-info-page" aria-labelledby="shell-moment-title">
      <p className="shell-moments__kicker">
        <Link href="/moments">Tiffin Moments</Link> · {story.city} · {story.dish}
      </p>
      <h1 id="shell-moment-title">{story.title}</h1>
      <p className="shell-info-page__intro"><InlineText text={story.summary} /></p>
      <InfoSections sections={story.sections} idPrefix="shell-moment-section" />
      <nav aria-label="More moments">
        <h2>More moments</h2>
        <ul>
          {others.map((other) => (
            <li key={other.slug}><Link href={`/moments/${other.slug}`}>{other.title}</Link> ({other.city})</li>
          ))}
        </ul>
      </nav>
    </article>
  );
}

export default function MomentsPage({ slug }: { slug?: MomentSlug }) {
  return slug ? <MomentStory slug={slug} /> : <MomentsIndex />;
}
