-- An answer with three blocks for shapes.go, applied as a person would:
-- block 1 from its code action "Apply edit block", then "Apply all" for
-- the rest. Each block's code lands once (block 2 is an insertion whose
-- replacement keeps its search), and every block of the answer is then
-- shown applied: a hint with code "already-applied", no Apply action.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))

-- settle waits for the diagnostics to show a state, and on a timeout
-- notes it and goes on: the test then reports what the buffers hold
-- rather than only which wait failed.
local function settle(cond, what)
  if not vim.wait(H.timeout, cond, 20) then
    table.insert(H.result.timeouts, what)
  end
end

-- codes returns the codes of buf's diagnostics, by line.
local function codes(buf)
  local out = {}
  for _, d in ipairs(H.diagnostics(buf)) do
    table.insert(out, d.code)
  end
  return out
end

-- all_are reports whether buf has n diagnostics, all with code.
local function all_are(buf, n, code)
  local got = codes(buf)
  if #got ~= n then
    return false
  end
  for _, c in ipairs(got) do
    if c ~= code then
      return false
    end
  end
  return true
end

-- search_lines returns the 1-based line of each block's SEARCH marker.
local function search_lines(buf)
  local out = {}
  for i, l in ipairs(H.lines(buf)) do
    if l == '<<<<<<< SEARCH' then
      table.insert(out, i)
    end
  end
  return out
end

-- action_titles asks the server, not the menu, for the code actions of
-- the whole buffer: with none, vim.lsp.buf.code_action() offers no menu.
local function action_titles(buf)
  local last = vim.api.nvim_buf_line_count(buf)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last - 1, character = 0 } },
    context = { diagnostics = {} },
  }
  local titles = {}
  local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, H.timeout) or {}
  for _, reply in pairs(replies) do
    for _, a in ipairs(reply.result or {}) do
      table.insert(titles, a.title)
    end
  end
  return titles
end

H.scenario(function()
  H.result.timeouts = {}
  local target = H.edit('shapes.go')
  H.client(target)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    return all_are(answer, 3, 'exact')
  end, 'three "exact" diagnostics on the answer buffer')
  H.result.before = H.diagnostics(answer)
  local blocks = search_lines(answer)

  -- Block 1, from its code action.
  vim.api.nvim_win_set_cursor(0, { blocks[1], 0 })
  local tick = vim.api.nvim_buf_get_changedtick(target)
  H.result.offered1 = H.code_action('^Apply edit block')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(target) ~= tick
  end, 'the code action to change shapes.go')
  H.result.after1 = H.lines(target)
  settle(function()
    local got = codes(answer)
    return #got == 3 and got[1] == 'already-applied' and got[2] == 'exact' and got[3] == 'exact'
  end, 'block 1 to be shown applied')
  H.result.diagnostics1 = H.diagnostics(answer)

  -- Apply all, from block 1's code actions.
  vim.api.nvim_win_set_cursor(0, { blocks[1], 0 })
  local all_tick = vim.api.nvim_buf_get_changedtick(target)
  H.result.offered_all = H.code_action('^Apply all')
  settle(function()
    return vim.api.nvim_buf_get_changedtick(target) ~= all_tick
  end, 'Apply all to change shapes.go')
  settle(function()
    return all_are(answer, 3, 'already-applied')
  end, 'every block to be shown applied')
  H.result.lines = H.lines(target)
  H.result.diagnostics = H.diagnostics(answer)
  H.result.left = action_titles(answer)
  H.result.modified = vim.bo[target].modified
end)
