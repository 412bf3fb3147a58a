// Rendered user text (replacement rules applied, emoji and links turned into
// HTML), kept by the text itself (one cache per kind of text, so a lookup
// hashes the text as read and builds no key): the same text under the same rules and
// emoji always renders the same, and a page of fifty posts should not screen
// and render fifty bodies on every view. Any change to the rules (or the
// emoji catalog) empties the cache; the change feed tells every instance, as
// it tells the word-filter checker. A render that began before a change is
// not kept. The cache is bounded by the characters it holds.

/** About 8 MB of UTF-16 text. */
const DEFAULT_MAX_CHARS = 4_000_000;
/** Longer texts are rendered every time rather than crowd out many short ones. */
const MAX_ENTRY_CHARS = 50_000;

export class RenderCache {
  readonly #maxChars: number;
  #entries = new Map<string, string>();
  #chars = 0;
  #generation = 0;

  constructor(maxChars = DEFAULT_MAX_CHARS) {
    this.#maxChars = maxChars;
  }

  /** The cached rendering, if there is one (no promise for the common case). */
  peek(key: string): string | undefined {
    return this.#entries.get(key);
  }

  async get(key: string, render: () => Promise<string>): Promise<string> {
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    const value = await render();
    if (generation === this.#generation) this.#store(key, value);
    return value;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries = new Map();
    this.#chars = 0;
  }

  #store(key: string, value: string): void {
    const size = key.length + value.length;
    if (size > MAX_ENTRY_CHARS || this.#entries.has(key)) return;
    // Oldest first out: a Map iterates in insertion order.
    for (const [oldKey, oldValue] of this.#entries) {
      if (this.#chars + size <= this.#maxChars) break;
      this.#entries.delete(oldKey);
      this.#chars -= oldKey.length + oldValue.length;
    }
    this.#entries.set(key, value);
    this.#chars += size;
  }
}
