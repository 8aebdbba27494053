/**
 * One company or legal page, drawn from its entry in `content.ts`: one h1, the date of the last
 * change, an intro and one titled section per topic. Loaded on demand (see ShellPages), so its
 * text is downloaded only by visitors who open one of these pages.
 */
import { Link } from '@tiffin/design-system';
import { Fragment, type ReactNode } from 'react';
import { infoPageContent, type InfoBlock } from './content';
import type { InfoPageId } from './titles';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11-27" → "27 November 2026", the way dates are written in India, whatever the browser's locale. */
export function formatUpdated(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** `[label](/path)` for a link, or `name` in backticks for a name to type or look for (a cookie's). */
const MARKUP = /\[([^\]]+)\]\(([^)\s]+)\)|`([^`]+)`/g;

/** A path on this site: one leading slash, so `//host` (another site) does not pass. */
function isSitePath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//');
}

/** Text with its links and names marked up; a link to anywhere but this site stays plain text. */
export function InlineText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKUP)) {
    const [whole, label, href = '', code] = match;
    const at = match.index ?? 0;
    parts.push(text.slice(last, at));
    if (code !== undefined) parts.push(<code>{code}</code>);
    else parts.push(isSitePath(href) ? <Link href={href}>{label}</Link> : label);
    last = at + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts.map((part, i) => <Fragment key={i}>{part}</Fragment>)}</>;
}

function Block({ block }: { block: InfoBlock }) {
  if (typeof block === 'string') return <p><InlineText text={block} /></p>;
  const items = block.list.map((item) => <li key={item}><InlineText text={item} /></li>);
  return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
}

export default function InfoPage({ id }: { id: InfoPageId }) {
  const page = infoPageContent(id);
  return (
    <article className="shell-info-page" aria-labelledby="shell-info-page-title">
      <h1 id="shell-info-page-title">{page.title}</h1>
      <p className="shell-info-page__updated">
        Last updated <time dateTime={page.updated}>{formatUpdated(page.updated)}</time>
      </p>
      <p className="shell-info-page__intro"><InlineText text={page.intro} /></p>
      {page.sections.map((section, index) => {
        const headingId = `shell-info-page-section-${index}`;
        return (
          <section key={section.heading} aria-labelledby={headingId}>
            <h2 id={headingId}>{section.heading}</h2>
            {section.blocks.map((block, i) => <Block key={i} block={block} />)}
          </section>
        );
      })}
    </article>
  );
}
