#!/usr/bin/env node
// Shim: runs the TypeScript CLI through tsx so `npx arena` works straight after `npm ci`.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
