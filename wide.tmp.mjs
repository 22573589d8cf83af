import { chromium } from '@playwright/test';
const base = 'http://localhost:3100';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const ctx = await browser.newContext({ viewport: { width: 390, height: 900 } });
const page = await ctx.newPage();
await page.goto(base + '/login');
await page.fill('input[name=email]', 'owner@example.com');
await page.fill('input[name=password]', 'Owner-Pass-2026!');
await page.click('button[type=submit]');
await page.waitForLoadState('networkidle');
for (const p of process.argv.slice(2)) {
  await page.goto(base + p);
  const wide = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.right > window.innerWidth + 1 && r.width > 0) {
        let anc = el.parentElement, clipped = false;
        while (anc) { const s = getComputedStyle(anc); if (s.overflowX !== 'visible') { clipped = true; break; } anc = anc.parentElement; }
        if (!clipped) out.push(`${el.tagName}.${String(el.className).slice(0,80)} w=${Math.round(r.width)} right=${Math.round(r.right)} text=${(el.textContent||'').slice(0,40)}`);
      }
    }
    return out.slice(0, 15);
  });
  console.log(p, wide.join('\n  '));
}
await browser.close();
