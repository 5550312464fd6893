-- An answer that names a file no buffer holds, with file watching turned
-- on through setup()'s capabilities: an agent writes the block's change
-- to the file on the disk itself, and the server, told by Neovim's
-- watcher, says the block is applied, the answer untouched.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local answer = H.edit('answer.md')
  local c = H.client(answer)
  local caps = c.config.capabilities or {}
  H.result.advertised = vim.tbl_get(caps, 'workspace', 'didChangeWatchedFiles', 'dynamicRegistration') == true
  local function first()
    local d = H.diagnostics(answer)
    return #d == 1 and d[1].message:match('^[^\n]*') or ''
  end
  H.wait(function() return first():match('^applies exactly') ~= nil end, 'the block to apply exactly')
  H.result.before = first()
  local path = H.ws .. '/main.txt'
  local f = assert(io.open(path, 'rb'))
  local text = f:read('*a'):gsub('gamma', 'GAMMA', 1)
  f:close()
  f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
  H.wait(function() return first():match('^already applied') ~= nil end, 'the block to stand, once the file changed on the disk')
  H.result.after = first()
  H.result.modified = vim.bo[answer].modified
end)
