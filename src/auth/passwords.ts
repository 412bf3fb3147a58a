// Passwords are stored as scrypt hashes with a random salt; the parameters
// travel with the hash, so the cost can be raised later without breaking
// logins. The cost is configuration (PASSWORD_HASH_COST, log2 of scrypt's N):
// production never goes below its floor (config.ts), tests run far lower.
//
// Hashes carried over from TorrentPier are verified as they are: bcrypt
// (`$2y$`, PHP's password_hash) and, from before 2.4, md5(md5(password)) as 32
// hex digits. A successful login with one of those (or with our own scheme at
// a lower cost) is rehashed by the caller: see needsRehash().
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { PASSWORD_HASH_COST } from '../config.ts';

const KEY_LENGTH = 32;
const R = 8;
const P = 1;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export class PasswordHasher {
  readonly #n: number;
  #dummy: Promise<string> | null = null;

  /** `cost`: log2 of scrypt's N, within PASSWORD_HASH_COST's bounds. */
  constructor(cost: number = PASSWORD_HASH_COST.default) {
    const { min, max } = PASSWORD_HASH_COST;
    if (!Number.isInteger(cost) || cost < min || cost > max) throw new RangeError(`password hash cost must be an integer from ${min} to ${max}`);
    this.#n = 2 ** cost;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, { N: this.#n, r: R, p: P });
    return ['scrypt', this.#n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    if (BCRYPT.test(stored)) return verifyBcrypt(password, stored);
    if (DOUBLE_MD5.test(stored)) return verifyDoubleMd5(password, stored);
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || hash === undefined) return false;
    const expected = Buffer.from(hash, 'base64url');
    const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Whether a stored hash that just verified should be replaced by one of ours at today's cost. */
  needsRehash(stored: string): boolean {
    const [scheme, n] = stored.split('$');
    return scheme !== 'scrypt' || Number(n) < this.#n;
  }

  /**
   * Checked when the user does not exist, so an unknown name costs as much
   * time as a wrong password and the two cannot be told apart.
   */
  async verifyAgainstNobody(password: string): Promise<false> {
    this.#dummy ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(password, await this.#dummy);
    return false;
  }
}

// PHP writes `$2y$`, which computes the same hash as `$2a$`/`$2b$`.
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/** Above this a stored bcrypt cost would hold the CPU for seconds per login attempt. */
const MAX_BCRYPT_COST = 14;

async function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  const cost = Number(BCRYPT.exec(stored)?.[1]);
  if (cost > MAX_BCRYPT_COST) return false;
  // The async compare yields to the event loop between rounds.
  return bcrypt.compare(password, stored);
}

const DOUBLE_MD5 = /^[0-9a-f]{32}$/;

function verifyDoubleMd5(password: string, stored: string): boolean {
  const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');
  return timingSafeEqual(Buffer.from(md5(md5(password))), Buffer.from(stored));
}
