// Bodies read up to a cap; over it, reading stops and only the head is kept.
import { rejection, type BodySource } from './transports.ts';

/** Of a body over the cap, this much is kept (redacted) as `text`, to show what it was. */
export const HEAD_CHARS = 4096;
// Redacted before it is cut to HEAD_CHARS, so a key straddling the cut is still recognised.
const HEAD_BYTES = 2 * HEAD_CHARS;
/** The reduced cap is at least this, and LARGEST_TIMES the largest body read whole. */
const LEAST_REDUCED = 64 * 1024;
const LARGEST_TIMES = 16;

/**
 * A body read whole, or cut: over `cap` bytes, or (`late`) still coming when the timeout came, after more than the
 * reduced cap: what a target sending without end does, not what one that is slow to answer does.
 */
export type Body =
  | { readonly cut: false; readonly bytes: Buffer }
  | { readonly cut: true; readonly head: Buffer; readonly cap: number; readonly late?: { readonly bytes: number } };

/**
 * The caps every body of one client is read under: the full cap until a body goes over it, then the reduced one
 * (so a target that always answers without end costs one full read). Past the reduced cap, one body at a time
 * reads on: the others wait for what it turns out to be (ended under the full cap: the next goes on; over it: they
 * are cut at once), so a target sending without end is read to the full cap once, not once per request in flight.
 */
export interface BodyCaps {
  /**
   * The reduced cap now: 16 times the largest body read whole so far, at least 64 KiB, at most the reduced cap
   * given (1 MiB by default): far above a page of the target's own, and reached in a few chunks of one without end.
   */
  reduced(): number;
  /** The most the reduced cap may be: a body past it still coming at the timeout is one without end. */
  readonly ceiling: number;
  /** A body was read whole: its size, for the reduced cap. */
  completed(bytes: number): void;
  /** The cap now. */
  cap(): number;
  /** What made the cap the reduced one (`a body over 16777216 bytes earlier in this run`), once it is. */
  why(): string | undefined;
  /** From now on, bodies are read only up to the reduced cap, for the reason given; the bodies waiting go on (to be cut). */
  reduce(why: string): void;
  /** Resolves when this body may read past the reduced cap (`release` to call when it ends), or the cap was reduced. */
  beyond(): Promise<() => void>;
}

/**
 * Creates the caps of one client.
 *
 * @example
 * const caps = createBodyCaps(16 * 2 ** 20, 2 ** 20); // 16 MiB, then at most 1 MiB
 */
export function createBodyCaps(full: number, reduced: number): BodyCaps {
  let reached: string | undefined;
  let largest = 0;
  let held = false;
  const waiting: (() => void)[] = [];
  const release = () => {
    held = false;
    waiting.shift()?.();
  };
  const caps: BodyCaps = {
    ceiling: Math.min(full, reduced),
    reduced: () => Math.min(full, reduced, Math.max(LEAST_REDUCED, LARGEST_TIMES * largest)),
    completed(bytes) {
      largest = Math.max(largest, bytes);
    },
    cap: () => (reached ? caps.reduced() : full),
    why: () => reached,
    reduce(why) {
      reached ??= why;
      for (const wake of waiting.splice(0)) wake();
    },
    beyond() {
      if (reached) return Promise.resolve(() => undefined);
      if (!held) {
        held = true;
        return Promise.resolve(release);
      }
      // Woken by a release (it holds the turn then) or by the cap reduced (it will be cut: nothing to release).
      return new Promise((resolve) =>
        waiting.push(() => {
          if (reached) return resolve(() => undefined);
          held = true;
          resolve(release);
        }),
      );
    },
  };
  return caps;
}

/** How to read one body: the client's caps, the length it declares, and the attempt's signal (its timeout). */
export interface ReadLimits {
  readonly caps: BodyCaps;
  readonly declaredLength: number;
  readonly signal: AbortSignal;
  /** Whether the signal's abort is the timeout's (not the run's deadline). */
  readonly timedOut: () => boolean;
  readonly timeoutMs: number;
}

/** Reads a body whole, or up to the cap (asked again at every chunk, as it may shrink meanwhile). */
export async function readCapped(source: BodySource, { caps, declaredLength, signal, timedOut, timeoutMs }: ReadLimits): Promise<Body> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A declared length over the cap needs no proof: read the head only.
  const declaredOver = declaredLength > caps.cap();
  let release: (() => void) | undefined;
  let waited = false;
  try {
    for (let chunk = await source.next(); chunk; chunk = await source.next()) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (!release && !declaredOver && size > caps.reduced() && size <= caps.cap()) {
        waited = true;
        release = await waitTurn(caps, signal);
      }
      const limit = caps.cap();
      if (size > (declaredOver ? HEAD_BYTES : limit)) {
        source.stop();
        return { cut: true, head: headOf(chunks, size), cap: limit };
      }
    }
  } catch (error) {
    // Still sending past the reduced cap's ceiling when the timeout came (or held there waiting for its turn to read
    // on): a body without end at this speed, not a slow answer.
    const past = waited && !release ? caps.reduced() : caps.ceiling;
    if (!(signal.aborted && timedOut() && size > past)) throw error;
    if (release) caps.reduce(`a body still coming after ${timeoutMs} ms past ${past} bytes earlier in this run`);
    return { cut: true, head: headOf(chunks, size), cap: past, late: { bytes: size } };
  } finally {
    release?.();
  }
  caps.completed(size);
  return { cut: false, bytes: Buffer.concat(chunks, size) };
}

/** The turn to read past the reduced cap, raced with the attempt's signal (a wait cut short throws, as a read would). */
async function waitTurn(caps: BodyCaps, signal: AbortSignal): Promise<() => void> {
  const turn = caps.beyond();
  try {
    return await Promise.race([turn, rejection(signal)]);
  } catch (error) {
    // The turn may still come: handed back at once.
    void turn.then((release) => release());
    throw error;
  }
}

/** The first {@link HEAD_BYTES} of the chunks (`size` bytes in all): Buffer.concat copies no more than the length it is given. */
const headOf = (chunks: readonly Uint8Array[], size: number) => Buffer.concat(chunks, Math.min(size, HEAD_BYTES));
