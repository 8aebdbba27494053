/**
 * `/ofo/{tab}`: ordering for someone else, in three tabs. The tabs are links (each has its own
 * address to share); a missing or unknown tab shows the first.
 */
import { Link } from '@tiffin/design-system';
import { InfoSections } from '../info/blocks';
import { OFO_TABS, ofoTab } from './content';

export default function OrderForOthersPage({ tab }: { tab?: string }) {
  const current = ofoTab(tab);
  return (
    <article className="shell-info-page" aria-labelledby="shell-ofo-title">
      <h1 id="shell-ofo-title">Order for others</h1>
      <nav className="shell-page-tabs" aria-label="Order for others">
        {OFO_TABS.map((t) => (
          <Link key={t.id} href={`/ofo/${t.id}`} className="shell-page-tabs__tab" aria-current={t.id === current.id ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      <p className="shell-info-page__intro">{current.intro}</p>
      <InfoSections sections={current.sections} idPrefix={`shell-ofo-${current.id}`} />
      <p>
        <Link className="ds-button ds-button--primary" href="/restaurants">Find restaurants</Link>
      </p>
    </article>
  );
}
