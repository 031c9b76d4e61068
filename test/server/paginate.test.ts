import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkHeader } from '../../src/server/paginate.ts';

const NAMES = { page: 'page', pageSize: 'pageSize' };
const KEPT = ['search', 'page', 'pageSize'];

/** The Link header made the plain way: a URLSearchParams per link, set page and pageSize, serialize. */
function plainLink(url: URL, { page, pageSize, last }: { page: number; pageSize: number; last: number }): string {
  const query = new URLSearchParams([...url.searchParams].filter(([name]) => KEPT.includes(name)));
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set(NAMES.page, String(target));
    params.set(NAMES.pageSize, String(pageSize));
    return `<${url.origin}${url.pathname}?${params}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}

describe('linkHeader', () => {
  it('equals a URLSearchParams per link, whatever the query: order, repeats, missing names, any text', () => {
    const name = fc.constantFrom('search', 'page', 'pageSize', 'other', 'pa ge');
    const value = fc.string({ unit: fc.constantFrom('a', ' ', '&', '=', '+', '%', 'é', '😀', '/', '?'), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 6 }), fc.nat(50), fc.nat(100), fc.nat(60), (pairs, p, size, l) => {
        const url = new URL(`http://127.0.0.1:4010/alert?${new URLSearchParams(pairs)}`);
        const numbers = { page: p + 1, pageSize: size + 1, last: l + 1 };
        expect(linkHeader(url, NAMES, KEPT, numbers)).toBe(plainLink(url, numbers));
      }),
      { numRuns: 500, seed: 12 },
    );
  });

  it('keeps the request order of page and pageSize, and appends them when missing', () => {
    const numbers = { page: 2, pageSize: 5, last: 3 };
    const link = (query: string) => linkHeader(new URL(`http://h/alert?${query}`), NAMES, KEPT, numbers)!.split(', ')[0];
    expect(link('pageSize=9&search=x&page=2')).toBe('<http://h/alert?pageSize=5&search=x&page=1>; rel="first"');
    expect(link('search=a+b')).toBe('<http://h/alert?search=a+b&page=1&pageSize=5>; rel="first"');
  });
});
