-- A block whose lines stand twice in its file, suggested through
-- :GraftSuggest: nothing is drawn nor changed, each place has a diagnostic
-- whose code actions offer both places; the second chosen, its hunk is
-- drawn there alone, and :GraftAccept makes exactly that change, which one
-- `u` takes back.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local hunks = require('graft.hunks')

-- drawn returns the rows of buf with hunk marks.
local function drawn(buf)
  local rows = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, hunks.ns, 0, -1, {})) do
    table.insert(rows, m[2])
  end
  table.sort(rows)
  return rows
end

local function codes(buf)
  local out = {}
  for _, d in ipairs(H.diagnostics(buf)) do
    table.insert(out, { lnum = d.lnum, code = d.code })
  end
  return out
end

H.scenario(function()
  local buf = H.edit('dup.txt')
  H.client(buf)
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
  local reply = H.run('suggest', function()
    vim.cmd('GraftSuggest a')
  end)
  H.result.places = #(reply.blocks[1].places or {})
  H.wait(function()
    local d = H.diagnostics(buf)
    return #d == 2 and d[1].code == 'ambiguous' and d[2].code == 'ambiguous'
  end, 'a diagnostic on each place')
  H.result.offered = codes(buf)
  H.result.drawn_before = drawn(buf)

  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  H.result.titles = H.code_action('^Suggest at lines 4%-5')
  H.wait(function()
    local d = H.diagnostics(buf)
    return #d == 1 and d[1].code == 'suggestion'
  end, 'the suggestion at the place chosen')
  H.wait(function()
    return #drawn(buf) > 0
  end, 'the hunk to be drawn')
  H.result.chosen = codes(buf)
  H.result.drawn = drawn(buf)
  H.result.unchanged = H.lines(buf)

  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  H.run('accept', function()
    vim.cmd('GraftAccept')
  end)
  H.result.accepted = H.lines(buf)
  vim.cmd('normal! u')
  H.result.undone = H.lines(buf)
end)
