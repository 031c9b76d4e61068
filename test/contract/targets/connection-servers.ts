// The mock over node:http, answering each request as the connection it came on decides: a server keeping state
// per keep-alive connection (broken), and a layer-4 balancer pinning each connection to one replica (conformant while
// the replica behind catches up).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { generateDataset } from '../../../src/fixtures/generate-dataset.ts';
import { createApp } from '../../../src/server/create-app.ts';
import { spec } from '../../helpers.ts';

type Listener = ReturnType<typeof getRequestListener>;

/** Serves on 127.0.0.1 (a port the system picks), each request handed to `route` with its connection. */
async function listen(route: (socket: Socket, url: URL) => { readonly listener: Listener; readonly url: URL }) {
  const server: Server = createServer((request, response) => {
    const chosen = route(request.socket, new URL(request.url ?? '/', 'http://target.test'));
    request.url = `${chosen.url.pathname}${chosen.url.search}`;
    void chosen.listener(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const dataset = generateDataset(spec.document, { seed: 8, counts: { alerts: 120, sensors: 40 } });

/**
 * A server that keeps the last search of each connection and applies it to a later request on that connection
 * that has none (state kept per connection, say a cached query object).
 */
export function searchKeptPerConnection() {
  const listener = getRequestListener(createApp({ spec, data: dataset }).fetch);
  const last = new WeakMap<Socket, string>();
  return listen((socket, url) => {
    const search = url.searchParams.get('search');
    if (search !== null) last.set(socket, search);
    else if (last.has(socket)) url.searchParams.set('search', last.get(socket)!);
    return { listener, url };
  });
}

/**
 * Two replicas, each connection pinned to one of them in turn, as a layer-4 balancer does; the second one alert
 * behind until `catchUpMs` after the start, then caught up (a replica lagging, not stuck: one stuck behind for longer
 * than --max-staleness is a finding once the run sees both).
 */
export function replicasPinnedByConnection(catchUpMs: number) {
  const newer = getRequestListener(createApp({ spec, data: dataset }).fetch);
  const older = getRequestListener(createApp({ spec, data: { ...dataset, alerts: dataset.alerts!.slice(1) } }).fetch);
  const pinned = new WeakMap<Socket, boolean>();
  const started = performance.now();
  let connections = 0;
  return listen((socket, url) => {
    if (!pinned.has(socket)) {
      connections += 1;
      pinned.set(socket, connections % 2 === 0);
    }
    const behind = pinned.get(socket) === true && performance.now() - started < catchUpMs;
    return { listener: behind ? older : newer, url };
  });
}

/** The mock over node:http, as it is. */
export function servedMock() {
  const listener = getRequestListener(createApp({ spec, data: dataset }).fetch);
  return listen((_, url) => ({ listener, url }));
}

/** The mock over node:http, ignoring search: a search's answer is the plain listing's, so a search leaking to a later request cannot show. */
export function searchIgnored() {
  const listener = getRequestListener(createApp({ spec, data: dataset }).fetch);
  return listen((_, url) => {
    url.searchParams.delete('search');
    return { listener, url };
  });
}
