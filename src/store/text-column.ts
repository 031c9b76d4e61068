import type { Steps } from './between-requests.ts';

/** Texts stored one after another in a buffer, each ending with a separator byte. */
export interface TextColumn {
  readonly buffer: Buffer;
  /** Where each text starts; one more entry than texts, the last being the end. */
  readonly starts: Uint32Array;
}

/** Texts laid out as a column: one after another in UTF-8, each ending with RS (0x1e), which none contains. */
export function textColumnOf(texts: readonly string[]): TextColumn {
  const starts = new Uint32Array(texts.length + 1);
  let offset = 0;
  texts.forEach((text, i) => {
    starts[i] = offset;
    offset += Buffer.byteLength(text, 'utf8') + 1;
  });
  starts[texts.length] = offset;
  return { buffer: Buffer.from(texts.map((text) => `${text}\u001e`).join(''), 'utf8'), starts };
}

/**
 * Posting lists: for each 3-byte sequence, the texts that contain it, ascending. All lists live in one
 * array, found through an open-addressing table in typed arrays: a served search finds each of its
 * trigrams with one or two reads of memory that is cold between requests, where a Map of thousands of
 * small arrays took several, and the lists cost no object each.
 */
export interface Trigrams {
  /** The trigram in each slot (3 bytes, big-endian), or -1 for an empty slot; a power of two long. */
  readonly keys: Int32Array;
  /** Where each slot's list starts and ends in `postings`. */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  readonly postings: Uint32Array;
  /** 32 minus log2 of the table's length: a hash's top bits pick the first slot. */
  readonly shift: number;
}

/** The first slot to probe for a trigram (Fibonacci hashing). */
const slotOf = (key: number, shift: number) => Math.imul(key, 0x9e3779b1) >>> shift;

/** Texts between two yields of trigramsBuilding: a short step, so a request never waits long for one. */
const TEXTS_PER_STEP = 16;
/** Trigrams filed in the table between two yields. */
const KEYS_PER_STEP = 2048;

/**
 * Builds the trigram postings of a column (a few bytes per byte of text, so only for small columns), in
 * steps of a few texts, so a build between requests keeps each one short.
 */
export function* trigramsBuilding({ buffer, starts }: TextColumn): Steps<Trigrams> {
  const lists = new Map<number, number[]>();
  let total = 0;
  for (let d = 0; d + 1 < starts.length; d += 1) {
    if (d % TEXTS_PER_STEP === TEXTS_PER_STEP - 1) yield;
    for (let i = starts[d]!, end = starts[d + 1]! - 3; i <= end; i += 1) {
      const key = (buffer[i]! << 16) | (buffer[i + 1]! << 8) | buffer[i + 2]!;
      let list = lists.get(key);
      if (!list) {
        list = [];
        lists.set(key, list);
      }
      if (list[list.length - 1] !== d) {
        list.push(d);
        total += 1;
      }
    }
  }
  // At most half the slots used, so a probe ends after a slot or two.
  const bits = Math.max(4, Math.ceil(Math.log2(lists.size * 2 + 1)));
  const shift = 32 - bits;
  const mask = (1 << bits) - 1;
  const keys = new Int32Array(1 << bits).fill(-1);
  const from = new Uint32Array(1 << bits);
  const to = new Uint32Array(1 << bits);
  const postings = new Uint32Array(total);
  let at = 0;
  let filed = 0;
  for (const [key, list] of lists) {
    if (++filed % KEYS_PER_STEP === 0) yield;
    let slot = slotOf(key, shift);
    while (keys[slot] !== -1) slot = (slot + 1) & mask;
    keys[slot] = key;
    from[slot] = at;
    postings.set(list, at);
    at += list.length;
    to[slot] = at;
  }
  return { keys, from, to, postings, shift };
}

/**
 * Calls `found(d)` for each text `d` containing `needle`, in order. With trigrams and a needle of three
 * bytes or more, only the texts holding all its trigrams are checked; otherwise the whole buffer is
 * scanned natively with Buffer.indexOf.
 */
export function searchColumn(column: TextColumn, needle: Buffer, trigrams: Trigrams | undefined, found: (d: number) => void): void {
  const { buffer, starts } = column;
  if (trigrams && needle.length >= 3) {
    const { keys, from, to, postings, shift } = trigrams;
    const mask = keys.length - 1;
    // Each trigram's list as [from, to) in postings.
    const lists: [number, number][] = [];
    for (let i = 0; i + 3 <= needle.length; i += 1) {
      const key = (needle[i]! << 16) | (needle[i + 1]! << 8) | needle[i + 2]!;
      let slot = slotOf(key, shift);
      for (let k = keys[slot]!; k !== key; k = keys[slot]!) {
        if (k === -1) return;
        slot = (slot + 1) & mask;
      }
      lists.push([from[slot]!, to[slot]!]);
    }
    // Intersect every list, rarest first, then check the few candidates left for real. Every list: a
    // candidate costs far more to check (a native call scanning its text) than to gallop past in a list.
    lists.sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
    let candidates = postings;
    let [first, last] = lists[0]!;
    for (let k = 1; k < lists.length && first < last; k += 1) {
      const [lo, hi] = lists[k]!;
      last = intersect(candidates, first, last, postings, lo, hi, k % 2);
      candidates = scratch[k % 2]!;
      first = 0;
    }
    for (let j = first; j < last; j += 1) {
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
 * The values in both ascending ranges, small[from, to) being the shorter, written to scratch buffer
 * `turn` (valid until that buffer's next use); returns how many. A list of digit trigrams (timestamps
 * have many) can hold most texts: each value of `small` is then found in `large` by galloping (doubling
 * steps, then halving), in about |small|·log(|large|/|small|) steps rather than |small| + |large|.
 */
function intersect(small: Uint32Array, from: number, to: number, large: Uint32Array, lo: number, end: number, turn: number): number {
  let out = scratch[turn]!;
  if (out.length < to - from) out = scratch[turn] = new Uint32Array((to - from) * 2);
  let count = 0;
  for (let i = from; i < to && lo < end; i += 1) {
    const value = small[i]!;
    // Gallop to a window [lo, hi] whose end is at least value, then search it by halves.
    let step = 1;
    let hi = lo;
    while (hi < end && large[hi]! < value) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    if (hi >= end) hi = end - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (large[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    // lo may have run to the range's end: the next value in the array belongs to another list.
    if (lo < end && large[lo] === value) out[count++] = value;
  }
  return count;
}
