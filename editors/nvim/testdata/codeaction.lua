-- An answer buffer shows one diagnostic per block; the code action
-- "Apply edit block" on a block applies it.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local target = H.edit('main.txt')
  H.client(target)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    return #vim.diagnostic.get(answer) >= 2
  end, 'diagnostics on the answer buffer')
  H.result.diagnostics = H.diagnostics(answer)
  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  local before = vim.api.nvim_buf_get_changedtick(target)
  H.result.titles = H.code_action('^Apply edit block')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(target) ~= before
  end, 'the code action to change main.txt')
  H.result.lines = H.lines(target)
end)
