// Files the app writes are private (docs/security.md): DATA_DIR and BACKUP_DIR 0700, everything in
// them 0600 (0700 for directories). Each entry point (the web server, the worker, the CLI) sets
// the process umask to 077 before it writes anything, so what it and its libraries create (the
// SQLite file and its WAL, the job queue, secrets, backups, exports) is its owner's alone.
// An installation made before keeps its old modes: the web server and the worker name at start
// whatever under DATA_DIR and BACKUP_DIR still grants group or other users any access.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_UMASK = 0o077;

/** From now on this process creates files 0600 and directories 0700 (whatever mode a library asks for). */
export function usePrivateFileModes(): void {
  process.umask(PRIVATE_UMASK);
}

/**
 * Creates `dir` (with any missing parents) 0700 when it does not exist yet, whatever the umask.
 * On PostgreSQL nothing else writes there before the first backup or export, yet what reports the
 * data's disk measures it from the start. An existing directory keeps its mode (the start-up
 * warning names one that is too open). A directory that cannot be made is only a warning: the
 * app serves without it, and what needs it later says so then.
 */
export function ensurePrivateDirectory(dir: string, warn: (text: string) => void = console.warn): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch (error) {
    warn(`[files] could not create ${dir}: ${(error as Error).message}`);
    return false;
  }
}

/**
 * Takes group and other permissions away from everything under `root` (and root): for files a
 * library writes with modes of its own whatever the umask (the embedded queue's PGlite unpacks
 * its database 0666). Symbolic links are left alone.
 */
export function removeGroupAndOtherAccess(root: string): void {
  const visit = (target: string) => {
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) fs.chmodSync(target, stat.mode & 0o7700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(target)) visit(path.join(target, name));
  };
  visit(root);
}

export interface WideEntry {
  path: string;
  /** The permission bits, e.g. 0o644. */
  mode: number;
  directory: boolean;
}

/**
 * Files and directories under the roots (the roots included) that group or other users may
 * read, write or enter, in path order; symbolic links are not followed. A root that does not
 * exist yet has nothing to report.
 */
export function widePermissions(roots: readonly string[]): WideEntry[] {
  const found = new Map<string, WideEntry>();
  const visit = (target: string) => {
    if (found.has(target)) return;
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.set(target, { path: target, mode: stat.mode & 0o7777, directory: stat.isDirectory() });
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = fs.readdirSync(target);
    } catch {
      return; // not ours to read: nothing more to say about it
    }
    for (const name of names) visit(path.join(target, name));
  };
  for (const root of roots) visit(path.resolve(root));
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** The start-up warning naming the entries wider than 0700/0600 and how to fix them, or null when there are none. */
export function widePermissionsWarning(roots: readonly string[], shown = 10): string | null {
  const wide = widePermissions(roots);
  if (!wide.length) return null;
  const existing = [...new Set(roots.map((root) => path.resolve(root)))].filter((root) => fs.existsSync(root));
  // A root inside another (BACKUP_DIR under DATA_DIR) is fixed with it.
  const tops = existing.filter(
    (root) => !existing.some((other) => other !== root && root.startsWith(other + path.sep)),
  );
  const lines = wide
    .slice(0, shown)
    .map((e) => `    ${e.mode.toString(8).padStart(4, '0')} ${e.directory ? 'directory' : 'file     '} ${e.path}`);
  if (wide.length > shown) lines.push(`    … and ${wide.length - shown} more`);
  return [
    `[files] Warning: ${wide.length === 1 ? 'this path' : `these ${wide.length} paths`} under DATA_DIR or BACKUP_DIR ${wide.length === 1 ? 'is' : 'are'} open to other users of this machine (the database, backups and secrets live there):`,
    ...lines,
    `  Fix: chmod -R go-rwx ${tops.map(shellQuote).join(' ')}   (directories 0700, files 0600; new ones are created so)`,
  ].join('\n');
}

/** Prints the warning at start when anything under the roots is wider than 0700/0600. */
export function warnAboutWidePermissions(roots: readonly string[], warn: (text: string) => void = console.warn): void {
  try {
    const text = widePermissionsWarning(roots);
    if (text) warn(text);
  } catch (error) {
    warn(`[files] could not check the permissions under DATA_DIR and BACKUP_DIR: ${(error as Error).message}`);
  }
}

const shellQuote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
