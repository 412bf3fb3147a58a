import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_ID,
  absoluteUrl,
  activationPath,
  bonusPath,
  forumPath,
  loginPath,
  logoutPath,
  parseId,
  parseSemanticSegment,
  passwordRecoveryPath,
  profileEmailPath,
  profilePath,
  registerPath,
  settingsPath,
  topicPath,
  watchlistPath,
  withQuery,
} from '../../src/urls/paths.ts';
import { slugify } from '../../src/urls/slug.ts';

describe('entity paths /{type}/{slug}.{id}/', () => {
  it('builds the topic, forum and profile pages from title, name and id', () => {
    assert.equal(topicPath({ id: 12, title: 'Часть вторая' }), '/topic/chast-vtoraya.12/');
    assert.equal(forumPath({ id: 3, name: 'Off-topic & Chat' }), '/forum/off-topic-chat.3/');
    assert.equal(profilePath({ id: 7, name: 'Jürgen_99' }), '/profile/jurgen-99.7/');
  });

  it('builds the profile e-mail page', () => {
    assert.equal(profileEmailPath({ id: 7, name: 'Jürgen' }), '/profile/jurgen.7/email/');
    assert.equal(profileEmailPath({ id: 7, name: 'Jürgen' }, { ref: 'topic' }), '/profile/jurgen.7/email/?ref=topic');
  });

  it('keeps the dot before the id when the slug is empty (rule 4)', () => {
    assert.equal(topicPath({ id: 12, title: '' }), '/topic/.12/');
    assert.equal(topicPath({ id: 12, title: '🎉🎉' }), '/topic/.12/');
    assert.equal(profilePath({ id: 4, name: '!!!' }), '/profile/.4/');
  });

  it('uses the truncated slug of a long title', () => {
    const path = topicPath({ id: 99, title: 'The quick brown fox jumps over the lazy dog and keeps running' });
    assert.equal(path, '/topic/the-quick-brown-fox-jumps-over-the-lazy-dog-and.99/');
  });

  it('accepts ids up to 2147483647 and refuses anything else (a link to it would be a bug)', () => {
    assert.equal(topicPath({ id: MAX_ID, title: 'x' }), `/topic/x.${MAX_ID}/`);
    for (const id of [0, -1, 1.5, MAX_ID + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => topicPath({ id, title: 'x' }), RangeError, `id ${id}`);
      assert.throws(() => forumPath({ id, name: 'x' }), RangeError, `id ${id}`);
      assert.throws(() => profilePath({ id, name: 'x' }), RangeError, `id ${id}`);
    }
  });
});

describe('static page paths', () => {
  it('builds each page of the spec table', () => {
    assert.equal(bonusPath(), '/profile/bonus/');
    assert.equal(watchlistPath(), '/profile/watchlist/');
    assert.equal(registerPath(), '/register/');
    assert.equal(settingsPath(), '/settings/');
    assert.equal(passwordRecoveryPath(), '/password-recovery/');
    assert.equal(loginPath(), '/login/');
    assert.equal(logoutPath(), '/logout/');
  });

  it('takes a query like the entity paths', () => {
    assert.equal(loginPath({ redirect: '/topic/x.1/' }), '/login/?redirect=%2Ftopic%2Fx.1%2F');
    assert.equal(watchlistPath({ page: 2 }), '/profile/watchlist/?page=2');
  });

  it('builds the activation page with the key encoded as one path segment', () => {
    assert.equal(activationPath(42, 'abc123'), '/activate/42/abc123/');
    assert.equal(activationPath(42, 'a/b c?d#e%'), '/activate/42/a%2Fb%20c%3Fd%23e%25/');
  });

  it('refuses an activation link without a valid id or key', () => {
    assert.throws(() => activationPath(0, 'abc'), RangeError);
    assert.throws(() => activationPath(42, ''), RangeError);
  });
});

