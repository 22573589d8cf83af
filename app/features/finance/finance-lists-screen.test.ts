// The finance list screens without JavaScript when rows of several companies share names: the
// Company column and dropdown (in the URL, within the user's scope), search by amount, the CSV
// export of the filtered list, categories grouped by company and department with a mismatch
// refused, and the Add Expense Category form naming the tab's company.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';
import { parseCsv } from '../../../test/csv.ts';

const VULT = 2;
const SPARK = 4;

describe.each(TEST_DIALECTS)('finance list screens on %s', (dialect) => {
  const { db, signedIn } = useTestServer(dialect);
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  /** The ids of a company's category and of its department. */
  const category = async (companyId: number, name: string) =>
    db()
      .selectFrom('expenseCategories')
      .select(['id', 'departmentId'])
      .where('companyId', '=', companyId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
  const departmentId = async (name: string) =>
    (await db().selectFrom('departments').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const vultRow = 'Vult campaign screen row';
  const sparkRow = 'Spark campaign screen row';

  beforeAll(async () => {
    const { c } = await signedIn({ role: 'admin' });
    for (const [companyId, amount, description] of [
      [VULT, 1234.56, vultRow],
      [SPARK, 77, sparkRow],
    ] as const) {
      const { id: categoryId, departmentId } = await category(companyId, 'Marketing Campaigns');
      const budget = await c.post('/api/budgets', {
        departmentId,
        categoryId,
        amount,
        period: 'monthly',
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        description,
      });
      expect(budget.status).toBe(201);
      const expense = await c.post('/api/actual-expenses', {
        departmentId,
        categoryId,
        amount,
        expenseDate: '2026-06-10',
        description,
      });
      expect(expense.status).toBe(201);
    }
  });

  it('shows the Company column and filters by the Company dropdown in the URL', async () => {
    const { c } = await signedIn({ role: 'admin' });
    for (const path of ['/budget-planning', '/actual-expenses']) {
      const all = await text(await c.get(`${path}?q=campaign screen row`));
      expect(all, path).toContain('>Company</th>');
      expect(all).toContain('<option value="" selected="">All Companies</option>');
      expect(all).toContain('Showing 1 to 2 of 2 results');
      expect(all).toContain('<td>Vult</td>');
      expect(all).toContain('<td>Spark Marketing</td>');
      const vult = await text(await c.get(`${path}?q=campaign screen row&companyId=${VULT}`));
      expect(vult).toContain('Showing 1 to 1 of 1 results');
      expect(vult).toContain('<td>Vult</td>');
      expect(vult).not.toContain('<td>Spark Marketing</td>');
      expect(vult).toContain(`<option value="${VULT}" selected="">Vult</option>`);
      // Paging, sorting and the export keep the dropdown.
      expect(vult).toContain(
        `/export/${path === '/budget-planning' ? 'budgets' : 'actual-expenses'}?q=campaign+screen+row&amp;companyId=${VULT}`,
      );
    }
  });

  it('a user limited to one company is offered only it, and asking for another lists nothing', async () => {
    const { c } = await signedIn({ role: 'viewer', companyId: SPARK, flags: { canAccessFinancialData: true } });
    const own = await text(await c.get('/budget-planning?q=campaign screen row'));
    expect(own).toContain('Showing 1 to 1 of 1 results');
    expect(own).toContain('<td>Spark Marketing</td>');
    expect(own).toContain(`<option value="${SPARK}">Spark Marketing</option>`);
    expect(own).not.toContain('>Vult</option>');
    const other = await text(await c.get(`/budget-planning?q=campaign screen row&companyId=${VULT}`));
    expect(other).not.toContain('<td>Vult</td>');
    expect(other).not.toContain('<td>Spark Marketing</td>');
    expect(other).not.toContain('Showing 1 to');
  });

  it('finds an amount typed as 1234.56 or 1,234.56', async () => {
    const { c } = await signedIn({ role: 'admin' });
    for (const path of ['/budget-planning', '/actual-expenses']) {
      for (const q of ['1234.56', '1,234.56']) {
        const page = await text(await c.get(`${path}?q=${encodeURIComponent(q)}&companyId=${VULT}`));
        expect(page, `${path} ${q}`).toContain('Showing 1 to 1 of 1 results');
        expect(page).toContain('$1,234.56');
      }
    }
  });

  it('exports the filtered list with its company', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const csv = parseCsv(await (await c.get(`/export/budgets?q=campaign screen row&companyId=${VULT}`)).text());
    const company = csv[0].indexOf('Company');
    expect(company).toBeGreaterThan(-1);
    expect(csv.slice(1).map((r) => r[company])).toEqual(['Vult']);
  });

  it('offers categories grouped by company and department, and refuses one of another department', async () => {
    const { c } = await signedIn({ role: 'editor', flags: { canAccessFinancialData: true, canCreate: true } });
    const form = await text(await c.get('/budget-planning?new=1'));
    expect(form).toContain('<optgroup label="Vult · Marketing">');
    expect(form).toContain('<optgroup label="Spark Marketing · Marketing">');
    const { id: categoryId } = await category(VULT, 'Marketing Campaigns');
    const fields = {
      intent: 'create',
      departmentId: String(await departmentId('Finance')),
      categoryId: String(categoryId),
      amount: '10',
      period: 'monthly',
      startDate: '2026-07-01',
      endDate: '2026-07-31',
      status: 'active',
      description: '',
    };
    const wrong = await c.postForm('/budget-planning?new=1', fields);
    expect(wrong.status).toBe(400);
    expect(await text(wrong)).toContain('Category does not belong to the chosen department');
    const right = await c.postForm('/budget-planning?new=1', {
      ...fields,
      departmentId: String(await departmentId('Marketing')),
    });
    expect(right.status).toBe(302);
  });

  it('the Add Expense Category form names the company of the open tab', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const form = await text(await c.get(`/expense-categories?company=${SPARK}&new=1`));
    expect(form).toContain('data-testid="fixed-companyId" translate="no">Spark Marketing</p>');
  });
});
