// Random bearer secrets (API tokens, session ids, one-time keys) and the hash
// under which they are stored: the database never holds a usable secret.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
