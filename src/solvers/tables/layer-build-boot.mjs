// Entry of a layered pattern-database build thread. A worker starts a fresh module graph in which TypeScript
// cannot load until tsx is registered, so this plain-JS file registers it and then loads the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./layer-build-worker.ts', import.meta.url).href);
