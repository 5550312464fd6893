// Files the server creates, made holding their text (src/newfiles.ts,
// bundled to out/newfiles.mjs by the Go test before node --test runs).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withContents } from '../out/newfiles.mjs';

const at = (line, character) => ({ line, character });
const start = { start: at(0, 0), end: at(0, 0) };
const create = (uri) => ({ kind: 'create', uri });
const insert = (uri, newText, version = null, range = start) => ({ textDocument: { uri, version }, edits: [{ range, newText }] });
const text = (c) => new TextDecoder().decode(c.options.contents);

test('withContents: a created file and the text put in it are one CreateFile holding the text', () => {
  const edit = { documentChanges: [insert('file:///a', 'x', 3, { start: at(1, 0), end: at(2, 0) }), create('file:///b'), insert('file:///b', 'package b\n\n// é\n')] };
  const { edit: out, filled } = withContents(edit);
  assert.deepEqual(filled, ['file:///b']);
  assert.equal(out.documentChanges.length, 2);
  assert.deepEqual(out.documentChanges[0], edit.documentChanges[0]);
  assert.equal(out.documentChanges[1].kind, 'create');
  assert.equal(text(out.documentChanges[1]), 'package b\n\n// é\n');
  assert.equal(edit.documentChanges.length, 3, 'the edit given is left as it was');
});

test('withContents: anything else stays as it is', () => {
  const cases = {
    'an empty new file': [create('file:///b')],
    'the text for another file': [create('file:///b'), insert('file:///c', 'c')],
    'a text edit of a version': [create('file:///b'), insert('file:///b', 'b', 1)],
    'a text edit not at the start': [create('file:///b'), insert('file:///b', 'b', null, { start: at(0, 1), end: at(0, 1) })],
    'a rename and a delete': [{ kind: 'rename', oldUri: 'file:///a', newUri: 'file:///b' }, { kind: 'delete', uri: 'file:///c' }],
  };
  for (const [name, documentChanges] of Object.entries(cases)) {
    const { edit, filled } = withContents({ documentChanges });
    assert.deepEqual(edit.documentChanges, documentChanges, name);
    assert.deepEqual(filled, [], name);
  }
  const changes = { changes: { 'file:///a': [{ range: start, newText: 'a' }] } };
  assert.deepEqual(withContents(changes), { edit: changes, filled: [] });
});
