// Ink components of the CLI, used only when stdout is a terminal and --json is off (Ink without
// a TTY prints every frame with erase codes: STACK-NOTES pitfall 8). Written with
// React.createElement so the file runs under Node's type stripping (no JSX).
import React from 'react';
import { Box, render, Text, useApp, useInput } from 'ink';

const h = React.createElement;
const { useEffect, useState } = React;

export interface TableColumn {
  key: string;
  label: string;
  /** Right-align (numbers). */
  right?: boolean;
}

export type Cell = string | number | boolean | null | undefined;

export const cellText = (value: Cell) => (value === null || value === undefined ? '' : String(value));

function widths(columns: TableColumn[], rows: Record<string, Cell>[]): number[] {
  return columns.map((c) => Math.min(48, Math.max(c.label.length, ...rows.map((r) => cellText(r[c.key]).length))));
}

const fit = (text: string, width: number, right?: boolean) => {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
};

function Table({ columns, rows }: { columns: TableColumn[]; rows: Record<string, Cell>[] }) {
  const w = widths(columns, rows);
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { bold: true, color: 'cyan' }, columns.map((c, i) => fit(c.label, w[i], c.right)).join('  ')),
    h(Text, { dimColor: true }, w.map((n) => '─'.repeat(n)).join('  ')),
    ...rows.map((row, r) =>
      h(
        Text,
        { key: r, wrap: 'truncate-end' },
        columns.map((c, i) => fit(cellText(row[c.key]), w[i], c.right)).join('  '),
      ),
    ),
    h(Text, { dimColor: true }, `${rows.length} row${rows.length === 1 ? '' : 's'}`),
  );
}

/** Renders a table once and leaves it on the screen. */
export async function renderTable(columns: TableColumn[], rows: Record<string, Cell>[]): Promise<void> {
  const instance = render(h(Table, { columns, rows }), { patchConsole: false });
  // waitUntilExit() before unmount(): Ink only settles a promise that already exists.
  const exited = instance.waitUntilExit();
  instance.unmount();
  await exited;
}

/** Plain aligned columns for pipes and files (no colours). */
export function plainTable(columns: TableColumn[], rows: Record<string, Cell>[]): string {
  const w = widths(columns, rows).map((n, i) => Math.max(n, ...rows.map((r) => cellText(r[columns[i].key]).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (columns[i].right ? c.padStart(w[i]) : i === cells.length - 1 ? c : c.padEnd(w[i])))
      .join('  ')
      .trimEnd();
  return (
    [line(columns.map((c) => c.label)), ...rows.map((row) => line(columns.map((c) => cellText(row[c.key]))))].join(
      '\n',
    ) + '\n'
  );
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

interface TaskState {
  label: string;
  done?: number;
  total?: number;
  finished?: { ok: boolean; message: string };
}

function Task({ state }: { state: TaskState }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (state.finished) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80);
    return () => clearInterval(timer);
  }, [state.finished]);
  if (state.finished) {
    return h(
      Text,
      { color: state.finished.ok ? 'green' : 'red' },
      `${state.finished.ok ? '✔' : '✖'} ${state.finished.message}`,
    );
  }
  const parts = [h(Text, { key: 's', color: 'cyan' }, `${FRAMES[frame]} `), h(Text, { key: 'l' }, state.label)];
  if (state.total) {
    const share = Math.min(1, (state.done ?? 0) / state.total);
    const width = 30;
    const filled = Math.round(share * width);
    parts.push(
      h(Text, { key: 'b', color: 'green' }, `  ${'█'.repeat(filled)}`),
      h(Text, { key: 'e', dimColor: true }, '░'.repeat(width - filled)),
      h(
        Text,
        { key: 'p' },
        ` ${Math.floor(share * 100)}% (${(state.done ?? 0).toLocaleString('en-US')}/${state.total.toLocaleString('en-US')})`,
      ),
    );
  } else if (state.done !== undefined) {
    parts.push(h(Text, { key: 'p', dimColor: true }, `  ${state.done.toLocaleString('en-US')}`));
  }
  return h(Box, null, ...parts);
}

export interface TaskHandle {
  update(patch: Partial<Omit<TaskState, 'finished'>>): void;
}

/** Runs `fn` under a spinner (or a progress bar once a total is reported); shows ✔/✖ at the end. */
export async function runTask<T>(
  label: string,
  fn: (task: TaskHandle) => Promise<T>,
  done: (result: T) => string,
): Promise<T> {
  let state: TaskState = { label };
  const instance = render(h(Task, { state }), { patchConsole: false, stdout: process.stderr });
  const exited = instance.waitUntilExit();
  let last = 0;
  const task: TaskHandle = {
    update(patch) {
      state = { ...state, ...patch };
      const now = Date.now();
      // Re-render at most every 50 ms: progress callbacks may come thousands of times a second.
      if (now - last >= 50) {
        last = now;
        instance.rerender(h(Task, { state }));
      }
    },
  };
  try {
    const result = await fn(task);
    instance.rerender(h(Task, { state: { ...state, finished: { ok: true, message: done(result) } } }));
    return result;
  } catch (error) {
    instance.rerender(h(Task, { state: { ...state, finished: { ok: false, message: `${label} failed` } } }));
    throw error;
  } finally {
    instance.unmount();
    await exited;
  }
}

function Confirm({ question, onAnswer }: { question: string; onAnswer: (yes: boolean) => void }) {
  const { exit } = useApp();
  const [answer, setAnswer] = useState<boolean | null>(null);
  useInput((input, key) => {
    if (answer !== null) return;
    const yes = input.toLowerCase() === 'y';
    if (yes || input.toLowerCase() === 'n' || key.return || key.escape) {
      setAnswer(yes);
      onAnswer(yes);
      setTimeout(exit, 0);
    }
  });
  return h(
    Box,
    null,
    h(Text, { color: 'yellow' }, '? '),
    h(Text, { bold: true }, `${question} `),
    h(Text, { dimColor: answer === null }, answer === null ? '(y/N) ' : answer ? 'yes' : 'no'),
  );
}

/** Asks a yes/no question on the terminal (default no). */
export async function confirmPrompt(question: string): Promise<boolean> {
  let result = false;
  const instance = render(h(Confirm, { question, onAnswer: (yes: boolean) => (result = yes) }), {
    patchConsole: false,
    exitOnCtrlC: true,
  });
  await instance.waitUntilExit();
  return result;
}
