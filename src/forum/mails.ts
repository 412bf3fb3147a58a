// The mails about forum content: what they say, in one place. A mail shows
// what the page shows: titles and text with the replacement rules applied,
// and links to the canonical address (the slug of the displayed title). The
// texts are the current reader's language: the sender runs them as their
// recipient (i18n asReader, memberReader).
import type { MailMessage } from '../mail/mailer.ts';
import { t } from '../i18n/messages.ts';

/** How pages name a topic (the presenter): mails name it the same way. */
export interface TopicNaming {
  heading(row: { id: number; title: string }): Promise<{ title: string; path: string }>;
}

export interface ShownTopic {
  /** The title as pages show it (replacement rules applied). */
  title: string;
}

/** A new reply in a watched topic; `replyLink` and `watchlistLink` are absolute URLs. */
export function newReplyMail(to: string, topic: ShownTopic, replyLink: string, watchlistLink: string): MailMessage {
  return {
    to,
    subject: t('mail.reply.subject', { title: topic.title }),
    text: t('mail.reply.text', { title: topic.title, link: replyLink, watchlist: watchlistLink }),
  };
}

/** A moderator did not approve a held post; `body` is the post's text as it would have been shown. */
export function notApprovedMail(to: string, authorName: string, topic: ShownTopic, opening: boolean, body: string): MailMessage {
  return {
    to,
    subject: t(opening ? 'mail.rejected.topic_subject' : 'mail.rejected.reply_subject', { title: topic.title }),
    text: t(opening ? 'mail.rejected.topic_text' : 'mail.rejected.reply_text', { name: authorName, title: topic.title, body }),
  };
}
