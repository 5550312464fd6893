// Finding the graft binary (the one graft.path names, the extension's
// own, graft on PATH), and the notification when it is missing (src/binary.ts, bundled to out/ by the
// Go test).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { findExecutable, missingBinaryMessage, installCommand, resolveBinary, bundledBinary } from '../out/binary.mjs';

let dir;
let bin;

before(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'graft-bin-')));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.mkdirSync(path.join(dir, 'home', 'go', 'bin'), { recursive: true });
  bin = path.join(dir, 'bin', 'graft');
  fs.writeFileSync(bin, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'home', 'go', 'bin', 'graft'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'bin', 'notexec'), 'x', { mode: 0o644 });
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('findExecutable: a name on PATH, a full path, a home path; nothing for what is not an executable file', () => {
  const env = { PATH: [path.join(dir, 'nowhere'), path.join(dir, 'bin')].join(path.delimiter), HOME: path.join(dir, 'home') };
  const cases = [
    ['graft', bin],
    [bin, bin],
    ['~/go/bin/graft', path.join(dir, 'home', 'go', 'bin', 'graft')],
    ['graft-missing', undefined],
    [path.join(dir, 'bin', 'missing'), undefined],
    ['notexec', undefined],
    [path.join(dir, 'bin'), undefined],
  ];
  for (const [name, want] of cases) {
    assert.equal(findExecutable(name, env, 'linux'), want, name);
  }
  assert.equal(findExecutable('graft', { PATH: '' }, 'linux'), undefined, 'an empty PATH finds nothing');
});

test('resolveBinary: graft.path when set, else the binary that comes with the extension, else graft on PATH', () => {
  const env = { PATH: path.join(dir, 'bin'), HOME: path.join(dir, 'home') };
  const withBinary = path.join(dir, 'ext-linux');
  const winBinary = path.join(dir, 'ext-win');
  const universal = path.join(dir, 'ext-universal');
  fs.mkdirSync(path.join(withBinary, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(withBinary, 'bin', 'graft'), '#!/bin/sh\n', { mode: 0o755 });
  fs.mkdirSync(path.join(winBinary, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(winBinary, 'bin', 'graft.exe'), 'MZ');
  fs.mkdirSync(universal, { recursive: true });
  const bundled = path.join(withBinary, 'bin', 'graft');
  const cases = [
    // [setting, extension, want path, want source]
    [undefined, withBinary, bundled, 'bundled'],
    ['', withBinary, bundled, 'bundled'],
    ['  ', withBinary, bundled, 'bundled'],
    ['graft', withBinary, bin, 'setting'],
    [bin, withBinary, bin, 'setting'],
    // Set and missing: the person asked for that one; no other is taken.
    ['/no/such/graft', withBinary, undefined, 'setting'],
    [undefined, universal, bin, 'path'],
  ];
  for (const [setting, ext, want, source] of cases) {
    const got = resolveBinary(setting, ext, env, 'linux');
    assert.equal(got.path, want, `${setting} in ${path.basename(ext)}`);
    assert.equal(got.source, source, `${setting} in ${path.basename(ext)}`);
  }
  assert.deepEqual(resolveBinary(undefined, universal, { PATH: '' }, 'linux'), { path: undefined, source: 'path', wanted: 'graft' });
  assert.equal(resolveBinary('', winBinary, { PATH: '' }, 'win32').path, path.join(winBinary, 'bin', 'graft.exe'));
  assert.equal(bundledBinary(winBinary, 'linux'), undefined, 'a Linux extension has no graft.exe to run');
});

test('bundledBinary: a binary unzipped without its executable bit gets it back', () => {
  const ext = path.join(dir, 'ext-nomode');
  fs.mkdirSync(path.join(ext, 'bin'), { recursive: true });
  const b = path.join(ext, 'bin', 'graft');
  fs.writeFileSync(b, '#!/bin/sh\n', { mode: 0o644 });
  assert.equal(bundledBinary(ext, 'linux'), b);
  assert.equal(fs.statSync(b).mode & 0o111, 0o111);
});

test('missingBinaryMessage: says what is missing and how to fix it', () => {
  const setting = missingBinaryMessage({ path: undefined, source: 'setting', wanted: 'graft' });
  assert.match(setting, /"graft\.path" is set to "graft", which was not found on PATH\./);
  assert.match(setting, /clear it to use the one that comes with the extension/);
  assert.match(missingBinaryMessage({ path: undefined, source: 'setting', wanted: '/opt/graft/bin/graft' }), /"\/opt\/graft\/bin\/graft", which was not found\. /);
  const none = missingBinaryMessage({ path: undefined, source: 'path', wanted: 'graft' });
  assert.match(none, /no graft binary, and there is no graft on PATH/);
  assert.match(none, /Install the extension for your platform/);
  assert.ok(none.includes(installCommand));
});
