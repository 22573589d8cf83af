// The screen kit's conventions, without a server: one failure shape for every form (conform's
// reply with field errors and a form error, under the error's status), success left to the
// intent, and the URL helpers.
import type { ActionFunctionArgs, AppLoadContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, DomainError, forbidden, invalid, notFound } from '../errors.ts';
import { ROLE_BASELINE, PERMISSION_FLAGS } from '../lib/permissions.ts';
import { intent } from './intent.ts';
import { allow, type IntentRule } from './route-access.ts';
import {
  clampedPage,
  confirmationStep,
  listUrl,
  screenAction,
  tabOf,
  type PublicPage,
  type Screen,
} from './screen.server.ts';

function post(fields: Record<string, string>): ActionFunctionArgs {
  const body = new URLSearchParams(fields);
  const request = new Request('http://finhub.test/things?q=x&edit=3', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  return { request, context: {} as AppLoadContext, params: {} };
}

const open = async ({ request, context }: ActionFunctionArgs): Promise<PublicPage> => ({
  request,
  context,
  url: new URL(request.url),
});

/** An action with one intent 'save' whose run throws `error` (or answers 204). */
function act(
  fields: Record<string, string>,
  options: { error?: unknown; invalid?: string; failed?: string; prefix?: boolean } = {},
) {
  return screenAction(
    post(fields),
    {
      save: intent({
        allow: allow.public,
        schema: z.object({
          name: z.string({ error: 'Name is required' }).min(1, 'Name is required'),
          password: z.string().optional(),
        }),
        hideFields: ['password'],
        invalid: options.invalid,
        failed: options.failed,
        prefix: options.prefix,
        run: async () => {
          if (options.error) throw options.error;
          return new Response(null, { status: 204 });
        },
      }),
    },
    { open },
  );
}

async function answer(response: Response) {
  const body = await response.json();
  return {
    status: response.status,
    intent: body.intent,
    fieldErrors: Object.fromEntries(Object.entries(body.result.error ?? {}).filter(([k]) => k !== '')),
    formErrors: body.result.error?.[''] ?? [],
    initial: body.result.initialValue,
  };
}

/** A signed-in viewer's page (the request already counted against the rate limits). */
async function viewerPage({ request }: ActionFunctionArgs): Promise<Screen> {
  const flags = Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, ROLE_BASELINE.viewer.includes(flag)]));
  const user = { id: 7, role: 'viewer', companyId: null, ...flags } as unknown as Screen['user'];
  const context = { memo: { has: () => true } } as unknown as AppLoadContext;
  return { request, context, url: new URL(request.url), user } as Screen;
}

/** A viewer posting 'save', which declares `rule`. */
function actAs(rule: IntentRule, fields: Record<string, string>, failed?: string) {
  const save = intent({
    allow: rule,
    schema: z.object({ name: z.string().min(1, 'Name is required') }),
    failed,
    run: async () => new Response(null, { status: 204 }),
  });
  return screenAction(post(fields), { save }, { open: viewerPage });
}

