-- :GraftApplyBuffer in a markdown answer with blocks for two files, one of
-- them not open: both change in buffers (the closed one is loaded), the
-- disk does not.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local open = H.edit('main.txt')
  H.client(open)
  local answer = H.edit('answer.md')
  H.client(answer)
  local reply = H.run('apply', function()
    vim.cmd('GraftApplyBuffer')
  end)
  H.result.applied = reply.applied
  H.result.open = H.lines(open)
  local other = vim.fn.bufnr(H.ws .. '/other.txt')
  H.result.other_loaded = other > 0 and vim.api.nvim_buf_is_loaded(other)
  H.result.other = other > 0 and H.lines(other) or {}
  H.result.other_disk = H.disk('other.txt')
  H.result.main_disk = H.disk('main.txt')
  -- One undo in each changed buffer restores it.
  H.result.undone = {}
  for _, b in ipairs({ open, other }) do
    vim.api.nvim_buf_call(b, function()
      vim.cmd('normal! u')
    end)
    table.insert(H.result.undone, H.lines(b))
  end
end)
