// A screen's form intent as its route module declares it: who may post it (`allow`), how the
// form is validated and answered, and the handler; `screenAction` (screen.server.ts) enforces
// and runs it, and `screenAccess` (route-access.ts) exports its rule as the route's `access`.
// Route modules declare their intents at module level, so the browser build evaluates the
// declarations too: this module imports no server code, and a declaration reads values of
// `.server` modules only inside `run` (the browser build leaves those modules empty).
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import type { z } from 'zod';
import type { AuthUser, ServiceContext } from '../context.ts';
import type { Auth } from '../session/session.server.ts';
import type { IntentRule } from './route-access.ts';

/** What a signed-in screen's loader and action know. */
export interface Screen {
  request: Request;
  context: AppLoadContext;
  url: URL;
  auth: Auth;
  user: AuthUser;
  ctx: ServiceContext;
}

/** What a public page's action knows (no sign-in): the login page. */
export type PublicPage = Pick<Screen, 'request' | 'context' | 'url'>;

/** conform's reply to this post, for an intent that answers on the page (e.g. resetForm). */
export type Reply = (options?: { resetForm?: boolean }) => SubmissionResult<string[]>;

export interface Intent<Page = Screen> {
  /**
   * Who may post this intent (route-access.ts): checked by `screenAction` before the form is
   * validated, a refused user gets a 403 whatever the body; exported in the route's `access`.
   * The services check again.
   */
  allow: IntentRule;
  /** The form's zod schema (conform coerces the posted strings); none: nothing to validate. */
  schema?: z.ZodType;
  /** Fields never sent back to the page (passwords). */
  hideFields?: string[];
  /** The form error when the post or the service reports field errors. */
  invalid?: string;
  /**
   * How a refusal without field errors reads: the service's message, or this text when the
   * message is a generic one ('Forbidden', 'Resource not found'); with `prefix`, always
   * '<failed>: <message>' (e.g. 'Failed to delete department: …').
   */
  failed?: string;
  prefix?: boolean;
  /** Typed by `intent()`; the kit calls it with the parsed value. */
  run(value: never, page: Page, form: FormData, reply: Reply): Promise<Response>;
}

/** Declares one intent (typed against its schema). */
export function intent<S extends z.ZodType = z.ZodObject<Record<never, z.ZodType>>, Page = Screen>(
  definition: Omit<Intent<Page>, 'schema' | 'run'> & {
    schema?: S;
    run(value: z.output<S>, page: Page, form: FormData, reply: Reply): Promise<Response>;
  },
): Intent<Page> {
  return definition;
}
