import { isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Whether `host` is the unspecified address (0.0.0.0 or ::): the server listens on every interface. */
export function isUnspecified(host: string): boolean {
  if (host === '0.0.0.0') return true;
  return isIPv6(host) && new URL(`http://[${host}]`).hostname === '[::]';
}

/**
 * What to print once a server listens: `http://0.0.0.0:4010` is not a URL a browser or curl opens, so
 * on the unspecified address the URL shown is the loopback one, followed by a line with this machine's
 * addresses (the ones other machines use). `url` is what `listen` resolved with.
 */
export function listeningAddresses(url: string, host: string): { url: string; note?: string } {
  if (!isUnspecified(host)) return { url };
  const { port } = new URL(url);
  const ipv6 = host !== '0.0.0.0';
  const others = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && (a.family === 'IPv4' || (ipv6 && !/^fe80:/i.test(a.address))))
    .map((a) => `http://${a!.family === 'IPv6' ? `[${a!.address}]` : a!.address}:${port}`);
  const local = `http://${ipv6 ? '[::1]' : '127.0.0.1'}:${port}`;
  return {
    url: local,
    note: `  on all interfaces (${host})${others.length > 0 ? `, from other machines: ${others.join(', ')}` : ''}`,
  };
}
