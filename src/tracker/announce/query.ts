// The announce and scrape query strings, read byte-exact from the raw URL.
// info_hash and peer_id are 20 raw bytes percent-encoded (BEP 3): they are
// decoded to bytes here and never pass through a UTF-8 decoder, which would
// turn every invalid sequence into U+FFFD and lose the hash.

/** Thrown for a parameter that is missing or malformed; the message is the failure reason. */
export class TrackerRequestError extends Error {}

/** Every parameter as raw bytes, repeated ones in order. */
export type RawQuery = Map<string, Buffer[]>;

const HEX: Int8Array = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) table[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    table[65 + i] = 10 + i;
    table[97 + i] = 10 + i;
  }
  return table;
})();

/** Parameters a query may carry at most (scrape: 150 hashes plus a few). */
const MAX_PARAMETERS = 200;

/** Splits `a=b&c=d` from the part of `url` after `?`. Names are ASCII-decoded; values stay bytes. */
export function parseRawQuery(url: string): RawQuery {
  const query = new Map<string, Buffer[]>();
  const start = url.indexOf('?');
  if (start === -1) return query;
  let count = 0;
  let at = start + 1;
  while (at <= url.length) {
    let end = url.indexOf('&', at);
    if (end === -1) end = url.length;
    if (end > at) {
      if (++count > MAX_PARAMETERS) throw new TrackerRequestError('Too many parameters.');
      const eq = url.indexOf('=', at);
      const nameEnd = eq === -1 || eq > end ? end : eq;
      const name = percentDecode(url, at, nameEnd).toString('latin1');
      const value = nameEnd === end ? Buffer.alloc(0) : percentDecode(url, nameEnd + 1, end);
      const list = query.get(name);
      if (list === undefined) query.set(name, [value]);
      else list.push(value);
    }
    at = end + 1;
  }
  return query;
}

/** Bytes of `text[from, to)` with %XX sequences decoded; any other character taken as its byte. */
function percentDecode(text: string, from: number, to: number): Buffer {
  const out = Buffer.allocUnsafe(to - from);
  let length = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 37 /* % */) {
      const high = i + 2 < to ? HEX[text.charCodeAt(i + 1) & 0xff]! : -1;
      const low = i + 2 < to ? HEX[text.charCodeAt(i + 2) & 0xff]! : -1;
      if (high < 0 || low < 0 || text.charCodeAt(i + 1) > 0xff || text.charCodeAt(i + 2) > 0xff) {
        throw new TrackerRequestError('Malformed percent-encoding in the query.');
      }
      out[length++] = (high << 4) | low;
      i += 2;
    } else {
      // Node reads the request line as latin1: a raw byte a careless client left unescaped is still that byte.
      if (code > 0xff) throw new TrackerRequestError('Malformed query.');
      out[length++] = code;
    }
  }
  return out.subarray(0, length);
}

/** The single value of `name`, or undefined. */
export function one(query: RawQuery, name: string): Buffer | undefined {
  return query.get(name)?.[0];
}

/** A 20-byte binary parameter (info_hash, peer_id). */
export function binary20(query: RawQuery, name: string): Buffer {
  const value = one(query, name);
  if (value === undefined || value.length === 0) throw new TrackerRequestError(`Missing ${name}.`);
  if (value.length !== 20) throw new TrackerRequestError(`Malformed ${name}: it must be 20 bytes, percent-encoded.`);
  return value;
}

/** A non-negative integer no larger than 2^53 - 1; `fallback` when absent (required when fallback is undefined). */
export function count(query: RawQuery, name: string, fallback?: number): number {
  const value = one(query, name);
  if (value === undefined || value.length === 0) {
    if (fallback === undefined) throw new TrackerRequestError(`Missing ${name}.`);
    return fallback;
  }
  if (value.length > 16) throw new TrackerRequestError(`Malformed ${name}: not a whole number.`);
  let result = 0;
  for (const byte of value) {
    if (byte < 48 || byte > 57) throw new TrackerRequestError(`Malformed ${name}: not a whole number.`);
    result = result * 10 + (byte - 48);
  }
  if (!Number.isSafeInteger(result)) throw new TrackerRequestError(`Malformed ${name}: too large.`);
  return result;
}

/** "1" or "0" (anything else: fallback). */
export function flag(query: RawQuery, name: string, fallback: boolean): boolean {
  const value = one(query, name);
  if (value === undefined || value.length !== 1) return fallback;
  if (value[0] === 49) return true;
  if (value[0] === 48) return false;
  return fallback;
}

/** ASCII text of a parameter (passkey, event), or undefined. */
export function text(query: RawQuery, name: string): string | undefined {
  return one(query, name)?.toString('latin1');
}
