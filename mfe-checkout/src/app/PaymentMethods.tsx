/**
 * Payment options (GET /api/payment/get-methods). Groups are matched case-insensitively against the
 * spec's known group names and unknown groups are dropped.
 */
import { edge } from '@tiffin/api-client';
import type { PaymentMethodsResponse } from '@tiffin/contract';
import { AsyncContent, useAsync } from '@tiffin/design-system';

const KNOWN_PAYMENT_GROUPS = [
  'WALLET_WEB',
  'WALLET',
  'CARD',
  'NETBANKING',
  'COD',
  'PREFERRED',
  'PAY_LATER',
  'FOOD_CARD',
  'UPI',
  'TIFFIN_INSTRUMENTS',
] as const;

export function knownGroups(response: PaymentMethodsResponse): PaymentMethodsResponse['payment_groups'] {
  return response.payment_groups.filter((group) => (KNOWN_PAYMENT_GROUPS as readonly string[]).includes(group.group_name.toUpperCase()));
}

export function PaymentMethods() {
  const state = useAsync((signal) => edge.paymentMethods({ signal }), []);
  return (
    <AsyncContent state={state}>
      {(data) => (
        <div className="chk-methods">
          {knownGroups(data).map((group) => (
            <section key={group.group_name} className="chk-methods__group" aria-label={group.group_name}>
              <h3 className="chk-methods__title">{group.group_name}</h3>
              <ul className="chk-methods__list">
                {group.payment_methods.map((method) => (
                  <li key={method.payment_code} className={method.enabled ? 'chk-method' : 'chk-method chk-method--disabled'}>
                    {method.name}
                    {method.enabled ? null : <span className="chk-method__note"> (unavailable)</span>}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </AsyncContent>
  );
}
