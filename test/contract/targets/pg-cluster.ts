// A PostgreSQL cluster of the test's own: Debian's binaries, a temporary folder, a Unix socket only (no TCP port
// to find free), C.UTF-8. initdb and postgres refuse to run as root, so they run as the `postgres` user then.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to install PostgreSQL where it is missing (CI installs it in `.ci/run`). */
export const PG_INSTALL = 'apt-get install -y postgresql';

/** A running cluster: where its socket is, and how to stop it (its folder goes with it). */
export interface PgCluster {
  /** The folder of its Unix socket: node-postgres' `host`. */
  readonly socketDir: string;
  readonly user: string;
  stop(): void;
}

/** The newest Debian PostgreSQL's bin folder, or undefined when none is installed. */
export function pgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const major = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return major === undefined ? undefined : join(root, major, 'bin');
}

/** Runs `bin` as `user` (itself when not root). */
function asUser(user: string | undefined, bin: string, args: readonly string[]): string[] {
  return user ? ['runuser', '-u', user, '--', bin, ...args] : [bin, ...args];
}

/**
 * Starts a cluster in a new temporary folder and waits until it accepts connections.
 *
 * @example
 * const cluster = startPgCluster(pgBin()!);
 * const pool = new pg.Pool({ host: cluster.socketDir, user: cluster.user, database: 'postgres' });
 * cluster.stop();
 */
export function startPgCluster(bin: string): PgCluster {
  const root = process.getuid?.() === 0 ? 'postgres' : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tempmon-pg-'));
  chmodSync(dir, 0o700);
  if (root) {
    const { uid, gid } = idsOf(root);
    chownSync(dir, uid, gid);
  }
  const [data, socketDir] = [join(dir, 'data'), dir];
  const run = (args: readonly string[]) => {
    const [command, ...rest] = asUser(root, args[0]!, args.slice(1));
    execFileSync(command!, rest, { stdio: 'pipe' });
  };
  try {
    run([join(bin, 'initdb'), '-D', data, '--locale=C.UTF-8', '-E', 'UTF8', '-A', 'trust', '-U', 'postgres']);
    run([
      join(bin, 'pg_ctl'),
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-k ${socketDir} -c listen_addresses='' -c fsync=off -c max_connections=40`,
      'start',
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    socketDir,
    user: 'postgres',
    stop() {
      const [command, ...rest] = asUser(root, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      spawnSync(command!, rest, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idsOf(user: string): { uid: number; gid: number } {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim()));
  return { uid: uid!, gid: gid! };
}
