import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRules, MAX_REPORTED_MATCHES, MAX_TEXT_LENGTH, TextTooLongError, type CheckResult } from '../../src/word-filters/engine/apply.ts';
import { Matcher } from '../../src/word-filters/engine/matcher.ts';
import { compileRegex, MAX_PROGRAM_SIZE, MAX_REPEAT, RegexProblem } from '../../src/word-filters/engine/regex-patterns.ts';
import { containsWord } from '../../src/word-filters/engine/word-patterns.ts';
import { threadCpuMs } from '../helpers/cpu.ts';
import { costlyRules, costlyTexts } from './costly-rules.ts';
import { RuleBook, type ActiveRule } from '../../src/word-filters/engine/rule-book.ts';
import type { FilterType, PatternType } from '../../src/word-filters/rules.ts';

let nextId = 0;

function rule(pattern: string, patternType: PatternType, filterType: FilterType, extra: Partial<ActiveRule> = {}): ActiveRule {
  return {
    id: ++nextId,
    pattern,
    pattern_type: patternType,
    filter_type: filterType,
    replacement: filterType === 'replace' ? '***' : null,
    severity: 'medium',
    case_sensitive: false,
    applies_to: ['posts'],
    ...extra,
  };
}

/**
 * What the rules make of the text, given all the time needed: these tests
 * are about what matches; what a check does when its time budget runs out
 * is tested apart (a loaded machine must not change what matches here).
 */
const AMPLE_MS = 60_000;

function check(rules: ActiveRule[], text: string): CheckResult {
  return new RuleBook(rules).check(text, 'posts', { budgetMs: AMPLE_MS });
}

/** The matched texts, in order. */
function matched(rules: ActiveRule[], text: string): string[] {
  return check(rules, text).matches.map((match) => match.match);
}

/** Milliseconds of this thread's CPU for `work`: unlike wall time, not stretched by other processes on a busy machine. */
function elapsed(work: () => void): number {
  const started = threadCpuMs();
  work();
  return threadCpuMs() - started;
}

describe('word-filter engine: exact patterns', () => {
  it('matches whole words only', () => {
    assert.deepEqual(matched([rule('hell', 'exact', 'block')], 'Hello hell, shell hell_o hell-fire'), ['hell', 'hell']);
  });

  it('ignores case unless the rule is case sensitive', () => {
    assert.deepEqual(matched([rule('darn', 'exact', 'block')], 'DARN Darn darn'), ['DARN', 'Darn', 'darn']);
    assert.deepEqual(matched([rule('Darn', 'exact', 'block', { case_sensitive: true })], 'DARN Darn darn'), ['Darn']);
  });

  it('knows word boundaries in any script (Cyrillic, accents, Greek)', () => {
    assert.deepEqual(matched([rule('кот', 'exact', 'block')], 'Скот, КОТ и котик; кот.'), ['КОТ', 'кот']);
    assert.deepEqual(matched([rule('café', 'exact', 'block')], 'cafés CAFÉ café'), ['CAFÉ', 'café']);
    assert.deepEqual(matched([rule('ΟΔΟΣ', 'exact', 'block')], 'οδος, Οδοσ'), ['οδος', 'Οδοσ']);
  });

  it('matches a phrase across any run of white space, but not across other punctuation', () => {
    const rules = [rule('bad word', 'exact', 'block')];
    assert.deepEqual(matched(rules, 'a bad word, a Bad\n\t word, a bad-word, a badword'), ['bad word', 'Bad\n\t word']);
  });

  it('matches punctuation in a pattern literally, with boundaries only at word edges', () => {
    assert.deepEqual(matched([rule('$hit', 'exact', 'block')], 'hit $hit a$hit $hits'), ['$hit', '$hit']);
    assert.deepEqual(matched([rule(':-(', 'exact', 'block')], 'sad :-( face:-('), [':-(', ':-(']);
    assert.deepEqual(matched([rule('c++', 'exact', 'block')], 'c c++ bc++'), ['c++']);
  });

  it('reports UTF-16 offsets into the text as given', () => {
    const result = check([rule('darn', 'exact', 'block')], '😀 é darn');
    assert.equal(result.matches[0]!.start, 5);
    assert.equal(result.matches[0]!.end, 9);
    assert.equal('😀 é darn'.slice(5, 9), 'darn');
  });

  it('folds the Turkish dotted capital I without shifting offsets', () => {
    const result = check([rule('darn', 'exact', 'block')], 'İİ DARN');
    assert.deepEqual(
      result.matches.map((m) => [m.start, m.end, m.match]),
      [[3, 7, 'DARN']],
    );
  });
});

