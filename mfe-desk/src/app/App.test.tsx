import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, resetCurrentUserForTests } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';

function openDesk(conversationId?: string) {
  return render(<App route={{ id: 'desk', pageType: 'DESK', params: conversationId ? { conversationId } : {} }} path={conversationId ? `/desk/conversations/${conversationId}` : '/desk'} />);
}

function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return JSON.parse((init?.body as string) ?? '{}') as Record<string, unknown>;
}

const queue = {
  conversations: [
    fixtures.deskQueueEntry({ id: 'c1', customerName: 'Asha Rao', title: 'Food quality', updatedAt: 1_796_310_000 }),
    fixtures.deskQueueEntry({ id: 'c2', customerName: 'Vikram Shah', title: 'Something else', priority: true, updatedAt: 1_796_313_600 }),
  ],
};

beforeEach(() => resetCurrentUserForTests());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the desk', () => {
  it("lists the queue, Tiffin One members' first and marked, each opening its conversation", async () => {
    installFakeEdge({ '/api/desk/queue': queue });
    const { container } = openDesk();
    const list = await screen.findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Vikram Shah', 'Asha Rao']);
    expect(within(items[0]!).getByText('Tiffin One')).toBeTruthy();
    expect(within(items[1]!).queryByText('Tiffin One')).toBeNull();
    expect(within(items[1]!).getByRole('link').getAttribute('href')).toBe('/desk/conversations/c1');
    expect(screen.getByText('Choose a conversation from the queue.')).toBeTruthy();
    expect(container.querySelector('[data-mfe="mfe-desk"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it("tells a customer's session whose page this is", async () => {
    installFakeEdge({ '/api/desk/queue': reply(403, 403, 'Forbidden'), '/api/desk/conversations/c1': reply(403, 403, 'Forbidden') });
    openDesk('c1');
    expect(await screen.findByText("This page is for Tiffin's support team.")).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Queue' })).toBeNull();
  });

  it('asks a visitor to log in', async () => {
    installFakeEdge({ '/api/desk/queue': reply(401, 999, 'Please log in') });
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    openDesk();
    fireEvent.click(await screen.findByRole('button', { name: 'LOGIN' }));
    off();
    expect(opened).toEqual(['login']);
  });

  it('shows the conversation with the customer, the order and its payment beside it', async () => {
    installFakeEdge({
      '/api/desk/queue': queue,
      '/api/desk/conversations/c1': fixtures.deskConversation({ order: { ...fixtures.deskConversation().order!, refundedPaise: 17910, refundablePaise: 27740 } }),
    });
    openDesk('c1');
    const conversation = await screen.findByRole('region', { name: 'Conversation' });
    expect(within(conversation).getByText('The paneer was cold.')).toBeTruthy();
    const beside = within(conversation).getByLabelText('Customer and order');
    expect(beside.textContent).toContain('Asha Rao · mobile ending 3210');
    expect(beside.textContent).toContain('#123 from Meghana Foods');
    expect(beside.textContent).toContain('₹456.50');
    expect(beside.textContent).toContain('Refunded₹179.10');
    expect(beside.textContent).toContain('Agent may refund₹277.40');
    expect(beside.textContent).toContain('card · CHARGED');
  });

  it('refunds the rupees typed as integer paise, shows the limit the edge holds to, and resends a refund with its key', async () => {
    const refunds: Record<string, unknown>[] = [];
    const answers = [reply(400, 1, 'An agent can refund at most ₹2,000 at a time.'), reply(503, 777, 'Payments are not answering.'), { conversation: fixtures.conversation() }];
    installFakeEdge({
      '/api/desk/queue': queue,
      '/api/desk/conversations/c1': fixtures.deskConversation(),
      '/api/desk/conversations/c1/refund': (_url: URL, init?: RequestInit) => {
        refunds.push(bodyOf(init));
        return answers.length > 1 ? answers.shift() : answers[0];
      },
    });
    openDesk('c1');
    const form = await screen.findByRole('form', { name: 'Refund' });
    const amount = within(form).getByRole('textbox', { name: 'Refund amount (₹)' });

    fireEvent.change(amount, { target: { value: '12.345' } });
    fireEvent.click(within(form).getByRole('button', { name: 'REFUND' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter the amount in rupees, like 120 or 120.50.');
    expect(refunds).toEqual([]);

    fireEvent.change(amount, { target: { value: '2500' } });
    fireEvent.click(within(form).getByRole('radio', { name: 'Tiffin Money' }));
    fireEvent.click(within(form).getByRole('button', { name: 'REFUND' }));
    expect(await within(form).findByText('An agent can refund at most ₹2,000 at a time.')).toBeTruthy();

    fireEvent.change(amount, { target: { value: '120.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'REFUND' }));
    expect(await within(form).findByText('Payments are not answering.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'REFUND' }));
    expect(await screen.findByText('Refund of ₹120.50 to Tiffin Money sent.')).toBeTruthy();

    expect(refunds.map(({ idempotencyKey: _key, _csrf, ...body }) => body)).toEqual([
      { amountPaise: 250000, refundTo: 'TIFFIN_MONEY' },
      { amountPaise: 12050, refundTo: 'TIFFIN_MONEY' },
      { amountPaise: 12050, refundTo: 'TIFFIN_MONEY' },
    ]);
    expect(refunds[1]!.idempotencyKey).not.toBe(refunds[0]!.idempotencyKey);
    expect(refunds[2]!.idempotencyKey).toBe(refunds[1]!.idempotencyKey);
  });

  it('replies and closes, asking the queue again after each', async () => {
    const posted: string[] = [];
    let queueAsked = 0;
    installFakeEdge({
      '/api/desk/queue': () => {
        queueAsked += 1;
        return queue;
      },
      '/api/desk/conversations/c1': fixtures.deskConversation(),
      '/api/desk/conversations/c1/reply': (url: URL, init?: RequestInit) => {
        posted.push(`${url.pathname} ${String(bodyOf(init).text)}`);
        return { conversation: fixtures.conversation() };
      },
      '/api/desk/conversations/c1/close': (url: URL) => {
        posted.push(url.pathname);
        return { conversation: fixtures.conversation({ status: 'CLOSED' }) };
      },
    });
    openDesk('c1');
    const reply = await screen.findByRole('form', { name: 'Reply' });
    fireEvent.change(within(reply).getByRole('textbox', { name: 'Reply to the customer' }), { target: { value: 'A refund is on its way.' } });
    fireEvent.click(within(reply).getByRole('button', { name: 'SEND REPLY' }));
    expect(await screen.findByText('Reply sent.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'CLOSE CONVERSATION' }));
    expect(await screen.findByText('Conversation closed.')).toBeTruthy();
    expect(posted).toEqual(['/api/desk/conversations/c1/reply A refund is on its way.', '/api/desk/conversations/c1/close']);
    await waitFor(() => expect(queueAsked).toBe(3));
  });
});
