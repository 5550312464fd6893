-- An agent's answer streamed into a chat buffer (a markdown scratch
-- buffer, as codecompanion.nvim and avante.nvim keep) line by line: the
-- block still being written is never an error, only "unfinished"
-- information; once it ends it resolves.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local main = H.edit('main.txt')
  H.client(main)
  vim.cmd('new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_name(buf, H.ws .. '/chat.md')
  vim.bo[buf].filetype = 'markdown'
  H.client(buf)

  local answer = {
    'Rename gamma:',
    '',
    '```',
    'main.txt',
    '<<<<<<< SEARCH',
    'gamma',
    '=======',
    'GAMMA',
    '>>>>>>> REPLACE',
    '```',
    '',
    'That is all.',
  }
  -- The block is unfinished from its search marker to its closing fence.
  local unfinished_from, ends_at = 5, 10
  H.result.errors = {}
  H.result.unfinished = {}
  local function seen(n)
    for _, d in ipairs(H.diagnostics(buf)) do
      if d.severity == vim.diagnostic.severity.ERROR or d.severity == vim.diagnostic.severity.WARN then
        table.insert(H.result.errors, { after = n, message = d.message, code = d.code })
      end
    end
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { answer[1] })
  for n = 2, #answer do
    vim.api.nvim_buf_set_lines(buf, -1, -1, false, { answer[n] })
    if n >= unfinished_from and n < ends_at then
      -- While the block is being written: its diagnostic says it waits.
      H.wait(function()
        seen(n)
        for _, d in ipairs(H.diagnostics(buf)) do
          if d.code == 'unfinished' and vim.api.nvim_buf_line_count(buf) == n then
            return true
          end
        end
        return false
      end, 'the unfinished diagnostic after line ' .. n)
      local d = H.diagnostics(buf)
      table.insert(H.result.unfinished, { after = n, count = #d, severity = d[1] and d[1].severity or 0 })
    else
      vim.wait(30)
      seen(n)
    end
  end
  H.wait(function()
    local d = H.diagnostics(buf)
    return #d == 1 and d[1].code ~= 'unfinished'
  end, 'the finished block to resolve')
  seen(#answer)
  H.result.final = H.diagnostics(buf)
  H.result.main = H.lines(main)
end)
