-- An apply-patch that adds a file: the new buffer holds exactly the
-- file's lines (no empty line more), nothing is on the disk until the
-- person writes it, what is written is exactly the content, and one undo
-- empties the buffer.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('a', table.concat({
    '*** Begin Patch',
    '*** Add File: pkg/store_test.go',
    '+package pkg',
    '+',
    '+func TestStore(t *testing.T) {}',
    '*** End Patch',
    '',
  }, '\n'))
  local reply = H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.applied = reply.applied
  local path = H.ws .. '/pkg/store_test.go'
  local nb = vim.fn.bufnr(path)
  H.result.lines = nb > 0 and H.lines(nb) or {}
  H.result.on_disk_before_write = vim.fn.filereadable(path) == 1
  vim.api.nvim_buf_call(nb, function()
    vim.cmd('silent write')
  end)
  local f = io.open(path, 'rb')
  H.result.written = f and f:read('*a') or ''
  if f then
    f:close()
  end
  vim.api.nvim_buf_call(nb, function()
    vim.cmd('silent undo')
  end)
  H.result.after_undo = H.lines(nb)
end)
