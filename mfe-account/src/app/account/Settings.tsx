/**
 * Settings: SMS preferences. Order SMS is shown on and cannot be turned off;
 * recommendations and reminders toggle at once and are saved with
 * POST profile/update-notification-preference; a failed save flips the toggle back and says
 * 'Unable to save preference. Please try again'. Also the way to the delete-account subtab.
 */
import { edge } from '@tiffin/api-client';
import { getCurrentUser, setCurrentUser, showToast, type SmsPreferences } from '@tiffin/contract';
import { Link } from '@tiffin/design-system';
import { useState } from 'react';
import { useCurrentUser } from '../common/user';

const PREFERENCE_SAVE_FAILED = 'Unable to save preference. Please try again';

type Optional = Exclude<keyof SmsPreferences, 'orders'>;

function Toggle({ label, description, checked, disabled, onChange }: { label: string; description: string; checked: boolean; disabled?: boolean; onChange?: (next: boolean) => void }) {
  return (
    <div className="acct-pref">
      <div>
        <p className="acct-pref__label">{label}</p>
        <p className="acct-muted">{description}</p>
      </div>
      <button
        type="button"
        role="switch"
        aria-label={label}
        aria-checked={checked}
        disabled={disabled}
        className={checked ? 'acct-toggle acct-toggle--on' : 'acct-toggle'}
        onClick={() => onChange?.(!checked)}
      >
        <span className="acct-toggle__knob" />
      </button>
    </div>
  );
}

export function Settings() {
  const user = useCurrentUser();
  const saved = user?.preferences.sms ?? { orders: true, recommendations: true, reminders: true };
  const [shown, setShown] = useState<SmsPreferences>(saved);

  const change = async (kind: Optional, value: boolean) => {
    setShown((s) => ({ ...s, [kind]: value }));
    try {
      const reply = await edge.updateSmsPreferences({ [kind]: value });
      setShown(reply.preferences.sms);
      const current = getCurrentUser();
      if (current) setCurrentUser({ ...current, preferences: { ...current.preferences, sms: reply.preferences.sms } });
    } catch {
      setShown((s) => ({ ...s, [kind]: !value }));
      showToast({ text: PREFERENCE_SAVE_FAILED, status: 'error' });
    }
  };

  return (
    <div className="acct-settings">
      <section className="acct-card" aria-label="SMS Preferences">
        <h3>SMS Preferences</h3>
        <Toggle label="Order related SMS" description="Order related SMS cannot be disabled." checked disabled />
        <Toggle
          label="Recommendations & Promotions"
          description="Keep this on to receive offer recommendations & timely reminders based on your interests."
          checked={shown.recommendations}
          onChange={(next) => void change('recommendations', next)}
        />
        <Toggle label="Reminders" description="Reminders about your cart and orders." checked={shown.reminders} onChange={(next) => void change('reminders', next)} />
      </section>
      <section className="acct-card" aria-label="Account">
        <h3>Account</h3>
        <Link href="/my-account/settings/delete-account">Delete account</Link>
      </section>
    </div>
  );
}
