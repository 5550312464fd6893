-- The graft commands, there from start-up: with setup() or with Neovim
-- 0.11's vim.lsp.enable('graft'). Nothing else happens until one is used or
-- setup() is called.
if vim.g.loaded_graft or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_graft = true
require('graft').define_commands()
