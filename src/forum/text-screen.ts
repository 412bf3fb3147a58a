// What the forum needs from the word filters: a verdict on a piece of user
// text of one content type. WordFilterChecker (src/word-filters) provides it.
export type ContentType = 'posts' | 'private_messages' | 'comments' | 'signatures' | 'usernames' | 'topics';

export interface ScreenResult {
  action: 'allow' | 'moderate' | 'block';
  /** The text with every replacement made, for display. */
  text: string;
  matches: Array<{ filter_id: number; filter_type: 'replace' | 'block' | 'moderate' }>;
}

export interface TextScreen {
  check(text: string, contentType: ContentType): Promise<ScreenResult>;
}
