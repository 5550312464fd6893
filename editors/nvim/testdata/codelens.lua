-- An answer buffer shows the server's code lenses through Neovim's own LSP
-- UI: Apply and Preview above each block. vim.lsp.codelens.run() on the
-- first block's line, choosing its Apply lens, applies that block to
-- main.txt; the lenses then follow the block, which is applied.
-- A suggestion made with :GraftSuggest gets its lenses in main.txt, and
-- its Apply lens applies it.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local target = H.edit('main.txt')
  H.client(target)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    return #H.lenses(answer) >= 4
  end, 'code lenses on the answer buffer')
  H.result.lenses = H.lenses(answer)
  local line
  for _, l in ipairs(H.result.lenses) do
    if l.title:match('^Apply .* main%.txt$') then
      line = l.line
    end
  end
  assert(line, 'no Apply lens for main.txt: ' .. vim.inspect(H.result.lenses))
  vim.api.nvim_win_set_cursor(0, { line + 1, 0 })
  local before = vim.api.nvim_buf_get_changedtick(target)
  H.result.offered = H.codelens_run('^Apply')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(target) ~= before
  end, 'the lens to change main.txt')
  H.result.lines = H.lines(target)
  H.result.other_loaded = vim.fn.bufloaded(H.ws .. '/other.txt') == 1
  -- The server asks for the lenses again (workspace/codeLens/refresh):
  -- the applied block has no Apply lens any more, but one saying it is
  -- applied.
  H.wait(function()
    for _, l in ipairs(H.lenses(answer)) do
      if l.title == 'Applied → main.txt' then
        return true
      end
    end
    return false
  end, 'the lenses to follow the applied block')
  H.result.after = H.lenses(answer)

  vim.fn.setreg('s', table.concat({
    'main.txt',
    '<<<<<<< SEARCH',
    'theta',
    '=======',
    'THETA',
    '>>>>>>> REPLACE',
    '',
  }, '\n'))
  vim.cmd('buffer ' .. target)
  H.run('suggest', function()
    vim.cmd('GraftSuggest s')
  end)
  H.wait(function()
    return #H.lenses(target) >= 2
  end, 'the suggestion lenses in main.txt')
  H.result.suggestion = H.lenses(target)
  vim.api.nvim_win_set_cursor(0, { H.result.suggestion[1].line + 1, 0 })
  local tick = vim.api.nvim_buf_get_changedtick(target)
  H.result.suggestion_offered = H.codelens_run('^Accept')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(target) ~= tick
  end, 'the suggestion lens to change main.txt')
  H.result.suggested = H.lines(target)
end)
