-- An answer whose first block is an apply-patch of two files and whose
-- second, a SEARCH/REPLACE, fails: the person sees two blocks, and all
-- that the plugin and the server say counts two. The code action offers
-- to apply the two and says what it did; after one undo, :GraftApplyBuffer
-- changes both files of the patch, says so, and lists "block 2" in the
-- quickfix list.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
local graft = require('graft')
H.scenario(function()
  local said = {}
  local notify = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(said, msg)
    return notify(msg, level, opts)
  end
  local main = H.edit('main.txt')
  H.client(main)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    local errors = 0
    for _, d in ipairs(vim.diagnostic.get(answer)) do
      if d.severity == vim.diagnostic.severity.ERROR then
        errors = errors + 1
      end
    end
    return errors > 0 and #vim.diagnostic.get(answer) >= 3
  end, 'the diagnostics of the answer')
  H.result.diagnostics = H.diagnostics(answer)

  -- The code action on the patch's block.
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  H.result.titles = H.code_action('^Apply all')
  H.wait(function()
    return #said > 0
  end, 'what the code action did')
  H.result.action = { said = said, main = H.lines(main), other = H.lines(vim.fn.bufnr(H.ws .. '/other.txt')) }

  said = {}
  vim.cmd('GraftUndo')
  said = {}
  local reply = H.run('apply', function()
    vim.cmd('GraftApplyBuffer')
  end)
  H.result.blocks = {}
  for _, b in ipairs(reply.blocks or {}) do
    table.insert(H.result.blocks, { block = b.block, path = b.path, status = b.status })
  end
  H.result.apply = {
    said = said,
    main = H.lines(main),
    other = H.lines(vim.fn.bufnr(H.ws .. '/other.txt')),
    qf = H.qf(),
  }
  H.result.report = graft.report_lines(reply.blocks)
end)
