import { AdmissionCache } from '../store/admission-cache.ts';

/** A listing answer, kept to serve the same request again without recomputing it. */
export interface Answer {
  readonly body: string;
  readonly total: number;
  /** Absent when it would be too long (see MAX_LINK_BYTES) or would quote a key. */
  readonly link: string | undefined;
  readonly etag: string;
}

/** Answers kept per listing. */
const LIMIT = 512;

/**
 * The most recently used answers of one listing, by data identity and URL (least recently used goes first):
 * the app's own cache, on every runtime. Not node:http's replay of whole responses (see response-cache.ts).
 */
export class AnswerCache {
  readonly #answers = new AdmissionCache<Answer>({ max: LIMIT });

  /** The key of a request's answer: data identity, the Prefer example asked for, and the full URL. */
  static key(identity: string, href: string, empty: boolean): string {
    return `${identity}|${empty ? 'empty|' : ''}${href}`;
  }

  get(key: string): Answer | undefined {
    return this.#answers.get(key);
  }

  /**
   * Keeps an answer whose key was offered before: an answer asked for once (a new search term per
   * request) evicts nothing. On Node, an answer asked for again is replayed by the listener from its
   * second time on anyway (see response-cache.ts); this cache serves the others and other runtimes.
   */
  offer(key: string, answer: Answer): void {
    this.#answers.offer(key, answer);
  }
}
