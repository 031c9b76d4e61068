// The options of createProxy, apart from the proxy: the public entry re-exports them, and nothing here may
// name node:http (dist/index.d.ts must type-check without @types/node).
import type { FetchLike } from '../contract/types.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';

/** Options of {@link createProxy}. */
export interface ProxyOptions {
  /** Base URL of the real deployment. */
  readonly target: string;
  readonly spec: LoadedSpec;
  /** Upstream time limit, body included; beyond it the client gets 504. */
  readonly timeoutMs?: number;
  /** Answer 502 with the violations instead of passing a non-conformant response through. */
  readonly errors?: boolean;
  /** Data file to record the records seen into. */
  readonly record?: string;
  /** One line per violation or upstream failure; never the key. */
  readonly log?: (line: string) => void;
  /** How to reach the target (global fetch by default). */
  readonly fetch?: FetchLike;
}
