-- An agent at the top of the repository runs graft apply while Neovim has
-- the repository's folder web/ open (its own root), with an unsaved change
-- in web/app.txt: the answer lands in the buffer, the unsaved line kept and
-- the disk untouched, a message says an agent's answer changed it, and one
-- `u` takes the agent's change back.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('web/app.txt')
  H.client(buf)
  vim.api.nvim_buf_set_lines(buf, 0, 1, false, { 'ALPHA (unsaved)' })
  vim.o.undolevels = vim.o.undolevels -- the person's change is an undo step of its own
  -- A request sends the change to the server first, and its reply comes
  -- after the server has it.
  vim.lsp.buf_request_sync(buf, 'workspace/executeCommand', { command = 'graft.suggestions', arguments = { {} } }, H.timeout)
  local sockets = os.getenv('GRAFT_EDITOR_DIR')
  H.wait(function()
    return vim.fn.glob(sockets .. '/*.root') ~= ''
  end, 'the server to announce the folder it serves')

  local answer = H.ws .. '/answer.md'
  vim.fn.writefile({ 'web/app.txt', '<<<<<<< SEARCH', 'beta', '=======', 'BETA', '>>>>>>> REPLACE' }, answer)
  local out, code = {}, nil
  vim.fn.jobstart({ os.getenv('GRAFT_NVIM_GRAFT'), 'apply', '--json', answer }, {
    cwd = H.ws,
    stdout_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_exit = function(_, c)
      code = c
    end,
  })
  H.wait(function()
    return code ~= nil
  end, 'graft apply to exit')
  H.result.code = code
  local report = vim.fn.json_decode(table.concat(out, '\n'))
  H.result.via = report.via
  H.result.paths = {}
  for _, b in ipairs(report.blocks) do
    table.insert(H.result.paths, b.path .. ' ' .. b.status)
  end
  -- The person is told whose edit changed the buffer.
  H.wait(function()
    return vim.fn.execute('messages'):find("an agent's answer", 1, true) ~= nil
  end, "the message that an agent's answer was applied")
  H.result.buffer = H.lines(buf)
  H.result.modified = vim.bo[buf].modified
  H.result.disk = H.disk('web/app.txt')
  vim.cmd('normal! u')
  H.result.undone = H.lines(buf)
end)
