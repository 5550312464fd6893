-- Helpers of the scenario scripts run by nvim_test.go in headless Neovim.
local H = {}

H.ws = os.getenv('GRAFT_NVIM_WS')
H.out = os.getenv('GRAFT_NVIM_OUT')
H.timeout = 30000
H.result = {}

local graft = require('graft')

-- wait waits for cond, failing the scenario after H.timeout.
function H.wait(cond, what)
  if not vim.wait(H.timeout, cond, 20) then
    error('timed out waiting for ' .. what)
  end
end

-- client waits for the graft client of buf to be initialized and attached.
function H.client(buf)
  buf = buf or vim.api.nvim_get_current_buf()
  local c
  H.wait(function()
    for _, cl in ipairs(graft._get_clients({ name = 'graft' })) do
      if cl.initialized and vim.lsp.buf_is_attached(buf, cl.id) then
        c = cl
        return true
      end
    end
    return false
  end, 'the graft server to attach to buffer ' .. buf)
  return c
end

-- run runs fn (which starts a command of kind) and waits for its reply.
function H.run(kind, fn)
  local before = graft.last[kind] and graft.last[kind].seq or 0
  fn()
  H.wait(function()
    return graft.last[kind] and graft.last[kind].seq > before
  end, 'the reply to ' .. kind)
  local last = graft.last[kind]
  if last.err then
    error(kind .. ': ' .. tostring(last.err))
  end
  return last.result
end

-- edit opens path (relative to the workspace) and returns its buffer.
function H.edit(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(H.ws .. '/' .. path))
  return vim.api.nvim_get_current_buf()
end

function H.lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

function H.disk(path)
  return vim.fn.readfile(H.ws .. '/' .. path, 'b')
end

-- qf returns the quickfix entries with their file names relative to the workspace.
function H.qf()
  local out = {}
  for _, e in ipairs(vim.fn.getqflist()) do
    local name = e.bufnr > 0 and vim.api.nvim_buf_get_name(e.bufnr) or ''
    table.insert(out, { file = vim.fn.fnamemodify(name, ':t'), lnum = e.lnum, text = e.text })
  end
  return out
end

-- diagnostics returns the diagnostics of buf, sorted by line.
function H.diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    -- code is top-level from 0.7 on; user_data.lsp.code is 0.6's place.
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, { lnum = d.lnum, severity = d.severity, message = d.message, code = code and tostring(code) or '' })
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum
  end)
  return out
end

-- pick runs run(), which offers a choice through vim.ui.select as a
-- person would meet it, chooses the item whose title (title_of(item))
-- matches pattern, and returns the titles offered; what names the choice
-- in a timeout.
local function pick(run, title_of, pattern, what)
  local titles
  local orig = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    titles = {}
    local chosen, idx
    for i, item in ipairs(items) do
      local title = title_of(item)
      table.insert(titles, title)
      if not chosen and title:match(pattern) then
        chosen, idx = item, i
      end
    end
    on_choice(chosen, idx)
  end
  run()
  H.wait(function()
    return titles ~= nil
  end, what)
  vim.ui.select = orig
  return titles
end

-- code_action runs vim.lsp.buf.code_action() as a person would, choosing
-- the action whose title matches pattern, and returns the titles offered.
function H.code_action(pattern)
  return pick(vim.lsp.buf.code_action, function(item)
    local action = item[2] or item.action or item
    return action.title or ''
  end, pattern, 'code actions')
end

-- lenses returns the code lenses Neovim holds for buf, as {line, title},
-- sorted by line (0-based), in the server's order on a line. 0.12 keeps
-- them as {client_id, lens} and deprecated get(bufnr) for get({bufnr}).
function H.lenses(buf)
  local raw
  if vim.lsp.codelens.enable then
    raw = {}
    for _, item in ipairs(vim.lsp.codelens.get({ bufnr = buf })) do
      table.insert(raw, item.lens)
    end
  else
    raw = vim.lsp.codelens.get(buf)
  end
  local out = {}
  for i, lens in ipairs(raw) do
    table.insert(out, { line = lens.range.start.line, title = lens.command and lens.command.title or '', i = i })
  end
  table.sort(out, function(a, b)
    if a.line ~= b.line then
      return a.line < b.line
    end
    return a.i < b.i
  end)
  for _, l in ipairs(out) do
    l.i = nil
  end
  return out
end

-- codelens_run runs vim.lsp.codelens.run() on the cursor's line as a
-- person would, choosing the lens whose title matches pattern, and returns
-- the titles offered.
function H.codelens_run(pattern)
  return pick(vim.lsp.codelens.run, function(item)
    return item.lens and item.lens.command and item.lens.command.title or ''
  end, pattern, 'the code lenses of the line to be offered')
end

-- finish writes the scenario's result, with the deprecated functions
-- called (recorded by the init file the test writes) and the lines of
-- :messages, and quits.
function H.finish()
  H.result.deprecated = _G.graft_deprecated or {}
  H.result.messages = {}
  for _, line in ipairs(vim.split(vim.fn.execute('messages'), '\n', { plain = true })) do
    if line ~= '' then
      table.insert(H.result.messages, line)
    end
  end
  local f = assert(io.open(H.out, 'w'))
  f:write(vim.fn.json_encode(H.result))
  f:close()
  vim.cmd('qa!')
end

-- scenario runs fn, writing its result or its error, and quits.
function H.scenario(fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then
    H.result = { error = tostring(err) }
  end
  H.finish()
end

return H
