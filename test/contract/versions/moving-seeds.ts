// Issue 48's proof table: the kit as the slow suite runs it (runAgainstDeployment) against each moving deployment
// for many seeds, one run at a time, each deployment in a child process of its own.
// A script, not a test (a full table takes about half an hour):
//   node --import tsx test/contract/versions/moving-seeds.ts [FROM-TO] [SHAPE,...]
// e.g. `... moving-seeds.ts 1-20` or `... moving-seeds.ts 1-5 replicas,pinned`. Prints one markdown row per shape
// on stdout, and why each run that missed its verdict did, on stderr.
import type { ContractReport } from '../../../src/contract/types.ts';
import type { DeploymentOptions, Shape } from '../targets/moving-deployment.ts';
import { runAgainstDeployment } from '../targets/run-against-deployment.ts';

/** Each shape, the options it runs with, and the verdict it must get. */
const SHAPES: readonly { shape: Shape; options?: DeploymentOptions; label?: string; want: ContractReport['verdict'] }[] = [
  { shape: 'single', want: 'conformant' },
  { shape: 'replicas', want: 'conformant' },
  { shape: 'pinned', want: 'conformant' },
  { shape: 'index', options: { refreshMs: 1_000 }, label: 'index 1 s', want: 'conformant' },
  { shape: 'index', options: { refreshMs: 5_000 }, label: 'index 5 s', want: 'conformant' },
  { shape: 'sliding', want: 'conformant' },
  { shape: 'editing', want: 'conformant' },
  { shape: 'resolving', want: 'conformant' },
  { shape: 'other-term', want: 'not conformant' },
  { shape: 'search-after-paging', want: 'not conformant' },
  { shape: 'unfiltered-later-pages', want: 'not conformant' },
  { shape: 'count-off', want: 'not conformant' },
  { shape: 'overlap', want: 'not conformant' },
];

const [range = '1-20', only] = process.argv.slice(2);
const [from, to] = range.split('-').map(Number) as [number, number];
const seeds = Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
const chosen = only ? SHAPES.filter((s) => only.split(',').includes(s.label ?? s.shape)) : SHAPES;

console.log(
  "| deployment | want | runs | as wanted | other verdicts | search staleness, ms (fewest..most of the runs) | within 25% of the index's real lag | records behind (max) |",
);
console.log('|---|---|---|---|---|---|---|---|');
for (const { shape, options, label, want } of chosen) {
  const verdicts: string[] = [];
  const [stale, behind] = [[] as number[], [] as number[]];
  for (const seed of seeds) {
    const report = await runAgainstDeployment(shape, seed, options);
    verdicts.push(report.verdict === want ? want : `${report.verdict} (seed ${seed})`);
    if (report.verdict !== want) {
      console.error(`${label ?? shape} seed ${seed}: ${report.verdict}: ${report.reason ?? ''}`);
      // The first finding of each check that failed or warned, with the request it was about: what to look into.
      for (const o of report.outcomes.filter((o) => o.status === 'failed' || o.status === 'warned')) {
        const f = o.failures[0];
        console.error(
          `  ${o.operationId} ${o.check}: ${f?.message ?? ''} | ${f?.exchange?.request.url ?? ''} | expected ${f?.expected ?? ''} | actual ${f?.actual ?? ''}`,
        );
      }
    }
    const figures = report.coverage?.[0]?.consistency;
    console.error(`${label ?? shape} seed ${seed}: ${report.verdict} ${JSON.stringify(figures ?? {})}`);
    if (figures) {
      stale.push(figures.searchStalenessMs);
      behind.push(figures.behindRecords);
    }
  }
  const other = verdicts.filter((v) => v !== want);
  // Records arrive every `everyMs` and the index is refreshed every `refreshMs`, both from the deployment's start: the
  // record arriving first after a refresh waits the longest, `refreshMs - everyMs`, the index's real lag.
  const lag = shape === 'index' ? (options?.refreshMs ?? 1_000) - (options?.everyMs ?? 250) : undefined;
  const within = lag === undefined ? '' : `${stale.filter((ms) => Math.abs(ms - lag) <= lag / 4).length} of ${stale.length} (${lag} ms)`;
  console.log(
    `| ${label ?? shape} | ${want} | ${seeds.length} | ${seeds.length - other.length} | ${other.join(', ') || 'none'} | ${stale.length > 0 ? `${Math.min(...stale)}..${Math.max(...stale)}` : 'none'} | ${within} | ${Math.max(0, ...behind)} |`,
  );
}
