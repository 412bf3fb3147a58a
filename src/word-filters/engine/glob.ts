// One word of a wildcard pattern (`f*ck`, `b?tch`, `*hole`) matched against
// one word of the text. `*` is any run of word characters (also none), `?`
// exactly one; since a text word holds nothing but word characters, "any
// character" inside it is enough. Matching is greedy leftmost per segment
// between stars, which is exact for this kind of glob and never backtracks
// across segments: the cost is at most (word length × segment length).

export interface Glob {
  /** The glob as written (folded when the rule ignores case). */
  source: string;
  /** Pieces between stars, in order; `?` stands for one character. */
  segments: string[];
  anchoredStart: boolean;
  anchoredEnd: boolean;
  hasStar: boolean;
  hasQuestion: boolean;
  /** The same segments as arrays of code points, for words outside the BMP. */
  segmentPoints: string[][];
  /** Literal text the word must start with / end with / contain (longest run without wildcards). */
  prefix: string;
  suffix: string;
  infix: string;
}

export function compileGlob(source: string): Glob {
  const hasStar = source.includes('*');
  const parts = source.split('*');
  const segments = hasStar ? parts.filter((part, index) => part !== '' || index === 0 || index === parts.length - 1) : [source];
  const literalRuns = source.split(/[*?]+/).filter((run) => run !== '');
  const prefix = /^[^*?]*/.exec(source)![0];
  const suffix = /[^*?]*$/.exec(source)![0];
  return {
    source,
    segments,
    anchoredStart: !source.startsWith('*'),
    anchoredEnd: !source.endsWith('*'),
    hasStar,
    hasQuestion: source.includes('?'),
    segmentPoints: segments.map((segment) => Array.from(segment)),
    prefix,
    suffix,
    infix: literalRuns.reduce((longest, run) => (run.length > longest.length ? run : longest), ''),
  };
}

/** Does the whole of text[start, end) match the glob? */
export function matchGlob(glob: Glob, text: string, start: number, end: number): boolean {
  if (glob.hasQuestion && hasSurrogates(text, start, end)) {
    // `?` is one character, so words with astral characters are compared by code point.
    const points = Array.from(text.slice(start, end));
    return matchSequence(glob, glob.segmentPoints, points, 0, points.length);
  }
  return matchSequence(glob, glob.segments, text, start, end);
}

type Sequence = ArrayLike<string>;

function matchSequence(glob: Glob, segments: ReadonlyArray<Sequence>, text: Sequence, start: number, end: number): boolean {
  if (!glob.hasStar) {
    const only = segments[0]!;
    return end - start === only.length && matchesAt(only, text, start);
  }
  let position = start;
  let limit = end;
  let first = 0;
  let last = segments.length - 1;
  if (glob.anchoredStart) {
    const head = segments[first++]!;
    if (limit - position < head.length || !matchesAt(head, text, position)) return false;
    position += head.length;
  } else {
    first++; // the empty piece before the leading star
  }
  if (glob.anchoredEnd) {
    const tail = segments[last--]!;
    if (limit - position < tail.length || !matchesAt(tail, text, limit - tail.length)) return false;
    limit -= tail.length;
  } else {
    last--; // the empty piece after the trailing star
  }
  for (let index = first; index <= last; index++) {
    const segment = segments[index]!;
    const found = find(segment, text, position, limit);
    if (found < 0) return false;
    position = found + segment.length;
  }
  return true;
}

function matchesAt(segment: Sequence, text: Sequence, at: number): boolean {
  for (let i = 0; i < segment.length; i++) {
    const expected = segment[i];
    if (expected !== '?' && expected !== text[at + i]) return false;
  }
  return true;
}

/** Leftmost position in [from, limit - |segment|] where the segment matches. */
function find(segment: Sequence, text: Sequence, from: number, limit: number): number {
  if (typeof segment === 'string' && typeof text === 'string' && !segment.includes('?')) {
    const found = text.indexOf(segment, from);
    return found >= 0 && found + segment.length <= limit ? found : -1;
  }
  for (let at = from; at + segment.length <= limit; at++) {
    if (matchesAt(segment, text, at)) return at;
  }
  return -1;
}

function hasSurrogates(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return true;
  }
  return false;
}
