-- The graft server's configuration for Neovim 0.11+'s vim.lsp.config():
-- vim.lsp.enable('graft') starts `graft serve` for the buffers of each
-- workspace root, with the options vim.lsp.config('graft', {...}) sets
-- over these (cmd, init_options). See :help graft-lsp-enable.
return require('graft').lsp_config()
