// Every text on every screen comes from a catalog or is data: the pseudo-locale marks each
// message ⟦…⟧, and a walk of the screens, with JavaScript and without, finds nothing else.
import { expect, test } from './support/fixtures.ts';
import { signInByApi, waitForHydration } from './support/app.ts';
import { PSEUDO_HEADERS, unmarkedTexts } from './support/pseudo.ts';
import { toast } from './support/resources.ts';
import { SCREENS } from '../app/platform/screen/navigation.ts';

const SIGNED_OUT = ['/', '/login'];

/** Every signed-in screen, and the settings' tabs beyond the first. */
const SIGNED_IN = [
  ...SCREENS.map((screen) => screen.path),
  '/settings?tab=appearance',
  '/settings?tab=preferences',
  '/settings?tab=security',
  '/settings?tab=system',
];

test.use({ extraHTTPHeaders: PSEUDO_HEADERS });

test('signed-out pages show only catalog texts', async ({ page, js }) => {
  const found: Record<string, string[]> = {};
  for (const path of SIGNED_OUT) {
    await page.goto(path);
    await waitForHydration(page, js);
    const texts = await unmarkedTexts(page);
    if (texts.length) found[path] = texts;
  }
  expect(found).toEqual({});
});

test('signed-in screens show only catalog texts and data', async ({ page, js, createUser }) => {
  test.setTimeout(120_000);
  const user = await createUser({ role: 'owner' });
  await signInByApi(page, user);
  const found: Record<string, string[]> = {};
  for (const path of SIGNED_IN) {
    await page.goto(path);
    await waitForHydration(page, js);
    const texts = await unmarkedTexts(page);
    if (texts.length) found[path] = texts;
  }
  expect(found).toEqual({});
});

// The user's own profile: a form whose toast the server writes, changing nothing other specs read.
test('a toast the server writes after a form is a catalog text', async ({ page, js, createUser }) => {
  const user = await createUser({ role: 'viewer' });
  await signInByApi(page, user);
  await page.goto('/profile?edit=1');
  await waitForHydration(page, js);
  await page.getByLabel(/Full Name/).fill(`Pseudo ${js ? 'js' : 'no-js'}`);
  await page.getByRole('button', { name: /Save/ }).click();
  await expect(toast(page)).toContainText('⟦');
  expect(await unmarkedTexts(page)).toEqual([]);
});
