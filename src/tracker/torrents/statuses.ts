// Torrent statuses and freeleech kinds (tracker.md): one definition, used by
// the schema types, the API's enums, the pages' labels and the rules. Their
// names are in the catalogs (i18n), as TorrentPier and rutracker name them.
import { t, type TextKey } from '../../i18n/messages.ts';

export const TORRENT_STATUSES = [
  'not_checked',
  'checked',
  'needs_editing',
  'not_fully_described',
  'doubtful',
  'being_checked',
  'temporary',
  'replenished',
  'closed',
  'duplicate',
  'closed_by_right_holder',
  'absorbed',
  'premoderation',
] as const;

export type TorrentStatus = (typeof TORRENT_STATUSES)[number];

/** Frozen: no .torrent download and no announce. */
export const FROZEN_STATUSES: ReadonlySet<TorrentStatus> = new Set(['closed', 'duplicate', 'closed_by_right_holder', 'absorbed', 'premoderation']);

export function isFrozen(status: TorrentStatus): boolean {
  return FROZEN_STATUSES.has(status);
}

/** The status a newly registered torrent gets. */
export const INITIAL_STATUS: TorrentStatus = 'not_checked';

/** A status's tone: the colour class a page gives its sign. */
export type StatusTone = 'ok' | 'wait' | 'warn' | 'closed';

/** Each status's name in the catalogs, and TorrentPier's sign for it (its `tor_icons`), which its members read at a glance. */
const STATUS_LOOKS: Record<TorrentStatus, { key: TextKey; sign: string; tone: StatusTone }> = {
  not_checked: { key: 'tracker.status.not_checked', sign: '*', tone: 'wait' },
  checked: { key: 'tracker.status.checked', sign: '√', tone: 'ok' },
  needs_editing: { key: 'tracker.status.needs_editing', sign: '?', tone: 'warn' },
  not_fully_described: { key: 'tracker.status.not_fully_described', sign: '!', tone: 'warn' },
  doubtful: { key: 'tracker.status.doubtful', sign: '#', tone: 'ok' },
  being_checked: { key: 'tracker.status.being_checked', sign: '%', tone: 'wait' },
  temporary: { key: 'tracker.status.temporary', sign: 'T', tone: 'wait' },
  replenished: { key: 'tracker.status.replenished', sign: 'R', tone: 'ok' },
  closed: { key: 'tracker.status.closed', sign: 'x', tone: 'closed' },
  duplicate: { key: 'tracker.status.duplicate', sign: 'D', tone: 'closed' },
  closed_by_right_holder: { key: 'tracker.status.closed_by_right_holder', sign: '©', tone: 'closed' },
  absorbed: { key: 'tracker.status.absorbed', sign: '∑', tone: 'closed' },
  premoderation: { key: 'tracker.status.premoderation', sign: '∏', tone: 'wait' },
};

/** The status's name in the reader's language ("Checked", "Проверено"). */
export function statusLabel(status: TorrentStatus): string {
  return t(STATUS_LOOKS[status].key);
}

export const FREELEECH_KINDS = ['none', 'silver', 'gold'] as const;

export type Freeleech = (typeof FREELEECH_KINDS)[number];

/** Share of a download that counts against the user's ratio. */
export const FREELEECH_DOWNLOAD_FACTOR: Record<Freeleech, number> = { none: 1, silver: 0.5, gold: 0 };

const FREELEECH_KEYS: Record<Freeleech, { label: TextKey; badge: TextKey }> = {
  none: { label: 'tracker.freeleech.none', badge: 'tracker.freeleech.none' },
  silver: { label: 'tracker.freeleech.silver', badge: 'tracker.freeleech.silver_badge' },
  gold: { label: 'tracker.freeleech.gold', badge: 'tracker.freeleech.gold_badge' },
};

/** The kind as the torrent's facts and the moderators' menu name it, in the reader's language. */
export function freeleechLabel(kind: Freeleech): string {
  return t(FREELEECH_KEYS[kind].label);
}

/** The kind's short name, for a badge in a list ("gold", "золото"). */
export function freeleechBadge(kind: Freeleech): string {
  return t(FREELEECH_KEYS[kind].badge);
}

/** The status's sign and its tone. */
export function statusSign(status: TorrentStatus): { sign: string; tone: StatusTone } {
  return STATUS_LOOKS[status];
}
