#!/usr/bin/env node
// The `mockrouter` command: caps V8's young generation for the server's process first (src/server/heap-limits.ts,
// before anything else loads), then runs the CLI (src/cli.ts, bundled into dist/bin/cli.js by `npm run build`).
import '../dist/server/heap-limits.js';
import '../dist/bin/cli.js';
