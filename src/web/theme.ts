// The reader's choice of colours: as the system says (`auto`, its
// prefers-color-scheme), light or dark, kept in a cookie (members and guests
// alike: it belongs to the device, as a system's dark mode does) that the
// footer's switch sets (reader-choices.ts). The page names the choice on
// <html data-theme>; the style sheet's colours follow (light-dark()).
import type { FastifyRequest } from 'fastify';

export const THEME_COOKIE = 'theme';
export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The reader's chosen theme; `auto` when they chose none (or the cookie says something else). */
export function themeOf(request: FastifyRequest): Theme {
  const chosen = request.cookies[THEME_COOKIE];
  return isTheme(chosen) ? chosen : 'auto';
}
