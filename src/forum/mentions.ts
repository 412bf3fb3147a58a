// Who a post speaks to (docs/notifications.md): the members it @mentions and
// the authors it quotes. A mention is `@name`, or `@"a name"` for a name with
// a space (names hold letters of any script, digits, `_ . -` and spaces); the
// editor's autocomplete writes the right one. Mentions inside a quote or a
// code block are someone else's words or code, not this author's call: they
// notify nobody. A post names at most MENTIONS_MAX members, so one post cannot
// page the whole forum.
import { USERNAME_MAX } from '../users/fields.ts';
import { hasBbcode, parse, quoteAttributes } from './bbcode/bbcode.ts';

export const MENTIONS_MAX = 20;

/**
 * `@` not glued to a word before it (not an address), then a quoted name or
 * a bare one. A bare name ends at the first character a name cannot hold, and
 * loses the full stops and hyphens that end its sentence.
 */
export const MENTION = new RegExp(
  `(?<![\\p{L}\\p{M}\\p{N}_.@])@(?:"([^"\\n]{1,${USERNAME_MAX}})"|([\\p{L}\\p{M}\\p{N}_][\\p{L}\\p{M}\\p{N}_.\\-]{0,${USERNAME_MAX - 1}}))`,
  'gu',
);

/** The name a mention names: the quoted one as written, a bare one without its sentence's trailing dots and hyphens. */
export function mentionedName(match: RegExpExecArray | RegExpMatchArray): string {
  return match[1] ?? match[2]!.replace(/[.-]+$/, '');
}

export interface References {
  /** Names mentioned in the author's own words, each once, at most MENTIONS_MAX. */
  mentions: string[];
  /** Names of the authors the post quotes (its outermost quotes), each once. */
  quoted: string[];
}

export function referencesIn(body: string): References {
  const mentions = new Set<string>();
  const quoted = new Set<string>();
  const scan = (text: string) => {
    for (const match of text.matchAll(MENTION)) {
      if (mentions.size >= MENTIONS_MAX) return;
      const name = mentionedName(match);
      if (name.length > 0) mentions.add(name);
    }
  };
  if (!hasBbcode(body)) {
    scan(body);
    return { mentions: [...mentions], quoted: [] };
  }
  const walk = (nodes: ReturnType<typeof parse>) => {
    for (const node of nodes) {
      if (node.kind === 'text') scan(node.text);
      else if (node.name === 'quote') {
        const { name } = quoteAttributes(node.arg);
        if (name !== '') quoted.add(name);
      } else if (node.name !== 'code') walk(node.children);
    }
  };
  walk(parse(body));
  return { mentions: [...mentions], quoted: [...quoted].slice(0, MENTIONS_MAX) };
}
