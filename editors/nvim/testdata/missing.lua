-- With no graft binary, files open as ever, each with its text, and the
-- person is told once, not for every buffer opened (Neovim's own client
-- said "Spawning language server ... failed" for each); an apply says
-- why it cannot.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  H.result.lines = {}
  for _, f in ipairs({ 'main.txt', 'other.txt', 'answer.md' }) do
    local ok, err = pcall(H.edit, f)
    if not ok then
      error('opening ' .. f .. ': ' .. tostring(err))
    end
    table.insert(H.result.lines, H.lines(vim.api.nvim_get_current_buf()))
  end
  -- The message is said once the autocommands are done.
  vim.wait(200)
  vim.cmd('buffer ' .. vim.fn.bufnr(H.ws .. '/main.txt'))
  vim.fn.setreg('a', 'main.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n')
  local ok, err = pcall(vim.cmd, 'GraftApply a')
  H.result.apply_error = not ok and tostring(err) or ''
  vim.wait(200)
  H.result.main = H.lines(vim.api.nvim_get_current_buf())
  H.result.clients = #require('graft')._get_clients()
end)
