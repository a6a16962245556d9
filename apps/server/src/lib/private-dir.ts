/**
 * DATA_DIR is private to the user that runs the server (decision 141): folders 0700, files 0600.
 * `process.umask(0o077)` in main.ts and cli.ts covers whatever they and PGlite create from then on;
 * `makeDataDirPrivate` tightens what an earlier version (or a loose umask) left behind, at every start.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Group and other permission bits: any of them set means another local user may read, write or enter. */
const LOOSE = 0o077;

export class DataDirOwnerError extends Error {}

const myUid = () => process.getuid?.() ?? -1;

/**
 * What is wrong with `dir` as a private folder of this user (a real folder it owns, no group or other
 * bits), or null when nothing is. `label` names it in the message.
 */
export function privateDirProblem(dir: string, label: string): string | null {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return null;
  if (!stat.isDirectory()) return `${label} is not a folder (a symbolic link or a file is there)`;
  if (stat.uid !== myUid()) return `${label} belongs to uid ${stat.uid}, not to this user (uid ${myUid()})`;
  if (stat.mode & LOOSE)
    return `${label} has mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}; other users may use it (it must be 0700)`;
  return null;
}

export type Tightened = { tightened: string[]; notOwned: string[] };

/**
 * Creates DATA_DIR 0700, or refuses one another user owns (they could replace anything in it), then
 * takes group and other bits off every folder and file inside (symbolic links are not followed).
 * Returns the paths it changed and those it could not (owned by someone else).
 */
export function makeDataDirPrivate(dataDir: string): Tightened {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const root = fs.statSync(dataDir);
  if (root.uid !== myUid()) {
    throw new DataDirOwnerError(
      `DATA_DIR ${dataDir} belongs to uid ${root.uid}, not to this user (uid ${myUid()}); run Tunedrop as its owner, or chown the folder to this user`,
    );
  }
  const result: Tightened = { tightened: [], notOwned: [] };
  const tighten = (file: string, stat: fs.Stats) => {
    if (!(stat.mode & LOOSE)) return;
    if (stat.uid !== myUid()) {
      result.notOwned.push(file);
      return;
    }
    fs.chmodSync(file, stat.isDirectory() ? 0o700 : stat.mode & 0o700);
    result.tightened.push(file);
  };
  tighten(dataDir, root);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (!stat) continue; // removed while we walked
      tighten(file, stat);
      if (stat.isDirectory()) walk(file);
    }
  };
  walk(dataDir);
  return result;
}

/** One line for the log when makeDataDirPrivate changed anything, null otherwise. */
export function describeTightened(dataDir: string, result: Tightened): string | null {
  const parts: string[] = [];
  if (result.tightened.length > 0) {
    parts.push(
      `DATA_DIR ${dataDir}: ${result.tightened.length} folder(s) and file(s) could be read or written by other users; made private (folders 0700, files 0600)`,
    );
  }
  if (result.notOwned.length > 0) {
    parts.push(
      `${result.notOwned.length} entry(ies) belong to another user and were left as they are (for example ${result.notOwned[0]}); remove them`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

const privateRoots = new Set<string>();

const isUnderPrivateRoot = (file: fs.PathLike) => {
  const resolved = path.resolve(String(file));
  for (const root of privateRoots) {
    if (resolved === root || resolved.startsWith(root + path.sep)) return true;
  }
  return false;
};

const withoutLooseBits = (mode: fs.Mode) =>
  (typeof mode === 'string' ? Number.parseInt(mode, 8) : mode) & ~LOOSE;

/**
 * Keeps what PGlite creates under `dir` private. Its Node file-system layer (Emscripten's NODEFS)
 * chmods every file it creates to the mode the WASM Postgres asks for, 0666, after creating it, so the
 * umask never applies (968 of 1,245 files of a fresh database were 0666), and makes its folders with
 * the mode it asks for (0777 less the umask). PGlite offers no option for this, so `fs.chmodSync` and
 * `fs.mkdirSync` are wrapped once per process to drop group and other bits for paths under the
 * registered folders; every other caller is left exactly as it was.
 */
export function keepPrivateUnder(dir: string): void {
  if (privateRoots.size === 0) {
    const chmod = fs.chmodSync;
    const mkdir = fs.mkdirSync;
    fs.chmodSync = (file: fs.PathLike, mode: fs.Mode) =>
      chmod(file, isUnderPrivateRoot(file) ? withoutLooseBits(mode) : mode);
    fs.mkdirSync = ((file: fs.PathLike, options?: fs.Mode | fs.MakeDirectoryOptions | null) => {
      if (!isUnderPrivateRoot(file)) return mkdir(file, options);
      if (options !== null && typeof options === 'object') {
        return mkdir(file, { ...options, mode: withoutLooseBits(options.mode ?? 0o777) });
      }
      return mkdir(file, withoutLooseBits(options ?? 0o777));
    }) as typeof fs.mkdirSync;
  }
  privateRoots.add(path.resolve(dir));
}
