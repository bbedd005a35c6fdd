import type { ChildProcess } from 'node:child_process';

/** Children still running; killed if this process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A child in its own process group (or one that ignores our terminal's Ctrl-C) would otherwise
  // outlive a test run or server that ends abruptly.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Options of {@link superviseChild}. */
export interface SuperviseOptions {
  /** How many of the child's last output lines to keep for error messages. */
  keepLines: number;
  /** Receives the child's output as it arrives; without it the output is only kept. */
  echo?: (text: string, stream: 'stdout' | 'stderr') => void;
}

/** A spawned emulator process, watched from spawn to exit. */
export interface SupervisedChild {
  /** The child's last non-blank output lines, oldest first. */
  readonly output: string[];
  /** Settles once the child has exited or failed to spawn. */
  readonly exit: Promise<void>;
  /** Whether the child has exited (or failed to spawn). */
  exited(): boolean;
  /** Kills the child at once and waits until it has exited. */
  kill(): Promise<void>;
  /**
   * Sends `signal` so the child can save its data and close, and kills it when it has not exited
   * after `graceMs`. Returns at once when it has already exited.
   */
  stop(signal: NodeJS.Signals, graceMs: number): Promise<void>;
}

/**
 * Watches a freshly spawned child: keeps its last output lines, notes its exit, and kills it should
 * this process exit first.
 * @param child - a process spawned with piped stdout and stderr
 * @param options - how many lines to keep and where to echo the output
 */
export function superviseChild(child: ChildProcess, options: SuperviseOptions): SupervisedChild {
  running.add(child);
  installExitHook();

  const output: string[] = [];
  const keep = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    const text = chunk.toString('utf8');
    options.echo?.(text, stream);
    output.push(...text.split('\n').filter((line) => line.trim().length > 0));
    if (output.length > options.keepLines) output.splice(0, output.length - options.keepLines);
  };
  child.stdout?.on('data', (chunk: Buffer) => keep(chunk, 'stdout'));
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk, 'stderr'));

  let exited = false;
  const exit = new Promise<void>((done) => {
    const settle = () => {
      exited = true;
      running.delete(child);
      done();
    };
    child.once('exit', settle);
    child.once('error', (error) => {
      output.push(`spawn failed: ${error.message}`);
      settle();
    });
  });

  return {
    output,
    exit,
    exited: () => exited,
    async kill() {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    async stop(signal, graceMs) {
      if (exited) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}
