/**
 * The layout shared by every value of a field such as a UUID or an ISO timestamp: one length, and the
 * same characters other than hex digits (`-`, `t`, `:`, `.`, `z`...) at the same places. Only the hex
 * digits of a value need storing, 4 bits each: a UUID takes 16 bytes rather than 37, a timestamp 9 rather than 25.
 */
export interface Shape {
  /** Per position of a (lower-cased) value: the character code it always holds, or HEX_DIGIT. */
  readonly fixed: Int32Array;
  /** Hex digits per value. */
  readonly width: number;
  /** digitsBefore[p]: how many hex digits a value has before position p (length + 1 entries). */
  readonly digitsBefore: Uint16Array;
}

const HEX_DIGIT = -1;
/** Below this many hex digits, packing saves too little to be worth a column. */
const MIN_WIDTH = 8;
/** Records per chunk when their number is not known in advance. */
const CHUNK_RECORDS = 8192;

/** A hex digit's value, either case; -1 for any other character. */
function digitOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** The lower case of an ASCII character code (other codes as they are). */
const lower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * The shape every one of `values` (lower-cased) has, or undefined when they differ in length, in a
 * character other than a hex digit, or hold anything but ASCII.
 */
export function shapeOf(values: readonly string[]): Shape | undefined {
  const first = values[0];
  if (first === undefined) return undefined;
  const fixed = new Int32Array(first.length);
  for (let p = 0; p < first.length; p += 1) {
    const code = first.charCodeAt(p);
    if (code >= 128) return undefined;
    fixed[p] = digitOf(code) >= 0 ? HEX_DIGIT : code;
  }
  for (const value of values) {
    if (value.length !== fixed.length) return undefined;
    for (let p = 0; p < fixed.length; p += 1) {
      const code = value.charCodeAt(p);
      if (code >= 128 || (fixed[p] === HEX_DIGIT ? digitOf(code) < 0 : code !== fixed[p])) return undefined;
    }
  }
  const digitsBefore = new Uint16Array(fixed.length + 1);
  for (let p = 0; p < fixed.length; p += 1) digitsBefore[p + 1] = digitsBefore[p]! + (fixed[p] === HEX_DIGIT ? 1 : 0);
  const width = digitsBefore[fixed.length]!;
  return width >= MIN_WIDTH ? { fixed, width, digitsBefore } : undefined;
}

/** Built record by record, in order: each record has this field's value, or not. */
export interface HexColumnBuilder {
  /** Stores record `index`'s value; false when it does not have the shape (the caller keeps it as text). */
  set(index: number, value: string): boolean;
  finish(records: number): HexColumn;
}

export interface HexColumn {
  /** Calls `found(i)`, ascending, for each record whose value contains `needle` (lower case). */
  search(needle: string, found: (index: number) => void): void;
}

interface Chunk {
  /** The records' digits one after the other, `width` 4-bit digits each, high half of a byte first. */
  readonly digits: Buffer;
  /** One bit per record: has a value here. */
  readonly present: Uint8Array;
}

/**
 * Starts a column; with `expected` (how many records will come), its digits take one allocation of
 * that size, made once.
 */
export function createHexColumnBuilder(shape: Shape, expected?: number): HexColumnBuilder {
  const { fixed, width } = shape;
  // Even, so that every chunk starts on a whole byte.
  const perChunk = expected ? Math.max(2, expected + (expected % 2)) : CHUNK_RECORDS;
  const chunks: Chunk[] = [];
  return {
    set(index, value) {
      if (value.length !== fixed.length) return false;
      const c = Math.floor(index / perChunk);
      while (chunks.length <= c) {
        chunks.push({ digits: Buffer.alloc((perChunk * width) / 2), present: new Uint8Array(Math.ceil(perChunk / 8)) });
      }
      const { digits, present } = chunks[c]!;
      const r = index - c * perChunk;
      // Digits are written as they are read: a value that turns out not to fit is not marked present,
      // and the digits it left are never read.
      let at = r * width;
      // An odd start shares its first byte with the record before: that one's digit is kept.
      let high = at & 1 ? digits[at >> 1]! & 0xf0 : 0;
      for (let p = 0; p < fixed.length; p += 1) {
        const code = value.charCodeAt(p);
        if (fixed[p] !== HEX_DIGIT) {
          if (lower(code) !== fixed[p]) return false;
          continue;
        }
        const digit = digitOf(code);
        if (digit < 0) return false;
        if (at & 1) digits[at >> 1] = high | digit;
        else high = digit << 4;
        at += 1;
      }
      if (at & 1) digits[at >> 1] = (digits[at >> 1]! & 0x0f) | high;
      present[r >> 3]! |= 1 << (r & 7);
      return true;
    },
    finish(records) {
      return { search: (needle, found) => searchChunks(shape, chunks, perChunk, records, needle, found) };
    },
  };
}

