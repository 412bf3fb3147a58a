// Slug micro-benchmark and package comparison, run by hand:
//   node bench/slug.ts
// Compares, on the multilingual title list of the unit tests, our slugify with
// the plain slug functions of the candidate packages: readability (the slug of
// each title, printed as a Markdown table), coverage (letters and digits of the
// living scripts each package has no ASCII for) and speed (slugs per second).
// @sindresorhus/slugify is not a dependency: install it anywhere and point
// SLUG_ALTERNATIVES_DIR at that folder (`npm i --prefix /tmp/slug-alts
// @sindresorhus/slugify`) to include it.
import anyAscii from 'any-ascii';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { slugify as transliterationSlugify, transliterate } from 'transliteration';
import { romanize } from '../src/urls/romanize.ts';
import { slugify } from '../src/urls/slug.ts';
import { MULTILINGUAL_TITLES } from '../test/urls/multilingual-titles.ts';

type Slugger = (title: string) => string;

const hyphenate = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

async function optional(name: string): Promise<Slugger | null> {
  const dir = process.env['SLUG_ALTERNATIVES_DIR'];
  if (dir === undefined) return null;
  try {
    const path = createRequire(`${dir}/`).resolve(name);
    const module = (await import(pathToFileURL(path).href)) as { default: Slugger };
    return module.default;
  } catch {
    console.error(`(${name} not found under ${dir}; skipped)`);
    return null;
  }
}

const candidates: [string, Slugger][] = [
  ['ours', slugify],
  ['transliteration', (title) => transliterationSlugify(title)],
  ['any-ascii', (title) => hyphenate(anyAscii(title))],
];
const sindresorhus = await optional('@sindresorhus/slugify');
if (sindresorhus !== null) candidates.push(['@sindresorhus/slugify', sindresorhus]);

const titles = MULTILINGUAL_TITLES.map((t) => t.title);

console.log(`## Slugs of ${titles.length} titles\n`);
console.log(`| language | ${candidates.map(([name]) => name).join(' | ')} |`);
console.log(`|---|${candidates.map(() => '---').join('|')}|`);
for (const { language, title } of MULTILINGUAL_TITLES) {
  console.log(`| ${language}: ${title} | ${candidates.map(([, fn]) => `\`${fn(title)}\``).join(' | ')} |`);
}

console.log('\n## Exact matches with the expected (hand-checked) slug\n');
for (const [name, fn] of candidates) {
  const matches = MULTILINGUAL_TITLES.filter((t) => fn(t.title) === t.slug).length;
  const empty = MULTILINGUAL_TITLES.filter((t) => fn(t.title) === '').length;
  console.log(`- ${name}: ${matches}/${titles.length} as expected, ${empty} empty`);
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Bengali',
  'Tamil',
  'Thai',
  'Georgian',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Han',
  'Ethiopic',
  'Khmer',
  'Myanmar',
  'Sinhala',
  'Tibetan',
  'Cherokee',
  'Tifinagh',
  'Nko',
  'Adlam',
  'Vai',
  'Javanese',
  'Ol_Chiki',
];
const letterMappers: [string, (ch: string) => string][] = [
  ['transliteration', (ch) => transliterate(ch)],
  ['any-ascii', (ch) => anyAscii(ch)],
  ['ours (before the code-point last resort)', romanize],
];
console.log('\n## Letters and digits left without ASCII, per script\n');
console.log(`| script | letters | ${letterMappers.map(([name]) => name).join(' | ')} |`);
console.log(`|---|---|${letterMappers.map(() => '---').join('|')}|`);
for (const script of SCRIPTS) {
  const inScript = new RegExp(`^[\\p{Script=${script}}]$`, 'u');
  const letters: string[] = [];
  for (let cp = 0; cp < 0x30000; cp++) {
    const ch = String.fromCodePoint(cp);
    if (inScript.test(ch) && /[\p{L}\p{N}]/u.test(ch)) letters.push(ch);
  }
  const missing = letterMappers.map(([, fn]) => letters.filter((ch) => !/[a-z0-9]/i.test(fn(ch))).length);
  console.log(`| ${script} | ${letters.length} | ${missing.join(' | ')} |`);
}

console.log('\n## Speed (slugs per second over the title list; best of 5 rounds)\n');
const ascii = titles.filter((t) => /^[\x20-\x7e]*$/.test(t));
const englishTitles = [
  'How do I reset my password?',
  'Release notes for version 2.4.1',
  'Off-topic: what are you reading this week?',
  'Bug: the upload button does nothing on Firefox',
  'Welcome to the forum! Please read the rules first',
];
for (const [label, list] of [
  ['multilingual list', titles],
  ['English titles (ASCII fast path)', [...englishTitles, ...ascii]],
] as const) {
  for (const [name, fn] of candidates) {
    let best = 0;
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      let n = 0;
      while (performance.now() - started < 200) {
        for (const title of list) fn(title);
        n += list.length;
      }
      best = Math.max(best, n / ((performance.now() - started) / 1000));
    }
    console.log(`- ${label}, ${name}: ${Math.round(best).toLocaleString('en')} slugs/s`);
  }
}
