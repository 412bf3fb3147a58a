// A member's notifications as the centre shows them (docs/notifications.md):
// each with where it leads (the post in its topic, the topic, the message)
// and the names of what it is about, as pages show them (the displayed title,
// the displayed subject). A topic in a forum the member may no longer read is
// not named nor linked: the notification says only that it was there.
import type { AuthUser } from '../auth/service.ts';
import type { NotificationRow } from '../notifications/store.ts';
import { messagePath } from '../urls/paths.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ForumPresenter } from './presenter.ts';
import { postPathOn } from './resource.ts';

export interface ShownNotification {
  row: NotificationRow;
  /** The topic's displayed title; null when it is gone or the member may not read it now. */
  topicTitle: string | null;
  /** The message's displayed subject; null when it is gone. */
  messageSubject: string | null;
  /** Where the notification leads; null when what it was about is gone. */
  path: string | null;
}

export async function shownNotifications(
  rows: readonly NotificationRow[],
  viewer: AuthUser,
  deps: { access: ForumAccess; presenter: ForumPresenter },
): Promise<ShownNotification[]> {
  const permissions = await deps.access.of(viewer);
  return Promise.all(
    rows.map(async (row) => {
      const readable = row.topic_id !== null && row.topic_title !== null && row.topic_forum_id !== null && permissions.may(row.topic_forum_id, 'read');
      const heading = readable ? await deps.presenter.heading({ id: row.topic_id!, title: row.topic_title! }) : null;
      const messageSubject = row.message_id === null || row.message_subject === null ? null : await deps.presenter.messageSubject(row.message_subject);
      const path =
        heading !== null
          ? row.post_id === null
            ? heading.path
            : postPathOn(heading.path, row.post_id)
          : messageSubject !== null
            ? messagePath(row.message_id!)
            : null;
      return { row, topicTitle: heading?.title ?? null, messageSubject, path };
    }),
  );
}
