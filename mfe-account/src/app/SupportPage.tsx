/** Help & Support (/support and any sub-path): the issue types from GET /api/support. */
import { edge } from '@tiffin/api-client';
import { AsyncContent, useAsync } from '@tiffin/design-system';

export function SupportPage({ rest }: { rest: string | undefined }) {
  const state = useAsync((signal) => edge.support({ signal }), []);
  const faq = rest?.includes('faq');
  return (
    <section className="acct-support" aria-label="Help and support">
      <h1 className="acct-support__title">{faq ? 'FAQs' : 'Help & Support'}</h1>
      <p className="acct-support__subtitle">Let&apos;s take a step ahead and help you better.</p>
      <AsyncContent state={state}>
        {(data) => (
          <ul className="acct-issues">
            {data.issueTypes.map((issue) => (
              <li key={issue.id} className="acct-issue">
                <h3 className="acct-issue__title">{issue.title}</h3>
                <p className="acct-issue__description">{issue.description}</p>
              </li>
            ))}
          </ul>
        )}
      </AsyncContent>
    </section>
  );
}
