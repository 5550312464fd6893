-- :'<,'>GraftApply applies the selected lines of a markdown answer: only
-- the selected block, not the other one in the buffer.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local target = H.edit('main.txt')
  H.client(target)
  local answer = H.edit('answer.md')
  H.client(answer)
  -- Lines 3-10 hold the first block; the second one is left out.
  vim.cmd('normal! 3GV10G\27')
  local reply = H.run('apply', function()
    vim.cmd("'<,'>GraftApply")
  end)
  H.result.blocks = #reply.blocks
  H.result.lines = H.lines(target)
  H.result.answer_modified = vim.bo[answer].modified
end)
