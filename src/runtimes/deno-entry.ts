// The mock on Deno: the same Hono app as `tempmon serve`, served by Deno.serve, with the project's own
// node_modules (--node-modules-dir=manual: nothing is fetched). `npm run serve:deno -- --port P`.
import { createApp } from '../server/create-app.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { loadData } from './load-data.ts';
import { runtimeMock } from '../options/runtime-options.ts';

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
  const mock = runtimeMock(spec, Deno.env.toObject(), Deno.args, undefined, loadData);
  const { fetch } = createApp(mock.options);
  Deno.serve(
    {
      port: mock.port,
      hostname: mock.host,
      onListen: (address) => {
        const url = `http://${mock.host}:${address.port}`;
        console.log(`tempmon mock (Deno ${Deno.version.deno}) listening on ${url}`);
        for (const line of mock.banner(url)) console.log(line);
      },
    },
    fetch,
  );
} catch (error) {
  console.error(`tempmon: ${(error as Error).message}`);
  Deno.exit(2);
}
