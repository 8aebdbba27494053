/**
 * Runtime composition: turns "render mfe-cart's HeaderCart" into a loaded module.
 *
 * The manifest is read once (from the page itself, where the edge writes the live one, else
 * fetched) and every entry is registered with the Module Federation runtime
 * (`registerRemotes`); modules are then loaded by `<federation name>/<expose>` (`loadRemote`).
 * A load that takes longer than REMOTE_LOAD_TIMEOUT_MS fails, so a hanging server cannot keep a
 * page in its loading state. A retry re-reads the manifest (the team may have published a fix)
 * and re-registers that remote with `force`, which drops the runtime's cached failure.
 *
 * A load in flight or done is shared: `preload` starts the route's remote before React renders
 * anything, and the boundary that mounts it a moment later joins that same load instead of
 * starting another. A failed load is forgotten, so the next attempt (Retry) starts afresh.
 *
 * `preload` first fetches the remote's entry into the HTTP cache (published files are immutable)
 * and only then lets the runtime add its script tag, which reads it from there. A script added
 * before the page's load event holds that event until it answers, so a remote that never answers
 * would keep the page "loading" for good; a fetch does not hold it. A load that starts while the
 * entry is still being fetched waits for that fetch rather than downloading the entry twice.
 */
import type { MfeId, MfeManifest } from '@tiffin/contract';
import { fetchManifest as defaultFetchManifest, parseManifest } from './manifest';

export const REMOTE_LOAD_TIMEOUT_MS = 8000;

export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';
  constructor(
    readonly mfe: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${mfe}: ${message}`, options);
  }
}

interface RemoteRegistration {
  name: string;
  entry: string;
}

export interface FederationRuntime {
  registerRemotes(remotes: RemoteRegistration[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
}

interface RegistryOptions {
  runtime: FederationRuntime;
  fetchManifest?: () => Promise<MfeManifest>;
  /**
   * The manifest the page was served with (unchecked), used instead of a fetch for the first
   * load; a Retry always fetches, in case a fix has been published since.
   */
  initialManifest?: () => unknown;
  /** Downloads a remote's entry into the HTTP cache (preload); a fetch by default. */
  warmEntry?: (url: string) => Promise<unknown>;
  timeoutMs?: number;
}

async function fetchIntoCache(url: string): Promise<void> {
  const response = await globalThis.fetch(url, { credentials: 'same-origin', priority: 'high' } as RequestInit);
  // Read to the end: only a whole body is kept in the cache.
  await response.blob();
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export class RemoteRegistry {
  private manifest: Promise<MfeManifest> | null = null;
  /** Loads in flight or done, by `<mfe>/<expose>`; a failure is dropped once it settles. */
  private readonly loads = new Map<string, Promise<unknown>>();
  /** Entry fetches started by `preload`, by remote; they never reject. */
  private readonly warming = new Map<MfeId, Promise<void>>();
  private readonly fetchManifest: () => Promise<MfeManifest>;
  private readonly timeoutMs: number;

  constructor(private readonly options: RegistryOptions) {
    this.fetchManifest = options.fetchManifest ?? (() => defaultFetchManifest());
    this.timeoutMs = options.timeoutMs ?? REMOTE_LOAD_TIMEOUT_MS;
  }

  /** The page's own manifest when it carries a well-formed one, else a fetch. */
  private firstManifest(): Promise<MfeManifest> {
    const carried = this.options.initialManifest?.();
    if (carried !== undefined) {
      try {
        return Promise.resolve(parseManifest(carried));
      } catch {
        // Not an object: ask the edge as a page without one would.
      }
    }
    return this.fetchManifest();
  }

  /** Reads and registers the manifest once; a failed fetch is forgotten so Retry fetches again. */
  private ensureManifest(refresh: boolean): Promise<MfeManifest> {
    if (!this.manifest || refresh) {
      const first = !this.manifest;
      const loading = (refresh ? this.fetchManifest() : this.firstManifest()).then((manifest) => {
        if (first) {
          this.options.runtime.registerRemotes(Object.values(manifest).map(({ name, entry }) => ({ name, entry })));
        }
        return manifest;
      });
      this.manifest = loading;
      loading.catch(() => {
        if (this.manifest === loading) this.manifest = null;
      });
    }
    return this.manifest;
  }

  /**
   * Starts loading `mfe`'s `expose` now, for a boundary that will ask for it soon. A failure is
   * not reported here: the boundary's own `load` joins this one and shows it.
   */
  preload(mfe: MfeId, expose: string): void {
    if (this.loads.has(`${mfe}/${expose}`) || this.warming.has(mfe)) return;
    const warmEntry = this.options.warmEntry ?? fetchIntoCache;
    const warm = this.ensureManifest(false)
      .then((manifest) => (manifest[mfe] ? warmEntry(manifest[mfe].entry) : undefined))
      .then(
        () => undefined,
        () => undefined,
      );
    this.warming.set(mfe, warm);
    void warm.then(() => this.load(mfe, expose).catch(() => {}));
  }

  load<T>(mfe: MfeId, expose: string, { retry = false }: { retry?: boolean } = {}): Promise<T> {
    const key = `${mfe}/${expose}`;
    const shared = this.loads.get(key);
    if (shared && !retry) return shared as Promise<T>;
    const loading = this.loadFresh<T>(mfe, expose, retry);
    this.loads.set(key, loading);
    loading.catch(() => {
      if (this.loads.get(key) === loading) this.loads.delete(key);
    });
    return loading;
  }

  private async loadFresh<T>(mfe: MfeId, expose: string, retry: boolean): Promise<T> {
    let manifest: MfeManifest;
    try {
      manifest = await this.ensureManifest(retry);
    } catch (cause) {
      throw new RemoteLoadError(mfe, 'the microfrontend manifest could not be loaded', { cause });
    }
    const entry = manifest[mfe];
    if (!entry) throw new RemoteLoadError(mfe, 'not listed in mfe-manifest.json');
    if (retry) this.options.runtime.registerRemotes([{ name: entry.name, entry: entry.entry }], { force: true });

    const id = `${entry.name}/${expose}`;
    const warming = retry ? undefined : this.warming.get(mfe);
    let loaded: T | null;
    try {
      loaded = await withTimeout(
        (async () => {
          await warming;
          return this.options.runtime.loadRemote<T>(id);
        })(),
        this.timeoutMs,
        () => new RemoteLoadError(mfe, `loading ${id} timed out after ${this.timeoutMs} ms`),
      );
    } catch (cause) {
      if (cause instanceof RemoteLoadError) throw cause;
      throw new RemoteLoadError(mfe, `loading ${id} failed`, { cause });
    }
    if (!loaded) throw new RemoteLoadError(mfe, `${id} is not exposed`);
    return loaded;
  }
}
