/** Texts stored one after another in a buffer, each ending with a separator byte. */
export interface TextColumn {
  readonly buffer: Buffer;
  /** Where each text starts; one more entry than texts, the last being the end. */
  readonly starts: Uint32Array;
}

/** Posting lists: for each 3-byte sequence, the texts that contain it, ascending. */
export type Trigrams = Map<number, Uint32Array>;

/** Builds the trigram postings of a column: a few bytes per byte of text, so only for small columns. */
export function trigramsOf({ buffer, starts }: TextColumn): Trigrams {
  const lists = new Map<number, number[]>();
  for (let d = 0; d + 1 < starts.length; d += 1) {
    for (let i = starts[d]!, end = starts[d + 1]! - 3; i <= end; i += 1) {
      const key = (buffer[i]! << 16) | (buffer[i + 1]! << 8) | buffer[i + 2]!;
      let list = lists.get(key);
      if (!list) {
        list = [];
        lists.set(key, list);
      }
      if (list[list.length - 1] !== d) list.push(d);
    }
  }
  return new Map([...lists].map(([key, list]) => [key, Uint32Array.from(list)]));
}

/**
 * Calls `found(d)` for each text `d` containing `needle`, in order. With trigrams and a needle of three
 * bytes or more, only the texts holding its rarest trigram are checked; otherwise the whole buffer is
 * scanned natively with Buffer.indexOf.
 */
export function searchColumn(column: TextColumn, needle: Buffer, trigrams: Trigrams | undefined, found: (d: number) => void): void {
  const { buffer, starts } = column;
  if (trigrams && needle.length >= 3) {
    const lists: Uint32Array[] = [];
    for (let i = 0; i + 3 <= needle.length; i += 1) {
      const list = trigrams.get((needle[i]! << 16) | (needle[i + 1]! << 8) | needle[i + 2]!);
      if (!list) return;
      lists.push(list);
    }
    // Intersect every list, rarest first, then check the few candidates left for real. Every list: a
    // candidate costs far more to check (a native call scanning its text) than to gallop past in a list.
    lists.sort((a, b) => a.length - b.length);
    let candidates = lists[0]!;
    for (let k = 1; k < lists.length && candidates.length > 0; k += 1) candidates = intersect(candidates, lists[k]!, k % 2);
    for (let j = 0; j < candidates.length; j += 1) {
      const d = candidates[j]!;
      if (buffer.subarray(starts[d]!, starts[d + 1]!).indexOf(needle) >= 0) found(d);
    }
    return;
  }
  for (let from = 0; from < buffer.length; ) {
    const at = buffer.indexOf(needle, from);
    if (at < 0) break;
    const d = lastStartAtOrBefore(starts, at);
    found(d);
    from = starts[d + 1]!;
  }
}

/** Index of the last start <= offset (binary search; starts ascend). */
function lastStartAtOrBefore(starts: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where intersections are written, two by turns (one is read while the other is written); grown as needed. */
const scratch = [new Uint32Array(4096), new Uint32Array(4096)];

/**
 * The values in both ascending lists, `small` being the shorter, in scratch buffer `turn` (valid until
 * that buffer's next use). A list of digit trigrams (timestamps have many) can hold most texts: each value
 * of `small` is then found in `large` by galloping (doubling steps, then halving), in about
 * |small|·log(|large|/|small|) steps rather than |small| + |large|.
 */
function intersect(small: Uint32Array, large: Uint32Array, turn: number): Uint32Array {
  let out = scratch[turn]!;
  if (out.length < small.length) out = scratch[turn] = new Uint32Array(small.length * 2);
  let count = 0;
  let lo = 0;
  for (let i = 0; i < small.length && lo < large.length; i += 1) {
    const value = small[i]!;
    // Gallop to a window [lo, hi] whose end is at least value, then search it by halves.
    let step = 1;
    let hi = lo;
    while (hi < large.length && large[hi]! < value) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi >= large.length) hi = large.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (large[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (large[lo] === value) out[count++] = value;
  }
  return out.subarray(0, count);
}
