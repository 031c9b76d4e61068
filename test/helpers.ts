import { connect } from 'node:net';
import type { Hono } from 'hono';
import type { ContractOptions } from '../src/contract/options/contract-options.ts';
import { runContract } from '../src/contract/run/run-contract.ts';
import type { FetchLike } from '../src/contract/types.ts';
import { createApp, type AppOptions } from '../src/server/create-app.ts';
import { loadSpec } from '../src/spec/load-spec.ts';
import { listOperations } from '../src/spec/operations.ts';
import { createSchemaValidator } from '../src/spec/schema-validator.ts';

/** The mock's default key, as tests send it. */
export const KEY = 'tempmon-dev-key';
export const spec = loadSpec();
export const validator = createSchemaValidator(spec.document);

/** The spec's listings, in its order: tests iterate over them instead of naming two. */
export const LISTINGS = listOperations(spec.document).filter((op) => op.method === 'get');

/** The listings' paths as the kit's messages name them: '/alert and /sensor' ('/a, /b, and /c' for three). */
export const LISTING_PATHS = new Intl.ListFormat('en', { type: 'conjunction' }).format(LISTINGS.map((op) => op.path));

/** `value` under each collection key of the spec (`{ alerts: value, sensors: value, ... }`). */
export const everyCollection = <T>(value: T): Record<string, T> => Object.fromEntries(LISTINGS.map((op) => [op.collection.key, value]));

/** `--<key> 0` for each collection but `keys`: a command's figures then count only the collections named. */
export const noOtherRecords = (...keys: string[]): string[] =>
  LISTINGS.filter((op) => !keys.includes(op.collection.key)).flatMap((op) => [`--${op.collection.key}`, '0']);

/** The kit run against an in-process target with the mock's key and the kit's spec. */
export const runInProcess = (fetch: FetchLike, options: Partial<ContractOptions> = {}) =>
  runContract({ target: 'http://target.test', apiKey: KEY, document: spec.document, fetch, ...options });

/** A GET with the default key (or the given headers). */
export function get(app: Hono, path: string, headers: Record<string, string> = { 'x-api-key': KEY }) {
  return app.request(path, { headers });
}

/** GET and parse the JSON body, asserting nothing. */
export async function getJson(app: Hono, path: string, headers?: Record<string, string>) {
  const response = await get(app, path, headers);
  return { response, body: (await response.json()) as unknown };
}

/** Ids of a JSON array of records. */
export const ids = (body: unknown): string[] => (body as { id: string }[]).map((r) => r.id);

let shared: Hono | undefined;
/** One default app shared by read-only tests (building the dataset takes a moment). */
export function defaultApp(options?: AppOptions): Hono {
  if (options) return createApp(options);
  shared ??= createApp({ spec });
  return shared;
}

/**
 * Writes `parts` on one raw TCP connection to 127.0.0.1:`port`, `pauseMs` apart, and resolves with all
 * the server sent once it closes the connection (the last request should say `Connection: close`).
 */
export function rawConversation(port: number, parts: readonly string[], pauseMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', async () => {
      for (const part of parts) {
        socket.write(part);
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}
