// The permission check of DATA_DIR and BACKUP_DIR, on real files in a temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/client.ts';
import { removeGroupAndOtherAccess, widePermissions, widePermissionsWarning } from './private-files.server.ts';

const modeOf = (target: string) => fs.lstatSync(target).mode & 0o777;

describe('private files', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    // A usual shell's umask, so the files below get the modes they are given.
    umask = process.umask(0o022);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-modes-'));
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** DATA_DIR as an older version left it: 0755 with a 0644 database, a 0666 queue file, and backups. */
  function olderInstallation() {
    const data = path.join(root, 'data');
    const dir = (relative: string, mode: number) => {
      fs.mkdirSync(path.join(data, relative), { recursive: true });
      fs.chmodSync(path.join(data, relative), mode);
    };
    const file = (relative: string, mode: number) => {
      fs.writeFileSync(path.join(data, relative), '');
      fs.chmodSync(path.join(data, relative), mode);
    };
    dir('.', 0o755);
    dir('queue', 0o755);
    dir('queue/base', 0o755);
    dir('backups', 0o700);
    file('finhub.db', 0o644);
    file('finhub.db-wal', 0o644);
    file('secrets.json', 0o600);
    file('queue/base/1259', 0o666);
    file('backups/backup-1.json.gz', 0o640);
    file('backups/backup-2.json.gz', 0o600);
    fs.symlinkSync('/etc/passwd', path.join(data, 'link'));
    return data;
  }

  it('finds every file and directory that group or other users may use, and nothing private', () => {
    const data = olderInstallation();
    const found = widePermissions([data, path.join(data, 'backups')]).map((e) => [
      path.relative(root, e.path),
      e.mode.toString(8),
      e.directory,
    ]);
    expect(found).toEqual([
      ['data', '755', true],
      ['data/backups/backup-1.json.gz', '640', false],
      ['data/finhub.db', '644', false],
      ['data/finhub.db-wal', '644', false],
      ['data/queue', '755', true],
      ['data/queue/base', '755', true],
      ['data/queue/base/1259', '666', false],
    ]);
    expect(widePermissions([path.join(root, 'missing')])).toEqual([]);
  });

  it('the warning names them with their modes and says how to fix it, once per root', () => {
    const data = olderInstallation();
    const backups = path.join(root, 'elsewhere');
    fs.mkdirSync(backups, { mode: 0o750 });
    const text = widePermissionsWarning([data, path.join(data, 'backups'), backups], 3)!;
    expect(text).toContain('these 8 paths under DATA_DIR or BACKUP_DIR are open to other users of this machine');
    expect(text).toContain(`0755 directory ${data}\n`);
    expect(text).toContain(`0640 file      ${path.join(data, 'backups', 'backup-1.json.gz')}`);
    expect(text).toContain('… and 5 more');
    expect(text).toContain(`Fix: chmod -R go-rwx ${data} ${backups}   (directories 0700, files 0600`);
    removeGroupAndOtherAccess(data);
    removeGroupAndOtherAccess(backups);
    expect(widePermissionsWarning([data, backups])).toBeNull();
    expect(modeOf(data)).toBe(0o700);
    expect(modeOf(path.join(data, 'finhub.db'))).toBe(0o600);
    expect(modeOf(path.join(data, 'queue', 'base', '1259'))).toBe(0o600);
    // The link is not followed (nor changed).
    expect(fs.readlinkSync(path.join(data, 'link'))).toBe('/etc/passwd');
  });

  it('the database creates DATA_DIR 0700 whatever the umask', async () => {
    const dir = path.join(root, 'new', 'data');
    const handle = createDatabase({ dataDir: dir });
    await handle.close();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.dirname(dir))).toBe(0o700);
  });
});
