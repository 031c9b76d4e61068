// A target that refuses connections, held for the whole test file (test/setup.ts lets it go after the file).

const held = new Set<BoundHandle>();

/** Lets go of every port closedTarget holds. */
export function releaseClosedTargets(): void {
  for (const handle of held) handle.close();
  held.clear();
}

/** The part of Node's TCP handle that closedTarget uses: bind without listen. */
interface BoundHandle {
  bind(address: string, port: number): number;
  getsockname(out: { port?: number }): number;
  close(): void;
}

/**
 * A base URL where nothing listens, for as long as the test file runs: a TCP socket bound to a port the system
 * gives, and never put to listening. The kernel refuses every connection to it, and no other server can take the
 * port meanwhile (a port merely closed again could be handed to the next `listen(0)` of a parallel test; a fixed
 * port such as 9 may be held by a service or dropped by a firewall, and then the request hangs).
 * Node has no public API for bind without listen, hence its TCP binding, which Node 24 and 26 still expose.
 */
export function closedTarget(): string {
  const { TCP, constants } = (process as unknown as { binding(name: 'tcp_wrap'): TcpWrap }).binding('tcp_wrap');
  const handle = new TCP(constants.SOCKET);
  const out: { port?: number } = {};
  if (handle.bind('127.0.0.1', 0) !== 0 || handle.getsockname(out) !== 0 || !out.port) {
    handle.close();
    throw new Error('closedTarget: cannot bind a TCP socket on 127.0.0.1');
  }
  held.add(handle);
  return `http://127.0.0.1:${out.port}`;
}

interface TcpWrap {
  TCP: new (type: number) => BoundHandle;
  constants: { SOCKET: number };
}
