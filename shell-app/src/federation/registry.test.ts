import type { MfeManifest } from '@tiffin/contract';
import { describe, expect, it, vi } from 'vitest';
import { parseManifest } from './manifest';
import { REMOTE_LOAD_TIMEOUT_MS, RemoteLoadError, RemoteRegistry, type FederationRuntime } from './registry';

const manifest: MfeManifest = {
  'mfe-cart': { name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.0/remoteEntry.js', version: '0.1.0' },
  'mfe-account': { name: 'mfe_account', entry: '/mfe/mfe-account/0.1.0/remoteEntry.js', version: '0.1.0' },
};

function fakeRuntime(load: (id: string) => Promise<unknown>) {
  const registered: Array<{ remotes: Array<{ name: string; entry: string }>; force?: boolean }> = [];
  const runtime: FederationRuntime = {
    registerRemotes: (remotes, options) => registered.push({ remotes, force: options?.force }),
    loadRemote: <T,>(id: string) => load(id) as Promise<T | null>,
  };
  return { runtime, registered };
}

describe('RemoteRegistry', () => {
  it('registers every manifest entry once, then loads "<name>/<expose>"', async () => {
    const { runtime, registered } = fakeRuntime(async (id) => ({ default: id }));
    const fetchManifest = vi.fn(async () => manifest);
    const registry = new RemoteRegistry({ runtime, fetchManifest });

    await expect(registry.load('mfe-cart', 'App')).resolves.toEqual({ default: 'mfe_cart/App' });
    await expect(registry.load('mfe-account', 'AuthSidebar')).resolves.toEqual({ default: 'mfe_account/AuthSidebar' });

    expect(fetchManifest).toHaveBeenCalledOnce();
    expect(registered).toEqual([
      {
        remotes: [
          { name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.0/remoteEntry.js' },
          { name: 'mfe_account', entry: '/mfe/mfe-account/0.1.0/remoteEntry.js' },
        ],
        force: undefined,
      },
    ]);
  });

  it("starts from the page's own manifest without fetching one, and fetches on retry", async () => {
    let attempt = 0;
    const { runtime, registered } = fakeRuntime(async (id) => {
      attempt += 1;
      if (attempt === 1) throw new Error('404');
      return { default: id };
    });
    const fetchManifest = vi.fn(async () => manifest);
    const carried = { 'mfe-cart': { name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.0/remoteEntry.js', version: '0.1.0' } };
    const registry = new RemoteRegistry({ runtime, fetchManifest, initialManifest: () => carried });

    await expect(registry.load('mfe-cart', 'App')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(fetchManifest).not.toHaveBeenCalled();
    expect(registered).toEqual([{ remotes: [{ name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.0/remoteEntry.js' }], force: undefined }]);

    await expect(registry.load('mfe-cart', 'App', { retry: true })).resolves.toEqual({ default: 'mfe_cart/App' });
    expect(fetchManifest).toHaveBeenCalledOnce();
  });

  it('fetches the manifest when the page carries none or a broken one', async () => {
    for (const carried of [undefined, 'not a manifest', ['mfe-cart']]) {
      const { runtime } = fakeRuntime(async (id) => ({ default: id }));
      const fetchManifest = vi.fn(async () => manifest);
      const registry = new RemoteRegistry({ runtime, fetchManifest, initialManifest: () => carried });

      await expect(registry.load('mfe-account', 'App')).resolves.toEqual({ default: 'mfe_account/App' });
      expect(fetchManifest).toHaveBeenCalledOnce();
    }
  });

  it('fails a load that takes longer than the timeout', async () => {
    expect(REMOTE_LOAD_TIMEOUT_MS).toBe(8000);
    const { runtime } = fakeRuntime(() => new Promise(() => {}));
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest, timeoutMs: 5 });

    await expect(registry.load('mfe-cart', 'App')).rejects.toThrow(/timed out/);
  });

  it('wraps runtime failures and names the remote', async () => {
    const { runtime } = fakeRuntime(async () => {
      throw new Error('ScriptNetworkError');
    });
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest });

    const error = await registry.load('mfe-cart', 'App').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteLoadError);
    expect((error as RemoteLoadError).mfe).toBe('mfe-cart');
  });

  it('rejects remotes missing from the manifest', async () => {
    const { runtime } = fakeRuntime(async () => ({}));
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest });
    await expect(registry.load('mfe-checkout', 'App')).rejects.toThrow(/not listed/);
  });

  it('on retry re-reads the manifest and force-registers the remote to drop the cached failure', async () => {
    let attempt = 0;
    const { runtime, registered } = fakeRuntime(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('404');
      return { default: 'ok' };
    });
    const fixed: MfeManifest = { ...manifest, 'mfe-cart': { name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.1/remoteEntry.js', version: '0.1.1' } };
    const fetchManifest = vi.fn().mockResolvedValueOnce(manifest).mockResolvedValueOnce(fixed);
    const registry = new RemoteRegistry({ runtime, fetchManifest });

    await expect(registry.load('mfe-cart', 'App')).rejects.toBeInstanceOf(RemoteLoadError);
    await expect(registry.load('mfe-cart', 'App', { retry: true })).resolves.toEqual({ default: 'ok' });

    expect(registered.at(-1)).toEqual({ remotes: [{ name: 'mfe_cart', entry: '/mfe/mfe-cart/0.1.1/remoteEntry.js' }], force: true });
  });

  it('fetches the manifest again after a failed fetch', async () => {
    const { runtime } = fakeRuntime(async () => ({ default: 'ok' }));
    const fetchManifest = vi.fn().mockRejectedValueOnce(new Error('503')).mockResolvedValueOnce(manifest);
    const registry = new RemoteRegistry({ runtime, fetchManifest });

    await expect(registry.load('mfe-cart', 'App')).rejects.toThrow(/manifest could not be loaded/);
    await expect(registry.load('mfe-cart', 'App')).resolves.toEqual({ default: 'ok' });
  });
});

describe('parseManifest', () => {
  it('keeps well-formed entries and drops broken ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(parseManifest({ ...manifest, broken: { name: 'x' } })).toEqual(manifest);
    expect(warn).toHaveBeenCalledOnce();
    expect(() => parseManifest([])).toThrow();
  });
});

describe('RemoteRegistry preloading', () => {
  it('fetches the entry first, then loads; the boundary that follows joins that one load', async () => {
    const load = vi.fn(async (id: string) => ({ default: id }));
    const { runtime } = fakeRuntime(load);
    const warmed: string[] = [];
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest, warmEntry: async (url) => void warmed.push(url) });

    registry.preload('mfe-cart', 'App');
    await expect(registry.load('mfe-cart', 'App')).resolves.toEqual({ default: 'mfe_cart/App' });
    await new Promise((r) => setTimeout(r, 0));

    expect(warmed).toEqual(['/mfe/mfe-cart/0.1.0/remoteEntry.js']);
    expect(load).toHaveBeenCalledOnce();
  });

  it('an entry that never arrives fails the boundary within the timeout, and Retry loads afresh', async () => {
    const { runtime } = fakeRuntime(async () => ({ default: 'ok' }));
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest, warmEntry: () => new Promise(() => {}), timeoutMs: 5 });

    registry.preload('mfe-cart', 'App');
    await expect(registry.load('mfe-cart', 'App')).rejects.toThrow(/timed out/);
    await expect(registry.load('mfe-cart', 'App', { retry: true })).resolves.toEqual({ default: 'ok' });
  });

  it('a failed entry fetch still lets the runtime try (and report) the load itself', async () => {
    const { runtime } = fakeRuntime(async () => {
      throw new Error('ScriptNetworkError');
    });
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest, warmEntry: async () => Promise.reject(new Error('offline')) });

    registry.preload('mfe-cart', 'App');
    await expect(registry.load('mfe-cart', 'App')).rejects.toBeInstanceOf(RemoteLoadError);
  });

  it('a failure is forgotten: the next load tries again', async () => {
    let attempt = 0;
    const { runtime } = fakeRuntime(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('404');
      return { default: 'ok' };
    });
    const registry = new RemoteRegistry({ runtime, fetchManifest: async () => manifest });

    await expect(registry.load('mfe-cart', 'App')).rejects.toBeInstanceOf(RemoteLoadError);
    await expect(registry.load('mfe-cart', 'App')).resolves.toEqual({ default: 'ok' });
  });
});
