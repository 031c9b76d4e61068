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
