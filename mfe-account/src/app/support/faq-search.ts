/**
 * The FAQ page's search box: which articles answer what the customer typed. Every word typed must
 * be found, in the question or in the answer, ignoring case and accents, so a longer query only
 * ever narrows the list. Nothing typed (or only spaces) keeps every article.
 */
import type { FaqArticle } from '@tiffin/contract';

/** Lower case without accents, so "Refund" finds "refund" and "cafe" finds "café". */
function folded(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function searchWords(query: string): string[] {
  return folded(query).split(/\s+/).filter(Boolean);
}

export function filterArticles(articles: readonly FaqArticle[], query: string): FaqArticle[] {
  const words = searchWords(query);
  if (words.length === 0) return [...articles];
  return articles.filter((article) => {
    const text = folded(`${article.question}\n${article.answer}`);
    return words.every((word) => text.includes(word));
  });
}
