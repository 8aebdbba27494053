/**
 * Idempotency keys for the calls that move money or start something once (help on an order, an
 * agent's refund): one key per submission. The same body sent again (pressed again after an error
 * or no answer) carries the key it was first sent with, so the server acts on it once; a changed
 * body is a new submission with a fresh key.
 */
export function submissionKeys(newKey: () => string = () => globalThis.crypto.randomUUID()): (body: object) => string {
  let last: { signature: string; key: string } | null = null;
  return (body) => {
    const signature = JSON.stringify(body);
    if (!last || last.signature !== signature) last = { signature, key: newKey() };
    return last.key;
  };
}
