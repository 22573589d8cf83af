// One error type for the domain, mapped once per entry point (HTTP, screens, CLI, worker).
import { constraintViolation } from '../../db/dialect.ts';
import type { FieldError } from './lib/field-error.ts';
import type { MessageValues } from './i18n/messages.ts';
import { readerWords, worded, type Reader } from './i18n/refusal-words.ts';

export type { FieldError };

export type DomainErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'passwordChangeRequired'
  | 'twoFactorSetupRequired'
  | 'notFound'
  | 'invalid'
  | 'conflict'
  | 'rateLimited'
  | 'unavailable';

const STATUS: Record<DomainErrorKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  passwordChangeRequired: 403,
  twoFactorSetupRequired: 403,
  notFound: 404,
  invalid: 400,
  conflict: 409,
  rateLimited: 429,
  unavailable: 503,
};

export const DEFAULT_MESSAGES: Record<DomainErrorKind, string> = {
  unauthenticated: 'Not authenticated',
  forbidden: 'Forbidden',
  passwordChangeRequired: 'Password change required',
  twoFactorSetupRequired: 'Two-factor authentication must be set up first: open /two-factor in the browser',
  notFound: 'Resource not found',
  invalid: 'Invalid data',
  conflict: 'Conflict',
  rateLimited: 'Too many requests',
  unavailable: 'Service unavailable',
};

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly errors?: FieldError[];
  /** Seconds until a rate-limited caller may retry. */
  readonly retryAfter?: number;

  constructor(kind: DomainErrorKind, message?: string, extra: { errors?: FieldError[]; retryAfter?: number } = {}) {
    super(message ?? DEFAULT_MESSAGES[kind]);
    this.name = 'DomainError';
    this.kind = kind;
    this.errors = extra.errors;
    this.retryAfter = extra.retryAfter;
  }

  get status(): number {
    return STATUS[this.kind];
  }
}

// A message with `values` is an ICU message (`msg('… {name} …')`): the error's English has the
// values put in, and a screen shows the message in its reader's language (refusal-words.ts);
// `messages` names the values that are messages too (a table's label).
type Wording = [values?: MessageValues, messages?: readonly string[]];
const wordedError = (kind: DomainErrorKind, message: string | undefined, [values, messages]: Wording) =>
  message === undefined
    ? new DomainError(kind)
    : worded((english) => new DomainError(kind, english), message, values, messages);

export const notFound = (message?: string, ...wording: Wording) => wordedError('notFound', message, wording);
export const forbidden = (message?: string, ...wording: Wording) => wordedError('forbidden', message, wording);
export const invalid = (errors: FieldError[], message = 'Invalid data') =>
  new DomainError('invalid', message, { errors });
export const conflict = (message: string, ...wording: Wording) => wordedError('conflict', message, wording);
/** A field's error, its message worded like a refusal's. */
export const fieldError = (field: string, message: string, ...[values, messages]: Wording): FieldError =>
  worded((m) => ({ field, message: m }), message, values, messages);

/** A refusal in one line, in the reader's words: its field errors, else its message. */
export function refusalLine(error: DomainError, reader: Reader): string {
  const fields = error.errors?.map((e) => readerWords(e, e.message, reader));
  return fields?.length ? fields.join('; ') : readerWords(error, error.message, reader);
}

/** A refusal with its message and field errors in the reader's words (refusal-words.ts). */
export function inReaderWords(error: DomainError, reader: Reader): DomainError {
  const errors = error.errors?.map((e) => ({ field: e.field, message: readerWords(e, e.message, reader) }));
  return new DomainError(error.kind, readerWords(error, error.message, reader), {
    errors,
    retryAfter: error.retryAfter,
  });
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Zod issues → field errors (path joined with dots; the whole body is field "body"). */
export function fieldErrorsFromZod(
  issues: { path: PropertyKey[]; message: string; code?: string; keys?: string[] }[],
): FieldError[] {
  return issues.flatMap((issue) => {
    // A strict object's unknown fields, where the schema gave no message of its own: one
    // error naming each.
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys) && /^Unrecognized key/.test(issue.message)) {
      return issue.keys.map((key) => ({ field: [...issue.path.map(String), key].join('.'), message: 'Unknown field' }));
    }
    return [{ field: issue.path.length ? issue.path.map(String).join('.') : 'body', message: issue.message }];
  });
}

/**
 * Runs a write, turning an integrity violation that the checks before it could not see (two
 * requests at once) into a domain error instead of a 500: `unique` builds the answer for a
 * duplicate (it gets the database error, to tell which constraint), `foreignKey` is the 409's text.
 */
export async function mapConstraintErrors<T>(
  write: () => Promise<T>,
  answers: { unique: (error: unknown) => DomainError; foreignKey: string },
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const violation = constraintViolation(error);
    if (violation === 'unique') throw answers.unique(error);
    if (violation === 'foreignKey') throw conflict(answers.foreignKey);
    throw error;
  }
}
