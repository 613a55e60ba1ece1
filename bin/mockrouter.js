#!/usr/bin/env node
// The `mockrouter` command: runs the compiled CLI (see src/cli.ts for the flags).
import '../dist/cli.js';
