import { type ListenerLog, appListener } from '../http/app-listener.ts';
import type { Mock } from './create-app.ts';

/** The node:http request listener of a mock (see appListener): what `tempmon serve` runs. */
export function nodeListener(mock: Mock, log?: ListenerLog) {
  return appListener({ fetch: mock.app.fetch, hideKeysOf: () => mock.hideKeys, replay: mock.replay }, log);
}
