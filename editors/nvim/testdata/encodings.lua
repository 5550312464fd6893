-- A CRLF buffer (fileformat=dos) and a buffer with emoji before the edit
-- point: the edit lands on the right characters, the line endings stay.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local dos = H.edit('dos.txt')
  H.client(dos)
  local emoji = H.edit('emoji.txt')
  H.client(emoji)
  vim.fn.setreg('"', table.concat({
    'dos.txt',
    '<<<<<<< SEARCH',
    'two',
    '=======',
    'TWO',
    'two and a half',
    '>>>>>>> REPLACE',
    '',
    'emoji.txt',
    '<<<<<<< SEARCH',
    'say("🙂🙂 hi", old)',
    '=======',
    'say("🙂🙂 hi", new)',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply')
  end)
  H.result.applied = reply.applied
  H.result.fileformat = vim.bo[dos].fileformat
  H.result.dos = H.lines(dos)
  H.result.emoji = H.lines(emoji)
  vim.api.nvim_buf_call(dos, function()
    vim.cmd('write')
  end)
  H.result.dos_disk = H.disk('dos.txt')
end)
