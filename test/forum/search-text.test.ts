// The search tokenizer, the query parser and what it writes for each database,
// the snippet and the tsvector literal (src/forum/search/).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bbcodeText } from '../../src/forum/bbcode/bbcode.ts';
import { fts5Match, highlightTerms, MAX_CLAUSES, MAX_PREFIXES, parseQuery, tsqueryLiteral, type SearchQuery } from '../../src/forum/search/query.ts';
import { tsvectorLiteral } from '../../src/forum/search/repository.ts';
import { snippetHtml } from '../../src/forum/search/snippet.ts';
import { MAX_TERM_LENGTH, normalizeTerm, tokenize } from '../../src/forum/search/text.ts';

/** The words of a text as the index holds them unstemmed. */
const terms = (text: string): string[] => tokenize(text).map((token) => token.word);
const stems = (text: string): string[] => tokenize(text).map((token) => token.term);

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
    for (const token of tokenize(text)) assert.equal(normalizeTerm(text.slice(token.start, token.end)), token.word);
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

describe('search word forms', () => {
  it('stems English and Russian words, so that other forms of a word find it', () => {
    assert.deepEqual(stems('release releases released releasing'), ['releas', 'releas', 'releas', 'releas']);
    assert.deepEqual(stems('torrents seeding seeders'), ['torrent', 'seed', 'seeder']);
    assert.deepEqual(stems('кириллица кириллицы кириллицей'), ['кириллиц', 'кириллиц', 'кириллиц']);
    assert.deepEqual(stems('раздача раздачи раздачу ЁЛКИ'), ['раздач', 'раздач', 'раздач', 'елк']);
  });

  it('leaves numbers, mixed words and other scripts whole', () => {
    assert.deepEqual(stems('x264 1080p 2024 東京 ἀλήθειες naïvely'), ['x264', '1080p', '2024', '東', '京', 'αληθειες', 'naiv']);
    assert.deepEqual(stems('hello мир'), ['hello', 'мир']);
  });

  it('keeps the word as written beside its stem', () => {
    assert.deepEqual(
      tokenize('Releases').map((token) => [token.term, token.word]),
      [['releas', 'releases']],
    );
  });
});

