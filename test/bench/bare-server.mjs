// The baseline: plain node:http answering every request with the same precomputed bytes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
createServer((_, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(process.argv[3]), '127.0.0.1', () => process.stdout.write('ready\n'));
