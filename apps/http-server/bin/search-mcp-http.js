#!/usr/bin/env node
// The bin is this committed file, not dist/cli.js itself: pnpm links a workspace package's bins when it installs,
// before anything is built, and warned "Failed to create bin" for a target that did not exist yet.
import '../dist/cli.js';
