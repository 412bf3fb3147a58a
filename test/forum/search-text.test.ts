// The search tokenizer, the query parser and what it writes for each database,
// the snippet and the tsvector literal (src/forum/search/).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bbcodeText } from '../../src/forum/bbcode/bbcode.ts';
import { fts5Match, highlightTerms, MAX_CLAUSES, MAX_PREFIXES, parseQuery, tsqueryLiteral, type SearchQuery } from '../../src/forum/search/query.ts';
import { tsvectorLiteral } from '../../src/forum/search/repository.ts';
import { snippetHtml } from '../../src/forum/search/snippet.ts';
import { MAX_TERM_LENGTH, normalizeTerm, tokenize } from '../../src/forum/search/text.ts';

const terms = (text: string): string[] => tokenize(text).map((token) => token.term);

function parsed(text: string): SearchQuery {
  const result = parseQuery(text);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.query;
}

describe('search tokenizer', () => {
  it('lower-cases words and splits at everything that is not a letter or digit', () => {
    assert.deepEqual(terms('Hello, World! e-mail x264 3.5GB'), ['hello', 'world', 'e', 'mail', 'x264', '3', '5gb']);
  });

  it('removes diacritics from Latin and Greek, keeps й, turns ё into е', () => {
    assert.deepEqual(terms('Café Zürich naïve Ångström ÉCOLE'), ['cafe', 'zurich', 'naive', 'angstrom', 'ecole']);
    assert.deepEqual(terms('Йошкар-Ола ЁЛКА ёжик'), ['йошкар', 'ола', 'елка', 'ежик']);
    assert.deepEqual(terms('ἀλήθεια'), ['αληθεια']);
    assert.equal(normalizeTerm('Cafe\u0301'), 'cafe', 'decomposed accents too');
  });

  it('makes each Chinese or Japanese character a term, the letters around them words', () => {
    assert.deepEqual(terms('東京タワーabc中文'), ['東', '京', 'タ', 'ワ', 'ー', 'abc', '中', '文']);
    assert.deepEqual(terms('한국어 텍스트'), ['한국어', '텍스트'], 'Korean is written with spaces');
  });

  it('keeps the offsets of each word in the original text', () => {
    const text = 'Ёлка, café!';
    for (const token of tokenize(text)) assert.equal(normalizeTerm(text.slice(token.start, token.end)), token.term);
    assert.deepEqual(
      tokenize(text).map((t) => [t.start, t.end]),
      [
        [0, 4],
        [6, 10],
      ],
    );
  });

  it('cuts very long runs (hashes, base64) and ignores marks without a letter', () => {
    assert.equal(terms('a'.repeat(500))[0]!.length, MAX_TERM_LENGTH);
    assert.deepEqual(terms('\u0301\u0301 x'), ['x']);
  });

  it('reads the words of BBCode without its tags and image addresses', () => {
    assert.equal(bbcodeText('[b]Bold[/b] and [url=https://x.test/]a link[/url] [img]https://x.test/a.png[/img]'), 'Bold and a link  ');
    assert.deepEqual(terms(bbcodeText('[quote=alice]quoted[/quote][list][*]one[*]two[/list]')), ['quoted', 'one', 'two']);
  });
});

