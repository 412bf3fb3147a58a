// Process entry: configuration → app → listen; SIGTERM/SIGINT close it gracefully.
import './gc-tuning.ts';
import { buildApp, createLogger } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { exitOnSignals } from './shutdown.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`Invalid configuration: ${error.message}\n`);
  process.exit(1);
}

const logger = createLogger(config);
try {
  const { app } = await buildApp(config, { logger });
  exitOnSignals(app);
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
