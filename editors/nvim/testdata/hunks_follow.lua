-- The drawn hunks follow the buffer: lines inserted above move them, and
-- a hunk whose lines the person rewrites is no longer drawn (the server
-- calls it stale), without any command.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local hunks = require('graft.hunks')

-- rows returns the rows of the marks that highlight removed lines.
local function rows(buf)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, hunks.ns, 0, -1, { details = true })) do
    if m[4].hl_group == 'GraftHunkDelete' then
      table.insert(out, m[2])
    end
  end
  table.sort(out)
  return out
end

H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('s', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    '=======',
    'BETA',
    'gamma',
    'delta',
    'EPSILON',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  H.result.drawn = rows(buf)

  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { 'new first line' })
  local seq = require('graft').last.hunks.seq
  H.wait(function()
    return require('graft').last.hunks.seq > seq
  end, 'the hunks to be asked for again after the insertion')
  H.result.moved = rows(buf)
  H.result.listed = #(hunks.byhunk[buf] or {})

  -- Rewrite the first hunk's line: the server no longer finds it.
  vim.api.nvim_buf_set_lines(buf, 2, 3, false, { 'bravo' })
  H.wait(function()
    return #rows(buf) == 1
  end, 'the stale hunk to go')
  H.result.after_rewrite = rows(buf)
  H.result.lines = H.lines(buf)
end)
