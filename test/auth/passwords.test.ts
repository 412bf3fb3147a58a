import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { PasswordHasher } from '../../src/auth/passwords.ts';

describe('PasswordHasher', () => {
  it('stores the configured cost in the hash and verifies the right password only', async () => {
    const hasher = new PasswordHasher(10);
    const stored = await hasher.hash('correct horse');
    assert.match(stored, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await hasher.verify('correct horse', stored), true);
    assert.equal(await hasher.verify('correct hors', stored), false);
  });

  it('verifies a hash made at another cost (the cost travels with the hash)', async () => {
    const stored = await new PasswordHasher(11).hash('s3cret!');
    assert.equal(await new PasswordHasher(10).verify('s3cret!', stored), true);
  });

  it('refuses a cost below the safe minimum or above the maximum', () => {
    assert.throws(() => new PasswordHasher(9), RangeError);
    assert.throws(() => new PasswordHasher(21), RangeError);
  });

  it('answers false for an unknown user after doing the same work', async () => {
    assert.equal(await new PasswordHasher(10).verifyAgainstNobody('anything'), false);
  });

  it('treats a stored value of another scheme as no match', async () => {
    assert.equal(await new PasswordHasher(10).verify('x', 'plaintext'), false);
  });
});

describe('PasswordHasher with hashes carried over from TorrentPier', () => {
  const hasher = new PasswordHasher(10);
  // PHP's password_hash() writes $2y$; bcryptjs writes $2b$ for the same computation.
  const phpBcrypt = (password: string, cost = 4): string => bcrypt.hashSync(password, cost).replace(/^\$2b\$/, '$2y$');
  const doubleMd5 = (password: string): string => md5(md5(password));

  it('verifies a PHP bcrypt ($2y$) hash and refuses a wrong password', async () => {
    const stored = phpBcrypt('admin');
    assert.equal(await hasher.verify('admin', stored), true);
    assert.equal(await hasher.verify('Admin', stored), false);
  });

  it('verifies the pre-2.4 md5(md5(password)) hash and refuses a wrong password', async () => {
    const stored = doubleMd5('пароль 2009');
    assert.equal(await hasher.verify('пароль 2009', stored), true);
    assert.equal(await hasher.verify('пароль 2010', stored), false);
  });

  it('refuses a bcrypt hash whose cost would hold the CPU for seconds', async () => {
    const stored = phpBcrypt('admin').replace(/^\$2y\$04\$/, '$2y$31$');
    assert.equal(await hasher.verify('admin', stored), false);
  });

  it('asks for a rehash of imported hashes and of our own at a lower cost, not of a current one', async () => {
    assert.equal(hasher.needsRehash(phpBcrypt('x')), true);
    assert.equal(hasher.needsRehash(doubleMd5('x')), true);
    assert.equal(new PasswordHasher(11).needsRehash(await hasher.hash('x')), true);
    assert.equal(hasher.needsRehash(await hasher.hash('x')), false);
  });
});

function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}
