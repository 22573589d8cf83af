// Which messages the code uses, found in its source (docs/languages.md): the English literal of
// every `t('…')` and `msg('…')`, by the catalog area of the file it is in. Read by the catalog
// check and the pseudo-locale; not part of the app.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const CALL = /\b(?:t|msg)\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`)/g;
const DYNAMIC = /\b(?:t|msg)\(\s*`[^`]*\$\{/;
/** A file shown on every page whatever its folder (the gear, the bell) says so in a comment. */
const AREA_NOTE = /^\/\/ i18n-area: ([a-z-]+)$/m;

export interface MessageUse {
  message: string;
  file: string;
}

/** Comments name messages as examples; only code counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function unescape(literal: string): string {
  return literal.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The catalog area of a source file: its feature folder, else the shell's. */
export function areaOf(appDir: string, file: string, text: string): string {
  const note = AREA_NOTE.exec(text);
  if (note) return note[1]!;
  const parts = relative(appDir, file).split(sep);
  return parts[0] === 'features' && parts.length > 2 ? parts[1]! : 'shell';
}

export interface Usage {
  byArea: Map<string, Map<string, string>>;
  /** `t(`…${x}…`)`: a message built at run time cannot be in a catalog. */
  dynamic: string[];
}

export function findMessageUsage(appDir: string): Usage {
  const byArea = new Map<string, Map<string, string>>();
  const dynamic: string[] = [];
  for (const file of sourceFiles(appDir)) {
    const source = readFileSync(file, 'utf8');
    const text = withoutComments(source);
    if (DYNAMIC.test(text)) dynamic.push(relative(appDir, file));
    const area = areaOf(appDir, file, source);
    for (const match of text.matchAll(CALL)) {
      const message = unescape(match[1] ?? match[2] ?? match[3] ?? '');
      if (!byArea.has(area)) byArea.set(area, new Map());
      const messages = byArea.get(area)!;
      if (!messages.has(message)) messages.set(message, relative(appDir, file));
    }
  }
  return { byArea, dynamic };
}
