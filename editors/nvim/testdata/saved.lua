-- An answer pasted into a new, unnamed buffer, then written to a file
-- (:write answer.md): the buffer attaches then, as :edit answer.md would,
-- and its block gets its diagnostic.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local main = H.edit('main.txt')
  H.client(main)
  vim.cmd('vnew')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'markdown'
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, {
    'main.txt',
    '```',
    '<<<<<<< SEARCH',
    'beta',
    '=======',
    'BETA',
    '>>>>>>> REPLACE',
    '```',
  })
  vim.cmd('silent write ' .. vim.fn.fnameescape(H.ws .. '/answer.md'))
  H.wait(function()
    return #vim.diagnostic.get(buf) > 0
  end, 'the diagnostic of the saved answer')
  H.result.diagnostics = #vim.diagnostic.get(buf)
end)
