// The mail a member gets about a new private message, when they asked for it
// (the Inbox page's setting). It names the sender and the subject as shown,
// never the text: the message stays on the site, behind the login.
import type { MailMessage } from '../mail/mailer.ts';

export interface NewMessageNotice {
  sender: string;
  /** The subject as the Inbox shows it (replacement rules applied). */
  subject: string;
  /** Absolute URLs. */
  messageLink: string;
  inboxLink: string;
}

export function newMessageMail(to: string, notice: NewMessageNotice): MailMessage {
  return {
    to,
    subject: `New private message from ${notice.sender}: ${notice.subject}`,
    text: `${notice.sender} sent you a private message: "${notice.subject}".\n\nRead it and reply: ${notice.messageLink}\n\nYou get this mail because you asked for one about each new message. To stop, untick the setting in your inbox: ${notice.inboxLink}\n`,
  };
}
