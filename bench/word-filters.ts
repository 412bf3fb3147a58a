// Word-filter engine micro-benchmark: 2,000 active rules (70% exact, 20%
// wildcard, 10% regex) applied to posts of 1 KB, 10 KB and 100 KB, and the
// same words run through the `bad-words` package in the same run.
// Standalone: node bench/word-filters.ts; in the suite: npm run bench word-filters.
import { Filter } from 'bad-words';
import { CHECK_BUDGET_MS } from '../src/word-filters/engine/apply.ts';
import { RuleBook, type ActiveRule } from '../src/word-filters/engine/rule-book.ts';
import { costlyRules, costlyTexts } from '../test/word-filters/costly-rules.ts';
import type { FilterType } from '../src/word-filters/rules.ts';
import { machine } from './lib.ts';
import { random } from '../test/helpers/random.ts';

const RULES = 2000;

const COMMON = (
  'the of and to in is was for on that with as by at from his her they this have had not are but which one you were all ' +
  'we when there can an been has more if will would about their what so out up into them some could time these two may ' +
  'then do first any my now such like other over new only our most made after also did many before must through back ' +
  'years where much your way well down should because each just those people how too little state good very make world ' +
  'still see own men work long here get both between life being under never day same another know while last might us ' +
  'great old year off come since against go came right used take three forum thread reply post quote thanks anyone help'
).split(' ');

const SYLLABLES = ['za', 'qu', 'xo', 'vri', 'ploo', 'gnar', 'zib', 'kwe', 'thor', 'mux', 'yel', 'dro', 'fex', 'jub', 'skra', 'wim', 'hoz', 'blen'];

interface Corpus {
  rules: ActiveRule[];
  /** The word or phrase each rule was made from: what bad-words gets. */
  words: string[];
  post(size: number): string;
}

export function corpus(): Corpus {
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const words = new Set<string>();
  while (words.size < RULES + 100) {
    const length = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length }, () => pick(SYLLABLES)).join(''));
  }
  const pool = [...words];
  const rules: ActiveRule[] = [];
  const sources: string[] = [];
  const filterType = (i: number): FilterType => (i % 20 === 0 ? 'block' : i % 5 === 0 ? 'moderate' : 'replace');
  const add = (pattern: string, patternType: ActiveRule['pattern_type'], source: string): void => {
    const type = filterType(rules.length);
    rules.push({
      id: rules.length + 1,
      pattern,
      pattern_type: patternType,
      filter_type: type,
      replacement: type === 'replace' ? '***' : null,
      severity: 'medium',
      case_sensitive: rules.length % 10 === 0,
      applies_to: ['posts'],
    });
    sources.push(source);
  };

  for (let i = 0; i < RULES * 0.7; i++) {
    const word = pool[i]!;
    // One in ten exact rules is a two-word phrase.
    if (i % 10 === 9) add(`${word} ${pick(COMMON)}`, 'exact', word);
    else add(word, 'exact', word);
  }
  for (let i = 0; i < RULES * 0.2; i++) {
    const word = pool[RULES * 0.7 + i]!;
    const shapes = [
      `${word.slice(0, 4)}*`,
      `*${word.slice(-4)}`,
      `*${word.slice(1, 5)}*`,
      `${word.slice(0, 2)}?${word.slice(3)}`,
      `${word.slice(0, 3)}*${word.slice(-2)}`,
    ];
    add(shapes[i % shapes.length]!, 'wildcard', word);
  }
  for (let i = 0; i < RULES * 0.1; i++) {
    const word = pool[RULES * 0.9 + i]!;
    const shapes = [
      `/\\b${word}\\d{2,4}\\b/i`,
      `${word.slice(0, 3)}[o0]${word.slice(3)}s?`,
      `/\\b(?:${word}|${word.slice(0, -1)}z)\\b/`,
      `(?:^|[^\\p{L}])${word}(?:ing|ed)?\\b`,
      `/${word.split('').join('[\\s.]?')}/`,
    ];
    add(shapes[i % shapes.length]!, 'regex', word);
  }

  const post = (size: number): string => {
    const text: string[] = [];
    let length = 0;
    let sentence = 0;
    while (length < size) {
      const words = Array.from({ length: 6 + Math.floor(next() * 12) }, () => pick(COMMON));
      // About one filtered word in every 300 words.
      if (sentence % 20 === 7) words[Math.floor(next() * words.length)] = pick(sources);
      const line = `${words.join(' ')}. `;
      text.push(line.charAt(0).toUpperCase() + line.slice(1));
      length += line.length;
      sentence++;
    }
    return text.join('').slice(0, size);
  };
  return { rules, words: sources, post };
}

interface Timing {
  median: number;
  p95: number;
}

/**
 * Runs `work` on each text in turn, `runs` times in all, after one round of
 * warming up. Different texts matter: automata that build their states as
 * text arrives look much faster on a text they have seen before.
 */
function time(runs: number, texts: readonly string[], work: (text: string) => void, warmUp = true): Timing {
  if (warmUp) for (const text of texts) work(text);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const text = texts[i % texts.length]!;
    const started = performance.now();
    work(text);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p95: samples[Math.floor(samples.length * 0.95)]! };
}

const ms = (value: number): string => (value < 10 ? value.toFixed(3) : value.toFixed(1));

