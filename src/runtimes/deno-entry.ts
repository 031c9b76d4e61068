// The mock on Deno: the same Hono app as `tempmon serve`, served by Deno.serve, with the project's own
// node_modules (--node-modules-dir=manual: nothing is fetched). `npm run serve:deno -- --port P`.
import { createApp } from '../server/create-app.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { loadData } from './load-data.ts';
import { runtimeMock, serveFlags } from '../options/runtime-options.ts';

/** What this entry uses of Deno's globals (no Deno types in the project). */
declare const Deno: {
  readonly version: { readonly deno: string };
  readonly args: readonly string[];
  readonly env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (address: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
  exit(code: number): never;
};

try {
  const spec = loadSpec();
  const { port, host, flags } = serveFlags(Deno.args, spec.document);
  const mock = runtimeMock(spec, Deno.env.toObject(), flags, undefined, loadData);
  const { fetch } = createApp(mock.options);
  Deno.serve(
    {
      port,
      hostname: host,
      onListen: (address) => {
        console.log(`tempmon mock (Deno ${Deno.version.deno}) listening on http://${host}:${address.port}`);
        console.log(`  ${mock.data}`);
        console.log(`  key: ${mock.key}`);
        if (mock.conditions) console.log(`  ${mock.conditions}`);
      },
    },
    fetch,
  );
} catch (error) {
  console.error(`tempmon: ${(error as Error).message}`);
  Deno.exit(2);
}
