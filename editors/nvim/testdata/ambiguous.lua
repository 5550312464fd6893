-- A block whose lines stand twice in its file: the quickfix list names
-- both places, under :GraftApply and under :GraftSuggest alike, and
-- :GraftSuggestions opens the list it fills; the client's hints are not
-- underlined.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('dup.txt')
  local client = H.client(buf)
  -- Hints are not underlined: their sign and message say enough.
  local cfg = vim.diagnostic.config(nil, vim.lsp.diagnostic.get_namespace(client.id))
  H.result.underline_min = type(cfg.underline) == 'table' and cfg.underline.severity.min or -1
  vim.fn.setreg('a', table.concat({
    'dup.txt',
    '<<<<<<< SEARCH',
    'start()',
    'run()',
    '=======',
    'start()',
    'run(fast)',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  local function qf()
    local out = {}
    for _, e in ipairs(vim.fn.getqflist()) do
      table.insert(out, e.lnum)
    end
    return out
  end
  H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.apply = qf()
  vim.cmd('cclose')
  H.run('suggest', function()
    vim.cmd('GraftSuggest a')
  end)
  H.result.suggest = qf()
  vim.cmd('cclose')
  -- A suggestion to list: the block made unique by its line hint.
  vim.fn.setreg('b', 'dup.txt\n<<<<<<< SEARCH\nstop()\n=======\nstop(now)\n>>>>>>> REPLACE\n')
  H.run('suggest', function()
    vim.cmd('GraftSuggest b')
  end)
  H.run('suggestions', function()
    vim.cmd('GraftSuggestions')
  end)
  local open = false
  for _, w in ipairs(vim.fn.getwininfo()) do
    open = open or w.quickfix == 1
  end
  H.result.suggestions_open = open
  H.result.listed = #vim.fn.getqflist()
  H.result.title = vim.fn.getqflist({ title = 0 }).title
end)
