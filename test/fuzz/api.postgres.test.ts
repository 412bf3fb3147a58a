// The JSON API's fuzz (operations-fuzz.ts) on PostgreSQL; the SQLite half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzOperations } from './operations-fuzz.ts';

describeOnDatabase('postgres', 'fuzz: the JSON API', (db) => fuzzOperations(db, 'api', 'test/fuzz/api.postgres.test.ts'));
