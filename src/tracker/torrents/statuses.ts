// Torrent statuses and freeleech kinds (tracker.md): one definition, used by
// the schema types, the API's enums, the pages' labels and the rules.

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

export const STATUS_LABELS: Record<TorrentStatus, string> = {
  not_checked: 'Not checked',
  checked: 'Checked',
  needs_editing: 'Needs editing',
  not_fully_described: 'Not fully described',
  doubtful: 'Doubtful',
  being_checked: 'Being checked',
  temporary: 'Temporary',
  replenished: 'Replenished',
  closed: 'Closed',
  duplicate: 'Duplicate',
  closed_by_right_holder: 'Closed by the right holder',
  absorbed: 'Absorbed',
  premoderation: 'Premoderation',
};

export const FREELEECH_KINDS = ['none', 'silver', 'gold'] as const;

export type Freeleech = (typeof FREELEECH_KINDS)[number];

/** Share of a download that counts against the user's ratio. */
export const FREELEECH_DOWNLOAD_FACTOR: Record<Freeleech, number> = { none: 1, silver: 0.5, gold: 0 };

export const FREELEECH_LABELS: Record<Freeleech, string> = {
  none: 'None',
  silver: 'Silver (download counted at 50%)',
  gold: 'Gold (download not counted)',
};
