// Finding the graft binary that the setting graft.path names, and the
// notification when it is missing (src/binary.ts, bundled to out/ by the
// Go test).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { findExecutable, missingBinaryMessage, installCommand } from '../out/binary.mjs';

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

test('missingBinaryMessage: says what is missing and how to fix it', () => {
  const onPath = missingBinaryMessage('graft');
  assert.match(onPath, /"graft" was not found on PATH/);
  assert.ok(onPath.includes(installCommand));
  assert.match(onPath, /"graft\.path"/);
  assert.match(missingBinaryMessage('/opt/graft/bin/graft'), /"\/opt\/graft\/bin\/graft" was not found\. /);
});
