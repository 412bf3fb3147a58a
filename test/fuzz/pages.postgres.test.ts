// The page routes' fuzz (operations-fuzz.ts) on PostgreSQL; the SQLite half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzOperations } from './operations-fuzz.ts';

describeOnDatabase('postgres', 'fuzz: the pages', (db) => fuzzOperations(db, 'pages', 'test/fuzz/pages.postgres.test.ts'));
