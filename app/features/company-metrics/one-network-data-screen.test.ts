// One Network Data over HTTP as a browser without JavaScript uses it: the three
// tabs, each One Network's rows of its resource; the add, edit and delete posts (the company
// pinned to One Network whatever the form says, the delete confirmation step); field errors;
// role gates; a user of another company gets 404; the missing-company state.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';

const ONE_NETWORK = 1;
const VULT = 2;

describe.each(TEST_DIALECTS)('One Network Data screen on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  const rows = (table: 'broadbandConnections' | 'mobileSubscriptions' | 'mobileAccessMethods') =>
    db().selectFrom(table).selectAll().orderBy('id').execute();

  it('shows each tab as a table of One Network rows only, empty until rows exist', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    const empty = await text(await c.get('/one-network-data'));
    expect(empty).toContain('One Network Data');
    expect(empty).toContain('No results found.');
    for (const tab of ['Broadband', 'Mobile Subscriptions', 'Mobile Access']) expect(empty).toContain(`>${tab}</a>`);
    // Never placeholder figures.
    expect(empty).not.toContain('2,144');

    const owner = (await signedIn({ role: 'owner' })).c;
    for (const companyId of [ONE_NETWORK, VULT]) {
      const response = await owner.post('/api/mobile-subscriptions', {
        companyId,
        year: 2025,
        month: 4,
        subscriptionType: 'monthly',
        activeSubscriptions: companyId === ONE_NETWORK ? 4321 : 999,
        newThisMonth: 10,
        churnThisMonth: 43,
        revenue: 1234.5,
      });
      expect(response.status).toBe(201);
    }
    const page = await text(await c.get('/one-network-data?tab=mobile-subscriptions'));
    expect(page).toContain('Showing 1 to 1 of 1 results');
    expect(page).toContain('4,321');
    expect(page).not.toContain('>999<');
    expect(page).toContain('April');
    expect(page).toContain('$1,234.50');
    expect(page).toContain('1.00%'); // churn rate: 43 of 4,321
    expect(page).toContain('100.00%'); // its share of One Network's April: the only row
    expect(page).toContain('aria-current="page"');
    // The export carries the company.
    expect(page).toContain(`/export/mobile-subscriptions?tab=mobile-subscriptions&amp;companyId=${ONE_NETWORK}`);
  });

  it('adds, edits and deletes a record with the forms; the company is always One Network', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const form = await text(await c.get('/one-network-data?tab=mobile-access&new=1'));
    expect(form).toContain('Add Mobile Access Method');
    expect(form).toMatch(/<option value="2026"[^>]*>2026<\/option>/);
    expect(form).not.toContain('<option value="2016"');
    expect(form).toContain('>December</option>');

    const created = await c.postForm('/one-network-data?tab=mobile-access', {
      intent: 'create',
      companyId: String(VULT),
      year: '2026',
      month: '2',
      accessMethod: 'sim',
      activeDevices: '321',
      revenue: '',
    });
    expect(created.status).toBe(302);
    const [row] = await rows('mobileAccessMethods');
    expect(row).toMatchObject({
      companyId: ONE_NETWORK,
      year: 2026,
      month: 2,
      accessMethod: 'sim',
      revenueCents: null,
    });
    expect(Number(row.activeDevices)).toBe(321);
    const after = await text(await c.get(created.headers.get('Location')!));
    expect(after).toContain('Mobile access method created successfully');

    const edited = await c.postForm('/one-network-data?tab=mobile-access', {
      intent: 'update',
      id: String(row.id),
      companyId: String(ONE_NETWORK),
      year: '2026',
      month: '3',
      accessMethod: 'sim',
      activeDevices: '400',
      revenue: '99.99',
    });
    expect(edited.status).toBe(302);
    expect(await text(await c.get(edited.headers.get('Location')!))).toContain(
      'Mobile access method updated successfully',
    );
    expect(Number((await rows('mobileAccessMethods'))[0].revenueCents)).toBe(9999);

    const step = await c.postForm('/one-network-data?tab=mobile-access', { intent: 'delete', id: String(row.id) });
    expect(step.status).toBe(200);
    expect(await text(step)).toContain('Are you sure you want to delete this record?');
    expect(await rows('mobileAccessMethods')).toHaveLength(1);
    const deleted = await c.postForm('/one-network-data?tab=mobile-access', {
      intent: 'delete',
      id: String(row.id),
      confirmed: '1',
    });
    expect(deleted.status).toBe(302);
    expect(await text(await c.get(deleted.headers.get('Location')!))).toContain('Record deleted successfully');
    expect(await rows('mobileAccessMethods')).toHaveLength(0);
  });

  it('answers invalid forms with the field messages and the failure toast text, writing nothing', async () => {
    const { c } = await signedIn({ role: 'editor' });
    const response = await c.postForm('/one-network-data', {
      intent: 'create',
      companyId: String(ONE_NETWORK),
      year: '2026',
      month: '13',
      connectionType: 'fixed_fiber',
      activeConnections: '-4',
      newThisMonth: '0',
      churnThisMonth: '0',
    });
    expect(response.status).toBe(400);
    const page = await text(response);
    expect(page).toContain('Failed to create broadband connection');
    expect(page).toContain('Month must be a whole number from 1 to 12');
    expect(page).toContain('Active Connections must be a whole number of 0 or more');
    expect(await rows('broadbandConnections')).toHaveLength(0);

    const first = {
      intent: 'create',
      companyId: String(ONE_NETWORK),
      year: '2024',
      month: '5',
      connectionType: 'fixed_fiber',
      activeConnections: '10',
      newThisMonth: '0',
      churnThisMonth: '0',
    };
    expect((await c.postForm('/one-network-data', first)).status).toBe(302);
    const again = await c.postForm('/one-network-data', first);
    expect(again.status).toBe(409);
    expect(await text(again)).toContain('A record for this company, month and connection type already exists');
  });

  it('viewers see no add, edit or delete and may not post; editors may not delete', async () => {
    const owner = (await signedIn({ role: 'owner' })).c;
    const created = await owner.post('/api/broadband-connections', {
      companyId: ONE_NETWORK,
      year: 2023,
      month: 1,
      connectionType: 'fixed_broadband',
      activeConnections: 5,
      newThisMonth: 0,
      churnThisMonth: 0,
    });
    const { id } = await created.json();
    const viewer = (await signedIn({ role: 'viewer' })).c;
    const page = await text(await viewer.get('/one-network-data'));
    expect(page).not.toContain('Add Broadband Connection');
    expect(page).not.toContain('edit=');
    expect((await viewer.postForm('/one-network-data', { intent: 'create', year: '2023' })).status).toBe(403);
    const editor = (await signedIn({ role: 'editor' })).c;
    expect(
      (await editor.postForm('/one-network-data', { intent: 'delete', id: String(id), confirmed: '1' })).status,
    ).toBe(403);
    expect(await rows('broadbandConnections')).toContainEqual(expect.objectContaining({ id }));
  });

  it('is a 404 for a user limited to another company, whatever they post', async () => {
    const { c } = await signedIn({ role: 'editor', companyId: VULT });
    expect((await c.get('/one-network-data')).status).toBe(404);
    const before = await rows('broadbandConnections');
    const post = await c.postForm('/one-network-data', {
      intent: 'create',
      companyId: String(VULT),
      year: '2022',
      month: '1',
      connectionType: 'fixed_fiber',
      activeConnections: '1',
      newThisMonth: '0',
      churnThisMonth: '0',
    });
    expect(post.status).toBe(404);
    expect(await rows('broadbandConnections')).toEqual(before);
    // Their own company's network rows are theirs through the API.
    expect((await c.get('/api/broadband-connections')).status).toBe(200);
  });

  it("another company's row is not found here: no edit form, and no post moves or deletes it", async () => {
    const { c } = await signedIn({ role: 'admin' });
    const created = await c.post('/api/broadband-connections', {
      companyId: VULT,
      year: 2022,
      month: 7,
      connectionType: 'fixed_fiber',
      activeConnections: 70,
      newThisMonth: 0,
      churnThisMonth: 0,
    });
    const { id } = await created.json();
    expect((await c.get(`/one-network-data?edit=${id}`)).status).toBe(404);
    const fields = {
      companyId: String(ONE_NETWORK),
      year: '2022',
      month: '7',
      connectionType: 'fixed_fiber',
      activeConnections: '71',
      newThisMonth: '0',
      churnThisMonth: '0',
    };
    expect((await c.postForm('/one-network-data', { intent: 'update', id: String(id), ...fields })).status).toBe(404);
    expect((await c.postForm('/one-network-data', { intent: 'delete', id: String(id), confirmed: '1' })).status).toBe(
      404,
    );
    const row = (await rows('broadbandConnections')).find((r) => r.id === id)!;
    expect([row.companyId, Number(row.activeConnections)]).toEqual([VULT, 70]);
  });

  it("says so when no company is named 'One Network', and asks for no tab data", async () => {
    const { c } = await signedIn({ role: 'admin' });
    await db().updateTable('companies').set({ name: 'One Network Ltd' }).where('id', '=', ONE_NETWORK).execute();
    try {
      const page = await text(await c.get('/one-network-data?tab=broadband'));
      expect(page).toContain('One Network Company Not Found');
      expect(page).toContain('Please ensure the One Network company is created in the system.');
      expect(page).not.toContain('Showing');
      expect((await c.postForm('/one-network-data', { intent: 'create' })).status).toBe(404);
    } finally {
      await db().updateTable('companies').set({ name: 'One Network' }).where('id', '=', ONE_NETWORK).execute();
    }
  });
});
