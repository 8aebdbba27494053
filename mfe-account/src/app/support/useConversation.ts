/**
 * One conversation, kept current while its page is open: the conversation's event stream
 * (`GET support/conversations/{id}/events`, event `conversation`, the whole conversation at once and
 * on every change) shows an agent's reply the moment it is sent. When the stream cannot be had or
 * fails (the browser has no EventSource, the edge refuses or ends it) it is not reopened: the page
 * asks `GET support/conversations/{id}` every 5 seconds instead, until the conversation is closed
 * or the page goes away (or the session has ended). A conversation older than the one shown (a poll answered after a newer
 * event) never replaces it.
 */
import { edge, isSignInRequired } from '@tiffin/api-client';
import type { Conversation } from '@tiffin/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

export const CONVERSATION_POLL_MS = 5_000;

export type ConversationState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; conversation: Conversation };

/** Changes within the same second are ordered by arrival: the later one is shown. */
function isNewer(candidate: Conversation, shown: Conversation | null): boolean {
  return !shown || candidate.updatedAt >= shown.updatedAt;
}

/** `viewer` is who is signed in: a sign-in on the page loads the conversation again. */
export function useConversation(conversationId: string, viewer: string | null = null): ConversationState & { retry: () => void; replace: (conversation: Conversation) => void } {
  const [state, setState] = useState<ConversationState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const shownRef = useRef<Conversation | null>(null);

  const show = useCallback((conversation: Conversation) => {
    if (!isNewer(conversation, shownRef.current)) return;
    shownRef.current = conversation;
    setState({ status: 'ready', conversation });
  }, []);

  useEffect(() => {
    shownRef.current = null;
    setState({ status: 'loading' });
    const controller = new AbortController();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polling = false;
    let signedOut = false;

    const closed = () => shownRef.current?.status === 'CLOSED';
    const load = async () => {
      try {
        const { conversation } = await edge.supportConversation(conversationId, { signal: controller.signal });
        if (!stopped) show(conversation);
      } catch (error) {
        // Asking again will not sign anyone in: the page waits for a sign-in (`viewer`) instead.
        if (isSignInRequired(error)) signedOut = true;
        if (!stopped && !shownRef.current) setState({ status: 'error', error });
      }
    };
    const poll = async () => {
      await load();
      if (!stopped && !signedOut && !closed()) timer = setTimeout(() => void poll(), CONVERSATION_POLL_MS);
    };
    const startPolling = () => {
      if (stopped || polling || signedOut || closed()) return;
      polling = true;
      timer = setTimeout(() => void poll(), CONVERSATION_POLL_MS);
    };

    void load();
    const closeStream = edge.supportConversationStream(conversationId, {
      onConversation: (conversation) => {
        if (!stopped) show(conversation);
      },
      onClose: startPolling,
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      closeStream();
    };
  }, [conversationId, viewer, attempt, show]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry, replace: show };
}
