// Bodies read up to a cap; over it, reading stops and only the head is kept.
import type { BodySource } from './transports.ts';

/** Of a body over the cap, this much is kept (redacted) as `text`, to show what it was. */
export const HEAD_CHARS = 4096;
// Redacted before it is cut to HEAD_CHARS, so a key straddling the cut is still recognised.
const HEAD_BYTES = 2 * HEAD_CHARS;

export type Body = { readonly cut: false; readonly bytes: Buffer } | { readonly cut: true; readonly head: Buffer; readonly cap: number };

/** Reads a body whole, or up to `cap()` (asked again at every chunk, as it may shrink meanwhile). */
export async function readCapped(source: BodySource, cap: () => number, declaredLength: number): Promise<Body> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A declared length over the cap needs no proof: read the head only.
  const declaredOver = declaredLength > cap();
  for (let chunk = await source.next(); chunk; chunk = await source.next()) {
    chunks.push(chunk);
    size += chunk.byteLength;
    const limit = cap();
    if (size > (declaredOver ? HEAD_BYTES : limit)) {
      source.stop();
      return { cut: true, head: head(chunks, HEAD_BYTES), cap: limit };
    }
  }
  return { cut: false, bytes: Buffer.concat(chunks, size) };
}

/** The first `bytes` of the chunks, copying no more than that. */
function head(chunks: readonly Uint8Array[], bytes: number): Buffer {
  const taken: Uint8Array[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= bytes) break;
    const part = chunk.subarray(0, bytes - size);
    taken.push(part);
    size += part.byteLength;
  }
  return Buffer.concat(taken, size);
}
