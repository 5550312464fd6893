-- An answer that edits two files, one open and one not: :GraftUndo takes
-- the apply back in both buffers at once.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('a', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'beta',
    '=======',
    'BETA',
    '>>>>>>> REPLACE',
    '',
    'other.txt',
    '<<<<<<< SEARCH',
    'two',
    '=======',
    'TWO',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.applied = reply.applied
  local other = vim.fn.bufnr(H.ws .. '/other.txt')
  H.result.main_applied = H.lines(buf)
  H.result.other_applied = H.lines(other)
  vim.cmd('GraftUndo')
  H.result.main_undone = H.lines(buf)
  H.result.other_undone = H.lines(other)
end)
