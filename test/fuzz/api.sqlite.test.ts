// The JSON API's fuzz (operations-fuzz.ts) on SQLite; the PostgreSQL half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzOperations } from './operations-fuzz.ts';

describeOnDatabase('sqlite', 'fuzz: the JSON API', (db) => fuzzOperations(db, 'api', 'test/fuzz/api.sqlite.test.ts'));