describe('word-filter engine: wildcard patterns', () => {
  it('reads * as any run of word characters (also none) and ? as exactly one', () => {
    assert.deepEqual(matched([rule('f*ck', 'wildcard', 'block')], 'fck fuck fuuuck f-ck fucks afuck'), ['fck', 'fuck', 'fuuuck']);
    assert.deepEqual(matched([rule('b?tch', 'wildcard', 'block')], 'btch bitch b1tch biitch BATCH'), ['bitch', 'b1tch', 'BATCH']);
  });

  it('anchors at word edges unless the pattern starts or ends with *', () => {
    assert.deepEqual(matched([rule('*shit*', 'wildcard', 'block')], 'shit bullshitting shi t'), ['shit', 'bullshitting']);
    assert.deepEqual(matched([rule('ass*', 'wildcard', 'block')], 'ass assassin bass'), ['ass', 'assassin']);
    assert.deepEqual(matched([rule('*hole', 'wildcard', 'block')], 'hole asshole holes'), ['hole', 'asshole']);
  });

  it('matches phrases in which * stands for a whole word', () => {
    assert.deepEqual(matched([rule('buy * now', 'wildcard', 'block')], 'buy pills now, buy now, buy cheap pills now'), ['buy pills now']);
  });

  it('works on Cyrillic and counts ? as one character even outside the BMP', () => {
    assert.deepEqual(matched([rule('бл*ть', 'wildcard', 'block')], 'БЛЯТЬ блин блть'), ['БЛЯТЬ', 'блть']);
    assert.deepEqual(matched([rule('a?b', 'wildcard', 'block')], 'a𝒳b a𝒳𝒳b'), ['a𝒳b']);
  });

  it('takes * and ? literally in exact patterns', () => {
    assert.deepEqual(matched([rule('f*ck', 'exact', 'block')], 'fuck f*ck'), ['f*ck']);
  });
});

describe('word-filter engine: regex patterns', () => {
  it('accepts bare patterns and /…/flags, ignoring case unless case sensitive', () => {
    assert.deepEqual(matched([rule('\\b\\d{3}-\\d{4}\\b', 'regex', 'block')], 'call 555-1234 or 5555-12345'), ['555-1234']);
    assert.deepEqual(matched([rule('/spam+/', 'regex', 'block')], 'SPAMMM spam'), ['SPAMMM', 'spam']);
    assert.deepEqual(matched([rule('/spam+/', 'regex', 'block', { case_sensitive: true })], 'SPAMMM spam'), ['spam']);
    assert.deepEqual(matched([rule('/spam+/i', 'regex', 'block', { case_sensitive: true })], 'SPAMMM spam'), ['SPAMMM', 'spam']);
  });

  it('finds a case-insensitive match where case folding differs between RE2 and lower-casing (ſ)', () => {
    assert.deepEqual(matched([rule('spam', 'regex', 'block')], 'ſpam SPAM'), ['ſpam', 'SPAM']);
    assert.deepEqual(matched([rule('spam', 'regex', 'block')], 'ſpam'), ['ſpam']);
  });

  it('honours the m, s and x flags', () => {
    assert.deepEqual(matched([rule('/^buy$/m', 'regex', 'block')], 'hello\nbuy\nnow'), ['buy']);
    assert.deepEqual(matched([rule('/^buy$/', 'regex', 'block')], 'hello\nbuy\nnow'), []);
    assert.deepEqual(matched([rule('/a.b/s', 'regex', 'block')], 'a\nb'), ['a\nb']);
    assert.deepEqual(matched([rule('/a.b/', 'regex', 'block')], 'a\nb'), []);
    assert.deepEqual(matched([rule('/ \\d{3} - \\d{4}  # a phone number\n/x', 'regex', 'block')], 'call 555-1234'), ['555-1234']);
  });

  it('understands Unicode classes, escapes, named groups and quoting', () => {
    assert.deepEqual(matched([rule('/\\p{Cyrillic}+/u', 'regex', 'block')], 'abc ПРИВЕТ'), ['ПРИВЕТ']);
    assert.deepEqual(matched([rule('\\u0041\\u{42}', 'regex', 'block', { case_sensitive: true })], 'AB ab'), ['AB']);
    assert.deepEqual(matched([rule('(?:^|[^\\p{L}])кот', 'regex', 'block')], 'скот КОТ'), [' КОТ']);
    assert.deepEqual(matched([rule('\\p{Lu}\\p{Lu}', 'regex', 'block', { case_sensitive: true })], 'ab AB'), ['AB']);
    assert.deepEqual(matched([rule('(?<word>sp(a)m)|\\Q(x)\\E', 'regex', 'block')], 'spam (x) x'), ['spam', '(x)']);
  });
});

