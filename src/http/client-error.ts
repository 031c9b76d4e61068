import type { Duplex } from 'node:stream';
import { OUTSIDE_APP_HEADERS, PROBLEMS, type ProblemTemplate, problemBody, reasonPhrase } from './problem.ts';

/** node:http's parser errors by the answer Node itself would give them; any other is a malformed request. */
const BY_CODE: Readonly<Record<string, ProblemTemplate>> = {
  HPE_HEADER_OVERFLOW: PROBLEMS.headersTooLarge,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: PROBLEMS.contentTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: PROBLEMS.requestTimeout,
};

/**
 * The `clientError` listener of the mock's and the proxy's node:http server: what Node's parser refuses
 * (a request line or header it cannot read, headers past 16 KiB, a request that never finishes) gets the
 * status Node would send, as problem+json with CORS like every other answer, instead of Node's bare
 * `400 Bad Request` with no body. Otherwise as Node does: only while no answer is partly written on the
 * connection, and the connection is destroyed at once, so no answer still being computed follows it.
 * The refusal goes without a body, as Node sends it, where a body could be misread: to a HEAD (its answer
 * has none), to a request whose method cannot be read, and while an earlier pipelined request is still
 * being answered (its client takes the next answer for that request's). The problem names the parser's
 * error code only: nothing of the request is echoed (it may hold a key).
 */
export function clientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // _httpMessage: node:http's response being written on this connection, if any (internal, long stable;
  // Node's own refusal reads it the same way).
  const answering = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !answering?._headerSent) {
    const template = BY_CODE[error.code ?? ''] ?? PROBLEMS.malformedRequest;
    const head = `HTTP/1.1 ${template.status} ${reasonPhrase(template.status)}\r\n`;
    // A body only where the request surely expects one: the packet Node failed on starts with its method,
    // and that is not HEAD (a HEAD's answer has none; a client would read the body as the next answer).
    const method = METHOD.exec(error.rawPacket?.subarray(0, 24).toString('latin1') ?? '')?.[1];
    if (answering || method === undefined || method === 'HEAD') socket.write(`${head}Connection: close\r\n\r\n`);
    else {
      const body = problemBody(template, refusalDetail(error.code, error.rawPacket), undefined);
      const fields = Object.entries({ ...OUTSIDE_APP_HEADERS, 'Content-Length': String(Buffer.byteLength(body)) });
      socket.write(`${head}${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}Connection: close\r\n\r\n${body}`);
    }
  }
  socket.destroy(error);
}

/**
 * What was wrong, in words a user knows where the parser's code allows (a raw space in the URL is the one met
 * most: a URL pasted unencoded), then the code. Only the shape of the request line is read; nothing is echoed.
 *
 * @example
 * refusalDetail('HPE_INVALID_CONSTANT', Buffer.from('GET /alert?search=a b HTTP/1.1'));
 * // 'The request line holds a space: encode it as %20. node:http refused the request before the mock saw it (HPE_INVALID_CONSTANT).'
 */
export function refusalDetail(code: string | undefined, rawPacket: Buffer | undefined): string {
  const refused = `node:http refused the request before the mock saw it (${code ?? 'parse error'}).`;
  const line = rawPacket?.subarray(0, 8192).toString('latin1').split(/\r?\n/, 1)[0] ?? '';
  // METHOD TARGET HTTP/x.y with more than two spaces: the target holds one.
  const spaced = /^\S+ \S.* HTTP\/\d/.test(line) && line.split(' ').length > 3;
  return spaced ? `The request line holds a space: encode it as %20. ${refused}` : refused;
}

/** A request line's method, followed by its space. */
const METHOD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) /;
