import { describe, expect, it } from 'vitest';
import { filterArticles } from './faq-search';

const articles = [
  { id: 'a1', question: 'Where is my refund?', answer: 'Refunds reach your bank in 5 to 7 working days, Tiffin Money at once.' },
  { id: 'a2', question: 'Can I cancel my order?', answer: 'Free before the restaurant accepts it; a fee after.' },
  { id: 'a3', question: 'Which café partners deliver late?', answer: 'Every partner delivers until midnight.' },
];

describe('FAQ search', () => {
  it('keeps every article when nothing (or only spaces) is typed', () => {
    expect(filterArticles(articles, '').map((a) => a.id)).toEqual(['a1', 'a2', 'a3']);
    expect(filterArticles(articles, '   ').map((a) => a.id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('finds a word in the question or in the answer, ignoring case', () => {
    expect(filterArticles(articles, 'REFUND').map((a) => a.id)).toEqual(['a1']);
    expect(filterArticles(articles, 'fee').map((a) => a.id)).toEqual(['a2']);
  });

  it('needs every word typed, so typing more only narrows', () => {
    expect(filterArticles(articles, 'order').map((a) => a.id)).toEqual(['a2']);
    expect(filterArticles(articles, 'tiffin bank').map((a) => a.id)).toEqual(['a1']);
    expect(filterArticles(articles, 'tiffin cancel')).toEqual([]);
  });

  it('ignores accents', () => {
    expect(filterArticles(articles, 'cafe').map((a) => a.id)).toEqual(['a3']);
  });
});
