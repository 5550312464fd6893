-- The plugin as a plugin manager installs it (a clone of the repository,
-- its editors/nvim on 'runtimepath', the binary built into the clone's
-- bin/) and setup() with no options: the server runs from the clone's
-- bin/graft, :help graft opens, :checkhealth graft is content, and an
-- apply lands.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  local client = H.client(buf)
  H.result.cmd = client.config.cmd
  vim.cmd('help graft')
  H.result.help = vim.fn.expand('%:p')
  vim.cmd('close')
  vim.cmd('checkhealth graft')
  H.result.health = H.lines(vim.api.nvim_get_current_buf())
  vim.cmd('close')
  vim.cmd('buffer ' .. buf)
  vim.fn.setreg('a', table.concat({ 'main.txt', '<<<<<<< SEARCH', 'gamma', '=======', 'GAMMA', '>>>>>>> REPLACE', '' }, '\n'))
  H.run('apply', function()
    vim.cmd('GraftApply a')
  end)
  H.result.lines = H.lines(buf)
end)
