// Replacing a file so that a crash never leaves half of it: the new content is written to a
// temporary file beside it, flushed to disk, then renamed over the old one (an atomic step).
import fs from 'node:fs';

/** Flushes `temp` to disk and renames it to `file`. */
export function commitFile(temp: string, file: string): void {
  const fd = fs.openSync(temp, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}
