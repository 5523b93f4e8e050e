/**
 * The lock of a Node storage directory: a directory `lock/` holding an `owner` record.
 *
 * - Taken atomically: the owner's directory is built complete under a private name, then renamed
 *   to `lock`. rename(2) of a directory onto a non-empty one fails, and `lock` is never empty, so
 *   exactly one opener's rename succeeds and no reader ever sees a half-written lock.
 * - Liveness that a reused pid cannot fake. The owner records its pid with the process's start
 *   time (from /proc), the boot id and the pid namespace. A reader on the same boot and in the
 *   same pid namespace knows exactly: the holder lives iff a process with that pid and that start
 *   time runs (a reused pid has a later start time; a blocked event loop does not matter). Any
 *   other reader (another container, host or OS) goes by a heartbeat: the holder refreshes the
 *   owner record's mtime every `staleMs / 4`, and a record silent for `staleMs` is stale.
 * - Stale locks are taken over through one step only one contender can win: renaming `lock` to
 *   `lock.stale.<holder's token>`. A second contender's rename of the same holder fails, since
 *   that name then exists and is not empty; the winner then races the others to rename its own
 *   lock in, as at a first acquisition. The same name is the holder's own release, so a release
 *   and a takeover exclude each other too.
 * - Lost locks are noticed: `check()` (before every write) and the heartbeat compare the owner
 *   record's inode with ours, so a holder whose heartbeat stalled past `staleMs` on another host
 *   refuses writes instead of writing beside the new holder.
 *
 * proper-lockfile was considered: its stale takeover removes the lock and then mkdirs, so two
 * contenders can both remove and both acquire (it notices only later, through `onCompromised`),
 * and its liveness is the mtime alone, so a blocked event loop loses the lock on one host.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LedgerError } from '../errors.js';

const LOCK = 'lock';
const OWNER = 'owner';
const DRAFT_PREFIX = 'lock.draft.';
const TOMB_PREFIX = 'lock.stale.';
/** Leftover drafts and tombs older than this are removed by the next holder. */
const LEFTOVER_MS = 60_000;

export interface HeldLock {
  /** STORAGE_FAILED unless this process still holds the lock. */
  check(): Promise<void>;
  release(): Promise<void>;
}

/** What a lock's owner record holds. `boot`, `pidns` and `start` are null off Linux. */
interface Owner {
  token: string;
  pid: number;
  boot: string | null;
  pidns: string | null;
  start: string | null;
}

type Found =
  | { kind: 'dir'; owner: Owner | null; mtimeMs: number }
  | { kind: 'legacy'; pid: number; ino: number; mtimeMs: number };

/**
 * Takes `dir`'s lock; STORAGE_FAILED when a live process holds it. `staleMs`: how long a holder
 * that cannot be checked exactly (another pid namespace or host) may stay silent.
 */
export async function acquireLock(dir: string, staleMs: number): Promise<HeldLock> {
  const me: Owner = { token: randomBytes(12).toString('hex'), pid: process.pid, ...(await selfIdentity()) };
  const path = join(dir, LOCK);
  const draft = join(dir, DRAFT_PREFIX + me.token);
  await mkdir(draft);
  try {
    await writeFile(join(draft, OWNER), JSON.stringify(me));
    // Each round wins, refuses, or moves one stale holder aside; a few rounds bound the races.
    for (let round = 0; round < 4; round++) {
      if (await renameExclusive(draft, path)) {
        const ino = (await stat(join(path, OWNER))).ino;
        await removeLeftovers(dir);
        return new Holder(dir, me, ino, staleMs);
      }
      const found = await readLock(path);
      if (found === null) continue; // released meanwhile
      const alive = await holderAlive(found, staleMs);
      if (alive !== null) throw locked(path, alive);
      await moveAside(dir, found);
    }
    throw locked(path, 'is contended by other openers');
  } finally {
    await rm(draft, { recursive: true, force: true });
  }
}

class Holder implements HeldLock {
  private lost: string | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private released = false;

  constructor(
    private readonly dir: string,
    private readonly me: Owner,
    private readonly ino: number,
    staleMs: number,
  ) {
    this.timer = setInterval(() => void this.beat(), Math.max(25, Math.floor(staleMs / 4)));
    this.timer.unref();
  }

  private get ownerPath(): string {
    return join(this.dir, LOCK, OWNER);
  }

  /** Whether the owner record is still ours: a takeover renames `lock`, and with it our record, away. */
  private async ours(): Promise<boolean> {
    try {
      return (await stat(this.ownerPath)).ino === this.ino;
    } catch {
      return false;
    }
  }

  private async beat(): Promise<void> {
    if (this.released || this.lost !== null) return;
    if (!(await this.ours())) {
      this.lost = 'was taken over by another process (this one was silent for too long)';
      return;
    }
    const now = new Date();
    await utimes(this.ownerPath, now, now).catch(() => undefined);
  }

