// Sends one edit for review through graft mcp with the official MCP
// TypeScript SDK, and prints the tool's result as JSON: run by mcpserver's
// TestNodeClientReview, which starts the editor (graft serve and a test
// editor) and makes the person's decision meanwhile. GRAFT_BIN is the
// built binary, GRAFT_ROOT the workspace root; the editor link's
// directory comes in the environment.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bin = process.env.GRAFT_BIN;
const root = process.env.GRAFT_ROOT;
const client = new Client({ name: "graft-node-review", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--root", root], env: process.env, stderr: "inherit" }));
const result = await client.callTool(
  { name: "edit", arguments: { path: "main.go", old_string: "\treturn 41\n", new_string: "\treturn 42\n", review: true } },
  undefined,
  { timeout: 60000 },
);
process.stdout.write(JSON.stringify(result));
await client.close();
