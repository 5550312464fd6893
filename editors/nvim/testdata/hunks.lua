-- A block with two separate changes, suggested through :GraftSuggest: both
-- hunks drawn inline (removed lines highlighted, added ones as virtual
-- lines, a sign each) with the text unchanged; :GraftNextHunk goes to the
-- second; :GraftAccept takes the first, :GraftReject drops the other; one
-- `u` takes the accepted hunk back.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local hunks = require('graft.hunks')

-- marks returns the hunk marks of buf: row, highlight, end row, sign and
-- the text and groups of their virtual lines.
local function marks(buf)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, hunks.ns, 0, -1, { details = true })) do
    local d = m[4]
    local virt = {}
    for _, vl in ipairs(d.virt_lines or {}) do
      for _, chunk in ipairs(vl) do
        table.insert(virt, { chunk[1], type(chunk[2]) == 'table' and chunk[2][1] or chunk[2] })
      end
    end
    table.insert(out, {
      row = m[2],
      hl = d.hl_group or '',
      end_row = d.end_row or -1,
      virt = virt,
    })
  end
  table.sort(out, function(a, b)
    if a.row ~= b.row then
      return a.row < b.row
    end
    return a.hl > b.hl
  end)
  return out
end

-- signs returns the lines of buf whose sign column, as the screen shows
-- it, holds the hunk sign (0.7's marks do not report their sign); two
-- sign columns, for the hint diagnostics' beside it.
local function signs(buf)
  vim.wo.signcolumn = 'yes:2'
  vim.cmd('redraw')
  local out = {}
  for lnum = 1, vim.api.nvim_buf_line_count(buf) do
    local pos = vim.fn.screenpos(0, lnum, 1)
    local text = ''
    for col = 1, 4 do
      text = text .. vim.fn.screenstring(pos.row, col)
    end
    if pos.row > 0 and text:find(hunks.sign, 1, true) then
      table.insert(out, lnum)
    end
  end
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
  local reply = H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  H.result.hunks = #(reply.hunks or {})
  H.result.drawn = marks(buf)
  H.result.signs = signs(buf)
  H.result.unchanged = H.lines(buf)
  H.result.links = {
    delete = vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('GraftHunkDelete')), 'name'),
    add = vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('GraftHunkAdd')), 'name'),
  }

  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('GraftNextHunk')
  H.result.next1 = vim.api.nvim_win_get_cursor(0)[1]
  vim.cmd('GraftNextHunk')
  H.result.next2 = vim.api.nvim_win_get_cursor(0)[1]
  vim.cmd('GraftPrevHunk')
  H.result.prev = vim.api.nvim_win_get_cursor(0)[1]

  H.run('accept', function()
    vim.cmd('GraftAccept')
  end)
  H.result.accepted = H.lines(buf)
  H.result.left = marks(buf)
  H.result.signs_left = signs(buf)

  vim.api.nvim_win_set_cursor(0, { 5, 0 })
  H.run('reject', function()
    vim.cmd('GraftReject')
  end)
  H.result.rejected = H.lines(buf)
  H.result.final_marks = marks(buf)
  H.result.signs_final = signs(buf)
  vim.cmd('normal! u')
  H.result.undone = H.lines(buf)
end)
