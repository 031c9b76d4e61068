#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the package works from a clean install with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