describe('query and fragment', () => {
  it('appends parameters as ?k=v in the order given', () => {
    assert.equal(topicPath({ id: 1, title: 'x' }, { view: 'newest', start: 20, all: true }), '/topic/x.1/?view=newest&start=20&all=true');
  });

  it('moves the reserved _fragment key behind the query as #fragment', () => {
    assert.equal(topicPath({ id: 1, title: 'x' }, { view: 'newest', _fragment: 'newest' }), '/topic/x.1/?view=newest#newest');
    assert.equal(topicPath({ id: 1, title: 'x' }, { _fragment: 'post-5', start: 20 }), '/topic/x.1/?start=20#post-5');
  });

  it('gives a fragment without a query when _fragment is the only key', () => {
    assert.equal(topicPath({ id: 1, title: 'x' }, { _fragment: 'p5' }), '/topic/x.1/#p5');
  });

  it('leaves out undefined and null values, and an empty fragment', () => {
    assert.equal(forumPath({ id: 2, name: 'y' }, { a: undefined, b: '1', c: null, _fragment: '' }), '/forum/y.2/?b=1');
    assert.equal(forumPath({ id: 2, name: 'y' }, {}), '/forum/y.2/');
    assert.equal(forumPath({ id: 2, name: 'y' }, { a: undefined }), '/forum/y.2/');
  });

  it('keeps empty-string values', () => {
    assert.equal(withQuery('/p/', { q: '' }), '/p/?q=');
  });

  it('repeats the key of an array value', () => {
    assert.equal(withQuery('/p/', { tag: ['a', 'b'], n: 1 }), '/p/?tag=a&tag=b&n=1');
  });

  it('percent-encodes keys, values and the fragment', () => {
    assert.equal(withQuery('/p/', { 'a b': 'x&y=z', q: 'Größe + 1/2', _fragment: 'a b#c' }), '/p/?a%20b=x%26y%3Dz&q=Gr%C3%B6%C3%9Fe%20%2B%201%2F2#a%20b%23c');
  });

  it('round-trips through URLSearchParams', () => {
    const query = { q: 'a+b c&d', e: 'é/ü?' };
    const path = withQuery('/p/', query);
    const parsed = new URL(path, 'http://h').searchParams;
    assert.deepEqual(Object.fromEntries(parsed), query);
  });

  it('accepts URLSearchParams (as legacy redirects give), repeated keys and _fragment included', () => {
    const query = new URLSearchParams('start=20&highlight=a&highlight=b&_fragment=p9');
    assert.equal(topicPath({ id: 5, title: 'T' }, query), '/topic/t.5/?start=20&highlight=a&highlight=b#p9');
  });

  it('leaves the query of the caller untouched', () => {
    const query = new URLSearchParams('a=1&_fragment=x');
    topicPath({ id: 5, title: 'T' }, query);
    assert.equal(query.toString(), 'a=1&_fragment=x');
  });
});

describe('absoluteUrl', () => {
  it('joins origin and path', () => {
    assert.equal(absoluteUrl('https://forum.example.org', '/topic/x.1/'), 'https://forum.example.org/topic/x.1/');
  });

  it('tolerates a trailing slash on the origin and a path without its leading slash', () => {
    assert.equal(absoluteUrl('https://forum.example.org/', '/register/'), 'https://forum.example.org/register/');
    assert.equal(absoluteUrl('https://forum.example.org', 'register/'), 'https://forum.example.org/register/');
  });

  it('keeps a path prefix of the origin (BASE_URL under a sub-path)', () => {
    assert.equal(absoluteUrl('https://example.org/forum', topicPath({ id: 1, title: 'Hi' })), 'https://example.org/forum/topic/hi.1/');
  });

  it('keeps query and fragment', () => {
    assert.equal(absoluteUrl('http://127.0.0.1:8080', '/topic/x.1/?a=1#b'), 'http://127.0.0.1:8080/topic/x.1/?a=1#b');
  });
});

describe('parseSemanticSegment', () => {
  it('splits {slug}.{id}', () => {
    assert.deepEqual(parseSemanticSegment('my-title.123'), { slug: 'my-title', id: 123 });
  });

  it('reads an empty slug (/.5/)', () => {
    assert.deepEqual(parseSemanticSegment('.5'), { slug: '', id: 5 });
  });

  it('takes the id after the last dot; the rest is the slug', () => {
    assert.deepEqual(parseSemanticSegment('v1.2.15'), { slug: 'v1.2', id: 15 });
    assert.deepEqual(parseSemanticSegment('a..7'), { slug: 'a.', id: 7 });
  });

  it('accepts the largest id, 2147483647', () => {
    assert.deepEqual(parseSemanticSegment('x.2147483647'), { slug: 'x', id: 2147483647 });
  });

  it('rejects a segment without an id', () => {
    for (const segment of ['my-title', 'my-title.', '.', '', '123']) {
      assert.equal(parseSemanticSegment(segment), null, segment);
    }
  });

  it('rejects a non-positive, non-integer, non-canonical or too large id', () => {
    for (const segment of ['x.0', 'x.-1', 'x.1.5e3', 'x.1e3', 'x.12a', 'x.0x1f', 'x.+5', 'x. 5', 'x.5 ', 'x.007', 'x.2147483648', 'x.99999999999', 'x.١٢']) {
      assert.equal(parseSemanticSegment(segment), null, segment);
    }
  });

  it('reads back every path the builder makes', () => {
    for (const [id, title] of [
      [1, 'Часть вторая'],
      [2147483647, ''],
      [40, 'a.b_c'],
      [9, '日本語'],
    ] as const) {
      const segment = topicPath({ id, title }).split('/')[2]!;
      assert.deepEqual(parseSemanticSegment(segment), { slug: slugify(title), id });
    }
  });
});

describe('parseId', () => {
  it('reads canonical decimal ids in 1..2147483647', () => {
    assert.equal(parseId('1'), 1);
    assert.equal(parseId('2147483647'), 2147483647);
    assert.equal(parseId('0'), null);
    assert.equal(parseId('01'), null);
    assert.equal(parseId('2147483648'), null);
    assert.equal(parseId(''), null);
  });
});
