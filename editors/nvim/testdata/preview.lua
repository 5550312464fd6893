-- :GraftPreview opens a diff scratch buffer with the diff and the report,
-- and changes nothing.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('p', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'gamma',
    '=======',
    'GAMMA',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  H.run('preview', function()
    vim.cmd('GraftPreview p')
  end)
  local pbuf = vim.api.nvim_get_current_buf()
  H.result.filetype = vim.bo[pbuf].filetype
  H.result.buftype = vim.bo[pbuf].buftype
  H.result.preview = H.lines(pbuf)
  H.result.lines = H.lines(buf)
  H.result.modified = vim.bo[buf].modified
  H.result.disk = H.disk('main.txt')
end)
