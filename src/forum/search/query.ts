// What a reader types into the search box, parsed once and written out for each
// database (docs/search.md, "Query syntax"):
//   words            every word must occur (café matches cafe, Ёлка matches елка)
//   "a phrase"       the words in this order, next to each other
//   word*            any word starting so (at least three characters before the *, two such words at most)
//   -word, -"a b"    leave out posts that have it
// A run of Chinese or Japanese characters is matched as a phrase of its
// characters. Punctuation inside a word splits it into a phrase (e-mail).
// Words and phrases are matched by their stems (text.ts: "releases" finds
// "release"), a prefix by the letters typed against the words as written.
// Nothing the reader types reaches either database's query syntax: each term is
// made of letters and digits only and is quoted when written out.
import { t, tn } from '../../i18n/messages.ts';
import { grams, leadingLetters, PREFIX_LENGTHS, prefixTerm, tokenize } from './text.ts';

/** One thing to match: a word (one term) or a phrase (several), the last term perhaps a prefix. */
export interface Clause {
  /** What the index is asked for: the stems, but a prefix as typed. */
  terms: string[];
  /** The words as typed (normalized, unstemmed): what an index entry written before stemming holds. */
  words: string[];
  prefix: boolean;
}

export interface SearchQuery {
  required: Clause[];
  excluded: Clause[];
}

/** Where to look: everywhere, or in topic titles only. */
export type SearchIn = 'all' | 'titles';

// Each clause is one more list the index reads, and a prefix makes it read the lists of every word it covers,
// which for prefixes of the commonest words costs tens of milliseconds on a million posts (bench/RESULTS.md).
export const MAX_CLAUSES = 8;
export const MAX_PREFIXES = 2;
const MIN_PREFIX = 3;

export type ParsedQuery = { ok: true; query: SearchQuery } | { ok: false; reason: string };

const PIECE = /(-?)(?:"([^"]*)"?|(\S+))/gu;

export function parseQuery(text: string): ParsedQuery {
  const query: SearchQuery = { required: [], excluded: [] };
  PIECE.lastIndex = 0;
  for (let match = PIECE.exec(text); match !== null; match = PIECE.exec(text)) {
    const negated = match[1] === '-';
    const quoted = match[2];
    const word = match[3];
    const prefix = word !== undefined && word.endsWith('*');
    const tokens = tokenize(quoted ?? word ?? '');
    if (tokens.length === 0) continue;
    const words = tokens.map((token) => token.word);
    const isPrefix = prefix && words.at(-1)!.length >= MIN_PREFIX;
    const terms = tokens.map((token, index) => (isPrefix && index === tokens.length - 1 ? token.word : token.term));
    const clause: Clause = { terms, words, prefix: isPrefix };
    (negated ? query.excluded : query.required).push(clause);
  }
  if (query.required.length === 0) {
    return {
      ok: false,
      reason: query.excluded.length > 0 ? t('search.refuse.only_excluded') : t('search.refuse.empty'),
    };
  }
  if (query.required.length + query.excluded.length > MAX_CLAUSES) return { ok: false, reason: t('search.refuse.too_many', { count: MAX_CLAUSES }) };
  if ([...query.required, ...query.excluded].filter((clause) => clause.prefix).length > MAX_PREFIXES) {
    return { ok: false, reason: tn('search.refuse.prefixes', MAX_PREFIXES) };
  }
  return { ok: true, query };
}

/** Every term a result may show highlighted: the required ones (prefixes marked by a trailing *). */
export function highlightTerms(query: SearchQuery): Array<{ term: string; prefix: boolean }> {
  return query.required.flatMap((clause) => clause.terms.map((term, index) => ({ term, prefix: clause.prefix && index === clause.terms.length - 1 })));
}

/**
 * The index's terms for a clause: a word, or a phrase as its word pairs next to each other (text.ts, `grams`). A
 * prefix stays on the last term: "open po*" is any pair `_open_po…`.
 */
function indexTerms(terms: readonly string[]): string[] {
  return terms.length === 1 ? [...terms] : grams(terms);
}

/**
 * The forms a clause is matched in: its stems; and, while the index still holds entries written before stemming
 * (`unstemmed`: the backfill has not rewritten them all, migration 0036), also its words as typed, which is what
 * those entries hold.
 */
function forms(clause: Clause, unstemmed: boolean): string[][] {
  const differs = clause.words.some((word, index) => word !== clause.terms[index]);
  return unstemmed && differs ? [clause.terms, clause.words] : [clause.terms];
}

/** An FTS5 MATCH expression over the columns `title` and `body`. */
export function fts5Match(query: SearchQuery, where: SearchIn, unstemmed = false): string {
  const phrase = (clause: Clause): string => {
    const each = forms(clause, unstemmed).map((terms) => `"${indexTerms(terms).join(' ')}"${clause.prefix ? ' *' : ''}`);
    return each.length === 1 ? each[0]! : `(${each.join(' OR ')})`;
  };
  const required = query.required.map(phrase).join(' AND ');
  const excluded = query.excluded.map(phrase);
  const expression = excluded.length === 0 ? required : `(${required}) NOT (${excluded.join(' OR ')})`;
  return where === 'titles' ? `{title} : (${expression})` : expression;
}

/** A term as a lexeme of PostgreSQL's tsquery and tsvector literals: quoted, its quotes and backslashes escaped. */
export function quotedLexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * A PostgreSQL tsquery literal (cast with ::tsquery; no parser involved), title terms weighted A. With `prefixTerms`
 * (every document holds them: text.ts, `prefixTerms`), a word's prefix outside titles is matched through its prefix
 * term: `rou*` is `'^rou'`, `router*` `'^rout' & 'router':*` (the longer the prefix, the fewer words it gathers).
 * Ranking asks without them: the prefix terms have no positions to weigh.
 */
export function tsqueryLiteral(query: SearchQuery, where: SearchIn, prefixTerms = false, unstemmed = false): string {
  const weight = where === 'titles' ? 'A' : '';
  const lexeme = (term: string, prefix: boolean): string => `${quotedLexeme(term)}${prefix || weight ? ':' : ''}${prefix ? '*' : ''}${weight}`;
  const wordPrefix = (term: string): string => {
    const indexed = prefixTerms && where === 'all' ? PREFIX_LENGTHS.findLast((length) => leadingLetters(term, length) !== null) : undefined;
    if (indexed === undefined) return lexeme(term, true);
    const held = lexeme(prefixTerm(leadingLetters(term, indexed)!), false);
    // Longer than the longest prefix term: the word's own prefix narrows it down.
    return leadingLetters(term, indexed + 1) === null ? held : `(${held} & ${lexeme(term, true)})`;
  };
  const form = (clause: Clause, typed: readonly string[]): string => {
    if (clause.prefix && typed.length === 1) return wordPrefix(typed[0]!);
    const terms = indexTerms(typed);
    const parts = terms.map((term, index) => lexeme(term, clause.prefix && index === terms.length - 1));
    return parts.length === 1 ? parts[0]! : `(${parts.join(' <-> ')})`;
  };
  const phrase = (clause: Clause): string => {
    const each = forms(clause, unstemmed).map((typed) => form(clause, typed));
    return each.length === 1 ? each[0]! : `(${each.join(' | ')})`;
  };
  return [...query.required.map(phrase), ...query.excluded.map((clause) => `!${phrase(clause)}`)].join(' & ');
}
