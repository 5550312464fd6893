-- :GraftSuggest makes two pending suggestions in main.txt, shown as
-- diagnostics and listed by :GraftSuggestions; one is applied through its
-- code action, the other dismissed through its own.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('s', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'beta',
    '=======',
    'BETA',
    '>>>>>>> REPLACE',
    '',
    'main.txt',
    '<<<<<<< SEARCH',
    'theta',
    '=======',
    'THETA',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local reply = H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  H.result.suggested = #reply.suggestions
  H.wait(function()
    return #vim.diagnostic.get(buf) == 2
  end, 'two suggestion diagnostics')
  H.result.shown = H.diagnostics(buf)
  H.result.unchanged = H.lines(buf)
  H.run('suggestions', function()
    vim.cmd('GraftSuggestions')
  end)
  H.result.listed = H.qf()

  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  H.result.titles = H.code_action('^Accept hunk')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end, 'the suggestion to apply')
  H.result.applied = H.lines(buf)

  vim.api.nvim_win_set_cursor(0, { 8, 0 })
  H.code_action('^Reject hunk')
  H.wait(function()
    return #vim.diagnostic.get(buf) == 0
  end, 'the dismissed suggestion to go')
  H.run('suggestions', function()
    vim.cmd('GraftSuggestions')
  end)
  H.result.left = H.qf()
  H.result.final = H.lines(buf)
end)
