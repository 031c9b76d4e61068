import { createServer, type RequestListener, type Server } from 'node:http';
import { clientError } from '../http/client-error.ts';
import { CliError } from './cli-error.ts';

/**
 * Serves `listener` on `hostname:port` and resolves with the server and the URL it answers at (the
 * real port when 0 was asked for). A port in use is a one-line error. Requests node:http cannot parse
 * get problem+json (see clientError).
 */
export function listen(listener: RequestListener, hostname: string, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer(listener);
  // What Node's parser refuses gets problem+json too, not Node's bare 400.
  server.on('clientError', clientError);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(`cannot listen on ${hostname}:${port}: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`),
      ),
    );
    server.listen(port, hostname, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({ server, url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${actual}` });
    });
  });
}

/** How long a stop lets requests in flight finish before cutting their connections. */
export const STOP_GRACE_MS = 1_000;

/**
 * Stops `server`: no new connections, idle keep-alive ones closed at once, and those with a request still in flight
 * (a `Prefer: delay`, `--latency`, a slow target behind the proxy) cut after STOP_GRACE_MS, so that SIGTERM ends the
 * process within 2 s whatever the clients do (a container's stop kills it after 10 s).
 */
export function stopServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
  });
}