describe('word-filter engine: regex matches in long text', () => {
  // Long text is searched window by window (16 KB for small programs, 1 KB
  // for the largest, with 512 characters of context each side); these place
  // matches on and across window edges.
  const filler = (length: number): string => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27)).slice(0, length);

  it('finds every match, also on and across window edges', () => {
    let text = filler(60_000);
    const places = [0, 1020, 4090, 4094, 8191, 12_285, 16_380, 20_000, 32_765, 40_957, 59_990];
    for (const at of places) text = `${text.slice(0, at)}spam1234${text.slice(at + 8)}`;
    const expected = [...text.matchAll(/spam\d+/gi)].map((found) => [found.index, found.index + found[0].length]);
    // The last one is a large program (about 210 instructions), read in windows of under 2 KB.
    for (const pattern of ['/spam\\d+/', '/spam\\d+/i', 'SPAM\\d+', '/spam\\d+|zq\\w{1,100}q/']) {
      const result = check([rule(pattern, 'regex', 'block')], text);
      assert.deepEqual(
        result.matches.map((m) => [m.start, m.end]),
        expected,
        pattern,
      );
    }
  });

  it('finds a match longer than a window margin', () => {
    const long = `start${'x'.repeat(900)}end`;
    const text = `${filler(30_000)}${long}${filler(30_000)}`;
    const result = check([rule('/start x+ end/x', 'regex', 'block')], text);
    assert.deepEqual(
      result.matches.map((m) => [m.start, m.end]),
      [[30_000, 30_000 + long.length]],
    );
  });

  it('honours anchors and word boundaries as in the whole text', () => {
    const text = `end ${filler(40_000)} end`;
    assert.deepEqual(
      check([rule('/end$/', 'regex', 'block')], text).matches.map((m) => m.start),
      [text.length - 3],
    );
    assert.deepEqual(
      check([rule('/^end/', 'regex', 'block')], text).matches.map((m) => m.start),
      [0],
    );
    const glued = `${filler(15_871)}qxy${filler(20_000)}`; // xy where the window of 16384.. starts reading
    assert.deepEqual(check([rule('\\bxy', 'regex', 'block')], glued).matches, []);
  });
});

describe('word-filter engine: precedence and replacement', () => {
  it('blocks when any block rule matches, whatever else matches', () => {
    const rules = [rule('darn', 'exact', 'replace'), rule('spam', 'exact', 'moderate'), rule('scam', 'exact', 'block')];
    assert.equal(check(rules, 'darn spam scam').action, 'block');
    assert.equal(check(rules, 'darn spam').action, 'moderate');
    assert.equal(check(rules, 'darn').action, 'allow');
    assert.equal(check(rules, 'nothing here').action, 'allow');
  });

  it('applies replacements whatever the action, and reports every match by position', () => {
    const rules = [rule('darn', 'exact', 'replace', { replacement: 'd**n', severity: 'low' }), rule('spam', 'exact', 'moderate', { severity: 'high' })];
    const result = check(rules, 'spam darn');
    assert.equal(result.action, 'moderate');
    assert.equal(result.text, 'spam d**n');
    assert.deepEqual(result.matches, [
      { filter_id: rules[1]!.id, filter_type: 'moderate', severity: 'high', start: 0, end: 4, match: 'spam' },
      { filter_id: rules[0]!.id, filter_type: 'replace', severity: 'low', start: 5, end: 9, match: 'darn' },
    ]);
  });

  it('applies every replace rule, the longest match first, where matches overlap', () => {
    const rules = [
      rule('bad', 'exact', 'replace', { replacement: '[b]' }),
      rule('bad word', 'exact', 'replace', { replacement: '[phrase]' }),
      rule('word', 'exact', 'replace', { replacement: '[w]' }),
    ];
    assert.equal(check(rules, 'bad word, bad, word').text, '[phrase], [b], [w]');
    assert.equal(check(rules, 'bad word, bad, word').matches.length, 5);
  });

  it('never matches replaced text again', () => {
    const rules = [rule('darn', 'exact', 'replace', { replacement: 'heck' }), rule('heck', 'exact', 'replace', { replacement: 'h**k' })];
    assert.equal(check(rules, 'darn heck').text, 'heck h**k');
  });

  it('keeps content types apart', () => {
    const book = new RuleBook([rule('darn', 'exact', 'block', { applies_to: ['signatures', 'usernames'] })]);
    assert.equal(book.check('darn', 'signatures').action, 'block');
    assert.equal(book.check('darn', 'usernames').action, 'block');
    assert.equal(book.check('darn', 'posts').action, 'allow');
  });

  it('skips a stored regex it cannot compile, and says so', () => {
    const bad = rule('(?=look-ahead)', 'regex', 'block');
    const problems: string[] = [];
    const book = new RuleBook([bad, rule('darn', 'exact', 'block')], (found, problem) => problems.push(`${found.id}: ${problem}`));
    assert.equal(book.check('darn', 'posts').action, 'block');
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, new RegExp(`^${bad.id}: The pattern uses look-around`));
  });
});

