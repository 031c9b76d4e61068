// The bench's README table: formatted from measured rows, written between its markers and nowhere else.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCALE_END, SCALE_START, TABLE_END, TABLE_START, TABLES_DOC, benchTable, scaleTable, withBenchTable } from './bench-table.ts';

const base = { rps: 35_611, p50: 1.38, p99: 3.81 };
const measured = { rps: 32_179, p50: 1.41, p99: 3.83 };
const rows = [
  {
    scenario: 'default page',
    baseline: 'bare node:http',
    base,
    server: 'tempmon serve',
    measured,
    ratio: 0.89,
    cpuRatio: 0.88,
    target: 0.85,
    pass: true,
  },
  { scenario: 'vs Prism', baseline: 'prism mock', base, server: 'tempmon serve', measured, ratio: 0.5, target: 15, pass: false },
  { scenario: 'repeated term', baseline: 'bare node:http', base, server: 'tempmon serve', measured, ratio: 0.86 },
];

const README = readFileSync(new URL(`../../${TABLES_DOC}`, import.meta.url), 'utf8');

/** The lines between two markers of the tables' page (docs/performance.md), checked to be a table: every line has the header's cells. */
function readmeTable(start: string, end: string): string[] {
  const block = README.slice(README.indexOf(start) + start.length, README.indexOf(end))
    .trim()
    .split('\n');
  for (const line of block) expect(line.split('|')).toHaveLength(block[0]!.split('|').length);
  return block;
}

describe('the bench table', () => {
  it('gives one Markdown row per measured row: both loads, the ratios, the target and its verdict', () => {
    const lines = benchTable(rows).split('\n');
    expect(lines).toHaveLength(2 + rows.length);
    expect(lines[0]).toBe('| Scenario | baseline | tempmon | ratio (req/s) | by CPU | target | |');
    expect(lines[2]).toBe(
      '| default page | bare node:http: 35,611 req/s, p50 1.38 ms, p99 3.81 ms | tempmon serve: 32,179 req/s, p50 1.41 ms, p99 3.83 ms | 0.89x | 0.88x | >= 0.85x | PASS |',
    );
    expect(lines[3]).toMatch(/\| 0\.5x \| \| >= 15x \| MISS \|$/);
    expect(lines[4]).toMatch(/\| 0\.86x \| \| \| \|$/);
    // Every line has the header's number of cells.
    for (const line of lines) expect(line.split('|')).toHaveLength(lines[0]!.split('|').length);
  });

  it('replaces what is between its markers, and only that', () => {
    const readme = `# x\n\nbefore\n${TABLE_START}\nold table\n${TABLE_END}\nafter\n`;
    expect(withBenchTable(readme, 'new table')).toBe(`# x\n\nbefore\n${TABLE_START}\nnew table\n${TABLE_END}\nafter\n`);
    expect(() => withBenchTable('# no markers', 'new')).toThrow(/lacks the markers/);
  });

  it('is in docs/performance.md between its markers, a table of one row per scenario, for the next bench to rewrite', () => {
    const block = readmeTable(TABLE_START, TABLE_END);
    expect(README.indexOf(TABLE_START)).toBeGreaterThan(0);
    expect(block[0]).toMatch(/^\| Scenario \|/);
    expect(block.length).toBeGreaterThan(2);
  });

  it('gives the million-record runs a table of their own: PASS only when every target of the run was met', () => {
    const run = { firstOkMs: 1_781, duringBuild: { p50: 1.09 }, readyzOkMs: 50_123, searchesMs: [42, 34], peakRssMb: 388 };
    const lines = scaleTable([
      { data: 'static', ...run, checks: [{ ok: true }, {}] },
      { data: 'live', ...run, readyzOkMs: undefined, checks: [{ ok: true }, { ok: false }] },
    ]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('| static | 1,781 ms | 1.09 ms | 50.1 s | 42, 34 ms | 388 MB | PASS |');
    expect(lines[3]).toBe('| live | 1,781 ms | 1.09 ms | never | 42, 34 ms | 388 MB | MISS |');
    const readme = `a\n${TABLE_START}\nt\n${TABLE_END}\n${SCALE_START}\nold\n${SCALE_END}\n`;
    expect(withBenchTable(readme, 'new', [SCALE_START, SCALE_END])).toBe(
      `a\n${TABLE_START}\nt\n${TABLE_END}\n${SCALE_START}\nnew\n${SCALE_END}\n`,
    );
  });

  it('has the scale table in docs/performance.md between its markers', () => {
    const block = readmeTable(SCALE_START, SCALE_END);
    expect(README.indexOf(SCALE_START)).toBeGreaterThan(README.indexOf(TABLE_END));
    expect(block[0]).toMatch(/^\| Data \|/);
    expect(block.length).toBeGreaterThan(2);
  });
});