function searchChunks(
  shape: Shape,
  chunks: readonly Chunk[],
  perChunk: number,
  records: number,
  needle: string,
  found: (index: number) => void,
): void {
  const { fixed, width, digitsBefore } = shape;
  // Where in a value the needle can sit: its hex digits on hex digits, its other characters on the
  // same fixed characters. Those places, counted in digits, are the offsets a match may start at.
  const allowed = new Uint8Array(width + 1);
  const offsets: number[] = [];
  for (let o = 0; o + needle.length <= fixed.length; o += 1) {
    let fits = true;
    for (let j = 0; j < needle.length && fits; j += 1) {
      const code = needle.charCodeAt(j);
      fits = fixed[o + j] === HEX_DIGIT ? digitOf(code) >= 0 && lower(code) === code : code === fixed[o + j];
    }
    if (fits && !allowed[digitsBefore[o]!]) {
      allowed[digitsBefore[o]!] = 1;
      offsets.push(digitsBefore[o]!);
    }
  }
  if (offsets.length === 0) return;
  // Where it fits, the needle's hex digits are exactly the digits it must match.
  const wanted: number[] = [];
  for (let j = 0; j < needle.length; j += 1) {
    const digit = digitOf(needle.charCodeAt(j));
    if (digit >= 0) wanted.push(digit);
  }
  const k = wanted.length;
  const nibble = (digits: Buffer, at: number) => (at & 1 ? digits[at >> 1]! & 0x0f : digits[at >> 1]! >> 4);
  const matchesAt = (digits: Buffer, at: number) => {
    for (let j = 0; j < k; j += 1) if (nibble(digits, at + j) !== wanted[j]) return false;
    return true;
  };
  // The needle's digits packed two to a byte, from its first digit (even start) or its second (odd start).
  const packed = (from: number) => {
    const bytes = Buffer.alloc((k - from) >> 1);
    for (let b = 0; b < bytes.length; b += 1) bytes[b] = (wanted[from + 2 * b]! << 4) | wanted[from + 2 * b + 1]!;
    return bytes;
  };
  const cores = k >= 3 ? [packed(0), packed(1)] : [];

  chunks.forEach(({ digits, present }, c) => {
    const first = c * perChunk;
    const n = Math.min(perChunk, records - first);
    if (n <= 0) return;
    const has = (r: number) => (present[r >> 3]! >> (r & 7)) & 1;
    if (k < 3) {
      // Too few digits for a byte to look for: each value is checked at each allowed offset.
      const [w0 = 0, w1 = 0] = wanted;
      for (let r = 0; r < n; r += 1) {
        if (!has(r)) continue;
        const base = r * width;
        for (let j = 0; j < offsets.length; j += 1) {
          const at = base + offsets[j]!;
          if (k > 0 && nibble(digits, at) !== w0) continue;
          if (k > 1 && nibble(digits, at + 1) !== w1) continue;
          found(first + r);
          break;
        }
      }
      return;
    }
    const end = (n * width + 1) >> 1;
    const hits = new Uint8Array(n);
    let any = false;
    // A match starts on a byte's high half (parity 0) or low half (parity 1): one native scan for each.
    for (let parity = 0; parity < 2; parity += 1) {
      const core = cores[parity]!;
      for (let from = parity; from < end; ) {
        const at = digits.indexOf(core, from);
        if (at < 0 || at >= end) break;
        const start = 2 * at - parity;
        const r = Math.floor(start / width);
        if (r < n && allowed[start - r * width] && has(r) && matchesAt(digits, start)) {
          hits[r] = 1;
          any = true;
          // On to the next record: the first byte from which a match could start inside it.
          from = ((r + 1) * width + parity + 1) >> 1;
        } else {
          from = at + 1;
        }
      }
    }
    if (any) for (let r = 0; r < n; r += 1) if (hits[r]) found(first + r);
  });
}