describe('word-filter engine: hostile patterns and text', () => {
  it('evaluates /^(a+)+$/ against 100 KB of a followed by ! in under 50 ms', () => {
    const book = new RuleBook([rule('/^(a+)+$/', 'regex', 'block')]);
    const text = `${'a'.repeat(100_000)}!`;
    assert.equal(book.check(text, 'posts').action, 'allow');
    // The best of three: the engine's cost, not a busy machine's pauses.
    const ms = Math.min(...[1, 2, 3].map(() => elapsed(() => book.check(text, 'posts'))));
    assert.ok(ms < 50, `took ${ms.toFixed(1)} ms`);
  });

  it('keeps other catastrophic-backtracking classics linear', () => {
    const book = new RuleBook([
      rule('(a|aa)+$', 'regex', 'block'),
      rule('(\\w+\\s?)+$', 'regex', 'moderate'),
      rule('(x+x+)+y', 'regex', 'block'),
      rule('(.*a){12}', 'regex', 'block'),
    ]);
    book.check('warm up', 'posts');
    const text = `${'a'.repeat(50_000)}!`;
    const ms = elapsed(() => book.check(text, 'posts'));
    // A backtracking engine would not finish these within a lifetime; a
    // generous bound keeps the test steady on a busy machine.
    assert.ok(ms < 1000, `took ${ms.toFixed(1)} ms`);
  });

  it('stays fast on one giant word against many wildcard rules', () => {
    const rules = Array.from({ length: 200 }, (_, i) => rule(`*a${'?'.repeat(i % 5)}b${i}*`, 'wildcard', 'block'));
    const book = new RuleBook([...rules, rule('a*a*a*a*a*c', 'wildcard', 'block'), rule('*aaaa*', 'wildcard', 'replace')]);
    book.check('warm up', 'posts');
    const text = 'a'.repeat(150_000);
    let result: CheckResult | undefined;
    const ms = elapsed(() => (result = book.check(text, 'posts', { budgetMs: AMPLE_MS })));
    assert.equal(result!.action, 'allow');
    assert.equal(result!.text, '***');
    assert.ok(ms < 1000, `took ${ms.toFixed(1)} ms`);
  });

  it('costs about the same per character on short and long text (linear, not quadratic)', () => {
    const book = new RuleBook(Array.from({ length: 300 }, (_, i) => rule(`word${i}`, 'exact', 'replace')));
    const sentence = 'the quick brown fox jumps over word7 the lazy dog ';
    const short = sentence.repeat(200); // 10 KB
    const long = sentence.repeat(4000); // 200 KB: 20 times longer, so quadratic work would cost 20 times more per character
    // The same 800 KB of text both ways (the short text 80 times, the long one
    // 4 times), so that each batch is tens of milliseconds of CPU: CPU clocks
    // tick in milliseconds, and one check of the short text is less than one.
    const perChar = (text: string): number => {
      const times = 800_000 / text.length;
      const batch = () => elapsed(() => Array.from({ length: times }, () => book.check(text, 'posts')));
      return Math.min(batch(), batch(), batch()) / (times * text.length);
    };
    perChar(short);
    const perCharShort = perChar(short);
    const perCharLong = perChar(long);
    assert.ok(perCharLong < perCharShort * 5, `short ${(perCharShort * 1e6).toFixed(1)} ns/char, long ${(perCharLong * 1e6).toFixed(1)} ns/char`);
  });

  it(`refuses text over ${MAX_TEXT_LENGTH} characters, counting code points`, () => {
    const book = new RuleBook([rule('darn', 'exact', 'block')]);
    assert.throws(() => book.check('a'.repeat(MAX_TEXT_LENGTH + 1), 'posts'), TextTooLongError);
    assert.equal(book.check('a'.repeat(MAX_TEXT_LENGTH), 'posts').action, 'allow');
    // 200,000 emoji are 400,000 UTF-16 units but 200,000 characters.
    assert.equal(book.check('😀'.repeat(MAX_TEXT_LENGTH), 'posts').action, 'allow');
  });

  it(`lists at most ${MAX_REPORTED_MATCHES} matches but replaces them all`, () => {
    const result = check([rule('x', 'exact', 'replace', { replacement: 'y' })], 'x '.repeat(3000));
    assert.equal(result.matches.length, MAX_REPORTED_MATCHES);
    assert.equal(result.text, 'y '.repeat(3000));
  });

  it('lets regex rules it had no time to locate still decide: block blocks, replace holds for moderation', () => {
    const block = new Matcher([rule('spam+', 'regex', 'block')]);
    assert.deepEqual(block.scan('spammm', 1000, -1).unlocated, [0]);
    assert.equal(applyRules(block, 'spammm', { budgetMs: 1000, locateMs: -1 }).action, 'block');
    const replace = new Matcher([rule('spam+', 'regex', 'replace')]);
    const result = applyRules(replace, 'spammm', { budgetMs: 1000, locateMs: -1 });
    assert.equal(result.action, 'moderate');
    assert.equal(result.text, 'spammm');
    assert.equal(applyRules(replace, 'spammm').text, '***');
    assert.equal(applyRules(replace, 'ham', { budgetMs: 1000, locateMs: -1 }).action, 'allow', 'a rule that does not match decides nothing');
  });

  it('holds text for moderation when regex rules that may match could not be run in time, never lets it through unchecked', () => {
    const block = new Matcher([rule('spam+', 'regex', 'block'), rule('darn', 'exact', 'replace', { replacement: 'd**n' })]);
    const scan = block.scan('spammm darn', -1);
    assert.deepEqual(scan.undecided, [0]);
    const result = applyRules(block, 'spammm darn', { budgetMs: -1 });
    assert.equal(result.action, 'moderate');
    assert.equal(result.text, 'spammm d**n', 'exact and wildcard rules always run');
    assert.equal(applyRules(block, 'ham', { budgetMs: -1 }).action, 'allow', 'a rule the screen rules out needs no time');
  });
});

