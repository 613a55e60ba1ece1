#!/usr/bin/env node
// The `mockrouter` command: runs the CLI (src/cli.ts, bundled into dist/bin/cli.js by `npm run build`).
import '../dist/bin/cli.js';