export async function wordFilters(): Promise<void> {
  const { rules, words, post } = corpus();
  // (costliest() below measures the rules of issue 12.)
  const compileStarted = performance.now();
  const book = new RuleBook(rules);
  book.compileAll();
  const compileMs = performance.now() - compileStarted;

  console.log(`\n## word-filters: ${rules.length} active rules (70% exact, 20% wildcard, 10% regex), compiled in ${ms(compileMs)} ms\n`);
  console.log('| text | median ms | p95 ms | ns per char | action | matches |');
  console.log('|---|---:|---:|---:|---|---:|');
  const row = (label: string, texts: readonly string[], runs: number): Timing => {
    const result = book.check(texts[0]!, 'posts');
    const timing = time(runs, texts, (text) => book.check(text, 'posts'));
    const length = texts[0]!.length;
    console.log(
      `| ${label} | ${ms(timing.median)} | ${ms(timing.p95)} | ${((timing.median / length) * 1e6).toFixed(0)} | ${result.action} | ${result.matches.length} |`,
    );
    return timing;
  };
  // A pool of different posts of each size, checked in turn.
  const pools = new Map([1_000, 10_000, 100_000].map((size) => [size, Array.from({ length: size >= 100_000 ? 10 : 50 }, () => post(size))]));
  const ours = new Map<number, Timing>();
  for (const [size, texts] of pools) ours.set(size, row(`${size / 1000} KB posts`, texts, size >= 100_000 ? 50 : 300));
  // A 100 KB post names ten times more rules than a 10 KB one (each regex
  // rule that may match is run on its own); the same 10 KB posts ten times
  // over show the cost of length alone.
  row(
    '10 KB posts ten times over (100 KB)',
    pools
      .get(10_000)!
      .slice(0, 10)
      .map((text) => text.repeat(10)),
    50,
  );
  row('10 KB without any rule word', ['x '.repeat(5000)], 300);

  // bad-words gets the same 2,000 words (the word each rule was made from) and the same posts.
  const filter = new Filter({ emptyList: true });
  filter.addWords(...words);
  console.log('\n| same words through bad-words 4 | median ms | runs | ours (median ms) | ours faster by |');
  console.log('|---|---:|---:|---:|---:|');
  for (const size of [1_000, 10_000]) {
    const runs = size >= 10_000 ? 2 : 5;
    const cleanTime = time(runs, pools.get(size)!, (text) => filter.clean(text), false);
    const oursMedian = ours.get(size)!.median;
    console.log(
      `| clean() on ${size / 1000} KB posts | ${ms(cleanTime.median)} | ${runs} | ${ms(oursMedian)} | ${Math.round(cleanTime.median / oursMedian)}× |`,
    );
  }
  const profane = time(20, pools.get(10_000)!, (text) => filter.isProfane(text), false);
  const oursTen = ours.get(10_000)!.median;
  console.log(`| isProfane() on 10 KB posts (detection only) | ${ms(profane.median)} | 20 | ${ms(oursTen)} | ${Math.round(profane.median / oursTen)}× |`);

  costliest(rules);
}

/**
 * Issue 12: the costliest rule sets the validator accepts. 2,000 rules of
 * which 600 regexes at the limits (test/word-filters/costly-rules.ts) on
 * 100 KB texts made to keep them busy, and the usual 2,000 rules above plus
 * one of each costliest regex shape on the usual 100 KB posts. Wall time,
 * CPU time (the machine is shared), and how many regex rules the budget
 * left undecided (the text then goes to moderation).
 */
function costliest(usual: readonly ActiveRule[]): void {
  const rules = costlyRules();
  const compileStarted = performance.now();
  const book = new RuleBook(rules);
  book.compileAll();
  console.log(
    `\n## word-filters, costliest accepted rules: 2,000 rules (600 regex at the limits, 400 wildcard, 1,000 exact), compiled in ${ms(performance.now() - compileStarted)} ms; budget ${CHECK_BUDGET_MS} ms per check\n`,
  );
  console.log('| 100 KB text | median ms | p95 ms | max ms | median CPU ms | action | regex rules left undecided |');
  console.log('|---|---:|---:|---:|---:|---|---:|');
  const report = (label: string, target: RuleBook, texts: readonly string[], runs: number): void => {
    for (const text of texts) target.check(text, 'posts');
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      const text = texts[i % texts.length]!;
      const used = process.cpuUsage();
      const started = performance.now();
      target.check(text, 'posts');
      wall.push(performance.now() - started);
      const { user, system } = process.cpuUsage(used);
      cpu.push((user + system) / 1000);
    }
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const result = target.check(texts[0]!, 'posts');
    const scan = target.matcher('posts').scan(texts[0]!, CHECK_BUDGET_MS);
    const at = (values: number[], share: number): number => values[Math.min(values.length - 1, Math.floor(values.length * share))]!;
    console.log(
      `| ${label} | ${ms(at(wall, 0.5))} | ${ms(at(wall, 0.95))} | ${ms(wall[wall.length - 1]!)} | ${ms(at(cpu, 0.5))} | ${result.action} | ${scan.undecided.length} |`,
    );
  };
  for (const [name, text] of Object.entries(costlyTexts(100_000))) report(name, book, [text], 20);

  const { post } = corpus();
  const worst = costlyRules()
    .filter((rule) => rule.pattern_type === 'regex')
    .slice(0, 12);
  const mixed = new RuleBook([...usual, ...worst.map((rule, i) => ({ ...rule, id: 100_000 + i }))]);
  mixed.compileAll();
  report(
    'usual posts, usual 2,000 rules + the 12 costliest shapes',
    mixed,
    Array.from({ length: 10 }, () => post(100_000)),
    50,
  );
}

if (import.meta.main) {
  console.log(`# Benchmark run: ${machine()}`);
  // `node bench/word-filters.ts costliest`: the issue-12 tables alone (bad-words takes minutes on a busy machine).
  if (process.argv[2] === 'costliest') costliest(corpus().rules);
  else await wordFilters();
}
