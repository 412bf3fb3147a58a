// Every migration, in order. Names sort in the order they must run.
import type { Migration } from 'kysely';
import * as users from './0001_users.ts';
import * as emoji from './0002_emoji.ts';
import * as wordFilters from './0003_word_filters.ts';
import * as forum from './0004_forum.ts';
import * as emailChanges from './0005_email_changes.ts';
import * as tracker from './0006_tracker.ts';
import * as trackerSwarm from './0007_tracker_swarm.ts';
import * as usersBonusPoints from './0008_users_bonus_points.ts';
import * as unreadMarks from './0010_unread_marks.ts';
import * as importTorrentPier from './0011_import_torrentpier.ts';
import * as searchIndex from './0012_search_index.ts';
import * as privateMessages from './0013_private_messages.ts';
import * as topicModeration from './0014_topic_moderation.ts';
import * as bans from './0015_bans.ts';
import * as hiddenContent from './0016_hidden_content.ts';
import * as postRevisions from './0017_post_revisions.ts';
import * as memberPostCounts from './0018_member_post_counts.ts';
import * as avatars from './0019_avatars.ts';
import * as subforums from './0020_subforums.ts';
import * as readingSettings from './0021_reading_settings.ts';
import * as forumModerators from './0022_forum_moderators.ts';
import * as searchPairs from './0023_search_pairs.ts';
import * as avatarRemovalLog from './0024_avatar_removal_log.ts';
import * as searchPrefixes from './0025_search_prefixes.ts';
import * as swarmCredit from './0026_swarm_credit.ts';
import * as usernameSkeletons from './0027_username_skeletons.ts';
import * as forumCategories from './0028_forum_categories.ts';
import * as forumAccess from './0029_forum_access.ts';
import * as topicAnnouncements from './0030_topic_announcements.ts';
import * as postPositions from './0031_post_positions.ts';
import * as siteSettings from './0032_site_settings.ts';
import * as torrentListing from './0033_torrent_listing.ts';
import * as recountForums from './0034_recount_forums.ts';
import * as hideOnline from './0035_hide_online.ts';
import * as searchStems from './0036_search_stems.ts';
import * as polls from './0037_polls.ts';
import * as moderatorComments from './0038_moderator_comments.ts';
import * as robotsTxt from './0039_robots_txt.ts';
import * as ranks from './0040_ranks.ts';
import * as sitePages from './0041_site_pages.ts';
import * as splitMerge from './0042_split_merge.ts';
import * as notifications from './0043_notifications.ts';
import * as massSends from './0044_mass_sends.ts';
import * as releaseTemplates from './0045_release_templates.ts';
import * as thanks from './0046_thanks.ts';
import * as reseedCalls from './0047_reseed_calls.ts';
import * as postReports from './0048_post_reports.ts';

export const migrations: Record<string, Migration> = {
  '0001_users': users,
  '0002_emoji': emoji,
  '0003_word_filters': wordFilters,
  '0004_forum': forum,
  '0005_email_changes': emailChanges,
  '0006_tracker': tracker,
  '0007_tracker_swarm': trackerSwarm,
  '0008_users_bonus_points': usersBonusPoints,
  '0010_unread_marks': unreadMarks,
  '0011_import_torrentpier': importTorrentPier,
  '0012_search_index': searchIndex,
  '0013_private_messages': privateMessages,
  '0014_topic_moderation': topicModeration,
  '0015_bans': bans,
  '0016_hidden_content': hiddenContent,
  '0017_post_revisions': postRevisions,
  '0018_member_post_counts': memberPostCounts,
  '0019_avatars': avatars,
  '0020_subforums': subforums,
  '0021_reading_settings': readingSettings,
  '0022_forum_moderators': forumModerators,
  '0023_search_pairs': searchPairs,
  '0024_avatar_removal_log': avatarRemovalLog,
  '0025_search_prefixes': searchPrefixes,
  '0026_swarm_credit': swarmCredit,
  '0027_username_skeletons': usernameSkeletons,
  '0028_forum_categories': forumCategories,
  '0029_forum_access': forumAccess,
  '0030_topic_announcements': topicAnnouncements,
  '0031_post_positions': postPositions,
  '0032_site_settings': siteSettings,
  '0033_torrent_listing': torrentListing,
  '0034_recount_forums': recountForums,
  '0035_hide_online': hideOnline,
  '0036_search_stems': searchStems,
  '0037_polls': polls,
  '0038_moderator_comments': moderatorComments,
  '0039_robots_txt': robotsTxt,
  '0040_ranks': ranks,
  '0041_site_pages': sitePages,
  '0042_split_merge': splitMerge,
  '0043_notifications': notifications,
  '0044_mass_sends': massSends,
  '0045_release_templates': releaseTemplates,
  '0046_thanks': thanks,
  '0047_reseed_calls': reseedCalls,
  '0048_post_reports': postReports,
};
