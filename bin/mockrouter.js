#!/usr/bin/env node
// The `mockrouter` command: caps V8's young generation for the server's process first (src/cli/heap-limits.ts,
// before anything else loads), then runs the CLI (src/cli/index.ts, bundled into dist/bin/cli.js by `npm run build`).
import '../dist/cli/heap-limits.js';
import '../dist/bin/cli.js';
