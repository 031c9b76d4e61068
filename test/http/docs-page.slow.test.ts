// GET /docs in a real browser: Debian's Chromium driven by playwright-core. CI installs Chromium
// (.ci/run); on a machine without it this file is skipped with a warning saying how to enable it,
// except under CI=true where that fails.
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/create-app.ts';
import { KEY, spec } from '../helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const INSTALL = 'apt-get install -y chromium';
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run must install Debian's chromium (${INSTALL})`);
if (!available) {
  console.warn(
    [
      '',
      `SKIPPED: the browser test of GET /docs (test/http/docs-page.slow.test.ts): ${CHROMIUM} is missing.`,
      `  To run it: ${INSTALL}   (CI installs it; under CI=true a missing Chromium fails the run)`,
      '',
    ].join('\n'),
  );
}

describe.skipIf(!available)(`GET /docs in Chromium${available ? '' : ` (skipped: no ${CHROMIUM}; to run it: ${INSTALL})`}`, () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const outside: string[] = [];

  beforeAll(async () => {
    const app = createApp({ spec, dataset: { seed: 1, counts: { alerts: 120, sensors: 30 } } });
    origin = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server;
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('shows both listings and the probes, and sends a request with the key from the page', async () => {
    const page = await browser.newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) outside.push(request.url());
    });
    await page.goto(`${origin}/docs`);
    await page.waitForSelector('.opblock-summary-path');
    expect(await page.locator('.opblock-summary-path').allInnerTexts()).toEqual(['/alert', '/sensor', '/healthz', '/readyz']);

    await page.click('button.authorize');
    await page.fill('.modal-ux input[type=text]', KEY);
    await page.click('.modal-ux button.authorize');
    await page.click('.modal-ux button.btn-done');

    await page.click('.opblock-summary-path:has-text("/sensor")');
    await page.fill('tr[data-param-name="search"] input', '');
    await page.fill('tr[data-param-name="page"] input', '1');
    await page.fill('tr[data-param-name="pageSize"] input', '3');
    const response = page.waitForResponse((r) => r.url().startsWith(`${origin}/sensor`));
    await page.click('button.execute');
    expect((await response).status()).toBe(200);
    await page.waitForSelector('.live-responses-table .response-col_status');
    const status = await page.locator('.live-responses-table tbody .response-col_status').first().innerText();
    expect(status.trim()).toBe('200');
    const body = await page.locator('.live-responses-table .microlight').first().innerText();
    expect(JSON.parse(body)).toHaveLength(3);
    expect(body).toContain('serial_number');
    await page.close();
  });

  it('loads nothing from outside the mock (works offline)', () => {
    expect(outside).toEqual([]);
  });
});