describe('screenAction', () => {
  it('runs the intent the form names once the post is valid', async () => {
    expect((await act({ intent: 'save', name: 'a' })).status).toBe(204);
  });

  it("checks the intent's declared rule before validating: a refused user gets a 403 whatever the body", async () => {
    expect((await actAs(allow.to('financial'), { intent: 'save', name: 'a' })).status).toBe(204);
    expect(await answer(await actAs(allow.to('financial', 'create'), { intent: 'save', name: '' }))).toMatchObject({
      status: 403,
      fieldErrors: {},
      formErrors: ['Forbidden'],
    });
    expect(
      await answer(await actAs(allow.to('backups'), { intent: 'save', name: 'a' }, 'Failed to save')),
    ).toMatchObject({ status: 403, formErrors: ['Failed to save'] });
    expect(
      await answer(await actAs(allow.self(undefined, 'Only yourself'), { intent: 'save', name: 'a' })),
    ).toMatchObject({ status: 403, formErrors: ['Only yourself'] });
  });

  it('a row id in any spelling but plain digits names no row, whatever the intent: 404 before it runs', async () => {
    for (const id of ['', 'abc', '1e3', '0x3e9', ' 7', '0', '-1', '99999999999']) {
      expect(
        await answer(await act({ intent: 'save', name: 'a', id }, { failed: 'Failed to save' })),
        id,
      ).toMatchObject({ status: 404, formErrors: ['Failed to save'] });
    }
    expect((await act({ intent: 'save', name: 'a', id: '7' })).status).toBe(204);
  });

  it('an unknown intent is a 400 with a form error', async () => {
    expect(await answer(await act({ intent: 'nope', name: 'a' }))).toMatchObject({
      status: 400,
      intent: 'nope',
      formErrors: ['Unknown action'],
    });
  });

  it('an invalid post is a 400 with field errors, the `invalid` form error, and hidden fields not sent back', async () => {
    const reply = await answer(
      await act({ intent: 'save', name: '', password: 'secret' }, { invalid: 'Failed to save' }),
    );
    expect(reply).toMatchObject({
      status: 400,
      fieldErrors: { name: ['Name is required'] },
      formErrors: ['Failed to save'],
    });
    expect(JSON.stringify(reply.initial ?? {})).not.toContain('secret');
  });

  it("the service's field errors go beside the fields, under its status", async () => {
    const reply = await answer(
      await act(
        { intent: 'save', name: 'a' },
        { error: new DomainError('conflict', 'Taken', { errors: [{ field: 'name', message: 'Taken' }] }) },
      ),
    );
    expect(reply).toMatchObject({ status: 409, fieldErrors: { name: ['Taken'] }, formErrors: [] });
  });

  it('a refusal without field errors reads as the server message, the fallback for generic ones, or prefixed', async () => {
    expect(
      await answer(
        await act(
          { intent: 'save', name: 'a' },
          { error: forbidden('Owners cannot be deleted'), failed: 'Failed to save' },
        ),
      ),
    ).toMatchObject({ status: 403, formErrors: ['Owners cannot be deleted'] });
    expect(
      await answer(await act({ intent: 'save', name: 'a' }, { error: notFound(), failed: 'Failed to save' })),
    ).toMatchObject({ status: 404, formErrors: ['Failed to save'] });
    expect(
      await answer(
        await act(
          { intent: 'save', name: 'a' },
          { error: conflict('Still used'), failed: 'Failed to delete', prefix: true },
        ),
      ),
    ).toMatchObject({ status: 409, formErrors: ['Failed to delete: Still used'] });
    expect(
      await answer(
        await act(
          { intent: 'save', name: 'a' },
          { error: invalid([{ field: 'name', message: 'Bad' }]), invalid: 'Failed to save' },
        ),
      ),
    ).toMatchObject({ status: 400, fieldErrors: { name: ['Bad'] }, formErrors: ['Failed to save'] });
  });

  it('a rate-limited refusal keeps its Retry-After; other errors are not caught', async () => {
    const limited = await act(
      { intent: 'save', name: 'a' },
      { error: new DomainError('rateLimited', 'Slow down', { retryAfter: 60 }) },
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('60');
    await expect(act({ intent: 'save', name: 'a' }, { error: new Error('boom') })).rejects.toThrow('boom');
  });
});

describe('URL state', () => {
  it('the list URL drops the forms’ parameters and keeps the rest', () => {
    expect(listUrl(new URL('http://x/budget-planning?q=rent&edit=3&page=2&new=1&index'))).toBe(
      '/budget-planning?q=rent&page=2',
    );
    expect(listUrl(new URL('http://x/user-management?permissions=4'))).toBe('/user-management');
  });

  it('a tab from ?tab=, or the first', () => {
    const tabs = ['users', 'statistics'] as const;
    expect(tabOf(new URL('http://x/?tab=statistics'), tabs)).toBe('statistics');
    expect(tabOf(new URL('http://x/?tab=evil'), tabs)).toBe('users');
  });

  it('a page beyond the end loads the last page instead', async () => {
    const load = async (page: number) => ({ page, pages: 3 });
    expect(await clampedPage(2, load, (r) => r.pages)).toEqual({ page: 2, result: { page: 2, pages: 3 } });
    expect(await clampedPage(9, load, (r) => r.pages)).toEqual({ page: 3, result: { page: 3, pages: 3 } });
    expect(
      (
        await clampedPage(
          4,
          async (page) => ({ page, pages: 0 }),
          (r) => r.pages,
        )
      ).page,
    ).toBe(1);
  });

  it('the no-JS confirmation step answers first, and steps aside once confirmed', async () => {
    const unconfirmed = new FormData();
    const step = confirmationStep(unconfirmed, 7, 'Sure?');
    expect(await step?.json()).toEqual({ intent: 'confirm-delete', id: 7, message: 'Sure?' });
    const confirmed = new FormData();
    confirmed.set('confirmed', '1');
    expect(confirmationStep(confirmed, 7, 'Sure?')).toBeNull();
  });
});
