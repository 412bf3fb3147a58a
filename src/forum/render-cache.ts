// Rendered user text (replacement rules applied, emoji and links turned into
// HTML), kept by the text itself (one cache per kind of text, so a lookup
// hashes the text as read and builds no key): the same text under the same rules and
// emoji always renders the same, and a page of fifty posts should not screen
// and render fifty bodies on every view. Any change to the rules (or the
// emoji catalog) empties the cache; the change feed tells every instance, as
// it tells the word-filter checker. A render that began before a change is
// not kept. The cache is bounded by the characters it holds.

import { createHash } from 'node:crypto';

/** About 8 MB of UTF-16 text. */
const DEFAULT_MAX_CHARS = 4_000_000;
/**
 * Longer texts are rendered every time rather than crowd out many short
 * ones (rendering is a quick linear pass; the word filters' result is kept
 * apart, by ScreenedTextCache below, so they are not filtered again).
 */
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

/**
 * Word-filtered texts, the costly step of rendering, kept apart from the
 * HTML above so that evicting HTML (under its character budget, or for a
 * text too long to keep) never makes a page view filter a text again.
 * Keyed by content type and a SHA-256 digest of the text, so an entry costs
 * about 100 bytes whatever the length of the text, plus the filtered text
 * when a replacement changed it: 250,000 texts fit in some 30 MB, more
 * than the posts, titles and signatures a forum shows in a day. The least
 * recently used go first. As above, clear() (on any rule change) empties
 * it, and a result computed before a clear() is not kept.
 */
export class ScreenedTextCache {
  readonly #maxEntries: number;
  readonly #maxChangedChars: number;
  /** Digest → the filtered text, or UNCHANGED. */
  #entries = new Map<string, string | typeof UNCHANGED>();
  /** Texts being filtered now: views arriving meanwhile wait for the same check. */
  #pending = new Map<string, Promise<string>>();
  #changedChars = 0;
  #generation = 0;

  constructor(options: { maxEntries?: number; maxChangedChars?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 250_000;
    this.#maxChangedChars = options.maxChangedChars ?? 16_000_000;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The filtered text, computed by `screen` only when not known under the current rules. */
  async get(type: string, text: string, screen: () => Promise<string>): Promise<string> {
    const key = digest(type, text);
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit === UNCHANGED ? text : hit;
    }
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const generation = this.#generation;
    const pendingMap = this.#pending;
    const screening = screen().then(
      (screened) => {
        pendingMap.delete(key);
        if (generation === this.#generation) this.#store(key, screened === text ? UNCHANGED : screened);
        return screened;
      },
      (error: unknown) => {
        pendingMap.delete(key);
        throw error;
      },
    );
    pendingMap.set(key, screening);
    return screening;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries = new Map();
    this.#pending = new Map();
    this.#changedChars = 0;
  }

  #store(key: string, value: string | typeof UNCHANGED): void {
    if (this.#entries.has(key)) return;
    const size = value === UNCHANGED ? 0 : value.length;
    if (size > this.#maxChangedChars) return;
    for (const [oldKey, oldValue] of this.#entries) {
      if (this.#entries.size < this.#maxEntries && this.#changedChars + size <= this.#maxChangedChars) break;
      this.#entries.delete(oldKey);
      if (oldValue !== UNCHANGED) this.#changedChars -= oldValue.length;
    }
    this.#entries.set(key, value);
    this.#changedChars += size;
  }
}

const UNCHANGED = Symbol('unchanged');

function digest(type: string, text: string): string {
  return `${type}:${createHash('sha256').update(text).digest('base64')}`;
}
