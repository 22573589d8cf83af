// The README's typed client, tried: types generated from the served OpenAPI document with
// openapi-typescript compile against a small openapi-fetch script, which then lists expenses
// through the real server. A document whose answers lose their schemas (or change them) breaks
// the script's types before it breaks an integrator's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** The script the README shows, as an integrator would write it against the generated types. */
const SCRIPT = `import createClient from 'openapi-fetch';
import type { paths } from './finhub-api.ts';

/** The newest expenses, one line each: what the generated types say a row holds. */
export async function latestExpenses(baseUrl: string, cookie: string): Promise<string[]> {
  const api = createClient<paths>({ baseUrl, headers: { Cookie: cookie } });
  const { data, error } = await api.GET('/api/actual-expenses', { params: { query: { limit: 5 } } });
  if (error) throw new Error(error.message);
  return data.map((row) => \`\${row.expenseDate} \${row.description} \${row.amount.toFixed(2)}\`);
}
`;

describe.each(TEST_DIALECTS)('a typed client generated from /api/openapi.json on %s', (dialect) => {
  const { server, signedIn } = useTestServer(dialect);

  it('compiles against the document and lists expenses through it', { timeout: 120_000 }, async () => {
    const { c: client } = await signedIn({ role: 'owner' });
    const created = async (path: string, body: object) => {
      const answer = await client.post(path, body);
      expect(answer.status, await answer.clone().text()).toBe(201);
      return ((await answer.json()) as { id: number }).id;
    };
    const [company] = (await (await client.get('/api/companies')).json()) as { id: number }[];
    const departmentId = await created('/api/departments', { name: `Typed client ${dialect}` });
    const categoryId = await created('/api/expense-categories', { name: 'Travel', companyId: company.id });
    await created('/api/actual-expenses', {
      departmentId,
      categoryId,
      amount: 42.5,
      expenseDate: '2026-03-01',
      description: 'Train to the client',
    });

    const response = await client.get('/api/openapi.json');
    expect(response.status).toBe(200);
    const types = astToString(await openapiTS(await response.json()));

    // Beside the project's node_modules, so the script resolves openapi-fetch as an integrator's would.
    const dir = fs.mkdtempSync(path.join(root, 'node_modules', '.finhub-typed-client-'));
    try {
      fs.writeFileSync(path.join(dir, 'finhub-api.ts'), types);
      fs.writeFileSync(path.join(dir, 'latest-expenses.ts'), SCRIPT);
      const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const options = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext'];
      execFileSync(process.execPath, [tsc, ...options, path.join(dir, 'latest-expenses.ts')], { stdio: 'pipe' });

      const { latestExpenses } = (await import(pathToFileURL(path.join(dir, 'latest-expenses.ts')).href)) as {
        latestExpenses(baseUrl: string, cookie: string): Promise<string[]>;
      };
      const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const lines = await latestExpenses(server().baseUrl, cookie);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines).toContain('2026-03-01 Train to the client 42.50');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
