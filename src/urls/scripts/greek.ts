// Greek → ASCII after ELOT 743 (the Greek standard, also used on passports):
// the package writes ου as "oy" and χ as "h"; ELOT writes "ou" and "ch", and
// αυ/ευ/ηυ as av/ev/iv before a vowel or voiced consonant, af/ef/if otherwise
// (Ευρώπη → evropi, αυτό → afto). Input is lower case; accents are dropped.

const LETTERS: Readonly<Record<string, string>> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  ϐ: 'v',
  ϑ: 'th',
  ϕ: 'f',
  ϱ: 'r',
  ϲ: 's',
  ϳ: 'j',
};

/** γ before these is nasal: γγ → ng, γκ → gk, γξ → nx, γχ → nch. */
const NASAL_GAMMA: Readonly<Record<string, string>> = { γ: 'n', κ: 'g', ξ: 'n', χ: 'n' };

const VOWELS = new Set(['α', 'ε', 'η', 'ι', 'ο', 'υ', 'ω']);
const VOICED_CONSONANTS = new Set(['β', 'γ', 'δ', 'ζ', 'λ', 'μ', 'ν', 'ρ']);
const U_DIPHTHONG: Readonly<Record<string, string>> = { α: 'a', ε: 'e', η: 'i' };

const DIAERESIS = '\u0308';
const COMBINING_MARK = /\p{M}/u;

export const GREEK_RUN = '[\\u0370-\\u03ff\\u1f00-\\u1fff]+';

interface GreekLetter {
  base: string;
  /** A diaeresis keeps a vowel out of a diphthong (ευ but εϋ). */
  diaeresis: boolean;
}

function letters(run: string): GreekLetter[] {
  const result: GreekLetter[] = [];
  for (const ch of run.normalize('NFD')) {
    const last = result.at(-1);
    if (COMBINING_MARK.test(ch)) {
      if (ch === DIAERESIS && last !== undefined) last.diaeresis = true;
    } else {
      result.push({ base: ch, diaeresis: false });
    }
  }
  return result;
}

/** Romanizes one run of Greek letters; characters without a table entry are left for the generic fallback. */
export function romanizeGreek(run: string): string {
  const chars = letters(run);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const { base } = chars[i]!;
    const next = chars[i + 1];
    const nextIsPlainU = next !== undefined && next.base === 'υ' && !next.diaeresis;
    if (base === 'ο' && nextIsPlainU) {
      out += 'ou';
      i++;
    } else if (U_DIPHTHONG[base] !== undefined && nextIsPlainU) {
      const after = chars[i + 2]?.base;
      const voiced = after !== undefined && (VOWELS.has(after) || VOICED_CONSONANTS.has(after));
      out += U_DIPHTHONG[base] + (voiced ? 'v' : 'f');
      i++;
    } else if (base === 'γ' && next !== undefined && NASAL_GAMMA[next.base] !== undefined) {
      out += NASAL_GAMMA[next.base];
    } else {
      out += LETTERS[base] ?? base;
    }
  }
  return out;
}
