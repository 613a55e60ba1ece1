// Empties dist/ before `npm run build` compiles into it, so a file removed or renamed in src/ leaves no stale module
// behind in dist/ (and so in the packed package).
import { rmSync } from 'node:fs';

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
