// A private MariaDB for the importer's tests: its own data folder and socket
// in a temp dir, no TCP port (another server may listen on 3306 and is never
// touched), started by the test and stopped afterwards. Debian's
// mariadb-server provides `mariadbd` and `mariadb-install-db`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

export interface PrivateMariaDb {
  /** Path of the server's unix socket. */
  socket: string;
  /** `mysql://` URL of a database, in the form the import CLI takes. */
  url(database: string): string;
  /** A connection to the server (no database selected unless given). */
  connect(database?: string): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

/** True when the MariaDB server binaries are installed (`.ci/run` installs them). */
export function mariaDbAvailable(): boolean {
  return spawnSync('which', ['mariadbd', 'mariadb-install-db']).status === 0;
}

export async function startPrivateMariaDb(): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'tp-mariadb-'));
  const datadir = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
  const errorLog = join(dir, 'error.log');
  // Its own temporary folder: two servers bootstrapping at once in a shared /tmp collided
  // on a temporary table's file name ("Could not remove temporary table").
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch);
  const env = { ...process.env, TMPDIR: scratch };
  // Running as root needs --user=root; as anyone else the server runs as that user.
  const userFlag = process.getuid?.() === 0 ? ['--user=root'] : [];
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', ...userFlag, `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
    { encoding: 'utf8', env },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  }
  const server: ChildProcess = spawn(
    'mariadbd',
    [
      '--no-defaults',
      ...userFlag,
      `--datadir=${datadir}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      `--log-error=${errorLog}`,
      `--tmpdir=${scratch}`,
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
      '--innodb-buffer-pool-size=64M',
      '--innodb-log-file-size=48M',
    ],
    { stdio: 'ignore', env },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    server.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const connect = (database?: string) =>
    mysql.createConnection({
      socketPath: socket,
      user: 'root',
      password: '',
      multipleStatements: true,
      charset: 'utf8mb4_unicode_ci',
      ...(database ? { database } : {}),
    });

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) break;
    if (existsSync(socket)) {
      try {
        const c = await connect();
        await c.end();
        break;
      } catch {
        /* not ready yet */
      }
    }
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (exited || !existsSync(socket)) {
    const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadbd did not start:\n${log.slice(-2000)}`);
  }

  return {
    socket,
    url: (database) => `mysql://root@localhost/${database}?socket=${encodeURIComponent(socket)}`,
    connect,
    async stop() {
      if (!exited) {
        server.kill('SIGTERM');
        const timer = setTimeout(() => server.kill('SIGKILL'), 20_000);
        await exit;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
