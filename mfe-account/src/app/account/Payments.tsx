/**
 * Payments: saved cards, UPI ids and linked wallets. The edge has no saved
 * instruments yet (they arrive with the payments issue), so each list shows its empty state.
 */
const GROUPS = [
  { title: 'Saved Cards', empty: 'You have no saved cards.' },
  { title: 'UPI', empty: 'You have no saved UPI ids.' },
  { title: 'Wallets', empty: 'You have no linked wallets.' },
] as const;

export function Payments() {
  return (
    <div className="acct-payments">
      {GROUPS.map((group) => (
        <section key={group.title} className="acct-card" aria-label={group.title}>
          <h3>{group.title}</h3>
          <p className="acct-muted">{group.empty}</p>
        </section>
      ))}
    </div>
  );
}
