// The status bar text and the report the extension shows for the
// server's replies (src/report.ts, bundled to out/report.mjs by the Go
// test before node --test runs).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { summarize, formatReport, explainError } from '../out/report.mjs';

const applied = { index: 0, path: 'a.go', dialect: 'search-replace', status: 'applied', strategy: 'exact', score: 1, startLine: 5, endLine: 5, message: '', range: { start: { line: 4, character: 0 }, end: { line: 5, character: 0 } } };
const failed = { index: 3, path: 'b.go', dialect: 'search-replace', status: 'failed', strategy: '', score: 0, startLine: 0, endLine: 0, message: 'no match for the search text\nbest candidate: lines 3-4 (score 0.61)' };

test('summarize: the status bar text of each reply', () => {
  const cases = [
    [{ applied: true, blocks: [applied, { ...applied, index: 1 }, { ...applied, index: 2 }, failed] }, 'Graft: 3 applied, 1 failed'],
    [{ applied: true, blocks: [applied] }, 'Graft: 1 applied'],
    [{ applied: false, failureReason: 'Version mismatch', blocks: [failed, { ...failed, index: 4, status: 'skipped' }] }, 'Graft: 0 applied, 1 failed, 1 skipped'],
    [{ edit: {}, diff: '', blocks: [applied, failed] }, 'Graft: 1 would apply, 1 failed'],
    [{ blocks: [applied, { ...applied, index: 1 }], suggestions: [{}, {}] }, 'Graft: 2 suggested'],
    [{ applied: true, blocks: [applied, { ...applied, index: 1, status: 'already-applied' }, { ...applied, index: 2, status: 'already-applied' }] }, 'Graft: 1 applied, 2 already applied'],
  ];
  for (const [res, want] of cases) {
    assert.equal(summarize(res), want);
  }
});

test('summarize and formatReport: the files of one apply-patch are one block', () => {
  // An apply-patch of two files (block 1), and a block after it (block 2).
  const patch = (index, path, status) => ({ ...applied, index, block: 1, path, dialect: 'apply-patch', status });
  const after = { ...applied, index: 2, block: 2, path: 'c.go' };
  assert.equal(summarize({ applied: true, blocks: [patch(0, 'a.go', 'applied'), patch(1, 'b.go', 'applied'), after] }), 'Graft: 2 applied');
  // A patch with a file that failed is a block that failed.
  assert.equal(summarize({ applied: true, blocks: [patch(0, 'a.go', 'applied'), patch(1, 'b.go', 'failed'), after] }), 'Graft: 1 applied, 1 failed');
  assert.equal(summarize({ applied: true, blocks: [patch(0, 'a.go', 'already-applied'), patch(1, 'b.go', 'applied'), after] }), 'Graft: 2 applied');
  const text = formatReport('Apply', { applied: true, blocks: [patch(0, 'a.go', 'applied'), patch(1, 'b.go', 'applied'), after] });
  assert.match(text, /^- block 1 \(apply-patch\) a\.go:5: /m);
  assert.match(text, /^- block 1 \(apply-patch\) b\.go:5: /m);
  assert.match(text, /^- block 2 \(search-replace\) c\.go:5: /m);
  assert.doesNotMatch(text, /block 3/);
});

test('formatReport: every block, where it landed, and why one was refused', () => {
  const text = formatReport('Apply', { applied: false, failureReason: 'Version 1 does not match', blocks: [applied, failed] });
  assert.equal(text, [
    '# Apply: 1 applied, 1 failed',
    '',
    'The editor did not apply the edit: Version 1 does not match',
    '',
    '- block 1 (search-replace) a.go:5: **applied** by exact (score 1.00)',
    '- block 4 (search-replace) b.go: **failed**',
    '  > no match for the search text',
    '  > best candidate: lines 3-4 (score 0.61)',
    '',
  ].join('\n'));
  const preview = formatReport('Preview', { edit: {}, diff: '--- a/a.go\n+++ b/a.go\n', blocks: [applied] });
  assert.match(preview, /```diff\n--- a\/a.go\n\+\+\+ b\/a.go\n```\n$/);
  // A block's word is the reply's: a preview applies nothing, suggest suggests.
  assert.match(preview, /^# Preview: 1 would apply\n/);
  assert.match(preview, /^- block 1 \(search-replace\) a\.go:5: \*\*would apply\*\* by exact/m);
  const suggest = formatReport('Suggest', { blocks: [applied, failed], suggestions: [{}] });
  assert.match(suggest, /^# Suggest: 1 suggested, 1 failed\n/);
  assert.match(suggest, /^- block 1 \(search-replace\) a\.go:5: \*\*suggested\*\* by exact/m);
  assert.doesNotMatch(preview + suggest, /\*\*applied\*\*/);
});

test('explainError: the server\'s errors in the person\'s words, with what to do', () => {
  const server = 'text: dialect: no edit blocks in the text';
  assert.equal(explainError(server, 'clipboard'),
    'the clipboard holds no edit blocks: copy an agent\'s answer (its SEARCH/REPLACE blocks, diff or patch) and run the command again.');
  assert.equal(explainError(server, 'selection'),
    'the selection holds no edit blocks: select an agent\'s answer (its SEARCH/REPLACE blocks, diff or patch) and run the command again.');
  assert.equal(explainError('uri "x": not a file: URI', 'clipboard'), 'uri "x": not a file: URI');
});
