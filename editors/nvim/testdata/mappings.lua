-- setup({ mappings = true }) maps hunk review; ]h moves to the next hunk
-- and <leader>ha accepts the hunk under the cursor, as the keys would.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  H.result.maps = {}
  for _, lhs in ipairs({ '<leader>ha', '<leader>hr', '<leader>hA', '<leader>hR', ']h', '[h' }) do
    H.result.maps[lhs] = vim.fn.maparg(lhs, 'n')
  end
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('s', 'main.txt\n<<<<<<< SEARCH\nepsilon\n=======\nEPSILON\n>>>>>>> REPLACE\n')
  H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('normal ]h')
  H.result.cursor = vim.api.nvim_win_get_cursor(0)[1]
  H.run('accept', function()
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<leader>ha', true, false, true), 'mx', false)
  end)
  H.result.lines = H.lines(buf)
end)
