// The mock on Bun: the same Hono app as `tempmon serve`, served by Bun.serve. `npm run serve:bun -- --port P`.
import { createApp } from '../server/create-app.ts';
import { loadSpec } from '../spec/load-spec.ts';
import { loadData } from './load-data.ts';
import { runtimeMock } from '../options/runtime-options.ts';

/** What this entry uses of Bun's globals (no @types/bun in the project). */
declare const Bun: {
  readonly version: string;
  readonly argv: readonly string[];
  readonly env: Record<string, string | undefined>;
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): {
    readonly port: number;
    stop(): void;
  };
};

try {
  const spec = loadSpec();
  const mock = runtimeMock(spec, Bun.env, Bun.argv.slice(2), undefined, loadData);
  const server = Bun.serve({ port: mock.port, hostname: mock.host, fetch: createApp(mock.options).fetch });
  const url = `http://${mock.host}:${server.port}`;
  console.log(`tempmon mock (Bun ${Bun.version}) listening on ${url}`);
  for (const line of mock.banner(url)) console.log(line);
} catch (error) {
  console.error(`tempmon: ${(error as Error).message}`);
  process.exit(2);
}
