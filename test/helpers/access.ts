// The access model's fixtures shared by the suites of docs/access.md: a new
// forum's levels as the contract states them (TorrentPier's installer
// defaults), spelled out here rather than read from the code under test.

export const OPEN_LEVELS = {
  view: 'all',
  read: 'all',
  post: 'members',
  reply: 'members',
  edit: 'members',
  delete: 'members',
  pin: 'moderators',
  announce: 'moderators',
  vote: 'members',
  poll_create: 'members',
  upload: 'members',
  download: 'members',
} as const;
