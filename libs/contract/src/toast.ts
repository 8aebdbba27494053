/**
 * The toast API the shell provides. Any microfrontend calls `showToast`; the shell's toast host
 * (shell-app) listens for `toast:show` and renders it. Emitting an event instead of calling into the
 * shell keeps remotes free of any import from the shell.
 */
import { emit, type ToastRequest } from './events';

/** How long a toast stays before it hides itself, unless the caller says otherwise. */
export const TOAST_DEFAULT_DURATION_MS = 4000;

let counter = 0;

/** Shows a toast through the shell and returns its id. */
export function showToast(request: ToastRequest): string {
  counter += 1;
  const id = `toast-${Date.now().toString(36)}-${counter}`;
  emit('toast:show', { ...request, id });
  return id;
}

/**
 * How long a toast stays up: `null` means it never hides (negative duration), otherwise the delay
 * in ms (missing or non-finite durations fall back to the default).
 */
export function toastHideDelay(duration: number | undefined): number | null {
  if (duration === undefined || !Number.isFinite(duration)) return TOAST_DEFAULT_DURATION_MS;
  if (duration < 0) return null;
  return duration;
}
