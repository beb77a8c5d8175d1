/**
 * The real server as a separate process (`node --import tsx src/server/server.ts`, what `npm run
 * serve` runs), so the chaos run can SIGKILL it mid-request and start it again on the same
 * DATA_DIR and port. One process, not the `tsx` CLI: that one forks a child, and a SIGKILL of the
 * parent would leave the child listening.
 *
 * The server logs as pino JSON lines at info level (every request: "incoming request" and
 * "request completed" with method, URL and status). They are kept and can be waited for, so the
 * harness waits for what the server did, never for time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../harness';

export interface ServerLogLine {
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  port?: number;
  [key: string]: unknown;
}

type LogWaiter = { match: (line: ServerLogLine) => boolean; resolve: (line: ServerLogLine) => void };

export class ServerProcess {
  readonly dataDir: string;
  /** Every log line of every start, in order (the run's failure report shows the last ones). */
  readonly log: ServerLogLine[] = [];
  private child: ChildProcess | null = null;
  private port = 0;
  private waiters: LogWaiter[] = [];

  private constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** Starts the server on a free loopback port with a fresh DATA_DIR (demo project and accounts). */
  static async start(): Promise<ServerProcess> {
    const server = new ServerProcess(mkdtempSync(path.join(tmpdir(), 'travnik-chaos-')));
    await server.spawn();
    return server;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The SQLite file the server writes (read by the harness to forge an expired token). */
  get databaseFile(): string {
    return path.join(this.dataDir, 'moj-travnik.sqlite');
  }

  private async spawn(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      // The first start picks a free port; restarts take the same one (the page keeps its origin).
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      CLIENT_DIR: path.join(ROOT, 'dist'),
      AUTH: 'embedded',
      DEMO: 'true',
      LOG_LEVEL: 'info',
    };
    // SQLite on DATA_DIR, whatever the calling shell points at.
    for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'S3_BUCKET', 'NODE_OPTIONS']) delete env[name];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server/server.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let buffered = '';
    const stderr: string[] = [];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let line: ServerLogLine;
        try {
          line = JSON.parse(text) as ServerLogLine;
        } catch {
          line = { msg: text };
        }
        this.log.push(line);
        this.waiters = this.waiters.filter((waiter) => {
          if (!waiter.match(line)) return true;
          waiter.resolve(line);
          return false;
        });
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    let onExit: (code: number | null, signal: string | null) => void = () => undefined;
    const exited = new Promise<never>((_, reject) => {
      onExit = (code, signal) => reject(new Error(`server exited during start (code ${code}, signal ${signal}): ${stderr.join('').slice(-2000)}`));
      child.once('exit', onExit);
    });
    try {
      const listening = await Promise.race([this.waitForLog((line) => typeof line.port === 'number' && String(line.msg).startsWith('Moj travnik:')), exited]);
      this.port = listening.port!;
    } finally {
      child.off('exit', onExit);
    }
  }

  /** Resolves with the first log line from now on that matches. */
  waitForLog(match: (line: ServerLogLine) => boolean): Promise<ServerLogLine> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** SIGKILL: no graceful close, in-flight requests die with the process. Resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
    this.child = null;
  }

  /** Starts the server again on the same data and port. */
  async restart(): Promise<void> {
    await this.kill();
    await this.spawn();
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
