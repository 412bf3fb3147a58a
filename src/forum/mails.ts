// The mails about forum content: what they say, in one place. A mail shows
// what the page shows: titles and text with the replacement rules applied,
// and links to the canonical address (the slug of the displayed title).
import type { MailMessage } from '../mail/mailer.ts';

export interface ShownTopic {
  /** The title as pages show it (replacement rules applied). */
  title: string;
}

/** A new reply in a watched topic; `replyLink` and `watchlistLink` are absolute URLs. */
export function newReplyMail(to: string, topic: ShownTopic, replyLink: string, watchlistLink: string): MailMessage {
  return {
    to,
    subject: `New reply in "${topic.title}"`,
    text: `There is a new reply in a topic you watch: "${topic.title}".\n\n${replyLink}\n\nYou get this mail because you watch the topic. To stop, open your watchlist: ${watchlistLink}\n`,
  };
}

/** A moderator did not approve a held post; `body` is the post's text as it would have been shown. */
export function notApprovedMail(to: string, authorName: string, topic: ShownTopic, opening: boolean, body: string): MailMessage {
  return {
    to,
    subject: opening ? `Your topic "${topic.title}" was not approved` : `Your reply in "${topic.title}" was not approved`,
    text: `Hello ${authorName},\n\na moderator did not approve what you wrote${opening ? '' : ` in "${topic.title}"`}:\n\n${body}\n\nPlease check the forum rules before posting again.\n`,
  };
}
