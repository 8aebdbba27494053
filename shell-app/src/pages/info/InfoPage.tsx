/**
 * One company or legal page, drawn from its entry in `content.ts`: one h1, the date of the last
 * change, an intro and one titled section per topic. Loaded on demand (see ShellPages), so its
 * text is downloaded only by visitors who open one of these pages.
 */
import { InfoSections, InlineText } from './blocks';
import { infoPageContent } from './content';
import type { InfoPageId } from './titles';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11-27" → "27 November 2026", the way dates are written in India, whatever the browser's locale. */
export function formatUpdated(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

export { InlineText };

export default function InfoPage({ id }: { id: InfoPageId }) {
  const page = infoPageContent(id);
  return (
    <article className="shell-info-page" aria-labelledby="shell-info-page-title">
      <h1 id="shell-info-page-title">{page.title}</h1>
      <p className="shell-info-page__updated">
        Last updated <time dateTime={page.updated}>{formatUpdated(page.updated)}</time>
      </p>
      <p className="shell-info-page__intro"><InlineText text={page.intro} /></p>
      <InfoSections sections={page.sections} />
    </article>
  );
}
