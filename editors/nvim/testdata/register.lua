-- :GraftApply a into an open buffer with unsaved changes: the buffer is
-- edited, the disk is not; a mark, a fold and the cursor below stay on
-- their lines;
-- applied again, it changes nothing and fails nothing; one undo restores
-- the buffer as it was before the apply.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.cmd('normal! ggcwALPHA')
  vim.api.nvim_win_set_cursor(0, { 8, 2 })
  vim.api.nvim_buf_set_mark(buf, 'a', 9, 1, {})
  vim.wo.foldmethod = 'manual'
  vim.cmd('9,10fold')
  vim.fn.setreg('a', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'gamma',
    '=======',
    'gamma one',
    'gamma two',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.applied = reply.applied
  H.result.lines = H.lines(buf)
  H.result.disk = H.disk('main.txt')
  H.result.modified = vim.bo[buf].modified
  H.result.cursor = vim.api.nvim_win_get_cursor(0)
  H.result.mark = vim.api.nvim_buf_get_mark(buf, 'a')
  H.result.qf = H.qf()
  H.result.fold = { vim.fn.foldclosed(10), vim.fn.foldclosedend(10) }
  -- The same answer again: its change stands already, so nothing is
  -- applied twice and nothing failed (no quickfix entry).
  local again = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.again = {
    applied = again.applied,
    status = again.blocks[1].status,
    lines = H.lines(buf),
    qf = H.qf(),
  }
  vim.cmd('normal! u')
  H.result.undone = H.lines(buf)
end)
