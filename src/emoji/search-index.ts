// Relevance-ranked search over the catalog, in memory. Scanning every row with
// LIKE for each keystroke of an autocomplete is too slow; instead the names are
// kept in one sorted array, so a prefix is a binary search, and the slower
// substring scan runs only when the better ranks leave the result short.
//
// Emoji ranks (best first; ties in display order):
//   0 the shortcode or an alias is the term, or the emoji text is the query
//   1 the shortcode or an alias starts with the term
//   2 a word of the title starts with the term (the term may span words)
//   3 the term occurs anywhere in the shortcode, an alias, the title or the emoji text
// Alias ranks: 0 exact, 1 prefix, 2 substring; ties alphabetical.
// Matching ignores case, and surrounding colons of the query: `smile` and
// `:smile:` are the same search.
import type { AliasRow, EmojiRow } from './resource.ts';

const CODE = 0;
const WORD = 1;

export interface SearchTerm {
  /** Lower case, white space collapsed, colons around it removed. */
  term: string;
  /** Lower case and trimmed, colons kept: compared with the emoji text. */
  text: string;
}

export function searchTerm(q: string): SearchTerm {
  const text = q.trim().replace(/\s+/g, ' ').toLowerCase();
  return { text, term: text.replace(/^:+|:+$/g, '') };
}

/** `:smile:` → `smile`, lower case. */
function codeName(code: string): string {
  return code.slice(1, -1).toLowerCase();
}

/** Sorted keys with an owner (and a kind) each; `prefixed` finds every key starting with a term. */
class SortedKeys {
  readonly keys: string[];
  readonly owners: Int32Array;
  readonly kinds: Uint8Array;

  constructor(entries: Array<[key: string, owner: number, kind: number]>) {
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.keys = entries.map((entry) => entry[0]);
    this.owners = Int32Array.from(entries, (entry) => entry[1]);
    this.kinds = Uint8Array.from(entries, (entry) => entry[2]);
  }

  /** Calls `visit(position)` for every key that starts with `prefix`. */
  prefixed(prefix: string, visit: (position: number) => void): void {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    for (let position = low; position < this.keys.length && this.keys[position]!.startsWith(prefix); position++) visit(position);
  }
}

/** Ranked candidates: owner → best rank; returns owners by rank, then by owner position. */
class Ranking {
  readonly #best = new Map<number, number>();

  offer(owner: number, rank: number): void {
    const known = this.#best.get(owner);
    if (known === undefined || rank < known) this.#best.set(owner, rank);
  }

  has(owner: number): boolean {
    return this.#best.has(owner);
  }

  ordered(): number[] {
    return [...this.#best.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map((entry) => entry[0]);
  }
}

export class EmojiSearchIndex {
  /** In display order: an emoji's position is its tie-break. */
  readonly #emojis: readonly EmojiRow[];
  readonly #names: SortedKeys;
  readonly #byText = new Map<string, number[]>();
  readonly #haystacks: string[];

  constructor(emojis: readonly EmojiRow[], aliasesOf: (emojiId: number) => readonly AliasRow[]) {
    this.#emojis = emojis;
    const entries: Array<[string, number, number]> = [];
    this.#haystacks = emojis.map((emoji, position) => {
      const names = [emoji.emoji_shortcode, ...aliasesOf(emoji.id).map((alias) => alias.alias)].map(codeName);
      for (const name of names) entries.push([name, position, CODE]);
      const title = emoji.title.replace(/\s+/g, ' ').toLowerCase();
      for (const start of wordStarts(title)) entries.push([title.slice(start), position, WORD]);
      const text = emoji.emoji_text?.toLowerCase() ?? '';
      if (text !== '') {
        const same = this.#byText.get(text);
        if (same === undefined) this.#byText.set(text, [position]);
        else same.push(position);
      }
      return [...names, title, text].join('\n');
    });
    this.#names = new SortedKeys(entries);
  }

  search(q: string, limit: number): EmojiRow[] {
    const { term, text } = searchTerm(q);
    const ranking = new Ranking();
    for (const position of [...(this.#byText.get(text) ?? []), ...(this.#byText.get(term) ?? [])]) ranking.offer(position, 0);
    if (term !== '') {
      this.#names.prefixed(term, (at) => {
        const rank = this.#names.kinds[at] === WORD ? 2 : this.#names.keys[at] === term ? 0 : 1;
        ranking.offer(this.#names.owners[at]!, rank);
      });
    }
    const found = ranking.ordered().slice(0, limit);
    if (found.length < limit && term !== '') {
      for (let position = 0; position < this.#haystacks.length && found.length < limit; position++) {
        if (!ranking.has(position) && this.#haystacks[position]!.includes(term)) found.push(position);
      }
    }
    return found.map((position) => this.#emojis[position]!);
  }
}

export class AliasSearchIndex {
  /** Alphabetical: an alias's position is its tie-break. */
  readonly #aliases: readonly AliasRow[];
  readonly #names: SortedKeys;
  readonly #lowerNames: string[];

  constructor(aliases: readonly AliasRow[]) {
    this.#aliases = aliases;
    this.#lowerNames = aliases.map((alias) => codeName(alias.alias));
    this.#names = new SortedKeys(this.#lowerNames.map((name, position) => [name, position, CODE]));
  }

  search(q: string, limit: number): AliasRow[] {
    const { term } = searchTerm(q);
    if (term === '') return [];
    const ranking = new Ranking();
    this.#names.prefixed(term, (at) => ranking.offer(this.#names.owners[at]!, this.#names.keys[at] === term ? 0 : 1));
    const found = ranking.ordered().slice(0, limit);
    for (let position = 0; position < this.#lowerNames.length && found.length < limit; position++) {
      if (!ranking.has(position) && this.#lowerNames[position]!.includes(term)) found.push(position);
    }
    return found.map((position) => this.#aliases[position]!);
  }
}

/** Where the words of a title begin: a letter or digit not preceded by one. */
function wordStarts(title: string): number[] {
  const starts: number[] = [];
  const wordChar = /[\p{L}\p{N}]/u;
  let previousIsWord = false;
  for (let index = 0; index < title.length; index++) {
    const isWord = wordChar.test(title[index]!);
    if (isWord && !previousIsWord) starts.push(index);
    previousIsWord = isWord;
  }
  return starts;
}
