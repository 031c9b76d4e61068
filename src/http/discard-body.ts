import type { IncomingMessage, ServerResponse } from 'node:http';

/** The most of a request body the listener reads and drops to keep its connection open (the adapter's own cap). */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024 * 1024;

/** How often the bytes of a body still coming after its answer are counted. */
const CHECK_MS = 100;

/**
 * The mock reads no request body, and answers a request with one (POST, PUT, OPTIONS, ... with a
 * Content-Length or a chunked body) as soon as its headers are in: Node then reads the rest of the body
 * and drops it, so the connection serves the next request however slowly the body comes.
 * @hono/node-server's own cleanup (its `autoCleanupIncoming`, which the listener turns off) instead closed
 * the connection 500 ms after the answer if the body had not all come by then, or mid-body past 64 MiB,
 * though the answer had not said `Connection: close`: a keep-alive client's next request got ECONNRESET.
 *
 * A body declared larger than {@link MAX_DISCARDED_BODY_BYTES} gets its answer with `Connection: close`,
 * and the connection ends after it. A chunked one (its size unknown when the answer went, keep-alive) has
 * its connection closed once more than that has come after the answer.
 */
export function discardBody(request: IncomingMessage, response: ServerResponse): void {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return;
  if (Number(length) > MAX_DISCARDED_BODY_BYTES) response.shouldKeepAlive = false;
  response.once('finish', () => {
    // Node drops an unread body from here on (it dumps it on finish); resume one the app began to read.
    if (!request.readableEnded) request.resume();
    if (request.complete || !response.shouldKeepAlive) return;
    const { socket } = request;
    const start = socket.bytesRead;
    const timer = setInterval(() => {
      if (request.complete || socket.destroyed) clearInterval(timer);
      else if (socket.bytesRead - start > MAX_DISCARDED_BODY_BYTES) {
        clearInterval(timer);
        socket.destroy();
      }
    }, CHECK_MS);
    timer.unref();
  });
}
