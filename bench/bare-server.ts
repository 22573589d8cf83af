// The baseline: a bare node:http server answering each captured path with the app's exact
// response (status, headers, body bytes), read from a JSON file the orchestrator writes.
//   npx node bench/bare-server.ts <port> <responses.json>
import fs from 'node:fs';
import http from 'node:http';

export interface CapturedResponse {
  status: number;
  /** Header pairs as the app sent them, less the per-connection ones. */
  headers: [string, string][];
  bodyBase64: string;
}

const [portArg, file] = process.argv.slice(2);
const captured = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, CapturedResponse>;
const routes = new Map(
  Object.entries(captured).map(([path, r]) => {
    const body = Buffer.from(r.bodyBase64, 'base64');
    return [path, { status: r.status, headers: [...r.headers.flat(), 'Content-Length', String(body.length)], body }];
  }),
);

const server = http.createServer((req, res) => {
  const route = routes.get(req.url ?? '');
  if (!route) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
    return;
  }
  res.writeHead(route.status, route.headers);
  res.end(route.body);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log(`[bare] listening on http://127.0.0.1:${portArg}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
