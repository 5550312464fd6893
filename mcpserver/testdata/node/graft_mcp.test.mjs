// Drives graft mcp with the official MCP TypeScript SDK: its Client over
// StdioClientTransport, as Node-based agents do. Run by mcpserver's
// TestNodeClient, which sets GRAFT_BIN to the built binary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bin = process.env.GRAFT_BIN;
assert.ok(bin, "GRAFT_BIN must name the graft binary");

const original = [
  "package demo",
  "",
  "func count(xs []int) int {",
  "\tn := 0",
  "\tfor range xs {",
  "\t\tn++",
  "\t}",
  "\treturn n",
  "}",
  "",
].join("\n");

let dir;
let client;

before(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "graft-mcp-node-")));
  writeFileSync(join(dir, "demo.go"), original);
  client = new Client({ name: "graft-node-test", version: "1.0.0" });
  // The environment whole: the SDK passes on only a few variables, and
  // graft mcp keeps its journal under XDG_STATE_HOME, the test's.
  await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--root", dir], env: process.env, stderr: "inherit" }));
});

after(async () => {
  await client?.close();
});

test("lists the three tools with their schemas and annotations", async () => {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), ["apply_edits", "edit", "preview_edits"]);

  const edit = byName.edit.inputSchema;
  assert.equal(edit.type, "object");
  assert.deepEqual([...edit.required].sort(), ["new_string", "old_string", "path"]);
  assert.equal(edit.properties.path.type, "string");
  assert.equal(edit.properties.replace_all.type, "boolean");
  assert.equal(edit.properties.start_line.type, "integer");
  assert.equal(edit.properties.review.type, "boolean");
  assert.deepEqual(byName.apply_edits.inputSchema.required, ["text"]);
  assert.equal(byName.apply_edits.inputSchema.properties.atomic.type, "boolean");
  assert.deepEqual(byName.preview_edits.inputSchema.required, ["text"]);
  for (const t of tools) {
    assert.equal(t.outputSchema.type, "object", `${t.name} output schema`);
    assert.ok(t.outputSchema.properties.blocks, `${t.name} reports blocks`);
  }

  assert.equal(byName.edit.annotations.readOnlyHint, false);
  assert.equal(byName.edit.annotations.destructiveHint, true);
  assert.equal(byName.edit.annotations.idempotentHint, false);
  assert.equal(byName.apply_edits.annotations.destructiveHint, true);
  assert.equal(byName.preview_edits.annotations.readOnlyHint, true);
});

test("previews an edit without changing the file", async () => {
  const text = "demo.go\n<<<<<<< SEARCH\n\treturn n\n=======\n\treturn n * 2\n>>>>>>> REPLACE\n";
  const res = await client.callTool({ name: "preview_edits", arguments: { text } });
  assert.notEqual(res.isError, true, res.content[0].text);
  assert.match(res.content[0].text, /\+\treturn n \* 2/);
  assert.equal(res.structuredContent.applied, 1);
  assert.match(res.structuredContent.files[0].diff, /^--- a\/demo\.go/);
  assert.equal(readFileSync(join(dir, "demo.go"), "utf8"), original);
});

test("refuses an edit that does not match, with the candidate to quote", async () => {
  const res = await client.callTool({
    name: "edit",
    arguments: {
      path: "demo.go",
      old_string: "func count(items []string) int {\n\ttotal := 0\n\tfor range items {\n\t\ttotal++\n\t}\n\treturn total\n}\n",
      new_string: "func count(items []string) int { return len(items) }\n",
    },
  });
  assert.equal(res.isError, true);
  const text = res.content[0].text;
  assert.match(text, /Best candidate: lines 3-9/);
  assert.match(text, /Lines 3-9 of demo\.go read now:\nfunc count\(xs \[\]int\) int \{/);
  assert.equal(res.structuredContent.failed, 1);
  assert.equal(res.structuredContent.blocks[0].status, "failed");
  assert.equal(readFileSync(join(dir, "demo.go"), "utf8"), original);
});

test("applies an edit", async () => {
  const res = await client.callTool({
    name: "edit",
    arguments: { path: "demo.go", old_string: "\treturn n\n", new_string: "\treturn n + 0\n" },
  });
  assert.notEqual(res.isError, true, res.content[0].text);
  assert.match(res.content[0].text, /^Applied to demo\.go line 8 \(exact\)\./);
  const block = res.structuredContent.blocks[0];
  assert.equal(block.status, "applied");
  assert.equal(block.strategy, "exact");
  assert.equal(block.startLine, 8);
  assert.equal(readFileSync(join(dir, "demo.go"), "utf8"), original.replace("\treturn n\n", "\treturn n + 0\n"));
});
