-- :checkhealth graft and :GraftInfo report the binary, the server and its root.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local buf = H.edit('main.txt')
  H.client(buf)
  H.result.info = require('graft').info()
  vim.cmd('checkhealth graft')
  H.result.health = H.lines(vim.api.nvim_get_current_buf())
  H.result.commands = vim.fn.getcompletion('Graft', 'command')
  H.result.maps = vim.fn.maparg('<leader>ga', 'n')
  -- :help graft with the plugin on 'runtimepath' as installed, and no
  -- :helptags run: the tags ship in doc/tags.
  H.result.help = {}
  for _, tag in ipairs({ 'graft', ':GraftApply', 'graft.setup()', 'graft-codelens', 'graft-mappings', 'graft-install', 'graft-lsp-enable' }) do
    vim.cmd('help ' .. tag)
    table.insert(H.result.help, vim.fn.expand('%:t') .. ':' .. vim.fn.getline('.'):match('%*[^*]+%*'))
    vim.cmd('close')
  end
  local graft = require('graft')
  graft.setup(vim.tbl_extend('force', graft.config, { mappings = { apply = '<leader>ga', apply_selection = '<leader>ga' } }))
  H.result.asked = { vim.fn.maparg('<leader>ga', 'n'), vim.fn.maparg('<leader>ga', 'x') }
end)
