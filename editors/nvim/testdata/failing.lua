-- A block that does not resolve lands in the quickfix list at the best
-- candidate's line with the reason; nothing else in that file changes,
-- even with the other block of the answer applied elsewhere.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('"', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'epsilon',
    'zeta is not here at all',
    'eta',
    '=======',
    'EPSILON',
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
  vim.fn.setqflist({}, ' ', { title = 'mine', items = { { filename = H.ws .. '/main.txt', lnum = 1, text = 'mine' } } })
  local reply = H.run('apply', function()
    vim.cmd('GraftApply')
  end)
  H.result.statuses = {}
  for _, b in ipairs(reply.blocks) do
    table.insert(H.result.statuses, b.status)
  end
  H.result.lines = H.lines(buf)
  H.result.modified = vim.bo[buf].modified
  H.result.qf = H.qf()
  vim.cmd('colder')
  H.result.older = vim.fn.getqflist({ title = 0 }).title
end)