describe('word-filter engine: what a rule may cost', () => {
  const refusal = (pattern: string): string | undefined => {
    try {
      compileRegex(pattern, false);
      return undefined;
    } catch (error) {
      assert.ok(error instanceof RegexProblem);
      return error.message;
    }
  };

  it('refuses the reported rule \\w{1,1000}\\w{1,1000}! and any count above 100, with a sentence', () => {
    assert.equal(
      refusal('\\w{1,1000}\\w{1,1000}!'),
      `The pattern repeats something 1000 times ({1,1000}); counts above ${MAX_REPEAT} are not allowed, as they make the rule too costly to run. Use + or * for "any number".`,
    );
    for (const pattern of ['a{101}', 'a{101,}', 'x{0,101}', '/(?:ab){2,500}/i', '\\p{L}{1,200}'])
      assert.match(refusal(pattern) ?? 'accepted', /^The pattern repeats something \d+ times/, pattern);
  });

  it('refuses a counted repetition inside another, which multiply', () => {
    for (const pattern of ['(?:a{1,10}){1,10}', '(a(?:b{2}|c)){3}', '/(?<w>\\w{2,5}){2}/']) {
      assert.match(refusal(pattern) ?? 'accepted', /^The pattern nests a counted repetition inside another/, pattern);
    }
  });

  it(`refuses a pattern that compiles to more than ${MAX_PROGRAM_SIZE} RE2 instructions`, () => {
    assert.match(refusal('\\w{1,100}\\w{1,100}!') ?? 'accepted', /^The pattern is too costly to run: it compiles to 401 instructions, more than 300\./);
    assert.match(refusal('/(?:ab|ba){1,100}/i') ?? 'accepted', /too costly to run/);
  });

  it('accepts the shapes at the limits, counts in escapes and classes that are not repetitions, and repetition of a group without counts', () => {
    for (const pattern of [
      '\\w{1,100}!',
      '\\w{1,70}\\w{1,70}!',
      '(?:a+b){1,50}',
      '\\x{41}{3}',
      '\\p{Greek}{1,100}',
      '[{]{1,5}',
      'a{,1000}',
      '\\Q{1000}\\E',
      '(?:\\d{3}-)+\\d{4}',
      '\\b\\d{3}-\\d{4}\\b',
    ]) {
      assert.equal(refusal(pattern), undefined, pattern);
    }
    // A 255-character word list fits.
    const words = Array.from({ length: 40 }, (_, i) => `w${'o'.repeat(i % 4)}rd${i}`).join('|');
    assert.equal(refusal(`/\\b(?:${words.slice(0, 240)})\\b/i`), undefined);
  });

  it('accepts every rule of the costliest set used below', () => {
    for (const rule of costlyRules()) {
      if (rule.pattern_type === 'regex') assert.equal(refusal(rule.pattern), undefined, rule.pattern);
      if (rule.pattern_type === 'wildcard') assert.ok(containsWord(rule.pattern), rule.pattern);
    }
  });

  // Measured in CPU time as well as on the clock: on a CI machine whose two
  // cores are shared by many processes, a check that does 10 ms of work
  // can take 200 ms of wall time, and the engine cannot help that. The
  // reported stall was 48.8 s of work per check. The process's CPU time also
  // counts its other threads (the collector's, the test runner's), which on a
  // crowded machine added 30% to a check that stopped at its 30 ms deadline:
  // the bound is twice that deadline plus room, the figure itself is in the bench.
  it(`checks 100 KB against 2,000 of the costliest accepted rules in under 100 ms of work (median of 5), and never allows text it could not check`, () => {
    const book = new RuleBook(costlyRules());
    book.compileAll();
    const figures: string[] = [];
    for (const [name, text] of Object.entries(costlyTexts(100_000))) {
      book.check(text, 'posts'); // the automata build their first states
      const cpu: number[] = [];
      const wall: number[] = [];
      let result: CheckResult | undefined;
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        cpu.push(elapsed(() => (result = book.check(text, 'posts'))));
        wall.push(performance.now() - started);
      }
      const median = (values: number[]): number => [...values].sort((a, b) => a - b)[2]!;
      figures.push(
        `${name}: median ${median(cpu).toFixed(1)} ms of CPU, ${median(wall).toFixed(1)} ms on the clock (max ${Math.max(...wall).toFixed(1)}), ${result!.action}`,
      );
      // Wall time is printed, not bounded: the check is synchronous, so its CPU time is the work.
      assert.ok(median(cpu) < 100, figures.join('; '));
      if (name === 'runs of a and punctuation') assert.notEqual(result!.action, 'allow', 'a block rule (\\w{1,100}!) matches this text');
    }
    console.log(`2,000 costliest rules, 100 KB: ${figures.join('; ')}`);
  });

  it('stops the wildcard rules at the deadline too: 1,000 wildcards that scan a giant word to the end', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const rules = Array.from({ length: 1000 }, (_, i) => rule(`*aaa*a?${letters[i % 26]}?${letters[Math.floor(i / 26) % 26]}b*`, 'wildcard', 'replace'));
    const book = new RuleBook(rules);
    book.check('warm up', 'posts');
    const text = 'a'.repeat(100_000);
    let result: CheckResult | undefined;
    // CPU time, the best of three (see above).
    const ms = Math.min(...[1, 2, 3].map(() => elapsed(() => (result = book.check(text, 'posts')))));
    assert.ok(ms < 50, `took ${ms.toFixed(1)} ms of CPU`);
    assert.equal(result!.action, 'moderate', 'not all rules could be checked in time: a person decides');
    assert.equal(book.check('aaaaaxaxb', 'posts', { budgetMs: AMPLE_MS }).text, '***', 'with the time, they match');
  });
});
