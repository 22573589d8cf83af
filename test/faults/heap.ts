// A process's V8 heap after a full garbage collection, read through its inspector (a process
// started with --inspect): what it really keeps, unlike its resident memory, which also holds
// what the allocator has not handed back yet. The soak tells a leak from a settling heap by it.
export async function heapAfterGc(inspector: string): Promise<number> {
  const socket = new WebSocket(inspector);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`no inspector at ${inspector}`)), { once: true });
  });
  let next = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const id = ++next;
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as {
          id?: number;
          result?: Record<string, any>;
          error?: unknown;
        };
        if (message.id !== id) return;
        socket.removeEventListener('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result ?? {});
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    const result = await call('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    });
    return Number(result.result.value);
  } finally {
    socket.close();
  }
}
