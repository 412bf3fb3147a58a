// The page routes' fuzz (operations-fuzz.ts) on SQLite; the PostgreSQL half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzOperations } from './operations-fuzz.ts';

describeOnDatabase('sqlite', 'fuzz: the pages', (db) => fuzzOperations(db, 'pages', 'test/fuzz/pages.sqlite.test.ts'));
