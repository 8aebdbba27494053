import { fixtures, installFakeEdge, installFakeEventSource, reply } from '@tiffin/api-client/testing';
import { resetCurrentUserForTests, setCurrentUser, type Conversation } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, bodyOf, captureNavigation } from '../../test/fixtures';
import App from '../App';
import { supportView } from './SupportPage';

function openSupport(rest?: string, search = '') {
  window.history.replaceState(null, '', `/support${rest ?? ''}${search}`);
  return render(<App route={{ id: 'support', pageType: 'SUPPORT', params: rest ? { rest } : {} }} path={`/support${rest ?? ''}`} />);
}

const issueTypes = { issueTypes: [{ id: 'faq', title: 'FAQs', description: 'Questions we are asked most' }] };

let nav: ReturnType<typeof captureNavigation>;

beforeEach(() => {
  resetCurrentUserForTests();
  nav = captureNavigation();
});

afterEach(() => {
  cleanup();
  nav.off();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetCurrentUserForTests();
  window.history.replaceState(null, '', '/');
});

describe('support pages', () => {
  it('reads which page a sub-path of /support is', () => {
    expect(supportView(undefined)).toEqual({ kind: 'home' });
    expect(supportView('/')).toEqual({ kind: 'home' });
    expect(supportView('/issues/super-faq')).toEqual({ kind: 'issue', issueId: 'super-faq' });
    expect(supportView('/conversations/c%2F1/')).toEqual({ kind: 'conversation', conversationId: 'c/1' });
    expect(supportView('/issues/faq/deep/path')).toEqual({ kind: 'not-found' });
    expect(supportView('/conversations/%E0%A4')).toEqual({ kind: 'not-found' });
  });

  it('links each issue type to its page', async () => {
    installFakeEdge({ '/api/support': issueTypes });
    openSupport();
    const link = await screen.findByRole('link', { name: /FAQs/ });
    expect(link.getAttribute('href')).toBe('/support/issues/faq');
  });

  it("lists a signed-in customer's conversations newest first, with status and outcome", async () => {
    setCurrentUser(asha);
    installFakeEdge({
      '/api/support': issueTypes,
      '/api/support/conversations': {
        conversations: [
          fixtures.conversation({ id: 'old', title: 'Food quality', createdAt: 1_795_600_000 }),
          fixtures.conversation({
            id: 'new',
            title: 'Items are missing',
            status: 'RESOLVED',
            createdAt: 1_796_200_000,
            outcome: { kind: 'REFUND', amountPaise: 17910, refundTo: 'TIFFIN_MONEY', text: 'We refunded ₹179.10 to your Tiffin Money.' },
          }),
        ],
        meta: { total: 2 },
      },
    });
    openSupport();
    const list = await screen.findByRole('region', { name: 'Your conversations' });
    await within(list).findByText('Items are missing');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Items are missing', 'Food quality']);
    expect(items[0]!.textContent).toContain('Resolved');
    expect(items[0]!.textContent).toContain('Refund of ₹179.10 to Tiffin Money');
    expect(items[1]!.textContent).toContain('With our support team');
    expect(within(items[0]!).getByRole('link').getAttribute('href')).toBe('/support/conversations/new');
  });

  it('shows a visitor the issues and asks them to log in for help on an order', async () => {
    const fetch = installFakeEdge({ '/api/support': issueTypes });
    openSupport(undefined, '?order_id=123');
    expect(await screen.findByText('Log in to get help with order #123.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: /FAQs/ })).toBeTruthy();
    expect(fetch.mock.calls.map(([u]) => String(u)).some((u) => u.includes('order-help') || u.includes('conversations'))).toBe(false);
  });

  it('ignores an order id that is not a number', async () => {
    setCurrentUser(asha);
    const fetch = installFakeEdge({ '/api/support': issueTypes, '/api/support/conversations': { conversations: [], meta: { total: 0 } } });
    openSupport(undefined, '?order_id=%3Cscript%3E');
    await screen.findByRole('heading', { name: 'Help & Support' });
    expect(screen.queryByRole('region', { name: 'Help with your order' })).toBeNull();
    expect(fetch.mock.calls.map(([u]) => String(u)).some((u) => u.includes('order-help'))).toBe(false);
  });
});

describe('the FAQ page', () => {
  const faq = {
    issue: {
      id: 'faq',
      title: 'FAQs',
      description: 'Questions we are asked most',
      kind: 'FAQ',
      articles: [
        { id: 'a1', question: 'Where is my refund?', answer: 'Refunds reach your bank in 5 to 7 working days.' },
        { id: 'a2', question: 'Can I cancel my order?', answer: 'Free before the restaurant accepts it.' },
      ],
    },
  };

  it('shows the questions with their answers, and narrows them as the customer types', async () => {
    const fetch = installFakeEdge({ '/api/support/issues/faq': faq });
    openSupport('/issues/faq');
    expect(await screen.findByRole('heading', { name: 'FAQs' })).toBeTruthy();
    expect(screen.getByText('Refunds reach your bank in 5 to 7 working days.')).toBeTruthy();
    expect(fetch.mock.calls[0]![0]).toBe('/api/support/issues/faq');

    const search = screen.getByRole('searchbox', { name: 'Search these questions' });
    fireEvent.change(search, { target: { value: 'bank' } });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Where is my refund?']);
    fireEvent.change(search, { target: { value: 'restaurant' } });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Can I cancel my order?']);
  });

  it('says so when nothing matches', async () => {
    installFakeEdge({ '/api/support/issues/super-faq': { issue: { ...faq.issue, id: 'super-faq', title: 'Tiffin One FAQs' } } });
    openSupport('/issues/super-faq');
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search these questions' }), { target: { value: 'pizza' } });
    expect(screen.getByRole('status').textContent).toBe('No questions match “pizza”.');
    expect(screen.queryAllByRole('heading', { level: 3 })).toEqual([]);
  });
});

describe('help on an order', () => {
  beforeEach(() => setCurrentUser(asha));

  function helpEdge(answers: unknown[] = [{ conversation: fixtures.conversation({ id: 'c9' }) }]) {
    const posted: Record<string, unknown>[] = [];
    const fetch = installFakeEdge({
      '/api/support': issueTypes,
      '/api/support/conversations': { conversations: [], meta: { total: 0 } },
      '/api/support/order-help/123': fixtures.orderHelp(),
      '/api/support/order-help': (_url: URL, init?: RequestInit) => {
        posted.push(bodyOf(init));
        return answers.length > 1 ? answers.shift() : answers[0];
      },
    });
    return { posted, fetch };
  }

  it('shows every issue, the ones not open now disabled with their reason', async () => {
    helpEdge();
    openSupport(undefined, '?order_id=123');
    const flow = await screen.findByRole('region', { name: 'Help with your order' });
    expect(within(flow).getByRole('heading', { name: 'Order #123 from Meghana Foods' })).toBeTruthy();
    expect((within(flow).getByRole('radio', { name: /Cancel my order/ }) as HTMLInputElement).disabled).toBe(true);
    expect(within(flow).getByText('A delivered order cannot be cancelled.')).toBeTruthy();
    expect((within(flow).getByRole('radio', { name: /Items are missing/ }) as HTMLInputElement).disabled).toBe(false);
  });

  it('refunds the missing items chosen, never above what can be refunded, to where the customer says', async () => {
    const { posted } = helpEdge([reply(503, 777, 'Service unavailable'), { conversation: fixtures.conversation({ id: 'c9' }) }]);
    openSupport(undefined, '?order_id=123');
    fireEvent.click(await screen.findByRole('radio', { name: /Items are missing/ }));

    const tikka = screen.getByRole('spinbutton', { name: 'Paneer Tikka × 2' }) as HTMLInputElement;
    expect(tikka.max).toBe('2');
    fireEvent.change(tikka, { target: { value: '5' } });
    expect(tikka.value).toBe('2');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Naan × 1' }), { target: { value: '1' } });
    expect(screen.getByText('We will refund ₹402.30.')).toBeTruthy();
    fireEvent.change(tikka, { target: { value: '1' } });
    expect(screen.getByText('We will refund ₹223.20.')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Tiffin Money' }));
    fireEvent.click(screen.getByRole('button', { name: 'GET HELP' }));
    // The edge could not answer: its words, in the page's error style, and nothing else happens.
    expect((await screen.findByRole('alert')).className).toContain('acct-error');
    expect(nav.targets).toEqual([]);

    // Pressed again, the same submission goes with the same key.
    fireEvent.click(screen.getByRole('button', { name: 'GET HELP' }));
    await waitFor(() => expect(nav.targets).toEqual(['/support/conversations/c9']));
    expect(posted).toHaveLength(2);
    const { idempotencyKey, ...body } = posted[0]!;
    expect(body).toEqual({ orderId: '123', issue: 'MISSING_ITEMS', items: [{ lineId: 1, quantity: 1 }, { lineId: 2, quantity: 1 }], refundTo: 'TIFFIN_MONEY', _csrf: expect.any(String) });
    expect(typeof idempotencyKey).toBe('string');
    expect(posted[1]!.idempotencyKey).toBe(idempotencyKey);
  });

  it('says what is missing before sending anything', async () => {
    const { posted } = helpEdge();
    openSupport(undefined, '?order_id=123');
    fireEvent.click(await screen.findByRole('radio', { name: /I got a wrong item/ }));
    fireEvent.click(screen.getByRole('button', { name: 'GET HELP' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose the items and how many of each.');
    fireEvent.click(screen.getByRole('radio', { name: /Something else/ }));
    fireEvent.click(screen.getByRole('button', { name: 'GET HELP' }));
    expect(screen.getByRole('alert').textContent).toBe('Tell us what happened.');
    expect(posted).toEqual([]);
  });

  it("sends an agent's issue with the customer's words", async () => {
    const { posted } = helpEdge();
    openSupport(undefined, '?order_id=123');
    fireEvent.click(await screen.findByRole('radio', { name: /Food quality/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Tell us what happened' }), { target: { value: 'The paneer was cold.' } });
    fireEvent.click(screen.getByRole('button', { name: 'GET HELP' }));
    await waitFor(() => expect(nav.targets).toEqual(['/support/conversations/c9']));
    expect(posted[0]).toMatchObject({ orderId: '123', issue: 'QUALITY', message: 'The paneer was cold.' });
    expect(posted[0]).not.toHaveProperty('items');
  });

  it("shows the edge's refusal of an order that cannot be helped here", async () => {
    installFakeEdge({
      '/api/support': issueTypes,
      '/api/support/conversations': { conversations: [], meta: { total: 0 } },
      '/api/support/order-help/123': reply(400, 1, 'Help on this order closed 48 hours after it was delivered.'),
    });
    openSupport(undefined, '?order_id=123');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Help on this order closed 48 hours after it was delivered.');
    expect(alert.className).toContain('acct-error');
    expect(await screen.findByRole('link', { name: /FAQs/ })).toBeTruthy();
  });
});

describe('a conversation', () => {
  const agentReply = (conversation: Conversation, text: string, sentAt: number): Conversation => ({
    ...conversation,
    updatedAt: sentAt,
    messages: [...conversation.messages, fixtures.conversationMessage({ id: `m-${sentAt}`, author: 'AGENT', authorName: 'Ravi', text, sentAt })],
  });

  beforeEach(() => setCurrentUser(asha));

  it('shows its messages, status and outcome, each author named', async () => {
    const conversation = fixtures.conversation({
      status: 'RESOLVED',
      outcome: { kind: 'CREDIT', amountPaise: 5000, refundTo: 'TIFFIN_MONEY', text: 'Your order came 22 minutes late.' },
    });
    installFakeEdge({ '/api/support/conversations/c1': { conversation: agentReply(conversation, 'Sorry about that.', 1_796_313_900) } });
    installFakeEventSource();
    openSupport('/conversations/c1');
    const messages = await screen.findByRole('list', { name: 'Messages' });
    expect(within(messages).getAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent)).toEqual(['You', 'Tiffin', 'Ravi, Tiffin support']);
    expect(screen.getByText('Resolved')).toBeTruthy();
    expect(screen.getByText('₹50 added to your Tiffin Money')).toBeTruthy();
    expect(screen.getByText('Your order came 22 minutes late.')).toBeTruthy();
    // Only a conversation with an agent takes a reply.
    expect(screen.queryByRole('form', { name: 'Reply' })).toBeNull();
  });

  it("shows an agent's reply the moment the stream sends it, and takes the customer's reply", async () => {
    const conversation = fixtures.conversation();
    const sent: Record<string, unknown>[] = [];
    installFakeEdge({
      '/api/support/conversations/c1': { conversation },
      '/api/support/conversations/c1/messages': (_url: URL, init?: RequestInit) => {
        sent.push(bodyOf(init));
        return { conversation: { ...conversation, updatedAt: 1_796_314_200, messages: [...conversation.messages, fixtures.conversationMessage({ id: 'm9', author: 'CUSTOMER', text: 'Thanks' })] } };
      },
    });
    const { opened } = installFakeEventSource();
    openSupport('/conversations/c1');
    await screen.findByText('The paneer was cold.');
    expect(opened.map((s) => s.url)).toEqual(['/api/support/conversations/c1/events']);

    act(() => opened[0]!.send('conversation', agentReply(conversation, 'A refund is on its way.', 1_796_313_900)));
    expect(screen.getByText('A refund is on its way.')).toBeTruthy();
    expect(screen.getByText('Ravi, Tiffin support')).toBeTruthy();

    const form = screen.getByRole('form', { name: 'Reply' });
    fireEvent.click(within(form).getByRole('button', { name: 'SEND' }));
    expect(within(form).getByRole('alert').textContent).toBe('Write your message first.');
    fireEvent.change(within(form).getByRole('textbox', { name: 'Your message' }), { target: { value: ' Thanks ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'SEND' }));
    expect(await screen.findByText('Thanks')).toBeTruthy();
    expect(sent).toEqual([{ text: 'Thanks', _csrf: expect.any(String) }]);
  });

  it('asks every 5 s once the stream fails, and stops when the page goes away', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    const conversation = fixtures.conversation();
    const answers = [conversation, conversation, agentReply(conversation, 'Refunded ₹120.', 1_796_314_020)];
    const asked: string[] = [];
    installFakeEdge({
      '/api/support/conversations/c1': (url: URL) => {
        asked.push(url.pathname);
        return { conversation: answers.length > 1 ? answers.shift() : answers[0] };
      },
    });
    const { opened } = installFakeEventSource();
    const { unmount } = openSupport('/conversations/c1');
    await wait(0);
    expect(asked).toHaveLength(1);
    await wait(20_000);
    // The stream stands: no polling.
    expect(asked).toHaveLength(1);

    act(() => opened[0]!.fail());
    expect(opened[0]!.closed).toBe(true);
    await wait(4_999);
    expect(asked).toHaveLength(1);
    await wait(1);
    expect(asked).toHaveLength(2);
    await wait(5_000);
    expect(asked).toHaveLength(3);
    await wait(0);
    expect(screen.getByText('Refunded ₹120.')).toBeTruthy();
    expect(opened).toHaveLength(1);

    unmount();
    await wait(60_000);
    expect(asked).toHaveLength(3);
  });

  it('polls where the browser has no EventSource', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    vi.stubGlobal('EventSource', undefined);
    const asked: string[] = [];
    installFakeEdge({
      '/api/support/conversations/c1': (url: URL) => {
        asked.push(url.pathname);
        return { conversation: fixtures.conversation() };
      },
    });
    openSupport('/conversations/c1');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(asked).toHaveLength(3);
  });

  it('asks a visitor to log in', async () => {
    resetCurrentUserForTests();
    installFakeEdge({ '/api/support/conversations/c1': reply(401, 999, 'Please log in') });
    installFakeEventSource();
    openSupport('/conversations/c1');
    expect(await screen.findByText('Log in to see this conversation.')).toBeTruthy();
  });
});
