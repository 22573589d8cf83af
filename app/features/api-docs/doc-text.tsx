// The API Documentation page's texts in the reader's language (docs/languages.md). The page reads
// them from the OpenAPI document, which stays English (/api/openapi.json is read by programs): a
// fixed text is a message of this area's catalog (operations.ts, document.server.ts), and a text
// built from a template is read back against the same templates here.
import { Fragment, type ReactNode } from 'react';
import { msg, type Translate } from '../../platform/i18n/messages.ts';

/**
 * A message whose placeholders are elements (code, links):
 * `say({ link: <a …/> }, (v) => t('See {link}.', v))`.
 */
export function say(parts: Record<string, ReactNode>, message: (values: Record<string, string>) => string): ReactNode {
  const values = Object.fromEntries(Object.keys(parts).map((name) => [name, `\u0001${name}\u0002`]));
  return message(values)
    .split(/\u0001(\w+)\u0002/)
    .map((piece, i) => (i % 2 ? <Fragment key={i}>{parts[piece]}</Fragment> : piece));
}

/** The document's texts built from templates (document.server.ts), with their placeholders. */
const TEMPLATES = [
  msg('List {title}'),
  msg('Create a {title} row'),
  msg('One {title} row'),
  msg('Change a {title} row (any subset of fields)'),
  msg('Delete a {title} row'),
  msg('The latest {title} row (the list’s first, with the same filters)'),
  msg('{title}: what a create sends'),
  msg('{title}: a row as the API answers it'),
  msg('The user themself, or permission: {area} ({action})'),
  msg('Permission: {area} ({action})'),
  msg('Permission: {area}'),
  msg('Rows to return (default and maximum {max})'),
  msg('The list’s {param} filter'),
  msg('Rows whose {field} is exactly this'),
  msg('at least {count} characters'),
  msg('at most {count} characters'),
  msg('from {value}'),
  msg('up to {value}'),
  msg('default {value}'),
];

/** Values that are themselves words of the document (an area, an action). */
const WORDS = new Set(['area', 'action']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PATTERNS = TEMPLATES.map((message) => {
  const names: string[] = [];
  const source = message
    .split(/(\{\w+\})/)
    .map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1];
      if (!name) return escape(piece);
      names.push(name);
      return '(.+?)';
    })
    .join('');
  return { message, names, pattern: new RegExp(`^${source}$`) };
});

/** One text of the document (a summary, who may call, a description, a rule) in the reader's words. */
export function docText(text: string, t: Translate): string {
  // The document spells some apostrophes plainly; the catalog never does.
  const typographic = text.replace(/'/g, '’');
  for (const { message, names, pattern } of PATTERNS) {
    const found = pattern.exec(typographic);
    if (!found) continue;
    const values = Object.fromEntries(
      names.map((name, i) => [name, WORDS.has(name) ? t(found[i + 1]!) : found[i + 1]!]),
    );
    const said = t(message, values);
    // In English the document's own spelling stays.
    return said === message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '') ? text : said;
  }
  return t(text);
}

/** The rules of a field ('at most 100 characters; positive'); a part that is data stays as it is. */
export function docRules(rules: string, t: Translate): string {
  return rules
    .split('; ')
    .map((part) => (part === 'positive' ? t('positive') : docText(part, t)))
    .join('; ');
}

/** A field's type ('string or null', 'integer (or null)'). */
export function docType(type: string, t: Translate): string {
  const nullable = type.endsWith(' (or null)');
  const kinds = (nullable ? type.slice(0, -' (or null)'.length) : type).split(' or ').map((kind) => t(kind));
  const joined = kinds.reduce((a, b) => t('{first} or {second}', { first: a, second: b }));
  return nullable ? t('{type} (or null)', { type: joined }) : joined;
}

/** The JSON Schema types and the page's word for an enumeration, as the Type column shows them. */
export const TYPE_WORDS = [
  msg('string'),
  msg('integer'),
  msg('number'),
  msg('boolean'),
  msg('array'),
  msg('object'),
  msg('null'),
  msg('any'),
  msg('one of'),
];

/** The actions a permission names (rule.action). */
export const ACTION_WORDS = [msg('read'), msg('create'), msg('edit'), msg('delete')];
