// npm run bench [group ...]: load benchmarks of the running service, each
// target next to /api/hello (and hello next to a bare node:http server) in the
// same run. Results are printed as Markdown tables for bench/RESULTS.md.
import { machine, measure, printTable, startBareServer, startService } from './lib.ts';
import { wordFilters } from './word-filters.ts';

type Group = () => Promise<void>;

const groups: Record<string, Group> = {
  async hello() {
    const bare = await startBareServer();
    const bareResult = await measure('bare node:http', bare.url);
    await bare.stop();
    const service = await startService({ EMOJI_CATALOG: 'none' });
    const hello = await measure('GET /api/hello', `${service.url}/api/hello`);
    await service.stop();
    printTable('hello vs bare node:http (target: hello ≥ 60% of bare)', [bareResult, hello], bareResult);
  },
  'word-filters': wordFilters,

  async emoji() {
    const service = await startService({ EMOJI_CATALOG: 'unicode' });
    const hello = await measure('GET /api/hello', `${service.url}/api/hello`);
    const rows = [hello];
    for (const path of ['/api/emoji/emojis?per_page=100&with_aliases=1&with_category=1', '/api/emoji/emojis/search?q=smi', '/api/emoji/categories?include_emojis=1']) {
      rows.push(await measure(`GET ${path}`, `${service.url}${path}`));
    }
    await service.stop();
    printTable('emoji catalog, Unicode set loaded, vs hello (targets: search ≥ 30% of hello with p99 < 10 ms; full 100-item page ≥ 10%)', rows, hello);
  },
};

const requested = process.argv.slice(2);
const selected = requested.length > 0 ? requested : Object.keys(groups);
console.log(`# Benchmark run: ${machine()}`);
for (const name of selected) {
  const group = groups[name];
  if (group === undefined) {
    console.error(`Unknown benchmark group "${name}"; known: ${Object.keys(groups).join(', ')}`);
    process.exit(2);
  }
  await group();
}
