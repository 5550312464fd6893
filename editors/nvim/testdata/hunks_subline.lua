-- A change of part of a line (a str-replace of a few words): the old part
-- highlighted, the new text shown beside it, the text unchanged until
-- :GraftAccept.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local hunks = require('graft.hunks')
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  vim.fn.setreg('s', vim.fn.json_encode({ path = 'main.txt', old_string = 'two three', new_string = '2 3' }))
  local reply = H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  H.result.ranges = {}
  for _, h in ipairs(reply.hunks or {}) do
    table.insert(H.result.ranges, { h.range.start.line, h.range.start.character, h.range['end'].line, h.range['end'].character })
  end
  H.result.marks = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, hunks.ns, 0, -1, { details = true })) do
    local d = m[4]
    local virt = ''
    for _, chunk in ipairs(d.virt_text or {}) do
      virt = virt .. chunk[1]
    end
    table.insert(H.result.marks, { row = m[2], col = m[3], hl = d.hl_group or '', end_col = d.end_col or -1, virt = virt })
  end
  H.result.unchanged = H.lines(buf)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  H.run('accept', function()
    vim.cmd('GraftAccept')
  end)
  H.result.accepted = H.lines(buf)
end)
