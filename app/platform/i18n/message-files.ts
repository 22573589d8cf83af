// The page's messages travel as files of their own, one per language and area, named by their
// content's hash and cached for good (docs/languages.md): a document only names them. The
// server registers every file's messages at start; in the browser each file registers itself
// as a classic script before the app's modules run, and a file a later navigation needs is
// loaded before that page renders. Isomorphic.
import type { CompiledMessages } from './messages.ts';

/** A message file as a document names it: its registry key ('es/finance') and its URL. */
export interface MessageFile {
  key: string;
  src: string;
}

/** Where the files put their messages (the global a file's script assigns into). */
export const REGISTRY_GLOBAL = '__finhubMessages';

type Registry = Record<string, CompiledMessages>;
const holder = globalThis as unknown as Record<typeof REGISTRY_GLOBAL, Registry | undefined>;
const registry: Registry = (holder[REGISTRY_GLOBAL] ??= {});

export function registerMessages(key: string, messages: CompiledMessages): void {
  registry[key] = messages;
}

const merged = new Map<string, CompiledMessages>();
const NONE: CompiledMessages = {};

/**
 * The messages of these files, merged; the same object for the same files, so translators built
 * on it are built once. A file not registered (yet) adds nothing.
 */
export function messagesOf(files: readonly MessageFile[] | null | undefined): CompiledMessages {
  if (!files?.length) return NONE;
  const id = files.map((file) => file.key).join('|');
  const known = merged.get(id);
  if (known) return known;
  const messages = Object.assign({}, ...files.map((file) => registry[file.key] ?? NONE)) as CompiledMessages;
  if (files.every((file) => file.key in registry)) merged.set(id, messages);
  return messages;
}

/** Loads the files not registered yet (in the browser, for a page of another area or language). */
export async function loadMessageFiles(files: readonly MessageFile[] | null | undefined): Promise<void> {
  if (typeof document === 'undefined') return;
  const missing = (files ?? []).filter((file) => !(file.key in registry));
  await Promise.all(
    missing.map(
      (file) =>
        new Promise<void>((resolve, reject) => {
          const script = document.createElement('script');
          script.src = file.src;
          script.onload = () => resolve();
          script.onerror = () => reject(new Error(`Could not load ${file.src}`));
          document.head.append(script);
        }),
    ),
  );
}
