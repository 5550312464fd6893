-- The graft server's configuration for Neovim 0.11+'s vim.lsp.config():
-- vim.lsp.enable('graft') starts `graft serve` for the buffers of each
-- workspace root, with the options vim.lsp.config('graft', {...}) sets
-- over these (cmd, init_options). See :help graft-lsp-enable.
local graft = require('graft')
-- The commands, for a plugin manager that puts the plugin on 'runtimepath'
-- after Neovim sourced plugin/ (lazy.nvim's config).
if vim.fn.exists(':GraftApply') ~= 2 then
  graft.define_commands()
end
return graft.lsp_config()
