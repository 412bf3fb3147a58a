// What a user name looks like, as one string: two names that a reader could
// take for each other (`admin` and `Аdmin` with a Cyrillic А, `paypal` and
// `𝔭𝒶ỿ𝕡𝕒ℓ`, `Ivan` and `lvan`) have the same skeleton (Unicode TR 39,
// "Confusable Detection"). Stored per user (`users.username_skeleton`,
// migration 0027) and unique among the names chosen since, so it is defined
// here beside the schema: users/, the TorrentPier import and the migration
// all compute it with this one function. docs/members.md, "Look-alike names".
//
// The confusable mappings are unhomoglyph's (Unicode's confusables.txt), pinned
// to one version in package.json: skeletons already stored were made with its
// data, and a version with other data needs a migration that makes them again.
import unhomoglyph from 'unhomoglyph';

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** TR 39's skeleton (NFD, each character replaced by its prototype, NFD again) of the text without its default-ignorable code points, which show nothing. */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')).normalize('NFD');
}

/**
 * The skeleton of a name, taken in capitals and then in small letters. Names
 * are one name whatever their case (`usernameKey`), so look-alikes are
 * compared up to case too: every spelling of `admin` in any case, `Аdmin`
 * (Cyrillic А), `ADMІN` (Cyrillic І), `ADMlN` (a small L) and `admın`
 * (dotless ı) meet; `Ivan` meets `lvan`, `B0B` meets `bob`, `Straße` meets
 * `strasse` (ß is SS in capitals). Only for comparing: it is no name to show.
 */
export function usernameSkeleton(name: string): string {
  return skeleton(skeleton(skeleton(name).toUpperCase()).toLowerCase());
}
