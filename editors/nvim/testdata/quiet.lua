-- One short message per action: :GraftApply says what it did once (not
-- the edit's label, nor the server's message too); the binary missing is
-- said once, not for every buffer opened.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local said = {}
  local notify = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(said, msg)
    return notify(msg, level, opts)
  end
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('a', 'main.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n')
  vim.cmd('messages clear')
  H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  -- Let the server's message, if any, arrive.
  vim.wait(300)
  H.result.said = said
  H.result.messages = vim.split(vim.api.nvim_exec('messages', true), '\n', { trimempty = true })
end)
