import type { ReactNode } from 'react';

/**
 * The root element of every microfrontend's exposed module. It names the owning microfrontend
 * and the version actually running (`data-mfe-version`), which is how operators and end-to-end
 * tests see which published build the shell composed.
 */
export function MfeRoot({ mfe, version, className, children }: { mfe: string; version: string; className?: string; children: ReactNode }) {
  return (
    <div className={className} data-mfe={mfe} data-mfe-version={version}>
      {children}
    </div>
  );
}
