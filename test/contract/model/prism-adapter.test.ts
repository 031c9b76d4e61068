// src/contract/model/prism.ts reaches into prism-http's dist/ (its validators have no public entry). This file
// fails loudly when an upgrade moves or changes what it relies on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPrismValidator } from '../../../src/contract/model/prism.ts';
import { spec } from '../../helpers.ts';

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

describe('the prism-http adapter', () => {
  it('runs on the exact prism-http version it was written against', () => {
    const pinned = json('../../../package.json').dependencies['@stoplight/prism-http'];
    const installed = json('../../../node_modules/@stoplight/prism-http/package.json').version;
    expect(installed, 'prism-http was upgraded: re-check the deep import and result shape in src/contract/model/prism.ts').toBe(pinned);
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('judges headers through the deep import, with a path, a message and a severity', async () => {
    const prism = await createPrismValidator(spec.document);
    const good = { status: 200, headers: { 'content-type': 'application/json', 'x-total-count': '3' }, body: [] };
    expect(prism.validateResponse('listAlerts', good)).toEqual([]);
    const bad = prism.validateResponse('listAlerts', { ...good, headers: { ...good.headers, 'x-total-count': 'many' } });
    expect(bad).toContainEqual(
      expect.objectContaining({ path: ['header', 'x-total-count'], message: expect.any(String), prismSeverity: 'error' }),
    );
    // An undocumented status is only a warning in prism: the kit grades it itself.
    expect(prism.validateResponse('listAlerts', { ...good, status: 418 }).map((d) => d.prismSeverity)).toContain('warning');
    expect(() => prism.validateResponse('noSuchOperation', good)).toThrow(/prism knows no operation noSuchOperation/);
  });
});
