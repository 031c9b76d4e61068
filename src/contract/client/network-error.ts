// Transport errors turned into causes a user can act on.

/** How the error of a request whose connection the target closed begins. */
export const CLOSED_BY_TARGET = 'connection closed by the target';

const TLS_ERROR = /CERT|SELF_SIGNED|TLS|SSL|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/** Turns a transport error (undici's, node:http's, or fetch's nested "fetch failed") into the cause a user can act on. */
export function describeNetworkError(error: unknown): string {
  let cause = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  // fetch wraps the cause; a connection tried on several addresses fails with an AggregateError.
  for (let depth = 0; cause && typeof cause === 'object' && depth < 5; depth += 1) {
    if (typeof cause.code === 'string') break;
    const inner = cause.cause ?? (Array.isArray(cause.errors) ? cause.errors[0] : undefined);
    if (!inner || typeof inner !== 'object') break;
    cause = inner as typeof cause;
  }
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' && cause.message ? cause.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `${CLOSED_BY_TARGET} (${code})`;
  if (code && TLS_ERROR.test(code)) return `TLS error ${code}: ${message} (trust a private CA with NODE_EXTRA_CA_CERTS=ca.pem)`;
  if (code) return `${code}: ${message}`;
  return message;
}
