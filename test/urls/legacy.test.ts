import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legacyTarget, type LegacyTarget } from '../../src/urls/legacy.ts';

/** The target with its query as a string, for readable comparisons. */
function target(url: string): (Omit<LegacyTarget, 'query'> & { query: string }) | null {
  const parsed = new URL(url, 'http://forum.test');
  const result = legacyTarget(parsed.pathname, parsed.searchParams);
  return result === null ? null : { ...result, query: result.query.toString() };
}

describe('legacyTarget: /viewtopic, /viewforum', () => {
  it('maps /viewtopic?t=<id> to the topic', () => {
    assert.deepEqual(target('/viewtopic?t=5'), { kind: 'topic', id: 5, query: '' });
  });

  it('keeps the other parameters in their order (decisions.md: ?t=5&start=20 keeps start=20)', () => {
    assert.deepEqual(target('/viewtopic?t=5&start=20'), { kind: 'topic', id: 5, query: 'start=20' });
    assert.deepEqual(target('/viewtopic?view=newest&t=5&start=20&view=x'), { kind: 'topic', id: 5, query: 'view=newest&start=20&view=x' });
  });

  it('maps /viewtopic?p=<id> to the post (its topic page opens where the post is); t wins when both are given', () => {
    assert.deepEqual(target('/viewtopic.php?p=7&highlight=x'), { kind: 'post', id: 7, query: 'highlight=x' });
    assert.deepEqual(target('/viewtopic?t=5&p=7'), { kind: 'topic', id: 5, query: 'p=7' });
  });

  it('maps /viewforum?f=<id> to the forum', () => {
    assert.deepEqual(target('/viewforum?f=3&start=50'), { kind: 'forum', id: 3, query: 'start=50' });
  });

  it('treats the .php spellings the same', () => {
    assert.deepEqual(target('/viewtopic.php?t=5&start=20'), { kind: 'topic', id: 5, query: 'start=20' });
    assert.deepEqual(target('/viewforum.php?f=3'), { kind: 'forum', id: 3, query: '' });
  });

  it('takes the last value of a repeated id parameter, as the PHP engine did', () => {
    assert.deepEqual(target('/viewtopic?t=5&t=6'), { kind: 'topic', id: 6, query: '' });
  });

  it('answers null (404) for a missing or invalid id', () => {
    for (const url of [
      '/viewtopic',
      '/viewtopic?t=',
      '/viewtopic?t=0',
      '/viewtopic?t=-5',
      '/viewtopic?t=abc',
      '/viewtopic?t=5.5',
      '/viewtopic?t=05',
      '/viewtopic?t=2147483648',
      '/viewtopic?p=abc',
      '/viewtopic?t=&p=5',
      '/viewforum?t=5',
      '/viewforum.php?f=x',
    ]) {
      assert.equal(target(url), null, url);
    }
  });

  it('accepts the largest id', () => {
    assert.deepEqual(target('/viewtopic?t=2147483647'), { kind: 'topic', id: 2147483647, query: '' });
  });

  it('answers null for other paths, including near misses', () => {
    for (const url of [
      '/',
      '/viewtopic/',
      '/viewtopic.html?t=5',
      '/VIEWTOPIC?t=5',
      '/topic?t=5',
      '/viewtopic.php/x?t=5',
      '/forum/viewtopic?t=5',
      '/index.php?t=5',
    ]) {
      assert.equal(target(url), null, url);
    }
  });
});

describe('legacyTarget: /profile?mode=…', () => {
  it('maps mode=viewprofile&u=<id> to the profile, keeping other parameters', () => {
    assert.deepEqual(target('/profile?mode=viewprofile&u=7'), { kind: 'profile', id: 7, query: '' });
    assert.deepEqual(target('/profile.php?mode=viewprofile&u=7&tab=posts'), { kind: 'profile', id: 7, query: 'tab=posts' });
  });

  it('maps mode=email&u=<id> to the e-mail page of that user', () => {
    assert.deepEqual(target('/profile.php?mode=email&u=7'), { kind: 'profile-email', id: 7, query: '' });
  });

  it('maps the account modes to the new pages', () => {
    assert.deepEqual(target('/profile?mode=register'), { kind: 'page', path: '/register/', query: '' });
    assert.deepEqual(target('/profile?mode=editprofile'), { kind: 'page', path: '/settings/', query: '' });
    assert.deepEqual(target('/profile?mode=sendpassword'), { kind: 'page', path: '/password-recovery/', query: '' });
    assert.deepEqual(target('/profile?mode=bonus'), { kind: 'page', path: '/profile/bonus/', query: '' });
    assert.deepEqual(target('/profile.php?mode=watch&start=10'), { kind: 'page', path: '/profile/watchlist/', query: 'start=10' });
  });

  it('maps mode=activate&u=<id>&k=<key> to the activation page with the key encoded', () => {
    assert.deepEqual(target('/profile.php?mode=activate&u=42&k=a1b2c3'), { kind: 'page', path: '/activate/42/a1b2c3/', query: '' });
    assert.deepEqual(target('/profile?mode=activate&u=42&k=a%2Fb+c'), { kind: 'page', path: '/activate/42/a%2Fb%20c/', query: '' });
  });

  it('answers null (404) for a missing or invalid user id or key', () => {
    for (const url of [
      '/profile?mode=viewprofile',
      '/profile?mode=viewprofile&u=0',
      '/profile?mode=viewprofile&u=x',
      '/profile?mode=email',
      '/profile?mode=email&u=-1',
      '/profile?mode=activate&u=42',
      '/profile?mode=activate&u=42&k=',
      '/profile?mode=activate&k=abc',
      '/profile?mode=activate&u=abc&k=abc',
    ]) {
      assert.equal(target(url), null, url);
    }
  });

  it('answers null for a missing or unknown mode', () => {
    for (const url of [
      '/profile',
      '/profile?u=7',
      '/profile?mode=',
      '/profile?mode=delete&u=7',
      '/profile?mode=VIEWPROFILE&u=7',
      '/profile?mode=constructor',
      '/profile?mode=toString&u=1',
      '/profile?mode=__proto__',
    ]) {
      assert.equal(target(url), null, url);
    }
  });

  it('does not change the query it was given', () => {
    const query = new URLSearchParams('t=5&start=20');
    legacyTarget('/viewtopic', query);
    assert.equal(query.toString(), 't=5&start=20');
  });
});
