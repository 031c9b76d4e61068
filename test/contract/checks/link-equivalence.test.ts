import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/create-app.ts';
import { runInProcess, spec } from '../../helpers.ts';

const app = createApp({ spec, dataset: { seed: 4, counts: { alerts: 120, sensors: 30 } } });

/** The mock with each Link URL's query rewritten by `edit`. */
const relinked = (edit: (query: URLSearchParams) => string) => async (request: Request) => {
  const response = await app.fetch(request);
  const link = response.headers.get('link');
  if (!link) return response;
  const headers = new Headers(response.headers);
  headers.set(
    'link',
    link.replace(/<([^>]*)>/g, (_, href: string) => {
      const url = new URL(href);
      return `<${url.origin}${url.pathname}?${edit(url.searchParams)}>`;
    }),
  );
  return new Response(response.body, { status: response.status, headers });
};
const run = (fetch: (request: Request) => Promise<Response>) =>
  runInProcess(fetch, { strict: true, seed: 3, checks: ['explore_metadata', 'link_header'] });

describe('Link URLs compared as the server reads them', () => {
  it('passes parameters in another order, spaces as + or %20, a plus as %2B, and an empty search left out', async () => {
    const seen = { empty: 0, spaced: 0 };
    const report = await run(
      relinked((query) => {
        const pairs = [...query].filter(([name, value]) => {
          if (name === 'search' && value === '') seen.empty += 1;
          return !(name === 'search' && value === '');
        });
        return pairs
          .reverse()
          .map(([name, value]) => {
            if (value.includes(' ')) seen.spaced += 1;
            return `${name}=${encodeURIComponent(value).replace(/%20/g, seen.spaced % 2 ? '+' : '%20')}`;
          })
          .join('&');
      }),
    );
    expect(seen.empty).toBeGreaterThan(0);
    expect(report.outcomes.flatMap((o) => o.failures.map((f) => `${o.check}: ${f.message}`))).toEqual([]);
    expect(report.verdict).toBe('conformant');
  });

  it('still fails a Link that changes what the page holds (another search)', async () => {
    const report = await run(
      relinked((query) => {
        if (query.get('search')) query.set('search', `${query.get('search')}x`);
        return query.toString();
      }),
    );
    const found = report.outcomes.filter((o) => o.check === 'explore_metadata').flatMap((o) => o.failures);
    expect(found.some((f) => /drops or changes the search/.test(f.message))).toBe(true);
  });
});
