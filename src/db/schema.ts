// Every table, described once. Timestamps are ISO 8601 UTC strings on both
// dialects (see db/database.ts for how PostgreSQL's timestamptz is read back).
// Booleans come back as 0/1 from SQLite and true/false from PostgreSQL, hence
// `boolean | number` on reads; resources convert with Boolean().
import type { ColumnType, Generated } from 'kysely';
import type { ContentType, FilterType, PatternType, Severity } from '../word-filters/rules.ts';
import type { Freeleech, TorrentStatus } from '../tracker/torrents/statuses.ts';

export type Timestamp = string;
export type Flag = ColumnType<boolean | number, boolean, boolean>;
/** A flag the database fills with its default when an insert leaves it out. */
export type FlagWithDefault = ColumnType<boolean | number, boolean | undefined, boolean>;

export type Role = 'user' | 'moderator' | 'admin';
export type UserStatus = 'pending' | 'active' | 'banned';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username: the case-insensitive unique key. */
  username_key: string;
  /** What the name looks like (db/username-skeleton.ts, migration 0027): unique among names that are not look-alikes kept from before. */
  username_skeleton: string;
  /** A name kept from before migration 0027 that looks like an older member's (it shares their skeleton). */
  username_lookalike: FlagWithDefault;
  email: string;
  /** Lower-cased e-mail address: the unique key. */
  email_key: string;
  password_hash: string;
  role: Role;
  status: UserStatus;
  signature: Generated<string>;
  /** Private messages received and not yet opened (migration 0013): kept with every change, read with the session. */
  unread_messages: Generated<number>;
  /** Notifications not read yet (migration 0043): the header's count, kept with every change to them. */
  unread_notifications: Generated<number>;
  /** The member asked for an e-mail about each new private message. */
  message_mails: FlagWithDefault;
  /** Kept out of the index's who is online, named to staff only (migration 0035). */
  hide_online: FlagWithDefault;
  /** A special rank an admin gave (migration 0040); null: the rank earned by post count, if any. */
  rank_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Why a banned member is banned, until when (null: until lifted by hand), and by whom (migration 0015). */
  ban_reason: ColumnType<string | null, string | null | undefined, string | null>;
  banned_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  banned_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** Published, visible posts (migration 0018): kept by triggers on posts, read by the member list and profiles. */
  post_count: ColumnType<number, never, never>;
  /** The avatar's file name under UPLOAD_DIR/avatars/ (migration 0019), or null. */
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
  /** Interface language and IANA time zone (migration 0021); null: as the browser asks. */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** The member gets the mail administrators send to all members (migration 0044; on unless turned off). */
  mass_mails: FlagWithDefault;
  /** The random key of the unsubscribe link in their mass mail (migration 0044); made with the first one. */
  mass_mail_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value. */
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface EmojiCategoriesTable {
  id: Generated<number>;
  title: string;
  display_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** sprite_* are the API's sprite_params, all set exactly when sprite_mode is on. */
export interface EmojisTable {
  id: Generated<number>;
  title: string;
  emoji_text: string | null;
  emoji_shortcode: string;
  image_url: string | null;
  sprite_mode: Flag;
  sprite_x: number | null;
  sprite_y: number | null;
  sprite_width: number | null;
  sprite_height: number | null;
  sprite_sheet: string | null;
  emoji_category_id: number | null;
  display_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmojiAliasesTable {
  id: Generated<number>;
  emoji_id: number;
  alias: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Every shortcode and alias in use, owned by one emoji or one alias: the shared unique namespace. */
export interface EmojiCodesTable {
  code: string;
  emoji_id: number | null;
  alias_id: number | null;
}

export interface WordFiltersTable {
  id: Generated<number>;
  pattern: string;
  replacement: string | null;
  filter_type: FilterType;
  pattern_type: PatternType;
  severity: Severity;
  is_active: Flag;
  case_sensitive: Flag;
  notes: string | null;
  /** Null once the creating user is deleted. */
  creator_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A word filter's applies_to, one row per content type. */
export interface WordFilterContentTypesTable {
  word_filter_id: number;
  content_type: ContentType;
}

export type ContentStatus = 'published' | 'pending';

export interface ForumsTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  display_order: Generated<number>;
  /** The top-level forum this one is a subforum of (migration 0020), or null. */
  parent_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The category a top-level forum is listed under (migration 0028), or null; always null for a subforum. */
  category_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Who may take each action here (migration 0029; docs/access.md): TorrentPier's auth_* columns. */
  level_view: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_read: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_post: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_reply: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_edit: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_delete: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_pin: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_announce: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_vote: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_poll_create: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_upload: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  level_download: ColumnType<AccessLevel, AccessLevel | undefined, AccessLevel>;
  /** Published topics and posts, kept in step by the forum service's transactions. */
  topics_count: Generated<number>;
  posts_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Forum categories (migration 0028): the index's headings. */
export interface CategoriesTable {
  id: Generated<number>;
  title: string;
  display_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TopicsTable {
  id: Generated<number>;
  forum_id: number;
  title: string;
  author_id: number | null;
  /** Shown instead of an author account (imported guests' topics, migration 0011); null otherwise. */
  guest_name: ColumnType<string | null, string | null | undefined, string | null>;
  status: ContentStatus;
  /** Only moderators reply (migration 0014). */
  locked: FlagWithDefault;
  /** Listed first in its forum (migration 0014). */
  pinned: FlagWithDefault;
  /** An announcement: listed above the pinned topics (migration 0030). */
  announced: FlagWithDefault;
  /** Hidden by a moderator (migration 0016): seen by moderators only, counted nowhere; null when shown. */
  hidden_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  hidden_by: ColumnType<number | null, number | null | undefined, number | null>;
  posts_count: Generated<number>;
  views_count: Generated<number>;
  last_post_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who may see a poll's counts (migration 0037): anyone, those who voted (and all once it ends), or all once it ends. */
export type PollResults = 'always' | 'after_vote' | 'after_end';

/** A topic's poll (migration 0037): at most one per topic. */
export interface PollsTable {
  id: Generated<number>;
  topic_id: number;
  question: string;
  /** 1 for a single choice; more lets a voter pick up to this many options. */
  max_choices: number;
  results: PollResults;
  /** Voters may change or take back their vote while the poll is open. */
  allow_change: FlagWithDefault;
  /** When voting ends by itself; null: when it is closed. */
  ends_at: Timestamp | null;
  /** Closed by its author or a moderator (reopened: null). */
  closed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface PollOptionsTable {
  id: Generated<number>;
  poll_id: number;
  /** 1, 2, … in the order shown. */
  position: number;
  text: string;
  /** Votes an imported poll had for this option before (TorrentPier kept totals, not choices). */
  imported_votes: ColumnType<number, number | undefined, number>;
}

/** One member's vote in a poll: the primary key keeps it one. */
export interface PollBallotsTable {
  poll_id: number;
  user_id: number;
  voted_at: Timestamp;
}

/** An option a ballot chose. */
export interface PollChoicesTable {
  poll_id: number;
  user_id: number;
  option_id: number;
}

/** What a moderator's comment on a post is (TorrentPier's mc_type 1-4). */
export type ModeratorCommentKind = 'comment' | 'information' | 'warning' | 'violation';

export interface PostsTable {
  id: Generated<number>;
  topic_id: number;
  author_id: number | null;
  /** Shown instead of an author account (imported guests' posts, migration 0011); null otherwise. */
  guest_name: ColumnType<string | null, string | null | undefined, string | null>;
  body: string;
  status: ContentStatus;
  held_by_filter_id: number | null;
  /** Hidden by a moderator (migration 0016): seen by moderators only, counted nowhere; null when shown. */
  hidden_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  hidden_by: ColumnType<number | null, number | null | undefined, number | null>;
  /** When its text was last edited (migration 0017): the "edited" marker; null when never. */
  edited_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Its place among the topic's published, shown posts, 1 first (migration 0031, src/forum/post-positions.ts); null for others. */
  position: ColumnType<number | null, number | null | undefined, number | null>;
  /** A moderator's note shown under the post (migration 0038); all four null when it has none. */
  mod_comment: ColumnType<string | null, string | null | undefined, string | null>;
  mod_comment_kind: ColumnType<ModeratorCommentKind | null, ModeratorCommentKind | null | undefined, ModeratorCommentKind | null>;
  mod_comment_by: ColumnType<number | null, number | null | undefined, number | null>;
  mod_comment_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a notification is about (migration 0043; docs/notifications.md). */
export type NotificationKind = 'reply' | 'quote' | 'mention' | 'message' | 'moderation' | 'thanks' | 'reseed' | 'report';

/** One thing a member is told about (migration 0043): what it points at may be gone since (null). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: NotificationKind;
  actor_id: number | null;
  topic_id: number | null;
  post_id: number | null;
  message_id: number | null;
  /** What a moderator did (a moderation-log action), for `moderation`; null otherwise. */
  action: ModerationAction | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

/** A member's choice for one kind of notification, where it differs from the default (migration 0043). */
export interface NotificationSettingsTable {
  user_id: number;
  kind: NotificationKind;
  site: boolean | number;
  email: boolean | number;
}

/** A forum's release template (migration 0045): how a new release's title and opening post are laid out. */
export interface ReleaseTemplatesTable {
  forum_id: number;
  title_layout: string;
  body_layout: string;
  updated_at: Timestamp;
}

/** A field of a release template (migration 0045). */
export interface ReleaseFieldsTable {
  id: Generated<number>;
  forum_id: number;
  position: number;
  key: string;
  label: string;
  kind: 'text' | 'number' | 'choice' | 'image' | 'size';
  required: boolean | number;
  filterable: boolean | number;
  /** A choice field's options, one a line. */
  choices: string;
}

/** A release's value of one field (migration 0045). */
export interface ReleaseValuesTable {
  topic_id: number;
  field_id: number;
  value: string;
  number_value: number | null;
}

/** A member's thanks for a release (migration 0046; TorrentPier's bb_thx): one per member and release topic. */
export interface ThanksTable {
  topic_id: number;
  user_id: number;
  created_at: Timestamp;
}

/** The last call to reseed a torrent (migration 0047): who made it and when (one a day per torrent). */
export interface ReseedCallsTable {
  torrent_id: number;
  user_id: number | null;
  called_at: Timestamp;
}

/** A member's report of a post to its forum's moderators (migration 0048). */
export interface PostReportsTable {
  id: Generated<number>;
  post_id: number;
  reporter_id: number;
  reason: string;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
  /** acted: the moderators did something about the post; dismissed: nothing was wrong. */
  resolution: 'acted' | 'dismissed' | null;
}

/** Where a merged topic's address leads now (migration 0042). */
export interface TopicRedirectsTable {
  from_topic_id: number;
  to_topic_id: number;
  created_at: Timestamp;
}

/** A text a post's edit replaced (migration 0017), for moderators. */
export interface PostRevisionsTable {
  id: Generated<number>;
  post_id: number;
  body: string;
  editor_id: number | null;
  replaced_at: Timestamp;
}

export interface WatchlistTable {
  user_id: number;
  topic_id: number;
  created_at: Timestamp;
}

/** The last post a member has seen in a topic (migration 0010, docs/unread.md). */
export interface TopicReadsTable {
  user_id: number;
  topic_id: number;
  last_read_post_id: number;
  read_at: Timestamp;
}

/** "Mark this forum read": every post up to this id in the forum is read. */
export interface ForumReadsTable {
  user_id: number;
  forum_id: number;
  up_to_post_id: number;
  marked_at: Timestamp;
}

/** A member who moderates one forum, and only it (migration 0022, docs/moderation.md "Forum moderators"). */
/** A group of members (migration 0029; TorrentPier's bb_groups): open, closed (join by request) or hidden (invitation only). */
export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  /** The name as compared for uniqueness (usernameKey). */
  name_key: string;
  description: Generated<string>;
  type: GroupType;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type GroupType = 'open' | 'closed' | 'hidden';

/** A member of a group, or a request to be one (`pending`, TorrentPier's user_pending). */
export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  role: 'member' | 'leader';
  status: 'accepted' | 'pending';
  created_at: Timestamp;
}

/** Actions granted in one forum to a group or one member (bb_auth_access); `moderate` makes the holders the forum's moderators. */
export interface ForumGrantsTable {
  id: Generated<number>;
  forum_id: number;
  group_id: number | null;
  user_id: number | null;
  /** Bit n: the n-th of ACCESS_ACTIONS (migration 0029). */
  actions: number;
  moderate: FlagWithDefault;
}

/** Who may take an action in a forum (docs/access.md); TorrentPier's 0, 1, 2, 3, 5. */
export type AccessLevel = 'all' | 'members' | 'private' | 'moderators' | 'admins';

/** "Mark all forums read": every post up to this id is read. */
export interface ReadMarksTable {
  user_id: number;
  up_to_post_id: number;
  marked_at: Timestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  error: string | null;
  /** Header lines beyond the usual ones, as a JSON object (migration 0044: List-Unsubscribe); null: none. */
  headers: ColumnType<string | null, string | null | undefined, string | null>;
}

export type AccountKeyPurpose = 'activation' | 'password_reset';

export interface AccountKeysTable {
  id: Generated<number>;
  user_id: number;
  purpose: AccountKeyPurpose;
  /** SHA-256 of the key sent by mail. */
  key_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A new e-mail address waiting for its confirmation link to be opened. */
export interface EmailChangesTable {
  id: Generated<number>;
  user_id: number;
  new_email: string;
  /** SHA-256 of the key sent to the new address. */
  key_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A .torrent registered on a topic (migration 0006). Byte counts are numbers on both databases. */
export interface TorrentsTable {
  id: Generated<number>;
  topic_id: number;
  uploader_id: number | null;
  /** Lower-case hex: 40 digits (SHA-1), null for a v2-only torrent. */
  info_hash_v1: string | null;
  /** Lower-case hex: 64 digits (SHA-256), null for a v1-only torrent. */
  info_hash_v2: string | null;
  /** The first 40 hex digits of info_hash_v2: what v2 clients announce. */
  info_hash_v2_short: string | null;
  name: string;
  size: number;
  piece_length: number;
  piece_count: number;
  files_count: number;
  creation_date: Timestamp | null;
  /** The rewritten .torrent as stored (Buffer from PostgreSQL, Uint8Array from SQLite). */
  metainfo: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  status: TorrentStatus;
  freeleech: Generated<Freeleech>;
  completed_count: Generated<number>;
  registered_at: Timestamp;
  status_changed_at: Timestamp;
  /** The topic's forum, author and who may see it, copied by triggers (migration 0033) for the tracker list. */
  forum_id: ColumnType<number, never, never>;
  topic_author_id: ColumnType<number | null, never, never>;
  topic_visibility: ColumnType<TopicVisibility, never, never>;
}

/** Who may see a topic, hence its torrent: published and shown, held or rejected (its author), hidden. */
export type TopicVisibility = 'everyone' | 'author' | 'moderators';

export interface TorrentFilesTable {
  torrent_id: number;
  position: number;
  /** Path components joined with "/". */
  path: string;
  size: number;
}

export interface TorrentStatusChangesTable {
  id: Generated<number>;
  torrent_id: number;
  from_status: TorrentStatus | null;
  to_status: TorrentStatus;
  changed_by: number | null;
  changed_at: Timestamp;
}

export interface PasskeysTable {
  user_id: number;
  passkey: string;
  created_at: Timestamp;
}

export interface TorrentDownloadsTable {
  id: Generated<number>;
  user_id: number;
  torrent_id: number | null;
  downloaded_at: Timestamp;
}

export interface TrackerUserStatsTable {
  user_id: number;
  /** Bytes, after freeleech. */
  uploaded: Generated<number>;
  downloaded: Generated<number>;
  /** Seed-bonus points in hundredths. */
  bonus_points: Generated<number>;
  updated_at: Timestamp;
}

/** Transfer per user and torrent (migration 0007). */
export interface TrackerUserTorrentsTable {
  user_id: number;
  torrent_id: number;
  uploaded: number;
  downloaded: number;
  completed_at: Timestamp | null;
  seeding: Flag;
  active: Flag;
  last_announce_at: Timestamp;
  /** Upload reported and not yet matched by the swarm's downloads (migration 0026). */
  pending_upload: Generated<number>;
  /** Since when (epoch ms) pending_upload has waited; null when nothing waits. */
  pending_since_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Per torrent: downloads its leechers reported, not yet matched by uploads (migration 0026). */
export interface TrackerSwarmPoolsTable {
  torrent_id: number;
  bytes: number;
  /** When (epoch ms) bytes were last added. */
  added_at_ms: number;
}

/** A seed-bonus window, once credited. */
export interface TrackerBonusWindowsTable {
  window_start: Timestamp;
  window_end: Timestamp;
  users_credited: number;
  points_credited: number;
  credited_at: Timestamp;
}

export interface TrackerBonusHistoryTable {
  id: Generated<number>;
  user_id: number;
  kind: 'seeding' | 'exchange';
  /** Hundredths of a point. */
  points: number;
  seconds: number | null;
  torrents: number | null;
  upload_bytes: number | null;
  window_start: Timestamp | null;
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** A TorrentPier 2.x attachment id (`dl.php?id=`) of an imported torrent (migration 0011). */
export interface ImportAttachmentsTable {
  attach_id: number;
  torrent_id: number;
}

/**
 * The full-text index of posts (migration 0012), written and read only by
 * forum/search/repository.ts. Its columns differ by database: SQLite's FTS5
 * table has `rowid` (the post id), `title` and `body` (terms); PostgreSQL's has
 * `post_id` and `document` (a tsvector, written as its literal).
 */
export interface PostSearchTable {
  rowid: OneDialectOnly<number>;
  title: OneDialectOnly<string>;
  body: OneDialectOnly<string>;
  post_id: OneDialectOnly<number>;
  document: OneDialectOnly<string>;
}

/** A column of one database's table only: inserts give it there and leave it out on the other. */
type OneDialectOnly<T> = ColumnType<T, T | undefined, T>;

/** Posts written before the index existed, or by the importer, still to be indexed: ids next_post_id..last_post_id (one row, id 1). */
export interface SearchBackfillTable {
  id: number;
  next_post_id: number;
  last_post_id: number;
}

/** A private message (migration 0013): in its sender's Sent folder and its recipient's Inbox until each deletes it there. */
export interface PrivateMessagesTable {
  id: Generated<number>;
  /** Null once the member's account is deleted. */
  sender_id: number | null;
  recipient_id: number | null;
  reply_to_id: number | null;
  subject: string;
  body: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
  sender_deleted_at: Timestamp | null;
  recipient_deleted_at: Timestamp | null;
  /** The mass send this message is part of (migration 0044); null: a member's own message. */
  mass_send_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** What a moderation log entry records (the migration's CHECK lists the same). */
export type ModerationAction =
  | 'approve'
  | 'reject'
  | 'lock'
  | 'unlock'
  | 'pin'
  | 'unpin'
  | 'move'
  | 'delete_topic'
  | 'delete_post'
  | 'ban'
  | 'unban'
  | 'hide_post'
  | 'restore_post'
  | 'hide_topic'
  | 'restore_topic'
  | 'remove_avatar'
  | 'set_permissions'
  | 'announce'
  | 'unannounce'
  | 'close_poll'
  | 'reopen_poll'
  | 'delete_poll'
  | 'comment_post'
  | 'uncomment_post'
  | 'split_topic'
  | 'merge_topic'
  | 'resolve_report';

/** One moderator's action (migration 0014); ids without foreign keys, so an entry outlives its topic. */
export interface ModerationLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: ModerationAction;
  forum_id: number | null;
  /** Where a moved topic went. */
  to_forum_id: number | null;
  topic_id: number | null;
  post_id: number | null;
  /** The member a ban or an avatar removal is about (migrations 0015, 0024). */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The topic's title or the start of the post, as it read then. */
  subject: string;
  created_at: Timestamp;
}

/** The site's own settings: one row (migration 0032). */
/** A rank (migration 0040): earned by post count (`min_posts`), or special (null), given by admins. */
export interface RanksTable {
  id: Generated<number>;
  title: string;
  min_posts: number | null;
  image_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A static page (migration 0041): its address and its place in the footer. */
export interface SitePagesTable {
  id: Generated<number>;
  slug: string;
  position: ColumnType<number, number | undefined, number>;
  in_footer: FlagWithDefault;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A static page's title and BBCode body in one language (migration 0041). */
export interface SitePageTextsTable {
  page_id: number;
  locale: string;
  title: string;
  body: string;
}

export type MassSendKind = 'message' | 'mail';
export type AudienceKind = 'all' | 'group' | 'role';

/** A private message or e-mail from an administrator to many members, and how far it got (migration 0044). */
export interface MassSendsTable {
  id: Generated<number>;
  kind: MassSendKind;
  audience: AudienceKind;
  /** Null unless the audience is a group; null again once that group is deleted. */
  group_id: number | null;
  /** The group's name when the send was made; null unless the audience is a group. */
  group_name: string | null;
  role: Role | null;
  subject: string;
  /** BBCode, as written. */
  body: string;
  /** Null once the sender's account is deleted; their name stays. */
  sender_id: number | null;
  sender_name: string;
  /** Members it was for when it was made. */
  recipients: number;
  sent: ColumnType<number, number | undefined, number>;
  /** The newest account when it was made: accounts made later are not sent to. */
  max_user_id: number;
  /** The cursor: every member up to this id has been dealt with. */
  last_user_id: ColumnType<number, number | undefined, number>;
  status: ColumnType<'sending' | 'done', 'sending' | 'done' | undefined, 'sending' | 'done'>;
  /** The instance sending it, and until when its claim holds. */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
  finished_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The key of the request that made it (Idempotency-Key, the admin page's confirmation): one send per key. */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SiteSettingsTable {
  id: number;
  name: string;
  description: string;
  logo_url: string | null;
  default_locale: string;
  registration_open: FlagWithDefault;
  /** robots.txt as the admin wrote it (migration 0039); null: the default. */
  robots_txt: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

export interface Database {
  site_settings: SiteSettingsTable;
  mass_sends: MassSendsTable;
  site_pages: SitePagesTable;
  site_page_texts: SitePageTextsTable;
  ranks: RanksTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  word_filters: WordFiltersTable;
  word_filter_content_types: WordFilterContentTypesTable;
  emoji_categories: EmojiCategoriesTable;
  emojis: EmojisTable;
  emoji_aliases: EmojiAliasesTable;
  emoji_codes: EmojiCodesTable;
  forums: ForumsTable;
  categories: CategoriesTable;
  topics: TopicsTable;
  topic_redirects: TopicRedirectsTable;
  thanks: ThanksTable;
  reseed_calls: ReseedCallsTable;
  post_reports: PostReportsTable;
  release_templates: ReleaseTemplatesTable;
  release_fields: ReleaseFieldsTable;
  release_values: ReleaseValuesTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  posts: PostsTable;
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_ballots: PollBallotsTable;
  poll_choices: PollChoicesTable;
  watchlist: WatchlistTable;
  topic_reads: TopicReadsTable;
  forum_reads: ForumReadsTable;
  read_marks: ReadMarksTable;
  user_groups: UserGroupsTable;
  group_members: GroupMembersTable;
  forum_grants: ForumGrantsTable;
  outbox: OutboxTable;
  account_keys: AccountKeysTable;
  email_changes: EmailChangesTable;
  torrents: TorrentsTable;
  torrent_files: TorrentFilesTable;
  torrent_status_changes: TorrentStatusChangesTable;
  passkeys: PasskeysTable;
  torrent_downloads: TorrentDownloadsTable;
  tracker_user_stats: TrackerUserStatsTable;
  tracker_user_torrents: TrackerUserTorrentsTable;
  tracker_swarm_pools: TrackerSwarmPoolsTable;
  tracker_bonus_windows: TrackerBonusWindowsTable;
  tracker_bonus_history: TrackerBonusHistoryTable;
  import_attachments: ImportAttachmentsTable;
  post_search: PostSearchTable;
  search_backfill: SearchBackfillTable;
  private_messages: PrivateMessagesTable;
  moderation_log: ModerationLogTable;
  post_revisions: PostRevisionsTable;
}
