import { createMock } from './src/server/create-app.ts';
import { loadSpec } from './src/spec/load-spec.ts';
const mock = createMock({ spec: loadSpec(), dataset: { seed: 1, counts: { alerts: 10000, sensors: 10 } } });
const H = { 'x-api-key': 'tempmon-dev-key' };
await mock.app.request('/alert?search=warm', { headers: H });
const terms = Array.from({ length: 2000 }, (_, i) => (i * 7919).toString(16).padStart(4, 'a'));
let t = performance.now();
for (const term of terms) await mock.app.request(`/alert?search=${term}`, { headers: H });
console.log('per search request', ((performance.now() - t) / terms.length * 1000).toFixed(0), 'µs');
