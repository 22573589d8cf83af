// A local stand-in for an OpenAI-compatible chat completions server (the only mock of the suite:
// the real service is beyond this machine's network). It speaks the wire format the `openai`
// client reads: JSON for plain requests, server-sent events for `stream: true` (content and
// tool-call deltas, finish reason, a usage chunk). A script decides each reply; every request
// is recorded with its headers for the tests to inspect.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  body: {
    model: string;
    messages: {
      role: string;
      content: string | null;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
    }[];
    tools?: { function: { name: string } }[];
    tool_choice?: string;
    stream?: boolean;
    max_completion_tokens?: number;
  };
  headers: http.IncomingHttpHeaders;
}

export interface FakeReply {
  content?: string;
  toolCalls?: { name: string; arguments: unknown }[];
  /** An error answer with this status. */
  status?: number;
  error?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  totalTokens?: number;
}

export type FakeScript = (request: FakeRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAi {
  /** The base URL for OPENAI_BASE_URL (…/v1). */
  url: string;
  requests: FakeRequest[];
  script: FakeScript;
  close(): Promise<void>;
}

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'fake',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function startFakeOpenAi(
  script: FakeScript = () => ({ content: 'Hello from the fake model.' }),
): Promise<FakeOpenAi> {
  const fake = { requests: [] as FakeRequest[], script } as FakeOpenAi;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Not found' } }));
      return;
    }
    const request: FakeRequest = { body: JSON.parse(raw), headers: req.headers };
    fake.requests.push(request);
    const reply = await fake.script(request, fake.requests.length - 1);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    if (reply.status) {
      res
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: reply.error ?? 'error', type: 'server_error' } }));
      return;
    }
    const calls = (reply.toolCalls ?? []).map((call, i) => ({
      id: `call_${fake.requests.length}_${i}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const finish = calls.length ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: reply.totalTokens ?? 100 };
    if (!request.body.stream) {
      const message = {
        role: 'assistant',
        content: reply.content ?? null,
        ...(calls.length
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: 0,
          model: request.body.model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data: object) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    send(chunk({ role: 'assistant', content: '' }));
    for (const piece of pieces(reply.content ?? '')) send(chunk({ content: piece }));
    calls.forEach((call, index) => {
      send(
        chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
      );
      for (const piece of pieces(call.arguments, 11))
        send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    send(chunk({}, finish));
    if ((request.body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage)
      send({ ...chunk({}), choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return fake;
}

/** The tool results the model was sent in a request (by tool name), parsed. */
export function toolResults(request: FakeRequest): { name: string; result: Record<string, unknown> }[] {
  const names = new Map<string, string>();
  for (const m of request.body.messages) for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
  return request.body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({ name: names.get(m.tool_call_id ?? '') ?? '?', result: JSON.parse(m.content ?? '{}') }));
}
