// The baseline: plain node:http answering every request with the same precomputed bytes and the same
// headers as the mock's answer it copies. Usage: node bare-server.mjs BODY_FILE PORT [HEADERS_JSON_FILE]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const headers = {
  'content-type': 'application/json',
  ...(process.argv[4] ? JSON.parse(readFileSync(process.argv[4], 'utf8')) : {}),
  'content-length': String(body.length),
};
createServer((_, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(process.argv[3]), '127.0.0.1', () => process.stdout.write('ready\n'));