describe('search query', () => {
  it('parses words, phrases, prefixes and exclusions', () => {
    assert.deepEqual(parsed('Seeding "open port" rout* -spam -"bad words"'), {
      required: [
        { terms: ['seed'], words: ['seeding'], prefix: false },
        { terms: ['open', 'port'], words: ['open', 'port'], prefix: false },
        { terms: ['rout'], words: ['rout'], prefix: true },
      ],
      excluded: [
        { terms: ['spam'], words: ['spam'], prefix: false },
        { terms: ['bad', 'word'], words: ['bad', 'words'], prefix: false },
      ],
    });
  });

  it('takes a word with punctuation or CJK characters as a phrase', () => {
    assert.deepEqual(parsed('e-mail 東京').required, [
      { terms: ['e', 'mail'], words: ['e', 'mail'], prefix: false },
      { terms: ['東', '京'], words: ['東', '京'], prefix: false },
    ]);
  });

  it('needs three characters before a prefix star, and takes at most two prefixes', () => {
    assert.deepEqual(parsed('ab*').required, [{ terms: ['ab'], words: ['ab'], prefix: false }]);
    assert.deepEqual(parsed('abc*').required, [{ terms: ['abc'], words: ['abc'], prefix: true }]);
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
    assert.equal(fts5Match(query, 'all'), '("seed" AND "_open_port" AND "rout" *) NOT ("spam")');
    assert.equal(fts5Match(parsed('open-the-por*'), 'all'), '"_open_the _the_por" *');
    assert.equal(fts5Match(parsed('a b'), 'titles'), '{title} : ("a" AND "b")');
  });

  it('writes a tsquery literal with phrases, prefixes, exclusions and the title weight', () => {
    const query = parsed('Seeding "open port" rout* -spam');
    assert.equal(tsqueryLiteral(query, 'all'), "'seed' & '_open_port' & 'rout':* & !'spam'");
    assert.equal(tsqueryLiteral(parsed('open-the-por* -"bad words"'), 'all'), "('_open_the' <-> '_the_por':*) & !'_bad_word'");
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

  it('matches a prefix as typed, against the words as written', () => {
    assert.deepEqual(parsed('generat*').required, [{ terms: ['generat'], words: ['generat'], prefix: true }]);
    assert.deepEqual(parsed('open-ports*').required, [{ terms: ['open', 'ports'], words: ['open', 'ports'], prefix: true }]);
    assert.equal(fts5Match(parsed('releases generat*'), 'all'), '"releas" AND "generat" *');
  });

  it('while entries written before stemming remain, matches each clause stemmed or as typed', () => {
    assert.equal(
      fts5Match(parsed('releases "open ports" rout* -spams'), 'all', true),
      '(("releas" OR "releases") AND ("_open_port" OR "_open_ports") AND "rout" *) NOT (("spam" OR "spams"))',
    );
    assert.equal(
      tsqueryLiteral(parsed('releases "open ports" -spams'), 'all', false, true),
      "('releas' | 'releases') & ('_open_port' | '_open_ports') & !('spam' | 'spams')",
    );
    assert.equal(fts5Match(parsed('port'), 'all', true), '"port"', 'a word that is its own stem is asked for once');
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

  it('marks other forms of the words searched for, and words starting with a prefix as written', () => {
    assert.equal(
      snippetHtml('One release, two releases; кириллицы. Generation!', highlightTerms(parsed('released кириллица generat*'))),
      'One <mark>release</mark>, two <mark>releases</mark>; <mark>кириллицы</mark>. <mark>Generation</mark>!',
    );
  });

  it('cuts a long text around the first match, on word boundaries, with ellipses', () => {
    const text = `${'lorem ipsum '.repeat(40)}needle ${'dolor sit '.repeat(40)}`;
    const snippet = snippetHtml(text, highlightTerms(parsed('needle')));
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
      tsvectorLiteral(tokenize('seeding tips'), tokenize('seeding now')),
      "'seed':1A,4 'seeding':1A,4 '_seed_tip':1A 'tip':2A 'tips':2A '_seed_now':4 'now':5 '^see' '^seed' '^tip' '^tips' '^now'",
    );
    assert.equal(tsvectorLiteral([], [{ term: "o'x", word: "o'x", start: 0, end: 3 }]), "'o''x':2 '^o''x'");
  });

  it('ends with each word’s first three and four letters, once each, never cutting a character', () => {
    assert.equal(
      tsvectorLiteral([], tokenize('routers router елка a𝒜b x𝒜yz')),
      "'router':2,3 'routers':2 '_router_router':2 '_router_елк':3 'елк':4 'елка':4 '_елк_a𝒜b':4 'a𝒜b':5 '_a𝒜b_x𝒜yz':5 'x𝒜yz':6 '^rou' '^rout' '^елк' '^елка' '^a𝒜b' '^x𝒜y' '^x𝒜yz'",
    );
  });

  it('keeps every term of a very long text, positions past the last one clamped', () => {
    const body = Array.from({ length: 20_000 }, (_, n) => `w${n}`);
    const literal = tsvectorLiteral([], tokenize(body.join(' ')));
    assert.match(literal, /'w19999':16383 '\^w10' '\^w11' /);
    assert.match(literal, /'w0':2 /);
  });

  it('keeps at most 256 positions per term', () => {
    const literal = tsvectorLiteral([], tokenize('same '.repeat(300)));
    const positionsOf = (term: string): number =>
      literal
        .split(' ')
        .find((entry) => entry.startsWith(`'${term}':`))!
        .split(',').length;
    assert.equal(positionsOf('same'), 256);
    assert.equal(positionsOf('_same_same'), 256);
  });
});
