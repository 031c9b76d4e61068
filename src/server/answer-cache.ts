/** A listing answer, kept to serve the same request again without recomputing it. */
export interface Answer {
  readonly body: string;
  readonly total: number;
  /** Absent when it would be too long (see MAX_LINK_BYTES). */
  readonly link: string | undefined;
  readonly etag: string;
  /** The body's bytes and full headers, made the first time the fast path serves it. */
  wire?: { readonly bytes: Buffer; readonly headers: Record<string, string> };
}

const LIMIT = 512;

/** The most recently stored answers of one listing, by data version and URL (first in, first out: the oldest stored goes first). */
export class AnswerCache {
  readonly #answers = new Map<string, Answer>();

  /** The key of a request's answer: data identity, the Prefer example asked for, and the full URL. */
  static key(identity: string, href: string, empty: boolean): string {
    return `${identity}|${empty ? 'empty|' : ''}${href}`;
  }

  get(key: string): Answer | undefined {
    return this.#answers.get(key);
  }

  set(key: string, answer: Answer): void {
    this.#answers.set(key, answer);
    if (this.#answers.size > LIMIT) this.#answers.delete(this.#answers.keys().next().value!);
  }
}
