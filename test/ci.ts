// CI runs every database suite on PostgreSQL as well. Without TEST_DATABASE_URL the PostgreSQL
// half would be skipped silently and the run would still be green, so under CI=true that is a
// failure, raised before anything runs (scripts/test.ts, the vitest global setup) and by
// test/database.ts for a bare `CI=true npx vitest run some.test.ts`.
export function missingPostgresInCi(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CI !== 'true' || env.TEST_DATABASE_URL) return null;
  return (
    'CI=true but TEST_DATABASE_URL is not set: CI must run the database suites on PostgreSQL too ' +
    '(e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test; .ci/run sets it).'
  );
}
