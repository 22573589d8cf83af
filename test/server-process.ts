// server.ts started as a child process, as `npm start` runs it: for what only the real entry point
// does (its file modes, its SIGTERM handling).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const NODE = path.join(root, 'node_modules', '.bin', 'node');

export interface ServerProcess {
  child: ChildProcess;
  /** The port it listens on (PORT=0 lets the system pick one). */
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/** Resolves once the server listens; `env` is the whole environment the child gets. */
export async function spawnServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  let output = '';
  const child = spawn(NODE, ['server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      const listening = /\[http\] Group Finance Hub on http:\/\/localhost:(\d+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      resolve(Number(listening[1]));
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { child, port, output: () => output, exited };
}