  async check(): Promise<void> {
    if (this.lost === null && !(await this.ours()))
      this.lost = 'was taken over by another process (this one was silent for too long)';
    if (this.lost !== null) throw locked(join(this.dir, LOCK), this.lost);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    if (!(await this.ours())) return;
    // The takeover's own step, so a contender that judged this holder stale cannot move a
    // successor's lock instead.
    const tomb = join(this.dir, TOMB_PREFIX + this.me.token);
    if (await renameExclusive(join(this.dir, LOCK), tomb)) await rm(tomb, { recursive: true, force: true });
  }
}

/** rename(2) that fails instead of replacing: false when `to` exists (a non-empty dir or a file). */
async function renameExclusive(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    // Windows refuses a rename onto an existing directory with EPERM.
    if (code === 'EPERM' && (await exists(to))) return false;
    throw e;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The lock at `path`: a directory with an owner record, a lock file of context-ledger 0.1, or null. */
async function readLock(path: string): Promise<Found | null> {
  try {
    const info = await lstat(path);
    if (!info.isDirectory()) {
      const pid = Number((await readFile(path, 'utf8')).trim());
      return { kind: 'legacy', pid, ino: info.ino, mtimeMs: info.mtimeMs };
    }
    try {
      const ownerInfo = await stat(join(path, OWNER));
      return { kind: 'dir', owner: parseOwner(await readFile(join(path, OWNER), 'utf8')), mtimeMs: ownerInfo.mtimeMs };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      return { kind: 'dir', owner: null, mtimeMs: info.mtimeMs };
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function parseOwner(text: string): Owner | null {
  try {
    const o = JSON.parse(text) as Owner;
    return typeof o.token === 'string' && /^[0-9a-f]+$/.test(o.token) && Number.isSafeInteger(o.pid) ? o : null;
  } catch {
    return null;
  }
}

/** Why the lock's holder counts as alive, or null when it is stale. */
async function holderAlive(found: Found, staleMs: number): Promise<string | null> {
  if (found.kind === 'legacy') {
    // context-ledger 0.1 wrote a bare pid and no heartbeat: only a pid that no longer runs is
    // known dead; one that runs may be a 0.1 process still using the directory.
    if (!(found.pid > 0 && isRunning(found.pid))) return null;
    return `is a context-ledger 0.1 lock naming process ${found.pid}; if no 0.1 process uses this directory, delete the file`;
  }
  const owner = found.owner;
  const self = await selfIdentity();
  if (owner && owner.boot !== null && owner.boot === self.boot && owner.pidns === self.pidns && owner.start !== null) {
    const alive = (await startTime(owner.pid)) === owner.start;
    return alive ? `is held by process ${owner.pid}` : null;
  }
  const silentMs = Date.now() - found.mtimeMs;
  if (silentMs >= staleMs) return null;
  const who = owner ? `process ${owner.pid} in another pid namespace or host` : 'a process being created';
  return `is held by ${who} (heard from ${Math.round(silentMs)} ms ago; taken over after ${staleMs} ms of silence)`;
}

/** Moves a stale lock aside, to a name only that holder's lock can take. */
async function moveAside(dir: string, found: Found): Promise<void> {
  const name =
    found.kind === 'legacy'
      ? `legacy-${found.ino}-${Math.round(found.mtimeMs)}`
      : (found.owner?.token ?? `unnamed-${Math.round(found.mtimeMs)}`);
  await renameExclusive(join(dir, LOCK), join(dir, TOMB_PREFIX + name)).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  });
}

/** Drafts of openers that crashed mid-acquisition and the takeovers' tombs: never a lock. */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.startsWith(DRAFT_PREFIX) && !name.startsWith(TOMB_PREFIX)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    // Young ones may belong to an opener still between its look at the lock and its rename.
    if (info && Date.now() - info.mtimeMs > LEFTOVER_MS) await rm(path, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Identity {
  boot: string | null;
  pidns: string | null;
  start: string | null;
}

let identity: Promise<Identity> | null = null;

/**
 * This process's boot id, pid namespace and start time, or nulls where /proc cannot tell them
 * exactly (not Linux, or a /proc mounted for another pid namespace, whose numbers are not ours).
 */
function selfIdentity(): Promise<Identity> {
  identity ??= (async () => {
    try {
      if ((await readlink('/proc/self')) !== String(process.pid)) throw new Error('foreign /proc');
      const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
      const pidns = await readlink('/proc/self/ns/pid');
      const start = await startTime(process.pid);
      if (start === null) throw new Error('no start time');
      return { boot, pidns, start };
    } catch {
      return { boot: null, pidns: null, start: null };
    }
  })();
  return identity;
}

/** Field 22 of /proc/<pid>/stat: the process's start, in clock ticks since boot; null when none runs. */
async function startTime(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const locked = (path: string, why: string): LedgerError =>
  new LedgerError('STORAGE_FAILED', { field: 'storage', file: path, reason: `lock ${path} ${why}` });
