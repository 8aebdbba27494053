/**
 * mfe_desk/App: the agents' desk at /desk (docs/support.md "The desk"). The queue of open
 * conversations beside the one chosen (/desk/conversations/{id}) with its customer, order and
 * payment, and the agent's reply, refund and close. Only the edge decides who is an agent: a
 * customer's session is answered 403 and sees whose page this is; a visitor is asked to log in.
 */
import { isSignInRequired } from '@tiffin/api-client';
import { getCurrentUser, subscribeCurrentUser, type RemoteAppProps } from '@tiffin/contract';
import { MfeRoot } from '@tiffin/design-system';
import { useState, useSyncExternalStore } from 'react';
import { ConversationPanel } from './ConversationPanel';
import { isNotAnAgent } from './desk';
import { Queue } from './Queue';
import { DeskRefusal } from './Refusal';
import './desk.css';

function Desk({ conversationId }: { conversationId: string | undefined }) {
  // Each action on a conversation may take it off the queue or change it there.
  const [queueVersion, setQueueVersion] = useState(0);
  const [refusal, setRefusal] = useState<unknown>(null);
  if (refusal && (isNotAnAgent(refusal) || isSignInRequired(refusal))) return <DeskRefusal error={refusal} />;
  return (
    <>
      <h1 className="desk-title">Support desk</h1>
      <div className="desk-layout">
        <Queue version={queueVersion} selectedId={conversationId} onRefused={setRefusal} />
        {conversationId ? (
          <ConversationPanel key={conversationId} conversationId={conversationId} onChanged={() => setQueueVersion((v) => v + 1)} onRefused={setRefusal} />
        ) : (
          <p className="desk-muted desk-placeholder">Choose a conversation from the queue.</p>
        )}
      </div>
    </>
  );
}

export default function App({ route }: RemoteAppProps) {
  // A sign-in or sign-out on the page asks the edge again, as whoever is signed in now.
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  return (
    <MfeRoot mfe="mfe-desk" version={__MFE_VERSION__} className="desk-root">
      <Desk key={user?.customer_id ?? 'visitor'} conversationId={route.params.conversationId} />
    </MfeRoot>
  );
}
