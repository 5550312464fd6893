-- Blocks that append to the end of a file, open (main.txt) and not
-- (other.txt): each file gets its lines and no empty line more.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('a', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'kappa',
    '=======',
    'kappa',
    'lambda',
    'mu',
    '>>>>>>> REPLACE',
    '',
    'other.txt',
    '<<<<<<< SEARCH',
    'three',
    '=======',
    'three',
    'four',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.applied = reply.applied
  H.result.main = H.lines(buf)
  local other = vim.fn.bufnr(H.ws .. '/other.txt')
  H.result.other = other > 0 and H.lines(other) or {}
end)
