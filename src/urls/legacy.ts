// Where a legacy (phpBB-era) URL points now. Pure: the router looks the entity
// up, builds its semantic path with the kept query and answers 301 (GET) or
// serves the page with a canonical Link header (POST).
import {
  activationPath,
  bonusPath,
  groupsPath,
  isPageSlug,
  inboxPath,
  membersPath,
  messagePath,
  newMessagePath,
  parseId,
  passwordRecoveryPath,
  registerPath,
  sentMessagesPath,
  settingsPath,
  sitePagePath,
  watchlistPath,
} from './paths.ts';

export type LegacyTarget =
  | {
      kind: 'topic' | 'forum' | 'profile' | 'profile-email' | 'group';
      id: number;
      /** The request's other parameters, in their order, for the new URL. */
      query: URLSearchParams;
    }
  | { kind: 'page'; path: string; query: URLSearchParams }
  /** `viewtopic.php?p=` names a post: its topic page opened where the post is. */
  | { kind: 'post'; id: number; query: URLSearchParams };

/** `/viewtopic` and `/viewtopic.php` are the same page. */
function pageName(path: string): string {
  return path.endsWith('.php') ? path.slice(0, -'.php'.length) : path;
}

/**
 * The value of a parameter. A repeated parameter counts by its last value, as
 * it did in the PHP engine these URLs come from.
 */
function lastValue(query: URLSearchParams, key: string): string | null {
  return query.getAll(key).at(-1) ?? null;
}

function idParameter(query: URLSearchParams, key: string): number | null {
  const value = lastValue(query, key);
  return value === null ? null : parseId(value);
}

/** The query without the parameters the legacy URL used to select its page. */
function without(query: URLSearchParams, ...keys: string[]): URLSearchParams {
  const kept = new URLSearchParams(query);
  for (const key of keys) kept.delete(key);
  return kept;
}

type ProfileMode = (query: URLSearchParams) => LegacyTarget | null;

function staticPage(path: string): ProfileMode {
  return (query) => ({ kind: 'page', path, query: without(query, 'mode') });
}

function userPage(kind: 'profile' | 'profile-email'): ProfileMode {
  return (query) => {
    const id = idParameter(query, 'u');
    return id === null ? null : { kind, id, query: without(query, 'mode', 'u') };
  };
}

const PROFILE_MODES: Readonly<Record<string, ProfileMode>> = {
  viewprofile: userPage('profile'),
  email: userPage('profile-email'),
  register: staticPage(registerPath()),
  editprofile: staticPage(settingsPath()),
  sendpassword: staticPage(passwordRecoveryPath()),
  bonus: staticPage(bonusPath()),
  watch: staticPage(watchlistPath()),
  activate: (query) => {
    const id = idParameter(query, 'u');
    const key = lastValue(query, 'k');
    if (id === null || key === null || key === '') return null;
    return { kind: 'page', path: activationPath(id, key), query: without(query, 'mode', 'u', 'k') };
  },
};

/** TorrentPier's folders (`privmsg.php?folder=`): the outbox (sent, not yet read) and the savebox are our Sent and Inbox. */
const MESSAGE_FOLDERS: Readonly<Record<string, string>> = {
  inbox: inboxPath(),
  savebox: inboxPath(),
  outbox: sentMessagesPath(),
  sentbox: sentMessagesPath(),
};

/** `privmsg.php?mode=read&p=` a message, `mode=post` the compose form, else a folder (the Inbox by default). */
function privateMessageTarget(query: URLSearchParams): LegacyTarget | null {
  const mode = lastValue(query, 'mode');
  const kept = without(query, 'mode', 'folder', 'p', 'u');
  if (mode === 'read') {
    const id = idParameter(query, 'p');
    return id === null ? null : { kind: 'page', path: messagePath(id), query: kept };
  }
  if (mode === 'post' || mode === 'reply' || mode === 'quote') return { kind: 'page', path: newMessagePath(), query: kept };
  const folder = lastValue(query, 'folder') ?? 'inbox';
  const path = Object.hasOwn(MESSAGE_FOLDERS, folder) ? MESSAGE_FOLDERS[folder] : undefined;
  return path === undefined ? null : { kind: 'page', path, query: kept };
}

/** TorrentPier's `memberlist.php` sort modes (`mode=`) that the member list has. */
const MEMBER_LIST_MODES: Readonly<Record<string, string>> = { joined: 'joined', username: 'name', posts: 'posts' };

/** `memberlist.php?mode=&order=&username=`: the member list sorted and searched the same way; other modes sort by join date. */
function memberListTarget(query: URLSearchParams): LegacyTarget {
  const kept = without(query, 'mode', 'order', 'username', 'letter', 'start');
  const mode = lastValue(query, 'mode');
  const order = lastValue(query, 'order')?.toLowerCase();
  const search = lastValue(query, 'username');
  const listing = new URLSearchParams();
  if (search !== null && search !== '') listing.set('search', search);
  if (mode !== null && Object.hasOwn(MEMBER_LIST_MODES, mode)) listing.set('sort', MEMBER_LIST_MODES[mode]!);
  if (order === 'asc' || order === 'desc') listing.set('order', order);
  for (const [key, value] of kept) listing.append(key, value);
  return { kind: 'page', path: membersPath(), query: listing };
}

/**
 * The target of a legacy URL, or null when the path is not a legacy page or
 * its id/mode is missing or invalid (the router answers 404).
 */
export function legacyTarget(path: string, query: URLSearchParams): LegacyTarget | null {
  switch (pageName(path)) {
    case '/viewtopic': {
      if (query.has('t')) {
        const id = idParameter(query, 't');
        return id === null ? null : { kind: 'topic', id, query: without(query, 't') };
      }
      const post = idParameter(query, 'p');
      return post === null ? null : { kind: 'post', id: post, query: without(query, 'p') };
    }
    case '/viewforum': {
      const id = idParameter(query, 'f');
      return id === null ? null : { kind: 'forum', id, query: without(query, 'f') };
    }
    case '/profile': {
      const mode = lastValue(query, 'mode');
      const target = mode === null || !Object.hasOwn(PROFILE_MODES, mode) ? undefined : PROFILE_MODES[mode];
      return target === undefined ? null : target(query);
    }
    case '/privmsg':
      return privateMessageTarget(query);
    case '/memberlist':
      return memberListTarget(query);
    case '/groupcp': {
      // TorrentPier's group page (`groupcp.php?g=`), and without a group its list of groups.
      if (!query.has('g')) return { kind: 'page', path: groupsPath(), query: without(query, 'mode') };
      const id = idParameter(query, 'g');
      return id === null ? null : { kind: 'group', id, query: without(query, 'g', 'mode') };
    }
    case '/info': {
      // TorrentPier's static pages (`info.php?show=user_agreement`): ours of the same name, hyphenated (docs/static-pages.md).
      const slug = (lastValue(query, 'show') ?? '').replace(/_/g, '-');
      return isPageSlug(slug) ? { kind: 'page', path: sitePagePath(slug), query: without(query, 'show') } : null;
    }
    default:
      return null;
  }
}
