/**
 * How the shell lays out written text: paragraphs and lists whose links and names are marked up
 * (see `content.ts`), in titled sections. Shared by the company and legal pages and the shell's
 * other written pages; kept apart from any page's text so each page's chunk carries only its own.
 */
import { Link } from '@tiffin/design-system';
import { Fragment, type ReactNode } from 'react';
import type { InfoBlock, InfoSection } from './content';

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

/** A paragraph or a list of `content.ts`, with its links. */
export function Block({ block }: { block: InfoBlock }) {
  if (typeof block === 'string') return <p><InlineText text={block} /></p>;
  const items = block.list.map((item) => <li key={item}><InlineText text={item} /></li>);
  return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
}

/**
 * Titled sections, each a region named by its h2. Every written page the shell draws (these, the
 * app page, Tiffin Moments, order for others) lays its text out this way. `idPrefix` keeps the
 * headings' ids apart when one page shows two sets.
 */
export function InfoSections({ sections, idPrefix = 'shell-info-page-section' }: { sections: readonly InfoSection[]; idPrefix?: string }) {
  return (
    <>
      {sections.map((section, index) => {
        const headingId = `${idPrefix}-${index}`;
        return (
          <section key={section.heading} aria-labelledby={headingId}>
            <h2 id={headingId}>{section.heading}</h2>
            {section.blocks.map((block, i) => <Block key={i} block={block} />)}
          </section>
        );
      })}
    </>
  );
}
