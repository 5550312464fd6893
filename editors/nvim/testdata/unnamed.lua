-- Two answers pasted at once into unnamed buffers (:vnew, :set
-- ft=markdown), as a person tries an answer without saving it: each gets
-- its blocks' diagnostics and its code action applies the block to its
-- file's buffer; :write says the answer has no file, :write {file} saves
-- it there and it stays attached.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))

-- paste opens an unnamed buffer beside, sets its filetype as the person
-- does, and puts the answer in.
local function paste(lines)
  vim.cmd('vnew')
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('set filetype=markdown')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  return buf
end

H.scenario(function()
  local main = H.edit('main.txt')
  H.client(main)
  local a = paste({ 'main.txt', '```', '<<<<<<< SEARCH', 'beta', '=======', 'BETA', '>>>>>>> REPLACE', '```' })
  local b = paste({ 'Then:', '', 'other.txt', '```', '<<<<<<< SEARCH', 'two', '=======', 'TWO', '>>>>>>> REPLACE', '```' })
  H.client(a)
  H.client(b)
  H.wait(function()
    return #vim.diagnostic.get(a) > 0 and #vim.diagnostic.get(b) > 0
  end, 'the diagnostics of both answers')
  H.result.names = { vim.api.nvim_buf_get_name(a), vim.api.nvim_buf_get_name(b) }
  H.result.diagnostics = { H.diagnostics(a), H.diagnostics(b) }

  -- The second answer's code action, then the first's.
  vim.api.nvim_set_current_buf(b)
  vim.api.nvim_win_set_cursor(0, { 6, 0 })
  H.result.titles_b = H.code_action('^Apply edit block')
  H.wait(function()
    local o = vim.fn.bufnr(H.ws .. '/other.txt')
    return o > 0 and vim.api.nvim_buf_is_loaded(o) and H.lines(o)[2] == 'TWO'
  end, 'the code action to change other.txt')
  vim.api.nvim_set_current_buf(a)
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  local before = vim.api.nvim_buf_get_changedtick(main)
  H.result.titles_a = H.code_action('^Apply edit block')
  H.wait(function()
    return vim.api.nvim_buf_get_changedtick(main) ~= before
  end, 'the code action to change main.txt')
  H.result.main = H.lines(main)
  H.result.other = H.lines(vim.fn.bufnr(H.ws .. '/other.txt'))
  H.result.answers = { H.lines(a), H.lines(b) }

  -- No buffer is made for the URI an unnamed buffer had ("file://").
  H.result.buffers = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    table.insert(H.result.buffers, vim.api.nvim_buf_get_name(buf))
  end

  -- :write has no file to write to, and says so; the answer stays
  -- unsaved, and :wq does not quit.
  vim.cmd('messages clear')
  local ok, err = pcall(vim.cmd, 'write')
  local wins = #vim.api.nvim_list_wins()
  pcall(vim.cmd, 'wq')
  H.result.write = {
    ok = ok,
    err = tostring(err or ''),
    said = vim.split(vim.fn.execute('messages'), '\n', { trimempty = true }),
    modified = vim.bo[a].modified,
    windows = #vim.api.nvim_list_wins() == wins and vim.api.nvim_get_current_buf() == a,
  }

  -- :write {file} saves it there, names the buffer after it, and the
  -- server follows: a block added to the answer gets its diagnostic.
  vim.cmd('silent write ' .. vim.fn.fnameescape(H.ws .. '/answer.md'))
  H.result.saved = {
    name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(a), ':t'),
    modified = vim.bo[a].modified,
    disk = H.disk('answer.md'),
    attached = #require('graft')._get_clients({ name = 'graft', bufnr = a }),
  }
  vim.api.nvim_buf_set_lines(a, -1, -1, false, { '', 'main.txt', '```', '<<<<<<< SEARCH', 'delta', '=======', 'DELTA', '>>>>>>> REPLACE', '```' })
  H.wait(function()
    return #vim.diagnostic.get(a) >= 2
  end, 'the diagnostics of the saved answer, after a block is added')
  H.result.saved.diagnostics = H.diagnostics(a)
  H.result.left = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(buf)
    if name:match('^graft://') then
      table.insert(H.result.left, name)
    end
  end
end)
