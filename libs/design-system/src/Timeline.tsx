/**
 * Steps in the order they happened, the last one current: an order's status history, say. Each
 * step has its words and, when known, when it happened.
 */
export interface TimelineStep {
  label: string;
  /** When it happened, already formatted; left out when empty. */
  detail?: string;
}

export function Timeline({ label, steps }: { label: string; steps: TimelineStep[] }) {
  return (
    <ol className="ds-timeline" aria-label={label}>
      {steps.map((step, index) => {
        const current = index === steps.length - 1;
        return (
          <li key={`${index}-${step.label}`} className={current ? 'ds-timeline__step ds-timeline__step--current' : 'ds-timeline__step'} aria-current={current ? 'step' : undefined}>
            <span className="ds-timeline__label">{step.label}</span>
            {step.detail ? <span className="ds-timeline__detail">{step.detail}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
