/**
 * An issue's page (/support/issues/{id}, `faq` and `super-faq` among them): its FAQ articles with
 * their written answers, and a search box that narrows the questions and answers as the customer
 * types (faq-search), saying so when nothing matches. An order-help issue also says where help on
 * an order starts: the order itself.
 */
import { edge } from '@tiffin/api-client';
import type { FaqArticle } from '@tiffin/contract';
import { AsyncContent, Link, useAsync } from '@tiffin/design-system';
import { useId, useState } from 'react';
import { filterArticles } from './faq-search';

export function FaqArticles({ articles }: { articles: readonly FaqArticle[] }) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = filterArticles(articles, query);
  return (
    <>
      {articles.length > 0 ? (
        <div className="acct-faq__search">
          <label htmlFor={searchId}>Search these questions</label>
          <input id={searchId} type="search" className="acct-faq__input" placeholder="Type a word, like refund" autoComplete="off" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
      ) : null}
      {shown.length > 0 ? (
        <ul className="acct-faq" aria-label="Questions">
          {shown.map((article) => (
            <li key={article.id} className="acct-faq__article">
              <h3 className="acct-faq__question">{article.question}</h3>
              <p className="acct-faq__answer">{article.answer}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="acct-muted" role="status">
          {articles.length === 0 ? 'There are no questions here yet.' : `No questions match “${query.trim()}”.`}
        </p>
      )}
    </>
  );
}

export function IssuePage({ issueId }: { issueId: string }) {
  const state = useAsync((signal) => edge.supportIssue(issueId, { signal }), [issueId]);
  return (
    <section className="acct-support" aria-label="Help and support">
      <AsyncContent state={state}>
        {({ issue }) => (
          <>
            <h1 className="acct-support__title">{issue.title}</h1>
            {issue.description ? <p className="acct-support__subtitle">{issue.description}</p> : null}
            {issue.kind === 'ORDER_HELP' ? (
              <p className="acct-note acct-support__order-hint">
                For help with an order, open it from <Link href="/my-account/orders">your orders</Link> and press Help.
              </p>
            ) : null}
            <FaqArticles articles={issue.articles} />
          </>
        )}
      </AsyncContent>
      <Link href="/support">Back to Help &amp; Support</Link>
    </section>
  );
}
