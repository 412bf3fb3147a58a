// The language and time zone of the request being answered, for whatever
// renders text or dates on its behalf (messages.ts, web/format.ts), without
// threading them through every renderer. Set once per request (installLocale),
// read anywhere below it; outside a request: English and UTC.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE, isLocale, isTimeZone, negotiateLocale, type Locale } from './locale.ts';

export interface Reader {
  locale: Locale;
  timeZone: string;
}

/** The cookie the browser's time zone is written to (assets/time-zone.js). */
export const TIME_ZONE_COOKIE = 'tz';
/** The cookie a guest's choice of language is kept in (web/reader-choices.ts). */
export const LANGUAGE_COOKIE = 'lang';

const storage = new AsyncLocalStorage<Reader>();
const DEFAULT_READER: Reader = { locale: DEFAULT_LOCALE, timeZone: DEFAULT_TIME_ZONE };

export function currentReader(): Reader {
  return storage.getStore() ?? DEFAULT_READER;
}

/** Runs `work` as read by `reader` (a mail to a member in their language, a test). */
export function asReader<T>(reader: Reader, work: () => T): T {
  return storage.run(reader, work);
}

/**
 * Whom a mail to a member is written for: their settings; without them, the
 * language of the request that sends it (a board's members mostly share
 * one), in UTC.
 */
export function memberReader(member: { locale: string | null; time_zone: string | null }): Reader {
  return {
    locale: isLocale(member.locale) ? member.locale : currentReader().locale,
    timeZone: isTimeZone(member.time_zone) ? member.time_zone : DEFAULT_TIME_ZONE,
  };
}

/** A member's settings win; else the language chosen with the footer's switch; else the browser's; else the site's default language (`fallback`) and UTC. */
export function readerOf(
  request: FastifyRequest,
  settings: { locale: string | null; timeZone: string | null } | null,
  fallback: Locale = DEFAULT_LOCALE,
): Reader {
  const cookie = request.cookies[TIME_ZONE_COOKIE];
  const chosen = request.cookies[LANGUAGE_COOKIE];
  return {
    locale: isLocale(settings?.locale) ? settings.locale : isLocale(chosen) ? chosen : negotiateLocale(request.headers['accept-language'], fallback),
    timeZone: isTimeZone(settings?.timeZone) ? settings.timeZone : isTimeZone(cookie) ? cookie : DEFAULT_TIME_ZONE,
  };
}

/**
 * After authentication: the rest of the request runs as its reader. A request
 * refused before this hook (a bad Host) is answered as the default reader.
 */
export function installLocale(
  app: FastifyInstance,
  settingsOf: (request: FastifyRequest) => { locale: string | null; timeZone: string | null } | null,
  englishOnly: (request: FastifyRequest) => boolean,
  defaultLocale: () => Locale = () => DEFAULT_LOCALE,
): void {
  app.addHook('onRequest', (request, _reply, done) => {
    // The JSON API speaks the contract's English (its validation messages too) and writes UTC timestamps, and so
    // does the tracker: their requests skip this (measured: 6% of /api/hello). The prefix first, as it is cheap;
    // `englishOnly` also knows the tracker and other spellings that reach the API (`/%61pi/…`).
    if (request.url.startsWith('/api/') || englishOnly(request)) {
      done();
      return;
    }
    storage.run(readerOf(request, settingsOf(request), defaultLocale()), done);
  });
}
