-- Neovim 0.11+'s own set-up, no setup(): vim.lsp.config('graft', {cmd})
-- and vim.lsp.enable('graft') start the server from the plugin's
-- lsp/graft.lua for a file of the workspace; :GraftApply uses that server
-- (no second one), its edit is one undo step, and the answer, a markdown
-- file, has its blocks' code lenses; an answer in an unnamed buffer has
-- its diagnostic.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local graft = require('graft')
H.scenario(function()
  local buf = H.edit('main.txt')
  local client = H.client(buf)
  H.result.root = client.config.root_dir
  H.result.cmd = client.config.cmd
  vim.cmd('normal! ggcwALPHA')
  vim.fn.setreg('a', table.concat({ 'main.txt', '<<<<<<< SEARCH', 'gamma', '=======', 'GAMMA', '>>>>>>> REPLACE', '' }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.applied = reply.applied
  H.result.lines = H.lines(buf)
  H.result.clients = #graft._get_clients({ name = 'graft' })
  vim.cmd('undo')
  H.result.undone = H.lines(buf)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    return #H.lenses(answer) >= 4
  end, 'the code lenses of the answer')
  H.result.lenses = H.lenses(answer)
  H.result.clients_after = #graft._get_clients({ name = 'graft' })

  -- An answer pasted into an unnamed buffer is attached by the same
  -- server, under a name of its own (:help graft-answer-buffer).
  vim.cmd('vnew')
  local unnamed = vim.api.nvim_get_current_buf()
  vim.cmd('set filetype=markdown')
  vim.api.nvim_buf_set_lines(unnamed, 0, -1, false, { 'other.txt', '```', '<<<<<<< SEARCH', 'three', '=======', 'THREE', '>>>>>>> REPLACE', '```' })
  H.client(unnamed)
  H.wait(function()
    return #vim.diagnostic.get(unnamed) > 0
  end, 'the diagnostic of the unnamed answer')
  H.result.unnamed = { name = vim.api.nvim_buf_get_name(unnamed), diagnostics = H.diagnostics(unnamed) }
  H.result.clients_unnamed = #graft._get_clients({ name = 'graft' })
end)
