-- A block that names no file, applied from the unnamed register while a
-- code buffer is current, goes to that buffer; the other open buffer and
-- the answer are untouched.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local other = H.edit('other.txt')
  H.client(other)
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('"', table.concat({
    '<<<<<<< SEARCH',
    'delta',
    '=======',
    'DELTA',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  vim.fn.setqflist({}, ' ', { title = 'mine', items = { { filename = H.ws .. '/main.txt', lnum = 1, text = 'mine' } } })
  local reply = H.run('apply', function()
    vim.cmd('GraftApply')
  end)
  H.result.applied = reply.applied
  H.result.lines = H.lines(buf)
  H.result.other = H.lines(other)
  H.result.qf_title = vim.fn.getqflist({ title = 0 }).title
end)
