// Helpers shared by publish-mfe.mjs and publish-shell.mjs: argument parsing, atomic file and
// directory replacement, and a lock around read-modify-write of mfe-manifest.json.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_STATIC_DIR = join(REPO_ROOT, 'dist', 'web');

export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** A unique sibling path, so a rename into place never crosses file systems. */
function sibling(path, tag) {
  return `${path}.${tag}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes a file so readers see the old or the new content, never a partial one. */
export function writeFileAtomic(path, content) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = sibling(path, 'tmp');
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** Copies a file atomically (temp file + rename). */
export function copyFileAtomic(from, to) {
  writeFileAtomic(to, readFileSync(from));
}

function listFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full, base) : [relative(base, full)];
  });
}

export function sameTree(a, b) {
  const filesA = listFiles(a).sort();
  const filesB = listFiles(b).sort();
  if (filesA.join('\n') !== filesB.join('\n')) return false;
  return filesA.every((file) => readFileSync(join(a, file)).equals(readFileSync(join(b, file))));
}

/**
 * Puts a copy of `from` at `to`: copied into a temp sibling first, then renamed into place, so
 * the edge never serves a half-copied folder. Replacing an existing folder takes two renames.
 */
export function replaceDir(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  const tmp = sibling(to, 'tmp');
  cpSync(from, tmp, { recursive: true });
  if (existsSync(to)) {
    const old = sibling(to, 'old');
    renameSync(to, old);
    renameSync(tmp, to);
    rmSync(old, { recursive: true, force: true });
  } else {
    renameSync(tmp, to);
  }
}

export { listFiles };

const LOCK_STALE_MS = 30_000;

/** Runs `fn` holding `<file>.lock`, so concurrent publishers never lose each other's entries. */
export async function withLock(file, fn) {
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
      } catch {
        // the holder released it meanwhile
      }
      if (attempt > 300) fail(`could not lock ${file} (held by another publish?)`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