describe('search query', () => {
  it('parses words, phrases, prefixes and exclusions', () => {
    assert.deepEqual(parsed('Seeding "open port" rout* -spam -"bad words"'), {
      required: [
        { terms: ['seeding'], prefix: false },
        { terms: ['open', 'port'], prefix: false },
        { terms: ['rout'], prefix: true },
      ],
      excluded: [
        { terms: ['spam'], prefix: false },
        { terms: ['bad', 'words'], prefix: false },
      ],
    });
  });

  it('takes a word with punctuation or CJK characters as a phrase', () => {
    assert.deepEqual(parsed('e-mail 東京').required, [
      { terms: ['e', 'mail'], prefix: false },
      { terms: ['東', '京'], prefix: false },
    ]);
  });

  it('needs three characters before a prefix star, and takes at most two prefixes', () => {
    assert.deepEqual(parsed('ab*').required, [{ terms: ['ab'], prefix: false }]);
    assert.deepEqual(parsed('abc*').required, [{ terms: ['abc'], prefix: true }]);
    assert.equal(parseQuery(Array.from({ length: MAX_PREFIXES }, (_, n) => `word${n}*`).join(' ')).ok, true);
    assert.equal(parseQuery(Array.from({ length: MAX_PREFIXES + 1 }, (_, n) => `word${n}*`).join(' ')).ok, false);
  });

  it('refuses nothing to find, only exclusions, and too many words', () => {
    for (const text of ['', '  ', '*** !!!', '-spam', '""']) assert.equal(parseQuery(text).ok, false, text);
    assert.equal(parseQuery(Array.from({ length: MAX_CLAUSES + 1 }, (_, n) => `w${n}`).join(' ')).ok, false);
    assert.equal(parseQuery(Array.from({ length: MAX_CLAUSES }, (_, n) => `w${n}`).join(' ')).ok, true);
  });

  it('writes an FTS5 expression of quoted terms only, titles by column filter', () => {
    const query = parsed('Seeding "open port" rout* -spam');
    assert.equal(fts5Match(query, 'all'), '("seeding" AND "_open_port" AND "rout" *) NOT ("spam")');
    assert.equal(fts5Match(parsed('open-the-por*'), 'all'), '"_open_the _the_por" *');
    assert.equal(fts5Match(parsed('a b'), 'titles'), '{title} : ("a" AND "b")');
  });

  it('writes a tsquery literal with phrases, prefixes, exclusions and the title weight', () => {
    const query = parsed('Seeding "open port" rout* -spam');
    assert.equal(tsqueryLiteral(query, 'all'), "'seeding' & '_open_port' & 'rout':* & !'spam'");
    assert.equal(tsqueryLiteral(parsed('open-the-por* -"bad words"'), 'all'), "('_open_the' <-> '_the_por':*) & !'_bad_words'");
    assert.equal(tsqueryLiteral(parsed('rout* x'), 'titles'), "'rout':*A & 'x':A");
  });

  it('matches a word’s prefix through the prefix terms the documents hold, once they all hold them', () => {
    const prefixed = (text: string) => tsqueryLiteral(parsed(text), 'all', true);
    assert.equal(prefixed('rou*'), "'^rou'");
    assert.equal(prefixed('rout*'), "'^rout'");
    assert.equal(prefixed('router* -spam*'), "('^rout' & 'router':*) & !'^spam'");
    assert.equal(prefixed('ёлк* слоны*'), "'^елк' & ('^слон' & 'слоны':*)");
    // A phrase's last word stays a prefix of its last pair; titles need the weights only positions carry.
    assert.equal(prefixed('open-por*'), "'_open_por':*");
    assert.equal(tsqueryLiteral(parsed('rout*'), 'titles', true), "'rout':*A");
    // Three UTF-16 units but two letters: shorter than any prefix term.
    assert.equal(prefixed('a𝒜*'), "'a𝒜':*");
  });

  it('leaves no operator of either database in what it writes, whatever is typed', () => {
    for (const text of ['NEAR(a b)', 'a OR b', "o'brien", 'back\\slash', 'title:x', '{title}:x', 'a:*', '^start', 'x & !y | z', '(a)']) {
      const result = parseQuery(text);
      if (!result.ok) continue;
      const fts = fts5Match(result.query, 'all');
      // Outside the quoted terms, only our own syntax.
      assert.match(fts.replace(/"[^"]*"/g, ''), /^[\s()*]*(?:(?:AND|NOT|OR)[\s()*]*)*$/, `${text} → ${fts}`);
      const ts = tsqueryLiteral(result.query, 'all');
      assert.match(ts.replace(/'[^']*'/g, ''), /^[\s()&!<\->:*A]*$/, `${text} → ${ts}`);
    }
  });

  it('highlights the required terms, prefixes as prefixes', () => {
    assert.deepEqual(highlightTerms(parsed('a "b c" ddd* -e')), [
      { term: 'a', prefix: false },
      { term: 'b', prefix: false },
      { term: 'c', prefix: false },
      { term: 'ddd', prefix: true },
    ]);
  });
});

describe('search snippet', () => {
  it('marks every matching word, keeps the text as written and escapes it', () => {
    assert.equal(
      snippetHtml('<b>Café</b> & cafés, CAFE', [
        { term: 'cafe', prefix: false },
        { term: 'caf', prefix: true },
      ]),
      '&lt;b&gt;<mark>Café</mark>&lt;/b&gt; &amp; <mark>cafés</mark>, <mark>CAFE</mark>',
    );
  });

  it('cuts a long text around the first match, on word boundaries, with ellipses', () => {
    const text = `${'lorem ipsum '.repeat(40)}needle ${'dolor sit '.repeat(40)}`;
    const snippet = snippetHtml(text, [{ term: 'needle', prefix: false }]);
    assert.match(snippet, /^…ipsum .*<mark>needle<\/mark> dolor .* sit…$|^…lorem .*<mark>needle<\/mark> dolor .*…$/);
    assert.ok(snippet.length < 320);
  });

  it('starts at the beginning when nothing in the text matches (a title match)', () => {
    assert.equal(snippetHtml('Short text.', [{ term: 'x', prefix: false }]), 'Short text.');
  });
});

describe('tsvector literal', () => {
  it('weights title terms A, numbers positions with a gap after the title and quotes every term', () => {
    assert.equal(
      tsvectorLiteral(['seeding', 'tips'], ['seeding', 'now']),
      "'seeding':1A,4 '_seeding_tips':1A 'tips':2A '_seeding_now':4 'now':5 '^see' '^seed' '^tip' '^tips' '^now'",
    );
    assert.equal(tsvectorLiteral([], ["o'x"]), "'o''x':2 '^o''x'");
  });

  it('ends with each word’s first three and four letters, once each, never cutting a character', () => {
    assert.equal(
      tsvectorLiteral([], ['routers', 'router', 'елка', 'a😀b', 'x😀yz']),
      "'routers':2 '_routers_router':2 'router':3 '_router_елка':3 'елка':4 '_елка_a😀b':4 'a😀b':5 '_a😀b_x😀yz':5 'x😀yz':6 '^rou' '^rout' '^елк' '^елка' '^a😀b' '^x😀y' '^x😀yz'",
    );
  });

  it('keeps every term of a very long text, positions past the last one clamped', () => {
    const body = Array.from({ length: 20_000 }, (_, n) => `w${n}`);
    const literal = tsvectorLiteral([], body);
    assert.match(literal, /'w19999':16383 '\^w10' '\^w11' /);
    assert.match(literal, /'w0':2 /);
  });

  it('keeps at most 256 positions per term', () => {
    const literal = tsvectorLiteral(
      [],
      Array.from({ length: 300 }, () => 'same'),
    );
    const positionsOf = (term: string): number =>
      literal
        .split(' ')
        .find((entry) => entry.startsWith(`'${term}':`))!
        .split(',').length;
    assert.equal(positionsOf('same'), 256);
    assert.equal(positionsOf('_same_same'), 256);
  });
});
