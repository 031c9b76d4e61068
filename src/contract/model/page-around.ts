// Where to read around one record of a listing read in pages (a seam, the oldest record read): a page whose middle holds it.

/**
 * A page (its index from the first, and its size, near 20 and at most `largest`) whose middle half holds `offset`:
 * records a torn read skipped stand just above a seam, records arriving since move it down by a few, and a page
 * ending on the oldest record read shows nothing after it.
 *
 * @example
 * pageAround(100, 100); // { index: 4, size: 22 }: offsets 88..109
 */
export function pageAround(offset: number, largest: number): { readonly index: number; readonly size: number } {
  const preferred = Math.min(20, largest);
  const sizes = [...range(preferred, largest), ...range(2, preferred - 1).reverse()];
  const size = sizes.find((s) => offset % s >= s / 4 && offset % s < (3 * s) / 4 && offset >= s / 4) ?? preferred;
  return { index: Math.floor(offset / size), size };
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
