// Packages the extension as .vsix files, with vsce. Given platform
// targets, it makes one .vsix per target, each holding the graft binary
// cross-compiled for that platform in bin/ (bin/graft, bin/graft.exe on
// Windows), so that installing the extension is all a person does; given
// none, it makes one .vsix without a binary, for every platform (the
// extension then runs the graft on PATH, or graft.path).
//
//   node scripts/package.mjs [--out DIR] [--module DIR] [TARGET... | all]
//
// TARGET is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64,
// win32-x64 (the names vsce --target takes). --out is the folder of the
// .vsix files (default: this folder); each is named graft-TARGET.vsix, or
// graft.vsix without a target. --module is the Go module that holds
// cmd/graft (default: the repository this folder is in). The go command
// is $GO, or go on PATH; the extension's npm packages must be installed
// (npm ci). The LICENSE packaged is the repository's, copied here.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Go platform of each vsce target. */
const platforms = {
  'linux-x64': { goos: 'linux', goarch: 'amd64' },
  'linux-arm64': { goos: 'linux', goarch: 'arm64' },
  'darwin-x64': { goos: 'darwin', goarch: 'amd64' },
  'darwin-arm64': { goos: 'darwin', goarch: 'arm64' },
  'win32-x64': { goos: 'windows', goarch: 'amd64' },
};

const extension = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** parseArgs reads the command line. */
function parseArgs(argv) {
  const opts = { out: extension, module: path.resolve(extension, '..', '..'), targets: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out' || a === '--module') {
      if (i + 1 >= argv.length) {
        throw new Error(`${a} needs a folder`);
      }
      opts[a.slice(2)] = path.resolve(argv[++i]);
    } else if (a === 'all') {
      opts.targets.push(...Object.keys(platforms));
    } else if (a in platforms) {
      opts.targets.push(a);
    } else {
      throw new Error(`unknown target or flag ${JSON.stringify(a)}: the targets are ${Object.keys(platforms).join(', ')} (or all)`);
    }
  }
  return opts;
}

/** run runs a command with the terminal's output, and throws when it fails. */
function run(file, args, options = {}) {
  console.log(`$ ${[file, ...args].join(' ')}`);
  execFileSync(file, args, { stdio: 'inherit', ...options });
}

/** license puts the repository's LICENSE beside package.json, where vsce looks for it. */
function license(module) {
  const from = path.join(module, 'LICENSE');
  const to = path.join(extension, 'LICENSE');
  if (fs.existsSync(from)) {
    fs.copyFileSync(from, to);
  } else if (!fs.existsSync(to)) {
    throw new Error(`no LICENSE in ${module} or ${extension}: the .vsix must carry the license`);
  }
}

/** buildGraft cross-compiles cmd/graft for the target into bin/, and returns its path. */
function buildGraft(module, target) {
  const { goos, goarch } = platforms[target];
  const bin = path.join(extension, 'bin');
  fs.rmSync(bin, { recursive: true, force: true });
  fs.mkdirSync(bin);
  const exe = path.join(bin, goos === 'windows' ? 'graft.exe' : 'graft');
  run(process.env.GO || 'go', ['build', '-trimpath', '-ldflags=-s -w', '-o', exe, './cmd/graft'], {
    cwd: module,
    env: { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: '0' },
  });
  return exe;
}

/** vsce runs vsce package with args, as the extension's own dependency. */
function vsce(args) {
  const require = createRequire(path.join(extension, 'package.json'));
  const cli = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  // --no-dependencies: the bundle (dist/extension.js) holds them.
  run(process.execPath, [cli, 'package', '--no-dependencies', ...args], { cwd: extension });
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  license(opts.module);
  fs.mkdirSync(opts.out, { recursive: true });
  if (opts.targets.length === 0) {
    fs.rmSync(path.join(extension, 'bin'), { recursive: true, force: true });
    vsce(['--out', path.join(opts.out, 'graft.vsix')]);
    return;
  }
  try {
    for (const target of opts.targets) {
      buildGraft(opts.module, target);
      vsce(['--target', target, '--out', path.join(opts.out, `graft-${target}.vsix`)]);
    }
  } finally {
    // The binaries belong in the packages, not in the tree.
    fs.rmSync(path.join(extension, 'bin'), { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`package.mjs: ${err.message}`);
  process.exit(1);
}
